/**
 * Tasks: the 2026-07-28 Tasks extension against a server built with the
 * official SDK plus the extension (test/support/task-server.ts), the
 * 2025-11-25 experimental tasks against server-everything, and raw servers for
 * malformed answers a real server does not send.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { McpClient, McpClientError, McpRpcError, type InputContext, type StoredTask, type TaskEvent, type TaskHandle, type TaskState, type TaskStore, type ToolCallResult } from '../src/index.js';
import { startRawServer } from './support/servers.js';
import { startTaskServer, type TaskServer } from './support/task-server.js';
import { recordingFetch, startEverything, type ChildServer } from './support/legacy-servers.js';

/** Waits for real events; generous, for a busy machine. */
const WAIT = { timeout: 15_000, interval: 25 };

const quiet = { onWarning: () => {} };
const textOf = (result: unknown) => ((result as ToolCallResult).content?.[0] as { text: string }).text;

describe('2026-07-28 Tasks extension', () => {
  let server: TaskServer;
  beforeAll(async () => {
    server = await startTaskServer({ pollIntervalMs: 20 });
  });
  afterAll(() => server.close());

  const posts = (taskId?: string) => server.bodies().filter((b) => b && (!taskId || b.params?.taskId === taskId));
  const methodsFor = (taskId: string) => posts(taskId).map((b) => b.method);

  test('a long tool runs as a task: status messages, polling at the server interval with Mcp-Name, the result as a synchronous call returns it', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', tasks: true, ...quiet });
    const events: TaskEvent[] = [];
    client.on('task', (event) => events.push(event));
    const statuses: TaskState[] = [];
    let handle: TaskHandle | undefined;
    const result = await client.callTool('long_job', { steps: 3, delayMs: 30 }, { task: { onCreated: (h) => (handle = h), onStatus: (s) => statuses.push(s) } });

    expect(textOf(result)).toBe('done after 3 steps');
    expect(result.resultType).not.toBe('task');
    const taskId = handle!.taskId;
    expect(events[0]).toMatchObject({ phase: 'created', taskId, method: 'tools/call', target: 'long_job' });
    expect(events.at(-1)).toMatchObject({ phase: 'completed', taskId });
    expect(statuses.at(-1)?.status).toBe('completed');
    expect(statuses.map((s) => s.statusMessage)).toContain('step 3 of 3');

    const call = server.bodies().find((b) => b.method === 'tools/call' && b.params.name === 'long_job');
    expect(call.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    const gets = server.requests.filter((r) => r.body?.method === 'tasks/get' && r.body.params.taskId === taskId);
    expect(gets.length).toBeGreaterThan(0);
    for (const get of gets) {
      // Tasks extension "Streamable HTTP: Routing Headers".
      expect(get.headers['mcp-name']).toBe(taskId);
      expect(get.headers['mcp-method']).toBe('tasks/get');
      expect(get.body.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions['io.modelcontextprotocol/tasks']).toEqual({});
    }
    expect(methodsFor(taskId).filter((m) => m !== 'tasks/get')).toEqual([]);
    // Delivered: the stored handle is gone.
    expect((await client.storedTasks()).tasks.map((t) => t.taskId)).not.toContain(taskId);
  });

  test('without the tasks option the extension is not declared and the server answers inline', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    expect(textOf(await client.callTool('long_job', { steps: 1, delayMs: 1 }))).toBe('done after 1 steps');
    const call = server.bodies().filter((b) => b.method === 'tools/call').at(-1);
    expect(call.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions).toBeUndefined();
  });

  test('input_required: the request goes to the input handler once and the answer is sent with tasks/update', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', tasks: true, ...quiet });
    const seen: { params: unknown; context: InputContext }[] = [];
    client.setInputHandler('elicitation/create', {
      modes: ['form'],
      handle: async (params, context) => {
        seen.push({ params, context });
        return { action: 'accept', content: { approve: true, comment: 'ship it' } };
      },
    });
    let taskId = '';
    const result = await client.callTool('approval', { change: 'v2' }, { task: { onCreated: (h) => (taskId = h.taskId) } });
    expect(textOf(result)).toBe('approved v2 (ship it)');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.params).toMatchObject({ message: 'Approve v2?', requestedSchema: { required: ['approve'] } });
    expect(seen[0]!.context).toMatchObject({ key: 'approve', method: 'tools/call', target: 'approval', taskId, round: 1, url: server.url });
    const updates = server.requests.filter((r) => r.body?.method === 'tasks/update' && r.body.params.taskId === taskId);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.body.params.inputResponses).toEqual({ approve: { action: 'accept', content: { approve: true, comment: 'ship it' } } });
    expect(updates[0]!.headers['mcp-name']).toBe(taskId);
  });

  test('closing the client while a task waits for input: the open question is withdrawn (its signal aborts), the call fails as closed, the task stays stored', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', tasks: true, ...quiet });
    let asked: AbortSignal | undefined;
    const withdrawn = new Promise<unknown>((resolve) => {
      client.setInputHandler('elicitation/create', {
        modes: ['form'],
        // A user who never answers: only the signal ends the question.
        handle: (_params, context) =>
          new Promise((_resolve, reject) => {
            asked = context.signal;
            context.signal.addEventListener('abort', () => (resolve(context.signal.reason), reject(context.signal.reason)), { once: true });
          }),
      });
    });
    let taskId = '';
    const call = client.callTool('approval', { change: 'v3' }, { task: { onCreated: (h) => (taskId = h.taskId) } });
    const failed = call.then(() => undefined, (error: unknown) => error);
    await vi.waitFor(() => expect(asked).toBeDefined(), WAIT);
    expect(asked!.aborted).toBe(false);
    await client.close();
    expect(await withdrawn).toMatchObject({ code: 'closed' });
    const error = await failed;
    expect(error).toBeInstanceOf(McpClientError);
    expect((error as McpClientError).code).toBe('closed');
    // Nobody declined or cancelled: the task was not updated and can be picked up later.
    expect(server.requests.filter((r) => r.body?.params?.taskId === taskId && (r.body.method === 'tasks/update' || r.body.method === 'tasks/cancel'))).toEqual([]);
    const later = new McpClient(server.url, { protocol: 'modern', tasks: true, ...quiet });
    expect((await later.storedTasks()).tasks.map((t) => t.taskId)).toContain(taskId);
    await later.close();
  });

  test('a task asking for more inputs at once than maxInputRequests: declined without asking, sent with tasks/update, warned through onWarning', async () => {
    const warnings: { code: string; message: string }[] = [];
    const client = new McpClient(server.url, { protocol: 'modern', tasks: true, maxInputRequests: 3, onWarning: (w) => warnings.push(w) });
    let asked = 0;
    client.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => (asked++, { action: 'accept', content: { answer: 'yes' } }) });
    const events: TaskEvent[] = [];
    client.on('task', (event) => events.push(event));
    let taskId = '';
    const result = await client.callTool('questions', { count: 4 }, { task: { onCreated: (h) => (taskId = h.taskId) } });
    expect(textOf(result)).toBe('4 answers: decline ×4');
    expect(asked).toBe(0);
    expect(warnings.filter((w) => w.code === 'input-flood')).toHaveLength(1);
    expect(warnings.find((w) => w.code === 'input-flood')!.message).toContain('asked for 4 inputs in one round (more than maxInputRequests, 3)');
    const answered = events.find((e) => e.phase === 'answered' && e.taskId === taskId)!;
    expect((answered.inputResponses as Record<symbol, number>)[Symbol.for('mcp-web-elements.declined-round')]).toBe(4);
    expect(server.requests.filter((r) => r.body?.method === 'tasks/update' && r.body.params.taskId === taskId)).toHaveLength(1);

    // Within the cap, every question is asked.
    expect(textOf(await client.callTool('questions', { count: 3 }))).toBe('3 answers: accept ×3');
    expect(asked).toBe(3);
  });

  test('a task input the client cannot answer cancels the task and fails the call with the reason', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', tasks: true, ...quiet });
    let taskId = '';
    const error = await client.callTool('approval', {}, { task: { onCreated: (h) => (taskId = h.taskId) } }).catch((e) => e);
    expect(error).toBeInstanceOf(McpClientError);
    expect(error.code).toBe('input_unsupported');
    expect(server.registry.status(taskId)).toBe('cancelled');
  });

  test('cancellation: aborting the call sends tasks/cancel and rejects with aborted', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', tasks: true, ...quiet });
    const controller = new AbortController();
    let taskId = '';
    const call = client.callTool('gated_job', {}, { signal: controller.signal, task: { onCreated: (h) => (taskId = h.taskId) } });
    await vi.waitFor(() => expect(taskId && methodsFor(taskId)).toContain('tasks/get'), WAIT);
    controller.abort();
    const error = await call.catch((e) => e);
    expect(error.code).toBe('aborted');
    expect(server.registry.status(taskId)).toBe('cancelled');
    const cancel = server.requests.find((r) => r.body?.method === 'tasks/cancel' && r.body.params.taskId === taskId);
    expect(cancel?.headers['mcp-name']).toBe(taskId);
    // Never notifications/cancelled for a task (Tasks extension "Task Cancellation").
    expect(server.bodies().some((b) => b.method === 'notifications/cancelled')).toBe(false);
    expect((await client.storedTasks()).tasks.map((t) => t.taskId)).not.toContain(taskId);
  });

  test('a failed task rejects with its JSON-RPC error, as the synchronous call would', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', tasks: true, ...quiet });
    const events: TaskEvent[] = [];
    client.on('task', (event) => events.push(event));
    const error = await client.callTool('failing_job', {}).catch((e) => e);
    expect(error).toBeInstanceOf(McpRpcError);
    expect(error.code).toBe(-32603);
    expect(error.message).toBe('The build broke');
    expect(error.data).toEqual({ step: 'compile' });
    expect(events.at(-1)).toMatchObject({ phase: 'failed', target: 'failing_job' });
  });

  test('detached, then resumed by id from a second client instance', async () => {
    const first = new McpClient(server.url, { protocol: 'modern', tasks: true, ...quiet });
    const detached = await first.callTool('gated_job', {}, { task: { onCreated: (h) => h.detach() } }).catch((e) => e);
    expect(detached.code).toBe('detached');
    const taskId = detached.data.taskId as string;
    expect(server.registry.status(taskId)).toBe('working');
    const stored = (await first.storedTasks()).tasks.find((t) => t.taskId === taskId);
    expect(stored).toMatchObject({ method: 'tools/call', target: 'gated_job', params: { name: 'gated_job', arguments: {} }, url: server.url });

    const second = new McpClient(server.url, { protocol: 'modern', tasks: true, ...quiet });
    const handle = await second.task(taskId);
    expect(handle.target).toBe('gated_job');
    const statuses: string[] = [];
    const result = handle.result({ onStatus: (s) => statuses.push(s.status) });
    await vi.waitFor(() => expect(statuses).toContain('working'), WAIT);
    server.release();
    expect(textOf(await result)).toBe('released');
    expect((await second.storedTasks()).tasks.map((t) => t.taskId)).not.toContain(taskId);
  });

  test('a new task is stored once before onCreated (one store write, not two)', async () => {
    const records = new Map<string, StoredTask>();
    const puts: StoredTask[] = [];
    const store: TaskStore = {
      put: async (record) => {
        puts.push(structuredClone(record));
        records.set(record.taskId, structuredClone(record));
      },
      delete: async (record) => void records.delete(record.taskId),
      list: async (url, auth) => [...records.values()].filter((r) => r.url === url && r.auth === auth),
    };
    const client = new McpClient(server.url, { protocol: 'modern', tasks: { store }, ...quiet });
    let atCreated: { puts: number; stored: boolean } | undefined;
    const detached = await client
      .callTool('gated_job', {}, {
        task: {
          onCreated: (h) => {
            atCreated = { puts: puts.length, stored: records.has(h.taskId) };
            h.detach();
          },
        },
      })
      .catch((e) => e);
    expect(detached.code).toBe('detached');
    expect(atCreated).toEqual({ puts: 1, stored: true });
    expect(puts[0]).toMatchObject({ taskId: detached.data.taskId, status: 'working', target: 'gated_job' });
    await (await client.task(detached.data.taskId)).cancel();
  });

  test('an unknown task id ends with task_not_found, not a poll loop', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', tasks: true, ...quiet });
    const error = await (await client.task('no-such-task')).result().catch((e) => e);
    expect(error.code).toBe('task_not_found');
    expect(error.data).toMatchObject({ taskId: 'no-such-task', expired: false });
    expect(error.cause).toBeInstanceOf(McpRpcError);
    expect(error.cause.code).toBe(-32602);
    expect(server.requests.filter((r) => r.body?.params?.taskId === 'no-such-task')).toHaveLength(1);
  });

  test('a server that never reaches a terminal state: the total cap ends the wait and leaves the task running', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', tasks: { maxWaitMs: 200 }, ...quiet });
    const error = await client.callTool('gated_job', {}).catch((e) => e);
    expect(error.code).toBe('timeout');
    const taskId = error.data.taskId as string;
    expect(error.message).toMatch(/did not finish within 200 ms; it may still be running/);
    expect(server.registry.status(taskId)).toBe('working');
    expect((await client.storedTasks()).tasks.map((t) => t.taskId)).toContain(taskId);
    await (await client.task(taskId)).cancel();
    expect(server.registry.status(taskId)).toBe('cancelled');
    server.release();
  });

  test('polling never goes faster than the server suggests, and backs off while nothing changes', async () => {
    const slow = await startTaskServer({ pollIntervalMs: 40 });
    try {
      const client = new McpClient(slow.url, { protocol: 'modern', tasks: true, ...quiet });
      let taskId = '';
      const call = client.callTool('gated_job', {}, { task: { onCreated: (h) => (taskId = h.taskId) } });
      const times = () => slow.requests.filter((r) => r.body?.method === 'tasks/get' && r.body.params.taskId === taskId).map((r) => r.time);
      await vi.waitFor(() => expect(times().length).toBeGreaterThanOrEqual(5), { timeout: 15_000 });
      slow.release();
      await call;
      const t = times();
      const gaps = t.slice(1, 5).map((time, i) => time - t[i]!);
      // Lower bounds only (a busy machine makes them longer): 40 ms, then ×1.5 while the status stays the same.
      expect(gaps[0]).toBeGreaterThanOrEqual(40 * 1.5 - 2);
      expect(gaps[1]).toBeGreaterThanOrEqual(40 * 1.5 ** 2 - 2);
      expect(gaps[2]).toBeGreaterThanOrEqual(40 * 1.5 ** 3 - 2);
    } finally {
      await slow.close();
    }
  });
});

