/**
 * Multi round-trip requests (spec: basic/patterns/mrtr) against the official SDK
 * server, plus raw servers for what the SDK cannot be made to send
 * (arbitrary requestState bytes, state-only rounds, malformed interim results).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { McpClient, type ElicitRequestParams, type InputContext, type InputRequiredResult, type RoundEvent, type ToolCallResult } from '../src/index.js';
import { startModernServer, startRawServer, type ModernServer } from './support/servers.js';

let server: ModernServer;
beforeAll(async () => {
  server = await startModernServer();
});
afterAll(() => server.close());

const quiet = { onWarning: () => {} };
const calls = (mark: number) =>
  server.requests
    .filter((r) => r.method === 'POST')
    .slice(mark)
    .filter((r) => r.body.method === 'tools/call');
const mark = () => server.requests.filter((r) => r.method === 'POST').length;
const textOf = (result: unknown) => ((result as ToolCallResult).content?.[0] as { text: string }).text;

function clientWith(answers: (params: ElicitRequestParams, context: InputContext) => any, modes: ('form' | 'url')[] = ['form', 'url']) {
  const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
  const seen: { params: ElicitRequestParams; context: InputContext }[] = [];
  client.setInputHandler('elicitation/create', {
    modes,
    handle: async (params, context) => {
      seen.push({ params, context });
      return answers(params, context);
    },
  });
  return { client, seen };
}

describe('retry on input_required (mrtr "Client Requirements")', () => {
  test('accept: the retry is the original request with a new id and inputResponses keyed as asked', async () => {
    const start = mark();
    const { client, seen } = clientWith(() => ({ action: 'accept', content: { ok: true, note: 'ship it' } }));
    const result = await client.callTool('confirm', { action: 'deploy' });
    expect(textOf(result)).toBe('confirmed=true note=ship it');

    expect(seen).toHaveLength(1);
    expect(seen[0]!.params).toMatchObject({ message: 'Really deploy?', requestedSchema: { type: 'object', required: ['ok'] } });
    expect(seen[0]!.context).toMatchObject({ key: 'confirm', index: 0, total: 1, round: 1, method: 'tools/call', target: 'confirm', url: server.url });
    expect(seen[0]!.context.server.serverInfo?.name).toBe('kit-test-server');

    const [first, retry] = calls(start);
    expect(retry!.body.id).not.toBe(first!.body.id);
    expect(retry!.body.params.name).toBe(first!.body.params.name);
    expect(retry!.body.params.arguments).toEqual(first!.body.params.arguments);
    expect(retry!.body.params.inputResponses).toEqual({ confirm: { action: 'accept', content: { ok: true, note: 'ship it' } } });
    // The server sent no requestState, so the retry must not carry one.
    expect('requestState' in retry!.body.params).toBe(false);
    expect(retry!.headers['mcp-name']).toBe('confirm');
    expect(retry!.body.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: { form: {}, url: {} } });
  });

  test.each(['decline', 'cancel'] as const)('%s is sent on the wire without content', async (action) => {
    const start = mark();
    const { client } = clientWith(() => ({ action }));
    expect(textOf(await client.callTool('confirm', {}))).toBe(`not confirmed: ${action}`);
    expect(calls(start)[1]!.body.params.inputResponses).toEqual({ confirm: { action } });
  });

  test('two rounds: requestState is echoed and only the latest inputRequests are answered', async () => {
    const start = mark();
    const rounds: RoundEvent[] = [];
    const { client } = clientWith((params) => (params.message === 'Your name?' ? { action: 'accept', content: { name: 'Ada' } } : { action: 'accept', content: { city: 'Lyon' } }));
    const result = await client.callTool('two_step', {}, { onRound: (event) => rounds.push(event) });
    expect(textOf(result)).toBe('Ada from Lyon');

    const sent = calls(start);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((r) => r.body.id)).size).toBe(3);
    expect(Object.keys(sent[1]!.body.params.inputResponses)).toEqual(['name']);
    expect('requestState' in sent[1]!.body.params).toBe(false);
    expect(Object.keys(sent[2]!.body.params.inputResponses)).toEqual(['city']);
    expect(sent[2]!.body.params.requestState).toBe(JSON.stringify({ name: 'Ada' }));

    expect(rounds.map((r) => [r.round, r.phase])).toEqual([
      [0, 'input_required'],
      [1, 'answered'],
      [1, 'input_required'],
      [2, 'answered'],
      [2, 'complete'],
    ]);
    expect(new Set(rounds.map((r) => r.callId)).size).toBe(1);
  });

  test('several input requests in one round are all answered before one retry', async () => {
    const start = mark();
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    const order: string[] = [];
    client.setInputHandler('elicitation/create', {
      modes: ['form'],
      handle: async (_params, context) => {
        order.push(`elicit ${context.index + 1}/${context.total}`);
        return { action: 'accept', content: { a: 'first' } };
      },
    });
    client.setInputHandler('roots/list', {
      handle: async (_params, context) => {
        order.push(`roots ${context.index + 1}/${context.total}`);
        return { roots: [{ uri: 'file:///work/one', name: 'one' }] };
      },
    });
    expect(textOf(await client.callTool('pair', {}))).toBe('a=first roots=file:///work/one');
    expect(order).toEqual(['elicit 1/2', 'roots 2/2']);
    const sent = calls(start);
    expect(sent).toHaveLength(2);
    expect(Object.keys(sent[1]!.body.params.inputResponses).sort()).toEqual(['first', 'roots']);
  });

  test('sampling and URL-mode elicitation go through their handlers', async () => {
    const { client, seen } = clientWith(() => ({ action: 'accept' }));
    client.setInputHandler('sampling/createMessage', {
      handle: async (params) => ({ role: 'assistant', content: { type: 'text', text: `a haiku of ${params.maxTokens} tokens` }, model: 'tiny', stopReason: 'endTurn' }),
    });
    expect(textOf(await client.callTool('sample', {}))).toBe('model said: a haiku of 50 tokens');
    expect(textOf(await client.callTool('open_url', {}))).toBe('url consent: accept');
    expect(seen.at(-1)!.params).toMatchObject({ mode: 'url', url: 'https://example.com/approve?x=1' });
  });

  test('the server refuses input the client did not declare: -32021 is surfaced with requiredCapabilities', async () => {
    const start = mark();
    const { client, seen } = clientWith(() => ({ action: 'accept' }), ['form']);
    const error = await client.callTool('open_url', {}).catch((e) => e);
    expect(error.code).toBe(-32021);
    expect(error.httpStatus).toBe(400);
    expect(seen).toHaveLength(0);
    expect(calls(start)).toHaveLength(1);
  });

  test('the round count is capped', async () => {
    const start = mark();
    const { client } = clientWith(() => ({ action: 'accept', content: {} }));
    const error = await client.callTool('forever', {}, { maxRounds: 3 }).catch((e) => e);
    expect(error.code).toBe('rounds_exceeded');
    expect(error.message).toMatch(/after 3 rounds/);
    expect(calls(start)).toHaveLength(4);
  });

  test('manual mode hands the interim result back; the caller continues the call', async () => {
    // The app answers by itself, so it declares the capability itself.
    const client = new McpClient(server.url, { protocol: 'modern', capabilities: { elicitation: { form: {} } }, ...quiet });
    const interim = (await client.callTool('two_step', {}, { inputRequired: 'manual' })) as InputRequiredResult;
    expect(interim.resultType).toBe('input_required');
    expect(Object.keys(interim.inputRequests ?? {})).toEqual(['name']);
    const second = (await client.callTool('two_step', {}, { inputRequired: 'manual', inputResponses: { name: { action: 'accept', content: { name: 'Lin' } } } })) as InputRequiredResult;
    expect(second.requestState).toBeDefined();
    const final = await client.callTool('two_step', {}, { inputResponses: { city: { action: 'accept', content: { city: 'Oslo' } } }, requestState: second.requestState });
    expect(textOf(final)).toBe('Lin from Oslo');
  });

  test('a stored interim result can be resumed (e.g. after a reload)', async () => {
    const first = new McpClient(server.url, { protocol: 'modern', capabilities: { elicitation: { form: {} } }, ...quiet });
    const interim = (await first.callTool('confirm', { action: 'archive' }, { inputRequired: 'manual' })) as InputRequiredResult;
    const stored = JSON.parse(JSON.stringify(interim)) as InputRequiredResult;
    const { client } = clientWith(() => ({ action: 'accept', content: { ok: true } }));
    expect(textOf(await client.callTool('confirm', { action: 'archive' }, { resumeFrom: stored }))).toBe('confirmed=true note=');
  });

  test('requestState and inputResponses never leak into a parallel request', async () => {
    const start = mark();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { client } = clientWith(async (params) => {
      if (params.message === 'Your city?') await gate;
      return params.message === 'Your name?' ? { action: 'accept', content: { name: 'Bo' } } : { action: 'accept', content: { city: 'Rome' } };
    });
    const pending = client.callTool('two_step', {});
    await expect.poll(() => calls(start).length).toBe(2);
    await client.listTools({ fresh: true });
    await client.callTool('echo', { text: 'meanwhile' });
    release();
    expect(textOf(await pending)).toBe('Bo from Rome');
    const others = server.requests
      .filter((r) => r.method === 'POST')
      .slice(start)
      .filter((r) => r.body.method === 'tools/list' || r.body.params?.name === 'echo');
    expect(others.length).toBeGreaterThanOrEqual(2);
    for (const request of others) {
      expect(request.body.params.requestState).toBeUndefined();
      expect(request.body.params.inputResponses).toBeUndefined();
    }
  });

  test('aborting while the user is answering stops the call without a retry', async () => {
    const start = mark();
    const controller = new AbortController();
    const { client } = clientWith(
      (_params, context) =>
        new Promise((_resolve, reject) => {
          context.signal.addEventListener('abort', () => reject(context.signal.reason));
          controller.abort();
        }),
    );
    const error = await client.callTool('confirm', {}, { signal: controller.signal }).catch((e) => e);
    expect(error).toBeDefined();
    expect(calls(start)).toHaveLength(1);
  });
});

describe('interim results the SDK cannot be made to send (raw server)', () => {
  function rawMrtr(answer: (round: number, params: any) => Record<string, unknown>) {
    let round = 0;
    return startRawServer((req, res) => {
      const { id, method, params } = req.json;
      const result = method === 'server/discover' ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {}, prompts: {}, resources: {} } } : answer(round++, params);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
  }
  const form = { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } } };
  const tool = { name: 't', inputSchema: { type: 'object' } };

  test('requestState comes back byte for byte, whatever its bytes', async () => {
    const opaque = ' "quoted" \\ 🚀 ünïcödé\n\t' + Array.from({ length: 2048 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 94))).join('') + ' ';
    const raw = await rawMrtr((round) => (round === 0 ? { resultType: 'input_required', inputRequests: { q: form }, requestState: opaque } : { resultType: 'complete', content: [] }));
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      client.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => ({ action: 'accept', content: { n: 'x' } }) });
      await client.callTool('t', {}, { tool });
      const retry = raw.bodies().filter((b) => b.method === 'tools/call')[1]!;
      expect(retry.params.requestState).toBe(opaque);
    } finally {
      await raw.close();
    }
  });

  test('a later round without requestState drops the earlier one', async () => {
    const raw = await rawMrtr((round) =>
      round === 0
        ? { resultType: 'input_required', inputRequests: { q: form }, requestState: 'first-state' }
        : round === 1
          ? { resultType: 'input_required', inputRequests: { q2: form } }
          : { resultType: 'complete', content: [] },
    );
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      client.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => ({ action: 'accept', content: { n: 'x' } }) });
      await client.callTool('t', {}, { tool });
      const sent = raw.bodies().filter((b) => b.method === 'tools/call');
      expect(sent[1].params.requestState).toBe('first-state');
      expect('requestState' in sent[2].params).toBe(false);
      expect(Object.keys(sent[2].params.inputResponses)).toEqual(['q2']);
    } finally {
      await raw.close();
    }
  });

  test('a state-only result is retried after a pause, with the state and no inputResponses', async () => {
    const raw = await rawMrtr((round) => (round === 0 ? { resultType: 'input_required', requestState: 'busy-try-later' } : { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] }));
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      const started = Date.now();
      expect(textOf(await client.callTool('t', {}, { tool }))).toBe('ok');
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      const retry = raw.bodies().filter((b) => b.method === 'tools/call')[1]!;
      expect(retry.params.requestState).toBe('busy-try-later');
      expect('inputResponses' in retry.params).toBe(false);
    } finally {
      await raw.close();
    }
  });

  test('prompts/get and resources/read take part in MRTR too', async () => {
    const raw = await rawMrtr((_round, params) =>
      params.inputResponses
        ? params.uri
          ? { resultType: 'complete', contents: [{ uri: params.uri, text: `for ${params.inputResponses.q.content.n}` }] }
          : { resultType: 'complete', messages: [{ role: 'user', content: { type: 'text', text: `hi ${params.inputResponses.q.content.n}` } }] }
        : { resultType: 'input_required', inputRequests: { q: form } },
    );
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      client.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => ({ action: 'accept', content: { n: 'Kai' } }) });
      expect(await client.getPrompt('p')).toMatchObject({ messages: [{ content: { text: 'hi Kai' } }] });
      expect(await client.readResource('mem://x')).toMatchObject({ contents: [{ text: 'for Kai' }] });
      // Results that depended on input are not cached: reading again asks again.
      await client.readResource('mem://x');
      expect(raw.bodies().filter((b) => b.method === 'resources/read')).toHaveLength(4);
    } finally {
      await raw.close();
    }
  });

  test('an input request the client did not declare fails locally, without asking or retrying', async () => {
    const raw = await rawMrtr(() => ({
      resultType: 'input_required',
      inputRequests: { login: form, consent: { method: 'elicitation/create', params: { mode: 'url', message: 'Go', url: 'https://example.com/x' } } },
    }));
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      let asked = 0;
      client.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => (asked++, { action: 'accept', content: {} }) });
      const error = await client.callTool('t', {}, { tool }).catch((e) => e);
      expect(error.code).toBe('input_unsupported');
      expect(error.message).toMatch(/url-mode elicitation \("consent"\), which this client did not declare/);
      // Not even the answerable form request was shown to the user.
      expect(asked).toBe(0);
      expect(raw.bodies().filter((b) => b.method === 'tools/call')).toHaveLength(1);
    } finally {
      await raw.close();
    }
  });

  test.each([
    ['neither inputRequests nor requestState', { resultType: 'input_required' }, /neither inputRequests nor requestState/],
    ['an unknown input method', { resultType: 'input_required', inputRequests: { x: { method: 'files/pick', params: {} } } }, /unknown method "files\/pick"/],
    ['non-string requestState', { resultType: 'input_required', requestState: 42 }, /requestState of tools\/call is not a string/],
    ['an elicitation whose message is an object', { resultType: 'input_required', inputRequests: { q: { method: 'elicitation/create', params: { message: { html: '<b>x</b>' }, requestedSchema: { type: 'object', properties: {} } } } } }, /"q" \(elicitation\/create\) is malformed: "message" is not a string/],
    ['a form elicitation without requestedSchema', { resultType: 'input_required', inputRequests: { q: { method: 'elicitation/create', params: { message: 'Hi' } } } }, /"requestedSchema" is not an object schema/],
    ['a form elicitation whose properties is an array', { resultType: 'input_required', inputRequests: { q: { method: 'elicitation/create', params: { message: 'Hi', requestedSchema: { type: 'object', properties: [1] } } } } }, /"requestedSchema" is not an object schema/],
    ['a URL elicitation without a url', { resultType: 'input_required', inputRequests: { q: { method: 'elicitation/create', params: { mode: 'url', message: 'Go' } } } }, /"url" is not a string/],
    ['a sampling request whose messages is a string', { resultType: 'input_required', inputRequests: { s: { method: 'sampling/createMessage', params: { messages: 'hello', maxTokens: 5 } } } }, /"messages" is not an array of \{ role, content \}/],
  ])('an interim result with %s is rejected', async (_name, result, message) => {
    const raw = await rawMrtr(() => result);
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      let asked = 0;
      client.setInputHandler('elicitation/create', { modes: ['form', 'url'], handle: async () => (asked++, { action: 'accept', content: {} }) });
      client.setInputHandler('sampling/createMessage', { handle: async () => (asked++, { role: 'assistant' as const, content: { type: 'text' as const, text: '' }, model: 'm' }) });
      await expect(client.callTool('t', {}, { tool })).rejects.toThrow(message);
      expect(asked).toBe(0);
      expect(raw.bodies().filter((b) => b.method === 'tools/call')).toHaveLength(1);
    } finally {
      await raw.close();
    }
  });

  test('an input request keyed "__proto__" is answered under that key', async () => {
    // Built as text: an object literal would set the prototype instead of a key.
    const interim = JSON.parse(`{"resultType":"input_required","inputRequests":{"__proto__":${JSON.stringify(form)}}}`);
    const raw = await rawMrtr((round) => (round === 0 ? interim : { resultType: 'complete', content: [] }));
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      client.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => ({ action: 'accept', content: { n: 'x' } }) });
      await client.callTool('t', {}, { tool });
      const retry = raw.bodies().filter((b) => b.method === 'tools/call')[1]!;
      expect(Object.keys(retry.params.inputResponses)).toEqual(['__proto__']);
      expect(retry.params.inputResponses['__proto__']).toEqual({ action: 'accept', content: { n: 'x' } });
    } finally {
      await raw.close();
    }
  });

  test('close() while a handler waits for the user ends the call at once, even if the handler ignores its signal', async () => {
    const raw = await rawMrtr(() => ({ resultType: 'input_required', inputRequests: { q: form } }));
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      let handlerSignal: AbortSignal | undefined;
      client.setInputHandler('elicitation/create', {
        modes: ['form'],
        handle: (_params, context) => {
          handlerSignal = context.signal;
          return new Promise(() => {}); // a user who never answers
        },
      });
      const call = client.callTool('t', {}, { tool });
      await expect.poll(() => handlerSignal).toBeDefined();
      await client.close();
      await expect(call).rejects.toMatchObject({ code: 'closed' });
      // The handler is told too, so a dialog can close itself.
      expect(handlerSignal!.aborted).toBe(true);
      expect(raw.bodies().filter((b) => b.method === 'tools/call')).toHaveLength(1);
    } finally {
      await raw.close();
    }
  });
});
