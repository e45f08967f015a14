/**
 * `<mcp-tool-form>` with calls that run as tasks, in real Chromium against the
 * demo server's `run_pipeline` (Tasks extension): the task line and status
 * message, Cancel sending `tasks/cancel`, polling paused while the page is
 * hidden, and the pick-up of a task a previous page left running.
 *
 * The page is hidden the way a browser hides it: `document.visibilityState`
 * becomes "hidden" and `visibilitychange` fires. What is asserted is the real
 * requests the client sent.
 */
import { afterEach, describe, expect, inject, test, vi } from 'vitest';
import { McpClient, type TaskEvent, type ToolCallResult } from '../../src/index.js';
import { IdbTaskStore } from '../../src/tasks/task-idb.js';
import '../index.js';
import type { McpToolForm } from './mcp-tool-form.js';
import { render } from 'lit';
import { DESCRIPTION_CHARS } from '../internal/long-list.js';
import { renderTask, startedAgo, taskSummary } from './task-status.js';

/** Waits for real events; generous, for a busy machine. */
const WAIT = { timeout: 15_000, interval: 25 };

const demoUrl = () => inject('demoServerUrl');

interface Sent {
  method: string;
  taskId?: string;
}

/** A client for the demo server that records the JSON-RPC requests it sends. */
function recordingClient(options: { notifications?: boolean } = {}): { client: McpClient; sent: Sent[] } {
  const sent: Sent[] = [];
  const client = new McpClient(demoUrl(), {
    protocol: 'modern',
    tasks: { notifications: options.notifications ?? false },
    onWarning: () => {},
    fetch: (input, init) => {
      if (typeof init?.body === 'string') {
        const body = JSON.parse(init.body) as { method?: string; params?: { taskId?: string } };
        if (body.method) sent.push({ method: body.method, taskId: body.params?.taskId });
      }
      return fetch(input, init);
    },
  });
  return { client, sent };
}

async function mountForm(client: McpClient, toolName = 'run_pipeline'): Promise<McpToolForm> {
  const form = document.createElement('mcp-tool-form');
  form.client = client;
  form.toolName = toolName;
  form.noDrafts = true;
  document.body.append(form);
  await vi.waitFor(() => expect(form.shadowRoot!.querySelector('[part~="submit-button"]')).not.toBeNull(), WAIT);
  return form;
}

const part = (form: McpToolForm, name: string) => form.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const text = (form: McpToolForm, name: string) => part(form, name)?.textContent?.trim() ?? '';

