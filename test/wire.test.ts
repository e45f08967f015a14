/**
 * Interop with sloppy servers on the wire (issue "Interop with imperfect real
 * servers", items 5–7): faults a real server SDK cannot be made to produce, so
 * each is rebuilt byte for byte on a raw node:http server. Every test is named
 * after the kind of fault; each leniency is checked to warn the developer.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient, McpRpcError, type McpWarning, type ToolCallResult } from '../src/index.js';
import { startRawServer, writeChunks, type RunningServer } from './support/servers.js';

const open: RunningServer[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

const discoverResult = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } };
const callResult = (text: string) => ({ resultType: 'complete', content: [{ type: 'text', text }] });

/** A modern server: server/discover answered normally, every other request through `reply`. */
async function modernServer(reply: (body: any, res: ServerResponse) => void | Promise<void>) {
  const raw = await startRawServer(async (req, res) => {
    if (req.json?.method === 'server/discover') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: req.json.id, result: discoverResult }));
      return;
    }
    await reply(req.json, res);
  });
  open.push(raw);
  return raw;
}

function client(url: string, options: ConstructorParameters<typeof McpClient>[1] = {}) {
  const warnings: McpWarning[] = [];
  const mcp = new McpClient(url, { protocol: 'modern', requestTimeoutMs: 4000, onWarning: (w) => warnings.push(w), ...options });
  return { mcp, warnings, codes: () => warnings.map((w) => w.code) };
}

const sse = (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
const text = (result: unknown) => (result as ToolCallResult).content?.map((c) => (c as { text?: string }).text).join('');

describe('reply ids echoed with another JSON type (item 5)', () => {
  test('a JSON body answering request 2 with "id":"2" is that request\'s reply, accepted with a warning', async () => {
    const raw = await modernServer((body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(`{"jsonrpc":"2.0","id":"${body.id}","result":${JSON.stringify(callResult('typed differently'))}}`);
    });
    const { mcp, warnings } = client(raw.url);
    expect(text(await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } }))).toBe('typed differently');
    const sentId = raw.bodies().find((b) => b.method === 'tools/call').id;
    expect(typeof sentId).toBe('number');
    expect(warnings).toContainEqual({ code: 'response-id-mismatch', message: expect.stringContaining(`"${sentId}"`) });
    expect(warnings.find((w) => w.code === 'response-id-mismatch')!.message).toMatch(/tools\/call/);
  });

  test('the same on an SSE stream, after a notification', async () => {
    const raw = await modernServer(async (body, res) => {
      sse(res);
      await writeChunks(res, [
        `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}\n\n`,
        `data: {"jsonrpc":"2.0","id":"${body.id}","result":${JSON.stringify(callResult('streamed'))}}\n\n`,
      ]);
      res.end();
    });
    const { mcp, codes } = client(raw.url);
    expect(text(await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } }))).toBe('streamed');
    expect(codes()).toContain('response-id-mismatch');
  });

  test('on the shared stream of an HTTP+SSE (2024-11-05) server, "id":"2" still finds request 2', async () => {
    let stream: ServerResponse | undefined;
    const raw = await startRawServer(async (req, res) => {
      if (req.method === 'GET') {
        stream = sse(res);
        res.write('event: endpoint\ndata: /messages?session=s1\n\n');
        return;
      }
      if (req.method === 'POST' && req.url === '/mcp') return void res.writeHead(405).end();
      res.writeHead(202).end();
      const body = req.json;
      if (!body || body.id === undefined || body.method === undefined) return;
      const result = body.method === 'initialize'
        ? { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'old', version: '1' } }
        : callResult('routed by id text');
      stream!.write(`event: message\ndata: {"jsonrpc":"2.0","id":"${body.id}","result":${JSON.stringify(result)}}\n\n`);
    });
    open.push(raw);
    const { mcp, codes } = client(raw.url, { protocol: 'legacy' });
    expect(text(await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } }))).toBe('routed by id text');
    expect(codes()).toContain('response-id-mismatch');
    await mcp.close();
  });

  test.each([
    ['a string for a number', (id: number) => `"${id}"`],
    ['a fractional number', (id: number) => `${id}.5`],
    ['an object', (id: number) => `{"value":${id}}`],
    ['another number', (id: number) => `${id + 1000}`],
  ])('an error reply whose id is mangled (%s) keeps the server\'s error, as JSON and as SSE', async (_name, mangle) => {
    for (const framing of ['json', 'sse'] as const) {
      const raw = await modernServer((body, res) => {
        const message = `{"jsonrpc":"2.0","id":${mangle(body.id)},"error":{"code":-32602,"message":"Unknown tool: t","data":{"hint":"list tools first"}}}`;
        if (framing === 'json') res.writeHead(200, { 'Content-Type': 'application/json' }).end(message);
        else sse(res).end(`data: ${message}\n\n`);
      });
      const { mcp, codes } = client(raw.url);
      const error = await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } }).catch((e) => e);
      expect(McpRpcError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: -32602, message: 'Unknown tool: t', data: { hint: 'list tools first' } });
      expect(codes()).toContain('response-id-mismatch');
    }
  });

  test('an error status whose JSON-RPC body has a mangled id keeps the server\'s error', async () => {
    const raw = await modernServer((body, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(`{"jsonrpc":"2.0","id":${body.id}.5,"error":{"code":-32602,"message":"Missing argument: city"}}`);
    });
    const { mcp } = client(raw.url);
    const error = await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } }).catch((e) => e);
    expect(McpRpcError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: -32602, message: 'Missing argument: city', httpStatus: 400 });
  });

  test('a result with an unrelated id is still refused: it cannot be told apart from another request\'s answer', async () => {
    const raw = await modernServer((body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id + 1000, result: callResult('not yours') }));
    });
    const { mcp } = client(raw.url);
    const error = await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } }).catch((e) => e);
    expect(error.code).toBe('protocol');
    expect(error.message).toMatch(/does not match request id/);
  });
});

