/**
 * Legacy era (2025-11-25 and earlier) session. Placeholder until the dual-era
 * work lands: a legacy server is reported with a clear error.
 *
 * @module
 */
import { McpClientError } from '../errors.js';
import type { Session, SessionHost } from '../session.js';

export interface LegacyHost extends SessionHost {
  url: URL;
}

export async function openLegacySession(host: LegacyHost, _options: { signal?: AbortSignal; probeError?: unknown }): Promise<Session> {
  throw new McpClientError('unsupported_version', `${host.url.href} looks like a legacy (initialize-based) MCP server, which this build does not speak yet`, { url: host.url.href });
}
