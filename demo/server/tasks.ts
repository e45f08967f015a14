/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) for servers
 * built with the official SDK, which has no runtime for it (its 2.x task types
 * are 2025-11-25 wire vocabulary only). Used by the demo server and the core
 * tests; written from the ext-tasks specification (specification/draft/tasks.md):
 *
 * - a tool handler calls {@link TaskRegistry.start} to answer with a
 *   `CreateTaskResult` (`resultType: "task"`, flat task fields) when the
 *   request declared the extension ("Capability Negotiation"), the work then
 *   runs in the background;
 * - `tasks/get` returns the detailed task (`inputRequests` while
 *   `input_required`, `result` once `completed`, `error` once `failed`);
 * - `tasks/update` takes `inputResponses` for outstanding keys only, each once;
 * - `tasks/cancel` acknowledges and cancels cooperatively;
 * - `subscriptions/listen` with `notifications.taskIds` streams
 *   `notifications/tasks` (the SDK's listen router knows no `taskIds`, so the
 *   HTTP layer hands such requests to {@link TaskRegistry.serveListen}).
 *
 * Tasks live in memory for `ttlMs` after creation; then `tasks/get` answers
 * -32602 like for an id that never existed.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { fromJsonSchema, ProtocolError, type CallToolResult, type McpServer } from '@modelcontextprotocol/server';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

type Json = Record<string, unknown>;
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A JSON-RPC error a task's work can fail with (the task becomes `failed`). */
export class TaskFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** What the work of a task can do while it runs. */
export interface TaskContext {
  readonly taskId: string;
  /** Aborted when the client cancels the task. */
  readonly signal: AbortSignal;
  /** Reports progress as the status message (status stays `working`). */
  progress(message: string): void;
  /**
   * Asks the client for input: the task is `input_required` with this request
   * under `key` until a `tasks/update` answers it. Keys must be unique over the task's life.
   */
  input(key: string, request: { method: string; params?: Json }, message?: string): Promise<Json>;
}

interface TaskRecord {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  inputRequests: Map<string, { method: string; params?: Json }>;
  waiting: Map<string, (response: Json) => void>;
  /** Keys ever issued (a key is never reused). */
  issued: Set<string>;
  result?: Json;
  error?: Json;
  controller: AbortController;
  expiresAt: number;
}

export interface TaskRegistryOptions {
  /** Suggested polling interval, ms; default 1,000. */
  pollIntervalMs?: number;
  /** How long a task is kept after creation, ms; default 600,000. */
  ttlMs?: number;
  /** Serve `notifications/tasks` on `subscriptions/listen` (default true). */
  notifications?: boolean;
}

