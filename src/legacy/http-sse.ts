/**
 * The deprecated HTTP+SSE transport of revision 2024-11-05 (spec 2026-07-28
 * basic/transports/streamable-http "HTTP+SSE Transport (2024-11-05)"; checklist
 * VER-6, §2.9): a GET opens one event stream whose first event, `endpoint`,
 * names the URL to POST every message to; every response and server message
 * then arrives on that stream as a `message` event.
 *
 * Kept apart and loaded only when a server refuses Streamable HTTP this way.
 *
 * @module
 */
import { McpClientError, McpRpcError } from '../protocol/errors.js';
import { parseMessage, parseMessageText } from '../protocol/jsonrpc.js';
import type { SessionRequestOptions, SessionResponse } from '../transport/session.js';
import { isMessageEvent, readSse, sseFrame, type SseEvent } from '../transport/sse.js';
import { untilAborted } from '../util/sleep.js';
import { fetchFailure, httpError, readBodyText, readFailure } from '../transport/transport.js';
import { LEGACY_PROTOCOL_VERSIONS, type JsonObject, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcResponse } from '../protocol/types.js';
import { LegacySessionBase, buildRequest, legacyCapabilities, type LegacyHost, type PendingRequest } from './base.js';

/** Cap on a JSON body some servers put in a POST answer, in bytes. */
const MAX_POST_BODY = 16 * 1024 * 1024;

function mediaType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** A 2024-11-05 HTTP+SSE session. Create with {@link HttpSseSession.open}. */
export class HttpSseSession extends LegacySessionBase {
  #endpoint: URL | undefined;
  #stream: AbortController | undefined;
  #alive = false;
  #restarting: Promise<void> | undefined;

  /**
   * GETs the endpoint, waits for its `endpoint` event and runs the handshake.
   * @throws McpClientError `http` / `network` / `protocol` (no `endpoint` event,
   *   or one pointing to another origin), and the errors of `initialize`.
   */
  static async open(host: LegacyHost, signal: AbortSignal | undefined): Promise<HttpSseSession> {
    const session = new HttpSseSession(host);
    try {
      await session.#connect(signal);
    } catch (error) {
      session.#stopStream();
      session.closeBase();
      throw error;
    }
    return session;
  }

  /** The URL messages are POSTed to, as announced by the server. */
  get endpoint(): URL | undefined {
    return this.#endpoint;
  }

  protected standaloneStream(): 'open' | 'none' | 'pending' {
    return this.#alive ? 'open' : 'none';
  }

  async #connect(signal: AbortSignal | undefined): Promise<void> {
    const host = this.host;
    const url = host.transport.url;
    const context = { url: url.href, method: 'GET (HTTP+SSE)' };
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal!.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    let events: AsyncIterator<SseEvent>;
    try {
      let response: Response;
      try {
        response = await host.transport.fetch(url.href, { method: 'GET', headers: { ...(await host.userHeaders()), Accept: 'text/event-stream' }, signal: controller.signal });
      } catch (error) {
        throw fetchFailure(error, controller.signal, context);
      }
      if (!response.ok) {
        const refused = await httpError(response, context);
        // httpError words its message for POSTs; say what was really sent.
        throw McpClientError.isInstance(refused)
          ? new McpClientError('http', `GET ${url.href} answered HTTP ${response.status}`, refused.data)
          : refused;
      }
      if (mediaType(response) !== 'text/event-stream' || !response.body) {
        await response.body?.cancel().catch(() => {});
        throw new McpClientError('protocol', `GET ${url.href} did not open an event stream (Content-Type ${JSON.stringify(response.headers.get('content-type'))})`, { ...context, status: response.status });
      }
      events = readSse(response.body, { context, onWarning: (code, message) => host.warn(code, message) })[Symbol.asyncIterator]();
      let first: IteratorResult<SseEvent>;
      try {
        first = await events.next();
      } catch (error) {
        throw readFailure(error, controller.signal, context);
      }
      if (first.done || first.value.event !== 'endpoint') {
        throw new McpClientError('protocol', `The event stream of ${url.href} did not start with an "endpoint" event, so it is not an HTTP+SSE (2024-11-05) server`, context);
      }
      let endpoint: URL;
      try {
        endpoint = new URL(first.value.data.trim(), url);
      } catch {
        throw new McpClientError('protocol', `The "endpoint" event of ${url.href} is not a URL: ${JSON.stringify(first.value.data.slice(0, 80))}`, context);
      }
      // Messages carry the user's headers (credentials): never POST them to another origin.
      if (endpoint.origin !== url.origin) {
        throw new McpClientError('protocol', `The "endpoint" event of ${url.href} points to another origin (${endpoint.origin}); refusing to send messages there`, context);
      }
      this.#endpoint = endpoint;
    } catch (error) {
      controller.abort();
      throw error;
    } finally {
      // From now on the stream lives as long as the session, not as long as the connect call.
      signal?.removeEventListener('abort', onAbort);
    }
    this.#stream = controller;
    this.#alive = true;
    void this.#pump(events, controller);

