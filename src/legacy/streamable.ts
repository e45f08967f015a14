/**
 * Legacy Streamable HTTP (2025-03-26 through 2025-11-25; spec 2025-11-25
 * basic/transports "Streamable HTTP", basic/lifecycle):
 *
 * - `initialize` without a session id, then `notifications/initialized`; the
 *   `Mcp-Session-Id` the server issues and `MCP-Protocol-Version` (from
 *   2025-06-18) go on every later request (LEG-1…LEG-4).
 * - A 404 on a request that carried a session id means the server forgot the
 *   session: initialize again and replay the request once, never in a loop
 *   (LEG-5, field case C08).
 * - A standalone GET stream carries server notifications and requests; a 4xx
 *   answer means "no stream here" and is not retried in that session (LEG-7,
 *   field case C06). Streams resume with `Last-Event-ID` after the server's
 *   `retry` delay (LEG-8).
 * - `DELETE` ends the session (405 tolerated, LEG-6).
 *
 * @module
 */
import { McpClientError, McpRpcError } from '../protocol/errors.js';
import { parseMessage, type IncomingMessage } from '../protocol/jsonrpc.js';
import type { SessionRequestOptions, SessionResponse } from '../transport/session.js';
import { isMessageEvent, readSse, sseFrame } from '../transport/sse.js';
import { fetchFailure, readFailure, type Exchange, type SendOptions } from '../transport/transport.js';
import { LEGACY_PROTOCOL_VERSIONS, type ClientCapabilities, type JsonObject, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest } from '../protocol/types.js';
import { firstOffer, nextVersion, refusedForVersion, rememberOffer } from './versions.js';
import { LegacySessionBase, buildRequest, isModernSignature, legacyCapabilities, sleep, versionHeaderDefined, type LegacyHost, type PendingRequest } from './base.js';

/** Versions accepted from a Streamable HTTP server's `initialize` answer. */
const ACCEPTED: readonly string[] = LEGACY_PROTOCOL_VERSIONS;
/** Reconnection delay when the server gave no `retry` hint, in ms. */
const DEFAULT_RETRY_MS = 1000;
/** Resumptions in a row that bring no new event before the request gives up. */
const MAX_IDLE_RESUMPTIONS = 3;
/** Failed attempts in a row before the standalone stream is given up for this session. */
const MAX_STREAM_FAILURES = 6;
/** Cap on the standalone stream's reconnection backoff, in ms. */
const MAX_BACKOFF_MS = 30_000;

/** Visible ASCII only (2025-11-25 basic/transports "Session Management"). */
const SESSION_ID = /^[\x21-\x7e]+$/;

function mediaType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

function httpStatusOf(error: unknown): number | undefined {
  if (McpRpcError.isInstance(error)) return error.httpStatus;
  if (McpClientError.isInstance(error) && typeof error.data.status === 'number') return error.data.status;
  return undefined;
}

/** A 404 to a request that carried the session id: the session is gone (not a resumed stream's 404). */
function sessionGone(error: unknown): boolean {
  if (McpClientError.isInstance(error) && error.data.resumed === true) return false;
  return httpStatusOf(error) === 404;
}

/** A stream that ended (or dropped) before the response, which legacy servers let clients resume. */
function resumable(error: unknown): boolean {
  return McpClientError.isInstance(error) && error.data.streamEnded === true && (error.code === 'protocol' || error.code === 'network');
}

/** The refusal of the first `initialize`, its message naming every version offered. */
function withTried(error: unknown, tried: string[]): unknown {
  if (!(error instanceof Error)) return error;
  const message = `${error.message} (initialize offered ${tried.join(', ')} in turn)`;
  if (McpRpcError.isInstance(error)) return new McpRpcError(error.code, message, error.data, { httpStatus: error.httpStatus, url: error.url });
  return McpClientError.isInstance(error) ? new McpClientError(error.code, message, { ...error.data, offered: tried }, { cause: error }) : error;
}

interface StandaloneStream {
  controller: AbortController;
  state: 'pending' | 'open' | 'none' | 'ended';
}

