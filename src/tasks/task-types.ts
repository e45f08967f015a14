/**
 * Types of long-running calls (tasks): the 2026-07-28 Tasks extension
 * (`io.modelcontextprotocol/tasks`: `resultType: "task"`, `tasks/get`,
 * `tasks/update`, `tasks/cancel`, `notifications/tasks`) and the 2025-11-25
 * experimental tasks utility (basic/utilities/tasks: task-augmented requests,
 * `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`). Types only: the
 * machinery is in `./tasks.ts`, loaded when a task result arrives.
 *
 * @module
 */
import type { McpError } from '../protocol/errors.js';
import type { InputRequests, InputResponses, JsonObject, RequestId } from '../protocol/types.js';

/** Where a task is in its life (Tasks extension "Task Status"); the last three are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * A task as the client last saw it, the same shape for both eras: the
 * 2025-11-25 `ttl`/`pollInterval` are given as `ttlMs`/`pollIntervalMs`.
 * Everything in it came from the server: show `statusMessage` as text.
 */
export interface TaskState {
  taskId: string;
  status: TaskStatus;
  /** The server's human-readable status (progress, why it failed…). Untrusted text. */
  statusMessage?: string;
  /** ISO 8601 time the server created the task. */
  createdAt?: string;
  /** ISO 8601 time of the last status change. */
  lastUpdatedAt?: string;
  /** How long the server keeps the task after `createdAt`, in ms; null for unlimited. */
  ttlMs: number | null;
  /** The server's suggested polling interval, in ms. */
  pollIntervalMs?: number;
  /** 2026-07-28, `input_required`: the outstanding input requests, keyed by the server. */
  inputRequests?: InputRequests;
  /** 2026-07-28, `completed`: the final result of the original request. */
  result?: JsonObject;
  /** 2026-07-28, `failed`: the JSON-RPC error of the original request. */
  error?: { code: number; message: string; data?: unknown };
}

/**
 * What a task event reports (see `ClientEvents.task`). Sections: the 2026-07-28
 * Tasks extension (ext-tasks), else 2025-11-25 basic/utilities/tasks.
 */
export type TaskPhase =
  /** The server answered a request with a task (`resultType: "task"`; 2025-11-25 "Creating Tasks"). */
  | 'created'
  /** A new status or status message was seen, polled or pushed ("Task Status"). */
  | 'status'
  /** Polling is paused while the page is hidden or offline; it resumes on `visibilitychange`/`online` ("Task Polling"). */
  | 'paused'
  /** Input requests were answered and sent with `tasks/update` ("Task Update Requests"); 2025-11-25 tasks, answered on their `tasks/result` stream, have no such event. */
  | 'answered'
  /** The task completed; its result went to the caller as the original request's would have ("Task Status"; 2025-11-25 "Result Retrieval"). */
  | 'completed'
  /** The task failed; `error` is the original request's JSON-RPC error ("Task Status"; 2025-11-25 "Result Retrieval"). */
  | 'failed'
  /** The task was cancelled, by this client's `tasks/cancel` or at the server ("Task Cancellation"; 2025-11-25 "Task Cancellation"). */
  | 'cancelled'
  /** The caller stopped waiting; the task goes on at the server and can be re-attached by id ("Task Polling"). */
  | 'detached'
  /** The server does not know the task (any more): expired or never existed (-32602 to `tasks/get`; 2025-11-25 "Protocol Errors"). */
  | 'lost'
  /** Waiting ended with a local error (malformed task, time cap…), not one the protocol defines; `error` says which. */
  | 'error';

/** One event of a task: what happened, the task and the request it stands for. */
export interface TaskEvent {
  phase: TaskPhase;
  taskId: string;
  /** The original request's method (`tools/call`). */
  method: string;
  /** Tool name of the original request, when known. */
  target: string | undefined;
  /** The task as last seen, when there is one. */
  state?: TaskState;
  /** For `failed`, `lost` and `error`; for `cancelled` when a wait saw the status (`task_cancelled`), not after `cancel()`. */
  error?: McpError;
  /**
   * For `answered`: what was sent with `tasks/update`. A round the client
   * declined without asking (more than `maxInputRequests`) carries the
   * declined-round marker, as `RoundEvent.inputResponses` does.
   */
  inputResponses?: InputResponses;
}

/** Options of the task machinery (`McpClientOptions.tasks`). Times are in ms. */
export interface TaskOptions {
  /** Polling interval when the server suggests none; default 1,000. */
  defaultPollMs?: number;
  /** Floor of the polling interval, whatever the server suggests; default 50. */
  minPollMs?: number;
  /** Ceiling the backoff grows to while a task's status does not change (never below the server's suggestion); default 30,000. */
  maxPollMs?: number;
  /** Cap on waiting for one task; then the wait fails with `timeout` and the task is left running (re-attach by id). Default 3,600,000 (1 h). */
  maxWaitMs?: number;
  /** Follow `notifications/tasks` through `subscriptions/listen` when the server acknowledges them (then no polling); default true. */
  notifications?: boolean;
  /** 2025-11-25: the `ttl` asked for in task-augmented requests; default: none (the server's choice). */
  ttlMs?: number;
  /** Where handles are kept across reloads; default IndexedDB in browsers, memory elsewhere; `false` for none. */
  store?: TaskStore | false;
}

