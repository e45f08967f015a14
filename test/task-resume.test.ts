/**
 * A 2025-11-25 task picked up after a reload: server-everything keeps tasks per
 * session, so the handle keeps the session the task was created in and the
 * reloaded page (a second client instance with the same store) asks about the
 * task on that session; when the server no longer knows that session, the
 * current one is asked, and a task unknown there is "lost", not "expired".
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { McpClient, type StoredTask, type TaskStore, type ToolCallResult } from '../src/index.js';
import { recordingFetch, startEverything, type ChildServer } from './support/legacy-servers.js';

/** A store two client instances share, as two loads of one page share IndexedDB. */
class SharedStore implements TaskStore {
  readonly records = new Map<string, StoredTask>();
  async put(record: StoredTask) {
    this.records.set(record.taskId, structuredClone(record));
  }
  async delete(record: Pick<StoredTask, 'taskId'>) {
    this.records.delete(record.taskId);
  }
  async list(url: string) {
    return [...this.records.values()].filter((r) => r.url === url).map((r) => structuredClone(r));
  }
}

const quiet = { onWarning: () => {} };
const textOf = (result: unknown) => ((result as ToolCallResult).content?.[0] as { text: string }).text;

describe('a 2025-11-25 task after a reload (server-everything)', () => {
  let everything: ChildServer;
  beforeAll(async () => {
    everything = await startEverything('streamableHttp');
  }, 30_000);
  afterAll(() => everything?.close());

  /** The first page: starts a task and goes away without ending its session (a reload sends no DELETE). */
  async function firstPage(store: TaskStore, topic: string) {
    const client = new McpClient(everything.url, { protocol: 'legacy', tasks: { store }, ...quiet });
    const detached = await client.callTool('simulate-research-query', { topic }, { task: { onCreated: (h) => h.detach() } }).catch((e) => e);
    expect(detached.code).toBe('detached');
    return { client, taskId: detached.data.taskId as string };
  }

  test('the reloaded page asks on the session the task was created in and gets its result', { timeout: 60_000 }, async () => {
    const store = new SharedStore();
    const first = await firstPage(store, 'resumed sessions');
    const record = store.records.get(first.taskId)!;
    expect(record.sessionId).toMatch(/^[\x21-\x7e]+$/);

    const recorder = recordingFetch();
    const reloaded = new McpClient(everything.url, { protocol: 'legacy', tasks: { store }, fetch: recorder.fetch, ...quiet });
    await reloaded.connect();
    const initialize = recorder.records.find((r) => (r.body as { method?: string })?.method === 'initialize');
    expect(initialize).toBeDefined();
    const stored = (await reloaded.storedTasks()).tasks;
    expect(stored.map((t) => t.taskId)).toEqual([first.taskId]);
    const result = await (await reloaded.task(first.taskId)).result();
    expect(textOf(result)).toMatch(/# Research Report: resumed sessions/);
    // Every request about the task went to its own session, not the reloaded page's new one.
    const about = recorder.records.filter((r) => (r.body as { params?: { taskId?: string } })?.params?.taskId === first.taskId);
    expect(about.map((r) => (r.body as { method: string }).method)).toContain('tasks/result');
    for (const request of about) expect(request.headers['mcp-session-id']).toBe(record.sessionId);
    expect(store.records.has(first.taskId)).toBe(false);
    await reloaded.close();
    await first.client.close();
  });

  test('a session the server no longer knows: the current session is asked, and a task unknown there is lost, not expired', { timeout: 60_000 }, async () => {
    const store = new SharedStore();
    const first = await firstPage(store, 'a forgotten session');
    // The server forgets the first session (its DELETE ends it), its tasks with it.
    await first.client.close();
    expect(store.records.has(first.taskId)).toBe(true);

    const warnings: string[] = [];
    const reloaded = new McpClient(everything.url, { protocol: 'legacy', tasks: { store }, onWarning: (w) => warnings.push(w.code) });
    const phases: string[] = [];
    reloaded.on('task', (event) => phases.push(event.phase));
    const error = await (await reloaded.task(first.taskId)).result().catch((e) => e);
    expect(warnings).toContain('task-session-gone');
    expect(error.code).toBe('task_not_found');
    expect(error.data).toMatchObject({ expired: false, lost: true });
    expect(error.message).toMatch(/the server lost the task/);
    expect(error.message).not.toMatch(/TTL has elapsed/);
    expect(phases.at(-1)).toBe('lost');
    // The client's own session was not restarted by the earlier session's 404.
    expect(warnings).not.toContain('legacy-session-restarted');
    expect(store.records.has(first.taskId)).toBe(false);
    await reloaded.close();
  });
});
