/**
 * One MCP session of the bridge: one child process (legacy stdio servers keep
 * state per connection, 2025-11-25 basic/lifecycle), relayed as a 2025-11-25
 * Streamable HTTP session (basic/transports "Session Management").
 *
 * Routing of what the child writes, since stdio carries no stream information:
 * - a response goes on the stream of the POST that carried its request, which
 *   then ends;
 * - `notifications/progress` goes on the stream of the request that carries its
 *   `progressToken`;
 * - a server request (elicitation, sampling, roots, ping) or a log message goes
 *   on the stream of the one `tools/call`, `prompts/get`, `resources/read` or
 *   `completion/complete` in flight, so the client can tie it to that call;
 *   with none (or several) in flight, on the standalone GET stream;
 * - any other notification goes on the GET stream;
 * - without a suitable stream, messages wait (at most {@link MAX_QUEUED}) for
 *   the GET stream to open.
 * Each message goes on exactly one stream (basic/transports "Multiple Connections").
 *
 * @module
 */
import type { ServerResponse } from 'node:http';
import { EDGE_BYTES, StdioChild, type ChildExit, type ChildLimits, type OversizeLine, type StdioServerSpec } from './child.js';
import { classify, Codes, errorResponse, idKey, type Message, type RequestId } from './jsonrpc.js';
import { SseStream } from './sse.js';

/** Requests during which a server typically asks the client for input. */
const INPUT_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read', 'completion/complete']);
/** Messages kept for a GET stream that is not open yet. */
export const MAX_QUEUED = 256;

/** Why a session ended. */
export type EndReason = 'delete' | 'idle' | 'capacity' | 'shutdown' | 'exit' | 'initialize-failed';

export interface SessionHooks {
  log(line: string): void;
  ended(session: BridgeSession, reason: EndReason, exit: ChildExit): void;
}

export interface SessionLimits extends ChildLimits {
  idleTimeoutMs: number;
  /** How long a request's answer waits for its response before it starts as an SSE stream (bridge/sse.ts). */
  streamAfterMs: number;
}

interface InFlight {
  id: RequestId;
  method: string;
  stream: SseStream | undefined;
  progressToken: unknown;
}

/** Outcome of relaying one POSTed message that is not a request. */
export type Relayed = { status: 202 } | { status: number; body: Record<string, unknown> };

export class BridgeSession {
  readonly id: string;
  readonly server: string;
  readonly child: StdioChild;
  readonly startedAt = Date.now();
  /** The version the child chose in its `initialize` result. */
  protocolVersion: string | undefined;
  readonly #label: string;
  readonly #hooks: SessionHooks;
  readonly #limits: SessionLimits;
  readonly #inFlight = new Map<string, InFlight>();
  /** The stream each server request went on, for its `notifications/cancelled`. */
  readonly #serverRequests = new Map<string, SseStream | undefined>();
  #get: SseStream | undefined;
  readonly #queue: Record<string, unknown>[] = [];
  #connections = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #idleSince: number | undefined;
  #ending: EndReason | undefined;
  #ended = false;