/** A legacy Streamable HTTP session. Create with {@link StreamableLegacySession.open}. */
export class StreamableLegacySession extends LegacySessionBase {
  #sessionId: string | undefined;
  /** The session must be initialized again before the next request (404, or new capabilities). */
  #stale = false;
  #restarting: Promise<void> | undefined;
  #stream: StandaloneStream | undefined;
  /** Whether `initialize` got a result (later failures are no reason to try HTTP+SSE). */
  #answered = false;

  /**
   * Runs the handshake and opens the standalone stream in the background.
   * @returns the session, or the failure and whether it was `initialize` itself
   *   that was refused (the cue for the HTTP+SSE fallback) rather than a later step.
   */
  static async open(host: LegacyHost, signal: AbortSignal | undefined): Promise<{ session: StreamableLegacySession } | { error: unknown; initializeRefused: boolean }> {
    const session = new StreamableLegacySession(host);
    try {
      await session.#handshake(signal);
      return { session };
    } catch (error) {
      session.closeBase();
      return { error, initializeRefused: !session.#answered };
    }
  }

  /** The session id the server issued, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  protected standaloneStream(): 'open' | 'none' | 'pending' {
    const state = this.#stream?.state;
    return state === 'open' ? 'open' : state === 'pending' ? 'pending' : 'none';
  }

  /** Headers of every request after `initialize`: user headers, session id (the current one unless given), protocol version. */
  async #headers(extra?: Record<string, string>, sessionId = this.#sessionId): Promise<Record<string, string>> {
    const headers: Record<string, string> = { ...(await this.host.userHeaders()) };
    if (sessionId !== undefined) headers['Mcp-Session-Id'] = sessionId;
    if (versionHeaderDefined(this.version)) headers['MCP-Protocol-Version'] = this.version;
    return Object.assign(headers, extra);
  }

  async #handshake(signal: AbortSignal | undefined): Promise<void> {
    const host = this.host;
    const capabilities: ClientCapabilities = legacyCapabilities(host);
    const tried: string[] = [];
    let refusal: unknown;
    let exchange: { result: JsonObject; sessionId: string | null };
    // A new session starts at the version this client's endpoint last accepted; a restarted one where it was.
    if (this.generation === 0) this.offered = firstOffer(host.transport);
    for (;;) {
      tried.push(this.offered);
      try {
        exchange = await this.#initialize(capabilities, signal);
        break;
      } catch (error) {
        // A server that speaks only older revisions should answer with one of them
        // (2025-11-25 basic/lifecycle "Version Negotiation"); some refuse instead.
        // Step down, each older version once, never back up (./versions.ts).
        const next = nextVersion(error, tried, refusal !== undefined);
        if (!next || signal?.aborted) {
          rememberOffer(host.transport, undefined);
          throw tried.length > 1 ? withTried(refusal ?? error, tried) : error;
        }
        if (refusedForVersion(error)) refusal ??= error;
        this.offered = next;
      }
    }
    if (tried.length > 1) {
      host.warn(
        'legacy-version-refused',
        `${host.url.href} refused initialize offering ${tried[0]} (${(refusal as Error).message}) instead of answering with a version it supports, as 2025-11-25 basic/lifecycle "Version Negotiation" asks; connected by offering ${this.offered}`,
      );
    }
    const { result, sessionId } = exchange;
    this.#answered = true;
    rememberOffer(host.transport, this.offered);
    if (sessionId !== null && !SESSION_ID.test(sessionId)) {
      throw new McpClientError('protocol', `${host.url.href} issued an Mcp-Session-Id with characters outside visible ASCII`, { url: host.url.href, method: 'initialize' });
    }
    this.#sessionId = sessionId ?? undefined;
    try {
      this.adopt(result, capabilities, ACCEPTED);
    } catch (error) {
      // LEG-2: disconnect from a server that chose a version we do not speak.
      if (this.#sessionId !== undefined) void this.#delete(this.#sessionId);
      this.#sessionId = undefined;
      throw error;
    }
    const initialized: JsonRpcNotification = { jsonrpc: '2.0', method: 'notifications/initialized' };
    host.traffic?.({ direction: 'out', message: initialized, time: Date.now() });
    try {
      await host.transport.notify(initialized, { signal, headers: await this.#headers() });
    } catch (error) {
      throw this.#hiddenSession(error, 'notifications/initialized') ?? error;
    }
    this.#stale = false;
    this.generation++;
    this.#openStream();
    await this.setLogLevel(signal);
  }

  /** POSTs `initialize` offering {@link offered}; resolves with the result and the session id the server issued. */
  async #initialize(capabilities: ClientCapabilities, signal: AbortSignal | undefined): Promise<{ result: JsonObject; sessionId: string | null }> {
    const host = this.host;
    const id = host.nextId();
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method: 'initialize', params: this.initializeParams(capabilities) };
    let sessionId: string | null = null;
    // No session id and no protocol version header: neither exists yet.
    const headers = await host.userHeaders();
    host.traffic?.({ direction: 'out', message, requestId: id, time: Date.now(), headers });
    let exchange: { response: Exchange['response']; status: number };
    try {
      exchange = await host.transport.request(message, {
        signal,
        headers,
        onHeaders: (_status, headers) => (sessionId = headers.get('mcp-session-id')),
        onMessage: (incoming) => {
          host.traffic?.({ direction: 'in', message: incoming.message, requestId: id, time: Date.now() });
          if (incoming.kind === 'notification') host.notification(incoming.message);
        },
      });
    } catch (error) {
      host.traffic?.({ direction: 'failed', message, requestId: id, time: Date.now(), error: error as Error });
      throw error;
    }
    const { response, status } = exchange;
    host.traffic?.({ direction: 'in', message: response, requestId: id, time: Date.now() });
    if ('error' in response) throw new McpRpcError(response.error.code, response.error.message, response.error.data, { httpStatus: status, url: host.transport.url.href });
    return { result: response.result, sessionId };
  }

