/**
 * The client core against a real 2026-07-28 server (official SDK) on loopback:
 * per-request `_meta`, request metadata headers, capabilities, ids, tools,
 * output validation, progress, timeouts, cancellation, resources and prompts.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { McpClient, McpClientError, McpRpcError, type ToolCallResult } from '../src/index.js';
import { fanOutSchema } from '../components/test-support/fixtures.js';
import { startModernServer, startRawServer, type ModernServer } from './support/servers.js';

let server: ModernServer;
beforeAll(async () => {
  server = await startModernServer();
});
afterAll(() => server.close());

const quiet = { onWarning: () => {} };
const posts = () => server.requests.filter((r) => r.method === 'POST');
const since = (mark: number) => posts().slice(mark);

describe('per-request _meta and headers (basic/index "_meta", streamable-http "Request Metadata")', () => {
  test('every request carries protocol version, capabilities and client info, mirrored in headers', async () => {
    const mark = posts().length;
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    await client.listTools();
    await client.callTool('echo', { text: 'hi' });
    await client.readResource('mem://readme');
    await client.getPrompt('greet', { who: 'Ada' });
    const sent = since(mark);
    expect(sent.map((r) => r.body.method)).toEqual(['server/discover', 'tools/list', 'tools/call', 'resources/read', 'prompts/get']);
    for (const request of sent) {
      const meta = request.body.params._meta;
      expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
      expect(meta['io.modelcontextprotocol/clientCapabilities']).toEqual({});
      expect(meta['io.modelcontextprotocol/clientInfo']).toEqual({ name: 'mcp-web-elements', version: expect.any(String) });
      expect(request.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(request.headers['mcp-method']).toBe(request.body.method);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers.accept).toContain('application/json');
      expect(request.headers.accept).toContain('text/event-stream');
      expect(request.headers['mcp-session-id']).toBeUndefined();
      expect(typeof request.body.id).toBe('number');
      expect(request.body.jsonrpc).toBe('2.0');
    }
    expect(sent.map((r) => r.headers['mcp-name'])).toEqual([undefined, undefined, 'echo', 'mem://readme', 'greet']);
  });

  test('clientInfo can be switched off; user headers are added to every request', async () => {
    const mark = posts().length;
    const client = new McpClient(server.url, { protocol: 'modern', clientInfo: false, headers: () => ({ 'X-Tenant': 'blue' }), ...quiet });
    await client.callTool('echo', { text: 'x' });
    for (const request of since(mark)) {
      expect(request.body.params._meta['io.modelcontextprotocol/clientInfo']).toBeUndefined();
      expect(request.headers['x-tenant']).toBe('blue');
    }
  });

  test('the traffic event of an outgoing request carries the headers that went over the wire', async () => {
    const mark = posts().length;
    const client = new McpClient(server.url, { protocol: 'modern', headers: { Authorization: 'Bearer s3cret' }, ...quiet });
    const sent: { method: string; headers: Record<string, string> | undefined }[] = [];
    client.on('traffic', (event) => {
      if (event.direction === 'out' && 'method' in event.message) sent.push({ method: event.message.method, headers: event.headers });
    });
    await client.callTool('echo', { text: 'x' });
    const call = sent.find((entry) => entry.method === 'tools/call')!;
    expect(call.headers).toMatchObject({ Authorization: 'Bearer s3cret', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'echo' });
    const wire = since(mark).find((request) => request.body.method === 'tools/call')!;
    for (const [name, value] of Object.entries(call.headers!)) expect(wire.headers[name.toLowerCase()]).toBe(value);
  });

  test('traffic records go to a listener from when it attaches until it leaves; one attached later gets them too', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    await client.callTool('echo', { text: 'unwatched' });
    const seen: string[] = [];
    const off = client.on('traffic', (event) => seen.push(`${event.direction} ${'method' in event.message ? event.message.method : `response ${String(event.requestId)}`}`));
    await client.callTool('echo', { text: 'watched' });
    expect(seen).toEqual(['out tools/call', expect.stringMatching(/^in response \d+$/)]);
    off();
    await client.callTool('echo', { text: 'unwatched again' });
    expect(seen).toHaveLength(2);
    // A second listener attached later gets the records too.
    const later: string[] = [];
    client.on('traffic', (event) => later.push(event.direction));
    await client.listTools({ fresh: true });
    expect(later).toEqual(['out', 'in']);
  });

  test('capabilities declared on each request follow the registered input handlers', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    const caps = () => posts().at(-1)!.body.params._meta['io.modelcontextprotocol/clientCapabilities'];
    await client.callTool('echo', { text: '1' });
    expect(caps()).toEqual({});
    const offElicit = client.setInputHandler('elicitation/create', { modes: ['form', 'url'], handle: async () => ({ action: 'cancel' }) });
    const offSampling = client.setInputHandler('sampling/createMessage', { handle: async () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }) });
    const offRoots = client.setInputHandler('roots/list', { handle: async () => ({ roots: [] }) });
    await client.callTool('echo', { text: '2' });
    expect(caps()).toEqual({ elicitation: { form: {}, url: {} }, sampling: {}, roots: {} });
    offElicit();
    offSampling();
    await client.callTool('echo', { text: '3' });
    expect(caps()).toEqual({ roots: {} });
    offRoots();
    const formOnly = client.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => ({ action: 'cancel' }) });
    await client.callTool('echo', { text: '4' });
    expect(caps()).toEqual({ elicitation: { form: {} } });
    formOnly();
  });

  test('declared extensions go into the per-request capabilities while declared; newest settings win; tools/list is not served from cache across a change', async () => {
    // tools/list is cacheable for 30 s on this server.
    const cached = await startModernServer({ cacheHints: { 'tools/list': { ttlMs: 30_000, cacheScope: 'public' } } });
    const posts = () => cached.requests.filter((r) => r.method === 'POST');
    const since = (mark: number) => posts().slice(mark);
    const client = new McpClient(cached.url, { protocol: 'modern', ...quiet });
    const caps = () => posts().at(-1)!.body.params._meta['io.modelcontextprotocol/clientCapabilities'];
    await client.listTools();
    expect(caps()).toEqual({});
    const before = posts().length;
    await client.listTools();
    expect(posts().length).toBe(before);
    const ui = 'io.modelcontextprotocol/ui';
    const first = client.declareExtension(ui, { mimeTypes: ['text/html;profile=mcp-app'] });
    const second = client.declareExtension(ui, { mimeTypes: ['text/html;profile=mcp-app', 'text/x-later'] });
    const mark = posts().length;
    await client.listTools();
    // Sent again (not answered from the 30 s cache), now with the extension.
    expect(since(mark).map((r) => r.body.method)).toEqual(['tools/list']);
    expect(caps()).toEqual({ extensions: { [ui]: { mimeTypes: ['text/html;profile=mcp-app', 'text/x-later'] } } });
    second();
    await client.callTool('echo', { text: 'a' });
    expect(caps()).toEqual({ extensions: { [ui]: { mimeTypes: ['text/html;profile=mcp-app'] } } });
    first();
    first();
    await client.callTool('echo', { text: 'b' });
    expect(caps()).toEqual({});
    await cached.close();
  });

  test('a non-ASCII tool name goes into Mcp-Name with the base64 sentinel', async () => {
    const raw = await startRawServer((req, res) => {
      const { id, method } = req.json;
      const result =
        method === 'server/discover'
          ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }
          : method === 'tools/list'
            ? { resultType: 'complete', tools: [{ name: '天気', inputSchema: { type: 'object' } }] }
            : { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      await client.callTool('天気', {});
      const call = raw.requests.find((r) => (r.body as any).method === 'tools/call')!;
      expect(call.headers['mcp-name']).toBe(`=?base64?${Buffer.from('天気').toString('base64')}?=`);
    } finally {
      await raw.close();
    }
  });

  test('request ids are never reused, across concurrent calls and a listen stream', async () => {
    const mark = posts().length;
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    await client.connect();
    const subscription = client.listen({ toolsListChanged: true });
    await Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool('echo', { text: String(i) })));
    // The listen request goes out once its module has loaded; on a busy machine that can be after the calls.
    await vi.waitFor(() => expect(since(mark).some((r) => r.body.method === 'subscriptions/listen')).toBe(true));
    subscription.close();
    await subscription.closed;
    const sent = since(mark);
    // discover + listen + one shared tools/list (the header bindings) + 20 calls.
    expect(sent.filter((r) => r.body.method === 'tools/list')).toHaveLength(1);
    expect(sent.filter((r) => r.body.method === 'tools/call')).toHaveLength(20);
    const ids = sent.map((r) => r.body.id);
    expect(ids.length).toBe(23);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('server/discover and versions (basic/versioning)', () => {
  test('connect() describes the server from server/discover', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    const description = await client.connect();
    expect(description).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      supportedVersions: ['2026-07-28'],
      serverInfo: { name: 'kit-test-server', version: '1.2.3' },
    });
    expect(description.capabilities.tools).toBeDefined();
    expect(client.status).toBe('connected');
  });

  test.each(['modern', 'legacy'] as const)('%s: serverInfo keeps only its string fields (a UI shows them as text)', async (era) => {
    const serverInfo = { name: 'shop', version: { major: 1 }, title: ['<b>Shop</b>'], description: 'Sells things', websiteUrl: 42, icons: [{ src: 'data:image/png;base64,AAAA' }, 'nope', { src: 7 }] };
    const raw = await startRawServer((req, res) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const { id, method } = req.json;
      if (id === undefined) return void res.writeHead(202).end();
      const result =
        method === 'initialize'
          ? { protocolVersion: '2025-11-25', capabilities: {}, serverInfo }
          : method === 'server/discover'
            ? { supportedVersions: ['2026-07-28'], capabilities: {}, _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } }
            : {};
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
    try {
      const client = new McpClient(raw.url, { protocol: era, ...quiet });
      const description = await client.connect();
      expect(description.era).toBe(era);
      expect(description.serverInfo).toEqual({ name: 'shop', description: 'Sells things', icons: [{ src: 'data:image/png;base64,AAAA' }] });
    } finally {
      await raw.close();
    }
  });

  test('on -32022 the request is retried once with a version from `supported`', async () => {
    let first = true;
    const raw = await startRawServer((req, res) => {
      const { id, method } = req.json;
      if (first) {
        first = false;
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2099-01-01', '2026-07-28'], requested: '2026-07-28' } } }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: method === 'server/discover' ? { supportedVersions: ['2026-07-28'], capabilities: {} } : {} }));
    });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      await client.connect();
      const bodies = raw.bodies();
      expect(bodies).toHaveLength(2);
      expect(bodies[1].id).not.toBe(bodies[0].id);
      expect(bodies[1].params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
      expect(raw.requests[1]!.headers['mcp-protocol-version']).toBe('2026-07-28');
    } finally {
      await raw.close();
    }
  });

  test('with no mutually supported version the error says which versions the server has', async () => {
    const raw = await startRawServer((req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: req.json.id, error: { code: -32022, message: 'nope', data: { supported: ['2099-01-01'] } } }));
    });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      const error = await client.connect().catch((e) => e);
      expect(McpClientError.isInstance(error) && error.code).toBe('unsupported_version');
      expect(error.message).toContain('2099-01-01');
      expect(error.data.supported).toEqual(['2099-01-01']);
      // Nothing to retry with: one request only.
      expect(raw.bodies()).toHaveLength(1);
    } finally {
      await raw.close();
    }
  });
});

describe('connecting (shared attempt, close, timeouts)', () => {
  test('one caller aborting its connect does not fail the others sharing the attempt', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    const leaving = new AbortController();
    const first = client.connect({ signal: leaving.signal });
    const second = client.connect();
    leaving.abort();
    await expect(first).rejects.toMatchObject({ code: 'aborted' });
    expect((await second).serverInfo?.name).toBeTruthy();
    expect(client.status).toBe('connected');
  });

  test('close() while connecting ends in "closed" and stays there', async () => {
    const raw = await startRawServer(async (req, res) => {
      await new Promise((r) => setTimeout(r, 150));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: req.json.id, result: { supportedVersions: ['2026-07-28'], capabilities: {} } }));
    });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      const connecting = client.connect();
      await new Promise((r) => setTimeout(r, 20));
      await client.close();
      await expect(connecting).rejects.toMatchObject({ code: 'closed' });
      await new Promise((r) => setTimeout(r, 200));
      expect(client.status).toBe('closed');
      await expect(client.listTools()).rejects.toMatchObject({ code: 'closed' });
    } finally {
      await raw.close();
    }
  });

  test('a legacy server that never answers initialize times out after requestTimeoutMs', async () => {
    const raw = await startRawServer(() => new Promise(() => {})); // accepts, never responds
    try {
      const client = new McpClient(raw.url, { protocol: 'legacy', requestTimeoutMs: 300, ...quiet });
      // Without the timeout the connect would hang until the test's own time limit fails it.
      await expect(client.connect()).rejects.toMatchObject({ code: 'timeout' });
    } finally {
      await raw.close();
    }
  });
});

describe('resultType (basic/index "ResultType")', () => {
  async function serverAnswering(result: Record<string, unknown>) {
    return startRawServer((req, res) => {
      const { id, method } = req.json;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: method === 'server/discover' ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} } : result }));
    });
  }

  test('an absent resultType means complete', async () => {
    const raw = await serverAnswering({ tools: [{ name: 'a', inputSchema: { type: 'object' } }] });
    try {
      const tools = await new McpClient(raw.url, { protocol: 'modern', ...quiet }).listTools();
      expect(tools.map((t) => t.name)).toEqual(['a']);
    } finally {
      await raw.close();
    }
  });

  test('an unknown resultType is rejected and not retried', async () => {
    const raw = await serverAnswering({ resultType: 'task', taskId: 't1' });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      const error = await client.callTool('x', {}, { tool: { name: 'x', inputSchema: { type: 'object' } } }).catch((e) => e);
      expect(error.code).toBe('protocol');
      expect(error.message).toMatch(/unknown resultType "task"/);
      expect(raw.bodies().filter((b) => b.method === 'tools/call')).toHaveLength(1);
    } finally {
      await raw.close();
    }
  });

  test('input_required on a method that does not allow it is a protocol error', async () => {
    const raw = await serverAnswering({ resultType: 'input_required', requestState: 's' });
    try {
      const error = await new McpClient(raw.url, { protocol: 'modern', ...quiet }).listTools().catch((e) => e);
      expect(error.code).toBe('protocol');
      expect(error.message).toMatch(/tools\/list with input_required/);
    } finally {
      await raw.close();
    }
  });
});

describe('tools', () => {
  test('tools/call mirrors x-mcp-header parameters into Mcp-Param-* headers', async () => {
    const mark = posts().length;
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    await client.callTool('route', { region: 'Zürich', shard: 12, dry: true, options: { tenant: 'acme' }, query: 'not mirrored' });
    await client.callTool('route', { region: null, query: 'only' });
    const calls = since(mark).filter((r) => r.body.method === 'tools/call');
    expect(calls[0]!.headers).toMatchObject({
      'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
      'mcp-param-shard': '12',
      'mcp-param-dry-run': 'true',
      'mcp-param-tenant': 'acme',
    });
    expect(Object.keys(calls[1]!.headers).filter((h) => h.startsWith('mcp-param-'))).toEqual([]);
  });

  test('tools with an invalid x-mcp-header are excluded from tools/list, with a warning naming tool and reason', async () => {
    const raw = await startRawServer((req, res) => {
      const { id, method } = req.json;
      const tools = [
        { name: 'good', inputSchema: { type: 'object', properties: { r: { type: 'string', 'x-mcp-header': 'R' } } } },
        { name: 'spaced', inputSchema: { type: 'object', properties: { r: { type: 'string', 'x-mcp-header': 'Bad Name' } } } },
        { name: 'floaty', inputSchema: { type: 'object', properties: { r: { type: 'number', 'x-mcp-header': 'Ratio' } } } },
        { name: 'plain', inputSchema: { type: 'object' } },
        { name: 'broken' },
      ];
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: method === 'server/discover' ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } : { tools } }));
    });
    try {
      const warnings: string[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w.message) });
      const tools = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['good', 'plain']);
      expect(client.rejectedTools.map((t) => t.name)).toEqual(['spaced', 'floaty']);
      expect(warnings).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/Excluded tool "spaced": .*not an HTTP token/),
          expect.stringMatching(/Excluded tool "floaty": .*not string, integer or boolean/),
          expect.stringMatching(/without a name or an object inputSchema/),
        ]),
      );
      const error = await client.callTool('spaced', { r: 'x' }).catch((e) => e);
      expect(error.message).toMatch(/excluded from tools\/list/);
    } finally {
      await raw.close();
    }
  });

  test('an x-mcp-header key spelled with \\u escapes, or sent in an SSE reply, is checked like a plain one', async () => {
    // Found in the parsed schema whatever its spelling on the wire (a search of the reply's text for
    // the key, a tempting shortcut on big lists, would miss the escaped ones).
    const tools = (key: string) =>
      `[{"name":"good","inputSchema":{"type":"object","properties":{"r":{"type":"string","${key}":"Region"}}}},` +
      `{"name":"bad","inputSchema":{"type":"object","properties":{"r":{"type":"number","${key}":"Ratio"}}}}]`;
    for (const [key, sse] of [['x-mcp-h\\u0065ader', false], ['\\u0078-mcp-header', false], ['x-mcp-header', true]] as const) {
      const calls: Record<string, unknown>[] = [];
      const raw = await startRawServer((req, res) => {
        const { id, method } = req.json;
        if (method === 'tools/call') calls.push(req.headers);
        const result = method === 'server/discover' ? JSON.stringify({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }) : method === 'tools/list' ? `{"tools":${tools(key)}}` : '{"content":[]}';
        const message = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
        res.writeHead(200, { 'Content-Type': sse ? 'text/event-stream' : 'application/json' });
        res.end(sse ? `event: message\ndata: ${message}\n\n` : message);
      });
      try {
        const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
        expect((await client.listTools()).map((t) => t.name), key).toEqual(['good']);
        expect(client.rejectedTools.map((t) => t.name)).toEqual(['bad']);
        await client.callTool('good', { r: 'eu' });
        expect(calls[0]).toMatchObject({ 'mcp-param-region': 'eu' });
      } finally {
        await raw.close();
      }
    }
  });

  test('a listing served from the cache hands over the tools it screened before without screening them again; a fresh one screens its new tools', async () => {
    const cached = await startModernServer({ cacheHints: { 'tools/list': { ttlMs: 30_000, cacheScope: 'public' } } });
    try {
      const client = new McpClient(cached.url, { protocol: 'modern', ...quiet });
      const first = await client.listTools();
      // Count every read of a listed tool's schema from now on.
      let reads = 0;
      for (const tool of first) {
        const schema = tool.inputSchema;
        Object.defineProperty(tool, 'inputSchema', { get: () => (reads++, schema), enumerable: true, configurable: true });
      }
      const again = await client.listTools();
      expect(again).not.toBe(first);
      expect(again).toEqual(first);
      expect(again.map((tool, i) => tool === first[i])).toEqual(first.map(() => true));
      expect(reads).toBe(0);
      const fresh = await client.listTools({ fresh: true });
      expect(fresh.map((t) => t.name)).toEqual(first.map((t) => t.name));
      expect(fresh[0]).not.toBe(first[0]);
      expect(client.tool(fresh[0]!.name)).toBe(fresh[0]);
    } finally {
      await cached.close();
    }
  });

  test('a non-string title or description is dropped with a warning, the tool kept', async () => {
    const raw = await startRawServer((req, res) => {
      const { id, method } = req.json;
      const tools = [
        { name: 'odd', title: { text: 'not a string' }, description: 42, inputSchema: { type: 'object' } },
        { name: 'plain', title: 'Plain', description: 'Fine as is', inputSchema: { type: 'object' } },
      ];
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: method === 'server/discover' ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } : { tools } }));
    });
    try {
      const warnings: string[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w.message) });
      const [odd, plain] = await client.listTools();
      expect(odd).toEqual({ name: 'odd', inputSchema: { type: 'object' } });
      expect(plain).toMatchObject({ title: 'Plain', description: 'Fine as is' });
      expect(warnings).toEqual([expect.stringMatching(/non-string title of tool "odd"/), expect.stringMatching(/non-string description of tool "odd"/)]);
    } finally {
      await raw.close();
    }
  });

  test('2,000 wide tools over two pages, with a malformed and a mis-annotated one among them: each excluded once with its warning, the rest kept in server order (issue 18)', async () => {
    const wide = (i: number) => {
      const properties: Record<string, unknown> = {};
      for (let p = 0; p < 20; p++) properties[`field_${p}`] = p % 2 ? { type: 'integer', description: `Count ${p} of ${i}`, minimum: 0 } : { type: 'array', items: { type: 'string', enum: ['a', 'b'] } };
      return { type: 'object', properties };
    };
    const all = Array.from({ length: 2000 }, (_, i) => ({ name: `tool_${i}`, description: `Tool ${i}`, inputSchema: wide(i) as Record<string, any> }));
    (all[700] as Record<string, unknown>).inputSchema = 'object'; // malformed
    all[1300]!.inputSchema.properties.field_0.items['x-mcp-header'] = 'Deep'; // not on a property reached through "properties" only
    all[1999]!.inputSchema.properties.field_1['x-mcp-header'] = 'Count'; // valid
    all[5]!.inputSchema.properties.field_1.default = { 'x-mcp-header': 'a value, not an annotation' };
    const seen: Record<string, string>[] = [];
    const raw = await startRawServer((req, res) => {
      const { id, method, params } = req.json;
      if (method === 'tools/call') seen.push(req.headers as Record<string, string>);
      const page = params?.cursor === 'second' ? { tools: all.slice(1000) } : { tools: all.slice(0, 1000), nextCursor: 'second' };
      const result = method === 'server/discover' ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } : method === 'tools/list' ? page : { content: [] };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
    try {
      const warnings: { code: string; message: string }[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w) });
      const tools = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(all.map((t) => t.name).filter((n) => n !== 'tool_700' && n !== 'tool_1300'));
      expect(tools[6]).toBe(client.tool('tool_6'));
      expect(client.rejectedTools).toEqual([{ name: 'tool_1300', reason: expect.stringMatching(/not on a property reachable through "properties" only/) }]);
      expect(warnings.map((w) => w.code).sort()).toEqual(['tool-malformed', 'tool-rejected']);
      expect(warnings.find((w) => w.code === 'tool-malformed')!.message).toMatch(/"name":"tool_700"/);
      await client.callTool('tool_1999', { field_1: 7 });
      await client.callTool('tool_5', { field_1: 7 });
      expect(seen.map((h) => Object.keys(h).filter((k) => k.startsWith('mcp-param-')).map((k) => `${k}: ${h[k]}`))).toEqual([['mcp-param-count: 7'], []]);
    } finally {
      await raw.close();
    }
  });

  test('concurrent listings share one tools/list request; fresh asks again', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', cache: false, ...quiet });
    await client.connect();
    const mark = posts().length;
    const lists = await Promise.all([client.listTools(), client.listTools(), client.listTools()]);
    expect(since(mark).filter((r) => r.body.method === 'tools/list')).toHaveLength(1);
    expect(lists[1]).toBe(lists[0]);
    const aborted = new AbortController();
    const joined = client.listTools({ signal: aborted.signal });
    const other = client.listTools();
    aborted.abort();
    // One caller giving up does not fail the others sharing the request.
    await expect(joined).rejects.toMatchObject({ code: 'aborted' });
    expect((await other).length).toBeGreaterThan(0);
    await client.listTools({ fresh: true });
    expect(since(mark).filter((r) => r.body.method === 'tools/list')).toHaveLength(3);
  });

  test('one hostile, 50,000-level deep tool schema does not break the listing', async () => {
    // Built as text: JSON.stringify itself cannot nest this deep, JSON.parse can.
    const deep = '{"type":"object","properties":{"next":'.repeat(50_000) + '{"type":"string"}' + '}}'.repeat(50_000);
    const raw = await startRawServer((req, res) => {
      const { id, method } = req.json;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (method === 'server/discover') {
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } }));
        return;
      }
      res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":[{"name":"abyss","inputSchema":${deep}},{"name":"fine","inputSchema":{"type":"object"}}]}}`);
    });
    try {
      const warnings: string[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w.message) });
      expect((await client.listTools()).map((t) => t.name)).toEqual(['fine']);
      expect(warnings.join('\n')).toMatch(/Excluded tool "abyss": schema has more than 10000 subschemas/);
    } finally {
      await raw.close();
    }
  });

  /**
   * A server whose second tools/list adds the x-mcp-header its calls require;
   * `answer(params, site)` replies to each tools/call (e.g. -32020 without Mcp-Param-Site).
   */
  async function headerMismatchServer(answer: (params: any, site: string | undefined) => { status: number; body: unknown }) {
    let lists = 0;
    const raw = await startRawServer((req, res) => {
      const { id, method, params } = req.json;
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, ...(body as object) }));
      };
      if (method === 'server/discover') return json(200, { result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } });
      if (method === 'tools/list') {
        lists++;
        // The second listing adds the header annotation the server now expects.
        const properties = lists === 1 ? { site: { type: 'string' } } : { site: { type: 'string', 'x-mcp-header': 'Site' } };
        return json(200, { result: { tools: [{ name: 'deploy', inputSchema: { type: 'object', properties } }] } });
      }
      const { status, body } = answer(params, req.headers['mcp-param-site'] as string | undefined);
      json(status, body);
    });
    return { raw, lists: () => lists };
  }
  const mismatch = { status: 400, body: { error: { code: -32020, message: 'Header mismatch: Mcp-Param-Site missing' } } };

  test('on HeaderMismatch (-32020) the client re-lists tools and retries once with a new id', async () => {
    const { raw, lists } = await headerMismatchServer((_params, site) => (site ? { status: 200, body: { result: { content: [{ type: 'text', text: `deployed ${site}` }] } } } : mismatch));
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      const result = (await client.callTool('deploy', { site: 'north' })) as ToolCallResult;
      expect(result.content).toEqual([{ type: 'text', text: 'deployed north' }]);
      expect(lists()).toBe(2);
      const ids = raw.bodies().filter((b) => b.method === 'tools/call').map((b) => b.id);
      expect(ids).toHaveLength(2);
      expect(ids[0]).not.toBe(ids[1]);
    } finally {
      await raw.close();
    }
  });

  test('a HeaderMismatch in a later MRTR round retries that round, keeping the answers (the user is not asked again)', async () => {
    const { raw } = await headerMismatchServer((params, site) => {
      if (!params.inputResponses) {
        return { status: 200, body: { result: { resultType: 'input_required', requestState: 'round-2', inputRequests: { ok: { method: 'elicitation/create', params: { message: 'Deploy?', requestedSchema: { type: 'object', properties: {} } } } } } } };
      }
      return site ? { status: 200, body: { result: { content: [{ type: 'text', text: `deployed ${site} after ${params.requestState}` }] } } } : mismatch;
    });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      let asked = 0;
      client.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => (asked++, { action: 'accept', content: {} }) });
      const result = (await client.callTool('deploy', { site: 'north' })) as ToolCallResult;
      expect(result.content).toEqual([{ type: 'text', text: 'deployed north after round-2' }]);
      expect(asked).toBe(1);
      const calls = raw.bodies().filter((b) => b.method === 'tools/call');
      expect(calls).toHaveLength(3);
      // The retry is round 2 again: same answers and state, not a fresh start.
      expect(calls[2].params.inputResponses).toEqual({ ok: { action: 'accept', content: {} } });
      expect(calls[2].params.requestState).toBe('round-2');
    } finally {
      await raw.close();
    }
  });

  test('structuredContent is checked against outputSchema; isError results are not', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    const good = (await client.callTool('weather', { city: 'Oslo' })) as ToolCallResult;
    expect(good.outputValidation).toEqual({ status: 'valid' });
    expect(good.structuredContent).toEqual({ city: 'Oslo', celsius: 21.5 });
    // The kit's verdict is not part of the server's data.
    expect(Object.keys(good)).not.toContain('outputValidation');
    expect(JSON.stringify(good)).not.toContain('outputValidation');

    const failed = (await client.callTool('weather', { city: 'Atlantis', fail: true })) as ToolCallResult;
    expect(failed.isError).toBe(true);
    expect(failed.outputValidation).toEqual({ status: 'skipped', reason: expect.stringMatching(/isError/) });
  });

  test('a result that violates outputSchema is flagged, its content kept (raw server: the SDK refuses to send one)', async () => {
    const outputSchema = { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] };
    const raw = await startRawServer((req, res) => {
      const { id, method, params } = req.json;
      const result =
        method === 'server/discover'
          ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }
          : method === 'tools/list'
            ? { tools: [{ name: 'weather', inputSchema: { type: 'object' }, outputSchema }] }
            : params.arguments.missing
              ? { content: [{ type: 'text', text: 'no structure' }] }
              : { content: [{ type: 'text', text: 'warm' }], structuredContent: [{ celsius: 'warm' }] };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      const bad = (await client.callTool('weather', {})) as ToolCallResult;
      expect(bad.outputValidation).toMatchObject({ status: 'invalid', issues: [{ path: '', keyword: 'type' }] });
      expect(bad.structuredContent).toEqual([{ celsius: 'warm' }]);
      expect(bad.content).toEqual([{ type: 'text', text: 'warm' }]);
      const missing = (await client.callTool('weather', { missing: true })) as ToolCallResult;
      expect(missing.outputValidation).toMatchObject({ status: 'invalid', issues: [{ message: expect.stringMatching(/no structuredContent/) }] });
    } finally {
      await raw.close();
    }
  });

  /** A raw server whose one tool has `outputSchema` and answers every call with `structuredContent`. */
  function outputServer(outputSchema: Record<string, unknown>, structuredContent: unknown) {
    return startRawServer((req, res) => {
      const { id, method } = req.json;
      const result =
        method === 'server/discover'
          ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } }
          : method === 'tools/list'
            ? { tools: [{ name: 'checked', inputSchema: { type: 'object' }, outputSchema }] }
            : { content: [], structuredContent };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
  }

  test('an outputSchema pattern that would backtrack for minutes is checked on the linear-time engine: the result is invalid, no warning', async () => {
    const raw = await outputServer({ type: 'object', properties: { s: { type: 'string', pattern: '^(b+)+$' }, t: { type: 'string', pattern: 'a*a*b' } }, required: ['s'] }, { s: 'b'.repeat(30_000) + '!', t: 'a'.repeat(30_000) });
    try {
      const warnings: string[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w.message) });
      const result = (await client.callTool('checked', {})) as ToolCallResult;
      expect(result.outputValidation).toMatchObject({ status: 'invalid', issues: [{ path: '/s', keyword: 'pattern' }, { path: '/t', keyword: 'pattern' }] });
      expect(warnings).toEqual([]);
    } finally {
      await raw.close();
    }
  });

  test('an outputSchema pattern the engine cannot express and that could backtrack is skipped with a warning naming it', async () => {
    const raw = await outputServer({ type: 'object', properties: { s: { type: 'string', pattern: '^(b+)+\\1$' } }, required: ['s'] }, { s: 'b'.repeat(40) + '!' });
    try {
      const warnings: string[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w.message) });
      const result = (await client.callTool('checked', {})) as ToolCallResult;
      expect(result.outputValidation).toEqual({ status: 'valid' });
      expect(warnings).toEqual([expect.stringMatching(/^outputSchema of checked: pattern "\^\(b\+\)\+\\\\1\$" at #\/properties\/s is not checked: the linear-time engine cannot run it \(it refers back to a group/)]);
    } finally {
      await raw.close();
    }
  });

  test('an outputSchema whose references branch out (2^26 paths) is not checked and callTool returns at once, with a warning (issue "Hardening…", item 3)', async () => {
    const raw = await outputServer(fanOutSchema(26, 'allOf', { type: 'object' }), { a: 1 });
    try {
      const warnings: string[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w.message) });
      const result = (await client.callTool('checked', {})) as ToolCallResult;
      expect(result.outputValidation).toEqual({ status: 'skipped', reason: expect.stringMatching(/^the outputSchema cannot be used: The schema is too costly to check safely/) });
      expect(warnings).toEqual([expect.stringMatching(/^structuredContent of checked is not checked: the outputSchema cannot be used: The schema is too costly/)]);
    } finally {
      await raw.close();
    }
  });

  test('structuredContent too large for the check budget is not checked: outputValidation says skipped, with a warning', async () => {
    const raw = await outputServer({ type: 'array', uniqueItems: true, items: { type: 'array' } }, Array.from({ length: 12_000 }, (_, i) => [i]));
    try {
      const warnings: string[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w.message) });
      const result = (await client.callTool('checked', {})) as ToolCallResult;
      expect(result.outputValidation).toEqual({ status: 'skipped', reason: 'This value is too large to check against its schema on this page (more than 1000000 steps), so it was not checked.' });
      expect(warnings).toEqual([expect.stringMatching(/^structuredContent of checked is not checked: This value is too large/)]);
    } finally {
      await raw.close();
    }
  });

  test('a JSON-RPC error from the server is an McpRpcError with code, data, status and URL', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    const error = await client.callTool('no_such_tool', {}, { tool: { name: 'no_such_tool', inputSchema: { type: 'object' } } }).catch((e) => e);
    expect(McpRpcError.isInstance(error)).toBe(true);
    expect(error.code).toBe(-32602);
    expect(error.url).toBe(server.url);
  });
});