    const capabilities = legacyCapabilities(host);
    const { result } = await this.#roundTrip('initialize', this.initializeParams(capabilities), { signal });
    this.adopt(result, capabilities, LEGACY_PROTOCOL_VERSIONS);
    const initialized: JsonRpcNotification = { jsonrpc: '2.0', method: 'notifications/initialized' };
    host.traffic?.({ direction: 'out', message: initialized, time: Date.now() });
    await this.post(initialized, signal);
    this.generation++;
    await this.setLogLevel(signal);
  }

  /** Reads the stream for the session's lifetime; its end is the end of the session. */
  async #pump(events: AsyncIterator<SseEvent>, controller: AbortController): Promise<void> {
    const context = { url: this.host.transport.url.href, method: 'GET (HTTP+SSE)' };
    try {
      for (;;) {
        const { value: event, done } = await events.next();
        if (done) break;
        if (!isMessageEvent(event) || event.data.trim() === '') continue;
        const frame = sseFrame(event.data);
        if ('skip' in frame) {
          this.host.warn(frame.skip, `Ignored an SSE frame on the event stream of ${context.url}: its data is ${frame.what}, not a JSON-RPC message`);
          continue;
        }
        let incoming;
        try {
          incoming = parseMessage(frame.value, context);
        } catch (error) {
          this.host.warn('sse-malformed', (error as Error).message);
          continue;
        }
        this.host.traffic?.({ direction: 'in', message: incoming.message, time: Date.now() });
        this.receive(incoming);
      }
    } catch {
      /* dropped: handled below */
    }
    if (this.#stream !== controller || controller.signal.aborted) return;
    this.#alive = false;
    const lost = new McpClientError('network', `The HTTP+SSE event stream of ${context.url} closed; the session is over`, { ...context, streamEnded: true });
    for (const pending of this.pending.values()) pending.fail(lost);
    this.failListeners(lost);
  }

  #stopStream(): void {
    this.#alive = false;
    this.#stream?.abort(new McpClientError('aborted', 'The session was closed', { url: this.host.url.href }));
    this.#stream = undefined;
  }

  protected async ready(signal: AbortSignal | undefined): Promise<void> {
    if (this.closed) throw new McpClientError('closed', 'The session is closed', { url: this.host.url.href });
    const added = this.#alive ? this.capabilitiesGrew() : [];
    if (this.#alive && added.length === 0) return;
    if (added.length > 0) {
      this.host.warn('legacy-reinitialize', `Input handlers added after initialize need ${added.join(', ')}, which legacy servers only learn at initialize; starting a new session with ${this.host.url.href}`);
    }
    this.#restarting ??= (async () => {
      this.#stopStream();
      this.failListeners(new McpClientError('network', `The session with ${this.host.url.href} was restarted`, { url: this.host.url.href, streamEnded: true }));
      await this.#connect(signal);
    })().finally(() => (this.#restarting = undefined));
    await this.#restarting;
  }

  /**
   * Sends a request; its response arrives on the event stream. A 404 from the
   * POST endpoint (the server forgot the session) starts a new session once.
   */
  async request(method: string, params: JsonObject, options: SessionRequestOptions = {}): Promise<SessionResponse> {
    if (method === 'server/discover') {
      await this.ready(options.signal);
      return this.discoverResult();
    }
    for (let recovered = false; ; recovered = true) {
      await this.ready(options.signal);
      const generation = this.generation;
      try {
        return await this.#roundTrip(method, params, options);
      } catch (error) {
        this.noteUrlElicitations(error);
        const status = McpRpcError.isInstance(error) ? error.httpStatus : McpClientError.isInstance(error) ? error.data.status : undefined;
        if (!recovered && status === 404 && !options.signal?.aborted) {
          if (this.generation === generation) this.#stopStream();
          continue;
        }
        throw error;
      }
    }
  }

  async #roundTrip(method: string, params: JsonObject, options: SessionRequestOptions): Promise<SessionResponse> {
    const host = this.host;
    const id = host.nextId();
    options.onId?.(id);
    const message = buildRequest(id, method, params, options.meta);
    const pending = this.track(id, method, params, options);
    host.traffic?.({ direction: 'out', message, requestId: id, time: Date.now() });
    let answered = false;
    try {
      await this.#post(message, pending.signal, pending);
      const response = await untilAborted(pending.elsewhere, pending.signal);
      answered = true;
      host.traffic?.({ direction: 'in', message: response, requestId: id, time: Date.now() });
      if ('error' in response) throw new McpRpcError(response.error.code, response.error.message, response.error.data, { url: this.#endpoint?.href });
      return { id, result: response.result };
    } catch (error) {
      if (!answered) host.traffic?.({ direction: 'failed', message, requestId: id, time: Date.now(), error: error as Error });
      if (pending.callerAborted) this.cancel(pending);
      throw error;
    } finally {
      this.untrack(pending);
    }
  }

  protected async post(message: JsonRpcMessage, signal?: AbortSignal): Promise<void> {
    await this.#post(message, signal, undefined);
  }

  /** POSTs one message to the announced endpoint; the server answers 202 and replies on the stream. */
  async #post(message: JsonRpcMessage, signal: AbortSignal | undefined, pending: PendingRequest | undefined): Promise<void> {
    const endpoint = this.#endpoint;
    if (!endpoint) throw new McpClientError('closed', 'The HTTP+SSE session has no endpoint', { url: this.host.url.href });
    const method = 'method' in message ? message.method : 'response';
    const context = { url: endpoint.href, method };
    let response: Response;
    try {
      response = await this.host.transport.fetch(endpoint.href, {
        method: 'POST',
        headers: { ...(await this.host.userHeaders()), 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify(message),
        signal,
      });
    } catch (error) {
      throw fetchFailure(error, signal, context);
    }
    if (!response.ok) throw await httpError(response, context);
    // Some servers answer in the POST body instead of on the stream: accept that too.
    if (pending && mediaType(response) === 'application/json') {
      try {
        const parsed = parseMessageText(await readBodyText(response, MAX_POST_BODY, context), context);
        // The POST's own body answers that POST's request, whatever the server did to the id's type.
        if (parsed.kind === 'response' && String(parsed.message.id) === String(pending.id)) pending.deliver(parsed.message as JsonRpcResponse);
      } catch {
        /* not a response: the stream will carry it */
      }
      return;
    }
    await response.body?.cancel().catch(() => {});
  }

  /** Ends the session by closing its event stream (2024-11-05 has no DELETE). Never throws. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.#stopStream();
    this.closeBase();
  }
}
