/**
 * Field cases from public bug reports (../shared/cases) that concern the
 * transport, rebuilt with our own bytes on raw node:http servers: each test is
 * named after its case.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { McpClient, McpClientError, type JsonObject } from '../src/index.js';
import { startRawServer, writeChunks } from './support/servers.js';

const quiet = { onWarning: () => {} };
const modern = { protocol: 'modern' as const, ...quiet };

/** Answers server/discover; everything else goes to `reply`. */
function serverWith(reply: (body: any, res: ServerResponse) => void | Promise<void>) {
  return startRawServer(async (req, res) => {
    if (req.json?.method === 'server/discover') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: req.json.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } }));
      return;
    }
    await reply(req.json, res);
  });
}

/** Splits `body` at byte offsets given as "n bytes after the first occurrence of anchor". */
function cut(body: string, cuts: [anchor: string, offset: number][]): Uint8Array[] {
  const bytes = Buffer.from(body, 'utf8');
  const positions = cuts.map(([anchor, offset]) => {
    const at = bytes.indexOf(Buffer.from(anchor, 'utf8'));
    if (at < 0) throw new Error(`anchor not found: ${anchor}`);
    return at + offset;
  });
  positions.sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const position of positions) {
    chunks.push(bytes.subarray(start, position));
    start = position;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

describe('C01 SSE framing: BOM, CRLF, multi-line data, events and UTF-8 characters split across reads', () => {
  const log = 'Démarrage : naïve ☕ — 北京 🌋';
  const body = (id: number) =>
    '\uFEFFevent: message\r\n' +
    `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${log}"}}\r\n` +
    '\r\n' +
    'event: message\r\n' +
    'data: {\r\n' +
    'data:   "jsonrpc": "2.0",\r\n' +
    `data:   "id": ${id},\r\n` +
    'data:   "result": {\r\n' +
    'data:"resultType": "complete",\r\n' +
    'data:   "tools": [{"name": "mète_北京", "description": "Prévision ☔🌈", "inputSchema": {"type": "object"}}]\r\n' +
    'data:   }\r\n' +
    'data: }\r\n' +
    '\r\n';
  const cuts: [string, number][] = [
    ['event: message\r\n', 15], // between CR and LF
    ['☕', 1], // inside a 3-byte character
    ['🌋', 3], // inside a 4-byte character
    ['"}}\r\n\r\n', 5], // between CR and LF of the blank line ending event 1
    ['data:   "id"', 3], // inside the field name
    ['mète', 2], // inside a 2-byte character
    ['🌈', 1], // inside a 4-byte character
  ];

  test.each(['as cut', 'one byte per write', 'single write'] as const)('%s: exactly two messages, intact, in order', async (mode) => {
    const raw = await serverWith(async (request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      const text = body(request.id);
      const chunks = mode === 'as cut' ? cut(text, cuts) : mode === 'single write' ? [Buffer.from(text)] : [...Buffer.from(text)].map((b) => Uint8Array.of(b));
      await writeChunks(res, chunks, mode === 'one byte per write' ? 0 : 15);
      res.end();
    });
    try {
      const client = new McpClient(raw.url, { ...modern, logLevel: 'info' });
      const logs: unknown[] = [];
      client.on('log', (entry) => logs.push(entry.data));
      const dispatched: string[] = [];
      client.on('traffic', (event) => event.direction === 'in' && dispatched.push('method' in event.message ? event.message.method : 'response'));
      const tools = await client.listTools();
      expect(logs).toEqual([log]);
      expect(tools).toEqual([{ name: 'mète_北京', description: 'Prévision ☔🌈', inputSchema: { type: 'object' } }]);
      // discover's response, then the notification and the list response.
      expect(dispatched).toEqual(['response', 'notifications/message', 'response']);
    } finally {
      await raw.close();
    }
  });
});

describe('C02 SSE events without an event line are message events', () => {
  const frames: [string, (id: number) => string][] = [
    ['no event line', (id) => `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', tools: [{ name: 'ping_tool', inputSchema: { type: 'object' } }] } })}\n\n`],
    ['an empty event line', (id) => `event:\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', tools: [{ name: 'ping_tool', inputSchema: { type: 'object' } }] } })}\n\n`],
    ['an explicit message event (control)', (id) => `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', tools: [{ name: 'ping_tool', inputSchema: { type: 'object' } }] } })}\n\n`],
    [
      'other event names and keep-alive frames around it',
      (id) =>
        `: keep-alive\n\nevent: ping\ndata: not json\n\ndata: {}\n\ndata:\n\ndata: {"type":"heartbeat"}\n\n` +
        `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', tools: [{ name: 'ping_tool', inputSchema: { type: 'object' } }] } })}\n\n`,
    ],
  ];
  test.each(frames)('%s', async (_name, frame) => {
    const raw = await startRawServer((req, res) => {
      const { id, method } = req.json;
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(method === 'server/discover' ? `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} } })}\n\n` : frame(id));
    });
    try {
      const tools = await new McpClient(raw.url, modern).listTools();
      expect(tools.map((t) => t.name)).toEqual(['ping_tool']);
    } finally {
      await raw.close();
    }
  });
});

describe('C09 media types with parameters or odd casing; plain application/json on requests', () => {
  const list = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } });
  const accepted: [string, (id: number) => string][] = [
    ['application/json; charset=utf-8', list],
    ['Application/JSON;charset=UTF-8', list],
    ['text/event-stream; charset=utf-8', (id) => `event: message\ndata: ${list(id)}\n\n`],
    ['TEXT/EVENT-STREAM', (id) => `data: ${list(id)}\n\n`],
  ];
  test.each(accepted)('%s is accepted', async (contentType, payload) => {
    const raw = await serverWith((request, res) => {
      res.writeHead(200, { 'Content-Type': contentType });
      res.end(payload(request.id));
    });
    try {
      expect((await new McpClient(raw.url, modern).listTools()).map((t) => t.name)).toEqual(['echo']);
      for (const request of raw.requests) {
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.headers.accept).toMatch(/application\/json/);
        expect(request.headers.accept).toMatch(/text\/event-stream/);
      }
    } finally {
      await raw.close();
    }
  });

  test('an HTML page is rejected at once with a typed error carrying status and content type', async () => {
    const raw = await serverWith((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Portal</title><p>Log in first</p>');
    });
    try {
      const error = await new McpClient(raw.url, modern).listTools().catch((e) => e);
      expect(error.code).toBe('protocol');
      expect(error.message).toMatch(/Unexpected content type "text\/html; charset=utf-8"/);
      expect(error.data).toMatchObject({ status: 200, contentType: 'text/html', method: 'tools/list' });
    } finally {
      await raw.close();
    }
  });

  test('a missing Content-Type is rejected with a typed error', async () => {
    const raw = await serverWith((request, res) => {
      res.removeHeader('Content-Type');
      res.writeHead(200);
      res.end(list(request.id));
    });
    try {
      const error = await new McpClient(raw.url, modern).listTools().catch((e) => e);
      expect(error.code).toBe('protocol');
      expect(error.message).toMatch(/has no Content-Type/);
    } finally {
      await raw.close();
    }
  });
});