describe('progress, timeouts and cancellation (basic/patterns/progress, cancellation)', () => {
  test('progress notifications reach the call that asked for them, with a fresh token', async () => {
    const mark = posts().length;
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    const seen: [number, number | undefined, string | undefined][] = [];
    const result = (await client.callTool('slow', { steps: 3, delayMs: 20 }, { onProgress: (p) => seen.push([p.progress, p.total, p.message]) })) as ToolCallResult;
    expect(seen).toEqual([
      [1, 3, 'step 1'],
      [2, 3, 'step 2'],
      [3, 3, 'step 3'],
    ]);
    expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
    const tokens = since(mark).filter((r) => r.body.method === 'tools/call').map((r) => r.body.params._meta.progressToken);
    expect(tokens).toHaveLength(1);
    expect(['string', 'number']).toContain(typeof tokens[0]);
  });

  test('progress resets the request timeout', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    // 6 steps of 400 ms = 2.4 s in all, longer than the 1.5 s timeout, which progress keeps resetting
    // (margins a busy machine keeps: a step never takes the whole timeout).
    const result = (await client.callTool('slow', { steps: 6, delayMs: 400 }, { timeoutMs: 1500, onProgress: () => {} })) as ToolCallResult;
    expect(result.content?.[0]).toMatchObject({ text: 'done after 6 steps' });
  });

  test('the total cap applies whatever the progress', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    // Progress every 100 ms keeps a 2 s timeout alive with margins a busy machine keeps (400 ms failed at a load average of 14).
    const error = await client.callTool('slow', { steps: 60, delayMs: 100 }, { timeoutMs: 2000, maxTotalTimeoutMs: 3000, onProgress: () => {} }).catch((e) => e);
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/tools\/call timed out after 3000 ms \(maximum total time\)/);
  });

  test('without progress the request times out after timeoutMs, typed', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    const error = await client.callTool('slow', { steps: 5, delayMs: 200 }, { timeoutMs: 150 }).catch((e) => e);
    expect(McpClientError.isInstance(error)).toBe(true);
    expect(error.code).toBe('timeout');
    expect(error.data).toMatchObject({ method: 'tools/call', timeoutMs: 150 });
  });

  test('a request given up on (timeout, abort) ends in the traffic with a failed event for its id, saying why', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    await client.connect();
    const events: { direction: string; id?: unknown; method?: unknown; code?: unknown }[] = [];
    client.on('traffic', (event) => events.push({ direction: event.direction, id: 'id' in event.message ? event.message.id : undefined, method: 'method' in event.message ? event.message.method : undefined, code: (event.error as { code?: unknown } | undefined)?.code }));
    await client.callTool('slow', { steps: 5, delayMs: 200 }, { timeoutMs: 150 }).catch(() => {});
    const controller = new AbortController();
    await client.callTool('slow', { steps: 50, delayMs: 40 }, { signal: controller.signal, onProgress: () => controller.abort('user clicked Cancel') }).catch(() => {});
    const sent = events.filter((e) => e.direction === 'out' && e.method === 'tools/call').map((e) => e.id);
    expect(sent).toHaveLength(2);
    expect(events.filter((e) => e.direction === 'failed')).toEqual([
      { direction: 'failed', id: sent[0], method: 'tools/call', code: 'timeout' },
      { direction: 'failed', id: sent[1], method: 'tools/call', code: 'aborted' },
    ]);
  });

  test('aborting closes the stream: the server sees the cancellation, no notifications/cancelled is POSTed', async () => {
    const mark = posts().length;
    const cancelledBefore = server.cancelled.length;
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    await client.connect();
    const controller = new AbortController();
    const pending = client.callTool('slow', { steps: 50, delayMs: 40 }, { signal: controller.signal, onProgress: () => controller.abort('user clicked Cancel') });
    const error = await pending.catch((e) => e);
    expect(error.code).toBe('aborted');
    await expect.poll(() => server.cancelled.length, { timeout: 3000 }).toBe(cancelledBefore + 1);
    expect(since(mark).map((r) => r.body.method)).not.toContain('notifications/cancelled');
  });

  test('log notifications on the request stream go to onLog when a logLevel is set', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', logLevel: 'debug', ...quiet });
    const logs: unknown[] = [];
    await client.callTool('chatty', {}, { onLog: (log) => logs.push(log) });
    expect(logs).toEqual([expect.objectContaining({ level: 'info', data: 'working on it' })]);
    expect(posts().at(-1)!.body.params._meta['io.modelcontextprotocol/logLevel']).toBe('debug');
  });

  test('setLogLevel applies from the next request: log notifications start, and stop again when cleared', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    const logs: unknown[] = [];
    await client.callTool('chatty', {}, { onLog: (log) => logs.push(log) });
    expect(logs).toEqual([]);
    expect(posts().at(-1)!.body.params._meta).not.toHaveProperty(['io.modelcontextprotocol/logLevel']);
    client.setLogLevel('info');
    await client.callTool('chatty', {}, { onLog: (log) => logs.push(log) });
    expect(logs).toEqual([expect.objectContaining({ level: 'info', data: 'working on it' })]);
    expect(posts().at(-1)!.body.params._meta['io.modelcontextprotocol/logLevel']).toBe('info');
    client.setLogLevel(undefined);
    await client.callTool('chatty', {}, { onLog: (log) => logs.push(log) });
    expect(logs).toHaveLength(1);
  });
});