function setVisibility(state: 'hidden' | 'visible'): void {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

afterEach(() => {
  // Back to the browser's own property.
  delete (document as { visibilityState?: unknown }).visibilityState;
  document.body.replaceChildren();
});

describe('a call that runs as a task', () => {
  test('shows the task status and the status message; Cancel sends tasks/cancel', async () => {
    const { client, sent } = recordingClient();
    const form = await mountForm(client);
    form.arguments = { service: 'shop', stepMs: 600_000 };
    void form.submit();
    await vi.waitFor(() => expect(text(form, 'task-status')).toBe('Running as a task, started just now'), WAIT);
    await vi.waitFor(() => expect(text(form, 'task-message')).toBe('Checking out shop…'), WAIT);
    expect(form.task?.status).toBe('working');
    const taskId = form.task!.taskId;
    expect(part(form, 'task')!.getAttribute('role')).toBe('status');

    (part(form, 'cancel-button') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(text(form, 'status')).toMatch(/^Cancelled/), WAIT);
    expect(sent).toContainEqual({ method: 'tasks/cancel', taskId });
    expect(part(form, 'task')).toBeNull();
    expect(form.phase).toBe('idle');
    await client.close();
  });

  test('polling pauses while the page is hidden and resumes on visibilitychange', async () => {
    const { client, sent } = recordingClient();
    const events: TaskEvent[] = [];
    let taskId = '';
    client.on('task', (event) => {
      events.push(event);
      // Hidden before the first poll is due: no tasks/get may go out until the page is visible again.
      if (event.phase === 'created') {
        taskId = event.taskId;
        setVisibility('hidden');
      }
    });
    const form = await mountForm(client);
    form.arguments = { service: 'docs', stepMs: 100, approval: false };
    const submitted = form.submit();
    await vi.waitFor(() => expect(events.map((e) => e.phase)).toContain('paused'), { timeout: 15_000 });

    // Meanwhile the task finishes at the server (seen through another client, with its own requests).
    const other = new McpClient(demoUrl(), { protocol: 'modern', tasks: true, onWarning: () => {} });
    const handle = await other.task(taskId);
    await vi.waitFor(async () => expect((await handle.get()).status).toBe('completed'), { timeout: 15_000, interval: 200 });
    expect(sent.filter((s) => s.method === 'tasks/get')).toEqual([]);
    expect(form.phase).toBe('pending');

    setVisibility('visible');
    const result = (await submitted) as ToolCallResult;
    expect((result.content?.[0] as { text: string }).text).toBe('Deployed docs build #' + String((result.structuredContent as { build: number }).build) + '.');
    // One tasks/get picked up the finished task.
    expect(sent.filter((s) => s.method === 'tasks/get')).toEqual([{ method: 'tasks/get', taskId }]);
    await other.close();
    await client.close();
  });
});

describe('the form moved in the page while a task runs', () => {
  test('the task line and its status messages stay, and Cancel still sends tasks/cancel', async () => {
    const { client, sent } = recordingClient();
    const form = await mountForm(client);
    form.arguments = { service: 'shop', stepMs: 600_000 };
    void form.submit();
    await vi.waitFor(() => expect(text(form, 'task-message')).toBe('Checking out shop…'), WAIT);
    const taskId = form.task!.taskId;
    // A layout change moves the form (removed and added again).
    document.body.append(document.createElement('aside'));
    document.body.lastElementChild!.append(form);
    await form.updateComplete;
    expect(form.task?.taskId).toBe(taskId);
    expect(text(form, 'task-status')).toBe('Running as a task, started just now');
    expect(text(form, 'task-message')).toBe('Checking out shop…');
    (part(form, 'cancel-button') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(text(form, 'status')).toMatch(/^Cancelled/), WAIT);
    expect(sent).toContainEqual({ method: 'tasks/cancel', taskId });
    await client.close();
  });
});

describe('switching the form to another tool while a task runs', () => {
  test('the task is let go, not shown under the other tool: it stays stored, and going back picks it up with its result', async () => {
    const { client, sent } = recordingClient();
    const form = await mountForm(client);
    form.arguments = { service: 'search', stepMs: 150, approval: false };
    void form.submit();
    await vi.waitFor(() => expect(text(form, 'task-status')).toBe('Running as a task, started just now'), WAIT);
    const taskId = form.task!.taskId;

    form.toolName = 'get_weather';
    await vi.waitFor(() => expect(text(form, 'title')).toBe('Weather'), WAIT);
    expect(form.phase).toBe('idle');
    expect(part(form, 'task')).toBeNull();
    // Still running at the server, and still stored for a pick-up (not cancelled).
    expect(sent).not.toContainEqual({ method: 'tasks/cancel', taskId });
    expect((await client.storedTasks()).tasks.map((t) => t.taskId)).toContain(taskId);

    form.toolName = 'run_pipeline';
    const shown = await new Promise<CustomEvent>((resolve) => form.addEventListener('mcp-tool-result', (event) => resolve(event as unknown as CustomEvent), { once: true }));
    expect((shown.detail as { result: ToolCallResult }).result.structuredContent).toMatchObject({ service: 'search', deployed: true });
    await vi.waitFor(() => expect(form.shadowRoot!.querySelector('mcp-tool-result')).not.toBeNull(), WAIT);
    expect(sent.filter((s) => s.method === 'tools/call')).toHaveLength(1);
    await client.close();
  });
});

describe('after a reload', () => {
  test('the form picks up the task a previous page left running: "still running, started 4 min ago", then the result', async () => {
    // The previous page: a call that became a task, then the page went away (detached, not cancelled).
    const before = recordingClient();
    const detached = await before.client.callTool('run_pipeline', { service: 'billing', stepMs: 100 }, { task: { onCreated: (handle) => handle.detach() } }).catch((e) => e);
    expect(detached.code).toBe('detached');
    const taskId = detached.data.taskId as string;
    await before.client.close();
    // It started four minutes ago by the page's clock.
    const store = new IdbTaskStore();
    const [record] = (await store.list(demoUrl(), undefined)).filter((r) => r.taskId === taskId);
    expect(record).toMatchObject({ method: 'tools/call', target: 'run_pipeline', params: { name: 'run_pipeline', arguments: { service: 'billing', stepMs: 100 } } });
    await store.put({ ...record!, startedAt: Date.now() - 4 * 60_000 - 5_000 });

    // The reloaded page: a new client and a new form for the same tool. The task waits for an
    // approval, which the page gives only once the test has seen the form.
    const after = recordingClient();
    let approve!: () => void;
    const approved = new Promise<void>((resolve) => (approve = resolve));
    let asked = '';
    after.client.setInputHandler('elicitation/create', {
      modes: ['form'],
      handle: async (params, context) => {
        asked = `${params.message} (task ${context.taskId})`;
        await approved;
        return { action: 'accept', content: { approve: true, note: 'after the reload' } };
      },
    });
    const form = await mountForm(after.client);
    await vi.waitFor(() => expect(text(form, 'task-status')).toBe('Still running, started 4 min ago'), WAIT);
    expect(form.phase).toBe('pending');
    await vi.waitFor(() => expect(asked).toMatch(new RegExp(`of billing passed its tests\\. Deploy it to production\\? \\(task ${taskId}\\)`)), WAIT);
    expect(text(form, 'task-status')).toBe('Still running, started 4 min ago');
    expect(text(form, 'task-message')).toBe('Waiting for approval');
    approve();
    const shown = await new Promise<CustomEvent>((resolve) => form.addEventListener('mcp-tool-result', (event) => resolve(event as unknown as CustomEvent), { once: true }));
    expect((shown.detail as { result: ToolCallResult }).result.structuredContent).toMatchObject({ service: 'billing', deployed: true });
    await vi.waitFor(() => expect(form.shadowRoot!.querySelector('mcp-tool-result')).not.toBeNull(), WAIT);
    expect(after.sent.filter((s) => s.method === 'tools/call')).toEqual([]);
    expect(after.sent.some((s) => s.method === 'tasks/get' && s.taskId === taskId)).toBe(true);
    expect((await after.client.storedTasks()).tasks.map((t) => t.taskId)).not.toContain(taskId);
    await after.client.close();
  });

  test('a stored task that expired meanwhile is cleaned up and reported', async () => {
    const store = new IdbTaskStore();
    const hourAgo = Date.now() - 3_600_000;
    await store.put({ taskId: 'gone-1', url: demoUrl(), method: 'tools/call', target: 'run_pipeline', startedAt: hourAgo, status: 'working', createdAt: new Date(hourAgo).toISOString(), ttlMs: 60_000, updatedAt: hourAgo });
    const { client, sent } = recordingClient();
    const form = await mountForm(client);
    await vi.waitFor(() => expect(text(form, 'status')).toBe('A call of run_pipeline started 1 h ago expired at the server before its result could be picked up.'), WAIT);
    expect(form.phase).toBe('idle');
    expect(sent.some((s) => s.taskId === 'gone-1')).toBe(false);
    expect((await store.list(demoUrl(), undefined)).map((r) => r.taskId)).not.toContain('gone-1');
    await client.close();
  });
});

describe('a picked-up task the server does not know', () => {
  test('within its TTL it is reported as lost by the server, not as expired (issue 29 item 10)', async () => {
    const store = new IdbTaskStore();
    const recently = Date.now() - 4000;
    await store.put({ taskId: 'lost-1', url: demoUrl(), method: 'tools/call', target: 'run_pipeline', startedAt: recently, status: 'working', createdAt: new Date(recently).toISOString(), ttlMs: 600_000, updatedAt: recently });
    const { client, sent } = recordingClient();
    const form = await mountForm(client);
    await vi.waitFor(() => expect(text(form, 'status')).toBe('The call of run_pipeline started just now is no longer known to the server, though its time to live has not passed (the server lost it, e.g. in a restart); its result is lost.'), WAIT);
    expect(text(form, 'status')).not.toMatch(/expired/);
    expect(sent.some((s) => s.method === 'tasks/get' && s.taskId === 'lost-1')).toBe(true);
    expect((await store.list(demoUrl(), undefined)).map((r) => r.taskId)).not.toContain('lost-1');
    await client.close();
  });
});

describe('task texts', () => {
  test('started times and summaries', () => {
    const now = Date.UTC(2026, 6, 28, 12);
    expect(startedAgo(now - 20_000, now)).toBe('just now');
    expect(startedAgo(now - 4 * 60_000, now)).toBe('4 min ago');
    expect(startedAgo(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(startedAgo(now - 3 * 86_400_000, now)).toBe('3 days ago');
    expect(taskSummary({ taskId: 't', status: 'input_required', startedAt: now - 60_000, resumed: false }, now)).toBe('Waiting for input, started 1 min ago');
    expect(taskSummary({ taskId: 't', status: 'input_required', startedAt: now - 60_000, resumed: true }, now)).toBe('Still running, started 1 min ago');
    expect(taskSummary({ taskId: 't', status: 'working', startedAt: now, resumed: false }, now)).toBe('Running as a task, started just now');
  });

  test('a status message of megabytes is shown cut (issue 19 budget), as text', () => {
    const host = document.createElement('div');
    render(renderTask({ taskId: 't', status: 'working', statusMessage: `<b>x</b>${'m'.repeat(5 * 1024 * 1024)}`, startedAt: Date.now(), resumed: false }), host);
    const message = host.querySelector('[part="task-message"]')!;
    expect(message.textContent).toBe(`<b>x</b>${'m'.repeat(DESCRIPTION_CHARS - 8)}…`);
    expect(message.querySelector('b')).toBeNull();
  });
});
