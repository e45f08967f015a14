/**
 * The host end of the MCP Apps dialect of JSON-RPC over `postMessage` (spec:
 * ext-apps "Communication Protocol", "Lifecycle", "MCP Apps Specific
 * Messages"): checks every message from the app, dispatches its requests to the
 * host's handlers, answers them, queues the host's notifications until the app
 * says it is initialized, and sends the host's own requests (teardown).
 *
 * Everything from the app is untrusted: a message that is not a JSON-RPC 2.0
 * object, a method that is not a short string, an id that is neither a short
 * string nor a safe integer, a response to a request the host never sent and
 * floods are refused without throwing; `__proto__` members stay plain data
 * (methods are matched with `switch`, pending calls live in `Map`s).
 *
 * @module
 */

/** A JSON-RPC request id. */
export type JsonRpcId = string | number;

/** A JSON-RPC error raised by a handler: becomes the error response to the app. */
export class AppRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'AppRpcError';
  }
}

/** JSON-RPC error codes used towards the app. */
export const RpcCode = {
  /** The host refused (user, policy, limits): ext-apps uses -32000 for these. */
  refused: -32000,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
} as const;

/** What the host does for each request and notification of the app. */
export interface ChannelHandlers {
  /** `ui/initialize`: returns the result (host info, capabilities, context). */
  initialize(params: Record<string, unknown>): Record<string, unknown>;
  /** `ui/notifications/initialized`: the app is ready for notifications. */
  initialized(): void;
  /** Any other request from the app, by method; throw {@link AppRpcError} to refuse. */
  request(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  /** Any other notification from the app, by method. */
  notification(method: string, params: Record<string, unknown>): void;
  /** Something the app sent was refused (for a developer warning). */
  refused(reason: string): void;
}

/** Limits on what an app may send. */
export interface ChannelLimits {
  /** Messages accepted in a burst before the rate applies; default 200. */
  burst: number;
  /** Messages accepted per second after the burst; default 100. */
  perSecond: number;
  /** App requests handled at once; default 16. */
  maxInFlight: number;
}

const DEFAULT_LIMITS: ChannelLimits = { burst: 200, perSecond: 100, maxInFlight: 16 };
/**
 * Refusals answered past the rate: a burst, then as many a second as the rate.
 * Past those the excess is dropped unread and unanswered: a flood must cost the
 * page no more than counting it (reading a message, checking it and posting an
 * answer, ten thousand times, blocked the page for seconds).
 */
const REFUSALS_BURST = 300;
/** The protocol version the host speaks (ext-apps stable revision). */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};
const validId = (id: unknown): id is JsonRpcId => (typeof id === 'string' && id.length <= 256) || (typeof id === 'number' && Number.isSafeInteger(id));

/** One app's message channel (the host side). */
export class AppChannel {
  readonly #post: (message: Record<string, unknown>) => void;
  readonly #handlers: ChannelHandlers;
  readonly #limits: ChannelLimits;
  #initializeSeen = false;
  #initialized = false;
  #closed = false;
  #queue: Record<string, unknown>[] = [];
  /** The app's requests being handled, by id (abortable through `notifications/cancelled`). */
  readonly #inFlight = new Map<JsonRpcId, AbortController>();
  /** The host's requests waiting for the app's answer, by id. */
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  #nextId = 1;
  #tokens: number;
  #refilled = Date.now();
  #refusals = REFUSALS_BURST;
  #dropped = 0;

  constructor(post: (message: Record<string, unknown>) => void, handlers: ChannelHandlers, limits: Partial<ChannelLimits> = {}) {
    this.#post = post;
    this.#handlers = handlers;
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
    this.#tokens = this.#limits.burst;
  }

  /** Whether the app has sent `ui/notifications/initialized`. */
  get initialized(): boolean {
    return this.#initialized;
  }

  /** Messages refused by the rate limit so far (requests among them were answered with an error). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Takes one message from the app (already known to come from its window). */
  receive(data: unknown): void {
    this.receiveLazily(() => data);
  }