const JSON_RPC_INVALID_PARAMS = -32602;
const TERMINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/** Whether the request declared the Tasks extension in its per-request capabilities. */
export function declaresTasks(ctx: { mcpReq?: { envelope?: Json } }): boolean {
  const capabilities = ctx.mcpReq?.envelope?.['io.modelcontextprotocol/clientCapabilities'] as { extensions?: Json } | undefined;
  return typeof capabilities?.extensions?.[TASKS_EXTENSION] === 'object';
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The tasks of one server (shared by the per-request server instances of a stateless handler). */
export class TaskRegistry {
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #listeners = new Set<(task: Json) => void>();
  readonly options: Required<TaskRegistryOptions>;
  /** Every tasks/* request received (method and task id), and each task id a listen stream acknowledged (method `subscriptions/listen`), in order, for tests. */
  readonly log: { method: string; taskId: string }[] = [];

  constructor(options: TaskRegistryOptions = {}) {
    this.options = { pollIntervalMs: options.pollIntervalMs ?? 1000, ttlMs: options.ttlMs ?? 600_000, notifications: options.notifications ?? true };
  }

  /**
   * Starts `work` as a task and returns the `CreateTaskResult` to answer the
   * request with. The task is stored before this returns ("Task Creation": a
   * `tasks/get` for the id resolves at once).
   */
  start(work: (task: TaskContext) => Promise<CallToolResult>, statusMessage?: string): CallToolResult {
    const now = new Date().toISOString();
    const record: TaskRecord = {
      // Unguessable ids ("Security Considerations": ids act as bearer tokens here).
      taskId: randomBytes(16).toString('hex'),
      status: 'working',
      ...(statusMessage ? { statusMessage } : {}),
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.options.ttlMs,
      pollIntervalMs: this.options.pollIntervalMs,
      inputRequests: new Map(),
      waiting: new Map(),
      issued: new Set(),
      controller: new AbortController(),
      expiresAt: Date.now() + this.options.ttlMs,
    };
    this.#tasks.set(record.taskId, record);
    const context: TaskContext = {
      taskId: record.taskId,
      signal: record.controller.signal,
      progress: (message) => this.#set(record, 'working', message),
      input: (key, request, message) =>
        new Promise<Json>((resolve, reject) => {
          if (record.issued.has(key)) return reject(new Error(`input key ${key} was already used`));
          record.issued.add(key);
          record.inputRequests.set(key, request);
          record.waiting.set(key, resolve);
          record.controller.signal.addEventListener('abort', () => reject(record.controller.signal.reason), { once: true });
          this.#set(record, 'input_required', message ?? record.statusMessage);
        }),
    };
    void work(context).then(
      (result) => {
        if (TERMINAL.has(record.status)) return;
        record.result = result as Json;
        this.#set(record, 'completed', record.statusMessage);
      },
      (error: unknown) => {
        if (TERMINAL.has(record.status)) return;
        const failure = error instanceof TaskFailure ? error : new TaskFailure(-32603, error instanceof Error ? error.message : String(error));
        record.error = { code: failure.code, message: failure.message, ...(failure.data !== undefined ? { data: failure.data } : {}) };
        this.#set(record, 'failed', `Failed: ${failure.message}`);
      },
    );
    return { resultType: 'task', ...this.#wire(record, false) } as unknown as CallToolResult;
  }

  #set(record: TaskRecord, status: TaskStatus, statusMessage: string | undefined): void {
    if (TERMINAL.has(record.status)) return;
    record.status = status;
    if (statusMessage === undefined) delete record.statusMessage;
    else record.statusMessage = statusMessage;
    record.lastUpdatedAt = new Date().toISOString();
    const snapshot = this.#wire(record, true);
    for (const listener of this.#listeners) listener(snapshot);
  }

  /** The task as sent on the wire: `Task`, or the detailed variant (tasks/get, notifications/tasks). */
  #wire(record: TaskRecord, detailed: boolean): Json {
    const task: Json = {
      taskId: record.taskId,
      status: record.status,
      ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
      createdAt: record.createdAt,
      lastUpdatedAt: record.lastUpdatedAt,
      ttlMs: record.ttlMs,
      pollIntervalMs: record.pollIntervalMs,
    };
    if (!detailed) return task;
    if (record.status === 'input_required') task.inputRequests = Object.fromEntries(record.inputRequests);
    if (record.status === 'completed') task.result = record.result;
    if (record.status === 'failed') task.error = record.error;
    return task;
  }

  #find(taskId: unknown, method: string): TaskRecord {
    if (typeof taskId === 'string') this.log.push({ method, taskId });
    const record = typeof taskId === 'string' ? this.#tasks.get(taskId) : undefined;
    if (record && record.expiresAt <= Date.now()) {
      this.#tasks.delete(record.taskId);
      record.controller.abort(new Error('expired'));
      throw new RpcError(JSON_RPC_INVALID_PARAMS, 'Failed to retrieve task: Task has expired');
    }
    if (!record) throw new RpcError(JSON_RPC_INVALID_PARAMS, 'Failed to retrieve task: Task not found');
    return record;
  }

  /** `tasks/get` (Tasks extension "Task Polling"). */
  get(taskId: unknown): Json {
    return this.#wire(this.#find(taskId, 'tasks/get'), true);
  }

  /** `tasks/update`: answers for outstanding keys; unknown or answered keys are ignored ("Task Update Requests"). */
  update(taskId: unknown, inputResponses: unknown): Json {
    const record = this.#find(taskId, 'tasks/update');
    if (typeof inputResponses !== 'object' || inputResponses === null) throw new RpcError(JSON_RPC_INVALID_PARAMS, 'inputResponses must be an object');
    for (const [key, response] of Object.entries(inputResponses as Json)) {
      const resolve = record.waiting.get(key);
      if (!resolve) continue;
      record.waiting.delete(key);
      record.inputRequests.delete(key);
      resolve(response as Json);
    }
    if (record.status === 'input_required' && record.inputRequests.size === 0) this.#set(record, 'working', record.statusMessage);
    return {};
  }

  /** `tasks/cancel`: acknowledged; the work is told through its signal ("Task Cancellation"). */
  cancel(taskId: unknown): Json {
    const record = this.#find(taskId, 'tasks/cancel');
    if (!TERMINAL.has(record.status)) {
      this.#set(record, 'cancelled', 'Cancelled by the client');
      record.controller.abort(new Error('cancelled'));
    }
    return {};
  }

  /** Ids of tasks that were cancelled (for tests). */
  get cancelled(): string[] {
    return [...this.#tasks.values()].filter((t) => t.status === 'cancelled').map((t) => t.taskId);
  }

  /** A task's status, for tests. */
  status(taskId: string): TaskStatus | undefined {
    return this.#tasks.get(taskId)?.status;
  }

  /** Registers `tasks/get`, `tasks/update` and `tasks/cancel` on a server built with the official SDK. */
  install(server: McpServer): void {
    const params = (properties: Json, required: string[]) => ({ params: fromJsonSchema({ type: 'object', properties, required } as never) });
    type Ctx = { mcpReq?: { envelope?: Json; inputResponses?: Json } };
    const handle = (fn: (p: Json, ctx: Ctx) => Json) => async (p: Json, ctx: Ctx) => {
      if (!declaresTasks(ctx)) throw rpcError(-32021, 'Missing required client capability', { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
      try {
        return fn(p, ctx);
      } catch (error) {
        if (error instanceof RpcError) throw rpcError(error.code, error.message);
        throw error;
      }
    };
    const low = server.server as unknown as { setRequestHandler(method: string, schemas: unknown, handler: (p: Json, ctx: never) => Promise<Json>): void };
    low.setRequestHandler('tasks/get', params({ taskId: { type: 'string' } }, ['taskId']), handle((p) => this.get(p.taskId)));
    // The SDK lifts `inputResponses` (a name MRTR reserves on requests) into the handler's context.
    low.setRequestHandler('tasks/update', params({ taskId: { type: 'string' } }, ['taskId']), handle((p, ctx) => this.update(p.taskId, ctx.mcpReq?.inputResponses)));
    low.setRequestHandler('tasks/cancel', params({ taskId: { type: 'string' } }, ['taskId']), handle((p) => this.cancel(p.taskId)));
  }

  /**
   * Whether an HTTP request body is a `subscriptions/listen` asking for task
   * notifications, which {@link serveListen} answers (the SDK's router cannot).
   */
  wantsListen(body: unknown): boolean {
    const message = body as { method?: unknown; params?: { notifications?: { taskIds?: unknown } } } | undefined;
    return this.options.notifications && message?.method === 'subscriptions/listen' && Array.isArray(message.params?.notifications?.taskIds);
  }

  /**
   * Serves a `subscriptions/listen` for task ids: acknowledges the known ids
   * (and only those: other filter members are not honoured here), then sends
   * `notifications/tasks` with the detailed task on each change, until the
   * client closes the stream.
   */
  serveListen(body: { id: string | number; params: { notifications: { taskIds: unknown[] }; _meta?: Json } }, res: ServerResponse): void {
    const envelope = body.params._meta ?? {};
    if (!declaresTasks({ mcpReq: { envelope } })) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32021, message: 'Missing required client capability', data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } } }));
      return;
    }
    const ids = body.params.notifications.taskIds.filter((id): id is string => typeof id === 'string' && this.#tasks.has(id));
    const meta = { 'io.modelcontextprotocol/subscriptionId': body.id };
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const send = (method: string, params: Json) => res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, _meta: meta } })}\n\n`);
    send('notifications/subscriptions/acknowledged', { notifications: { taskIds: ids } });
    for (const id of ids) this.log.push({ method: 'subscriptions/listen', taskId: id });
    const listener = (task: Json) => {
      if (ids.includes(task.taskId as string)) send('notifications/tasks', task);
    };
    this.#listeners.add(listener);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    res.on('close', () => {
      clearInterval(keepAlive);
      this.#listeners.delete(listener);
    });
  }
}

/** An error the SDK sends as a JSON-RPC error with this code. */
function rpcError(code: number, message: string, data?: unknown): Error {
  return new ProtocolError(code as never, message, data as never);
}
