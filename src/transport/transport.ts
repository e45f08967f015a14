/**
 * The Streamable HTTP transport, built on nothing but `fetch`
 * (spec: basic/transports/streamable-http).
 *
 * One POST per JSON-RPC message. A request's reply is either one
 * `application/json` body or a `text/event-stream` carrying request-scoped
 * notifications and then the response. This module knows HTTP and SSE; it does
 * not know MCP semantics (versions, `_meta`, input requests), which live in the
 * session and client layers.
 *
 * @module
 */
import { McpClientError, McpError, McpRpcError, type McpErrorData } from '../protocol/errors.js';
import { isRequestId, parseMessage, type IncomingMessage } from '../protocol/jsonrpc.js';
import { isObject, parseJson, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse, type RequestId } from '../protocol/types.js';
import { isRedirect, type FetchLike } from './fetch.js';

// The transport's options take one; declared in the leaf `./fetch.ts`, which the redirect module and the OAuth layer share.
export type { FetchLike };

/** Default cap on a JSON response body, in bytes (64 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** A non-fatal oddity worth telling the developer about (logged once per kind by the client). */
export interface TransportWarning {
  code: string;
  message: string;
  data?: unknown;
}

export interface HttpTransportOptions {
  /** The MCP endpoint. */
  url: string | URL;
  /** `fetch` to use; defaults to `globalThis.fetch`, looked up at call time. */
  fetch?: FetchLike;
  /** Cap on a JSON body, in bytes; default {@link DEFAULT_MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** Cap on one SSE event, in characters; default 16 Mi. */
  maxEventChars?: number;
  /** Receives non-fatal warnings (ignored frames, odd media types). */
  onWarning?: (warning: TransportWarning) => void;
}

/** Per-message options of {@link HttpTransport.send}. */
export interface SendOptions {
  /** Aborting closes the request's stream, which is the cancellation on 2026-07-28. */
  signal?: AbortSignal;
  /** Headers for this POST (protocol version, `Mcp-*`, auth, user headers). */
  headers?: Record<string, string>;
  /** Messages that arrive on the stream before the final response (notifications; legacy server requests). */
  onMessage?: (message: IncomingMessage) => void;
  /** SSE `id:` of each event (legacy resumption). */
  onEventId?: (id: string) => void;
  /** SSE `retry:` hint in ms (legacy resumption). */
  onRetry?: (ms: number) => void;
  /** Called with the response status and headers as soon as they arrive. */
  onHeaders?: (status: number, headers: Headers) => void;
}

/** What a request's POST yielded. */
export interface Exchange {
  response: JsonRpcResponse;
  status: number;
  headers: Headers;
}

/** The SSE reader, loaded with the first request (see `./sse.ts`). */
let sse: Promise<typeof import('./sse.js')> | undefined;
// A failed load (the chunk unreachable for a moment) is forgotten, whoever asked for it: the next request loads it again.
const loadSse = () =>
  (sse ??= import('./sse.js').catch((error: unknown) => {
    sse = undefined;
    throw error;
  }));

function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

// One decoder for every body: `decode()` without `stream` starts afresh each time, and a
// decoder per reply showed in a browser's profile of concurrent calls.
const utf8 = new TextDecoder();

/** Reads a body as UTF-8 text, refusing more than `maxBytes`. */
export async function readBodyText(response: Response, maxBytes: number, context: McpErrorData): Promise<string> {
  if (!response.body) return '';
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel().catch(() => {});
    throw new McpClientError('too_large', `Response body of ${declared} bytes exceeds the ${maxBytes}-byte limit`, { ...context, limit: maxBytes });
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new McpClientError('too_large', `Response body exceeds the ${maxBytes}-byte limit`, { ...context, limit: maxBytes });
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return utf8.decode(chunks[0]);
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return utf8.decode(all);
}

/**
 * An error response whose `id` is no valid id at all (`2.5`, an object) with its
 * id nulled, so that the server's error survives parsing; anything else as is.
 */
function withoutBadErrorId(value: unknown): unknown {
  return isObject(value) && isObject(value.error) && !('method' in value) && value.id != null && !isRequestId(value.id) ? { ...value, id: null } : value;
}

/**
 * How a response that arrived on a request's own exchange (its POST's JSON body
 * or SSE stream) relates to that request: `exact`; `loose` when the server
 * mangled the id (`"2"` for `2`, or any id on an error), which still answers
 * the request, since nothing else is answered there; undefined for a result
 * carrying an unrelated id, which cannot be told apart from a misrouted answer.
 */
function replyFit(message: JsonRpcResponse, id: RequestId): 'exact' | 'loose' | undefined {
  if (message.id === id) return 'exact';
  if ('error' in message) return message.id == null ? 'exact' : 'loose';
  return String(message.id) === String(id) ? 'loose' : undefined;
}

