/**
 * Legacy-era faults a real server cannot be made to produce, on scripted raw
 * node:http servers with our own bytes: field cases C05, C06 and C08 (named
 * after the cases), a session id hidden by CORS, server requests on a
 * request's stream, stream resumption and cancellation.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient, McpClientError, McpRpcError, MemoryEraCache, type McpClientOptions } from '../src/index.js';
import { startScriptedServer, type ScriptReply, type ScriptStep, type ScriptedServer } from './support/legacy-servers.js';
import { startModernServer } from './support/servers.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const SSE_TYPE = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' };

const servers: ScriptedServer[] = [];
const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function script(steps: ScriptStep[], options?: Parameters<typeof startScriptedServer>[1]): Promise<ScriptedServer> {
  const server = await startScriptedServer(steps, options);
  servers.push(server);
  return server;
}

function client(url: string, options: McpClientOptions = {}): McpClient {
  const c = new McpClient(url, { eraCache: new MemoryEraCache(), onWarning: () => {}, ...options });
  clients.push(c);
  return c;
}

async function waitFor(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// --- script steps in our own words ------------------------------------------------------------

/** The modern probe, refused the way a sessionful legacy SDK server refuses it. */
const probe = (): ScriptStep => ({
  match: { rpc: 'server/discover' },
  reply: { status: 400, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}' },
});

const initialize = (sid: string | undefined, version = '2025-11-25'): ScriptStep => ({
  match: { rpc: 'initialize', absent: ['Mcp-Session-Id', 'MCP-Protocol-Version'] },
  reply: {
    status: 200,
    headers: { ...JSON_TYPE, ...(sid ? { 'Mcp-Session-Id': sid } : {}) },
    body: `{"jsonrpc":"2.0","id":{{id}},"result":{"protocolVersion":"${version}","capabilities":{"tools":{}},"serverInfo":{"name":"case-server","version":"3.1.4"}}}`,
  },
});

const initialized = (sid: string | undefined, reply: ScriptReply = { status: 202 }): ScriptStep => ({
  match: { rpc: 'notifications/initialized', headers: sid ? { 'Mcp-Session-Id': sid } : {} },
  reply,
});