  /**
   * A server that issued a session id the page cannot read (a browser hides
   * response headers that CORS does not expose) rejects the next request for
   * lacking it. Name the header instead of re-initializing in a loop.
   */
  #hiddenSession(error: unknown, method: string): McpClientError | undefined {
    if (this.#sessionId !== undefined || httpStatusOf(error) !== 400) return undefined;
    const text = error instanceof Error ? error.message : '';
    if (method !== 'notifications/initialized' && !/session/i.test(text)) return undefined;
    const url = this.host.url.href;
    return new McpClientError(
      'cors',
      `${url} rejected ${method} after initialize (HTTP 400: ${text}) and no Mcp-Session-Id header was visible on its initialize response. ` +
        'The server probably issued one that it does not expose: a browser only lets pages read response headers listed in Access-Control-Expose-Headers, so the server must send "Access-Control-Expose-Headers: Mcp-Session-Id".',
      { url, method, status: 400, header: 'Mcp-Session-Id', cors: { problem: 'expose-headers', missingHeaders: ['Mcp-Session-Id'] } },
      { cause: error },
    );
  }

  protected async ready(signal: AbortSignal | undefined): Promise<void> {
    if (this.closed) throw new McpClientError('closed', 'The session is closed', { url: this.host.url.href });
    const added = this.#stale ? [] : this.capabilitiesGrew();
    if (!this.#stale && added.length === 0) return;
    if (!this.#restarting) {
      if (added.length > 0) {
        this.host.warn('legacy-reinitialize', `Input handlers added after initialize need ${added.join(', ')}, which legacy servers only learn at initialize; starting a new session with ${this.host.url.href}`);
        if (this.#sessionId !== undefined) void this.#delete(this.#sessionId);
      }
      this.#restarting = this.#restart(signal).finally(() => (this.#restarting = undefined));
    }
    await this.#restarting;
  }

  async #restart(signal: AbortSignal | undefined): Promise<void> {
    this.#stale = true;
    this.#stopStream();
    // Server-side subscriptions died with the session: subscribers listen again on the new one.
    this.failListeners(new McpClientError('network', `The session with ${this.host.url.href} was restarted`, { url: this.host.url.href, streamEnded: true }));
    this.#sessionId = undefined;
    try {
      await this.#handshake(signal);
    } catch (error) {
      if (isModernSignature(error)) this.host.eraChanged?.();
      throw error;
    }
  }

  /** Marks the session stale if `sessionId` is still the current one. */
  #expire(sessionId: string): void {
    if (this.#sessionId !== sessionId || this.#stale) return;
    this.#stale = true;
    this.#stopStream();
  }

  /**
   * Sends a request (basic/transports "Sending Messages to the Server"),
   * re-initializing once when the server answers 404 for the session.
   *
   * @throws McpRpcError for JSON-RPC errors; McpClientError `http` with
   *   `data.sessionExpired` when the new session is refused too, `cors` when the
   *   session id is hidden from the page, and the transport's errors.
   */
  async request(method: string, params: JsonObject, options: SessionRequestOptions = {}): Promise<SessionResponse> {
    if (method === 'server/discover') {
      await this.ready(options.signal);
      return this.discoverResult();
    }
    for (let recovered = false; ; recovered = true) {
      await this.ready(options.signal);
      const sessionId = this.#sessionId;
      if (options.sessionId !== undefined && options.sessionId !== sessionId) return this.#onEarlier(options.sessionId, method, params, options);
      try {
        return await this.#exchange(method, params, options);
      } catch (error) {
        this.noteUrlElicitations(error);
        if (isModernSignature(error)) {
          // The endpoint was upgraded under us (basic/versioning: re-probe when the cached era fails).
          this.host.eraChanged?.();
          throw error;
        }
        if (sessionId !== undefined && sessionGone(error) && !options.signal?.aborted) {
          this.#expire(sessionId);
          if (recovered) {
            throw new McpClientError(
              'http',
              `${this.host.url.href} answered ${method} with HTTP 404 again right after a new session was started; giving up (session expired)`,
              { url: this.host.url.href, method, status: 404, sessionExpired: true },
              { cause: error },
            );
          }
          // The 404 came before any processing, so even a non-idempotent request may be replayed once (C08).
          // The session id is a secret (2025-11-25 basic/security_best_practices): not in the message.
          this.host.warn('legacy-session-restarted', `${this.host.url.href} no longer knows this client's session (HTTP 404); starting a new session and sending ${method} again`);
          continue;
        }
        throw this.#hiddenSession(error, method) ?? error;
      }
    }
  }

  /**
   * A request on an earlier session of this server (a stored task's): its 404 is that
   * session's end, not the current one's, so nothing is restarted or replayed here. A 400
   * counts too: SDK servers (server-everything) answer an unknown session id with
   * "400 Bad Request: No valid session ID provided" rather than the 404 the spec asks for,
   * and any other cause of a 400 would recur on the current session, where the caller asks next.
   */
  async #onEarlier(earlier: string, method: string, params: JsonObject, options: SessionRequestOptions): Promise<SessionResponse> {
    try {
      return await this.#exchange(method, params, options, earlier);
    } catch (error) {
      const status = httpStatusOf(error);
      if ((!sessionGone(error) && status !== 400) || options.signal?.aborted) throw error;
      // The session id is a secret (2025-11-25 basic/security_best_practices): not in the message.
      throw new McpClientError('http', `${this.host.url.href} refused the earlier session ${method} was sent on (HTTP ${status}: ${(error as Error).message})`, { url: this.host.url.href, method, status, sessionExpired: true, earlierSession: true }, { cause: error });
    }
  }

