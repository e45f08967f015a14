/**
 * Following tasks: a request the server answered with a durable handle instead
 * of its result. Loaded by the client the first time a task appears (or a page
 * asks for its stored tasks), so pages that never meet one don't download it.
 *
 * - 2026-07-28, Tasks extension (`io.modelcontextprotocol/tasks`, ext-tasks
 *   specification/draft/tasks.md): a `resultType: "task"` result; `tasks/get`
 *   polled at the server's `pollIntervalMs` ("Task Polling") or
 *   `notifications/tasks` through `subscriptions/listen` once the server
 *   acknowledges the task id ("Task Status Notifications": then no polling);
 *   `input_required` answered through the input handlers (the MRTR ones) and
 *   sent with `tasks/update`, each key once ("Task Update Requests");
 *   `tasks/cancel` when the caller aborts ("Task Cancellation"); the final
 *   `result`, or the JSON-RPC `error` of a failed task, delivered as the
 *   original request would have delivered it. `Mcp-Name` carries the task id
 *   ("Streamable HTTP: Routing Headers").
 * - 2025-11-25 (basic/utilities/tasks): task-augmented requests (`params.task`,
 *   "Creating Tasks"; tools whose `execution.taskSupport` is `required` always,
 *   "Tool-Level Negotiation"), `tasks/get` polling, `tasks/result` for the
 *   outcome and for input requests ("Input Required Status": they arrive on
 *   its stream and go to the same handlers), `notifications/tasks/status` as a
 *   hint only (requestors must not rely on it), `tasks/cancel`.
 *
 * Polling starts at the server's suggestion (never faster than it, nor than
 * `minPollMs`), backs off ×1.5 with up to 20 % jitter while nothing changes
 * (up to `maxPollMs`), pauses while the page is hidden or offline and resumes
 * at once on `visibilitychange`/`online`. Every wait is bounded by `maxWaitMs`
 * (and by the task's TTL, through the server's answers); a task id the server
 * no longer knows ends the wait with `task_not_found`.
 *
 * Handles are stored (server URL, authorization context, task id, request,
 * start time) so a reloaded page can pick the result up: IndexedDB in
 * browsers (`./task-idb.ts`), memory elsewhere.
 *
 * @module
 */
import { ErrorCode, McpClientError, McpError, McpRpcError } from '../protocol/errors.js';
import { encodeHeaderValue } from '../transport/headers.js';
import { sleep } from '../util/sleep.js';
import type { HandlerLookup, RoundLimits } from '../rounds/handlers.js';
import type { InputRequiredOptions, ListenOptions, RequestOptions, Subscription } from '../rounds/options.js';
import type { ServerDescription } from '../transport/session.js';
import { MemoryTaskStore } from './store.js';
import { blocked, budget, pollDelay, RETRY_FIRST_MS, RETRY_MAX_MS, transient, Waiter, whileBlocked } from './waiting.js';
import {
  type StoredTask,
  type StoredTasks,
  type TaskEvent,
  type TaskHandle,
  type TaskInfo,
  type TaskOptions,
  type TaskState,
  type TaskCallOptions,
  type TaskStatus,
  type TaskStore,
  type TaskWaitOptions,
} from './task-types.js';
import { isObject, TASKS_EXTENSION, type InputRequests, type InputResponses, type JsonObject, type JsonRpcNotification, type ResultBase, type SubscriptionFilter, type Tool } from '../protocol/types.js';

/** What the task machinery uses of its client (`McpClient` is one; this module never imports it). */
export interface TaskClient {
  readonly url: URL;
  readonly server: ServerDescription | undefined;
  connect(options?: { signal?: AbortSignal }): Promise<unknown>;
  request(method: string, params?: JsonObject, options?: RequestOptions & { headers?: Record<string, string>; sessionId?: string }): Promise<ResultBase>;
  on(type: 'status', listener: (event: { status: string }) => void): () => void;
  on(type: 'notification', listener: (notification: JsonRpcNotification) => void): () => void;
  listen(filter: SubscriptionFilter, options?: ListenOptions): Subscription;
}

/** The options of a call that the task machinery reads (those of `McpClient.callTool`). */
export type TaskCallerOptions = InputRequiredOptions & { task?: TaskCallOptions };