describe('SSE line ends and the end of the stream (item 6)', () => {
  const reply = (id: number) => `{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(callResult('framed'))}}`;
  const note = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"note"}}';

  test.each([
    ['CR only', '\r'],
    ['LF only', '\n'],
    ['CRLF', '\r\n'],
  ])('%s line ends, the stream left open after the reply: the call completes', async (_name, eol) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const raw = await modernServer(async (body, res) => {
      sse(res);
      await writeChunks(res, [`event: message${eol}data: ${note}${eol}${eol}`, `: keep-alive${eol}id: 7${eol}data: ${reply(body.id)}${eol}${eol}`]);
      await held; // the server keeps the stream open; the reply must still be dispatched
      res.end();
    });
    const { mcp } = client(raw.url);
    try {
      expect(text(await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } }))).toBe('framed');
    } finally {
      release();
    }
  });

  test('CR-only line ends split across reads, a CR at the end of one read and its event in the next', async () => {
    const raw = await modernServer(async (body, res) => {
      sse(res);
      const bytes = `data: ${note}\r\rdata: ${reply(body.id)}\r\r`;
      await writeChunks(res, bytes.split(/(?<=\r)/));
      res.end();
    });
    const { mcp } = client(raw.url, { logLevel: 'info' });
    const logs: unknown[] = [];
    expect(text(await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } }, onLog: (l) => logs.push(l) }))).toBe('framed');
    expect(logs).toEqual([{ level: 'info', data: 'note' }]);
  });

  test.each([
    ['one LF', '\n'],
    ['one CR', '\r'],
    ['one CRLF', '\r\n'],
  ])('a final event ended by %s and then the end of the stream is dispatched, with a warning', async (_name, eol) => {
    const raw = await modernServer(async (body, res) => {
      sse(res);
      res.end(`data: ${note}\n\ndata: ${reply(body.id)}${eol}`);
    });
    const { mcp, warnings } = client(raw.url);
    expect(text(await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } }))).toBe('framed');
    expect(warnings).toContainEqual({ code: 'sse-unterminated-event', message: expect.stringMatching(/ended without the blank line/) });
  });

  test('an event cut in the middle of its last line is still dropped (it may be truncated)', async () => {
    const raw = await modernServer(async (body, res) => {
      sse(res);
      res.end(`data: ${reply(body.id)}`);
    });
    const { mcp } = client(raw.url);
    const error = await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } }).catch((e) => e);
    expect(error.code).toBe('protocol');
    expect(error.message).toMatch(/closed the response stream/);
  });
});

