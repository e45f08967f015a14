/**
 * `McpClient`: an MCP client over Streamable HTTP that needs nothing but `fetch`.
 *
 * It runs unchanged in a browser tab, a web worker and Node. It speaks revision
 * 2026-07-28 (stateless, per-request `_meta`, multi round-trip requests,
 * `subscriptions/listen`) and, through era detection, legacy servers.
 *
 * @example
 * ```ts
 * const client = new McpClient('https://example.com/mcp');
 * client.setInputHandler('elicitation/create', { modes: ['form'], handle: async (params) => ({ action: 'decline' }) });
 * const tools = await client.listTools();
 * const result = await client.callTool('search', { query: 'mcp' });
 * ```
 *
 * @module
 */
import { ResultCache, CACHEABLE_METHODS } from './client/cache.js';
import { hashKey } from './util/hash.js';
import { Emitter } from './util/emitter.js';
import { timerDelay, untilAborted } from './util/sleep.js';
import { ErrorCode, maskUrlSecrets, McpClientError, McpError, McpRpcError, type McpErrorData, type McpWarning } from './protocol/errors.js';
import { checkHeaders, mentionsHeaderBindings } from './transport/headers.js';
import type { HeaderBinding, RejectedTool } from './transport/header-bindings.js';
import type { IncomingMessage } from './protocol/jsonrpc.js';
import { checkOutput, type OutputValidation } from './schema/schema.js';
import { ModernSession, type ServerDescription, type Session, type SessionHost, type SessionRequestOptions, type TrafficEvent } from './transport/session.js';
import { classifyDiscoverResult, classifyProbeFailure, defaultEraCache, eraCacheKey, type EraCache } from './protocol/era.js';
import { HttpTransport, type FetchLike, type TransportWarning } from './transport/transport.js';
import type { HandlerLookup } from './rounds/input.js';
import { type StoredTasks, type TaskCallOptions, type TaskEvent, type TaskHandle, type TaskInfo, type TaskOptions, type TaskState } from './tasks/task-types.js';
import type * as TaskModule from './tasks/tasks.js';

type TaskHost = TaskModule.TaskHost;
type TaskModule = typeof TaskModule;
/** The arguments of a task entry point after its host. */
type TaskArgs<K extends keyof TaskModule> = TaskModule[K] extends (host: TaskHost, ...rest: infer A) => unknown ? A : never;
import {
  TASKS_EXTENSION,
  type CallToolResult,
  type ClientCapabilities,
  type CompleteResult,
  type CompletionReference,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type DiscoverResult,
  type ElicitRequestParams,
  type ElicitResult,
  type GetPromptResult,
  type Implementation,
  type InputRequest,
  type InputRequestMethod,
  type InputRequiredResult,
  type InputRequests,
  type InputResponses,
  type JsonObject,
  type JsonRpcNotification,
  type ListRootsResult,
  type LoggingLevel,
  type LoggingMessageNotificationParams,
  type Prompt,
  type ProgressNotificationParams,
  type ReadResourceResult,
  type RequestId,
  type Resource,
  type ResourceTemplate,
  type ResultBase,
  type SubscriptionFilter,
  type Tool,
  isObject,
} from './protocol/types.js';

/** Version reported in `clientInfo` by default. */
export const KIT_VERSION = '0.1.0';

/** Connection status of a client. */
export type ClientStatus = 'idle' | 'connecting' | 'connected' | 'error' | 'closed';

/** Which protocol era to use: detect (`auto`, default), or pin one. */
export type ProtocolPreference = 'auto' | 'modern' | 'legacy';

/** Default of {@link McpClientOptions.maxPages}. */
export const DEFAULT_MAX_PAGES = 500;
/** Default of {@link McpClientOptions.maxListItems}. */
export const DEFAULT_MAX_LIST_ITEMS = 10_000;

/** Options of {@link McpClient}. Times are in milliseconds, sizes in bytes. */
export interface McpClientOptions {
  /** `fetch` to use (auth wrappers, proxies, tests). Default: the global `fetch`, looked up per call. */
  fetch?: FetchLike;
  /** Extra headers for every request, or a function returning them (called per request). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** `clientInfo` sent on every request; `false` to omit it. Default `{ name: 'mcp-elements', version }`. */
  clientInfo?: Implementation | false;
  /** Era selection; default `auto` (spec: basic/versioning "Backward Compatibility"). */
  protocol?: ProtocolPreference;
  /** Timeout of one request, reset by progress notifications; default 60,000 ms. */
  requestTimeoutMs?: number;
  /** Hard cap on one request whatever its progress; default 600,000 ms. */
  maxTotalTimeoutMs?: number;
  /** Cap on input_required rounds of one call, and on the input rounds of one task (`tasks/update`); default 10. */
  maxRounds?: number;
  /**
   * Cap on the input requests of one round; default 16. A round asking for more
   * is declined without asking anyone (elicitations `decline`, roots empty,
   * sampling left out), with an `input-flood` warning; the `inputResponses`
   * of its `answered` round event carry `[Symbol.for('mcp-elements.declined-round')]`,
   * the number of requests (for a UI to tell the user).
   */
  maxInputRequests?: number;
  /**
   * Cap on pages followed by one listing (`listTools`, `listResources`…); default 500.
   * Over it the listing fails with `McpClientError` `pagination`.
   */
  maxPages?: number;
  /**
   * Cap on items kept from one listing, all pages together; default 10,000 (the
   * largest real catalogues list a few hundred tools). Over it the listing stops
   * following pages and returns the first `maxListItems` items, with a
   * `list-truncated` warning, so a server cannot make the client hold an
   * unbounded list.
   */
  maxListItems?: number;
  /**
   * Capabilities to declare in addition to those of the registered input handlers —
   * for apps that answer input requests themselves (`inputRequired: 'manual'`).
   */
  capabilities?: ClientCapabilities;
  /** Opt in to log notifications at this level (deprecated feature; off by default). */
  logLevel?: LoggingLevel;
  /** Cache results per `ttlMs`/`cacheScope`; default true. */
  cache?: boolean;
  /** Identifies the authorization context for private cache entries and stored tasks; default: a hash of the credential headers (`Authorization`, `X-Api-Key`…). */
  authContext?: () => string | undefined;
  /** Cap on a JSON response body; default 64 MiB. */
  maxBodyBytes?: number;
  /** Cap on one SSE event, in characters; default 16 Mi. */
  maxEventChars?: number;
  /** Where the detected era is remembered per endpoint; default: IndexedDB in browsers (`idb-keyval`), memory elsewhere. */
  eraCache?: EraCache;
  /** Receives warnings instead of `console.warn`. */
  onWarning?: (warning: McpWarning) => void;
  /**
   * Long-running calls (tasks). `true` or options: declare the 2026-07-28 Tasks
   * extension on every request and follow task results to their outcome;
   * on 2025-11-25 servers, call tools whose `execution.taskSupport` is
   * `required` as tasks. Default off (the elements turn it on). See {@link TaskOptions}.
   */
  tasks?: boolean | TaskOptions;
}

/** Options common to every request. */
export interface RequestOptions {
  /** Abort to cancel: on 2026-07-28 the client closes the request's stream, which is the cancellation. */
  signal?: AbortSignal;
  /** Overrides `requestTimeoutMs` for this request. */
  timeoutMs?: number;
  /** Overrides `maxTotalTimeoutMs` for this request. */
  maxTotalTimeoutMs?: number;
  /** Whether progress notifications restart the timeout; default true. */
  resetTimeoutOnProgress?: boolean;
  /** Opts the request into progress notifications (a `progressToken` is added). */
  onProgress?: (progress: ProgressNotificationParams) => void;
  /** Log notifications sent on this request's stream. */
  onLog?: (log: LoggingMessageNotificationParams) => void;
  /** Skip the result cache for this request. */
  fresh?: boolean;
}