describe('2026-07-28 notifications/tasks through subscriptions/listen', () => {
  let server: TaskServer;
  beforeAll(async () => {
    server = await startTaskServer({ pollIntervalMs: 20, notifications: true });
  });
  afterAll(() => server.close());

  test('once the server acknowledges the task id, status changes and completion arrive as notifications: no polling', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', tasks: true, ...quiet });
    let taskId = '';
    const messages: (string | undefined)[] = [];
    const call = client.callTool('gated_job', { gates: 2 }, { task: { onCreated: (h) => (taskId = h.taskId), onStatus: (s) => messages.push(s.statusMessage) } });
    // Polls before the acknowledgement are allowed (a busy machine delays it past the 20 ms poll
    // interval); after it the client catches up once with tasks/get, then only listens.
    const gets = () => {
      const log = server.registry.log.filter((entry) => entry.taskId === taskId);
      const acknowledged = log.findIndex((entry) => entry.method === 'subscriptions/listen');
      return acknowledged < 0 ? -1 : log.slice(acknowledged + 1).filter((entry) => entry.method === 'tasks/get').length;
    };
    await vi.waitFor(() => expect(gets()).toBe(1), WAIT);
    const listen = server.bodies().find((b) => b.method === 'subscriptions/listen' && b.params.notifications.taskIds?.includes(taskId));
    expect(listen.params.notifications).toEqual({ taskIds: [taskId] });
    server.release();
    await vi.waitFor(() => expect(messages).toContain('passed gate 1 of 2'), WAIT);
    server.release();
    expect(textOf(await call)).toBe('released');
    expect(messages).toContain('passed gate 2 of 2');
    expect(gets()).toBe(1);
  });

  test('a server that does not acknowledge the task id is polled', async () => {
    const plain = await startTaskServer({ pollIntervalMs: 20, notifications: false });
    try {
      const client = new McpClient(plain.url, { protocol: 'modern', tasks: true, ...quiet });
      expect(textOf(await client.callTool('long_job', { steps: 2, delayMs: 20 }))).toBe('done after 2 steps');
      // The SDK's own listen router acknowledged nothing for taskIds: polling took over.
      expect(plain.bodies().some((b) => b.method === 'subscriptions/listen')).toBe(true);
      expect(plain.registry.log.filter((e) => e.method === 'tasks/get').length).toBeGreaterThan(0);
    } finally {
      await plain.close();
    }
  });
});