  async #exchange(method: string, params: JsonObject, options: SessionRequestOptions, sessionId = this.#sessionId): Promise<SessionResponse> {
    const host = this.host;
    const id = host.nextId();
    options.onId?.(id);
    const message = buildRequest(id, method, params, options.meta);
    // Not options.headers: the Mcp-Param-* headers are 2026-07-28's (a legacy server's CORS would refuse them).
    const headers = await this.#headers(undefined, sessionId);
    const pending = this.track(id, method, params, options);
    let lastEventId: string | undefined;
    let retryMs: number | undefined;
    const streamOptions: SendOptions = {
      signal: pending.signal,
      headers,
      onMessage: (incoming) => this.#receiveOn(incoming, pending),
      onEventId: (eventId) => (lastEventId = eventId),
      onRetry: (ms) => (retryMs = ms),
    };
    host.traffic?.({ direction: 'out', message, requestId: id, time: Date.now(), headers });
    let answered = false;
    try {
      let exchange: { response: Exchange['response']; status: number };
      try {
        exchange = await pending.race(host.transport.request(message, streamOptions));
      } catch (error) {
        // LEG-8: a stream that ends before the response is resumed with GET + Last-Event-ID after `retry` ms.
        if (!resumable(error) || lastEventId === undefined || pending.signal.aborted) throw error;
        exchange = await pending.race(
          this.#resume(message, streamOptions, {
            lastEventId: () => lastEventId!,
            retryMs: () => retryMs,
            sessionId,
          }),
        );
      }
      const { response, status } = exchange;
      answered = true;
      host.traffic?.({ direction: 'in', message: response, requestId: id, time: Date.now() });
      if ('error' in response) throw new McpRpcError(response.error.code, response.error.message, response.error.data, { httpStatus: status, url: host.transport.url.href });
      return { id, result: response.result };
    } catch (error) {
      if (!answered) host.traffic?.({ direction: 'failed', message, requestId: id, time: Date.now(), error: error as Error });
      // LEG-9: a closed stream is not a cancellation on legacy; say so explicitly.
      if (pending.callerAborted) this.cancel(pending);
      throw error;
    } finally {
      this.untrack(pending);
    }
  }

  #receiveOn(incoming: IncomingMessage, pending: PendingRequest): void {
    this.host.traffic?.({ direction: 'in', message: incoming.message, requestId: pending.id, time: Date.now() });
    this.receive(incoming, pending);
  }

  /** Resumes a request's stream until its response arrives (2025-11-25 basic/transports "Resumability and Redelivery"). */
  async #resume(
    message: JsonRpcRequest,
    options: SendOptions,
    state: { lastEventId: () => string; retryMs: () => number | undefined; sessionId: string | undefined },
  ): Promise<Exchange> {
    const url = this.host.transport.url.href;
    const context = { url, method: message.method };
    const signal = options.signal!;
    for (let idle = 0; ; ) {
      const before = state.lastEventId();
      // The server's retry hint MUST be respected before reconnecting.
      await sleep(state.retryMs() ?? DEFAULT_RETRY_MS, signal);
      let response: Response;
      try {
        response = await this.host.transport.fetch(url, { method: 'GET', headers: await this.#headers({ Accept: 'text/event-stream', 'Last-Event-ID': before }, state.sessionId), signal });
      } catch (error) {
        throw fetchFailure(error, signal, context);
      }
      try {
        return await this.host.transport.readReply(response, message, options);
      } catch (raw) {
        const error = readFailure(raw, signal, context);
        if (sessionGone(error)) {
          // The server may have processed the request: do not replay it, only start afresh next time.
          if (state.sessionId !== undefined) this.#expire(state.sessionId);
          throw new McpClientError('http', `${url} forgot the session while ${message.method} was being resumed; its outcome is unknown`, { ...context, status: 404, resumed: true, sessionExpired: true }, { cause: error });
        }
        if (!resumable(error) || signal.aborted) throw error;
        idle = state.lastEventId() === before ? idle + 1 : 0;
        if (idle >= MAX_IDLE_RESUMPTIONS) throw error;
      }
    }
  }

  protected async post(message: JsonRpcMessage, signal?: AbortSignal, sessionId?: string): Promise<void> {
    const headers = await this.#headers(undefined, sessionId ?? this.#sessionId);
    if ('method' in message) await this.host.transport.notify(message as JsonRpcNotification, { signal, headers });
    else await this.host.transport.respond(message, { signal, headers });
  }

  // --- the standalone GET stream -----------------------------------------------------------------

  #openStream(): void {
    if (this.closed) return;
    const stream: StandaloneStream = { controller: new AbortController(), state: 'pending' };
    this.#stream = stream;
    void this.#runStream(stream);
  }

  #stopStream(): void {
    this.#stream?.controller.abort(new McpClientError('aborted', 'The standalone stream was closed', { url: this.host.url.href }));
    this.#stream = undefined;
  }

  /**
   * Keeps the standalone stream (2025-11-25 basic/transports "Listening for
   * Messages from the Server") open for the session's lifetime: reconnects
   * after the server's `retry` delay with `Last-Event-ID`; gives up for this
   * session on a 4xx (the server has no stream) or repeated failures.
   */
  async #runStream(stream: StandaloneStream): Promise<void> {
    const host = this.host;
    const url = host.transport.url.href;
    const signal = stream.controller.signal;
    const context = { url, method: 'GET (standalone stream)' };
    let lastEventId: string | undefined;
    let retryMs: number | undefined;
    let failures = 0;
    const backoff = () => Math.min(DEFAULT_RETRY_MS * 2 ** Math.max(0, failures - 1), MAX_BACKOFF_MS);
    while (!signal.aborted) {
      let response: Response;
      try {
        const headers = await this.#headers({ Accept: 'text/event-stream', ...(lastEventId !== undefined ? { 'Last-Event-ID': lastEventId } : {}) });
        response = await host.transport.fetch(url, { method: 'GET', headers, signal });
      } catch {
        if (signal.aborted) return;
        if (++failures >= MAX_STREAM_FAILURES) return this.#streamLost(stream, 'it could not be reached');
        await sleep(backoff(), signal).catch(() => {});
        continue;
      }
      if (!response.ok || mediaType(response) !== 'text/event-stream') {
        await response.body?.cancel().catch(() => {});
        if (response.status >= 500 && ++failures < MAX_STREAM_FAILURES) {
          await sleep(backoff(), signal).catch(() => {});
          continue;
        }
        // C06: 405 is the spec's "no stream here"; 400, 404 and 406 from servers without GET support mean the same.
        // The POST side works, so the session goes on without a stream, and the GET is never retried.
        stream.state = 'none';
        return;
      }
      stream.state = 'open';
      const before = lastEventId;
      let messages = 0;
      try {
        for await (const event of readSse(response.body!, { onRetry: (ms) => (retryMs = ms), context, onWarning: (code, message) => host.warn(code, message) })) {
          if (event.id) lastEventId = event.id;
          if (!isMessageEvent(event) || event.data.trim() === '') continue;
          const incoming = this.#parseEvent(event.data, context);
          if (!incoming) continue;
          messages++;
          host.traffic?.({ direction: 'in', message: incoming.message, time: Date.now() });
          this.receive(incoming);
        }
      } catch {
        if (signal.aborted) return;
        failures++;
      }
      if (signal.aborted) return;
      // An ended stream is the server's cue to poll (LEG-8); one that brought nothing counts as a failure.
      if (messages === 0 && lastEventId === before) failures++;
      else failures = 0;
      if (failures >= MAX_STREAM_FAILURES) return this.#streamLost(stream, 'it kept ending without delivering anything');
      await sleep(failures === 0 ? (retryMs ?? DEFAULT_RETRY_MS) : Math.max(retryMs ?? 0, backoff()), signal).catch(() => {});
    }
  }

  #parseEvent(data: string, context: { url: string; method: string }): IncomingMessage | undefined {
    const frame = sseFrame(data);
    if ('skip' in frame) {
      // Keep-alives ({}, {"type":"heartbeat"}, a timestamp, "ping"…) are not JSON-RPC.
      this.host.warn(frame.skip, `Ignored an SSE frame on the standalone stream of ${context.url}: its data is ${frame.what}, not a JSON-RPC message`);
      return undefined;
    }
    try {
      return parseMessage(frame.value, context);
    } catch (error) {
      this.host.warn('sse-malformed', (error as Error).message);
      return undefined;
    }
  }

  #streamLost(stream: StandaloneStream, why: string): void {
    stream.state = 'ended';
    this.host.warn('legacy-stream-lost', `Gave up the standalone stream of ${this.host.url.href}: ${why}`);
    this.failListeners(new McpClientError('network', `The standalone stream of ${this.host.url.href} was lost`, { url: this.host.url.href, streamEnded: true }));
  }

  /** Ends the session: closes the stream and sends `DELETE` with the session id (405 tolerated; never throws). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.#stopStream();
    this.closeBase();
    if (this.#sessionId !== undefined) await this.#delete(this.#sessionId);
  }

  async #delete(sessionId: string): Promise<void> {
    try {
      const headers: Record<string, string> = { ...(await this.host.userHeaders()), 'Mcp-Session-Id': sessionId };
      if (versionHeaderDefined(this.version)) headers['MCP-Protocol-Version'] = this.version;
      const response = await this.host.transport.fetch(this.host.transport.url.href, { method: 'DELETE', headers, signal: AbortSignal.timeout(5000) });
      await response.body?.cancel().catch(() => {});
    } catch {
      /* best effort: the server expires idle sessions anyway */
    }
  }
}
