/**
 * `McpClient`: an MCP client over Streamable HTTP that needs nothing but `fetch`.
 *
 * It runs unchanged in a browser tab, a web worker and Node. It speaks revision
 * 2026-07-28 (stateless, per-request `_meta`, multi round-trip requests,
 * `subscriptions/listen`) and, through era detection, legacy servers.
 *
 * This module is the façade: the client's state and public methods. The work
 * is done by the parts in `./client/` (one request, a listing, the tool
 * catalogue, era negotiation, a call and its rounds, a subscription, the
 * declared capabilities), which see the client through one object of the
 * shape they declare (`ClientParts`), and by the folders below them: rounds,
 * tasks, legacy, schema, transport, protocol (docs/architecture.md).
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
import { authContextOf, ResultCache, CACHEABLE_METHODS } from './client/cache.js';
import { listAll, type ListingHost } from './client/listing.js';
import type { CatalogueHost } from './client/tools.js';
import { eraCacheOf, openSession, type NegotiationHost } from './client/negotiate.js';
import { KIT_VERSION, type CallToolOptions, type ClientEvents, type ClientStatus, type McpClientOptions, type ToolCallResult } from './client/options.js';
import { checkResultType, sendRequest, type RequestHost } from './client/request.js';
import { ToolCatalogue } from './client/tools.js';
import { Declarations } from './client/declarations.js';
import { openSubscription, type ListenHost } from './client/listen.js';
import { withInputs, type CallHost } from './client/calls.js';
import { maskUrlSecrets, McpClientError, McpError, McpRpcError } from './protocol/errors.js';
import { eraCacheKey } from './protocol/era.js';
import {
  TASKS_EXTENSION,
  isObject,
  type CallToolResult,
  type ClientCapabilities,
  type CompleteResult,
  type CompletionReference,
  type DiscoverResult,
  type GetPromptResult,
  type InputRequestMethod,
  type InputRequiredResult,
  type JsonObject,
  type JsonRpcNotification,
  type LoggingLevel,
  type LoggingMessageNotificationParams,
  type Prompt,
  type ReadResourceResult,
  type RequestId,
  type Resource,
  type ResourceTemplate,
  type ResultBase,
  type SubscriptionFilter,
  type Tool,
} from './protocol/types.js';
import type { HandlerLookup, InputHandlers } from './rounds/handlers.js';
import type { InputRequiredOptions, ListenOptions, RequestOptions, Subscription } from './rounds/options.js';
import { checkOutput, type OutputValidation } from './schema/schema.js';
import type { StoredTasks, TaskHandle, TaskInfo, TaskState } from './tasks/task-types.js';
import type * as TaskModule from './tasks/tasks.js';
import { checkHeaders } from './transport/headers.js';
import type { RejectedTool } from './transport/header-bindings.js';
import { ModernSession, type ServerDescription, type Session, type SessionHost, type TrafficEvent } from './transport/session.js';
import { HttpTransport, type TransportWarning } from './transport/transport.js';
import { Emitter } from './util/emitter.js';
import { timerDelay, untilAborted } from './util/sleep.js';

/** What the parts in ./client/ need of the client: one object serves them all. */
type ClientParts = RequestHost & ListingHost & CatalogueHost & CallHost & NegotiationHost & ListenHost & TaskHost;