const toolsList = (sid: string, version = '2025-11-25'): ScriptStep => ({
  match: { rpc: 'tools/list', headers: { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': version } },
  reply: { status: 200, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":{{id}},"result":{"tools":[{"name":"repeat","inputSchema":{"type":"object","properties":{"words":{"type":"string"}}}}]}}' },
});

const toolsCall = (sid: string, words: string, reply?: ScriptReply): ScriptStep => ({
  match: { rpc: 'tools/call', headers: { 'Mcp-Session-Id': sid }, body: (b) => b.params?.name === 'repeat' && b.params?.arguments?.words === words },
  reply: reply ?? { status: 200, headers: JSON_TYPE, body: `{"jsonrpc":"2.0","id":{{id}},"result":{"content":[{"type":"text","text":"${words} ${words}"}]}}` },
});

const sessionGone = (): ScriptReply => ({ status: 404, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}' });

function expectScriptDone(server: ScriptedServer): void {
  expect(server.mismatches).toEqual([]);
  expect(server.remaining()).toEqual([]);
}

// --- C05 -------------------------------------------------------------------------------------------

describe('C05 acknowledgements of a notification POST', () => {
  const acks: [string, ScriptReply][] = [
    ['202 with no body', { status: 202 }],
    ['202 labelled JSON with an empty body', { status: 202, headers: { ...JSON_TYPE, 'Content-Length': '0' }, body: '' }],
    ['200 labelled JSON with an empty body', { status: 200, headers: { ...JSON_TYPE, 'Content-Length': '0' }, body: '' }],
    ['200 with a JSON body that is not JSON-RPC', { status: 200, headers: JSON_TYPE, body: '{"accepted":1}' }],
    ['202 with a plain-text body', { status: 202, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'queued' }],
    ['204', { status: 204 }],
    ['200 with an empty event stream', { status: 200, headers: SSE_TYPE, body: '' }],
  ];

  for (const [name, ack] of acks) {
    test(`C05 ${name}: connect succeeds and tools/list goes out on the same session`, async () => {
      const server = await script([probe(), initialize('sid-c05'), initialized('sid-c05', ack), toolsList('sid-c05')]);
      const c = client(server.url);
      const description = await c.connect();
      expect(description).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'case-server' } });
      expect((await c.listTools()).map((t) => t.name)).toEqual(['repeat']);
      expectScriptDone(server);
    });
  }

  test('C05 400 refusing notifications/initialized: connect rejects with the server\'s error and HTTP status', async () => {
    const refused = { status: 400, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","error":{"code":-32600,"message":"initialized is not welcome here"}}' };
    const server = await script([probe(), initialize('sid-c05'), initialized('sid-c05', refused)]);
    const error = await client(server.url).connect().catch((e) => e);
    expect(McpRpcError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: -32600, httpStatus: 400 });
    expect(error.message).toBe('initialized is not welcome here');
    expectScriptDone(server);
  });
});

// --- C06 -------------------------------------------------------------------------------------------

describe('C06 a legacy server without a standalone GET stream', () => {
  const refusals: [string, (res: ServerResponse) => void][] = [
    ['405', (res) => res.writeHead(405, { Allow: 'POST, DELETE' }).end()],
    ['404 with an HTML page', (res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html><body>nothing at GET /mcp</body></html>')],
    ['406 with a JSON-RPC error', (res) => res.writeHead(406, JSON_TYPE).end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Not Acceptable"},"id":null}')],
    ['400 with a JSON-RPC error', (res) => res.writeHead(400, JSON_TYPE).end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: no stream for you"},"id":null}')],
  ];

  for (const [name, refuse] of refusals) {
    test(`C06 GET answered ${name}: the session goes on POST-only and the GET is never retried`, async () => {
      const server = await script([probe(), initialize('sid-c06'), initialized('sid-c06'), toolsList('sid-c06'), toolsCall('sid-c06', 'hi')], { onGet: (_req, res) => refuse(res) });
      const c = client(server.url);
      await c.connect();
      expect((await c.listTools()).map((t) => t.name)).toEqual(['repeat']);
      expect(await c.callTool('repeat', { words: 'hi' })).toMatchObject({ content: [{ type: 'text', text: 'hi hi' }] });
      // Longer than the reconnection delay a retry loop would use.
      await sleep(1300);
      expect(server.gets).toHaveLength(1);
      expect(server.gets[0]!.headers.accept).toContain('text/event-stream');
      expect(server.gets[0]!.headers['mcp-session-id']).toBe('sid-c06');
      expectScriptDone(server);
    });
  }

  test('C06 a modern (2026-07-28) server never gets a GET', async () => {
    const modern = await startModernServer();
    try {
      const c = client(modern.url);
      await c.listTools();
      await c.callTool('echo', { text: 'x' });
      await sleep(300);
      expect(c.server?.era).toBe('modern');
      expect(modern.requests.filter((r) => r.method !== 'POST')).toEqual([]);
    } finally {
      await modern.close();
    }
  });
});

describe('ending the session (LEG-6)', () => {
  test('close sends DELETE with the session id and tolerates 405', async () => {
    const server = await script([probe(), initialize('sid-end'), initialized('sid-end')], { onDelete: (_req, res) => res.writeHead(405, { Allow: 'POST' }).end() });
    const c = client(server.url);
    await c.connect();
    await expect(c.close()).resolves.toBeUndefined();
    expect(server.deletes.map((d) => d.headers['mcp-session-id'])).toEqual(['sid-end']);
    expect(c.status).toBe('closed');
  });
});

// --- C08 -------------------------------------------------------------------------------------------

describe('C08 the server forgets the session and answers 404', () => {
  const firstSession = (): ScriptStep[] => [probe(), initialize('sid-one'), initialized('sid-one'), toolsList('sid-one'), toolsCall('sid-one', 'a')];

  test('C08 recover once: re-initialize without a session id, replay the call, then stay on the new session', async () => {
    const server = await script([
      ...firstSession(),
      toolsCall('sid-one', 'b', sessionGone()),
      initialize('sid-two'),
      initialized('sid-two'),
      toolsCall('sid-two', 'b'),
      toolsCall('sid-two', 'c'),
    ]);
    const warnings: string[] = [];
    const c = client(server.url, { onWarning: (w) => warnings.push(w.code) });
    await c.connect();
    await c.callTool('repeat', { words: 'a' });
    expect(await c.callTool('repeat', { words: 'b' })).toMatchObject({ content: [{ text: 'b b' }] });
    expect(await c.callTool('repeat', { words: 'c' })).toMatchObject({ content: [{ text: 'c c' }] });
    expectScriptDone(server);
    const posts = server.requests.filter((r) => r.method === 'POST');
    const reinit = posts.findIndex((r, i) => i > 2 && r.body.method === 'initialize');
    expect(posts.slice(reinit + 1).every((r) => r.headers['mcp-session-id'] === 'sid-two')).toBe(true);
    expect(warnings).toContain('legacy-session-restarted');
    // The standalone stream follows the session: its GET after the restart carries the new id.
    await waitFor(() => server.gets.length >= 2);
    expect(server.gets.map((g) => g.headers['mcp-session-id'])).toEqual(['sid-one', 'sid-two']);
  });

  test('C08 recovery also fails: exactly one new session, then a typed "session expired" error', async () => {
    const server = await script([
      ...firstSession(),
      toolsCall('sid-one', 'b', sessionGone()),
      initialize('sid-two'),
      initialized('sid-two'),
      toolsCall('sid-two', 'b', sessionGone()),
    ]);
    const c = client(server.url);
    await c.connect();
    await c.callTool('repeat', { words: 'a' });
    const error = await c.callTool('repeat', { words: 'b' }).catch((e) => e);
    expect(McpClientError.isInstance(error)).toBe(true);
    expect(error.code).toBe('http');
    expect(error.data).toMatchObject({ status: 404, sessionExpired: true });
    expect(error.message).toMatch(/session expired/);
    expectScriptDone(server);
    expect(server.bodies().filter((b) => b.method === 'initialize')).toHaveLength(2);
  });

  test('C08 a 404 to initialize (no session id) is a wrong URL, not an expired session', async () => {
    const notFound = { status: 404, headers: { 'Content-Type': 'text/html' }, body: '<html>no such page</html>' };
    const server = await script([{ match: { rpc: 'server/discover' }, reply: notFound }, { match: { rpc: 'initialize' }, reply: notFound }], {
      // The HTTP+SSE fallback's GET is allowed by the case; it finds nothing either.
      onGet: (_req, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html>no such page</html>'),
    });
    const error = await client(server.url).connect().catch((e) => e);
    expect(McpClientError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'http', data: { status: 404 } });
    expect(error.message).toMatch(/initialize/);
    expect(error.message).toMatch(/HTTP\+SSE/);
    expectScriptDone(server);
    expect(server.bodies().filter((b) => b.method === 'initialize')).toHaveLength(1);
    expect(server.gets).toHaveLength(1);
  });

  test('a 2026-07-28 server has no sessions: a 404 with -32601 is "method not found", never a re-initialize', async () => {
    const modern = await startModernServer();
    try {
      const c = client(modern.url);
      const error = await c.request('no/such/method').catch((e) => e);
      expect(McpRpcError.isInstance(error)).toBe(true);
      expect(error.code).toBe(-32601);
      expect(modern.bodies().some((b) => b?.method === 'initialize')).toBe(false);
    } finally {
      await modern.close();
    }
  });
});

// --- a session id the page cannot see --------------------------------------------------------------

/** A `fetch` that hides Mcp-Session-Id from the client, as a browser does when CORS does not expose it. */
const hidingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const headers = new Headers(response.headers);
  headers.delete('mcp-session-id');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};

describe('Mcp-Session-Id not exposed through CORS', () => {
  const required = { status: 400, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Mcp-Session-Id header is required"}}' };

  test('the first request after initialize fails with a cors error naming the header, without an initialize loop', async () => {
    const server = await script([probe(), initialize('sid-hidden'), { match: { rpc: 'notifications/initialized', absent: ['Mcp-Session-Id'] }, reply: required }]);
    const c = client(server.url, { fetch: hidingFetch });
    const error = await c.connect().catch((e) => e);
    expect(McpClientError.isInstance(error)).toBe(true);
    expect(error.code).toBe('cors');
    expect(error.message).toContain('Mcp-Session-Id');
    expect(error.message).toContain('Access-Control-Expose-Headers');
    expect(error.data).toMatchObject({ header: 'Mcp-Session-Id', status: 400 });
    expectScriptDone(server);
    expect(server.bodies().filter((b) => b.method === 'initialize')).toHaveLength(1);
  });

  test('also when the server only refuses the first real request', async () => {
    const server = await script([
      probe(),
      initialize('sid-hidden'),
      initialized(undefined),
      { match: { rpc: 'tools/list', absent: ['Mcp-Session-Id'] }, reply: { ...required, body: required.body.replace('Mcp-Session-Id header is required', 'No valid session ID provided') } },
    ]);
    const c = client(server.url, { fetch: hidingFetch });
    await c.connect();
    const error = await c.listTools().catch((e) => e);
    expect(error.code).toBe('cors');
    expect(error.message).toContain('Mcp-Session-Id');
    expectScriptDone(server);
    expect(server.bodies().filter((b) => b.method === 'initialize')).toHaveLength(1);
  });
});

// --- server requests on a request's stream ----------------------------------------------------------

describe('server → client requests on a POST stream (LEG-10, LEG-11)', () => {
  test('ping is answered with {}, an unknown method with -32601, an undeclared elicitation mode with -32602', async () => {
    const responses = () => server.bodies().filter((b) => b && ('result' in b || 'error' in b));
    const streamed = async (req: { json: any }, res: ServerResponse) => {
      res.writeHead(200, { ...SSE_TYPE, 'Mcp-Session-Id': 'sid-rq' });
      res.write('data: {"jsonrpc":"2.0","id":"srv-ping","method":"ping"}\n\n');
      res.write('data: {"jsonrpc":"2.0","id":"srv-odd","method":"odd/thing","params":{}}\n\n');
      res.write('data: {"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"mode":"url","message":"go","url":"https://x.example.test/","elicitationId":"e-1"}}\n\n');
      await waitFor(() => responses().length === 3);
      res.end(`data: {"jsonrpc":"2.0","id":${JSON.stringify(req.json.id)},"result":{"content":[{"type":"text","text":"after questions"}]}}\n\n`);
    };
    const answer: ScriptStep = { match: { rpc: 'response', headers: { 'Mcp-Session-Id': 'sid-rq' } }, reply: { status: 202 } };
    const server = await script([probe(), initialize('sid-rq'), initialized('sid-rq'), toolsList('sid-rq'), { match: { rpc: 'tools/call' }, reply: streamed }, answer, answer, answer]);
    const asked: unknown[] = [];
    const c = client(server.url);
    c.setInputHandler('elicitation/create', { modes: ['form'], handle: async (params) => (asked.push(params), { action: 'decline' }) });
    expect(await c.callTool('repeat', { words: 'x' })).toMatchObject({ content: [{ text: 'after questions' }] });
    const byId = Object.fromEntries(responses().map((r) => [r.id, r]));
    expect(byId['srv-ping']).toEqual({ jsonrpc: '2.0', id: 'srv-ping', result: {} });
    expect(byId['srv-odd'].error.code).toBe(-32601);
    expect(byId[7].error.code).toBe(-32602);
    expect(asked).toEqual([]);
    expectScriptDone(server);
  });
});

// --- resumption -----------------------------------------------------------------------------------

describe('stream resumption with Last-Event-ID and the retry hint (LEG-8)', () => {
  test('a stream that ends before the response is resumed with GET after the retry delay', async () => {
    let closedAt = 0;
    let resumedAt = 0;
    const cut = async (_req: unknown, res: ServerResponse) => {
      res.writeHead(200, { ...SSE_TYPE });
      res.write('id: stream7-1\nretry: 300\ndata: \n\n');
      res.write('id: stream7-2\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}\n\n');
      await sleep(20);
      closedAt = Date.now();
      res.end();
    };
    let callId: unknown;
    const server = await script(
      [probe(), initialize('sid-rs'), initialized('sid-rs'), toolsList('sid-rs'), { match: { rpc: 'tools/call' }, reply: async (req, res) => ((callId = req.json.id), cut(req, res)) }],
      {
        onGet: (req, res) => {
          if (!req.headers['last-event-id']) return void res.writeHead(200, SSE_TYPE).write(': standalone stream, nothing to say\n\n');
          resumedAt = Date.now();
          res.writeHead(200, SSE_TYPE);
          res.end(`id: stream7-3\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(callId)},"result":{"content":[{"type":"text","text":"resumed"}]}}\n\n`);
        },
      },
    );
    const logs: unknown[] = [];
    const c = client(server.url);
    const result = await c.callTool('repeat', { words: 'z' }, { onLog: (log) => logs.push(log.data) });
    expect(result).toMatchObject({ content: [{ text: 'resumed' }] });
    const resume = server.gets.find((g) => g.headers['last-event-id']);
    expect(resume?.headers['last-event-id']).toBe('stream7-2');
    expect(resume?.headers['mcp-session-id']).toBe('sid-rs');
    expect(resume?.headers.accept).toContain('text/event-stream');
    // The retry hint is a MUST (wait at least that long), not a performance figure.
    expect(resumedAt - closedAt).toBeGreaterThanOrEqual(280);
    expect(logs).toEqual(['working']);
    expectScriptDone(server);
  });

  test('a priming event with an id and no data line is resumable too: its id is the Last-Event-ID', async () => {
    let callId: unknown;
    const server = await script(
      [probe(), initialize('sid-rp'), initialized('sid-rp'), toolsList('sid-rp'), { match: { rpc: 'tools/call' }, reply: (req, res) => {
          callId = req.json.id;
          res.writeHead(200, SSE_TYPE).end('id: prime-9\nretry: 20\n\n');
        } }],
      {
        onGet: (req, res) => {
          if (!req.headers['last-event-id']) return void res.writeHead(405).end();
          res.writeHead(200, SSE_TYPE);
          res.end(`id: prime-10\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(callId)},"result":{"content":[{"type":"text","text":"after priming"}]}}\n\n`);
        },
      },
    );
    expect(await client(server.url).callTool('repeat', { words: 'z' })).toMatchObject({ content: [{ text: 'after priming' }] });
    expect(server.gets.filter((g) => g.headers['last-event-id']).map((g) => g.headers['last-event-id'])).toEqual(['prime-9']);
    expectScriptDone(server);
  });

  test('resumption gives up after three reconnections that bring nothing new', async () => {
    const server = await script(
      [probe(), initialize('sid-rs'), initialized('sid-rs'), toolsList('sid-rs'), { match: { rpc: 'tools/call' }, reply: { status: 200, headers: SSE_TYPE, body: 'id: q-1\nretry: 20\ndata: \n\n' } }],
      { onGet: (req, res) => (req.headers['last-event-id'] ? res.writeHead(200, SSE_TYPE).end(': nothing yet\n\n') : res.writeHead(405).end()) },
    );
    const error = await client(server.url).callTool('repeat', { words: 'z' }).catch((e) => e);
    expect(McpClientError.isInstance(error)).toBe(true);
    expect(error.data.streamEnded).toBe(true);
    expect(server.gets.filter((g) => g.headers['last-event-id'] === 'q-1')).toHaveLength(3);
  });

  test('without an event id there is nothing to resume: a typed error, no GET with Last-Event-ID', async () => {
    const server = await script([probe(), initialize('sid-rs'), initialized('sid-rs'), toolsList('sid-rs'), { match: { rpc: 'tools/call' }, reply: { status: 200, headers: SSE_TYPE, body: 'data: \n\n' } }]);
    const error = await client(server.url).callTool('repeat', { words: 'z' }).catch((e) => e);
    expect(error).toMatchObject({ code: 'protocol', data: { streamEnded: true } });
    expect(server.gets.filter((g) => g.headers['last-event-id'])).toEqual([]);
  });

  test('the modern era never resumes: the same cut stream is a typed error and no GET is sent', async () => {
    const server = await script([
      {
        match: { rpc: 'server/discover' },
        reply: { status: 200, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":{{id}},"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}}' },
      },
      { match: { rpc: 'tools/call' }, reply: { status: 200, headers: SSE_TYPE, body: 'id: m-1\nretry: 20\ndata: \n\n' } },
    ]);
    const c = client(server.url);
    const error = await c.callTool('repeat', { words: 'z' }, { tool: { name: 'repeat', inputSchema: { type: 'object' } } }).catch((e) => e);
    expect(c.server?.era).toBe('modern');
    expect(error).toMatchObject({ code: 'protocol', data: { streamEnded: true } });
    await sleep(100);
    expect(server.gets).toEqual([]);
    expectScriptDone(server);
  });
});

// --- cancellation ---------------------------------------------------------------------------------

describe('cancellation on the legacy era (LEG-9, CAN-7)', () => {
  test('aborting a call POSTs notifications/cancelled with its request id', async () => {
    const hold = (_req: unknown, res: ServerResponse) => void res.writeHead(200, SSE_TYPE).write('id: c-1\ndata: \n\n');
    const server = await script([
      probe(),
      initialize('sid-cx'),
      initialized('sid-cx'),
      toolsList('sid-cx'),
      { match: { rpc: 'tools/call' }, reply: hold },
      { match: { rpc: 'notifications/cancelled', headers: { 'Mcp-Session-Id': 'sid-cx', 'MCP-Protocol-Version': '2025-11-25' } }, reply: { status: 202 } },
    ]);
    const c = client(server.url);
    const controller = new AbortController();
    const call = c.callTool('repeat', { words: 'z' }, { signal: controller.signal });
    await waitFor(() => server.bodies().some((b) => b?.method === 'tools/call'));
    controller.abort();
    const error = await call.catch((e) => e);
    expect(error.code).toBe('aborted');
    await waitFor(() => server.bodies().some((b) => b?.method === 'notifications/cancelled'));
    const callId = server.bodies().find((b) => b.method === 'tools/call').id;
    expect(server.bodies().find((b) => b.method === 'notifications/cancelled').params.requestId).toBe(callId);
    expectScriptDone(server);
  });

  test('a timeout cancels the call too', async () => {
    const hold = (_req: unknown, res: ServerResponse) => void res.writeHead(200, SSE_TYPE).write('id: c-1\ndata: \n\n');
    const server = await script([probe(), initialize('sid-cx'), initialized('sid-cx'), toolsList('sid-cx'), { match: { rpc: 'tools/call' }, reply: hold }, { match: { rpc: 'notifications/cancelled' }, reply: { status: 202 } }]);
    const error = await client(server.url).callTool('repeat', { words: 'z' }, { timeoutMs: 200 }).catch((e) => e);
    expect(error.code).toBe('timeout');
    await waitFor(() => server.bodies().some((b) => b?.method === 'notifications/cancelled'));
    const cancelled = server.bodies().find((b) => b.method === 'notifications/cancelled');
    expect(cancelled.params.requestId).toBe(server.bodies().find((b) => b.method === 'tools/call').id);
    expect(cancelled.params.reason).toMatch(/timed out after 200 ms/);
    expectScriptDone(server);
  });

  test('initialize is never cancelled', async () => {
    const server = await script([{ match: { rpc: 'initialize' }, reply: (_req, res) => void res.writeHead(200, SSE_TYPE).write(': thinking\n\n') }]);
    const c = client(server.url, { protocol: 'legacy' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await c.connect({ signal: controller.signal }).catch((e) => e);
    expect(error.code).toBe('aborted');
    await sleep(200);
    expect(server.bodies().map((b) => b.method)).toEqual(['initialize']);
  });
});
