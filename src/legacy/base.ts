/**
 * What every legacy-era session shares, whatever its HTTP binding
 * (2025-11-25 Streamable HTTP in `./streamable.ts`, 2024-11-05 HTTP+SSE in
 * `./http-sse.ts`):
 *
 * - the `initialize` handshake's parameters and the checks of its result
 *   (2025-11-25 basic/lifecycle "Initialization", "Version Negotiation");
 * - server → client requests (`ping`, `elicitation/create`,
 *   `sampling/createMessage`, `roots/list`) answered through the client's input
 *   handlers — the same ones the modern MRTR path uses — and POSTed back
 *   (2025-11-25 basic/transports "Sending Messages to the Server");
 * - routing of server notifications to the request they belong to, to
 *   `listen()` subscribers, or to the client;
 * - cancellation with `notifications/cancelled` (2025-11-25
 *   basic/utilities/cancellation), which the modern era never sends.
 *
 * @module
 */
import { ErrorCode, McpClientError, McpError, McpRpcError } from '../protocol/errors.js';
import type { IncomingMessage } from '../protocol/jsonrpc.js';
import { implementationInfo, type ServerDescription, type Session, type SessionHost, type SessionRequestOptions, type SessionResponse } from '../transport/session.js';
import {
  LEGACY_PROTOCOL_VERSIONS,
  MetaKey,
  TASKS_EXTENSION,
  MODERN_PROTOCOL_VERSIONS,
  type ClientCapabilities,
  type InputRequest,
  type InputResponse,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type ProgressToken,
  type RequestId,
  type ServerCapabilities,
  type SubscriptionFilter,
  isObject,
} from '../protocol/types.js';

/** Facts about the request a server asks input for (shown by dialogs). */
export interface LegacyInputContext {
  /** The JSON-RPC id of the server's request, as a string. */
  key: string;
  /** Aborted when the server cancels its request, the originating request ends, or the session closes. */
  signal: AbortSignal;
  /** Method of the client request whose stream carried the server's request (`tools/call`…), if any. */
  method?: string;
  /** Tool or prompt name, or resource URI, of that request. */
  target?: string;
  /** The task the request belongs to (2025-11-25 `io.modelcontextprotocol/related-task`), e.g. on a `tasks/result` stream. */
  taskId?: string;
}

/** What a legacy session needs from its client, beyond {@link SessionHost}. */
export interface LegacyHost extends SessionHost {
  /** The endpoint the user gave. */
  url: URL;
  /**
   * Answers an `elicitation/create`, `sampling/createMessage` or `roots/list`
   * request with the registered input handler (the one MRTR uses).
   */
  answerInput(request: InputRequest, context: LegacyInputContext): Promise<InputResponse>;
  /** Whether a handler can answer `method` (and elicitation `mode`) right now. */
  hasInputHandler(method: string, mode?: string): boolean;
  /** Delivers a server notification to the client (cache invalidation, events). */
  notification(notification: JsonRpcNotification): void;
  /** Calls `listener` whenever input handlers are registered or removed; returns the unsubscribe function. */
  onHandlersChanged?(listener: () => void): () => void;
  /** The endpoint answered like a modern server: forget the legacy verdict and reconnect on the next request. */
  eraChanged?(): void;
}

/** The version offered in `initialize`: the newest legacy revision (checklist LEG-1). */
export const OFFERED_VERSION = LEGACY_PROTOCOL_VERSIONS[0]!;

/** Cap on remembered URL-mode elicitation ids (for `notifications/elicitation/complete`). */
const MAX_ELICITATIONS = 1000;


/**
 * Whether an error answering a request of an established legacy session shows
 * that the endpoint now speaks the modern protocol: a recognised modern error
 * (-32020, -32021, or -32022 listing modern versions). The client then forgets
 * the legacy verdict and probes again (basic/versioning "re-probing if the
 * cached assumption later fails").
 */