describe('expired tasks', () => {
  test('a task past its TTL is reported as expired and its stored handle is cleaned up', async () => {
    const short = await startTaskServer({ pollIntervalMs: 20, ttlMs: 1 });
    try {
      const client = new McpClient(short.url, { protocol: 'modern', tasks: true, ...quiet });
      const detached = await client.callTool('gated_job', {}, { task: { onCreated: (h) => h.detach() } }).catch((e) => e);
      const taskId = detached.data.taskId as string;
      // The stored handle is past its TTL by the page's clock too: reported apart and deleted.
      await vi.waitFor(async () => expect((await client.storedTasks()).expired.map((t) => t.taskId)).toEqual([taskId]), WAIT);
      expect((await client.storedTasks()).expired).toEqual([]);
      const error = await (await client.task(taskId, { target: 'gated_job' })).result().catch((e) => e);
      expect(error.code).toBe('task_not_found');
      expect(error.message).toMatch(/Task has expired/);
    } finally {
      short.release();
      await short.close();
    }
  });
});

describe('malformed task answers', () => {
  const answering = (answers: Record<string, unknown>) =>
    startRawServer((req, res) => {
      const message = req.json;
      const result = message.method === 'server/discover' ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } : message.method === 'tools/list' ? { tools: [{ name: 'x', inputSchema: { type: 'object' } }] } : answers[message.method];
      if (result === undefined) {
        res.writeHead(202).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...(result as object) } }));
    });
  const now = new Date().toISOString();
  const task = { taskId: 't1', status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, pollIntervalMs: 10 };

  test.each([
    ['a task id that is not a string', { 'tools/call': { ...task, resultType: 'task', taskId: 5 } }, /"taskId" is not a non-empty string/],
    ['an unknown status', { 'tools/call': { ...task, resultType: 'task' }, 'tasks/get': { ...task, status: 'sleeping' } }, /unknown status "sleeping"/],
    ['a completed task without a result', { 'tools/call': { ...task, resultType: 'task' }, 'tasks/get': { ...task, status: 'completed' } }, /completed task has no "result"/],
    ['a failed task without an error', { 'tools/call': { ...task, resultType: 'task' }, 'tasks/get': { ...task, status: 'failed', error: 'boom' } }, /failed task has no JSON-RPC "error"/],
    ['input_required without inputRequests', { 'tools/call': { ...task, resultType: 'task' }, 'tasks/get': { ...task, status: 'input_required' } }, /no "inputRequests"/],
    ['another task than the one asked for', { 'tools/call': { ...task, resultType: 'task' }, 'tasks/get': { ...task, taskId: 't2' } }, /answered with task t2/],
  ])('%s is a protocol error', async (_name, answers, message) => {
    const raw = await answering(answers);
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', tasks: true, ...quiet });
      const error = await client.callTool('x', {}).catch((e) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error.code).toBe('protocol');
      expect(error.message).toMatch(message);
    } finally {
      await raw.close();
    }
  });

  test.each([
    ['completed', { status: 'completed', result: { content: [{ type: 'text', text: 'done at once' }] } }, undefined],
    ['failed', { status: 'failed', error: { code: -32603, message: 'broke at once' } }, /broke at once/],
  ])('a task created already %s: its outcome is asked for with tasks/get (a CreateTaskResult carries none)', async (_status, detail, failure) => {
    const raw = await answering({ 'tools/call': { ...task, resultType: 'task', taskId: 't-over', status: detail.status }, 'tasks/get': { ...task, taskId: 't-over', ...detail } });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', tasks: true, ...quiet });
      const outcome = await client.callTool('x', {}).then(textOf, (e) => e);
      if (failure) {
        expect(outcome).toBeInstanceOf(McpRpcError);
        expect(outcome.code).toBe(-32603);
        expect(outcome.message).toMatch(failure);
      } else expect(outcome).toBe('done at once');
      expect(raw.requests.map((r) => (r.body as { method?: string } | undefined)?.method).filter((m) => m?.startsWith('tasks/'))).toEqual(['tasks/get']);
      expect((await client.storedTasks()).tasks.map((t) => t.taskId)).not.toContain('t-over');
    } finally {
      await raw.close();
    }
  });

  test('a completed task whose result is not final (resultType input_required) is a protocol error, and its stored handle is dropped', async () => {
    const raw = await answering({ 'tools/call': { ...task, resultType: 'task', taskId: 't-odd' }, 'tasks/get': { ...task, taskId: 't-odd', status: 'completed', result: { resultType: 'input_required', inputRequests: {} } } });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', tasks: true, ...quiet });
      const error = await client.callTool('x', {}).catch((e) => e);
      expect(error.code).toBe('protocol');
      expect(error.message).toMatch(/has resultType "input_required"/);
      expect((await client.storedTasks()).tasks.map((t) => t.taskId)).not.toContain('t-odd');
    } finally {
      await raw.close();
    }
  });

  test('tasks/list is bounded like every listing: maxListItems with list-truncated, maxPages with a pagination error', async () => {
    // A server whose tasks/list never ends: 40 tasks a page, always a next cursor.
    const raw = await startRawServer((req, res) => {
      const message = req.json;
      const page = Number(String(message.params?.cursor ?? 'c0').slice(1));
      const result =
        message.method === 'server/discover'
          ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }
          : message.method === 'tasks/list'
            ? { tasks: Array.from({ length: 40 }, (_, i) => ({ taskId: `t${page}-${i}`, status: 'working', createdAt: now, lastUpdatedAt: now, ttl: null })), nextCursor: `c${page + 1}` }
            : undefined;
      if (result === undefined) return void res.writeHead(202).end();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...result } }));
    });
    try {
      const warnings: { code: string; message: string }[] = [];
      const listed = await new McpClient(raw.url, { protocol: 'modern', maxListItems: 100, onWarning: (w) => warnings.push(w) }).listTasks();
      expect(listed).toHaveLength(100);
      expect(listed.at(-1)!.taskId).toBe('t2-19');
      expect(warnings.map((w) => w.code)).toContain('list-truncated');
      const error = await new McpClient(raw.url, { protocol: 'modern', maxPages: 3, ...quiet }).listTasks().catch((e) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error.code).toBe('pagination');
      expect(error.data).toMatchObject({ method: 'tasks/list', maxPages: 3 });
    } finally {
      await raw.close();
    }
  });

  test('a poll interval beyond what a timer can hold (pollIntervalMs 1e12) with no practical cap (maxWaitMs Infinity) is not a busy loop of tasks/get', async () => {
    // A timer of more than 2^31 - 1 ms fires at once: unclamped, this polled hundreds of times a second.
    let tickGets = 0;
    const raw = await startRawServer((req, res) => {
      const message = req.json;
      if (message?.id === undefined) return void res.writeHead(202).end();
      const slow = message.params?.name === 'slow' || message.params?.taskId === 'slow';
      if (message.method === 'tasks/get' && !slow) tickGets++;
      const base = { createdAt: now, lastUpdatedAt: now, ttlMs: null };
      const result =
        message.method === 'server/discover'
          ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'slow', inputSchema: { type: 'object' } }, { name: 'tick', inputSchema: { type: 'object' } }] }
            : message.method === 'tools/call'
              ? { ...base, resultType: 'task', taskId: slow ? 'slow' : 'tick', status: 'working', pollIntervalMs: slow ? 1e12 : 10 }
              : message.method === 'tasks/get' && !slow
                ? tickGets < 5
                  ? { ...base, taskId: 'tick', status: 'working', statusMessage: `tick ${tickGets}`, pollIntervalMs: 10 }
                  : { ...base, taskId: 'tick', status: 'completed', result: { content: [{ type: 'text', text: 'ticked' }] } }
                : message.method === 'tasks/get'
                  ? { ...base, taskId: 'slow', status: 'working', pollIntervalMs: 1e12 }
                  : {};
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...result } }));
    });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', tasks: { maxWaitMs: Infinity, store: false }, ...quiet });
      let slow: TaskHandle | undefined;
      const waiting = client.callTool('slow', {}, { task: { onCreated: (h) => (slow = h) } }).catch((e) => e);
      // Five polls of another task, 10 ms apart and more: real time passes while the slow one waits.
      expect(textOf(await client.callTool('tick', {}))).toBe('ticked');
      const slowGets = raw.bodies().filter((b) => b?.method === 'tasks/get' && b.params.taskId === 'slow').length;
      expect(slowGets).toBe(0);
      slow!.detach();
      expect((await waiting).code).toBe('detached');
    } finally {
      await raw.close();
    }
  });

  test('a malformed notifications/tasks while notifications replace polling: a warning, then one tasks/get catches up (not a wait until the cap)', async () => {
    let stream: import('node:http').ServerResponse | undefined;
    let gets = 0;
    const base = { taskId: 't1', createdAt: now, lastUpdatedAt: now, ttlMs: null, pollIntervalMs: 10 };
    const raw = await startRawServer((req, res) => {
      const message = req.json;
      if (message?.id === undefined) return void res.writeHead(202).end();
      if (message.method === 'subscriptions/listen') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        stream = res;
        const ack = { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': message.id }, notifications: { taskIds: ['t1'] } } };
        res.write(`data: ${JSON.stringify(ack)}\n\n`);
        return;
      }
      if (message.method === 'tasks/get') gets++;
      const result =
        message.method === 'server/discover'
          ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } } }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'x', inputSchema: { type: 'object' } }] }
            : message.method === 'tools/call'
              ? { ...base, resultType: 'task', status: 'working' }
              : message.method === 'tasks/get'
                ? gets === 1
                  ? { ...base, status: 'working' }
                  : { ...base, status: 'completed', result: { content: [{ type: 'text', text: 'finished' }] } }
                : {};
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...result } }));
      // After the catch-up, the completion is pushed without its result.
      if (message.method === 'tasks/get' && gets === 1) {
        const notification = { jsonrpc: '2.0', method: 'notifications/tasks', params: { ...base, status: 'completed' } };
        setImmediate(() => stream?.write(`data: ${JSON.stringify(notification)}\n\n`));
      }
    });
    try {
      const warnings: { code: string }[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', tasks: { store: false, maxWaitMs: 10_000 }, onWarning: (w) => warnings.push(w) });
      expect(textOf(await client.callTool('x', {}))).toBe('finished');
      expect(warnings.map((w) => w.code)).toContain('task-notification-malformed');
      expect(gets).toBe(2);
    } finally {
      stream?.destroy();
      await raw.close();
    }
  });

  test('a task that keeps asking for input is cancelled after maxRounds rounds (rounds_exceeded), not asked about until the wait cap', async () => {
    let gets = 0;
    const raw = await startRawServer((req, res) => {
      const message = req.json;
      if (message?.id === undefined) return void res.writeHead(202).end();
      const base = { taskId: 't1', createdAt: now, lastUpdatedAt: now, ttlMs: null, pollIntervalMs: 0 };
      // A new input request at every poll, forever.
      const ask = () => ({ [`q${++gets}`]: { method: 'elicitation/create', params: { mode: 'form', message: `Question ${gets}?`, requestedSchema: { type: 'object', properties: {} } } } });
      const result =
        message.method === 'server/discover'
          ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'x', inputSchema: { type: 'object' } }] }
            : message.method === 'tools/call'
              ? { ...base, resultType: 'task', status: 'working' }
              : message.method === 'tasks/get'
                ? { ...base, status: 'input_required', inputRequests: ask() }
                : {};
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...result } }));
    });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', tasks: { store: false }, maxRounds: 4, ...quiet });
      let asked = 0;
      client.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => (asked++, { action: 'accept', content: {} }) });
      const error = await client.callTool('x', {}).catch((e) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error.code).toBe('rounds_exceeded');
      expect(error.message).toMatch(/Task t1 \(tools\/call x\) still required input after 4 rounds; it was cancelled/);
      expect(asked).toBe(4);
      const methods = raw.bodies().map((b) => b?.method);
      expect(methods.filter((m) => m === 'tasks/update')).toHaveLength(4);
      expect(methods.at(-1)).toBe('tasks/cancel');
      // The per-call option overrides the client's.
      asked = 0;
      expect((await client.callTool('x', {}, { maxRounds: 2 }).catch((e) => e)).code).toBe('rounds_exceeded');
      expect(asked).toBe(2);
    } finally {
      await raw.close();
    }
  });

  test('a task answer to a method the extension does not cover is a protocol error', async () => {
    const raw = await answering({ 'prompts/get': { ...task, resultType: 'task' } });
    try {
      const error = await new McpClient(raw.url, { protocol: 'modern', tasks: true, ...quiet }).getPrompt('p').catch((e) => e);
      expect(error.code).toBe('protocol');
      expect(error.message).toMatch(/prompts\/get with an unknown resultType "task"/);
    } finally {
      await raw.close();
    }
  });
});