describe('many events in one read (issue 18: events handed over as the parser finds them)', () => {
  const note = (n: number) => `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"n${n}"}}`;
  const reply = (id: number) => `{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(callResult('done'))}}`;

  test('notifications before the reply arrive in order; nothing after the reply in the same read is delivered, and the stream is closed', async () => {
    let closed!: () => void;
    const streamClosed = new Promise<void>((resolve) => (closed = resolve));
    const raw = await modernServer((body, res) => {
      sse(res);
      res.on('close', () => closed());
      // One write: three notifications, the reply, then two more notifications; the stream stays open.
      res.write([note(1), note(2), note(3), reply(body.id), note(4), note(5)].map((m) => `data: ${m}\n\n`).join(''));
    });
    const { mcp } = client(raw.url, { logLevel: 'info' });
    const logs: unknown[] = [];
    expect(text(await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } }, onLog: (l) => logs.push((l as { data: unknown }).data) }))).toBe('done');
    expect(logs).toEqual(['n1', 'n2', 'n3']);
    await streamClosed; // the client cancelled the rest of the stream
  });

  test('an event over maxEventChars in the same read as good ones is refused as too_large; the events before it were delivered', async () => {
    const raw = await modernServer((body, res) => {
      sse(res);
      res.end(`data: ${note(1)}\n\ndata: "${'x'.repeat(5000)}"\n\ndata: ${reply(body.id)}\n\n`);
    });
    const { mcp } = client(raw.url, { logLevel: 'info', maxEventChars: 1000 });
    const logs: unknown[] = [];
    const error = await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } }, onLog: (l) => logs.push((l as { data: unknown }).data) }).catch((e) => e);
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/exceeded 1000 characters/);
    expect(logs).toEqual(['n1']);
  });
});

describe('heartbeat events whose data is JSON but not a message object (item 7)', () => {
  test.each([
    ['a number', '1767225600', 'a JSON number'],
    ['a string', '"ping"', 'a JSON string'],
    ['null', 'null', 'JSON null'],
    ['an empty array', '[]', 'a JSON array'],
    ['true', 'true', 'a JSON boolean'],
    ['an array of numbers', '[1,2]', 'a JSON array'],
  ])('%s before the reply is skipped with a warning', async (_name, data, kind) => {
    const raw = await modernServer(async (body, res) => {
      sse(res);
      await writeChunks(res, [`data: ${data}\n\n`, `data: {}\n\n`, `data: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: callResult('after heartbeats') })}\n\n`]);
      res.end();
    });
    const { mcp, warnings } = client(raw.url);
    expect(text(await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } }))).toBe('after heartbeats');
    expect(warnings.filter((w) => w.code === 'sse-non-jsonrpc').map((w) => w.message)).toContainEqual(`Ignored an SSE frame in reply to tools/call: its data is ${kind}, not a JSON-RPC message`);
  });

  test('a JSON-RPC batch on a stream is still refused as such (not mistaken for a heartbeat)', async () => {
    const raw = await modernServer(async (body, res) => {
      sse(res).end(`data: [${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: callResult('x') })}]\n\n`);
    });
    const { mcp } = client(raw.url);
    const error = await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } }).catch((e) => e);
    expect(error.code).toBe('protocol');
    expect(error.message).toMatch(/batch/);
  });
});

describe('leniency warnings come once per kind, not once per message', () => {
  test('a server that always echoes ids as strings and beats with timestamps: one warning of each', async () => {
    const raw = await modernServer(async (body, res) => {
      sse(res);
      await writeChunks(res, [`data: ${Date.now() + body.id}\n\n`, `data: {"jsonrpc":"2.0","id":"${body.id}","result":${JSON.stringify(callResult('ok'))}}\n\n`]);
      res.end();
    });
    const { mcp, codes } = client(raw.url);
    for (let i = 0; i < 3; i++) await mcp.callTool('t', {}, { tool: { name: 't', inputSchema: { type: 'object' } } });
    expect(codes().filter((c) => c === 'response-id-mismatch')).toHaveLength(1);
    expect(codes().filter((c) => c === 'sse-non-jsonrpc')).toHaveLength(1);
  });
});