export function isModernSignature(error: unknown): boolean {
  if (!McpRpcError.isInstance(error)) return false;
  if (error.code === ErrorCode.UnsupportedProtocolVersion) {
    const supported = (error.data as { supported?: unknown })?.supported;
    return Array.isArray(supported) && supported.some((v) => MODERN_PROTOCOL_VERSIONS.includes(v as string));
  }
  return error.code === ErrorCode.HeaderMismatch || error.code === ErrorCode.MissingRequiredClientCapability;
}

export { sleep } from '../util/sleep.js';

/**
 * The capabilities to declare at `initialize`: those of the registered handlers,
 * with `roots.listChanged` since the kit announces root changes on legacy.
 */
export function legacyCapabilities(host: SessionHost): ClientCapabilities {
  const capabilities = structuredClone(host.capabilities());
  if (capabilities.roots) capabilities.roots = { ...capabilities.roots, listChanged: true };
  // The 2026-07-28 Tasks extension means nothing at a legacy initialize (2025-11-25 has no `extensions`;
  // its `tasks` capability is about the client running tasks, which this kit does not).
  if (capabilities.extensions) {
    delete capabilities.extensions[TASKS_EXTENSION];
    if (Object.keys(capabilities.extensions).length === 0) delete capabilities.extensions;
  }
  return capabilities;
}

/** The capability features that gate server requests, as dotted paths. */
function capabilityPaths(capabilities: ClientCapabilities): string[] {
  const paths: string[] = [];
  if (capabilities.elicitation) {
    // 2025-06-18 declared elicitation as `{}`, which means form mode.
    const form = capabilities.elicitation.form !== undefined || Object.keys(capabilities.elicitation).length === 0;
    if (form) paths.push('elicitation.form');
    if (capabilities.elicitation.url !== undefined) paths.push('elicitation.url');
  }
  if (capabilities.sampling) {
    paths.push('sampling');
    if (capabilities.sampling.tools !== undefined) paths.push('sampling.tools');
  }
  if (capabilities.roots) paths.push('roots');
  return paths;
}

/** Features in `now` that `declared` lacks (a handler registered after `initialize`). */
export function addedCapabilities(declared: ClientCapabilities, now: ClientCapabilities): string[] {
  const before = new Set(capabilityPaths(declared));
  return capabilityPaths(now).filter((path) => !before.has(path));
}

/** Whether `version` defines the `MCP-Protocol-Version` header (added in 2025-06-18). */
export function versionHeaderDefined(version: string): boolean {
  return version >= '2025-06-18';
}

/** Builds a request message; on legacy, `_meta` carries only what the caller put there (e.g. `progressToken`). */
export function buildRequest(id: RequestId, method: string, params: JsonObject, meta: JsonObject | undefined): JsonRpcRequest {
  const merged: JsonObject = { ...(params._meta as JsonObject | undefined), ...meta };
  const { _meta: _dropped, ...rest } = params;
  return { jsonrpc: '2.0', id, method, params: Object.keys(merged).length > 0 ? { ...rest, _meta: merged } : rest };
}