type TaskHost = TaskModule.TaskHost;
type TaskModule = typeof TaskModule;
/** The arguments of a task entry point after its host. */
type TaskArgs<K extends keyof TaskModule> = TaskModule[K] extends (host: TaskHost, ...rest: infer A) => unknown ? A : never;

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
  readonly #declarations = new Declarations();
  readonly #inflight = new Set<AbortController>();
  readonly #subscriptions = new Set<Subscription>();
  readonly #warned = new Set<string>();
  /** Sessions whose server answered `completion/complete` with -32601: not asked again while they last. */
  readonly #noCompletions = new WeakSet<Session>();
  #session: Session | undefined;
  #connecting: Promise<ServerDescription> | undefined;
  #status: ClientStatus = 'idle';
  #error: McpError | undefined;
  #nextId = 1;
  #nextCall = 1;
  #nextProgress = 1;
  #firstListing: Promise<void> | undefined;
  #changedPending = new Set<keyof ClientEvents>();
  // What the parts in ./client/ use of this client, in one object (set up in the constructor, once the options are there).
  readonly #parts: ClientParts;
  readonly #catalogue: ToolCatalogue;

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
    const parts: ClientParts = {
      url: this.url.href,
      eraKey: eraCacheKey(this.url),
      options,
      inflight: this.#inflight,
      subscriptions: this.#subscriptions,
      lookup: this.#lookup,
      warn: (code, message) => this.#warn(code, message),
      progressToken: () => `p${this.#nextProgress++}`,
      nextCallId: () => this.#nextCall++,
      log: (params) => this.#emitter.emit('log', params),
      round: (event) => this.#emitter.emit('round', event),
      dispatch: (notification) => this.#dispatchNotification(notification),
      page: (method, params, opts) => this.#cached(method, params, opts),
      listAll: (fresh, pages) => listAll<Tool>(parts, 'tools/list', 'tools', { fresh }, (tool) => (isObject(tool) && typeof tool.name === 'string' ? tool.name : JSON.stringify(tool)), pages),
      request: (method, params, opts) => this.request(method, params, opts),
      follow: (...args) => this.#taskCall('follow', ...args) as Promise<ResultBase>,
      abortReason: (method) => this.#abortReason(method, method),
      server: () => this.server,
      ready: (signal) => this.#ready(signal),
      invalidateAll: () => this.#cache.invalidate('tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'),
      withTimeout: (signal) => this.#withTimeout(signal),
      openModern: () => new ModernSession(this.#sessionHost()),
      openLegacy: (signal, probeError) => this.#openLegacy(signal, probeError),
      client: this,
      emit: (event) => this.#emitter.emit('task', event),
      authContext: () => this.#authContext(),
      sessionId: () => this.#session?.sessionId,
      adoptDiscover: async (session, result) => {
        checkResultType(parts, 'server/discover', result);
        session.adopt(result as DiscoverResult);
        this.#cache.set('server/discover', {}, result as DiscoverResult, await this.#authContext());
      },
    };
    this.#parts = parts;
    this.#catalogue = new ToolCatalogue(parts);
    // The Tasks extension is declared on every request while the client follows tasks.
    if (options.tasks) this.#declarations.declare(TASKS_EXTENSION, {});
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
    return this.#catalogue.rejected;
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
    const remove = this.#declarations.addHandler(method, handler);
    this.#capabilitiesChanged();
    return () => {
      if (remove()) this.#capabilitiesChanged();
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
    const remove = this.#declarations.declare(id, settings);
    this.#extensionsChanged();
    return () => {
      if (remove()) this.#extensionsChanged();
    };
  }

  #extensionsChanged(): void {
    this.#cache.invalidate('tools/list');
    this.#capabilitiesChanged();
  }

  #capabilitiesChanged(): void {
    this.#emitter.emit('capabilities', { capabilities: this.capabilities });
  }

  /** The current handler for each input method (what `src/rounds/input.ts` answers with). */
  readonly #lookup: HandlerLookup = (method) => this.#declarations.handler(method);

  /** The capabilities declared right now: exactly the input requests a handler can answer. */
  get capabilities(): ClientCapabilities {
    return this.#declarations.capabilities(this.#options.capabilities, this.server?.era === 'legacy');
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
      const session = await openSession(this.#parts, signal);
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

  async #openLegacy(signal: AbortSignal | undefined, probeError?: unknown): Promise<Session> {
    // Loaded on demand: modern-only pages never download the legacy code.
    return import('./legacy/session.js').then((module) => module.openLegacySession(
      {
        session: this.#sessionHost(),
        url: this.url,
        lookup: this.#lookup,
        description: () => this.#session?.description,
        dispatch: this.#parts.dispatch,
        onHandlersChanged: (listener) => this.#emitter.on('capabilities', listener),
        // The endpoint now answers like a modern server: forget the verdict, reconnect on the next request.
        eraChanged: (session) => {
          void eraCacheOf(this.#options).delete(this.#parts.eraKey);
          if (this.#session !== session) return;
          this.#session = undefined;
          if (this.#status === 'connected') this.#setStatus('idle');
          void session.close();
        },
      },
      { signal, probeError },
    ));
  }


  #sessionHost(): SessionHost {
    const options = this.#options;
    const emitter = this.#emitter;
    const traffic = (event: TrafficEvent) => emitter.emit('traffic', event);
    return {
      transport: this.#transport,
      nextId: () => this.#nextId++,
      capabilities: () => this.capabilities,
      clientInfo: this.#options.clientInfo === false ? undefined : (this.#options.clientInfo ?? { name: 'mcp-web-elements', version: KIT_VERSION }),
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
    else console.warn(`[mcp-web-elements] ${message}`);
  }

  /** The authorization context of the next request (see {@link authContextOf}). */
  #authContext(): Promise<string | undefined> {
    return authContextOf(this.#options);
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
   * @param options.headers - extra headers for this request.
   * @param options.sessionId - legacy servers: an earlier session's `Mcp-Session-Id` to send
   *   this request on (a stored task's, after a reload); a 404 fails it with `http`
   *   (`data.earlierSession`) instead of starting a new session.
   */
  async request(method: string, params: JsonObject = {}, options: RequestOptions & { headers?: Record<string, string>; sessionId?: string } = {}): Promise<ResultBase & { __id?: RequestId }> {
    return sendRequest(this.#parts, await this.#ready(options.signal), method, params, options);
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
    return untilAborted(this.#catalogue.list(options.fresh), options.signal, this.#abortReason('tools/list', 'tools/list'));
  }

  /** The definition of a tool from the last listing, if any. */
  tool(name: string): Tool | undefined {
    return this.#catalogue.tool(name);
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
    let tool = options.tool ?? this.#catalogue.tool(name);
    if (!tool && !options.tool && !this.#catalogue.listed && this.server?.capabilities.tools !== undefined) {
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
      tool = this.#catalogue.tool(name);
    }
    const rejected = this.#catalogue.rejection(name);
    if (rejected && !options.tool) {
      throw new McpClientError('invalid_arguments', `Tool "${name}" was excluded from tools/list: ${rejected.reason}`, { url: this.url.href, method: 'tools/call', tool: name });
    }
    const headers = await this.#catalogue.paramHeaders(name, args, options.tool);
    // HeaderMismatch: the tool's schema may have changed; re-list and retry that round once
    // (streamable-http "Client Behavior"), keeping the inputs already answered.
    const onHeaderMismatch = options.tool
      ? undefined
      : async () => {
          await this.listTools({ signal: options.signal, fresh: true });
          tool = this.#catalogue.tool(name);
          return this.#catalogue.paramHeaders(name, args, undefined);
        };
    const params: JsonObject = { name, arguments: args };
    // 2025-11-25 servers learn at each call whether it is a task (basic/utilities/tasks "Tool-Level Negotiation").
    // A client that follows no tasks sends a plain request, without loading the task machinery.
    if (this.#options.tasks && this.server?.capabilities.tasks) await this.#taskCall('augment', params, tool, options);
    const result = await withInputs(this.#parts, 'tools/call', params, name, { ...options, headers, onHeaderMismatch });
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
    return listAll<Resource>(this.#parts, 'resources/list', 'resources', options, (r) => (isObject(r) && typeof r.uri === 'string' ? r.uri : JSON.stringify(r)));
  }

  /** Lists every resource template, following all pages (server/resources). */
  listResourceTemplates(options: RequestOptions = {}): Promise<ResourceTemplate[]> {
    return listAll<ResourceTemplate>(this.#parts, 'resources/templates/list', 'resourceTemplates', options, (r) =>
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
    const result = await withInputs(this.#parts, 'resources/read', { uri }, uri, {
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
    return listAll<Prompt>(this.#parts, 'prompts/list', 'prompts', options, (p) => (isObject(p) && typeof p.name === 'string' ? p.name : JSON.stringify(p)));
  }

  /** Gets a prompt (server/prompts); may go through `input_required` rounds. */
  async getPrompt(name: string, args: Record<string, string> = {}, options: InputRequiredOptions = {}): Promise<GetPromptResult | InputRequiredResult> {
    return (await withInputs(this.#parts, 'prompts/get', { name, arguments: args }, name, options)) as GetPromptResult | InputRequiredResult;
  }

  /**
   * Argument completion (server/utilities/completion).
   *
   * @throws McpRpcError `-32601` when the server has no completions: after its
   *   first `-32601` the server is not asked again for the rest of the session
   *   (until {@link reconnect} or a new session); later calls fail at once with
   *   the same code and no request.
   */
  async complete(ref: CompletionReference, argument: { name: string; value: string }, context?: { arguments?: Record<string, string> }, options: RequestOptions = {}): Promise<CompleteResult> {
    const session = await this.#ready(options.signal);
    if (this.#noCompletions.has(session)) {
      throw new McpRpcError(-32601, `${this.url.href} answered completion/complete with "method not found" earlier in this session; not asked again`, undefined, { url: this.url.href });
    }
    try {
      return (await sendRequest(this.#parts, session, 'completion/complete', { ref, argument, ...(context ? { context } : {}) }, options)) as CompleteResult;
    } catch (error) {
      // Method not found is a property of the server, not of this argument: every other ref and argument would get it too.
      if (McpRpcError.isInstance(error) && error.code === -32601) this.#noCompletions.add(session);
      throw error;
    }
  }

  // --- tasks -----------------------------------------------------------------------------------------

  /** Runs an entry point of the lazily loaded task machinery (`./tasks/tasks.ts`) with what it needs from this client. */
  async #taskCall<K extends 'attach' | 'storedTasks' | 'listTasks' | 'augment' | 'follow'>(name: K, ...args: TaskArgs<K>): Promise<Awaited<ReturnType<TaskModule[K]>>> {
    return ((await import('./tasks/tasks.js'))[name] as (host: TaskHost, ...rest: unknown[]) => never)(this.#parts, ...args);
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
    const entries = await listAll<unknown>(this.#parts, 'tasks/list', 'tasks', options, (entry) => (isObject(entry) && typeof entry.taskId === 'string' ? entry.taskId : JSON.stringify(entry)));
    return this.#taskCall('listTasks', entries);
  }

  // --- multi round-trip requests --------------------------------------------------------------------

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
        this.#catalogue.invalidate();
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
    return openSubscription(this.#parts, filter, options);
  }


}
