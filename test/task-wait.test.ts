/**
 * A task's wait against servers that misbehave or go away: `maxWaitMs` bounds
 * every poll (a `tasks/get` that is never answered cannot hold the wait past
 * it), a short outage is retried within the budget, and a restarted server that
 * no longer knows the task ends the wait with "the server lost the task".
 * Real servers: the official SDK server with the Tasks extension
 * (test/support/task-server.ts), stopped and started again on its port; a raw
 * server only for a `tasks/get` that hangs.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { McpClient, McpClientError } from '../src/index.js';
import { startRawServer, type RunningServer } from './support/servers.js';
import { startTaskServer, type TaskServer } from './support/task-server.js';

const WAIT = { timeout: 20_000, interval: 25 };

describe('the wait of a task', () => {
  const running: (RunningServer | TaskServer)[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close().catch(() => {})));
  });

  test('maxWaitMs 6000 with a server that never answers tasks/get: the call ends with the task timeout by then, not after the 60 s request timeout', { timeout: 50_000 }, async () => {
    const now = new Date().toISOString();
    const hung: { end(): void }[] = [];
    const raw = await startRawServer((req, res) => {
      const message = req.json;
      const reply = (result: object) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...result } }));
      if (message.method === 'server/discover') reply({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} } });
      else if (message.method === 'tools/list') reply({ tools: [{ name: 'slow', inputSchema: { type: 'object' } }] });
      else if (message.method === 'tools/call') reply({ resultType: 'task', taskId: 'hangs', status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 600_000, pollIntervalMs: 10 });
      // tasks/get: never answered (the response stays open until the test ends).
      else hung.push(res);
    });
    running.push({ ...raw, close: async () => (hung.forEach((res) => res.end()), raw.close()) });
    const client = new McpClient(raw.url, { protocol: 'modern', tasks: true, requestTimeoutMs: 60_000, onWarning: () => {} });
    const started = Date.now();
    const error = await client.callTool('slow', {}, { task: { maxWaitMs: 6000 } }).catch((e) => e);
    const took = Date.now() - started;
    expect(error).toBeInstanceOf(McpClientError);
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/Task hangs \(tools\/call slow\) did not finish within 6000 ms; it may still be running/);
    expect(error.data).toMatchObject({ taskId: 'hangs', timeoutMs: 6000 });
    // Well before the request timeout (60 s): the poll's deadline was the wait's budget.
    expect(took).toBeLessThan(40_000);
    expect(raw.requests.some((r) => (r.body as { method?: string }).method === 'tasks/get')).toBe(true);
    await client.close();
  });

  test('a short outage while polling is retried within the budget: the server comes back on its port and the task completes', { timeout: 60_000 }, async () => {
    const server = await startTaskServer({ pollIntervalMs: 20 });
    running.push(server);
    const warnings: string[] = [];
    const client = new McpClient(server.url, { protocol: 'modern', tasks: { maxWaitMs: 45_000 }, onWarning: (w) => warnings.push(w.code) });
    let taskId = '';
    let settled = false;
    const call = client.callTool('gated_job', {}, { task: { onCreated: (h) => (taskId = h.taskId) } }).finally(() => (settled = true));
    await vi.waitFor(() => expect(server.requests.some((r) => r.body?.method === 'tasks/get')).toBe(true), WAIT);
    await server.stop();
    // Polls that hit the closed port are retried, not the end of the call.
    await vi.waitFor(() => expect(warnings).toContain('task-poll-retry'), WAIT);
    expect(settled).toBe(false);
    await server.restart();
    const before = server.requests.length;
    await vi.waitFor(() => expect(server.requests.slice(before).some((r) => r.body?.method === 'tasks/get')).toBe(true), WAIT);
    server.release();
    const result = await call;
    expect(((result as { content: { text: string }[] }).content[0]!).text).toBe('released');
    expect(server.registry.status(taskId)).toBe('completed');
    await client.close();
  });

  test('a server restarted on its port without the task: the call ends with "the server lost the task" (task_not_found, lost), not a network error', { timeout: 60_000 }, async () => {
    const first = await startTaskServer({ pollIntervalMs: 20 });
    running.push(first);
    const warnings: string[] = [];
    const client = new McpClient(first.url, { protocol: 'modern', tasks: { maxWaitMs: 45_000 }, onWarning: (w) => warnings.push(w.code) });
    const phases: string[] = [];
    client.on('task', (event) => phases.push(event.phase));
    let settled = false;
    const call = client.callTool('gated_job', {}).finally(() => (settled = true));
    await vi.waitFor(() => expect(first.requests.some((r) => r.body?.method === 'tasks/get')).toBe(true), WAIT);
    await first.close();
    await vi.waitFor(() => expect(warnings).toContain('task-poll-retry'), WAIT);
    expect(settled).toBe(false);
    // A new process on the same port: its registry is empty.
    const second = await startTaskServer({ pollIntervalMs: 20, port: Number(new URL(first.url).port) });
    running.push(second);
    const error = await call.catch((e) => e);
    expect(error).toBeInstanceOf(McpClientError);
    expect(error.code).toBe('task_not_found');
    expect(error.message).toMatch(/the server lost the task \(it was working when last seen, within its TTL\)/);
    expect(error.data).toMatchObject({ lost: true, expired: false });
    expect(phases.at(-1)).toBe('lost');
    expect(second.requests.some((r) => r.body?.method === 'tasks/get')).toBe(true);
    // Not stored any more: nothing to pick up after a reload.
    expect((await client.storedTasks()).tasks).toEqual([]);
    await client.close();
  });
});