/** One step of a multi round-trip request, for timelines and protocol logs. */
export interface RoundEvent {
  /** Identifies the logical call across its rounds. */
  callId: number;
  /** Original method: `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** Tool or prompt name, or resource URI. */
  target: string | undefined;
  /** The original request's params (without `_meta`, `inputResponses`, `requestState`): enough to resume the call. */
  params: JsonObject;
  /** 0 for the first request, 1 for the first retry… */
  round: number;
  /** JSON-RPC id of this round's request. */
  requestId?: RequestId;
  phase: 'input_required' | 'answered' | 'complete' | 'error';
  inputRequests?: InputRequests;
  inputResponses?: InputResponses;
  requestState?: string;
  error?: McpError;
}

/** Options of calls that may return `input_required` (spec: basic/patterns/mrtr). */
export interface InputRequiredOptions extends RequestOptions {
  /** `auto` (default): answer input requests through the registered handlers and retry; `manual`: return the interim result. */
  inputRequired?: 'auto' | 'manual';
  /** Overrides `maxRounds`. */
  maxRounds?: number;
  /** Answers to send with this request (manual continuation). */
  inputResponses?: InputResponses;
  /** `requestState` to echo with this request (manual continuation). */
  requestState?: string;
  /** Continue from an interim result already received (e.g. restored after a reload). */
  resumeFrom?: InputRequiredResult;
  /** Called on every round. */
  onRound?: (event: RoundEvent) => void;
}

/** A tool result plus the kit's output validation (non-enumerable, not from the server). */
export type ToolCallResult = CallToolResult & { readonly outputValidation?: OutputValidation };

/** Options of {@link McpClient.callTool}: those of any input-capable request, plus the tool definition if the caller has one. */
export interface CallToolOptions extends InputRequiredOptions {
  /** The tool definition, if the caller has it (otherwise the last listing is used). */
  tool?: Tool;
  /** When the server runs the call as a task (`tasks` client option): the handle, status updates, detaching. */
  task?: TaskCallOptions;
}

/** Context handed to input handlers. */
export interface InputContext {
  /** Server-assigned key of this input request. */
  key: string;
  /** Position of this request among the round's requests (0-based) and their count. */
  index: number;
  total: number;
  /** Round number of the call (0 = first answer). */
  round: number;
  /** The original request: method and tool/prompt name or resource URI. */
  method: string;
  target: string | undefined;
  callId: number;
  /** Aborted when the call is cancelled. */
  signal: AbortSignal;
  /** The server asking, and its endpoint (the authoritative identity). */
  server: ServerDescription;
  url: string;
  /** The task that asks, when the request came from a running task (`tasks/update` answers it). */
  taskId?: string;
}

/**
 * Answers `elicitation/create` (spec: client/elicitation). Register with
 * {@link McpClient.setInputHandler}; `modes` become the declared capability.
 * `handle` resolves with the user's answer, or rejects (e.g. when `context.signal` aborts).
 */
export interface ElicitationHandler {
  /** Modes this handler can show; declared as `elicitation.form` / `elicitation.url`. */
  modes: readonly ('form' | 'url')[];
  handle(params: ElicitRequestParams, context: InputContext): Promise<ElicitResult>;
}

/**
 * Answers `sampling/createMessage` (spec: client/sampling): `handle` resolves with
 * the message a model (or the user) wrote; reject to refuse the request.
 */
export interface SamplingHandler {
  /** Whether tool use inside sampling is supported (declares `sampling.tools`). */
  tools?: boolean;
  handle(params: CreateMessageRequestParams, context: InputContext): Promise<CreateMessageResult>;
}

/** Answers `roots/list` (spec: client/roots): `handle` resolves with the roots to share. */
export interface RootsHandler {
  handle(params: JsonObject | undefined, context: InputContext): Promise<ListRootsResult>;
}

/** Handlers for the input requests a server may embed (MRTR) or send (legacy). */
export interface InputHandlers {
  'elicitation/create': ElicitationHandler;
  'sampling/createMessage': SamplingHandler;
  'roots/list': RootsHandler;
}

/** Events of {@link McpClient}. */
export interface ClientEvents {
  status: { status: ClientStatus; error?: McpError };
  /** Every JSON-RPC message sent or received. */
  traffic: TrafficEvent;
  round: RoundEvent;
  /** Server notifications from listen streams (and legacy streams). */
  notification: JsonRpcNotification;
  log: LoggingMessageNotificationParams;
  toolsChanged: Record<string, never>;
  promptsChanged: Record<string, never>;
  resourcesChanged: Record<string, never>;
  resourceUpdated: { uri: string };
  /** The declared client capabilities changed (a handler was added or removed). */
  capabilities: { capabilities: ClientCapabilities };
  /** A task was created, changed status, needed input, ended… (see {@link TaskEvent}). */
  task: TaskEvent;
  warning: McpWarning;
}

/** A live `subscriptions/listen` subscription (see {@link McpClient.listen}). */
export interface Subscription {
  readonly filter: SubscriptionFilter;
  /** What the server agreed to deliver, once acknowledged. */
  readonly acknowledged: SubscriptionFilter | undefined;
  readonly state: 'opening' | 'open' | 'reconnecting' | 'closed';
  /** Resolves when the subscription ends for good (closed by either side). */
  readonly closed: Promise<{ reason: 'client' | 'server' | 'error'; error?: McpError }>;
  close(): void;
}

/** Options of {@link McpClient.listen} (spec: basic/patterns/subscriptions). */
export interface ListenOptions {
  /** Called for each notification delivered on the stream. */
  onNotification?: (notification: JsonRpcNotification) => void;
  /** Called when the server acknowledges (and on each re-listen). */
  onAcknowledged?: (filter: SubscriptionFilter) => void;
  /** Called on state changes. */
  onState?: (state: Subscription['state']) => void;
  /** Re-listen with backoff after an unexpected drop; default true. */
  reconnect?: boolean;
  /** First backoff delay; doubles up to 30 s. Default 1,000 ms. */
  backoffMs?: number;
  signal?: AbortSignal;
}

const INPUT_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);
const NOTIFICATION_INVALIDATES: Record<string, string[]> = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};


/**
 * An MCP client for one server endpoint.
 *
 * Connection is lazy: any request connects first (era detection and
 * `server/discover`). Every method takes `{ signal }`.
 */
export class McpClient {
  /** The MCP endpoint. */
  readonly url: URL;
  readonly #options: McpClientOptions;
  readonly #transport: HttpTransport;
  readonly #emitter = new Emitter<ClientEvents>();
  readonly #cache: ResultCache;
  readonly #handlers: Partial<{ [K in InputRequestMethod]: InputHandlers[K][] }> = {};
  /** Declared extensions, newest last per id (see {@link McpClient.declareExtension}). */
  readonly #extensions: [id: string, settings: JsonObject][] = [];
  readonly #inflight = new Set<AbortController>();
  readonly #subscriptions = new Set<Subscription>();
  readonly #warned = new Set<string>();
  #session: Session | undefined;
  #connecting: Promise<ServerDescription> | undefined;
  #status: ClientStatus = 'idle';
  #error: McpError | undefined;
  #nextId = 1;
  #nextCall = 1;
  #nextProgress = 1;
  #tools = new Map<string, Tool>();
  #bindings = new Map<string, HeaderBinding[]>();
  #rejected = new Map<string, RejectedTool>();
  #listedTools = false;
  // The tools/list pages the current tools were screened from (a listing served from the cache reuses them).
  #screenedPages: readonly object[] = [];
  #firstListing: Promise<void> | undefined;
  // Single-flight tools/list: a listing in flight, the generation it answers, and
  // the one follow-up shared by callers who arrive after an invalidation.
  #toolsFlight: { promise: Promise<Tool[]>; generation: number } | undefined;
  #toolsFollowUp: Promise<Tool[]> | undefined;
  #toolsGeneration = 0;
  #toolsFresh = false;
  #changedPending = new Set<keyof ClientEvents>();

