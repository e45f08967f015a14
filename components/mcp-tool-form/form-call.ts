/**
 * The call `<mcp-tool-form>` waits for: `tools/call` with the server's
 * progress and, when the server runs it as a task (Tasks extension;
 * 2025-11-25 basic/utilities/tasks), the task's status, refreshed while it
 * runs ("started 4 min ago"); Cancel; letting go of a call when the form shows
 * another tool; and the pick-up of a task a previous page left running. The
 * form validates and confirms before, and decides what each outcome shows and
 * fires the events (see {@link CallReport}); this keeps the call.
 *
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isAbortError, McpClientError, McpError, type McpClient, type StoredTask, type TaskHandle, type TaskState, type Tool, type ToolCallResult } from '../../src/index.js';
import type { JsonRecord } from '../internal/json.js';
import { withState, type FormTask } from './task-status.js';

/**
 * What the form makes of a call's (or a picked-up task's) end: one of
 * `result`, `cancelled` or `failed`, then `ended` if the form still waited for
 * it (it did not let go of it meanwhile).
 */
export interface CallReport {
  /** The result; not `shown` when the form let go of the call meanwhile (it shows another tool: the event still says it). */
  result(result: ToolCallResult, shown: boolean): void;
  /** Stopped by the user. */
  cancelled(): void;
  /** Failed, as a kit error. */
  failed(error: McpError): void;
  /** The form no longer waits for the call. */
  ended(): void;
}

/** The server's last progress notification of the running call. */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** A failure of `method` as a kit error: one already, or else a network failure. */
export function kitError(error: unknown, client: McpClient, method: string): McpError {
  return McpError.isInstance(error) ? error : new McpClientError('network', String(error), { url: client.url.href, method });
}

/** The call (or picked-up task) the form waits for: the tool it is of, and what aborts it. */
interface Run {
  tool: string;
  abort: AbortController;
  handle?: TaskHandle;
}

/** Keeps the call of one `<mcp-tool-form>` (see the module). */
export class FormCall implements ReactiveController {
  readonly #host: ReactiveControllerHost & Element;
  #running: Run | undefined;
  #progress: CallProgress | undefined;
  #task: FormTask | undefined;
  /** Refreshes "started N min ago" while a task runs. */
  #tick: ReturnType<typeof setInterval> | undefined;