/** What the task machinery needs from its client. */
export interface TaskHost {
  client: TaskClient;
  /** The input handlers (those of MRTR). */
  lookup: HandlerLookup;
  /**
   * The client's options: `tasks` (see {@link taskOptions}), and those that bound input
   * requests (`maxInputRequests` per round, `maxRounds`, `onWarning`), as for MRTR.
   */
  options: RoundLimits & { maxRounds?: number; tasks?: boolean | TaskOptions };
  /** The client's controllers that `close()` aborts: an input round of a task joins them, as a call's rounds do. */
  inflight: Set<AbortController>;
  warn(code: string, message: string): void;
  emit(event: TaskEvent): void;
  /** Identifies the authorization context of the next request (a hash), if any. */
  authContext(): Promise<string | undefined>;
  /** The `Mcp-Session-Id` of the client's legacy session now, if any. */
  sessionId(): string | undefined;
}

/** The task options in force (the `tasks` client option, `true` meaning the defaults). */
function taskOptions(host: TaskHost): TaskOptions {
  return typeof host.options.tasks === 'object' ? host.options.tasks : {};
}


const STATUSES: readonly string[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];
const TERMINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);
/** How long a cancellation sent on abort may take before it is given up, in ms. */
const CANCEL_TIMEOUT_MS = 10_000;

/** Whether a status is terminal (`completed`, `failed`, `cancelled`): it never changes again. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/**
 * Reads a task object from the server, either era, into a {@link TaskState}.
 * On 2026-07-28 the status-specific members of a detailed task (`tasks/get`,
 * `notifications/tasks`; not a `CreateTaskResult`) are required: `inputRequests`
 * (`input_required`), `result` (`completed`), `error` (`failed`).
 * @throws McpClientError `protocol` naming what is wrong.
 */
export function parseTask(value: unknown, context: { url: string; method: string; modern: boolean; detailed?: boolean }): TaskState {
  const bad = (what: string) => new McpClientError('protocol', `The server sent a malformed task in ${context.method}: ${what}`, { url: context.url, method: context.method });
  if (!isObject(value)) throw bad('it is not an object');
  const { taskId, status } = value;
  if (typeof taskId !== 'string' || taskId === '') throw bad('"taskId" is not a non-empty string');
  if (typeof status !== 'string' || !STATUSES.includes(status)) throw bad(`unknown status ${JSON.stringify(status)}`);
  const ttl = context.modern ? value.ttlMs : value.ttl;
  const poll = context.modern ? value.pollIntervalMs : value.pollInterval;
  const state: TaskState = { taskId, status: status as TaskStatus, ttlMs: typeof ttl === 'number' && ttl >= 0 ? ttl : null };
  if (typeof poll === 'number' && poll >= 0) state.pollIntervalMs = poll;
  for (const key of ['statusMessage', 'createdAt', 'lastUpdatedAt'] as const) if (typeof value[key] === 'string') state[key] = value[key] as string;
  // A CreateTaskResult is a plain Task; tasks/get and notifications/tasks carry the detailed variants.
  if (!context.modern || context.detailed === false) return state;
  if (status === 'input_required') {
    if (!isObject(value.inputRequests)) throw bad('an input_required task has no "inputRequests" object');
    state.inputRequests = value.inputRequests as InputRequests;
  } else if (status === 'completed') {
    if (!isObject(value.result)) throw bad('a completed task has no "result" object');
    state.result = value.result;
  } else if (status === 'failed') {
    const error = value.error;
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') throw bad('a failed task has no JSON-RPC "error" ({ code, message })');
    state.error = { code: error.code as number, message: error.message, ...('data' in error ? { data: error.data } : {}) };
  }
  return state;
}

// --- storage -------------------------------------------------------------------------------------

let sharedStore: Promise<TaskStore> | undefined;

/** The store in use: the option, or one shared by the page (IndexedDB where there is one). */
function storeOf(host: TaskHost): Promise<TaskStore | undefined> {
  const option = taskOptions(host).store;
  if (option === false) return Promise.resolve(undefined);
  if (option) return Promise.resolve(option);
  sharedStore ??=
    typeof (globalThis as { indexedDB?: unknown }).indexedDB === 'object'
      ? import('./task-idb.js').then(
          ({ IdbTaskStore }) => new IdbTaskStore(),
          () => new MemoryTaskStore(),
        )
      : Promise.resolve(new MemoryTaskStore());
  return sharedStore;
}

/** Whether a record's task is past its TTL by this page's clock. */
function expired(record: StoredTask, now: number): boolean {
  if (record.ttlMs === null) return false;
  const created = record.createdAt ? Date.parse(record.createdAt) : NaN;
  return (Number.isFinite(created) ? created : record.startedAt) + record.ttlMs < now;
}