/**
 * Turns an HTTP error status into the right error: the JSON-RPC error from the
 * body when there is one ({@link McpRpcError} with `httpStatus`), otherwise an
 * {@link McpClientError} `http` that keeps the status, URL and a body excerpt.
 */
export async function httpError(response: Response, context: McpErrorData): Promise<McpRpcError | McpClientError> {
  let text = '';
  try {
    text = await readBodyText(response, 64 * 1024, context);
  } catch {
    /* the status alone must do */
  }
  const status = response.status;
  const contentType = response.headers.get('content-type') ?? undefined;
  if (text) {
    try {
      // The server's error is kept whatever the body's id (it may be mangled, or null).
      const parsed = parseMessage(withoutBadErrorId(JSON.parse(text)));
      if (parsed.kind === 'response' && 'error' in parsed.message) {
        const { code, message, data } = parsed.message.error;
        return new McpRpcError(code, message, data, { httpStatus: status, url: context.url });
      }
    } catch {
      /* not a JSON-RPC body */
    }
  }
  const wwwAuthenticate = response.headers.get('www-authenticate') ?? undefined;
  let hint = '';
  if (status === 403 && !wwwAuthenticate?.toLowerCase().startsWith('bearer')) {
    hint = ' (a 403 without a Bearer challenge usually means the server rejected this page\'s Origin)';
  }
  return new McpClientError(
    'http',
    `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''} from POST ${context.url}${context.method ? ` (${context.method})` : ''}${hint}`,
    { ...context, status, contentType, wwwAuthenticate, bodyText: text.slice(0, 2000) || undefined },
  );
}

/**
 * Whether `fetch` failed because the connection was reset or closed by the other side
 * before any response came: the race of a request sent on a kept-alive connection the
 * server is closing as idle. Node's fetch (undici) says so in `cause.code`; a browser
 * says only "Failed to fetch", and resends such a request itself (its network stack knows
 * the connection was reused), so there this is never true.
 */
function resetBeforeResponse(error: unknown): boolean {
  return /^(ECONNRESET|UND_ERR_SOCKET|EPIPE)$/.test(String((error as { cause?: { code?: unknown } } | null)?.cause?.code));
}

/**
 * Maps a `fetch` rejection to a kit error: `aborted` when the signal fired, a
 * kit error as it is (a page's CORS diagnosis, a refused redirect), otherwise
 * `network`.
 */
export function fetchFailure(error: unknown, signal: AbortSignal | undefined, context: McpErrorData): McpClientError {
  if (McpClientError.isInstance(error)) return error;
  if (signal?.aborted) {
    const reason = signal.reason;
    if (McpClientError.isInstance(reason)) return reason;
    return new McpClientError('aborted', `${context.method ?? 'Request'} to ${context.url} was aborted`, context, { cause: reason });
  }
  const cause = error as { message?: string; cause?: { code?: string; message?: string } };
  const detail = cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? String(error);
  return new McpClientError(
    'network',
    `Could not reach ${context.url}${context.method ? ` (${context.method})` : ''}: the request failed before any response (${detail}). ` +
      'The server may be down or unreachable.',
    { ...context, cause: detail },
    { cause: error },
  );
}

/**
 * Maps a failure while reading a response body: kit errors pass through, an
 * abort becomes `aborted`, anything else is a dropped connection (`network`).
 */
export function readFailure(error: unknown, signal: AbortSignal | undefined, context: McpErrorData): McpClientError | McpRpcError {
  if (McpRpcError.isInstance(error)) return error;
  if (McpClientError.isInstance(error)) return error;
  if (signal?.aborted) return fetchFailure(error, signal, context);
  const detail = (error as { message?: string })?.message ?? String(error);
  return new McpClientError(
    'network',
    `The connection to ${context.url} dropped while reading the reply${context.method ? ` to ${context.method}` : ''} (${detail})`,
    { ...context, cause: detail, streamEnded: true },
    { cause: error },
  );
}

/**
 * Streamable HTTP transport. Stateless: every call is one POST.
 */
export class HttpTransport {
  /** The MCP endpoint every message is POSTed to. */
  readonly url: URL;
  readonly #fetch: FetchLike | undefined;
  readonly #maxBodyBytes: number;
  readonly #maxEventChars: number | undefined;
  readonly #onWarning: (warning: TransportWarning) => void;
  readonly #idWarned = new Set<string>();

  constructor(options: HttpTransportOptions) {
    this.url = new URL(options.url);
    this.#fetch = options.fetch;
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#maxEventChars = options.maxEventChars;
    this.#onWarning = options.onWarning ?? (() => {});
  }