describe('resources and prompts', () => {
  test('list, templates, read and get', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    expect((await client.listResources()).map((r) => r.uri)).toContain('mem://readme');
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toContain('mem://notes/{id}');
    expect(await client.readResource('mem://notes/42')).toMatchObject({ contents: [{ uri: 'mem://notes/42', text: 'note 42' }] });
    expect((await client.listPrompts()).map((p) => p.name)).toContain('greet');
    expect(await client.getPrompt('greet', { who: 'Ada' })).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }] });
  });
});

describe('completion (server/utilities/completion)', () => {
  test('completion/complete returns the server\'s suggestions for a prompt argument', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    const description = await client.connect();
    expect(description.capabilities.completions).toBeDefined();
    const result = await client.complete({ type: 'ref/prompt', name: 'review' }, { name: 'language', value: 't' });
    expect(result.completion.values).toEqual(['typescript', 'tcl']);
    const sent = posts().at(-1)!;
    expect(sent.body.method).toBe('completion/complete');
    expect(sent.body.params).toMatchObject({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 't' } });
  });
});

describe('failures become typed errors that name the URL', () => {
  test('nothing listening: network error', async () => {
    const raw = await startRawServer(() => {});
    const url = raw.url;
    await raw.close();
    const error = await new McpClient(url, { protocol: 'modern', ...quiet }).connect().catch((e) => e);
    expect(error.code).toBe('network');
    expect(error.message).toContain(url);
    expect(error.message).toMatch(/down or unreachable/);
    // Outside a page there is no CORS to blame.
    expect(error.message).not.toMatch(/CORS/);
    expect(error.data.url).toBe(url);
  });

  test('an HTML error page: http error with status and body excerpt', async () => {
    const raw = await startRawServer((_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    });
    try {
      const error = await new McpClient(raw.url, { protocol: 'modern', ...quiet }).connect().catch((e) => e);
      expect(error.code).toBe('http');
      expect(error.data).toMatchObject({ status: 502, url: raw.url, method: 'server/discover', bodyText: '<h1>Bad gateway</h1>' });
    } finally {
      await raw.close();
    }
  });

  test('a bare 403 is reported as a probable Origin rejection', async () => {
    const raw = await startRawServer((_req, res) => {
      res.writeHead(403);
      res.end();
    });
    try {
      const error = await new McpClient(raw.url, { protocol: 'modern', ...quiet }).connect().catch((e) => e);
      expect(error.code).toBe('http');
      expect(error.message).toMatch(/rejected this page's Origin/);
    } finally {
      await raw.close();
    }
  });

  test('an error response without an id is mapped to the request that got it', async () => {
    const raw = await startRawServer((_req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Unreadable request' } }));
    });
    try {
      const error = await new McpClient(raw.url, { protocol: 'modern', ...quiet }).connect().catch((e) => e);
      expect(McpRpcError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: -32600, httpStatus: 400 });
    } finally {
      await raw.close();
    }
  });

  test('a body over maxBodyBytes is refused, typed', async () => {
    const raw = await startRawServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: req.json.id, result: { supportedVersions: ['2026-07-28'], capabilities: {}, padding: 'x'.repeat(5000) } }));
    });
    try {
      const error = await new McpClient(raw.url, { protocol: 'modern', maxBodyBytes: 1000, ...quiet }).connect().catch((e) => e);
      expect(error.code).toBe('too_large');
    } finally {
      await raw.close();
    }
  });

  test('a server request on a modern response stream is ignored, never answered', async () => {
    const raw = await startRawServer((req, res) => {
      const { id, method } = req.json;
      if (method === 'server/discover') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { supportedVersions: ['2026-07-28'], capabilities: {} } }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: { message: 'old style', requestedSchema: { type: 'object', properties: {} } } })}\n\n`);
      res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { resources: [] } })}\n\n`);
    });
    try {
      const warnings: string[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w.message) });
      client.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => ({ action: 'accept', content: {} }) });
      expect(await client.listResources()).toEqual([]);
      expect(warnings.join('\n')).toMatch(/Ignored a "elicitation\/create" request/);
      expect(raw.bodies().map((b) => b.method)).toEqual(['server/discover', 'resources/list']);
    } finally {
      await raw.close();
    }
  });
});