/** The stored tasks of the host's server and authorization context; expired ones are deleted and returned apart. */
export async function storedTasks(host: TaskHost): Promise<StoredTasks> {
  const store = await storeOf(host);
  if (!store) return { tasks: [], expired: [] };
  const records = await store.list(host.client.url.href, await host.authContext()).catch(() => [] as StoredTask[]);
  const now = Date.now();
  const out: StoredTasks = { tasks: [], expired: [] };
  for (const record of records) {
    if (expired(record, now)) {
      out.expired.push(record);
      await store.delete(record).catch(() => {});
    } else out.tasks.push(record);
  }
  out.tasks.sort((a, b) => b.startedAt - a.startedAt);
  return out;
}

/** A task this client follows. */
class Task implements TaskHandle {
  readonly taskId: string;
  readonly method: string;
  readonly target: string | undefined;
  state: TaskState | undefined;
  readonly #host: TaskHost;
  readonly #params: JsonObject | undefined;
  readonly #callId: number;
  readonly #detach = new AbortController();
  /** Input request keys already answered (each is answered once: "Task Update Requests"). */
  readonly #answered = new Set<string>();
  #inputRounds = 0;
  /** Errors already reported through an event (the task's own failure). */
  readonly #reported = new WeakSet<object>();
  #startedAt: number;
  #onStatus: ((state: TaskState) => void) | undefined;
  #auth: Promise<string | undefined> | undefined;
  /** Store writes, one after the other: a late write must not bring back a forgotten handle. */
  #writes: Promise<void> = Promise.resolve();
  #forgotten = false;
  /**
   * 2025-11-25: the session the task was created in. Such servers may keep tasks per session
   * (server-everything does), so after a reload the task is asked about on that session, not on
   * the new one; dropped once the server no longer knows the session.
   */
  #sessionId: string | undefined;
  /** What a stored record said of the task's TTL, until the server says it again. */
  readonly #storedTtl: Pick<StoredTask, 'status' | 'ttlMs' | 'createdAt'> | undefined;

  constructor(host: TaskHost, taskId: string, info: TaskInfo & { callId?: number; startedAt?: number; sessionId?: string; stored?: StoredTask }) {
    this.#host = host;
    this.taskId = taskId;
    this.method = info.method ?? 'tools/call';
    this.target = info.target ?? (typeof info.params?.name === 'string' ? info.params.name : undefined);
    this.#params = info.params;
    this.#callId = info.callId ?? 0;
    this.#startedAt = info.startedAt ?? Date.now();
    this.#sessionId = info.sessionId;
    this.#storedTtl = info.stored;
  }