  /**
   * The `fetch` every request to this server goes through: the injected one (or
   * the global one at call time), with `redirect: 'manual'`, so that a redirect
   * is followed only within the server's origin and nothing the caller or the
   * kit put in a request (headers, credentials, session id, body) reaches
   * another origin (`./redirect.ts`, loaded when a redirect happens).
   * @throws McpClientError `redirect` for a redirect to another origin.
   */
  get fetch(): FetchLike {
    return async (input, init = {}) => {
      const url = new URL(input);
      const base: FetchLike = this.#fetch ?? ((input, init) => globalThis.fetch(input, init));
      let response: Response;
      try {
        response = await base(url.href, { ...init, redirect: 'manual' });
      } catch (error) {
        // From a page to another origin, a failure before any response may be a CORS refusal:
        // `./cors.ts` finds out which, and names the headers this request sent.
        const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
        if (typeof origin !== 'string' || origin === url.origin || init.signal?.aborted || McpError.isInstance(error)) throw error;
        throw await import('./cors.js').then((module) => module.corsFailure(error, url, init, origin));
      }
      // A redirect (a browser's opaque one, or a redirect status with its Location), or an injected fetch that followed one anyway.
      if (!isRedirect(response) && !response.redirected) return response;
      // The module, not its names destructured: Vite wraps a destructuring import() in code that picks the names, bytes in every page.
      return import('./redirect.js').then((module) => module.followSameOrigin(response, url, init, this.url.origin, base, isRedirect));
    };
  }

  /**
   * POSTs one message with the transport's standard headers.
   *
   * A POST whose connection is reset before any byte of the answer (Node's fetch reuses
   * idle connections, and a server may close one just as it is reused) is sent once more,
   * on a new connection, when sending it twice is harmless: `repeatable` (notifications,
   * responses, and the requests in `REPEATABLE` of `./resend.ts`). Any other request (`tools/call`)
   * fails with `network` (`data.resent: false`): the server may have received it, and
   * nothing on this side can tell a reset before the request was read from one after.
   * @throws McpClientError `network` / `aborted` when `fetch` rejects.
   */
  async post(body: string, options: { signal?: AbortSignal; headers?: Record<string, string>; method?: string; repeatable?: boolean }): Promise<Response> {
    const url = this.url.href;
    const headers: Record<string, string> = {
      // Plain media type: some servers answer 415 to a charset parameter (field case C09).
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...options.headers,
    };
    // Most replies are event streams: fetch their reader alongside the first request (once: not a promise per call).
    if (!sse) loadSse().catch(() => {});
    const send = () => this.fetch(url, { method: 'POST', headers, body, signal: options.signal });
    const fail = (error: unknown) => fetchFailure(error, options.signal, { url, method: options.method });
    try {
      return await send();
    } catch (error) {
      // Rare: what decides (and says) whether to send it again loads only then.
      if (!resetBeforeResponse(error) || options.signal?.aborted) throw fail(error);
      return import('./resend.js').then((module) => module.ifRepeatable(options.repeatable ?? options.method, send, fail, error));
    }
  }

  /**
   * Sends a JSON-RPC request and waits for its response.
   *
   * @returns the response message (result or error), the HTTP status and headers.
   * @throws McpRpcError for a JSON-RPC error carried by an HTTP error status.
   * @throws McpClientError `http`, `network`, `aborted`, `protocol` (wrong content
   *   type, malformed message, stream closed before the response), `too_large`.
   */
  async request(message: JsonRpcRequest, options: SendOptions = {}): Promise<Exchange> {
    const response = await this.post(JSON.stringify(message), { signal: options.signal, headers: options.headers, method: message.method });
    options.onHeaders?.(response.status, response.headers);
    try {
      return await this.readReply(response, message, options);
    } catch (error) {
      throw readFailure(error, options.signal, { url: this.url.href, method: message.method });
    }
  }