  /**
   * @param url - the MCP endpoint (`https://host/mcp`).
   * @param options - see {@link McpClientOptions}.
   */
  constructor(url: string | URL, options: McpClientOptions = {}) {
    this.url = new URL(url);
    this.#options = options;
    this.#transport = new HttpTransport({
      url: this.url,
      fetch: options.fetch,
      maxBodyBytes: options.maxBodyBytes,
      maxEventChars: options.maxEventChars,
      onWarning: (warning: TransportWarning) => this.#warn(warning.code, warning.message),
    });
    this.#cache = new ResultCache();
    // The Tasks extension is declared on every request while the client follows tasks.
    if (options.tasks) this.#extensions.push([TASKS_EXTENSION, {}]);
  }

  // --- state ------------------------------------------------------------------------

  /** Current connection status. */
  get status(): ClientStatus {
    return this.#status;
  }

  /** The last connection error, if `status` is `error`. */
  get error(): McpError | undefined {
    return this.#error;
  }

  /** What is known about the server, once connected. */
  get server(): ServerDescription | undefined {
    return this.#session?.description;
  }

  /** The HTTP transport (for diagnostics, e.g. the CORS doctor). */
  get transport(): HttpTransport {
    return this.#transport;
  }

  /** Tools dropped from the last `tools/list` because of invalid `x-mcp-header` annotations. */
  get rejectedTools(): readonly RejectedTool[] {
    return [...this.#rejected.values()];
  }

  /**
   * Adds an event listener.
   * @returns a function that removes it.
   */
  on<K extends keyof ClientEvents>(type: K, listener: (event: ClientEvents[K]) => void): () => void {
    return this.#emitter.on(type, listener);
  }

  // --- input handlers and capabilities ----------------------------------------------------

  /**
   * Registers the handler for one kind of input request. The client declares the
   * matching capability on every request from now on, and stops when the
   * returned function is called (spec: basic/index "_meta": capabilities are per
   * request). A later registration for the same method takes precedence until it
   * is removed.
   *
   * @returns a function that unregisters this handler.
   */
  setInputHandler<K extends InputRequestMethod>(method: K, handler: InputHandlers[K]): () => void {
    const list = (this.#handlers[method] ??= []) as InputHandlers[K][];
    list.push(handler);
    this.#emitter.emit('capabilities', { capabilities: this.capabilities });
    return () => {
      const index = list.lastIndexOf(handler);
      if (index >= 0) {
        list.splice(index, 1);
        this.#emitter.emit('capabilities', { capabilities: this.capabilities });
      }
    };
  }

  /**
   * Declares an extension (spec: extensions overview "Negotiation": `extensions` in
   * the per-request client capabilities) until the returned function is called, e.g.
   * `io.modelcontextprotocol/ui` while an app frame is on the page. Declarations of
   * one id stack: the newest settings apply until removed. A change drops the cached
   * `tools/list`, which a server may shape by what the client declares. Legacy
   * servers see the capabilities of the next `initialize` only.
   *
   * @param id - the extension identifier (`vendor-prefix/name`).
   * @param settings - its settings object (`{}` for none).
   * @returns a function that removes this declaration.
   */
  declareExtension(id: string, settings: JsonObject = {}): () => void {
    const entry: [string, JsonObject] = [id, settings];
    this.#extensions.push(entry);
    this.#extensionsChanged();
    return () => {
      const index = this.#extensions.indexOf(entry);
      if (index < 0) return;
      this.#extensions.splice(index, 1);
      this.#extensionsChanged();
    };
  }

  #extensionsChanged(): void {
    this.#cache.invalidate('tools/list');
    this.#emitter.emit('capabilities', { capabilities: this.capabilities });
  }

  #handler<K extends InputRequestMethod>(method: K): InputHandlers[K] | undefined {
    const list = this.#handlers[method] as InputHandlers[K][] | undefined;
    return list?.[list.length - 1];
  }

  /** The current handler for each input method (what `src/rounds/input.ts` answers with). */
  readonly #lookup: HandlerLookup = (method) => this.#handler(method);

  /** The capabilities declared right now: exactly the input requests a handler can answer. */
  get capabilities(): ClientCapabilities {
    const capabilities: ClientCapabilities = structuredClone(this.#options.capabilities ?? {});
    const elicitation = this.#handler('elicitation/create');
    if (elicitation && elicitation.modes.length > 0) {
      capabilities.elicitation ??= {};
      for (const mode of elicitation.modes) capabilities.elicitation[mode] = {};
    }
    const sampling = this.#handler('sampling/createMessage');
    if (sampling) capabilities.sampling = { ...capabilities.sampling, ...(sampling.tools ? { tools: {} } : {}) };
    if (this.#handler('roots/list')) capabilities.roots = this.server?.era === 'legacy' ? { listChanged: true } : { ...capabilities.roots };
    if (this.#extensions.length > 0) {
      // Later declarations win; ids are the page's, so "__proto__" stays an own key.
      const extensions: Record<string, JsonObject> = { ...capabilities.extensions };
      for (const [id, settings] of this.#extensions) Object.defineProperty(extensions, id, { value: settings, enumerable: true, writable: true, configurable: true });
      capabilities.extensions = extensions;
    }
    return capabilities;
  }

  /**
   * Changes the log level (spec: server/utilities/logging): on 2026-07-28 it is
   * sent in the `_meta` of every later request (undefined: none, so no log
   * notifications). Legacy servers keep the level of their session: send them
   * `logging/setLevel` as well (`request('logging/setLevel', { level })`).
   * Changes the `options` object the client was created with.
   */
  setLogLevel(level: LoggingLevel | undefined): void {
    this.#options.logLevel = level;
  }

  // --- connection ---------------------------------------------------------------------------

  /**
   * Connects: detects the era (unless pinned) and learns the server's identity and
   * capabilities (`server/discover` on 2026-07-28; `initialize` on legacy).
   * Concurrent calls share one attempt; calling again after success is a no-op.
   *
   * @throws McpError when the server cannot be reached or spoken to.
   */
  connect(options: { signal?: AbortSignal } = {}): Promise<ServerDescription> {
    if (this.#status === 'connected' && this.#session) return Promise.resolve(this.#session.description);
    if (this.#status === 'closed') return Promise.reject(new McpClientError('closed', 'The client is closed', { url: this.url.href }));
    if (!this.#connecting) {
      // One attempt shared by every caller and bound to none of their signals: a caller that
      // gives up (a component unmounting) must not fail the others. close() aborts it.
      const controller = new AbortController();
      this.#inflight.add(controller);
      this.#connecting = this.#connect(controller.signal).finally(() => {
        this.#inflight.delete(controller);
        this.#connecting = undefined;
      });
    }
    return untilAborted(this.#connecting, options.signal, this.#abortReason(`Connecting to ${this.url.href}`));
  }

  async #connect(signal: AbortSignal): Promise<ServerDescription> {
    this.#setStatus('connecting');
    try {
      const session = await this.#openSession(signal);
      if (this.#status === 'closed') {
        // close() was called while connecting: don't come back to life.
        await session.close();
        throw new McpClientError('closed', 'The client was closed while connecting', { url: this.url.href });
      }
      this.#session = session;
      this.#setStatus('connected');
      return session.description;
    } catch (error) {
      if (this.#status === 'closed') throw McpClientError.isInstance(error) && error.code === 'closed' ? error : new McpClientError('closed', 'The client was closed while connecting', { url: this.url.href }, { cause: error });
      const failure = McpError.isInstance(error) ? error : new McpClientError('protocol', String(error), { url: this.url.href }, { cause: error });
      this.#error = failure;
      this.#setStatus('error', failure);
      throw failure;
    }
  }

  async #openSession(signal: AbortSignal | undefined): Promise<Session> {
    const preference = this.#options.protocol ?? 'auto';
    const eraCache = this.#options.eraCache ?? sharedEraCache;
    const key = eraCacheKey(this.url);
    const cached = preference === 'auto' ? await eraCache.get(key) : undefined;

    if (preference === 'legacy' || cached === 'legacy') {
      try {
        const session = await this.#openLegacy(this.#withTimeout(signal));
        if (preference === 'auto') await eraCache.set(key, 'legacy');
        return session;
      } catch (error) {
        // The remembered verdict may be stale (server upgraded): probe again.
        if (preference !== 'auto') throw error;
        await eraCache.delete(key);
      }
    }

    const modern = new ModernSession(this.#sessionHost());
    let result: JsonObject;
    try {
      result = (await modern.request('server/discover', {}, { signal: this.#withTimeout(signal) })).result;
    } catch (error) {
      if (preference === 'modern') {
        // A modern server without server/discover (404/-32601) is non-conformant but usable.
        if (McpRpcError.isInstance(error) && error.code === ErrorCode.MethodNotFound) {
          this.#warn('no-discover', `${this.url.href} does not implement server/discover; continuing without its description`);
          return modern;
        }
        throw error;
      }
      const verdict = classifyProbeFailure(error);
      if (verdict === 'modern') {
        if (McpRpcError.isInstance(error) && error.code === ErrorCode.MethodNotFound) {
          this.#warn('no-discover', `${this.url.href} does not implement server/discover; continuing without its description`);
          await eraCache.set(key, 'modern');
          return modern;
        }
        throw error;
      }
      // From a page, a probe that failed before any response (data.cors) may be a refused preflight
      // of the modern headers (Mcp-Method, Mcp-Name…): the legacy handshake does not send them.
      const cors = McpClientError.isInstance(error) ? (error.data.cors as { requestHeaders: string[] } | undefined) : undefined;
      if (verdict !== 'legacy' && !cors) throw error;
      let session: Session;
      try {
        session = await this.#openLegacy(this.#withTimeout(signal), error);
      } catch (legacyError) {
        if (!cors) throw legacyError;
        const legacyCors = McpClientError.isInstance(legacyError) && (legacyError.data.cors as { requestHeaders?: string[] } | undefined);
        // Refused before any response in both eras: one error naming both eras' headers.
        if (legacyCors && legacyCors.requestHeaders) throw (await import('./transport/cors.js')).bothErasRefused(error as McpClientError, legacyError as McpClientError, this.url.href);
        // The handshake got further: its own CORS fault (a hidden Mcp-Session-Id) says more; a refusal says less.
        throw legacyCors ? legacyError : error;
      }
      if (cors) {
        this.#warn(
          'modern-headers-refused',
          `${this.url.href} refused the 2026-07-28 request (its headers ${cors.requestHeaders.join(', ')}) through CORS; connected with the legacy handshake instead. To use 2026-07-28, its CORS preflight answers must allow those headers.`,
        );
      }
      await eraCache.set(key, 'legacy');
      return session;
    }
    if (preference === 'auto' && classifyDiscoverResult(result) === 'legacy') {
      // A 200 without supportedVersions (e.g. `{}`) is a legacy server answering unknown methods generically.
      try {
        const session = await this.#openLegacy(this.#withTimeout(signal));
        await eraCache.set(key, 'legacy');
        return session;
      } catch (error) {
        // Only a server that refused initialize is taken for a modern one; a failure before any
        // response (CORS…) or after the handshake started is the error to report.
        if (!McpRpcError.isInstance(error) && !(McpClientError.isInstance(error) && (error.code === 'http' || error.code === 'unsupported_version'))) throw error;
        this.#warn('discover-without-versions', `${this.url.href} answered server/discover without supportedVersions and refused initialize (${(error as Error).message}); continuing as modern`);
      }
    }
    this.#checkResultType('server/discover', result);
    modern.adopt(result as DiscoverResult);
    this.#cache.set('server/discover', {}, result as DiscoverResult, await this.#authContext());
    if (preference === 'auto') await eraCache.set(key, 'modern');
    return modern;
  }

  async #openLegacy(signal: AbortSignal | undefined, probeError?: unknown): Promise<Session> {
    // Loaded on demand: modern-only pages never download the legacy code.
    const { openLegacySession } = await import('./legacy/session.js');
    const opened: { session?: Session } = {};
    opened.session = await openLegacySession(this.#legacyHost(() => opened.session), { signal, probeError });
    return opened.session;
  }

  #sessionHost(): SessionHost {
    const options = this.#options;
    const emitter = this.#emitter;
    const traffic = (event: TrafficEvent) => emitter.emit('traffic', event);
    return {
      transport: this.#transport,
      nextId: () => this.#nextId++,
      capabilities: () => this.capabilities,
      clientInfo: this.#options.clientInfo === false ? undefined : (this.#options.clientInfo ?? { name: 'mcp-elements', version: KIT_VERSION }),
      // Read per request: setLogLevel() applies to the next one.
      get logLevel() {
        return options.logLevel;
      },
      userHeaders: async () => {
        const option = this.#options.headers;
        const headers = typeof option === 'function' ? { ...(await option()) } : { ...option };
        checkHeaders(headers, { url: this.url.href }, (code, message) => this.#warn(code, message));
        return headers;
      },
      // Read per message: a listener that attaches later gets the records from then on.
      get traffic() {
        return emitter.has('traffic') ? traffic : undefined;
      },
      warn: (code, message) => this.#warn(code, message),
    };
  }

  /** Host interface for the legacy session: the session host plus input handling and notifications. */
  #legacyHost(self: () => Session | undefined) {
    const host = this.#sessionHost();
    return {
      ...host,
      // Spreading copied the getter's current value; the legacy session needs it read per message.
      get traffic() {
        return host.traffic;
      },
      url: this.url,
      answerInput: async (request: InputRequest, context: { key: string; signal: AbortSignal; method?: string; target?: string; taskId?: string }) => {
        const input = await import('./rounds/input.js');
        return input.answerOne(this.#lookup, input.checkAnswerable(this.#lookup, this.url.href, context.key, request), {
          key: context.key,
          index: 0,
          total: 1,
          round: 0,
          method: context.method ?? request.method,
          target: context.target,
          taskId: context.taskId,
          callId: 0,
          signal: context.signal,
          server: this.#session?.description ?? { era: 'legacy', protocolVersion: '', supportedVersions: [], capabilities: {} },
          url: this.url.href,
        });
      },
      hasInputHandler: (method: string, mode?: string) => {
        const handler = this.#handler(method as InputRequestMethod);
        // An elicitation handler answers only the modes it declared.
        return method === 'elicitation/create' ? (handler as ElicitationHandler | undefined)?.modes.includes((mode ?? 'form') as 'form') === true : handler !== undefined;
      },
      notification: (notification: JsonRpcNotification) => this.#dispatchNotification(notification),
      onHandlersChanged: (listener: () => void) => this.#emitter.on('capabilities', listener),
      // The endpoint now answers like a modern server: forget the verdict, reconnect on the next request.
      eraChanged: () => {
        void (this.#options.eraCache ?? sharedEraCache).delete(eraCacheKey(this.url));
        const session = self();
        if (!session || this.#session !== session) return;
        this.#session = undefined;
        if (this.#status === 'connected') this.#setStatus('idle');
        void session.close();
      },
    };
  }

  /**
   * Closes the client: aborts requests in flight, ends subscriptions and the
   * session. The client cannot be reused afterwards.
   */
  async close(): Promise<void> {
    if (this.#status === 'closed') return;
    for (const subscription of this.#subscriptions) subscription.close();
    for (const controller of this.#inflight) controller.abort(new McpClientError('closed', 'The client was closed', { url: this.url.href }));
    const session = this.#session;
    this.#session = undefined;
    this.#setStatus('closed');
    await session?.close();
  }

  /**
   * Forgets the session and connects again (e.g. after the user fixed the server).
   * Cached results are dropped.
   */
  async reconnect(options: { signal?: AbortSignal } = {}): Promise<ServerDescription> {
    const session = this.#session;
    this.#session = undefined;
    this.#cache.clear();
    if (this.#status !== 'closed') this.#setStatus('idle');
    await session?.close();
    return this.connect(options);
  }

  #setStatus(status: ClientStatus, error?: McpError): void {
    this.#status = status;
    if (status !== 'error') this.#error = undefined;
    this.#emitter.emit('status', { status, error });
  }

  #warn(code: string, raw: string): void {
    // Shown on screens and in logs: no credentials of a server URL (maskUrlSecrets).
    const message = maskUrlSecrets(raw);
    const key = `${code}\u0000${message}`;
    if (this.#warned.has(key)) return;
    if (this.#warned.size > 200) this.#warned.clear();
    this.#warned.add(key);
    const warning = { code, message };
    this.#emitter.emit('warning', warning);
    if (this.#options.onWarning) this.#options.onWarning(warning);
    else console.warn(`[mcp-elements] ${message}`);
  }

  /**
   * Identifies the authorization context of the next request, for private cache
   * entries and stored tasks: the `authContext` option, else a hash of the
   * credential headers the request will carry (static or from the `headers`
   * function): `Authorization` and any whose name says key, token, secret,
   * auth, pass, signature, cookie or session (`X-Api-Key`…), so two API keys on
   * one URL never share entries, while other headers (request ids) do not split them.
   */
  async #authContext(): Promise<string | undefined> {
    if (this.#options.authContext) return this.#options.authContext();
    const headers = this.#options.headers;
    if (!headers) return undefined;
    const current = typeof headers === 'function' ? await headers() : headers;
    // Narrower than the protocol log's masking on purpose: a DPoP proof changes on every request and would split every entry.
    const credentials = Object.entries(current)
      .filter(([name]) => /authorization|key|token|secret|auth|pass|signature|cookie|session/i.test(name))
      .map(([name, value]) => `${name.toLowerCase()}:${value}`)
      .sort();
    return credentials.length > 0 ? hashKey(credentials.join('\n')) : undefined;
  }

  /** For `untilAborted`: a kit error passes through; any other abort reason becomes `aborted`, naming what was aborted. */
  #abortReason(what: string, method?: string): (reason: unknown) => unknown {
    return (reason) => (McpError.isInstance(reason) ? reason : new McpClientError('aborted', `${what} was aborted`, { url: this.url.href, ...(method ? { method } : {}) }));
  }

  /** `signal` plus the connect timeout (`requestTimeoutMs`), which aborts with a typed `timeout` error. */
  #withTimeout(signal: AbortSignal | undefined): AbortSignal {
    const ms = this.#options.requestTimeoutMs ?? 60_000;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new McpClientError('timeout', `Connecting to ${this.url.href} timed out after ${ms} ms`, { url: this.url.href, timeoutMs: ms })), timerDelay(ms));
    // Node: a pending connect timer must not keep a finished script alive.
    (timer as { unref?: () => void }).unref?.();
    return signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
  }

  async #ready(signal: AbortSignal | undefined): Promise<Session> {
    if (this.#status === 'closed') throw new McpClientError('closed', 'The client is closed', { url: this.url.href });
    if (!this.#session || this.#status !== 'connected') await this.connect({ signal });
    return this.#session!;
  }

  // --- requests -------------------------------------------------------------------------------

  /**
   * Sends one request with timeouts, progress and cancellation, and returns its
   * result as sent by the server (`input_required` included, for the three methods
   * that allow it).
   *
   * @throws McpRpcError when the server answers with a JSON-RPC error.
   * @throws McpClientError `timeout` (the message names the limit), `aborted`,
   *   `network`, `http`, `protocol` (e.g. unknown `resultType`).
   */
  async request(method: string, params: JsonObject = {}, options: RequestOptions & { headers?: Record<string, string> } = {}): Promise<ResultBase & { __id?: RequestId }> {
    const session = await this.#ready(options.signal);
    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? this.#options.requestTimeoutMs ?? 60_000;
    const totalMs = options.maxTotalTimeoutMs ?? this.#options.maxTotalTimeoutMs ?? 600_000;
    const context: McpErrorData = { url: this.url.href, method };
    const expire = (ms: number, kind: string) =>
      controller.abort(new McpClientError('timeout', `${method} timed out after ${ms} ms${kind}`, { ...context, timeoutMs: ms }));
    let idle: ReturnType<typeof setTimeout> | undefined;
    const armIdle = () => {
      if (!Number.isFinite(timeoutMs)) return;
      clearTimeout(idle);
      idle = setTimeout(() => expire(timeoutMs, ' without a response or progress'), timerDelay(timeoutMs));
    };
    const total = Number.isFinite(totalMs) ? setTimeout(() => expire(totalMs, ' (maximum total time)'), timerDelay(totalMs)) : undefined;
    armIdle();
    const onAbort = () => controller.abort(options.signal!.reason instanceof McpError ? options.signal!.reason : new McpClientError('aborted', `${method} was aborted`, context, { cause: options.signal!.reason }));
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    this.#inflight.add(controller);

    const meta: JsonObject = {};
    let progressToken: string | undefined;
    // A server reports progress only for a request with a token (basic/patterns/progress): one
    // goes out whenever progress matters — a listener, or a timeout it may reset — unique per
    // request, replacing any the caller put in `_meta` (a shared token would mix requests up).
    if (options.onProgress || (options.resetTimeoutOnProgress !== false && Number.isFinite(timeoutMs))) {
      progressToken = `p${this.#nextProgress++}`;
      meta.progressToken = progressToken;
    }
    let lastProgress = -Infinity;
    const sessionOptions: SessionRequestOptions = {
      signal: controller.signal,
      headers: options.headers,
      meta,
      onMessage: (incoming: IncomingMessage) => {
        if (incoming.kind !== 'notification') return;
        const { method: type, params: p } = incoming.message;
        if (type === 'notifications/progress' && isObject(p) && p.progressToken === progressToken) {
          if (typeof p.progress !== 'number' || p.progress <= lastProgress) return; // must increase (basic/patterns/progress)
          lastProgress = p.progress;
          if (options.resetTimeoutOnProgress !== false) armIdle();
          options.onProgress?.(p as ProgressNotificationParams);
        } else if (type === 'notifications/message' && isObject(p)) {
          options.onLog?.(p as LoggingMessageNotificationParams);
          this.#emitter.emit('log', p as LoggingMessageNotificationParams);
        } else {
          this.#dispatchNotification(incoming.message);
        }
      },
    };
    try {
      const { result, id } = await session.request(method, params, sessionOptions);
      this.#checkResultType(method, result);
      Object.defineProperty(result, '__id', { value: id, enumerable: false, configurable: true });
      return result as ResultBase;
    } catch (error) {
      const reason = controller.signal.reason;
      if (controller.signal.aborted && McpError.isInstance(reason)) throw reason;
      throw error;
    } finally {
      clearTimeout(idle);
      clearTimeout(total);
      options.signal?.removeEventListener('abort', onAbort);
      this.#inflight.delete(controller);
    }
  }

  /** Rejects unknown `resultType`s (basic/index "ResultType"); absent means `complete`. */
  #checkResultType(method: string, result: JsonObject): void {
    const type = result.resultType;
    if (type === undefined || type === 'complete') return;
    if (type === 'input_required' && INPUT_METHODS.has(method)) return;
    // Tasks extension "Supported Methods": only tools/call, and only when the client declared the extension.
    if (type === 'task' && method === 'tools/call' && this.#options.tasks) return;
    throw new McpClientError(
      'protocol',
      type === 'input_required'
        ? `The server answered ${method} with input_required, which is only allowed for tools/call, prompts/get and resources/read`
        : `The server answered ${method} with an unknown resultType ${JSON.stringify(type)}`,
      { url: this.url.href, method, resultType: type },
    );
  }

  /** A cacheable request: served from the cache while fresh. */
  async #cached<T extends ResultBase>(method: string, params: JsonObject, options: RequestOptions): Promise<T> {
    const useCache = this.#options.cache !== false && CACHEABLE_METHODS.has(method);
    const auth = useCache ? await this.#authContext() : undefined;
    if (useCache && !options.fresh) {
      const hit = this.#cache.get(method, params, auth);
      if (hit) return hit as T;
    }
    const result = await this.request(method, params, options);
    if (useCache && result.resultType !== 'input_required') this.#cache.set(method, params, result, auth);
    return result as T;
  }

  /**
   * Follows `nextCursor` through every page of a list method (spec: server/utilities/pagination).
   * Bounded: stops when a cursor repeats (warning `pagination-stuck`), after
   * `maxListItems` items (the first ones are returned, warning `list-truncated`)
   * and throws `pagination` after `maxPages` pages. Repeated items are dropped
   * (one `duplicate-list-item` warning per listing).
   */
  async #listAll<T>(method: string, key: string, options: RequestOptions, identity: (item: T) => string, pages: object[] = []): Promise<T[]> {
    const maxPages = this.#options.maxPages ?? DEFAULT_MAX_PAGES;
    const maxItems = this.#options.maxListItems ?? DEFAULT_MAX_LIST_ITEMS;
    const items: T[] = [];
    const seenItems = new Set<string>();
    const seenCursors = new Set<string>();
    let repeats = 0;
    let first = '';
    let cursor: string | undefined;
    const done = (truncated?: boolean) => {
      if (truncated) this.#warn('list-truncated', `${method} listed over ${maxItems} items; kept the first ${maxItems} (see maxListItems)`);
      // One warning per listing: a server repeating an item a million times must not print a million lines.
      if (repeats) this.#warn('duplicate-list-item', `${method} repeated items ${repeats} time(s) (first ${JSON.stringify(first)}); kept the first of each`);
      return items;
    };
    for (let page = 0; page < maxPages; page++) {
      const result = await this.#cached<ResultBase>(method, cursor === undefined ? {} : { cursor }, options);
      pages.push(result);
      const list = result[key];
      if (!Array.isArray(list)) {
        throw new McpClientError('protocol', `The ${method} result has no "${key}" array`, { url: this.url.href, method });
      }
      for (const item of list as T[]) {
        const id = identity(item);
        if (seenItems.has(id)) {
          if (!repeats++) first = id;
        } else if (items.length === maxItems) return done(true);
        else {
          seenItems.add(id);
          items.push(item);
        }
      }
      const next = result.nextCursor;
      if (next === undefined || next === null) return done();
      if (typeof next !== 'string') throw new McpClientError('protocol', `nextCursor of ${method} is not a string`, { url: this.url.href, method });
      // Cursors are opaque ("" included); only a repeat tells us the server is stuck.
      if (next === cursor || seenCursors.has(next)) {
        this.#warn('pagination-stuck', `${method} returned cursor ${JSON.stringify(next)} again; stopped following it`);
        return done();
      }
      if (items.length === maxItems) return done(true);
      seenCursors.add(next);
      cursor = next;
    }
    throw new McpClientError('pagination', `${method} did not finish within ${maxPages} pages`, { url: this.url.href, method, maxPages });
  }

  /**
   * Asks the server for its identity and capabilities (`server/discover`).
   * Cached per `ttlMs`.
   */
  async discover(options: RequestOptions = {}): Promise<DiscoverResult> {
    return this.#cached<DiscoverResult>('server/discover', {}, options);
  }

  /**
   * Lists every tool, following all pages (spec: server/tools "Listing Tools").
   * Tools with an invalid `x-mcp-header` annotation are excluded, with a warning
   * naming the tool and the reason (basic/transports/streamable-http "Schema Extension");
   * see {@link rejectedTools}. Tools without a `name` or an object `inputSchema` are
   * excluded too; a non-string `title` or `description` is dropped (with a warning).
   * Concurrent calls share one listing; `fresh` skips the cache. A listing served from
   * the cache hands over the tools screened when those pages arrived, without screening
   * them again.
   *
   * @returns the usable tools in server order.
   */
  listTools(options: RequestOptions = {}): Promise<Tool[]> {
    if (options.fresh) {
      this.#toolsGeneration++;
      this.#toolsFresh = true;
    }
    return untilAborted(this.#sharedToolListing(), options.signal, this.#abortReason('tools/list', 'tools/list'));
  }

  // Everyone asking while a current listing is in flight shares it; after an invalidation
  // (list_changed, `fresh`) one follow-up runs when the stale flight ends, so a flood of
  // notifications costs at most two listings at a time.
  #sharedToolListing(): Promise<Tool[]> {
    const flight = this.#toolsFlight;
    if (!flight) {
      const generation = this.#toolsGeneration;
      const fresh = this.#toolsFresh;
      this.#toolsFresh = false;
      const promise = this.#listToolsOnce(fresh).finally(() => {
        if (this.#toolsFlight?.promise === promise) this.#toolsFlight = undefined;
      });
      this.#toolsFlight = { promise, generation };
      return promise;
    }
    if (flight.generation === this.#toolsGeneration) return flight.promise;
    return (this.#toolsFollowUp ??= flight.promise
      .catch(() => undefined)
      .then(() => {
        this.#toolsFollowUp = undefined;
        return this.#sharedToolListing();
      }));
  }

  async #listToolsOnce(fresh: boolean): Promise<Tool[]> {
    const pages: object[] = [];
    const raw = await this.#listAll<Tool>('tools/list', 'tools', { fresh }, (tool) => (isObject(tool) && typeof tool.name === 'string' ? tool.name : JSON.stringify(tool)), pages);
    // Every page served from the cache, as screened last time: the same tools, nothing to screen again.
    if (pages.length === this.#screenedPages.length && pages.every((page, i) => page === this.#screenedPages[i])) return [...this.#tools.values()];
    // One pass: shape checks and the cheap x-mcp-header mention test; only the tools that mention
    // the annotation go through its (lazily loaded) checker, each once. Little garbage right after
    // the parse (one queue for every walk, no pair per map entry): collecting it then would copy
    // the whole, still young, list.
    const flagged: Tool[] = [];
    const queue: unknown[] = [];
    const tools = raw.filter((tool) => {
      const ok = isObject(tool) && typeof tool.name === 'string' && isObject(tool.inputSchema);
      if (!ok) this.#warn('tool-malformed', `Excluded a tool without a name or an object inputSchema: ${JSON.stringify(tool).slice(0, 120)}`);
      for (const key of ['title', 'description'] as const) {
        // Shown as text by every UI: a number, object or array here would be rendered as "[object Object]" or break it.
        if (ok && key in tool && typeof tool[key] !== 'string') {
          this.#warn('tool-malformed', `Dropped the non-string ${key} of tool "${tool.name}"`);
          delete tool[key];
        }
      }
      if (ok && mentionsHeaderBindings(tool.inputSchema, queue)) flagged.push(tool);
      return ok;
    });
    const { tools: kept, bindings, rejected } = flagged.length ? (await import('./transport/header-bindings.js')).screenTools(tools, flagged) : { tools, bindings: new Map(), rejected: [] };
    this.#tools = new Map();
    for (const tool of kept) this.#tools.set(tool.name, tool);
    this.#bindings = bindings;
    this.#rejected = new Map(rejected.map((entry) => [entry.name, entry]));
    this.#listedTools = true;
    this.#screenedPages = pages;
    for (const entry of rejected) this.#warn('tool-rejected', `Excluded tool "${entry.name}": ${entry.reason}`);
    return kept;
  }

  async #paramHeaders(name: string, args: JsonObject, tool: Tool | undefined): Promise<Record<string, string>> {
    const listed = tool ? undefined : this.#bindings.get(name);
    // A caller's own definition is checked here; the x-mcp-header checker loads only when it mentions the annotation
    // (or the listing found bindings), and once.
    if (tool ? !mentionsHeaderBindings(tool.inputSchema) : !listed?.length) return {};
    const checker = await import('./transport/header-bindings.js');
    const bindings = listed ?? checker.screenTools([tool!]).bindings.get(name);
    return bindings?.length ? checker.paramHeaders(bindings, args) : {};
  }

  /** The definition of a tool from the last listing, if any. */
  tool(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /**
   * Calls a tool (spec: server/tools "Calling Tools"), answering `input_required`
   * rounds through the registered input handlers unless `inputRequired: 'manual'`.
   *
   * - `Mcp-Name` and the `Mcp-Param-*` headers of the tool's `x-mcp-header`
   *   annotations are sent (the tool list is fetched once if not known yet).
   * - `structuredContent` is validated against `outputSchema` (not for `isError`
   *   results); the outcome is in the non-enumerable `outputValidation`.
   *
   * @returns the final result, or (manual mode) the interim `InputRequiredResult`.
   * @throws McpClientError `rounds_exceeded`, `input_unsupported`, `invalid_arguments`,
   *   `timeout`, `aborted`… and McpRpcError for protocol errors (unknown tool…).
   */
  async callTool(name: string, args: JsonObject = {}, options: CallToolOptions = {}): Promise<ToolCallResult | InputRequiredResult> {
    await this.#ready(options.signal);
    let tool = options.tool ?? this.#tools.get(name);
    if (!tool && !options.tool && !this.#listedTools && this.server?.capabilities.tools !== undefined) {
      // The header bindings and outputSchema live in the tool definition. Concurrent
      // first calls share one listing.
      this.#firstListing ??= this.listTools({ signal: options.signal }).then(
        () => undefined,
        (error: unknown) => {
          this.#firstListing = undefined;
          this.#warn('tools-list-failed', `Could not list tools before calling ${name}: ${(error as Error).message}`);
        },
      );
      await this.#firstListing;
      tool = this.#tools.get(name);
    }
    const rejected = this.#rejected.get(name);
    if (rejected && !options.tool) {
      throw new McpClientError('invalid_arguments', `Tool "${name}" was excluded from tools/list: ${rejected.reason}`, { url: this.url.href, method: 'tools/call', tool: name });
    }
    const headers = await this.#paramHeaders(name, args, options.tool);
    // HeaderMismatch: the tool's schema may have changed; re-list and retry that round once
    // (streamable-http "Client Behavior"), keeping the inputs already answered.
    const onHeaderMismatch = options.tool
      ? undefined
      : async () => {
          await this.listTools({ signal: options.signal, fresh: true });
          tool = this.#tools.get(name);
          return this.#paramHeaders(name, args, undefined);
        };
    const params: JsonObject = { name, arguments: args };
    // 2025-11-25 servers learn at each call whether it is a task (basic/utilities/tasks "Tool-Level Negotiation").
    // A client that follows no tasks sends a plain request, without loading the task machinery.
    if (this.#options.tasks && this.server?.capabilities.tasks) await this.#taskCall('augment', params, tool, options);
    const result = await this.#withInputs('tools/call', params, name, { ...options, headers, onHeaderMismatch });
    if (result.resultType === 'input_required') return result as InputRequiredResult;
    const final = result as ToolCallResult;
    Object.defineProperty(final, 'outputValidation', { value: await this.#validateOutput(tool, final), enumerable: false, configurable: true });
    return final;
  }

  async #validateOutput(tool: Tool | undefined, result: CallToolResult): Promise<OutputValidation> {
    if (!tool) return { status: 'skipped', reason: 'the tool definition is not known' };
    if (!isObject(tool.outputSchema)) return { status: 'skipped', reason: 'the tool has no outputSchema' };
    if (result.isError === true) return { status: 'skipped', reason: 'isError results are not checked against outputSchema' };
    if (!('structuredContent' in result)) {
      return { status: 'invalid', issues: [{ path: '', message: 'the tool declares an outputSchema but the result has no structuredContent', keyword: 'structuredContent', params: {} }] };
    }
    // The check and its warnings live with the validator, which is loaded lazily anyway.
    return checkOutput(tool.name, tool.outputSchema, result.structuredContent, (code, message) => this.#warn(code, message));
  }

  /** Lists every resource, following all pages (server/resources). */
  listResources(options: RequestOptions = {}): Promise<Resource[]> {
    return this.#listAll<Resource>('resources/list', 'resources', options, (r) => (isObject(r) && typeof r.uri === 'string' ? r.uri : JSON.stringify(r)));
  }

  /** Lists every resource template, following all pages (server/resources). */
  listResourceTemplates(options: RequestOptions = {}): Promise<ResourceTemplate[]> {
    return this.#listAll<ResourceTemplate>('resources/templates/list', 'resourceTemplates', options, (r) =>
      isObject(r) && typeof r.uriTemplate === 'string' ? r.uriTemplate : JSON.stringify(r),
    );
  }

  /**
   * Reads a resource (server/resources "Reading Resources"); may go through
   * `input_required` rounds. Cached per `ttlMs` unless it took input.
   */
  async readResource(uri: string, options: InputRequiredOptions = {}): Promise<ReadResourceResult | InputRequiredResult> {
    const useCache = this.#options.cache !== false && !options.fresh && !options.inputResponses && !options.requestState && !options.resumeFrom;
    const auth = await this.#authContext();
    if (useCache) {
      const hit = this.#cache.get('resources/read', { uri }, auth);
      if (hit) return hit as ReadResourceResult;
    }
    let tookInput = Boolean(options.inputResponses || options.requestState || options.resumeFrom);
    const result = await this.#withInputs('resources/read', { uri }, uri, {
      ...options,
      onRound: (event) => {
        if (event.round > 0) tookInput = true;
        options.onRound?.(event);
      },
    });
    // Results that depended on input are not cacheable (caching "Cache Key").
    if (this.#options.cache !== false && !tookInput && result.resultType !== 'input_required') this.#cache.set('resources/read', { uri }, result, auth);
    return result as ReadResourceResult | InputRequiredResult;
  }

  /** Lists every prompt, following all pages (server/prompts). */
  listPrompts(options: RequestOptions = {}): Promise<Prompt[]> {
    return this.#listAll<Prompt>('prompts/list', 'prompts', options, (p) => (isObject(p) && typeof p.name === 'string' ? p.name : JSON.stringify(p)));
  }

  /** Gets a prompt (server/prompts); may go through `input_required` rounds. */
  async getPrompt(name: string, args: Record<string, string> = {}, options: InputRequiredOptions = {}): Promise<GetPromptResult | InputRequiredResult> {
    return (await this.#withInputs('prompts/get', { name, arguments: args }, name, options)) as GetPromptResult | InputRequiredResult;
  }

  /** Argument completion (server/utilities/completion). */
  async complete(ref: CompletionReference, argument: { name: string; value: string }, context?: { arguments?: Record<string, string> }, options: RequestOptions = {}): Promise<CompleteResult> {
    return (await this.request('completion/complete', { ref, argument, ...(context ? { context } : {}) }, options)) as CompleteResult;
  }

  // --- tasks -----------------------------------------------------------------------------------------

  /** Runs an entry point of the lazily loaded task machinery (`./tasks/tasks.ts`) with what it needs from this client. */
  async #taskCall<K extends 'attach' | 'storedTasks' | 'listTasks' | 'augment' | 'follow'>(name: K, ...args: TaskArgs<K>): Promise<Awaited<ReturnType<TaskModule[K]>>> {
    const host: TaskHost = {
      client: this,
      lookup: this.#lookup,
      clientOptions: this.#options,
      options: this.#options.tasks,
      warn: (code, message) => this.#warn(code, message),
      emit: (event) => this.#emitter.emit('task', event),
      authContext: () => this.#authContext(),
    };
    return ((await import('./tasks/tasks.js'))[name] as (host: TaskHost, ...rest: unknown[]) => never)(host, ...args);
  }

  /**
   * A handle to a task by id, to re-attach to it: after a reload (see
   * {@link storedTasks}), from another client instance, or after `detach()`.
   * `handle.result()` polls it to its outcome (Tasks extension "Task Polling";
   * 2025-11-25 basic/utilities/tasks).
   * @param info - the request the task stands for, if not stored (shown in input dialogs and events).
   * @throws only what loading the tasks module or the `headers` option's function throws: the
   *   task itself is asked about by `handle.result()`, which rejects with its errors.
   */
  task(taskId: string, info?: TaskInfo): Promise<TaskHandle> {
    return this.#taskCall('attach', taskId, info);
  }

  /**
   * The task handles stored for this server and authorization context (IndexedDB
   * in browsers), newest first; those past their TTL are deleted and returned
   * apart, to report them.
   * @throws only what loading the tasks module or the `headers` option's function throws;
   *   storage failures give no tasks.
   */
  storedTasks(): Promise<StoredTasks> {
    return this.#taskCall('storedTasks');
  }

  /**
   * Lists the server's tasks, following all pages: 2025-11-25 `tasks/list`, for
   * servers that declare `tasks.list` (2026-07-28 has no listing).
   * Bounded like every listing (`maxPages`, `maxListItems`; see `listTools`);
   * malformed entries are left out with a `task-list-malformed` warning.
   * @throws McpRpcError from the server (-32601 when it has no `tasks/list`); McpClientError `pagination`, `protocol`.
   */
  async listTasks(options: RequestOptions = {}): Promise<TaskState[]> {
    const entries = await this.#listAll<unknown>('tasks/list', 'tasks', options, (entry) => (isObject(entry) && typeof entry.taskId === 'string' ? entry.taskId : JSON.stringify(entry)));
    return this.#taskCall('listTasks', entries);
  }

  // --- multi round-trip requests --------------------------------------------------------------------

  /**
   * The MRTR driver (basic/patterns/mrtr "Client Requirements"): retries with a
   * new JSON-RPC id, `inputResponses` keyed exactly as asked, and `requestState`
   * echoed byte for byte — and only when the latest interim result had one.
   */
  async #withInputs(
    method: string,
    params: JsonObject,
    target: string | undefined,
    options: CallToolOptions & { headers?: Record<string, string>; onHeaderMismatch?: () => Promise<Record<string, string>> },
  ): Promise<ResultBase> {
    const callId = this.#nextCall++;
    const maxRounds = options.maxRounds ?? this.#options.maxRounds ?? 10;
    const emit = (event: Omit<RoundEvent, 'callId' | 'method' | 'target' | 'params'>) => {
      const full: RoundEvent = { callId, method, target, params, ...event };
      options.onRound?.(full);
      this.#emitter.emit('round', full);
    };
    // One request of the call; a final result is reported and returned (a task is followed to its outcome).
    const send = async (round: number, roundParams: JsonObject): Promise<(ResultBase & { __id?: RequestId }) | McpRpcError> => {
      let result: ResultBase & { __id?: RequestId };
      try {
        try {
          result = await this.request(method, roundParams, options);
        } catch (error) {
          const retry = options.onHeaderMismatch;
          if (!retry || !(McpRpcError.isInstance(error) && error.code === ErrorCode.HeaderMismatch)) throw error;
          options = { ...options, headers: await retry(), onHeaderMismatch: undefined };
          result = await this.request(method, roundParams, options);
        }
      } catch (error) {
        // 2025-11-25 -32042: handed to the rounds, which offer its URLs like URL-mode elicitation, then retry.
        if (McpRpcError.isInstance(error) && error.code === ErrorCode.UrlElicitationRequired && options.inputRequired !== 'manual' && round < maxRounds) return error;
        emit({ round, phase: 'error', error: McpError.isInstance(error) ? error : undefined });
        throw error;
      }
      if (result.resultType === 'input_required') return result;
      emit({ round, requestId: result.__id, phase: 'complete' });
      // A task (2026-07-28 `resultType: "task"`; 2025-11-25: any answer to a task-augmented request): follow it.
      return result.resultType === 'task' || params.task ? (this.#taskCall('follow', method, params, target, result, options, callId) as Promise<ResultBase>) : result;
    };
    const firstParams: JsonObject = {
      ...params,
      ...(options.inputResponses !== undefined ? { inputResponses: options.inputResponses } : {}),
      ...(options.requestState !== undefined ? { requestState: options.requestState } : {}),
    };
    const first = options.resumeFrom ?? (await send(0, firstParams));
    if (!McpRpcError.isInstance(first) && first.resultType !== 'input_required') return first;
    // The rounds load on first use: pages that never meet input_required don't download them.
    return (await import('./rounds/mrtr.js')).runRounds({
      method,
      params,
      target,
      callId,
      options,
      maxRounds,
      first,
      firstParams,
      emit,
      send,
      lookup: this.#lookup,
      clientOptions: this.#options,
      inflight: this.#inflight,
      abortReason: this.#abortReason(method, method),
      warn: (code, message) => this.#warn(code, message),
      server: () => this.server,
      url: this.url.href,
    });
  }

  // --- notifications and subscriptions ------------------------------------------------------------

  // A burst of list_changed notifications (a flood, or one per page of a server's
  // update) becomes one event, so listeners re-list once.
  #emitChanged(event: 'toolsChanged' | 'promptsChanged' | 'resourcesChanged'): void {
    if (this.#changedPending.has(event)) return;
    this.#changedPending.add(event);
    setTimeout(() => {
      this.#changedPending.delete(event);
      if (this.#status !== 'closed') this.#emitter.emit(event, {});
    }, 0);
  }

  #dispatchNotification(notification: JsonRpcNotification): void {
    const invalidates = Object.hasOwn(NOTIFICATION_INVALIDATES, notification.method) ? NOTIFICATION_INVALIDATES[notification.method] : undefined;
    if (invalidates) this.#cache.invalidate(...invalidates);
    switch (notification.method) {
      case 'notifications/tools/list_changed':
        this.#toolsGeneration++;
        this.#emitChanged('toolsChanged');
        break;
      case 'notifications/prompts/list_changed':
        this.#emitChanged('promptsChanged');
        break;
      case 'notifications/resources/list_changed':
        this.#emitChanged('resourcesChanged');
        break;
      case 'notifications/resources/updated': {
        const uri = notification.params?.uri;
        if (typeof uri === 'string') {
          this.#cache.invalidateResource(uri);
          this.#emitter.emit('resourceUpdated', { uri });
        }
        break;
      }
      case 'notifications/message':
        if (isObject(notification.params)) this.#emitter.emit('log', notification.params as LoggingMessageNotificationParams);
        break;
    }
    this.#emitter.emit('notification', notification);
  }

  /**
   * Opens a `subscriptions/listen` stream (basic/patterns/subscriptions) and keeps
   * it open: after an unexpected drop it re-listens with a new id and exponential
   * backoff (cached lists are treated as stale); a graceful end by the server or
   * `close()` ends it. List-changed notifications also invalidate the cache and
   * fire `toolsChanged` / `promptsChanged` / `resourcesChanged` events.
   */
  listen(filter: SubscriptionFilter, options: ListenOptions = {}): Subscription {
    const url = this.url.href;
    const controller = new AbortController();
    let state: Subscription['state'] = 'opening';
    let acknowledged: SubscriptionFilter | undefined;
    let resolveClosed!: (value: { reason: 'client' | 'server' | 'error'; error?: McpError }) => void;
    const closed = new Promise<{ reason: 'client' | 'server' | 'error'; error?: McpError }>((resolve) => (resolveClosed = resolve));
    const setState = (next: Subscription['state']) => {
      state = next;
      options.onState?.(next);
    };
    const subscription: Subscription = {
      filter,
      get acknowledged() {
        return acknowledged;
      },
      get state() {
        return state;
      },
      closed,
      close() {
        controller.abort(new McpClientError('aborted', 'The subscription was closed', { url, method: 'subscriptions/listen' }));
      },
    };
    // A signal already aborted closes it before any request; the listener goes when it ends.
    const onCallerAbort = () => subscription.close();
    if (options.signal?.aborted) onCallerAbort();
    else options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    this.#subscriptions.add(subscription);

    // The re-listen loop is loaded on first use (most pages never listen).
    void import('./rounds/subscription.js').then(({ runSubscription }) =>
      runSubscription({
        filter,
        options,
        controller,
        url,
        setState,
        setAcknowledged: (value) => (acknowledged = value),
        finish: (outcome) => {
          options.signal?.removeEventListener('abort', onCallerAbort);
          this.#subscriptions.delete(subscription);
          setState('closed');
          resolveClosed(outcome);
        },
        ready: (signal) => this.#ready(signal),
        warn: (code, message) => this.#warn(code, message),
        dispatch: (notification) => this.#dispatchNotification(notification),
        invalidateAll: () => this.#cache.invalidate('tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'),
      }),
    );
    return subscription;
  }
}

/** Era verdicts shared by the clients of this page/process, persisted where IndexedDB exists (spec: basic/versioning). */
const sharedEraCache: EraCache = defaultEraCache();