  get #url(): string {
    return this.#host.client.url.href;
  }

  get #modern(): boolean {
    return this.#host.client.server?.era !== 'legacy';
  }

  #emit(phase: TaskEvent['phase'], error?: McpError, inputResponses?: InputResponses): void {
    this.#host.emit({ phase, taskId: this.taskId, method: this.method, target: this.target, ...(this.state ? { state: this.state } : {}), ...(error ? { error } : {}), ...(inputResponses ? { inputResponses } : {}) });
  }

  /**
   * One request about this task; on 2026-07-28 `Mcp-Name` carries the task id (the server's
   * routing key). On 2025-11-25 it goes to the session the task was created in, when that is
   * not the client's session now (a reload); if the server no longer knows that session, the
   * request is sent again on the current one (where the task may be unknown: `task_not_found`).
   */
  async #request(method: string, params: JsonObject, options: { signal?: AbortSignal; timeoutMs?: number; maxTotalTimeoutMs?: number }): Promise<ResultBase> {
    const client = this.#host.client;
    if (this.#modern) return client.request(method, params, { ...options, headers: { 'Mcp-Name': encodeHeaderValue(this.taskId) } });
    const earlier = this.#sessionId;
    if (earlier === undefined || earlier === this.#host.sessionId()) return client.request(method, params, options);
    try {
      return await client.request(method, params, { ...options, sessionId: earlier });
    } catch (error) {
      if (!McpClientError.isInstance(error) || error.data.earlierSession !== true || this.#sessionId !== earlier) throw error;
      this.#host.warn('task-session-gone', `${this.#url} no longer knows the session ${this.#describe()} was created in; asking on the current session`);
      this.#sessionId = this.#host.sessionId();
      if (!this.#forgotten) void this.remember();
      return client.request(method, params, options);
    }
  }

  // --- storage ---

  /** The authorization context the handle is stored under: asked once, so the put and the delete use the same key. */
  #authContext(): Promise<string | undefined> {
    this.#auth ??= this.#host.authContext();
    return this.#auth;
  }

  async #record(): Promise<StoredTask | undefined> {
    const state = this.state;
    if (!state) return undefined;
    const auth = await this.#authContext();
    return {
      taskId: this.taskId,
      url: this.#url,
      ...(auth !== undefined ? { auth } : {}),
      method: this.method,
      ...(this.target !== undefined ? { target: this.target } : {}),
      ...(this.#params ? { params: this.#params } : {}),
      startedAt: this.#startedAt,
      ...(this.#sessionId !== undefined ? { sessionId: this.#sessionId } : {}),
      status: state.status,
      ...(state.statusMessage !== undefined ? { statusMessage: state.statusMessage } : {}),
      ...(state.createdAt !== undefined ? { createdAt: state.createdAt } : {}),
      ttlMs: state.ttlMs,
      updatedAt: Date.now(),
    };
  }

  #write(operation: () => Promise<void>): Promise<void> {
    // Storage is a convenience: a failure (quota, an authContext that throws) loses only the pick-up.
    this.#writes = this.#writes.then(operation).catch(() => {});
    return this.#writes;
  }

  /** Stores (or updates) the handle, unless it was forgotten. */
  remember(): Promise<void> {
    return this.#write(async () => {
      if (this.#forgotten) return;
      const [store, record] = await Promise.all([storeOf(this.#host), this.#record()]);
      if (store && record && !this.#forgotten) await store.put(record);
    });
  }

  /** Settles when the store writes queued so far are done (they never reject). */
  stored(): Promise<void> {
    return this.#writes;
  }

  /** Deletes the stored handle: its outcome was delivered, or it is gone. */
  #forget(): Promise<void> {
    this.#forgotten = true;
    return this.#write(async () => {
      const store = await storeOf(this.#host);
      if (store) await store.delete({ url: this.#url, auth: await this.#authContext(), taskId: this.taskId });
    });
  }

  // --- state ---

  /** Takes a state the server sent; a terminal status never changes again. */
  adopt(next: TaskState): TaskState {
    const previous = this.state;
    if (previous && isTerminal(previous.status) && !isTerminal(next.status)) {
      this.#host.warn('task-status-after-terminal', `Task ${this.taskId} was ${previous.status} and then reported ${next.status}; kept ${previous.status}`);
      return previous;
    }
    this.state = next;
    if (!previous || previous.status !== next.status || previous.statusMessage !== next.statusMessage) {
      this.#emit('status');
      this.#onStatus?.(next);
      if (!isTerminal(next.status)) void this.remember();
    }
    return next;
  }

  /**
   * A `tasks/get` refused with -32602 (invalid params): the server does not know the id (any more).
   * Three cases, told apart in `data`: past its TTL (`expired: true`: the server may delete it);
   * seen running here and within its TTL (`lost: true`: "the server lost the task", e.g. a restart
   * that kept no tasks); never seen here (neither: a wrong id, or one from elsewhere).
   */
  #lost(error: unknown): McpClientError | undefined {
    if (!McpRpcError.isInstance(error) || error.code !== ErrorCode.InvalidParams) return undefined;
    const state = this.state;
    const known = state ?? this.#storedTtl;
    const created = known?.createdAt ? Date.parse(known.createdAt) : this.#startedAt;
    const late = known?.ttlMs != null && Number.isFinite(created) && created + known.ttlMs < Date.now();
    const lost = !late && known !== undefined && !isTerminal(known.status);
    const why = late ? ': its TTL has elapsed, so the server may have deleted it' : lost ? `: the server lost the task (it was ${known.status} when last seen, within its TTL)` : '';
    return new McpClientError(
      'task_not_found',
      `${this.#describe()} is unknown to ${this.#url}${why} (the server said: ${error.message})`,
      { url: this.#url, method: 'tasks/get', taskId: this.taskId, expired: late, lost },
      { cause: error },
    );
  }

  /** The error of a wait that reached `maxWaitMs`; the task may still run at the server. */
  #timeout(maxWait: number, cause?: unknown): McpClientError {
    return new McpClientError(
      'timeout',
      `${this.#describe()} did not finish within ${maxWait} ms; it may still be running (re-attach with client.task(${JSON.stringify(this.taskId)}))`,
      { url: this.#url, method: this.method, taskId: this.taskId, timeoutMs: maxWait },
      cause === undefined ? undefined : { cause },
    );
  }

  /**
   * One `tasks/get` of a wait: its request deadline is what remains of the wait's budget (a
   * server that never answers cannot hold the wait past `maxWaitMs`), and a failure to reach
   * the server (`network`; HTTP 502/503/504 from a proxy in front of it) is retried with
   * back-off (250 ms doubling to 5 s, jittered) within the budget: a short outage or a
   * restart does not end the wait. A restarted server that no longer knows the task ends it
   * with `task_not_found` (`data.lost`), not with the network error.
   * @throws McpClientError `timeout` once the budget is spent; anything else `get` throws.
   */
  async #poll(signal: AbortSignal, deadline: number, maxWait: number): Promise<TaskState> {
    let backoff = RETRY_FIRST_MS;
    let warned = false;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw this.#timeout(maxWait);
      try {
        return await this.#get({ signal, timeoutMs: remaining });
      } catch (error) {
        if (signal.aborted) throw error;
        if (McpClientError.isInstance(error) && error.code === 'timeout' && Date.now() >= deadline) throw this.#timeout(maxWait, error);
        if (!transient(error)) throw error;
        if (!warned) this.#host.warn('task-poll-retry', `Polling ${this.#describe()} failed (${(error as Error).message}); retrying within the wait's budget`);
        warned = true;
        const pause = Math.min(backoff * (1 + Math.random() * 0.2), deadline - Date.now());
        if (pause <= 0) throw this.#timeout(maxWait, error);
        await sleep(pause, signal);
        backoff = Math.min(backoff * 2, RETRY_MAX_MS);
      }
    }
  }

  #describe(): string {
    return `Task ${this.taskId}${this.target ? ` (${this.method} ${this.target})` : ''}`;
  }

  get(options: { signal?: AbortSignal } = {}): Promise<TaskState> {
    return this.#get(options);
  }

  async #get(options: { signal?: AbortSignal; timeoutMs?: number }): Promise<TaskState> {
    await this.#host.client.connect(options);
    const { signal, timeoutMs } = options;
    let raw: JsonObject;
    try {
      raw = await this.#request('tasks/get', { taskId: this.taskId }, { signal, ...(timeoutMs !== undefined ? { timeoutMs, maxTotalTimeoutMs: timeoutMs } : {}) });
    } catch (error) {
      throw this.#lost(error) ?? error;
    }
    const state = parseTask(raw, { url: this.#url, method: 'tasks/get', modern: this.#modern });
    if (state.taskId !== this.taskId) {
      throw new McpClientError('protocol', `tasks/get for ${this.taskId} was answered with task ${state.taskId}`, { url: this.#url, method: 'tasks/get', taskId: this.taskId });
    }
    return this.adopt(state);
  }

  async cancel(options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.#host.client.connect(options);
    let answer: JsonObject;
    try {
      answer = await this.#request('tasks/cancel', { taskId: this.taskId }, options);
    } finally {
      await this.#forget();
    }
    // 2025-11-25: the answer is the task (CancelTaskResult), which says what the cancellation did; 2026-07-28 acknowledges with an empty result.
    if (!this.#modern && answer.taskId === this.taskId) {
      try {
        this.adopt(parseTask(answer, { url: this.#url, method: 'tasks/cancel', modern: false }));
      } catch (error) {
        this.#host.warn('task-cancel-malformed', (error as Error).message);
      }
    }
    this.#emit('cancelled');
  }

  detach(): void {
    this.#detach.abort(new McpClientError('detached', `Stopped waiting for ${this.#describe()}; it goes on at the server`, { url: this.#url, taskId: this.taskId }));
  }

  // --- the wait ---

  async result(options: TaskWaitOptions = {}): Promise<JsonObject> {
    const host = this.#host;
    const client = host.client;
    const opts = taskOptions(host);
    const closed = new AbortController();
    const signal = AbortSignal.any([closed.signal, this.#detach.signal, ...(options.signal ? [options.signal] : [])]);
    // Closing the client is not the user cancelling: the task stays, stored, to be picked up later.
    const offStatus = client.on('status', ({ status }) => {
      if (status === 'closed') closed.abort(new McpClientError('closed', 'The client was closed', { url: this.#url }));
    });
    const maxWait = options.maxWaitMs ?? opts.maxWaitMs ?? 3_600_000;
    const maxRounds = options.maxRounds ?? host.options.maxRounds ?? 10;
    const deadline = Date.now() + maxWait;
    const waiter = new Waiter();
    const previousListener = this.#onStatus;
    this.#onStatus = options.onStatus ?? previousListener;
    if (this.state) options.onStatus?.(this.state);
    let pushed = false;
    let sync = false;
    let incoming: unknown;
    let subscription: Subscription | undefined;
    let offNotification: (() => void) | undefined;
    try {
      await client.connect({ signal });
      const modern = this.#modern;
      const context = { url: this.#url, method: modern ? 'notifications/tasks' : 'notifications/tasks/status', modern };
      const onNotification = (notification: JsonRpcNotification) => {
        if (notification.method === context.method && notification.params?.taskId === this.taskId) {
          incoming = notification.params;
          waiter.wake();
        }
      };
      if (modern && opts.notifications !== false && isObject(client.server?.capabilities.extensions?.[TASKS_EXTENSION])) {
        // Notification-driven while the server has acknowledged this task id; polling otherwise.
        subscription = client.listen(
          { taskIds: [this.taskId] },
          {
            onAcknowledged: (filter) => {
              pushed = Array.isArray(filter.taskIds) && filter.taskIds.includes(this.taskId);
              // A status change before the acknowledgement would be missed: one tasks/get catches up.
              sync = pushed;
              waiter.wake();
            },
            onNotification,
            onState: (state) => {
              if (state !== 'open' && pushed) {
                pushed = false;
                waiter.wake();
              }
            },
          },
        );
      } else if (!modern) {
        // 2025-11-25: a hint that shortens the wait; polling goes on (requestors must not rely on it).
        offNotification = client.on('notification', onNotification);
      }
      let state = this.state ?? (await this.#poll(signal, deadline, maxWait));
      // A CreateTaskResult is a plain Task, with no result or error: a task created already over is asked for its outcome.
      if (modern && (state.status === 'completed' || state.status === 'failed') && state.result === undefined && state.error === undefined) state = await this.#poll(signal, deadline, maxWait);
      let delay = pollDelay(opts, state);
      // The next tasks/get; a status that arrives on its own (a notification) does not move it.
      let nextPoll = Date.now() + delay;
      let paused = false;
      for (;;) {
        if (incoming !== undefined) {
          const raw = incoming;
          incoming = undefined;
          try {
            state = this.adopt(parseTask(raw, context));
          } catch (error) {
            host.warn('task-notification-malformed', (error as Error).message);
            // Pushed statuses replace polling: without a tasks/get, a status lost this way (a completion) would be waited for until maxWaitMs.
            sync = pushed;
          }
        }
        if (isTerminal(state.status) || (!modern && state.status === 'input_required')) return await this.#finish(state, signal, deadline);
        if (modern && state.status === 'input_required' && (await this.#answer(state, signal, maxRounds, deadline))) nextPoll = Date.now() + (delay = pollDelay(opts, state));
        if (Date.now() >= deadline) throw this.#timeout(maxWait);
        if (pushed && !sync) {
          await waiter.wait(deadline - Date.now(), signal);
          continue;
        }
        if (!sync) {
          if (!(await waiter.wait(Math.min(nextPoll, deadline) - Date.now(), signal))) continue;
          if (blocked()) {
            if (!paused) this.#emit('paused');
            paused = true;
            await whileBlocked(signal, waiter, deadline);
            continue;
          }
        }
        sync = false;
        paused = false;
        const previous = state;
        state = await this.#poll(signal, deadline, maxWait);
        const same = previous.status === state.status && previous.statusMessage === state.statusMessage && previous.lastUpdatedAt === state.lastUpdatedAt;
        delay = pollDelay(opts, state, same ? delay : undefined);
        // Jitter upwards only: never faster than the server suggests.
        nextPoll = Date.now() + delay * (1 + Math.random() * 0.2);
      }
    } catch (error) {
      throw await this.#failed(error, signal);
    } finally {
      this.#onStatus = previousListener;
      subscription?.close();
      offNotification?.();
      offStatus();
    }
  }

  /**
   * Answers the input requests not answered yet and sends them with `tasks/update`.
   * At most `maxRounds` rounds, as for MRTR: a task that keeps asking would
   * otherwise ask the user until the wait's cap (one dialog after another).
   * @returns whether it sent any.
   * @throws McpClientError `rounds_exceeded` (the task is cancelled).
   */
  async #answer(state: TaskState, signal: AbortSignal, maxRounds: number, deadline: number): Promise<boolean> {
    const open = Object.entries(state.inputRequests ?? {}).filter(([key]) => !this.#answered.has(key));
    if (open.length === 0) return false;
    if (this.#inputRounds >= maxRounds) {
      await this.#cancelQuietly();
      throw new McpClientError('rounds_exceeded', `${this.#describe()} still required input after ${maxRounds} rounds; it was cancelled`, { url: this.#url, method: this.method, taskId: this.taskId, maxRounds });
    }
    const client = this.#host.client;
    const { answerRound } = await import('../rounds/input.js');
    let responses;
    try {
      responses = await answerRound(
        this.#host.lookup,
        Object.fromEntries(open) as InputRequests,
        { callId: this.#callId, method: this.method, target: this.target, round: ++this.#inputRounds, server: client.server!, url: this.#url, taskId: this.taskId },
        this.#host.options,
        { signal, inflight: this.#host.inflight },
      );
    } catch (error) {
      // The task would wait for this input forever: cancel it, then report why.
      if (!signal.aborted) await this.#cancelQuietly();
      throw error;
    }
    for (const [key] of open) this.#answered.add(key);
    await this.#request('tasks/update', { taskId: this.taskId, inputResponses: responses }, { signal, ...budget(deadline) });
    this.#emit('answered', undefined, responses);
    return true;
  }

  /** The outcome of a terminal task (and, on 2025-11-25, of one that needs input: `tasks/result` carries its requests). */
  async #finish(state: TaskState, signal: AbortSignal, deadline: number): Promise<JsonObject> {
    if (state.status === 'cancelled') {
      await this.#forget();
      throw this.#report('cancelled', new McpClientError('task_cancelled', `${this.#describe()} was cancelled${state.statusMessage ? `: ${state.statusMessage}` : ''}`, { url: this.#url, method: this.method, taskId: this.taskId }));
    }
    if (this.#modern) {
      if (state.status === 'failed') {
        const error = state.error!;
        await this.#forget();
        // The original request's JSON-RPC error, as a synchronous call would have thrown it.
        throw this.#report('failed', new McpRpcError(error.code, error.message, error.data, { url: this.#url }));
      }
      const result = state.result!;
      if (result.resultType !== undefined && result.resultType !== 'complete') {
        // Terminal all the same: asking again after a reload would get the same answer.
        await this.#forget();
        throw new McpClientError('protocol', `The result of ${this.#describe()} has resultType ${JSON.stringify(result.resultType)}`, { url: this.#url, method: this.method, taskId: this.taskId });
      }
      await this.#forget();
      this.#emit('completed');
      return result;
    }
    // 2025-11-25: tasks/result blocks until the task is terminal and returns exactly what the request would have.
    const watch = new AbortController();
    if (!isTerminal(state.status)) void this.#watch(AbortSignal.any([signal, watch.signal]), deadline);
    try {
      const remaining = Math.max(1, deadline - Date.now());
      const result = await this.#request('tasks/result', { taskId: this.taskId }, { signal, timeoutMs: remaining, maxTotalTimeoutMs: remaining });
      await this.#forget();
      this.#emit('completed');
      return result;
    } catch (error) {
      if (McpRpcError.isInstance(error) && !signal.aborted) {
        const lost = error.code === ErrorCode.InvalidParams && !isTerminal(this.state?.status ?? 'working') ? this.#lost(error) : undefined;
        if (lost) throw lost;
        await this.#forget();
        throw this.#report('failed', error);
      }
      throw error;
    } finally {
      watch.abort();
    }
  }

  /** While a 2025-11-25 `tasks/result` is open: keep polling `tasks/get` for the status (and its message). */
  async #watch(signal: AbortSignal, deadline: number): Promise<void> {
    const waiter = new Waiter();
    const opts = taskOptions(this.#host);
    let delay = pollDelay(opts, this.state);
    try {
      while (!isTerminal(this.state?.status ?? 'working') && Date.now() < deadline) {
        await waiter.wait(delay, signal);
        await whileBlocked(signal, waiter, deadline);
        await this.#get({ signal, timeoutMs: Math.max(1, deadline - Date.now()) });
        delay = pollDelay(opts, this.state, delay);
      }
    } catch {
      // Status only: the outcome comes from tasks/result.
    }
  }

  #report(phase: 'failed' | 'cancelled', error: McpError): McpError {
    this.#reported.add(error);
    this.#emit(phase, error);
    return error;
  }

  async #cancelQuietly(): Promise<void> {
    try {
      await this.cancel({ signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) });
    } catch (error) {
      this.#host.warn('task-cancel-failed', `Could not cancel ${this.#describe()} at ${this.#url}: ${(error as Error).message}`);
    }
  }

  /** Turns a failure of the wait into what the caller gets, cancelling the task when the caller gave up. */
  async #failed(error: unknown, signal: AbortSignal): Promise<unknown> {
    if (signal.aborted) {
      const reason = signal.reason as unknown;
      if (McpClientError.isInstance(reason) && reason.code === 'detached') {
        this.#emit('detached');
        return reason;
      }
      if (McpClientError.isInstance(reason) && reason.code === 'closed') return reason;
      // The caller aborted: that is a cancellation of the task (tasks/cancel, never notifications/cancelled).
      await this.#cancelQuietly();
      return McpError.isInstance(reason) ? reason : new McpClientError('aborted', `${this.#describe()} was cancelled`, { url: this.#url, method: this.method, taskId: this.taskId }, { cause: reason });
    }
    const failure = McpError.isInstance(error) ? error : new McpClientError('protocol', String(error), { url: this.#url, taskId: this.taskId });
    if (this.#reported.has(failure)) return failure;
    if (McpClientError.isInstance(failure) && failure.code === 'task_not_found') {
      await this.#forget();
      this.#emit('lost', failure);
    } else this.#emit('error', failure);
    return failure;
  }
}

// --- entry points (called by the client) ---------------------------------------------------------

/**
 * 2025-11-25 "Tool-Level Negotiation": adds `params.task` to a `tools/call` when
 * the server declares `tasks.requests.tools.call` and the tool's
 * `execution.taskSupport` is `required` (or `optional` and the caller asked).
 */
export function augment(host: TaskHost, params: JsonObject, tool: Tool | undefined, options: TaskCallerOptions): void {
  const capability = host.client.server?.capabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  if (!host.options.tasks || !isObject(capability?.requests?.tools?.call)) return;
  const support = isObject(tool?.execution) ? tool.execution.taskSupport : undefined;
  if (support === 'required' || (support === 'optional' && options.task?.augment)) {
    const ttl = taskOptions(host).ttlMs;
    params.task = ttl !== undefined ? { ttl } : {};
  }
}

/**
 * Follows the task a request was answered with, to its outcome.
 * @param created - the `CreateTaskResult` (2026-07-28: flat, `resultType: "task"`; 2025-11-25: `{ task }`).
 */
export async function follow(host: TaskHost, method: string, params: JsonObject, target: string | undefined, created: JsonObject, options: TaskCallerOptions, callId: number): Promise<JsonObject> {
  const modern = host.client.server?.era !== 'legacy';
  // A 2025-11-25 server that ignored the task augmentation answered with the result itself.
  if (!modern && !isObject(created.task)) return created;
  const state = parseTask(modern ? created : created.task, { url: host.client.url.href, method, modern, detailed: false });
  const task = new Task(host, state.taskId, { method, target, params, callId, ...(modern ? {} : { sessionId: host.sessionId() }) });
  host.emit({ phase: 'created', taskId: task.taskId, method, target, state });
  task.adopt(state);
  // adopt() queued the write of a task still running; one created already over is stored too, until its outcome is delivered.
  await (isTerminal(state.status) ? task.remember() : task.stored());
  options.task?.onCreated?.(task);
  return task.result({ signal: options.signal, onStatus: options.task?.onStatus, maxWaitMs: options.task?.maxWaitMs, ...(options.maxRounds !== undefined ? { maxRounds: options.maxRounds } : {}) });
}

/** A handle to a task by id (re-attach); what is stored about it fills in the request it stands for. */
export async function attach(host: TaskHost, taskId: string, info: TaskInfo = {}): Promise<TaskHandle> {
  const stored = (await storedTasks(host)).tasks.find((record) => record.taskId === taskId);
  return new Task(host, taskId, {
    method: info.method ?? stored?.method,
    target: info.target ?? stored?.target,
    params: info.params ?? stored?.params,
    startedAt: stored?.startedAt,
    sessionId: stored?.sessionId,
    stored,
  });
}

/**
 * The entries of a 2025-11-25 `tasks/list` listing (the client follows its
 * pages, bounded like the other lists) as task states. Malformed entries are
 * left out with a warning.
 */
export async function listTasks(host: TaskHost, entries: unknown[]): Promise<TaskState[]> {
  const url = host.client.url.href;
  const states: TaskState[] = [];
  for (const entry of entries) {
    try {
      states.push(parseTask(entry, { url, method: 'tasks/list', modern: false }));
    } catch (error) {
      host.warn('task-list-malformed', (error as Error).message);
    }
  }
  return states;
}