  constructor(host: ReactiveControllerHost & Element) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    this.#tickWhile(this.#task !== undefined);
  }

  hostDisconnected(): void {
    // Off the page, "started N min ago" needs no refresh; a form moved in the page keeps its task (shown again, refreshed again).
    this.#tickWhile(false);
  }

  /** The server's progress of the running call. */
  get progress(): CallProgress | undefined {
    return this.#progress;
  }

  /** The task the running call waits for, when the server runs it as one. */
  get task(): FormTask | undefined {
    return this.#task;
  }

  /** The tool of the call or task the form waits for, if any. */
  get runningTool(): string | undefined {
    return this.#running?.tool;
  }

  /** Aborts the running call (the request's stream is closed: that is the cancellation). */
  cancel(): void {
    this.#running?.abort.abort();
  }

  /**
   * Calls `tool` with `args` and tells `report` how it ended.
   * @returns the result, or undefined when there is none.
   */
  async call(client: McpClient, tool: Tool, args: JsonRecord, report: CallReport): Promise<ToolCallResult | undefined> {
    const run = this.#start(tool.name);
    this.#setProgress(undefined);
    try {
      // A definition the client did not list itself (set through `.tool`) is passed along for headers and output validation.
      const own = client.tool(tool.name) === tool;
      const result = (await client.callTool(tool.name, args, {
        signal: run.abort.signal,
        onProgress: (progress) => {
          // A call the form let go of reports to no one: the progress shown may be a later call's.
          if (this.#running !== run) return;
          this.#setProgress({
            progress: progress.progress,
            ...(typeof progress.total === 'number' ? { total: progress.total } : {}),
            ...(typeof progress.message === 'string' ? { message: progress.message } : {}),
          });
        },
        ...(own ? {} : { tool }),
        task: {
          onCreated: (handle) => {
            run.handle = handle;
            if (this.#running === run) this.#setTask({ taskId: handle.taskId, status: handle.state?.status ?? 'working', statusMessage: handle.state?.statusMessage, startedAt: Date.now(), resumed: false });
          },
          onStatus: this.#onStatus(run),
        },
      })) as ToolCallResult;
      // The form shows another tool now: the outcome is not this form's to show (the event still says it).
      report.result(result, this.#running === run);
      return result;
    } catch (error) {
      if (this.#running !== run) return undefined;
      // Cancelled here, or stopped from the input dialog (which cannot reach this form's Cancel).
      if (isAbortError(error) && (run.abort.signal.aborted || (error as McpClientError).data.stoppedByUser === true)) report.cancelled();
      else report.failed(kitError(error, client, 'tools/call'));
      return undefined;
    } finally {
      this.#end(run, report);
    }
  }

  /**
   * Waits for the task of `tool` a previous page left running (stored per
   * server and authorization context by the client) and tells `report` how it ended.
   */
  async resume(client: McpClient, tool: string, stored: StoredTask, report: CallReport): Promise<void> {
    const run = this.#start(tool);
    this.#setTask({ taskId: stored.taskId, status: stored.status, statusMessage: stored.statusMessage, startedAt: stored.startedAt, resumed: true });
    try {
      const handle = (run.handle = await client.task(stored.taskId));
      // Let go of before the handle existed: nothing to wait for.
      if (this.#running !== run) return;
      const result = (await handle.result({ signal: run.abort.signal, onStatus: this.#onStatus(run) })) as ToolCallResult;
      report.result(result, this.#running === run);
    } catch (error) {
      if (this.#running !== run) return;
      if (isAbortError(error) && run.abort.signal.aborted) report.cancelled();
      else report.failed(kitError(error, client, 'tools/call'));
    } finally {
      this.#end(run, report);
    }
  }

  /**
   * The form now shows another tool: it stops waiting for the running call
   * without cancelling it. A task is detached (it goes on at the server and
   * stays stored, so coming back to its tool picks it up); a plain call runs to
   * its end, its result sent as `mcp-tool-result` but not shown under the other tool.
   */
  letGo(): void {
    const run = this.#running;
    this.#stopWaiting();
    run?.handle?.detach();
  }

  /** Waits for a new call or task of `tool` (one at a time: the form has let go of any other). */
  #start(tool: string): Run {
    const run: Run = { tool, abort: new AbortController() };
    this.#running = run;
    return run;
  }

  /** `run` is over: if the form still waited for it, it no longer does. */
  #end(run: Run, report: CallReport): void {
    if (this.#running !== run) return;
    this.#stopWaiting();
    report.ended();
  }

  #stopWaiting(): void {
    this.#running = undefined;
    this.#setProgress(undefined);
    this.#setTask(undefined);
  }

  /** A task status of `run`, shown while the form waits for it. */
  #onStatus(run: Run): (state: TaskState) => void {
    return (state) => {
      if (this.#running === run && this.#task) this.#setTask(withState(this.#task, state));
    };
  }

  #setProgress(progress: CallProgress | undefined): void {
    this.#progress = progress;
    this.#host.requestUpdate();
  }

  #setTask(task: FormTask | undefined): void {
    this.#task = task;
    this.#host.requestUpdate();
    this.#tickWhile(task !== undefined && this.#host.isConnected);
  }

  /** Refreshes "started N min ago" every 30 s while `on`. */
  #tickWhile(on: boolean): void {
    if (on && this.#tick === undefined) this.#tick = setInterval(() => this.#host.requestUpdate(), 30_000);
    if (!on && this.#tick !== undefined) {
      clearInterval(this.#tick);
      this.#tick = undefined;
    }
  }
}
