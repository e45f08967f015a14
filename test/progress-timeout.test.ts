/**
 * Progress that resets a timeout needs a progress token (basic/patterns/progress:
 * a server reports progress only for requests that carry one). Issue "Interop…",
 * item 8: a call with a short `timeoutMs` and no `onProgress` used to go out
 * without a token, so a server working on it could not keep it alive. Real
 * servers: the official SDK on 2026-07-28 and on a legacy session. Margins: a
 * 3 s timeout against steps of at most 500 ms, so that a busy machine's delays
 * never take the whole timeout, while the work (4 s) always outlasts it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { McpClient, type InputRequiredResult, type ToolCallResult } from '../src/index.js';
import { startLegacySdkServer, type LegacySdkServer } from './support/legacy-servers.js';
import { startModernServer, type ModernServer } from './support/servers.js';

let modern: ModernServer;
let legacy: LegacySdkServer;
beforeAll(async () => {
  [modern, legacy] = await Promise.all([startModernServer(), startLegacySdkServer('sessions')]);
});
afterAll(() => Promise.all([modern.close(), legacy.close()]));

const quiet = { onWarning: () => {} };
const text = (result: unknown) => (result as ToolCallResult).content?.map((c) => (c as { text?: string }).text).join('');
const tokensOf = (server: { bodies(): any[] }, mark: number, method = 'tools/call') =>
  server.bodies().slice(mark).filter((b) => b?.method === method).map((b) => b.params._meta?.progressToken);

describe('a progress token whenever progress can reset the timeout', () => {
  test('modern: timeoutMs 3000 and no onProgress — 16 steps of 250 ms (4 s) finish, each call with its own token', async () => {
    const mark = modern.bodies().length;
    const client = new McpClient(modern.url, { protocol: 'modern', ...quiet });
    const [a, b] = await Promise.all([
      // Progress every 250 ms against a 3 s idle deadline: a wide margin on a loaded machine (500 ms steps timed out at load 20).
      client.callTool('slow', { steps: 16, delayMs: 250 }, { timeoutMs: 3000 }),
      client.callTool('slow', { steps: 16, delayMs: 250 }, { timeoutMs: 3000 }),
    ]);
    expect(text(a)).toBe('done after 16 steps');
    expect(text(b)).toBe('done after 16 steps');
    const tokens = tokensOf(modern, mark);
    expect(tokens).toHaveLength(2);
    expect(tokens.every((t) => typeof t === 'string' || typeof t === 'number')).toBe(true);
    expect(new Set(tokens).size).toBe(2);
  });

  test('modern: a token the caller put in _meta is replaced by a unique one (two calls never share a token)', async () => {
    const mark = modern.bodies().length;
    const client = new McpClient(modern.url, { protocol: 'modern', ...quiet });
    const params = { name: 'slow', arguments: { steps: 4, delayMs: 500 }, _meta: { progressToken: 'shared' } };
    await Promise.all([client.request('tools/call', params, { timeoutMs: 3000 }), client.request('tools/call', params, { timeoutMs: 3000 })]);
    const tokens = tokensOf(modern, mark);
    expect(new Set(tokens).size).toBe(2);
    expect(tokens).not.toContain('shared');
  });

  test('with resetTimeoutOnProgress: false and no onProgress, no token is needed and the timeout holds', async () => {
    const mark = modern.bodies().length;
    const client = new McpClient(modern.url, { protocol: 'modern', ...quiet });
    const error = await client.callTool('slow', { steps: 8, delayMs: 500 }, { timeoutMs: 3000, resetTimeoutOnProgress: false }).catch((e) => e);
    expect(error.code).toBe('timeout');
    expect(tokensOf(modern, mark)).toEqual([undefined]);
  });

  test('legacy session: timeoutMs 3000 and no onProgress — a 4 s call kept alive by progress', async () => {
    const client = new McpClient(legacy.url, { protocol: 'legacy', ...quiet });
    expect(text(await client.callTool('slow', { ms: 4000 }, { timeoutMs: 3000 }))).toBe('slept 4000 ms');
    const call = legacy.requests.filter((r) => r.body?.method === 'tools/call').at(-1)!;
    expect(call.body.params._meta.progressToken).toBeDefined();
    await client.close();
  });

  test('a resumed call (resumeFrom, as the dialog resumes one after a reload) gets a token on its retry', async () => {
    const client = new McpClient(modern.url, { protocol: 'modern', capabilities: { elicitation: { form: {} } }, ...quiet });
    const interim = (await client.callTool('confirm_then_work', { steps: 8, delayMs: 500 }, { inputRequired: 'manual' })) as InputRequiredResult;
    expect(interim.resultType).toBe('input_required');
    // A new client, as after a reload: it answers the restored round and retries.
    const resumed = new McpClient(modern.url, { protocol: 'modern', ...quiet });
    resumed.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => ({ action: 'accept', content: {} }) });
    const mark = modern.bodies().length;
    expect(text(await resumed.callTool('confirm_then_work', { steps: 8, delayMs: 500 }, { resumeFrom: interim, timeoutMs: 3000 }))).toBe('worked 8 steps');
    expect(tokensOf(modern, mark)).toEqual([expect.anything()]);
  });
});