  /**
   * Reads the reply to `request` from an HTTP response (JSON body or SSE stream).
   * Exposed so the legacy session can reuse it for resumed GET streams.
   */
  async readReply(response: Response, request: Pick<JsonRpcRequest, 'id' | 'method'>, options: SendOptions = {}): Promise<Exchange> {
    const context: McpErrorData = { url: this.url.href, method: request.method };
    if (!response.ok) throw await httpError(response, context);
    const type = mediaType(response.headers.get('content-type'));
    if (response.status === 202 || response.status === 204) {
      await response.body?.cancel().catch(() => {});
      throw new McpClientError('protocol', `The server answered ${request.method} with HTTP ${response.status} and no response`, { ...context, status: response.status });
    }
    if (type === 'application/json') {
      const text = await readBodyText(response, this.#maxBodyBytes, context);
      let value: unknown;
      try {
        value = parseJson(text);
      } catch {
        throw new McpClientError('protocol', `Malformed JSON-RPC message from the server: not valid JSON (starts with ${JSON.stringify(text.slice(0, 60))})`, { ...context, status: response.status });
      }
      const parsed = this.#parseOwn(value, request, { ...context, status: response.status });
      if (parsed.kind !== 'response') {
        throw new McpClientError('protocol', `Expected the response to ${request.method}, got a JSON-RPC ${parsed.kind} (${parsed.message.method})`, context);
      }
      if (!this.#answers(parsed.message, request)) {
        throw new McpClientError('protocol', `Response id ${JSON.stringify(parsed.message.id)} does not match request id ${JSON.stringify(request.id)}`, context);
      }
      return { response: parsed.message, status: response.status, headers: response.headers };
    }
    if (type === 'text/event-stream') {
      if (!response.body) throw new McpClientError('protocol', `Empty event stream in reply to ${request.method}`, context);
      // A reader that could not be loaded reads nothing: the stream is let go, not left holding a connection.
      const sseModule = await loadSse().catch((error: unknown) => {
        void response.body!.cancel().catch(() => {});
        throw error;
      });
      const final = await sseModule.readReplyStream(response.body, request, options, context, {
        parse: (value) => this.#parseOwn(value, request, context),
        answers: (message) => this.#answers(message, request),
        warn: (code, message) => this.#onWarning({ code, message }),
        maxEventChars: this.#maxEventChars,
      });
      return { response: final, status: response.status, headers: response.headers };
    }
    await response.body?.cancel().catch(() => {});
    const shown = response.headers.get('content-type');
    throw new McpClientError(
      'protocol',
      shown
        ? `Unexpected content type "${shown}" in reply to ${request.method}; expected application/json or text/event-stream`
        : `The reply to ${request.method} has no Content-Type; expected application/json or text/event-stream`,
      { ...context, status: response.status, contentType: type || undefined },
    );
  }

  /**
   * Sends a JSON-RPC notification. Accepts any 2xx: the spec says 202 with no
   * body, but servers also send 200/204 and even small JSON or empty SSE bodies
   * (field case C05); the body of a successful notification POST is ignored.
   */
  async notify(message: JsonRpcNotification, options: SendOptions = {}): Promise<{ status: number; headers: Headers }> {
    const response = await this.post(JSON.stringify(message), { signal: options.signal, headers: options.headers, method: message.method, repeatable: true });
    if (!response.ok) throw await httpError(response, { url: this.url.href, method: message.method });
    await response.body?.cancel().catch(() => {});
    return { status: response.status, headers: response.headers };
  }

  /**
   * POSTs a JSON-RPC response (legacy era: the answer to a server-initiated request).
   */
  async respond(message: JsonRpcResponse, options: SendOptions = {}): Promise<void> {
    const response = await this.post(JSON.stringify(message), { signal: options.signal, headers: options.headers, method: 'response', repeatable: true });
    if (!response.ok) throw await httpError(response, { url: this.url.href, method: 'response' });
    await response.body?.cancel().catch(() => {});
  }

  /**
   * Parses a message that arrived on `request`'s own exchange. An error reply
   * whose id is no valid id at all still carries the server's error: it is
   * kept, with a warning.
   */
  #parseOwn(value: unknown, request: Pick<JsonRpcRequest, 'id' | 'method'>, context: McpErrorData): IncomingMessage {
    const cleaned = withoutBadErrorId(value);
    if (cleaned !== value) this.#idWarning(request, (value as { id: unknown }).id);
    return parseMessage(cleaned, context);
  }

  /** Whether `message` answers `request` (see {@link replyFit}); a mangled id is accepted with a warning. */
  #answers(message: JsonRpcResponse, request: Pick<JsonRpcRequest, 'id' | 'method'>): boolean {
    const fit = replyFit(message, request.id);
    if (fit === 'loose') this.#idWarning(request, message.id);
    return fit !== undefined;
  }

  #idWarning(request: Pick<JsonRpcRequest, 'id' | 'method'>, theirs: unknown): void {
    // Once per method and kind of id: a server that always does it must not warn on every call.
    const kind = `${request.method} ${theirs === null ? 'null' : typeof theirs}`;
    if (this.#idWarned.has(kind)) return;
    this.#idWarned.add(kind);
    this.#onWarning({
      code: 'response-id-mismatch',
      message:
        `${this.url.href} answered ${request.method} (request id ${JSON.stringify(request.id)}) with id ${JSON.stringify(theirs)}: JSON-RPC requires the id echoed unchanged, JSON type included. ` +
        'The reply was accepted because it came on that request\'s own exchange.',
    });
  }

}