  constructor(id: string, server: string, spec: StdioServerSpec, limits: SessionLimits, hooks: SessionHooks) {
    this.id = id;
    this.server = server;
    this.#limits = limits;
    this.#hooks = hooks;
    this.#label = `[${server} ${id.slice(0, 8)}]`;
    this.child = new StdioChild(spec, limits, {
      message: (value, text) => this.#fromChild(value, text),
      noise: (line) => this.#unparsable(line),
      oversize: (line) => this.#oversize(line),
      stderr: (line) => hooks.log(`${this.#label} ${line}`),
      stalled: (bytes) => hooks.log(`${this.#label} the stdio server is not reading its input (${bytes} bytes waiting); holding the client's requests until it does`),
      exit: (exit) => this.#exited(exit),
    });
    this.#armIdle();
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Asked to end (its child is stopping) or ended. */
  get ending(): boolean {
    return this.#ending !== undefined || this.#ended;
  }

  /**
   * Since when no connection of its client has been open (ms since the epoch),
   * or undefined while one is: the idle countdown runs from then.
   */
  get idleSince(): number | undefined {
    return this.#idleSince;
  }

  /** Client requests the child has not answered yet. */
  get requestsInFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * The client has a connection open (a request's stream or the GET stream). A
   * request whose client went away does not keep the session alive: its
   * response would be dropped anyway.
   */
  get busy(): boolean {
    return this.#connections > 0;
  }

  /**
   * Relays a client request: answers with its response as one JSON body, or with
   * an SSE stream that carries related messages and ends with the response
   * (bridge/sse.ts says which when), or with an error when the child cannot
   * take the request or ends before answering. `text`: the request's JSON as the
   * client sent it, written to the child without serializing it again.
   */
  async request(message: Extract<Message, { kind: 'request' }>, response: ServerResponse, headers: Record<string, string>, text?: string): Promise<void> {
    const key = idKey(message.id);
    if (this.#inFlight.has(key)) {
      response.writeHead(400, { ...headers, 'Content-Type': 'application/json' });
      response.end(JSON.stringify(errorResponse(message.id, Codes.InvalidRequest, `A request with id ${JSON.stringify(message.id)} is already in flight in this session`)));
      return;
    }
    const params = message.value.params as Record<string, unknown> | undefined;
    const meta = params?._meta as Record<string, unknown> | undefined;
    this.#track(response);
    const stream = new SseStream(response, headers, this.child, this.#limits.streamAfterMs);
    const entry: InFlight = { id: message.id, method: message.method, stream, progressToken: meta?.progressToken };
    this.#inFlight.set(key, entry);
    stream.onClose(() => {
      if (entry.stream === stream) entry.stream = undefined;
    });
    if (!this.#get?.open) this.#flush(stream, (queued) => 'id' in queued && 'method' in queued);
    try {
      await this.child.write(message.value, text);
    } catch (error) {
      if (this.#inFlight.get(key) !== entry) return;
      this.#inFlight.delete(key);
      stream.answer(errorResponse(message.id, Codes.ServerError, `mcp-web-elements bridge: ${(error as Error).message}`));
    }
  }

  /** Relays a client notification or response (answered 202 once the child's stdin took it). */
  async relay(message: Exclude<Message, { kind: 'request' }>, text?: string): Promise<Relayed> {
    if (message.kind === 'response' && message.id !== null) this.#serverRequests.delete(idKey(message.id));
    this.#touch();
    try {
      await this.child.write(message.value, text);
    } catch (error) {
      return { status: 503, body: errorResponse(null, Codes.ServerError, `mcp-web-elements bridge: ${(error as Error).message}`) };
    }
    if (message.kind === 'notification' && message.method === 'notifications/cancelled') {
      // The server sends no response to a cancelled request (basic/utilities/cancellation): end its stream.
      const requestId = (message.value.params as Record<string, unknown> | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        const key = idKey(requestId);
        const entry = this.#inFlight.get(key);
        if (entry) {
          this.#inFlight.delete(key);
          entry.stream?.end();
        }
      }
    }
    this.#armIdle();
    return { status: 202 };
  }

  /** Opens the standalone stream (one per session: a new one replaces the old) and delivers what waited for it. */
  listen(response: ServerResponse, headers: Record<string, string>): void {
    this.#get?.end();
    this.#track(response);
    const stream = new SseStream(response, headers, this.child);
    this.#get = stream;
    stream.onClose(() => {
      if (this.#get === stream) this.#get = undefined;
    });
    this.#flush(stream, () => true);
  }

  /** Sends a keep-alive comment on every open stream. */
  keepAlive(): void {
    this.#get?.keepAlive();
    for (const entry of this.#inFlight.values()) entry.stream?.keepAlive();
  }

  /** Ends the session: stops the child (stdin closed, then SIGTERM, then SIGKILL). */
  end(reason: EndReason): Promise<ChildExit> {
    this.#ending ??= reason;
    clearTimeout(this.#idleTimer);
    return this.child.stop();
  }

  // --- child → client ---------------------------------------------------------------------------

  /** `text`: the line the child wrote, relayed as it is when the message goes out unchanged. */
  #fromChild(value: unknown, text: string): void {
    const message = classify(value);
    if (typeof message === 'string') {
      this.#hooks.log(`${this.#label} ignored a stdout message: ${message}`);
      return;
    }
    if (message.kind === 'response') {
      this.#respond(message, text);
      return;
    }
    if (message.kind === 'request') {
      const stream = this.#relatedStream();
      this.#serverRequests.set(idKey(message.id), stream);
      // Requests the client never answers must not pile up.
      if (this.#serverRequests.size > MAX_QUEUED) this.#serverRequests.delete(this.#serverRequests.keys().next().value!);
      this.#deliver(stream, message.value);
      return;
    }
    const params = (message.value.params ?? {}) as Record<string, unknown>;
    switch (message.method) {
      case 'notifications/progress': {
        const owner = [...this.#inFlight.values()].find((entry) => entry.progressToken !== undefined && entry.progressToken === params.progressToken);
        this.#deliver(owner?.stream?.open ? owner.stream : this.#getIfOpen(), message.value);
        return;
      }
      case 'notifications/cancelled': {
        // The server withdraws one of its own requests: on the stream that carried it.
        const requestId = params.requestId;
        const key = typeof requestId === 'string' || typeof requestId === 'number' ? idKey(requestId) : undefined;
        const stream = key ? this.#serverRequests.get(key) : undefined;
        if (key) this.#serverRequests.delete(key);
        this.#deliver(stream?.open ? stream : this.#getIfOpen(), message.value);
        return;
      }
      case 'notifications/message':
        this.#deliver(this.#relatedStream(), message.value);
        return;
      default:
        this.#deliver(this.#getIfOpen(), message.value);
    }
  }

  #respond(message: Extract<Message, { kind: 'response' }>, text: string): void {
    const key = message.id === null ? undefined : idKey(message.id);
    const entry = key ? this.#inFlight.get(key) : undefined;
    if (!entry) {
      this.#hooks.log(`${this.#label} dropped a response with id ${JSON.stringify(message.id)} that matches no request in flight`);
      return;
    }
    this.#inFlight.delete(key!);
    if (entry.method === 'initialize') {
      const result = message.value.result as Record<string, unknown> | undefined;
      if (typeof result?.protocolVersion === 'string') this.protocolVersion = result.protocolVersion;
    }
    if (entry.stream?.open) entry.stream.answer(message.value, text);
    else {
      this.#hooks.log(`${this.#label} dropped the response to ${entry.method} #${String(entry.id)}: the client closed its stream`);
    }
    // A child that refused initialize serves nobody.
    if (entry.method === 'initialize' && 'error' in message.value) void this.end('initialize-failed');
    this.#armIdle();
  }

  /** The stream for a message that probably belongs to the call in flight (see the module docs). */
  #relatedStream(): SseStream | undefined {
    const calls = [...this.#inFlight.values()].filter((entry) => entry.stream?.open && INPUT_METHODS.has(entry.method));
    if (calls.length === 1) return calls[0]!.stream;
    if (this.#get?.open) return this.#get;
    return calls.at(-1)?.stream;
  }

  #getIfOpen(): SseStream | undefined {
    return this.#get?.open ? this.#get : undefined;
  }

  #deliver(stream: SseStream | undefined, message: Record<string, unknown>): void {
    if (stream) {
      stream.send(message);
      return;
    }
    this.#queue.push(message);
    if (this.#queue.length > MAX_QUEUED) {
      const dropped = this.#queue.shift()!;
      this.#hooks.log(`${this.#label} dropped ${String(dropped.method ?? 'a message')}: no stream to send it on and ${MAX_QUEUED} messages already waiting`);
    }
  }

  /** Sends the queued messages that `accept` picks on `stream`. */
  #flush(stream: SseStream, accept: (message: Record<string, unknown>) => boolean): void {
    for (let i = 0; i < this.#queue.length; ) {
      if (accept(this.#queue[i]!)) stream.send(this.#queue.splice(i, 1)[0]);
      else i++;
    }
  }

  /**
   * The request in flight that a line the bridge cannot parse answered: the `id` at
   * its start (`{"jsonrpc":"2.0","id":…`) or its end (`…,"id":…}`); else the only
   * request in flight, unless the line reads like a request or notification of
   * the server's own (a `"method"` near its start).
   */
  #ownerOf(head: string, tail: string): InFlight | undefined {
    const ids = [...head.matchAll(/^\s*\{(?:\s*"jsonrpc"\s*:\s*"2\.0"\s*,)?\s*"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/g), ...tail.matchAll(/"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/g)].map((m) => {
      try {
        return JSON.parse(m[1]!) as RequestId;
      } catch {
        return undefined;
      }
    });
    const entry = ids.map((id) => (id === undefined ? undefined : this.#inFlight.get(idKey(id)))).find(Boolean);
    if (entry || this.#inFlight.size !== 1 || /"method"\s*:/.test(head.slice(0, 200))) return entry;
    return [...this.#inFlight.values()][0];
  }

  /**
   * A stdout line that is not JSON. Log text (a server that logs to stdout by mistake) is
   * ignored with a log line; a line that starts like a JSON-RPC message (`{` and `"jsonrpc"`,
   * `"id"`, `"result"` or `"error"` near its start) is a message cut short or malformed:
   * the request it answered fails with a clear error instead of waiting for its timeout.
   */
  #unparsable(line: string): void {
    const excerpt = JSON.stringify(line.slice(0, 200));
    const head = line.slice(0, EDGE_BYTES);
    if (!/^\s*\{/.test(head) || !/"(?:jsonrpc|id|result|error)"\s*:/.test(head)) {
      this.#hooks.log(`${this.#label} ignored a stdout line that is not JSON (servers must log to stderr): ${excerpt}`);
      return;
    }
    const bytes = Buffer.byteLength(line);
    const entry = this.#ownerOf(head, line.slice(-EDGE_BYTES));
    this.#hooks.log(`${this.#label} got a stdout line of ${bytes} bytes that starts like a JSON-RPC message but is not valid JSON (cut short or malformed)${entry ? `: the response to ${entry.method} #${String(entry.id)}` : ''}: ${excerpt}`);
    if (!entry) return;
    this.#inFlight.delete(idKey(entry.id));
    const error = errorResponse(
      entry.id,
      Codes.InternalError,
      `mcp-web-elements bridge: the stdio server's response to ${entry.method} was not valid JSON (${bytes} bytes, cut short or malformed; it starts ${excerpt.slice(0, 80)})`,
      { bridge: 'malformed-line', bytes, start: line.slice(0, 200) },
    );
    entry.stream?.answer(error);
  }

  /** A stdout line over the cap: answer the request it belonged to with an error, when that can be told. */
  #oversize(line: OversizeLine): void {
    const limit = this.#limits.maxLineBytes;
    const entry = this.#ownerOf(line.head, line.tail);
    this.#hooks.log(`${this.#label} refused a stdout line of ${line.bytes} bytes (limit ${limit}, --max-message-bytes)${entry ? `: the response to ${entry.method} #${String(entry.id)}` : ''}`);
    if (!entry) return;
    this.#inFlight.delete(idKey(entry.id));
    const error = errorResponse(
      entry.id,
      Codes.InternalError,
      `mcp-web-elements bridge: the stdio server's response to ${entry.method} was ${line.bytes} bytes, over the bridge's limit of ${limit} bytes per message (start the bridge with a larger --max-message-bytes)`,
      { bridge: 'line-too-long', bytes: line.bytes, limit },
    );
    entry.stream?.answer(error);
  }

  #exited(exit: ChildExit): void {
    this.#ended = true;
    clearTimeout(this.#idleTimer);
    const reason: EndReason = this.#ending ?? 'exit';
    const report = describeExit(this.server, exit, reason);
    if (reason === 'exit') this.#hooks.log(`${this.#label} ${report.message}`);
    const data = { bridge: 'child-exited', exitCode: exit.code, signal: exit.signal, stderr: exit.stderr, ...(exit.startError ? { startError: exit.startError } : {}) };
    for (const entry of this.#inFlight.values()) {
      if (!entry.stream?.open) continue;
      entry.stream.answer(errorResponse(entry.id, Codes.InternalError, `${report.message} while ${entry.method} was in flight${report.stderr}`, data));
    }
    this.#inFlight.clear();
    if (this.#get?.open) {
      if (reason === 'exit') this.#get.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', logger: 'mcp-web-elements-bridge', data: { message: report.message, ...data } } });
      this.#get.end();
    }
    this.#queue.length = 0;
    this.#hooks.ended(this, reason, exit);
  }

  // --- connections and idleness ---------------------------------------------------------------

  #track(response: ServerResponse): void {
    this.#connections++;
    this.#touch();
    response.on('close', () => {
      this.#connections--;
      this.#armIdle();
    });
  }

  #touch(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    this.#idleSince = undefined;
  }

  /** Starts the idle countdown when the client has nothing open. */
  #armIdle(): void {
    if (this.#ended || this.busy) return;
    clearTimeout(this.#idleTimer);
    this.#idleSince ??= Date.now();
    this.#idleTimer = setTimeout(() => {
      if (!this.busy) {
        this.#hooks.log(`${this.#label} idle for ${Math.round(this.#limits.idleTimeoutMs / 1000)} s: stopping its stdio server`);
        void this.end('idle');
      }
    }, this.#limits.idleTimeoutMs);
    this.#idleTimer.unref();
  }
}

/** A sentence about how a child ended, and its last stderr lines as a suffix for messages. */
export function describeExit(server: string, exit: ChildExit, reason: EndReason): { message: string; stderr: string } {
  const how = exit.startError
    ? `could not be started (${exit.startError})`
    : exit.signal
      ? `was ended by ${exit.signal}`
      : `exited with code ${exit.code}`;
  const why = reason === 'exit' || reason === 'initialize-failed' ? '' : ` (session ended: ${reason})`;
  const last = exit.stderr.slice(-5);
  return {
    message: `mcp-web-elements bridge: the stdio server "${server}" ${how}${why}`,
    stderr: last.length ? `. Its last stderr lines:\n${last.join('\n')}` : '',
  };
}
