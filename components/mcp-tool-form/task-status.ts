/**
 * What `<mcp-tool-form>` shows while a call runs as a task (Tasks extension;
 * 2025-11-25 tasks), and the pick-up of a task a previous page left running.
 * Kept apart from the form so the form only wires it in.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { McpClient, StoredTask, TaskState, TaskStatus } from '../../src/index.js';
import { clip } from '../internal/json.js';
import { DESCRIPTION_CHARS, LABEL_CHARS } from '../internal/long-list.js';

/** A task the form is waiting for. */
export interface FormTask {
  taskId: string;
  status: TaskStatus;
  /** The server's status message (untrusted text). */
  statusMessage?: string;
  /** When the call started, ms since the epoch. */
  startedAt: number;
  /** Picked up from a previous page (after a reload or a crash). */
  resumed: boolean;
}

/** "just now", "1 min ago", "4 min ago", "2 h ago", "3 days ago". */
export function startedAgo(startedAt: number, now = Date.now()): string {
  const minutes = Math.floor(Math.max(0, now - startedAt) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

const WORDS: Record<TaskStatus, string> = {
  working: 'Running',
  input_required: 'Waiting for input',
  completed: 'Finished',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * The one-line summary: "Still running, started 4 min ago" for a task picked up
 * after a reload (working or waiting for input: the status message says which);
 * "Running as a task, started just now", "Waiting for input, …" otherwise.
 */
export function taskSummary(task: FormTask, now = Date.now()): string {
  const started = `started ${startedAgo(task.startedAt, now)}`;
  if (task.resumed && (task.status === 'working' || task.status === 'input_required')) return `Still running, ${started}`;
  if (task.status === 'working') return `Running as a task, ${started}`;
  return `${WORDS[task.status]}, ${started}`;
}

/** The task line of the form, in place of the progress bar (a live region: status changes are announced). The server's status message is cut past DESCRIPTION_CHARS. */
export function renderTask(task: FormTask): TemplateResult {
  return html`<div part="task" role="status" aria-live="polite">
    <progress part="progress-bar" aria-label="Task progress"></progress>
    <span part="task-status">${taskSummary(task)}</span>
    ${task.statusMessage ? html`<span part="task-message">${clip(task.statusMessage, DESCRIPTION_CHARS)}</span>` : nothing}
  </div>`;
}

/** The form's view of a new task state. */
export function withState(task: FormTask, state: TaskState): FormTask {
  return { ...task, status: state.status, ...(state.statusMessage !== undefined ? { statusMessage: state.statusMessage } : { statusMessage: undefined }) };
}

/**
 * The task a previous page left running for this tool (the newest), and those
 * of this tool that expired before their result was picked up.
 */
export async function storedFor(client: McpClient, toolName: string): Promise<{ running: StoredTask | undefined; expired: StoredTask[] }> {
  try {
    const { tasks, expired } = await client.storedTasks();
    const mine = (t: StoredTask) => t.method === 'tools/call' && t.target === toolName;
    return { running: tasks.find(mine), expired: expired.filter(mine) };
  } catch {
    return { running: undefined, expired: [] };
  }
}

/** What to say about tasks that expired before their result was picked up. */
export function expiredNotice(name: string, expired: StoredTask[]): string {
  const toolName = clip(name, LABEL_CHARS);
  const newest = expired.reduce((a, b) => (b.startedAt > a.startedAt ? b : a));
  return expired.length === 1
    ? `A call of ${toolName} started ${startedAgo(newest.startedAt)} expired at the server before its result could be picked up.`
    : `${expired.length} calls of ${toolName} expired at the server before their results could be picked up (the last started ${startedAgo(newest.startedAt)}).`;
}

/**
 * What to say when the server no longer knows a picked-up task (`task_not_found`): "expired"
 * only when its TTL has passed (`data.expired`); else the server lost it (a restart, a
 * session it no longer keeps).
 */
export function notFoundNotice(name: string, startedAt: number | undefined, data: unknown): string {
  const call = `The call of ${clip(name, LABEL_CHARS)} started ${startedAt !== undefined ? startedAgo(startedAt) : 'earlier'}`;
  return (data as { expired?: unknown } | undefined)?.expired === true
    ? `${call} expired at the server (its time to live has passed); its result is lost.`
    : `${call} is no longer known to the server, though its time to live has not passed (the server lost it, e.g. in a restart); its result is lost.`;
}
