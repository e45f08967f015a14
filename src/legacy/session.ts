/**
 * Legacy era sessions (2025-11-25 back to 2024-11-05): the `initialize`
 * handshake, `Mcp-Session-Id`, server → client requests on SSE streams,
 * resumable streams, and the deprecated HTTP+SSE transport. The client loads
 * this module only when it meets a legacy server (or is pinned to `legacy`), so
 * modern-only pages never download it.
 *
 * Order of attempts (basic/transports/streamable-http "Backward Compatibility";
 * checklist §3 steps 5 and 6):
 * 1. Streamable HTTP: POST `initialize` to the endpoint.
 * 2. If that fails with 400, 404 or 405 and no modern JSON-RPC error, the
 *    endpoint may be a 2024-11-05 HTTP+SSE server: GET it and expect an
 *    `endpoint` event.
 *
 * @module
 */
import { ErrorCode, McpClientError, McpRpcError } from '../protocol/errors.js';
import type { Session } from '../transport/session.js';
import { StreamableLegacySession } from './streamable.js';
import type { LegacyHost } from './base.js';

export type { LegacyHost, LegacyInputContext } from './base.js';

/** Modern error codes: a body carrying one of these is no reason to try HTTP+SSE. */
const MODERN_CODES = new Set<number>([ErrorCode.HeaderMismatch, ErrorCode.MissingRequiredClientCapability, ErrorCode.UnsupportedProtocolVersion]);

/** Whether `initialize` was refused the way a 2024-11-05 HTTP+SSE endpoint refuses a POST. */
function refusedLikeHttpSse(error: unknown): boolean {
  if (McpRpcError.isInstance(error)) {
    const status = error.httpStatus ?? 200;
    return (status === 400 || status === 404 || status === 405) && !MODERN_CODES.has(error.code);
  }
  if (McpClientError.isInstance(error) && error.code === 'http') {
    const status = error.data.status;
    return status === 400 || status === 404 || status === 405;
  }
  return false;
}

/**
 * Opens a legacy session with the server at `host.url`.
 *
 * @param options.signal - aborts the handshake.
 * @param options.probeError - why the modern probe failed (unused: the `initialize` error says more).
 * @returns a connected {@link Session} whose description has era `legacy` and the negotiated version.
 * @throws McpRpcError / McpClientError from `initialize` (`http`, `network`,
 *   `unsupported_version`, `cors` when the session id is hidden by CORS…); when
 *   the HTTP+SSE fallback fails too, the `initialize` error with the fallback's
 *   failure named in the message.
 */
export async function openLegacySession(host: LegacyHost, options: { signal?: AbortSignal; probeError?: unknown }): Promise<Session> {
  const attempt = await StreamableLegacySession.open(host, options.signal);
  if ('session' in attempt) return attempt.session;
  const error = attempt.error;
  if (!attempt.initializeRefused || !refusedLikeHttpSse(error) || options.signal?.aborted) throw error;
  // Deprecated transport, rarely needed: its code is loaded only here.
  const { HttpSseSession } = await import('./http-sse.js');
  try {
    const session = await HttpSseSession.open(host, options.signal);
    host.warn('legacy-http-sse', `${host.url.href} speaks the deprecated HTTP+SSE transport (2024-11-05); consider upgrading the server to Streamable HTTP`);
    return session;
  } catch (fallbackError) {
    const detail = fallbackError instanceof Error ? fallbackError.message : String(fallbackError);
    const message = `${error instanceof Error ? error.message : String(error)}. Tried: server/discover (modern), initialize (Streamable HTTP), then a GET for an HTTP+SSE "endpoint" event (${detail})`;
    if (McpRpcError.isInstance(error)) throw new McpRpcError(error.code, message, error.data, { httpStatus: error.httpStatus, url: error.url });
    const original = error as McpClientError;
    throw new McpClientError(original.code, message, { ...original.data, fallback: detail }, { cause: original });
  }
}