  /**
   * Takes one message from the app, read through `read` (a `MessageEvent`'s
   * `data` is deserialized when first read) only once it is within the rate.
   */
  receiveLazily(read: () => unknown): void {
    if (this.#closed) return;
    if (!this.#take()) {
      if (this.#dropped++ === 0) this.#handlers.refused(`the app sends more than ${this.#limits.perSecond} messages a second; the excess is refused`);
      if (this.#refusals < 1) return;
      this.#refusals -= 1;
      // A request gets a refusal while refusals last, so a well-meaning app learns to slow down; nothing runs.
      const data = read();
      if (isPlainObject(data) && typeof data.method === 'string' && validId(data.id)) this.#error(data.id, RpcCode.refused, `Too many messages: at most ${this.#limits.perSecond} a second`);
      return;
    }
    const data = read();
    if (!isPlainObject(data) || data.jsonrpc !== '2.0') return this.#handlers.refused('a message that is not a JSON-RPC 2.0 object');
    const { method, id } = data;
    if (method === undefined) return this.#response(data);
    if (typeof method !== 'string' || method.length === 0 || method.length > 128) {
      if (validId(id)) this.#error(id, RpcCode.invalidRequest, 'The method must be a string of at most 128 characters');
      return this.#handlers.refused('a message whose method is not a short string');
    }
    const params = data.params === undefined ? {} : data.params;
    if (id === undefined) {
      if (!isPlainObject(params)) return this.#handlers.refused(`${method} with params that are not an object`);
      return this.#notification(method, params);
    }
    if (!validId(id)) return this.#handlers.refused(`${method} with an id that is neither a short string nor a safe integer`);
    if (!isPlainObject(params)) return this.#error(id, RpcCode.invalidParams, 'params must be an object');
    void this.#request(method, id, params);
  }

  /**
   * Sends a notification to the app; held until the app is initialized (the
   * host must not send anything before), in order.
   */
  notify(method: string, params: Record<string, unknown>): void {
    if (this.#closed) return;
    const message = { jsonrpc: '2.0', method, params };
    if (this.#initialized) this.#post(message);
    else this.#queue.push(message);
  }

  /** Sends a request to the app; rejects after `timeoutMs` without an answer. */
  request(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    if (this.#closed || !this.#initialized) return Promise.reject(new Error(`the app is ${this.#closed ? 'closed' : 'not initialized'}`));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`the app did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.#post({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Stops the channel: in-flight app requests are aborted, host requests rejected, nothing more is sent. */
  close(): void {
    this.#closed = true;
    this.#queue = [];
    for (const controller of this.#inFlight.values()) controller.abort(new Error('the app was closed'));
    this.#inFlight.clear();
    for (const pending of this.#pending.values()) pending.reject(new Error('the app was closed'));
    this.#pending.clear();
  }

  /** Token bucket: `burst` at once, then `perSecond`. */
  #take(): boolean {
    const now = Date.now();
    const refill = ((now - this.#refilled) / 1000) * this.#limits.perSecond;
    this.#tokens = Math.min(this.#limits.burst, this.#tokens + refill);
    this.#refusals = Math.min(REFUSALS_BURST, this.#refusals + refill);
    this.#refilled = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  #response(data: Record<string, unknown>): void {
    const id = data.id;
    const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (!pending) return this.#handlers.refused(`a response with id ${JSON.stringify(id)?.slice(0, 40)}, which matches no request of the host`);
    this.#pending.delete(id as number);
    if (isPlainObject(data.error)) pending.reject(new AppRpcError(Number(data.error.code) || RpcCode.internal, String(data.error.message ?? 'error')));
    else pending.resolve(data.result);
  }

  #notification(method: string, params: Record<string, unknown>): void {
    switch (method) {
      case 'ui/notifications/initialized':
        if (!this.#initializeSeen || this.#initialized) return this.#handlers.refused('ui/notifications/initialized out of order');
        this.#initialized = true;
        for (const message of this.#queue.splice(0)) this.#post(message);
        this.#handlers.initialized();
        return;
      case 'notifications/cancelled': {
        const requestId = params.requestId;
        if (validId(requestId)) this.#inFlight.get(requestId)?.abort(new Error('cancelled by the app'));
        return;
      }
      default:
        this.#handlers.notification(method, params);
    }
  }

  async #request(method: string, id: JsonRpcId, params: Record<string, unknown>): Promise<void> {
    if (this.#inFlight.has(id)) return this.#error(id, RpcCode.invalidRequest, `Request id ${JSON.stringify(id)} is already in use`);
    if (method === 'ping') return this.#result(id, {});
    if (method === 'ui/initialize') {
      if (this.#initializeSeen) return this.#error(id, RpcCode.invalidRequest, 'ui/initialize was already sent');
      this.#initializeSeen = true;
      try {
        return this.#result(id, this.#handlers.initialize(params));
      } catch (error) {
        return this.#fail(id, error);
      }
    }
    if (!this.#initializeSeen) return this.#error(id, RpcCode.invalidRequest, `${method} before ui/initialize`);
    if (this.#inFlight.size >= this.#limits.maxInFlight) return this.#error(id, RpcCode.refused, `Too many requests in flight (at most ${this.#limits.maxInFlight})`);
    const controller = new AbortController();
    this.#inFlight.set(id, controller);
    try {
      const result = await this.#handlers.request(method, params, controller.signal);
      if (this.#inFlight.get(id) === controller) this.#result(id, result ?? {});
    } catch (error) {
      if (this.#inFlight.get(id) === controller) this.#fail(id, error);
    } finally {
      if (this.#inFlight.get(id) === controller) this.#inFlight.delete(id);
    }
  }

  #fail(id: JsonRpcId, error: unknown): void {
    if (error instanceof AppRpcError) this.#error(id, error.code, error.message, error.data);
    else this.#error(id, RpcCode.internal, error instanceof Error ? error.message : String(error));
  }

  #result(id: JsonRpcId, result: unknown): void {
    if (!this.#closed) this.#post({ jsonrpc: '2.0', id, result });
  }

  #error(id: JsonRpcId, code: number, message: string, data?: unknown): void {
    if (!this.#closed) this.#post({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } });
  }
}
