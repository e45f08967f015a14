/**
 * What era negotiation does once the 2026-07-28 probe points at a legacy
 * server (spec: basic/versioning "Backward Compatibility"): the legacy
 * handshake, and what a failure of both eras means. Loaded with the legacy
 * era, so pages that only meet modern servers never download it.
 *
 * @module
 */
import { McpClientError, McpRpcError } from '../protocol/errors.js';
import type { Session } from '../transport/session.js';

/** What the fallback needs from the client's negotiation. */
export interface FallbackHost {
  /** The endpoint, for messages. */
  url: string;
  /** Opens a legacy session; `probeError` is why the modern probe failed, if it did. */
  openLegacy(signal: AbortSignal, probeError?: unknown): Promise<Session>;
  warn(code: string, message: string): void;
}

/**
 * The legacy handshake after a failed `server/discover` probe that looked
 * legacy, or that a page's CORS refused before any response (`cors`: the
 * refused request's headers).
 * @throws the error that says most: the legacy one, the probe's, or (refused
 *   by CORS in both eras) one naming both eras' headers.
 */
export async function legacyAfterProbe(host: FallbackHost, signal: AbortSignal, probeError: unknown, cors: { requestHeaders: string[] } | undefined): Promise<Session> {
  let session: Session;
  try {
    session = await host.openLegacy(signal, probeError);
  } catch (legacyError) {
    if (!cors) throw legacyError;
    const legacyCors = McpClientError.isInstance(legacyError) && (legacyError.data.cors as { requestHeaders?: string[] } | undefined);
    // Refused before any response in both eras: one error naming both eras' headers.
    if (legacyCors && legacyCors.requestHeaders) throw (await import('../transport/cors.js')).bothErasRefused(probeError as McpClientError, legacyError as McpClientError, host.url);
    // The handshake got further: its own CORS fault (a hidden Mcp-Session-Id) says more; a refusal says less.
    throw legacyCors ? legacyError : probeError;
  }
  if (cors) {
    host.warn(
      'modern-headers-refused',
      `${host.url} refused the 2026-07-28 request (its headers ${cors.requestHeaders.join(', ')}) through CORS; connected with the legacy handshake instead. To use 2026-07-28, its CORS preflight answers must allow those headers.`,
    );
  }
  return session;
}

/**
 * The legacy handshake after a `server/discover` answered without
 * `supportedVersions` (e.g. `{}`: a legacy server answering unknown methods
 * generically).
 * @returns the legacy session, or undefined when the server refused
 *   `initialize` (it is then taken for a modern one, with a warning).
 * @throws a failure before any response (CORS…) or after the handshake started.
 */
export async function legacyAfterDiscover(host: FallbackHost, signal: AbortSignal): Promise<Session | undefined> {
  try {
    return await host.openLegacy(signal);
  } catch (error) {
    // Only a server that refused initialize is taken for a modern one; a failure before any
    // response (CORS…) or after the handshake started is the error to report.
    if (!McpRpcError.isInstance(error) && !(McpClientError.isInstance(error) && (error.code === 'http' || error.code === 'unsupported_version'))) throw error;
    host.warn('discover-without-versions', `${host.url} answered server/discover without supportedVersions and refused initialize (${(error as Error).message}); continuing as modern`);
    return undefined;
  }
}