describe('C12 tools/list pagination', () => {
  const tool = (name: string, extra: JsonObject = {}) => ({ name, inputSchema: { type: 'object' }, ...extra });
  function pages(answer: (cursor: string | undefined, id: number, res: ServerResponse) => void) {
    return serverWith((request, res) => answer(request.params?.cursor, request.id, res));
  }
  const json = (res: ServerResponse, id: number, result: unknown) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
  };

  test('three pages: everything, in order, cursors sent back verbatim', async () => {
    const raw = await pages((cursor, id, res) => {
      if (cursor === undefined) return json(res, id, { tools: [tool('p1'), tool('p2')], nextCursor: 'c/1+=' });
      if (cursor === 'c/1+=') return json(res, id, { tools: [tool('q1'), tool('q2')], nextCursor: '{"page":3}' });
      if (cursor === '{"page":3}') return json(res, id, { tools: [tool('r1')] });
      json(res, id, { tools: [tool('WRONG-CURSOR')] });
    });
    try {
      expect((await new McpClient(raw.url, modern).listTools()).map((t) => t.name)).toEqual(['p1', 'p2', 'q1', 'q2', 'r1']);
      const lists = raw.bodies().filter((b) => b.method === 'tools/list');
      expect('cursor' in lists[0].params).toBe(false);
      expect(lists.map((b) => b.params.cursor)).toEqual([undefined, 'c/1+=', '{"page":3}']);
    } finally {
      await raw.close();
    }
  });

  test('a stuck cursor stops after two requests, without duplicates, with a warning', async () => {
    const raw = await pages((_cursor, id, res) => json(res, id, { tools: [tool('s1'), tool('s2')], nextCursor: 'again' }));
    try {
      const warnings: string[] = [];
      const tools = await new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w.message) }).listTools();
      expect(tools.map((t) => t.name)).toEqual(['s1', 's2']);
      expect(raw.bodies().filter((b) => b.method === 'tools/list')).toHaveLength(2);
      expect(warnings.join('\n')).toMatch(/returned cursor "again" again/);
    } finally {
      await raw.close();
    }
  });

  // Deliberate difference from the case's expectation ("an empty nextCursor ends the list after one
  // request"): the 2026-07-28 pagination page says an empty string is a valid cursor that MUST NOT be
  // treated as the end. The kit follows it once; the repeated-cursor guard ends a server that keeps
  // answering "" — two requests, no duplicates.
  test('an empty-string cursor is followed (spec: pagination), and a server that repeats it is stopped', async () => {
    const raw = await pages((cursor, id, res) => json(res, id, cursor === undefined ? { tools: [tool('only')], nextCursor: '' } : { tools: [tool('only')], nextCursor: '' }));
    try {
      const tools = await new McpClient(raw.url, modern).listTools();
      expect(tools.map((t) => t.name)).toEqual(['only']);
      expect(raw.bodies().filter((b) => b.method === 'tools/list').map((b) => b.params.cursor)).toEqual([undefined, '']);
    } finally {
      await raw.close();
    }
  });

  test('a huge catalogue: 2,400 tools over 8 pages mixing JSON and SSE, exact non-ASCII names', async () => {
    const name = (n: number) =>
      n % 100 === 0 ? `${['инструмент_', 'ツール_', 'outil_é_'][(n / 100) % 3]}${n}` : `tool_${String(n).padStart(4, '0')}`;
    const schema = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`field${i}`, i === 0 ? { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'string' } } } } } } } : { type: 'string' }]),
      ),
    };
    const all = Array.from({ length: 2400 }, (_, n) => ({ name: name(n), description: (n === 7 ? 'd'.repeat(200 * 1024) : 'x'.repeat(1024)), inputSchema: schema }));
    const raw = await pages((cursor, id, res) => {
      const page = cursor === undefined ? 0 : Number(cursor.slice(5));
      const result = { tools: all.slice(page * 300, page * 300 + 300), ...(page < 7 ? { nextCursor: `page-${page + 1}` } : {}) };
      if (page % 2 === 1) {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`);
      } else json(res, id, result);
    });
    try {
      const tools = await new McpClient(raw.url, modern).listTools();
      expect(tools).toHaveLength(2400);
      expect(tools.map((t) => t.name)).toEqual(all.map((t) => t.name));
      expect(new Set(tools.map((t) => t.name)).size).toBe(2400);
      expect(tools[7]!.description).toHaveLength(200 * 1024);
      expect(raw.bodies().filter((b) => b.method === 'tools/list')).toHaveLength(8);
    } finally {
      await raw.close();
    }
  });

  test('pagination is capped with a typed error', async () => {
    let n = 0;
    const raw = await pages((_cursor, id, res) => json(res, id, { tools: [tool(`t${n}`)], nextCursor: `next-${n++}` }));
    try {
      const error = await new McpClient(raw.url, { ...modern, maxPages: 5 }).listTools().catch((e) => e);
      expect(error.code).toBe('pagination');
      expect(error.message).toMatch(/did not finish within 5 pages/);
    } finally {
      await raw.close();
    }
  });
});

describe('SSE stream limits and oddities', () => {
  test('an oversized event is refused with too_large instead of buffering without limit', async () => {
    const raw = await serverWith(async (_request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      await writeChunks(res, ['data: ' + 'z'.repeat(4000), 'z'.repeat(4000)], 5);
      res.end();
    });
    try {
      const error = await new McpClient(raw.url, { ...modern, maxEventChars: 1000 }).listTools().catch((e) => e);
      expect(error.code).toBe('too_large');
    } finally {
      await raw.close();
    }
  });

  test('a stream that ends before the response is a typed error', async () => {
    const raw = await serverWith((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(': only a comment\n\n');
    });
    try {
      const error = await new McpClient(raw.url, modern).listTools().catch((e) => e);
      expect(error.code).toBe('protocol');
      expect(error.message).toMatch(/closed the response stream of tools\/list before sending a response/);
    } finally {
      await raw.close();
    }
  });

  test('events after the final response are ignored and the stream is closed', async () => {
    let closedEarly = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const raw = await serverWith(async (request, res) => {
      res.on('close', () => (closedEarly = !res.writableEnded));
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { tools: [] } })}\n\n`);
      // Keep the stream open until the client has its answer: a client that waits for the end
      // of the stream never resolves (the test times out).
      await released;
      if (!res.writableEnded && !res.destroyed) res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { tools: [{ name: 'late', inputSchema: { type: 'object' } }] } })}\n\n`);
    });
    try {
      expect(await new McpClient(raw.url, modern).listTools()).toEqual([]);
      await expect.poll(() => closedEarly).toBe(true);
    } finally {
      release();
      await raw.close();
    }
  });
});

describe('C27 non-ASCII text headed for header values', () => {
  const b64 = (value: string) => `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
  const forecast = {
    name: 'forecast',
    inputSchema: { type: 'object', properties: { town: { type: 'string', 'x-mcp-header': 'Town' } } },
  };

  test('C27 kit-built headers: a non-ASCII tool name and Mcp-Param values go as the base64 sentinel; CR/LF injects nothing', async () => {
    const raw = await serverWith((request, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'ok' }] } }));
    });
    try {
      const client = new McpClient(raw.url, modern);
      await client.callTool('prévision_大阪', {}, { tool: { name: 'prévision_大阪', inputSchema: { type: 'object' } } });
      for (const town of ['Genève 札幌', ' trailing ', 'Oslo', 'a\r\nX-Smuggled: 1']) await client.callTool('forecast', { town }, { tool: forecast });
      const calls = raw.requests.filter((r) => r.body?.method === 'tools/call');
      expect(calls[0]!.headers['mcp-name']).toBe(b64('prévision_大阪'));
      expect(calls[0]!.body.params.name).toBe('prévision_大阪');
      expect(calls.slice(1).map((r) => r.headers['mcp-param-town'])).toEqual([b64('Genève 札幌'), b64(' trailing '), 'Oslo', b64('a\r\nX-Smuggled: 1')]);
      expect(calls.some((r) => 'x-smuggled' in r.headers)).toBe(false);
    } finally {
      await raw.close();
    }
  });

  test('C27 a caller header value fetch cannot send: a typed error before any request, naming the header and the character', async () => {
    const raw = await serverWith((_request, res) => void res.writeHead(500).end());
    try {
      for (const [value, shown] of [['Đorđe', /"Đ" \(U\+0110\)/], ['two\nlines', /a line break \(U\+000A\)/], ['emoji 🙂', /"🙂" \(U\+1F642\)/]] as const) {
        const client = new McpClient(raw.url, { ...quiet, headers: { 'X-Display-Name': value } });
        const error = await client.connect().catch((e) => e);
        expect(McpClientError.isInstance(error)).toBe(true);
        expect(error.code).toBe('invalid_header');
        expect(error.message).toContain('X-Display-Name');
        expect(error.message).toMatch(shown);
        expect(error.message).not.toMatch(/CORS|unreachable|down/i);
        expect(error.data).toMatchObject({ header: 'X-Display-Name', url: raw.url });
      }
      // A header name fetch refuses is named too; so is a headers function's bad value, at request time.
      const badName = await new McpClient(raw.url, { ...quiet, headers: { 'X Display': 'a' } }).connect().catch((e) => e);
      expect(badName).toMatchObject({ code: 'invalid_header', data: { header: 'X Display' } });
      const fromFunction = await new McpClient(raw.url, { ...quiet, headers: () => ({ 'X-Display-Name': 'Łukasz' }) }).connect().catch((e) => e);
      expect(fromFunction).toMatchObject({ code: 'invalid_header', data: { header: 'X-Display-Name' } });
      expect(raw.requests).toEqual([]);
    } finally {
      await raw.close();
    }
  });

  test('C27 a Latin-1 caller header value goes out as single bytes, with a warning naming the header', async () => {
    let received: Buffer | undefined;
    const raw = await serverWith(() => {});
    const warnings: { code: string; message: string }[] = [];
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w), headers: { 'X-Display-Name': 'Jürgen' } });
      await client.discover();
      const sent = raw.requests[0]!.headers['x-display-name'] as string;
      received = Buffer.from(sent, 'latin1');
      expect([...received]).toEqual([...Buffer.from('Jürgen', 'latin1')]);
      expect(warnings).toContainEqual({ code: 'header-latin1', message: expect.stringContaining('X-Display-Name') });
      expect(warnings.find((w) => w.code === 'header-latin1')!.message).toMatch(/ISO-8859-1|Latin-1/);
    } finally {
      await raw.close();
    }
  });
});
