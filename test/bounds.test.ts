/**
 * Issue 19, hostile servers against the core's bounds: listings that never end
 * (item 2) and rounds that ask for input a thousand times (item 6). Raw
 * node:http servers, because a real server SDK cannot be made to misbehave so.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { McpClient, type JsonObject, type McpWarning } from '../src/index.js';
import { startRawServer } from './support/servers.js';

/** Answers server/discover; everything else goes to `reply`. */
function serverWith(reply: (body: any, res: ServerResponse) => void | Promise<void>) {
  return startRawServer(async (req, res) => {
    if (req.json?.method === 'server/discover') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: req.json.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {}, resources: {} } } }));
      return;
    }
    await reply(req.json, res);
  });
}

const json = (res: ServerResponse, id: number, result: unknown) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
};
const tool = (name: string, extra: JsonObject = {}) => ({ name, inputSchema: { type: 'object' }, ...extra });

function collect(): { warnings: McpWarning[]; options: { protocol: 'modern'; onWarning: (w: McpWarning) => void } } {
  const warnings: McpWarning[] = [];
  return { warnings, options: { protocol: 'modern', onWarning: (w) => warnings.push(w) } };
}

describe('the listing byte bound in the legacy era counts pages as they arrived too (issue 30)', () => {
  const MiB = 1024 * 1024;
  const initialized = (id: unknown) =>
    JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } });
  /** A tools/list page: one small tool, a MiB of spaces, a fresh cursor every time. */
  const padded = (id: unknown, n: number) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":[${JSON.stringify(tool(`p${n}`))}],"nextCursor":"next-${n}"${' '.repeat(MiB)}}}`;

  test('Streamable HTTP (2025-06-18), answers as JSON bodies and as SSE events: stopped in 3 pages at 3 MiB', async () => {
    for (const events of [false, true]) {
      let n = 0;
      const raw = await startRawServer((req, res) => {
        const body = req.json;
        if (body?.id === undefined) return void res.writeHead(202).end();
        const text = body.method === 'initialize' ? initialized(body.id) : padded(body.id, n++);
        if (events) res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end(`event: message\ndata: ${text}\n\n`);
        else res.writeHead(200, { 'Content-Type': 'application/json' }).end(text);
      });
      try {
        const error = await new McpClient(raw.url, { protocol: 'legacy', cache: false, maxListBytes: 3 * MiB, onWarning: () => {} }).listTools().catch((e) => e);
        expect(error).toMatchObject({ code: 'too_large', data: { option: 'maxListBytes', limit: 3 * MiB } });
        expect(error.message).toMatch(/in 3 page\(s\)/);
      } finally {
        await raw.close();
      }
    }
  });

  test('HTTP+SSE (2024-11-05), answers on the GET stream: stopped in 3 pages at 3 MiB', async () => {
    let stream: ServerResponse | undefined;
    let n = 0;
    const server = createServer(async (req, res) => {
      if (req.method === 'GET' && req.url === '/sse') {
        stream = res;
        res.writeHead(200, { 'Content-Type': 'text/event-stream' }).write('event: endpoint\ndata: /messages?s=1\n\n');
        return;
      }
      if (req.method !== 'POST' || !req.url?.startsWith('/messages')) return void res.writeHead(405).end();
      let text = '';
      for await (const chunk of req) text += chunk;
      const body = JSON.parse(text);
      res.writeHead(202).end();
      if (body.id !== undefined) stream!.write(`event: message\ndata: ${body.method === 'initialize' ? initialized(body.id) : padded(body.id, n++)}\n\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new McpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`, { protocol: 'legacy', cache: false, maxListBytes: 3 * MiB, onWarning: () => {} });
    try {
      const error = await client.listTools().catch((e) => e);
      expect(error).toMatchObject({ code: 'too_large', data: { option: 'maxListBytes', limit: 3 * MiB } });
      expect(error.message).toMatch(/in 3 page\(s\)/);
    } finally {
      await client.close();
      stream?.end();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('listings are bounded (issue 19, item 2)', () => {
  /** 1,000 pages of 1,000 fresh tools, each page with a fresh cursor: a million tools if followed. */
  function endlessCatalogue() {
    return serverWith((request, res) => {
      const page = request.params?.cursor === undefined ? 0 : Number(String(request.params.cursor).slice(5));
      const key = request.method === 'resources/list' ? 'resources' : 'tools';
      const items = Array.from({ length: 1000 }, (_, i) =>
        key === 'tools' ? tool(`t${page}_${i}`) : { uri: `file:///r/${page}/${i}`, name: `r${page}_${i}` },
      );
      json(res, request.id, { [key]: items, ...(page < 999 ? { nextCursor: `page-${page + 1}` } : {}) });
    });
  }

  test('a million tools over a thousand fresh cursors: the first 10,000 are kept, with a warning, after 10 pages', async () => {
    const raw = await endlessCatalogue();
    try {
      const { warnings, options } = collect();
      const tools = await new McpClient(raw.url, options).listTools();
      expect(tools).toHaveLength(10_000);
      expect(tools[0]!.name).toBe('t0_0');
      expect(tools.at(-1)!.name).toBe('t9_999');
      // The client stopped asking: no page after the cap was requested.
      expect(raw.bodies().filter((b) => b.method === 'tools/list')).toHaveLength(10);
      expect(warnings.filter((w) => w.code === 'list-truncated').map((w) => w.message)).toEqual([
        'tools/list listed over 10000 items; kept the first 10000 (see maxListItems)',
      ]);
    } finally {
      await raw.close();
    }
  });

  test('maxListItems raises or lowers the cap, for every list method; a page bigger than the cap is cut', async () => {
    const raw = await endlessCatalogue();
    try {
      const { warnings, options } = collect();
      const client = new McpClient(raw.url, { ...options, maxListItems: 2500 });
      expect(await client.listTools()).toHaveLength(2500);
      expect((await client.listResources()).map((r) => r.uri).at(-1)).toBe('file:///r/2/499');
      expect(raw.bodies().filter((b) => b.method === 'resources/list')).toHaveLength(3);
      const small = await new McpClient(raw.url, { ...options, maxListItems: 10 }).listTools();
      expect(small.map((t) => t.name)).toEqual(Array.from({ length: 10 }, (_, i) => `t0_${i}`));
      expect(warnings.filter((w) => w.code === 'list-truncated').map((w) => w.message)).toEqual([
        'tools/list listed over 2500 items; kept the first 2500 (see maxListItems)',
        'resources/list listed over 2500 items; kept the first 2500 (see maxListItems)',
        'tools/list listed over 10 items; kept the first 10 (see maxListItems)',
      ]);
    } finally {
      await raw.close();
    }
  });

  test('one item per page and fresh cursors forever: a typed error after 500 pages (the default page cap)', async () => {
    let n = 0;
    const raw = await serverWith((request, res) => json(res, request.id, { tools: [tool(`t${n}`)], nextCursor: `next-${n++}` }));
    try {
      const error = await new McpClient(raw.url, collect().options).listTools().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'pagination', message: 'tools/list did not finish within 500 pages' });
      expect(raw.bodies().filter((b) => b.method === 'tools/list')).toHaveLength(500);
    } finally {
      await raw.close();
    }
  });

  test('a real-sized catalogue (235 tools, one per page) fits the defaults', async () => {
    const raw = await serverWith((request, res) => {
      const page = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
      json(res, request.id, { tools: [tool(`tool_${page}`)], ...(page < 234 ? { nextCursor: String(page + 1) } : {}) });
    });
    try {
      const { warnings, options } = collect();
      expect(await new McpClient(raw.url, options).listTools()).toHaveLength(235);
      expect(warnings).toEqual([]);
    } finally {
      await raw.close();
    }
  });

  test('an item repeated 100,000 times is kept once, with one warning, not 100,000', async () => {
    const raw = await serverWith((request, res) => json(res, request.id, { tools: [tool('a'), ...Array.from({ length: 100_000 }, () => tool('same')), tool('b'), tool('a')] }));
    try {
      const { warnings, options } = collect();
      expect((await new McpClient(raw.url, options).listTools()).map((t) => t.name)).toEqual(['a', 'same', 'b']);
      expect(warnings.map((w) => [w.code, w.message])).toEqual([['duplicate-list-item', 'tools/list repeated items 100000 time(s) (first "same"); kept the first of each']]);
    } finally {
      await raw.close();
    }
  });
});

describe('cursors and a listing\'s bytes are bounded (issue 29, item 3)', () => {
  const MiB = 1024 * 1024;

  test('200 pages each with a fresh 1 MiB nextCursor: the first is refused, typed and naming maxCursorBytes; no second page is asked', async () => {
    let n = 0;
    const raw = await serverWith((request, res) => json(res, request.id, { tools: [tool(`t${n}`)], nextCursor: `${n++}`.padEnd(MiB, 'x') }));
    try {
      const error = await new McpClient(raw.url, collect().options).listTools().catch((e) => e);
      expect(error).toMatchObject({ name: 'McpClientError', code: 'too_large', data: { option: 'maxCursorBytes', limit: 65_536, method: 'tools/list' } });
      expect(error.message).toMatch(/nextCursor of tools\/list is over 65536 bytes .*maxCursorBytes/);
      expect(raw.bodies().filter((b) => b?.method === 'tools/list')).toHaveLength(1);
    } finally {
      await raw.close();
    }
  });

  test('a cursor of exactly 64 KiB is followed, one UTF-8 byte more is not (multi-byte characters counted as bytes); maxCursorBytes moves the line', async () => {
    const cursors = ['a'.repeat(65_536), 'é'.repeat(32_768), 'é'.repeat(32_768) + 'a'];
    const raw = await serverWith((request, res) => {
      const at = request.params?.cursor === undefined ? 0 : cursors.indexOf(request.params.cursor) + 1;
      json(res, request.id, { tools: [tool(`t${at}`)], ...(at < cursors.length ? { nextCursor: cursors[at] } : {}) });
    });
    try {
      const error = await new McpClient(raw.url, { ...collect().options, cache: false }).listTools().catch((e) => e);
      expect(error).toMatchObject({ code: 'too_large', data: { option: 'maxCursorBytes', limit: 65_536 } });
      // The first two cursors (65,536 bytes each) were followed.
      expect(raw.bodies().filter((b) => b?.method === 'tools/list').map((b) => b.params?.cursor?.length)).toEqual([undefined, 65_536, 32_768]);
      const tools = await new McpClient(raw.url, { ...collect().options, cache: false, maxCursorBytes: 65_537 }).listTools();
      expect(tools.map((t) => t.name)).toEqual(['t0', 't1', 't2', 't3']);
    } finally {
      await raw.close();
    }
  });

  test('pages of 1 MiB each with fresh small cursors forever: the listing stops at 64 MiB (maxListBytes) with a typed error, not at 500 pages', async () => {
    let n = 0;
    const description = 'd'.repeat(MiB);
    const raw = await serverWith((request, res) => json(res, request.id, { tools: [tool(`t${n}`, { description })], nextCursor: `next-${n++}` }));
    try {
      const error = await new McpClient(raw.url, collect().options).listTools().catch((e) => e);
      expect(error).toMatchObject({ code: 'too_large', data: { option: 'maxListBytes', limit: 64 * MiB, method: 'tools/list' } });
      expect(error.message).toMatch(/more than 67108864 bytes of JSON in 64 page\(s\) \(see maxListBytes\)/);
      expect(raw.bodies().filter((b) => b?.method === 'tools/list')).toHaveLength(64);
      // A lower cap stops sooner.
      const small = await new McpClient(raw.url, { ...collect().options, cache: false, maxListBytes: 3 * MiB }).listTools().catch((e) => e);
      expect(small).toMatchObject({ code: 'too_large', data: { option: 'maxListBytes', limit: 3 * MiB } });
      expect(small.message).toMatch(/in 3 page\(s\)/);
    } finally {
      await raw.close();
    }
  });

  test('the byte bound counts each page as the text it arrived in, whitespace included, in an SSE event as in a JSON body (issue 30: the parsed page is not walked)', async () => {
    // A few bytes of tools and a MiB of spaces, in an event and in a body: the client reads and holds the spaces too.
    let n = 0;
    const sse = await serverWith((request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(`data: {"jsonrpc":"2.0","id":${request.id},"result":{"tools":[${JSON.stringify(tool(`s${n}`))}],"nextCursor":"next-${n++}"${' '.repeat(MiB)}}}\n\n`);
    });
    let m = 0;
    const padded = await serverWith((request, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`{"jsonrpc":"2.0","id":${request.id},"result":{"tools":[${JSON.stringify(tool(`p${m}`))}],"nextCursor":"next-${m++}"${' '.repeat(MiB)}}}`);
    });
    try {
      const overSse = await new McpClient(sse.url, { ...collect().options, cache: false, maxListBytes: 3 * MiB }).listTools().catch((e) => e);
      expect(overSse).toMatchObject({ code: 'too_large', data: { option: 'maxListBytes', limit: 3 * MiB } });
      expect(overSse.message).toMatch(/in 3 page\(s\)/);
      const overPadded = await new McpClient(padded.url, { ...collect().options, cache: false, maxListBytes: 3 * MiB }).listTools().catch((e) => e);
      expect(overPadded).toMatchObject({ code: 'too_large', data: { option: 'maxListBytes', limit: 3 * MiB } });
      expect(overPadded.message).toMatch(/in 3 page\(s\)/);
      expect(padded.bodies().filter((b) => b?.method === 'tools/list')).toHaveLength(3);
    } finally {
      await sse.close();
      await padded.close();
    }
  });
});

describe('a round that asks for input a thousand times (issue 19, item 6)', () => {
  const ask = (i: number) => ({ method: 'elicitation/create', params: { message: `Question ${i}?`, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } } });
  const flood = (count: number) => {
    const requests: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) requests[`q${i}`] = ask(i);
    return requests;
  };
  /** Round 0 asks with `requests`; the retry is answered with what the server received. */
  function floodServer(requests: Record<string, unknown>) {
    return serverWith((request, res) => {
      if (request.method !== 'tools/call') return json(res, request.id, { tools: [] });
      if (!request.params.inputResponses) return json(res, request.id, { resultType: 'input_required', inputRequests: requests, requestState: 'round-1' });
      const actions = Object.values(request.params.inputResponses as Record<string, { action?: string }>).map((r) => r.action ?? 'roots');
      json(res, request.id, { resultType: 'complete', content: [{ type: 'text', text: `${actions.length} answers: ${[...new Set(actions)].join(',')}` }] });
    });
  }
  const target = { name: 'survey', inputSchema: { type: 'object' } };

  test('1,000 requests in one round: nobody is asked, the round is declined to the server, with a warning and a round event', async () => {
    const requests = flood(997);
    requests.roots = { method: 'roots/list' };
    requests.model = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 } };
    Object.defineProperty(requests, '__proto__', { value: ask(-1), enumerable: true });
    const raw = await floodServer(requests);
    try {
      const { warnings, options } = collect();
      const client = new McpClient(raw.url, options);
      let asked = 0;
      client.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => (asked++, { action: 'accept', content: { a: 'x' } }) });
      client.setInputHandler('roots/list', { handle: async () => (asked++, { roots: [{ uri: 'file:///secret' }] }) });
      const rounds: { phase: string; declined?: number }[] = [];
      const declinedRound = Symbol.for('mcp-web-elements.declined-round');
      client.on('round', (event) => {
        const declined = (event.inputResponses as Record<symbol, number> | undefined)?.[declinedRound];
        rounds.push({ phase: event.phase, ...(declined ? { declined } : {}) });
      });
      const result = await client.callTool('survey', {}, { tool: target });
      expect(asked).toBe(0);
      expect(result).toMatchObject({ content: [{ type: 'text', text: '999 answers: decline,roots' }] });
      const retry = raw.bodies().filter((b) => b.method === 'tools/call')[1];
      expect(retry.params.requestState).toBe('round-1');
      expect(retry.params.inputResponses.q0).toEqual({ action: 'decline' });
      expect(retry.params.inputResponses.roots).toEqual({ roots: [] });
      // Sampling has no refusal answer: left out.
      expect('model' in retry.params.inputResponses).toBe(false);
      expect(Object.hasOwn(retry.params.inputResponses, '__proto__')).toBe(true);
      expect(rounds).toEqual([{ phase: 'input_required' }, { phase: 'answered', declined: 1000 }, { phase: 'complete' }]);
      expect(warnings.filter((w) => w.code === 'input-flood').map((w) => w.message)).toEqual([
        'tools/call asked for 1000 inputs in one round (more than maxInputRequests, 16); declined them all without asking',
      ]);
    } finally {
      await raw.close();
    }
  });

  test('16 requests (the default cap) are all asked; maxInputRequests lowers or raises the cap', async () => {
    const raw = await floodServer(flood(16));
    try {
      let asked = 0;
      const handler = { modes: ['form'] as const, handle: async () => (asked++, { action: 'accept' as const, content: { a: 'x' } }) };
      const client = new McpClient(raw.url, collect().options);
      client.setInputHandler('elicitation/create', handler);
      expect(await client.callTool('survey', {}, { tool: target })).toMatchObject({ content: [{ text: '16 answers: accept' }] });
      expect(asked).toBe(16);
      const strict = new McpClient(raw.url, { ...collect().options, maxInputRequests: 3 });
      strict.setInputHandler('elicitation/create', handler);
      expect(await strict.callTool('survey', {}, { tool: target })).toMatchObject({ content: [{ text: '16 answers: decline' }] });
      expect(asked).toBe(16);
    } finally {
      await raw.close();
    }
  });
});