/** The `target` of a request for input contexts: tool or prompt name, or resource URI. */
function targetOf(method: string, params: JsonObject): string | undefined {
  const value = method === 'resources/read' ? params.uri : method === 'tools/call' || method === 'prompts/get' ? params.name : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** A JSON-RPC error to answer a server request with. */
function rpcError(code: number, message: string): McpRpcError {
  return new McpRpcError(code, message);
}

/** Maps a handler failure to the JSON-RPC error object sent back to the server. */
function errorObject(error: unknown): { code: number; message: string; data?: unknown } {
  if (McpRpcError.isInstance(error)) return { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
  if (McpClientError.isInstance(error)) {
    // 2025-11-25 client/sampling: a user rejection is error -1.
    if (error.code === 'declined') return { code: -1, message: error.message };
    if (error.code === 'input_unsupported') return { code: ErrorCode.InvalidParams, message: error.message };
  }
  return { code: ErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) };
}

/** One client request in flight, so that messages on other streams can find it. */
export class PendingRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly target: string | undefined;
  readonly progressToken: ProgressToken | undefined;
  readonly onMessage: ((message: IncomingMessage) => void) | undefined;
  /** The earlier session it was sent on (`SessionRequestOptions.sessionId`): answers and its cancellation go there too. */
  readonly sessionId: string | undefined;
  /** Aborted by the caller's signal, or once the request is settled. */
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #callerSignal: AbortSignal | undefined;
  readonly #onCallerAbort: () => void;
  #resolve!: (response: JsonRpcResponse) => void;
  #reject!: (error: unknown) => void;
  /** Resolves when the response arrives outside the request's own stream (or fails when the channel dies). */
  readonly elsewhere: Promise<JsonRpcResponse>;

  constructor(id: RequestId, method: string, params: JsonObject, options: SessionRequestOptions) {
    this.id = id;
    this.method = method;
    this.target = targetOf(method, params);
    const token = (options.meta as JsonObject | undefined)?.progressToken;
    this.progressToken = typeof token === 'string' || typeof token === 'number' ? token : undefined;
    this.onMessage = options.onMessage;
    this.sessionId = options.sessionId;
    this.#callerSignal = options.signal;
    this.signal = this.#controller.signal;
    this.#onCallerAbort = () => this.#controller.abort(options.signal!.reason);
    if (options.signal?.aborted) this.#onCallerAbort();
    else options.signal?.addEventListener('abort', this.#onCallerAbort, { once: true });
    this.elsewhere = new Promise<JsonRpcResponse>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.elsewhere.catch(() => {});
  }

  /** Whether the caller (not the kit) aborted: the cue to send `notifications/cancelled`. */
  get callerAborted(): boolean {
    return this.#callerSignal?.aborted === true;
  }

  deliver(response: JsonRpcResponse): void {
    this.#resolve(response);
  }

  fail(error: unknown): void {
    this.#reject(error);
  }

  /**
   * Waits for `exchange` or for the response arriving elsewhere, whichever is
   * first; in the second case the request's own stream is closed.
   */
  async race<T extends { response: JsonRpcResponse; status: number }>(exchange: Promise<T>): Promise<{ response: JsonRpcResponse; status: number }> {
    exchange.catch(() => {});
    let fromElsewhere = false;
    const elsewhere = this.elsewhere.then((response) => {
      fromElsewhere = true;
      return { response, status: 200 };
    });
    const winner = await Promise.race([exchange, elsewhere]);
    // Delivered on another stream: stop reading this request's own stream.
    if (fromElsewhere) this.#controller.abort(new McpClientError('aborted', `${this.method} was answered on another stream`, { method: this.method }));
    return winner;
  }

  dispose(): void {
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
    if (!this.#controller.signal.aborted) this.#controller.abort(new McpClientError('aborted', `${this.method} is finished`, { method: this.method }));
  }
}

/** A `listen()` call waiting for notifications from the session's standalone stream. */
interface Listener {
  filter: SubscriptionFilter;
  onMessage: ((message: IncomingMessage) => void) | undefined;
  fail(error: McpError): void;
}

/** Whether a notification is covered by an acknowledged filter. */
function matches(filter: SubscriptionFilter, notification: JsonRpcNotification): boolean {
  switch (notification.method) {
    case 'notifications/tools/list_changed':
      return filter.toolsListChanged === true;
    case 'notifications/prompts/list_changed':
      return filter.promptsListChanged === true;
    case 'notifications/resources/list_changed':
      return filter.resourcesListChanged === true;
    case 'notifications/resources/updated':
      return typeof notification.params?.uri === 'string' && (filter.resourceSubscriptions ?? []).includes(notification.params.uri);
    default:
      return false;
  }
}

/**
 * The era-independent half of a legacy session. Subclasses provide the HTTP
 * binding: the handshake, sending messages, and the server's streams.
 */
export abstract class LegacySessionBase implements Session {
  protected readonly host: LegacyHost;
  protected version: string = OFFERED_VERSION;
  /** The version `initialize` offers: the newest, or an older one a server's version error asked for. */
  protected offered: string = OFFERED_VERSION;
  /** Capabilities declared at the last `initialize`. */
  protected declared: ClientCapabilities = {};
  protected closed = false;
  /** Bumped by every successful handshake; listeners and streams belong to one generation. */
  protected generation = 0;
  protected readonly pending = new Map<RequestId, PendingRequest>();
  #description: ServerDescription;
  readonly #serverRequests = new Map<RequestId, AbortController>();
  readonly #listeners = new Set<Listener>();
  readonly #elicitations = new Map<string, 'open' | 'complete'>();
  /** Per open URL-mode elicitation the server sent: what its `notifications/elicitation/complete` ends (the answer, or the handler's wait after it). */
  readonly #onComplete = new Map<string, () => void>();
  #unwatch: (() => void) | undefined;
  #rootsNoticePending = false;

  constructor(host: LegacyHost) {
    this.host = host;
    this.#description = { era: 'legacy', protocolVersion: OFFERED_VERSION, supportedVersions: [], capabilities: {} };
    this.#unwatch = host.onHandlersChanged?.(() => this.#handlersChanged());
  }

  get description(): ServerDescription {
    return this.#description;
  }

  abstract request(method: string, params: JsonObject, options?: SessionRequestOptions): Promise<SessionResponse>;
  abstract close(): Promise<void>;

  /** POSTs a notification or a response, on the current session or on `sessionId` (an earlier one, see {@link PendingRequest.sessionId}). */
  protected abstract post(message: JsonRpcMessage, signal?: AbortSignal, sessionId?: string): Promise<void>;
  /** Whether the server can push to us outside request streams: `open`, `none`, or `pending` while unknown. */
  protected abstract standaloneStream(): 'open' | 'none' | 'pending';
  /** Brings the session up if it needs (re-)initializing. */
  protected abstract ready(signal: AbortSignal | undefined): Promise<void>;

  /** The `initialize` params for this client. */
  protected initializeParams(capabilities: ClientCapabilities): JsonObject {
    // clientInfo is required by legacy revisions even when the app opted out of sending it on modern.
    return { protocolVersion: this.offered, capabilities, clientInfo: this.host.clientInfo ?? { name: 'mcp-client', version: '0.0.0' } };
  }

  /**
   * Checks an `InitializeResult` and adopts it as the session's description.
   * @throws McpClientError `unsupported_version` when the server chose a version the kit does not speak (LEG-2).
   */
  protected adopt(result: JsonObject, capabilities: ClientCapabilities, accepted: readonly string[]): void {
    const version = result.protocolVersion;
    if (typeof version !== 'string' || !accepted.includes(version)) {
      throw new McpClientError(
        'unsupported_version',
        `${this.host.url.href} answered initialize with protocol version ${JSON.stringify(version)}, which this client does not speak (it speaks ${accepted.join(', ')})`,
        { url: this.host.url.href, method: 'initialize', supported: typeof version === 'string' ? [version] : [] },
      );
    }
    this.version = version;
    this.declared = capabilities;
    const serverInfo = implementationInfo(result.serverInfo);
    this.#description = {
      era: 'legacy',
      protocolVersion: version,
      supportedVersions: [version],
      serverInfo,
      capabilities: isObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {},
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    };
  }

  /** After the handshake: opt in to logging when the app asked for it (legacy `logging/setLevel`). */
  protected async setLogLevel(signal: AbortSignal | undefined): Promise<void> {
    if (!this.host.logLevel || !this.#description.capabilities.logging) return;
    try {
      await this.request('logging/setLevel', { level: this.host.logLevel }, { signal });
    } catch (error) {
      this.host.warn('legacy-log-level', `logging/setLevel was refused by ${this.host.url.href}: ${(error as Error).message}`);
    }
  }

  /** A `server/discover`-shaped result built from `initialize`, so `client.discover()` works on legacy servers too. */
  protected discoverResult(): SessionResponse {
    const d = this.#description;
    return {
      id: this.host.nextId(),
      result: {
        supportedVersions: d.supportedVersions,
        capabilities: d.capabilities,
        ...(d.instructions !== undefined ? { instructions: d.instructions } : {}),
        ...(d.serverInfo ? { _meta: { [MetaKey.serverInfo]: d.serverInfo } } : {}),
      },
    };
  }

  /** Whether handlers registered since `initialize` need capabilities the server was not told about. */
  protected capabilitiesGrew(): string[] {
    return addedCapabilities(this.declared, legacyCapabilities(this.host));
  }

  // --- requests in flight -------------------------------------------------------------------

  protected track(id: RequestId, method: string, params: JsonObject, options: SessionRequestOptions): PendingRequest {
    const pending = new PendingRequest(id, method, params, options);
    this.pending.set(id, pending);
    return pending;
  }

  protected untrack(pending: PendingRequest): void {
    pending.dispose();
    this.pending.delete(pending.id);
  }

  /**
   * Cancels a request the server may still be working on (LEG-9, CAN-7): on the
   * legacy era a closed stream is not a cancellation. Never for `initialize`.
   */
  protected cancel(pending: PendingRequest): void {
    if (pending.method === 'initialize' || this.closed) return;
    const reason = pending.signal.reason as { message?: string } | undefined;
    const message: JsonRpcNotification = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: pending.id, ...(typeof reason?.message === 'string' ? { reason: reason.message } : {}) },
    };
    this.host.traffic?.({ direction: 'out', message, requestId: pending.id, time: Date.now() });
    this.post(message, AbortSignal.timeout(10_000), pending.sessionId).catch((error: unknown) => {
      this.host.warn('legacy-cancel-failed', `Could not send notifications/cancelled for ${pending.method} to ${this.host.url.href}: ${(error as Error).message}`);
    });
  }

  /** Remembers URL-mode elicitation ids a `-32042` error announced, so their completion is not dropped. */
  protected noteUrlElicitations(error: unknown): void {
    if (!McpRpcError.isInstance(error) || error.code !== ErrorCode.UrlElicitationRequired) return;
    const list = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
    if (!Array.isArray(list)) return;
    for (const entry of list) if (isObject(entry) && typeof entry.elicitationId === 'string') this.#rememberElicitation(entry.elicitationId);
  }

  #rememberElicitation(id: string): void {
    if (this.#elicitations.size >= MAX_ELICITATIONS) {
      const oldest = this.#elicitations.keys().next().value!;
      this.#elicitations.delete(oldest);
      this.#onComplete.delete(oldest);
    }
    if (!this.#elicitations.has(id)) this.#elicitations.set(id, 'open');
  }

  // --- incoming messages --------------------------------------------------------------------

  /**
   * Routes one message the server sent on any stream. `via` is the request whose
   * stream carried it (undefined for the standalone stream).
   */
  protected receive(incoming: IncomingMessage, via?: PendingRequest): void {
    if (incoming.kind === 'response') {
      const id = incoming.message.id;
      let target = id !== undefined && id !== null ? this.pending.get(id) : undefined;
      if (!target && id !== undefined && id !== null) {
        // "2" for 2: the id of a request in flight with its JSON type changed still names that request.
        target = [...this.pending.values()].find((p) => String(p.id) === String(id));
        if (target) {
          this.host.warn(
            'response-id-mismatch',
            `${this.host.url.href} answered ${target.method} (request id ${JSON.stringify(target.id)}) with id ${JSON.stringify(id)}: JSON-RPC requires the id echoed unchanged, JSON type included. The reply was accepted.`,
          );
        }
      }
      if (target && target !== via) target.deliver(incoming.message);
      else this.host.warn('foreign-response', `Ignored a response with id ${JSON.stringify(id)} that matches no request in flight`);
      return;
    }
    if (incoming.kind === 'request') {
      void this.#answer(incoming.message, via);
      return;
    }
    const notification = incoming.message;
    const params = notification.params ?? {};
    switch (notification.method) {
      case 'notifications/cancelled': {
        // The server withdrew one of its requests: stop asking the user, send no answer.
        const requestId = params.requestId;
        if (typeof requestId === 'string' || typeof requestId === 'number') {
          this.#serverRequests.get(requestId)?.abort(new McpClientError('aborted', `The server cancelled its request ${JSON.stringify(requestId)}`, { url: this.host.url.href }));
        }
        return;
      }
      case 'notifications/elicitation/complete': {
        // Unknown or already completed ids MUST be ignored (2025-11-25 client/elicitation).
        const id = params.elicitationId;
        if (typeof id !== 'string' || this.#elicitations.get(id) !== 'open') return;
        this.#elicitations.set(id, 'complete');
        this.#onComplete.get(id)?.();
        this.#onComplete.delete(id);
        break;
      }
      case 'notifications/progress': {
        // Progress belongs to the request that carries the token, whichever stream it came on.
        const owner = [...this.pending.values()].find((p) => p.progressToken !== undefined && p.progressToken === params.progressToken);
        owner?.onMessage?.(incoming);
        return;
      }
    }
    if (via) {
      via.onMessage?.(incoming);
      return;
    }
    let delivered = false;
    for (const listener of this.#listeners) {
      if (!matches(listener.filter, notification)) continue;
      delivered = true;
      listener.onMessage?.(incoming);
    }
    if (!delivered) this.host.notification(notification);
  }

  /** Answers one server → client request (LEG-10, LEG-11) and POSTs the response. */
  async #answer(request: JsonRpcRequest, via: PendingRequest | undefined): Promise<void> {
    const controller = new AbortController();
    const stop = () => controller.abort(new McpClientError('aborted', `${via?.method ?? 'The session'} ended before the answer to ${request.method}`, { url: this.host.url.href }));
    if (via?.signal.aborted) stop();
    via?.signal.addEventListener('abort', stop, { once: true });
    this.#serverRequests.get(request.id)?.abort();
    this.#serverRequests.set(request.id, controller);
    let response: JsonRpcResponse;
    try {
      const result = await this.#handle(request, controller.signal, via);
      response = { jsonrpc: '2.0', id: request.id, result };
    } catch (error) {
      response = { jsonrpc: '2.0', id: request.id, error: errorObject(error) };
    } finally {
      via?.signal.removeEventListener('abort', stop);
      if (this.#serverRequests.get(request.id) === controller) this.#serverRequests.delete(request.id);
    }
    // A cancelled request gets no answer (basic/utilities/cancellation); neither does one of a closed session.
    if (controller.signal.aborted || this.closed) return;
    this.host.traffic?.({ direction: 'out', message: response, requestId: request.id, time: Date.now() });
    try {
      await this.post(response, AbortSignal.timeout(30_000), via?.sessionId);
    } catch (error) {
      this.host.warn('legacy-answer-failed', `Could not send the answer to the server's ${request.method} to ${this.host.url.href}: ${(error as Error).message}`);
    }
  }

  /**
   * A URL-mode `elicitation/create` with an id: the handler answers (on open,
   * see `urlAnswer`), unless the server's `notifications/elicitation/complete`
   * for it comes first, which answers `accept` (the interaction is done). The
   * completion also aborts the handler's signal, later too, so a dialog still
   * showing "finish on the other page" closes.
   */
  async #answerUrl(params: JsonObject, context: LegacyInputContext): Promise<JsonObject> {
    const id = params.elicitationId as string;
    this.#rememberElicitation(id);
    const wait = new AbortController();
    const outer = context.signal;
    const stop = () => wait.abort(outer.reason);
    if (outer.aborted) stop();
    else outer.addEventListener('abort', stop, { once: true });
    let completed!: (result: JsonObject) => void;
    const completion = new Promise<JsonObject>((resolve) => (completed = resolve));
    this.#onComplete.set(id, () => {
      completed({ action: 'accept' });
      wait.abort(new McpClientError('aborted', `${this.host.url.href} completed URL elicitation ${JSON.stringify(id)}`, { url: this.host.url.href }));
    });
    const answer = this.host.answerInput({ method: 'elicitation/create', params } as InputRequest, { ...context, signal: wait.signal }) as Promise<JsonObject>;
    try {
      return await Promise.race([answer, completion]);
    } finally {
      outer.removeEventListener('abort', stop);
    }
  }

  async #handle(request: JsonRpcRequest, signal: AbortSignal, via: PendingRequest | undefined): Promise<JsonObject> {
    const params = request.params ?? {};
    const related = (params._meta as JsonObject | undefined)?.[MetaKey.relatedTask];
    const taskId = isObject(related) && typeof related.taskId === 'string' ? related.taskId : undefined;
    const context: LegacyInputContext = { key: String(request.id), signal, method: via?.method, target: via?.target, ...(taskId !== undefined ? { taskId } : {}) };
    switch (request.method) {
      case 'ping':
        return {};
      case 'elicitation/create': {
        const mode = params.mode ?? 'form';
        // An undeclared mode gets -32602 (2025-11-25 client/elicitation "Error Handling").
        if ((mode !== 'form' && mode !== 'url') || !capabilityPaths(this.declared).includes(`elicitation.${mode}`)) {
          throw rpcError(ErrorCode.InvalidParams, `This client did not declare ${typeof mode === 'string' ? `${mode}-mode` : 'this'} elicitation`);
        }
        if (!this.host.hasInputHandler(request.method, mode)) throw rpcError(ErrorCode.InvalidParams, `This client has no handler for ${mode}-mode elicitation any more`);
        if (mode === 'url' && typeof params.elicitationId === 'string') return this.#answerUrl(params, context);
        return (await this.host.answerInput({ method: 'elicitation/create', params } as InputRequest, context)) as JsonObject;
      }
      case 'sampling/createMessage': {
        if (!this.declared.sampling || !this.host.hasInputHandler(request.method)) throw rpcError(ErrorCode.MethodNotFound, 'This client does not offer sampling');
        if (params.tools !== undefined && !this.declared.sampling.tools) throw rpcError(ErrorCode.InvalidParams, 'This client did not declare tool use in sampling');
        return (await this.host.answerInput({ method: 'sampling/createMessage', params } as InputRequest, context)) as JsonObject;
      }
      case 'roots/list': {
        if (!this.declared.roots || !this.host.hasInputHandler(request.method)) throw rpcError(ErrorCode.MethodNotFound, 'This client does not offer roots');
        return (await this.host.answerInput({ method: 'roots/list', params } as InputRequest, context)) as JsonObject;
      }
      default:
        throw rpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    }
  }

  /** Handlers changed: tell the server its roots may have changed (2025-11-25 client/roots "Root List Changes"). */
  #handlersChanged(): void {
    if (this.closed || !this.declared.roots || this.generation === 0 || this.#rootsNoticePending) return;
    this.#rootsNoticePending = true;
    // Coalesce a burst of registrations into one notification.
    queueMicrotask(() => {
      this.#rootsNoticePending = false;
      if (this.closed || !this.host.hasInputHandler('roots/list')) return;
      const message: JsonRpcNotification = { jsonrpc: '2.0', method: 'notifications/roots/list_changed' };
      this.host.traffic?.({ direction: 'out', message, time: Date.now() });
      this.post(message, AbortSignal.timeout(10_000)).catch((error: unknown) => {
        this.host.warn('legacy-roots-notice-failed', `Could not send notifications/roots/list_changed to ${this.host.url.href}: ${(error as Error).message}`);
      });
    });
  }

  // --- subscriptions ----------------------------------------------------------------------------

  /**
   * Legacy stand-in for `subscriptions/listen`: list changes arrive unasked on
   * the standalone stream (when the server declared `listChanged`), resource
   * updates after `resources/subscribe` (when it declared `subscribe`). Resolves
   * when the session closes; throws when the session restarts or its stream is
   * lost, so the client listens again.
   */
  async listen(filter: SubscriptionFilter, options: SessionRequestOptions): Promise<void> {
    const signal = options.signal;
    await this.ready(signal);
    const generation = this.generation;
    const capabilities = this.#description.capabilities;
    const subscribed: string[] = [];
    if (filter.resourceSubscriptions?.length && capabilities.resources?.subscribe) {
      for (const uri of filter.resourceSubscriptions) {
        try {
          await this.request('resources/subscribe', { uri }, { signal });
          subscribed.push(uri);
        } catch (error) {
          if (!McpRpcError.isInstance(error)) throw error;
          this.host.warn('legacy-subscribe-refused', `resources/subscribe for ${uri} was refused by ${this.host.url.href}: ${error.message}`);
        }
      }
    }
    const acknowledged: SubscriptionFilter = {};
    if (filter.toolsListChanged && capabilities.tools?.listChanged) acknowledged.toolsListChanged = true;
    if (filter.promptsListChanged && capabilities.prompts?.listChanged) acknowledged.promptsListChanged = true;
    if (filter.resourcesListChanged && capabilities.resources?.listChanged) acknowledged.resourcesListChanged = true;
    if (subscribed.length > 0) acknowledged.resourceSubscriptions = subscribed;
    if (this.standaloneStream() === 'none' && Object.keys(acknowledged).length > 0) {
      this.host.warn('legacy-no-stream', `${this.host.url.href} offers no standalone stream (GET); change notifications only arrive alongside other requests`);
    }
    const listener: Listener = { filter: acknowledged, onMessage: options.onMessage, fail: () => {} };
    try {
      await new Promise<void>((resolve, reject) => {
        listener.fail = reject;
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        this.#listeners.add(listener);
        // Tell the subscription loop what will be delivered, as a modern server's acknowledgement would.
        const ack: JsonRpcNotification = { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: acknowledged as JsonObject } };
        options.onMessage?.({ kind: 'notification', message: ack });
      });
    } finally {
      this.#listeners.delete(listener);
      if (subscribed.length > 0 && !this.closed && this.generation === generation) {
        for (const uri of subscribed) this.request('resources/unsubscribe', { uri }, { signal: AbortSignal.timeout(10_000) }).catch(() => {});
      }
    }
  }

  /** Ends every `listen()` with `error` (session restarted or stream lost): the client listens again. */
  protected failListeners(error: McpError): void {
    for (const listener of this.#listeners) listener.fail(error);
    this.#listeners.clear();
  }

  /** Closes what the base owns: server requests being answered, listeners, the handler watch. */
  protected closeBase(): void {
    this.closed = true;
    this.#unwatch?.();
    this.#unwatch = undefined;
    for (const controller of this.#serverRequests.values()) controller.abort(new McpClientError('closed', 'The session was closed', { url: this.host.url.href }));
    this.#serverRequests.clear();
    // Transient on purpose: after `reconnect()` the client's subscriptions listen again on the new session.
    this.failListeners(new McpClientError('network', 'The legacy session was closed', { url: this.host.url.href, streamEnded: true }));
    for (const pending of this.pending.values()) pending.fail(new McpClientError('closed', 'The session was closed', { url: this.host.url.href, method: pending.method }));
  }
}
