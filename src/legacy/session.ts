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
import type { InputRequestMethod, JsonRpcNotification } from '../protocol/types.js';
import type { ElicitationHandler, HandlerLookup } from '../rounds/handlers.js';
import type { ServerDescription, Session, SessionHost } from '../transport/session.js';
import { StreamableLegacySession } from './streamable.js';
import type { LegacyHost } from './base.js';

export type { LegacyHost, LegacyInputContext } from './base.js';
// Era negotiation's legacy branches load with this module (one chunk).
export { legacyAfterDiscover, legacyAfterProbe } from './fallback.js';

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

/** What the client hands the legacy era: its session host, and what answering the server's own requests needs. */
export interface LegacyClient {
  /** The client's session host (its `traffic` is read per message). */
  session: SessionHost;
  /** The endpoint the user gave. */
  url: URL;
  /** The input handlers (those of MRTR), which answer the server's requests on its streams. */
  lookup: HandlerLookup;
  /** What is known about the server now. */
  description(): ServerDescription | undefined;
  /** Delivers a server notification to the client (cache invalidation, events). */
  dispatch(notification: JsonRpcNotification): void;
  /** Calls `listener` whenever input handlers are registered or removed; returns the unsubscribe function. */
  onHandlersChanged(listener: () => void): () => void;
  /** `session` found the endpoint answering like a modern server: the client forgets it and the legacy verdict. */
  eraChanged(session: Session): void;
}

/** The host of the legacy session about to open (`self` returns it once open). */
function legacyHost(client: LegacyClient, self: () => Session | undefined): LegacyHost {
  const host = client.session;
  const { lookup, url } = client;
  return {
    ...host,
    // Spreading copied the getter's current value; the legacy session needs it read per message.
    get traffic() {
      return host.traffic;
    },
    url,
    answerInput: async (request, context) => {
      const input = await import('../rounds/input.js');
      return input.answerOne(lookup, input.checkAnswerable(lookup, url.href, context.key, request), {
        key: context.key,
        index: 0,
        total: 1,
        round: 0,
        method: context.method ?? request.method,
        target: context.target,
        taskId: context.taskId,
        callId: 0,
        signal: context.signal,
        server: client.description() ?? { era: 'legacy', protocolVersion: '', supportedVersions: [], capabilities: {} },
        url: url.href,
        // The server's own URL-mode request: accept is consent to open the page, due when it opens.
        ...(request.method === 'elicitation/create' && (request.params as { mode?: unknown }).mode === 'url' ? { urlAnswer: 'on-open' as const } : {}),
      });
    },
    hasInputHandler: (method, mode) => {
      const handler = lookup(method as InputRequestMethod);
      // An elicitation handler answers only the modes it declared.
      return method === 'elicitation/create' ? (handler as ElicitationHandler | undefined)?.modes.includes((mode ?? 'form') as 'form') === true : handler !== undefined;
    },
    notification: (notification) => client.dispatch(notification),
    onHandlersChanged: (listener) => client.onHandlersChanged(listener),
    eraChanged: () => {
      const session = self();
      if (session) client.eraChanged(session);
    },
  };
}

/**
 * Opens a legacy session with the server at `client.url`.
 *
 * @param options.signal - aborts the handshake.
 * @param options.probeError - why the modern probe failed (unused: the `initialize` error says more).
 * @returns a connected {@link Session} whose description has era `legacy` and the negotiated version.
 * @throws McpRpcError / McpClientError from `initialize` (`http`, `network`,
 *   `unsupported_version`, `cors` when the session id is hidden by CORS…); when
 *   the HTTP+SSE fallback fails too, the `initialize` error with the fallback's
 *   failure named in the message.
 */
export async function openLegacySession(client: LegacyClient, options: { signal?: AbortSignal; probeError?: unknown }): Promise<Session> {
  const opened: { session?: Session } = {};
  const host = legacyHost(client, () => opened.session);
  opened.session = await open(host, options);
  return opened.session;
}

async function open(host: LegacyHost, options: { signal?: AbortSignal; probeError?: unknown }): Promise<Session> {
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