describe('2025-11-25 tasks (server-everything)', () => {
  let everything: ChildServer;
  beforeAll(async () => {
    everything = await startEverything('streamableHttp');
  }, 30_000);
  afterAll(() => everything?.close());

  test('a tool whose execution.taskSupport is required is called as a task: params.task, tasks/get with status messages, tasks/result', { timeout: 30_000 }, async () => {
    const recorder = recordingFetch();
    const client = new McpClient(everything.url, { protocol: 'legacy', tasks: true, fetch: recorder.fetch, ...quiet });
    const messages: string[] = [];
    const result = await client.callTool('simulate-research-query', { topic: 'durable handles' }, { task: { onStatus: (s) => s.statusMessage && messages.push(s.statusMessage) } });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toMatch(/# Research Report: durable handles/);
    const sent = recorder.posts();
    const call = sent.find((b) => b.method === 'tools/call');
    expect(call.params.task).toEqual({});
    expect(sent.some((b) => b.method === 'tasks/get')).toBe(true);
    expect(sent.filter((b) => b.method === 'tasks/result')).toHaveLength(1);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m) => /\.\.\.$/.test(m))).toBe(true);
    // 2025-11-25 initialize carries no 2026-07-28 extension.
    expect(sent.find((b) => b.method === 'initialize').params.capabilities.extensions).toBeUndefined();
  });

  test('a tool that does not support tasks is called normally', async () => {
    const recorder = recordingFetch();
    const client = new McpClient(everything.url, { protocol: 'legacy', tasks: true, fetch: recorder.fetch, ...quiet });
    expect(textOf(await client.callTool('echo', { message: 'hi' }))).toBe('Echo: hi');
    expect(recorder.posts().find((b) => b.method === 'tools/call').params.task).toBeUndefined();
  });

  test('with the tasks option off, a tools/call does not load the task machinery and asks for no task (a plain request, "Creating Tasks")', { timeout: 30_000 }, async () => {
    // A fresh module graph in which loading src/tasks/tasks.ts is counted: earlier tests of this file have loaded it already.
    vi.resetModules();
    let loads = 0;
    vi.doMock('../src/tasks/tasks.js', async (importOriginal) => {
      loads++;
      return importOriginal();
    });
    try {
      const { McpClient: FreshClient } = await import('../src/index.js');
      const recorder = recordingFetch();
      const off = new FreshClient(everything.url, { protocol: 'legacy', fetch: recorder.fetch, ...quiet });
      await off.connect();
      expect(off.server?.capabilities.tasks).toBeDefined();
      expect(textOf(await off.callTool('echo', { message: 'hi' }))).toBe('Echo: hi');
      // A tool that requires a task is still sent as a plain request, which the server refuses ("Tool-Level Negotiation";
      // server-everything says so in an isError result).
      const refused = await off.callTool('simulate-research-query', { topic: 'no tasks here' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/requires task augmentation/);
      const calls = recorder.posts().filter((b) => b.method === 'tools/call');
      expect(calls).toHaveLength(2);
      expect(calls.map((b) => b.params.task)).toEqual([undefined, undefined]);
      expect(loads).toBe(0);
      await off.close();
      // The count does see the module load: the same call with tasks on loads it.
      const on = new FreshClient(everything.url, { protocol: 'legacy', tasks: true, ...quiet });
      expect(textOf(await on.callTool('echo', { message: 'hi' }))).toBe('Echo: hi');
      expect(loads).toBe(1);
      await on.close();
    } finally {
      vi.doUnmock('../src/tasks/tasks.js');
      vi.resetModules();
    }
  });

  test('input_required: the elicitation on the tasks/result stream goes to the same handler', { timeout: 30_000 }, async () => {
    const client = new McpClient(everything.url, { protocol: 'legacy', tasks: true, ...quiet });
    const seen: { message: string; context: InputContext }[] = [];
    client.setInputHandler('elicitation/create', {
      modes: ['form'],
      handle: async (params, context) => {
        seen.push({ message: params.message, context });
        return { action: 'accept', content: { interpretation: 'historical' } };
      },
    });
    let taskId = '';
    const result = await client.callTool('simulate-research-query', { topic: 'tasks', ambiguous: true }, { task: { onCreated: (h) => (taskId = h.taskId) } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.message).toMatch(/multiple interpretations/);
    expect(seen[0]!.context.taskId).toBe(taskId);
    expect(textOf(result)).toMatch(/Clarification\*\*: historical/);
  });

  test('tasks/list shows a detached task; tasks/cancel cancels it', { timeout: 30_000 }, async () => {
    const client = new McpClient(everything.url, { protocol: 'legacy', tasks: true, ...quiet });
    const detached = await client.callTool('simulate-research-query', { topic: 'cancel me' }, { task: { onCreated: (h) => h.detach() } }).catch((e) => e);
    expect(detached.code).toBe('detached');
    const taskId = detached.data.taskId as string;
    const listed = await client.listTasks();
    expect(listed.find((t) => t.taskId === taskId)).toMatchObject({ status: 'working', ttlMs: 300_000, pollIntervalMs: 1000 });
    const handle = await client.task(taskId);
    const events: TaskEvent[] = [];
    client.on('task', (event) => events.push(event));
    await handle.cancel();
    // The CancelTaskResult is the task: its status is taken, and the cancelled event carries it (not the last polled "working").
    expect(handle.state?.status).toBe('cancelled');
    expect(events.at(-1)).toMatchObject({ phase: 'cancelled', state: { status: 'cancelled' } });
    expect((await handle.get()).status).toBe('cancelled');
    expect((await client.listTasks()).find((t) => t.taskId === taskId)?.status).toBe('cancelled');
    const error = await handle.result().catch((e) => e);
    expect(error.code).toBe('task_cancelled');
  });
});