/** Per-call task options (`CallToolOptions.task`). */
export interface TaskCallOptions {
  /** Called once the server turned the call into a task; `handle.detach()` stops waiting without cancelling. */
  onCreated?(handle: TaskHandle): void;
  /** Called with every new status the client sees. */
  onStatus?(state: TaskState): void;
  /** 2025-11-25: ask for a task where the tool's `execution.taskSupport` is `optional` (it always is for `required`). */
  augment?: boolean;
  /** Overrides `TaskOptions.maxWaitMs` for this call. */
  maxWaitMs?: number;
}

/** Options of {@link TaskHandle.result}. */
export interface TaskWaitOptions {
  /** Aborting cancels the task (`tasks/cancel`) and rejects with `aborted`. */
  signal?: AbortSignal;
  /** Called with every new status the client sees. */
  onStatus?(state: TaskState): void;
  /** Overrides `TaskOptions.maxWaitMs`. */
  maxWaitMs?: number;
  /** Cap on rounds of input requests answered (`tasks/update`) before the task is cancelled with `rounds_exceeded`; default the client's `maxRounds` (10). */
  maxRounds?: number;
}

/**
 * A task the client follows or can follow: from `CallToolOptions.task.onCreated`,
 * or {@link McpClient.task} to re-attach by id (after a reload, from another
 * client instance).
 */
export interface TaskHandle {
  /** The id the server gave the task. */
  readonly taskId: string;
  /** The original request's method (`tools/call`), when known. */
  readonly method: string;
  /** The original request's target (the tool name), when known. */
  readonly target: string | undefined;
  /** The task as last seen (undefined before the first status). */
  readonly state: TaskState | undefined;
  /**
   * Waits for a terminal status: resolves with the final result (what the
   * original request would have returned), rejects with the `McpRpcError` of a
   * failed task, `McpClientError` `task_cancelled`, `task_not_found` (unknown
   * or expired id), `detached`, `timeout` (`maxWaitMs`; the task is left
   * running), `aborted` (the task was cancelled), `rounds_exceeded` (more
   * input rounds than `maxRounds`; the task was cancelled), `protocol` (malformed task).
   */
  result(options?: TaskWaitOptions): Promise<JsonObject>;
  /** One `tasks/get` (input requests are not answered). @throws as {@link result}, and `McpRpcError`. */
  get(options?: { signal?: AbortSignal }): Promise<TaskState>;
  /** Sends `tasks/cancel` (cooperative: the server may still finish the task) and forgets the stored handle. */
  cancel(options?: { signal?: AbortSignal }): Promise<void>;
  /** Stops waiting here without cancelling: `result()` rejects with `detached`; the stored handle stays. */
  detach(): void;
}

/** A task handle kept across reloads (per server URL and authorization context). */
export interface StoredTask {
  /** The id the server gave the task. */
  taskId: string;
  /** The MCP endpoint. */
  url: string;
  /** Identifies the authorization context (a hash, never a token); absent without authorization. */
  auth?: string;
  /** The original request's method and params (`{ name, arguments }` of a tool call). */
  method: string;
  /** The original request's target (the tool name). */
  target?: string;
  /** The original request's params. */
  params?: JsonObject;
  /** When this client started (or first attached to) the task, ms since the epoch. */
  startedAt: number;
  /**
   * 2025-11-25: the `Mcp-Session-Id` of the session the task was created in (servers may keep
   * tasks per session); a reloaded page asks about the task on that session. A secret, kept
   * with the handle in this origin's storage only.
   */
  sessionId?: string;
  /** Last seen: status, message, the server's times and TTL. */
  status: TaskStatus;
  /** The server's last status message (untrusted text). */
  statusMessage?: string;
  /** When the server created the task: its ISO 8601 timestamp, as sent. */
  createdAt?: string;
  /** How long the server keeps the task after creation, in ms; null: no limit given. */
  ttlMs: number | null;
  /** When the record was last written, ms since the epoch. */
  updatedAt: number;
}

/**
 * Storage of {@link StoredTask} records (Tasks extension "Task Polling": a
 * client may keep a task's id to poll it later). Implementations swallow
 * storage failures.
 */
export interface TaskStore {
  /** Writes (or replaces) the record of one task, keyed by `url`, `auth` and `taskId`. */
  put(record: StoredTask): Promise<void>;
  /** Deletes the record with this key, if any. */
  delete(record: Pick<StoredTask, 'url' | 'auth' | 'taskId'>): Promise<void>;
  /** Every record of one endpoint and authorization context. */
  list(url: string, auth: string | undefined): Promise<StoredTask[]>;
}

/** What {@link McpClient.storedTasks} returns. */
export interface StoredTasks {
  /** Tasks still within their TTL, newest first: re-attach with `client.task(taskId)`. */
  tasks: StoredTask[];
  /** Tasks whose TTL elapsed before their result was picked up; their records were deleted. */
  expired: StoredTask[];
}

/** Facts about a task to re-attach (shown in input dialogs and events). */
export interface TaskInfo {
  /** The original request's method (`tools/call`). */
  method?: string;
  /** The original request's target (the tool name). */
  target?: string;
  /** The original request's params (`{ name, arguments }`). */
  params?: JsonObject;
}

/** @internal The request a legacy input request belongs to (the `tasks/result` stream of a task). */
export interface InputOrigin {
  method: string;
  target: string | undefined;
  taskId: string;
  requestId?: RequestId;
}
