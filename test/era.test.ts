/**
 * Era detection (basic/transports/streamable-http "Backward Compatibility",
 * basic/versioning; checklist §3, VER-3…VER-5) and the era cache: the
 * classification functions on their own, then the client's behaviour against
 * raw servers answering the probe every way the checklist lists, and against
 * real servers when a remembered era goes stale.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient, McpClientError, McpRpcError, MemoryEraCache, type EraCache, type McpClientOptions } from '../src/index.js';
import { classifyDiscoverResult, classifyProbeFailure, defaultEraCache, eraCacheKey } from '../src/protocol/era.js';
import { IdbEraCache } from '../src/protocol/era-idb.js';
import { isModernSignature } from '../src/legacy/base.js';
import { startScriptedServer, startLegacySdkServer, type ScriptReply, type ScriptStep, type ScriptedServer } from './support/legacy-servers.js';
import { startModernServer, startRawServer } from './support/servers.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const rpc = (code: number, message: string, data?: unknown) => new McpRpcError(code, message, data, { httpStatus: 400 });
const http = (status: number) => new McpClientError('http', `HTTP ${status}`, { status });

describe('classifyProbeFailure', () => {
  const cases: [string, unknown, 'modern' | 'legacy' | 'unknown'][] = [
    ['-32022 listing a modern version', rpc(-32022, 'unsupported', { supported: ['2026-07-28'], requested: '2026-07-28' }), 'modern'],
    ['-32022 listing only legacy versions', rpc(-32022, 'unsupported', { supported: ['2025-06-18'] }), 'legacy'],
    ['-32022 listing only unknown versions', rpc(-32022, 'unsupported', { supported: ['2031-01-01'] }), 'modern'],
    ['-32020 header mismatch', rpc(-32020, 'mismatch'), 'modern'],
    ['-32021 missing capability', rpc(-32021, 'missing'), 'modern'],
    ['404 with -32601', new McpRpcError(-32601, 'not found', undefined, { httpStatus: 404 }), 'modern'],
    ['400 with -32000 "not initialized"', rpc(-32000, 'Bad Request: Server not initialized'), 'legacy'],
    ['400 with -32600', rpc(-32600, 'invalid'), 'legacy'],
    ['400 with -32602', rpc(-32602, 'invalid params'), 'legacy'],
    ['200 with -32601', new McpRpcError(-32601, 'Method not found', undefined, { httpStatus: 200 }), 'legacy'],
    ['400 without a JSON-RPC body', http(400), 'legacy'],
    ['404 without a JSON-RPC body', http(404), 'legacy'],
    ['405', http(405), 'legacy'],
    ['401', http(401), 'unknown'],
    ['403', http(403), 'unknown'],
    ['500 with a JSON-RPC body', new McpRpcError(-32603, 'boom', undefined, { httpStatus: 500 }), 'unknown'],
    ['503', http(503), 'unknown'],
    ['a network failure', new McpClientError('network', 'refused'), 'unknown'],
    ['a timeout', new McpClientError('timeout', 'slow'), 'unknown'],
  ];
  for (const [name, error, verdict] of cases) {
    test(`${name} → ${verdict}`, () => expect(classifyProbeFailure(error)).toBe(verdict));
  }
});

describe('classifyDiscoverResult and isModernSignature', () => {
  test('only a result naming a modern version is modern', () => {
    expect(classifyDiscoverResult({ supportedVersions: ['2026-07-28'], capabilities: {} })).toBe('modern');
    expect(classifyDiscoverResult({ supportedVersions: ['2025-11-25', '2031-02-03'] })).toBe('modern');
    expect(classifyDiscoverResult({})).toBe('legacy');
    expect(classifyDiscoverResult({ supportedVersions: '2026-07-28' })).toBe('legacy');
    expect(classifyDiscoverResult({ supportedVersions: ['2025-11-25'] })).toBe('legacy');
    expect(classifyDiscoverResult(null)).toBe('legacy');
  });

  test('a modern signature is -32020, -32021 or -32022 naming a modern version', () => {
    expect(isModernSignature(rpc(-32022, 'x', { supported: ['2026-07-28'] }))).toBe(true);
    expect(isModernSignature(rpc(-32022, 'x', { supported: ['2025-11-25'] }))).toBe(false);
    expect(isModernSignature(rpc(-32020, 'x'))).toBe(true);
    expect(isModernSignature(rpc(-32021, 'x'))).toBe(true);
    expect(isModernSignature(rpc(-32000, 'x'))).toBe(false);
    expect(isModernSignature(http(400))).toBe(false);
  });
});

describe('era caches', () => {
  test('the key is origin plus path, without query or fragment', () => {
    expect(eraCacheKey(new URL('https://mcp.example.test:8443/a/mcp?x=1#y'))).toBe('https://mcp.example.test:8443/a/mcp');
    expect(eraCacheKey(new URL('https://mcp.example.test/a/mcp'))).not.toBe(eraCacheKey(new URL('https://mcp.example.test/b/mcp')));
  });

  test('Node has no IndexedDB: the default cache is in memory', () => {
    expect(typeof (globalThis as { indexedDB?: unknown }).indexedDB).toBe('undefined');
    expect(defaultEraCache()).toBeInstanceOf(MemoryEraCache);
  });

  test('IdbEraCache without IndexedDB degrades to memory instead of failing', async () => {
    const cache = new IdbEraCache();
    expect(await cache.get('https://a.example.test/mcp')).toBeUndefined();
    await cache.set('https://a.example.test/mcp', 'legacy');
    expect(await cache.get('https://a.example.test/mcp')).toBe('legacy');
    await cache.delete('https://a.example.test/mcp');
    expect(await cache.get('https://a.example.test/mcp')).toBeUndefined();
  });
});

// --- the client's detection against raw servers -----------------------------------------------------

const servers: { close(): Promise<void> }[] = [];
const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function client(url: string, options: McpClientOptions = {}): McpClient {
  const c = new McpClient(url, { eraCache: new MemoryEraCache(), onWarning: () => {}, ...options });
  clients.push(c);
  return c;
}

const initialize = (version = '2025-11-25', sid = 'sid-era'): ScriptStep => ({
  match: { rpc: 'initialize' },
  reply: {
    status: 200,
    headers: { ...JSON_TYPE, 'Mcp-Session-Id': sid },
    body: `{"jsonrpc":"2.0","id":{{id}},"result":{"protocolVersion":"${version}","capabilities":{"tools":{}},"serverInfo":{"name":"era-server","version":"1"}}}`,
  },
});
const initialized: ScriptStep = { match: { rpc: 'notifications/initialized' }, reply: { status: 202 } };

async function script(steps: ScriptStep[]): Promise<ScriptedServer> {
  const server = await startScriptedServer(steps);
  servers.push(server);
  return server;
}

describe('the client falls back to initialize on every legacy answer to the probe (VER-5)', () => {
  const answers: [string, ScriptReply][] = [
    ['400 -32000 "Server not initialized"', { status: 400, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}' }],
    ['400 with an empty body', { status: 400 }],
    ['400 with a non-JSON body', { status: 400, headers: { 'Content-Type': 'text/plain' }, body: 'bad request' }],
    ['400 -32602', { status: 400, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32602,"message":"Invalid params"}}' }],
    ['200 -32601 (stateless legacy)', { status: 200, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32601,"message":"Method not found"}}' }],
    ['200 with an empty result (answers anything)', { status: 200, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":{{id}},"result":{}}' }],
    ['404 with an HTML page', { status: 404, headers: { 'Content-Type': 'text/html' }, body: '<h1>Not here</h1>' }],
    ['405', { status: 405, headers: { Allow: 'GET' } }],
  ];
  for (const [name, answer] of answers) {
    test(name, async () => {
      const server = await script([
        { match: { rpc: 'server/discover', headers: { 'MCP-Protocol-Version': '2026-07-28' } }, reply: answer },
        initialize(),
        initialized,
        { match: { rpc: 'tools/list', headers: { 'Mcp-Session-Id': 'sid-era' } }, reply: { status: 200, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":{{id}},"result":{"tools":[]}}' } },
      ]);
      const cache = new MemoryEraCache();
      const c = client(server.url, { eraCache: cache });
      expect(await c.connect()).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25' });
      expect(await c.listTools()).toEqual([]);
      expect(server.mismatches).toEqual([]);
      expect(cache.get(eraCacheKey(new URL(server.url)))).toBe('legacy');
    });
  }

  test('-32022 listing only legacy versions leads to initialize, and the server\'s older version is accepted', async () => {
    const server = await script([
      { match: { rpc: 'server/discover' }, reply: { status: 400, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2025-06-18"],"requested":"2026-07-28"}}}' } },
      { match: { rpc: 'initialize', body: (b) => b.params.protocolVersion === '2025-11-25' }, reply: (initialize('2025-06-18').reply as ScriptReply) },
      initialized,
      { match: { rpc: 'tools/list', headers: { 'MCP-Protocol-Version': '2025-06-18' } }, reply: { status: 200, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":{{id}},"result":{"tools":[]}}' } },
    ]);
    const c = client(server.url);
    expect(await c.connect()).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
    await c.listTools();
    expect(server.mismatches).toEqual([]);
  });

  test('2025-03-26 predates MCP-Protocol-Version: the header is not sent', async () => {
    const server = await script([
      { match: { rpc: 'server/discover' }, reply: { status: 400 } },
      initialize('2025-03-26'),
      initialized,
      { match: { rpc: 'tools/list', absent: ['MCP-Protocol-Version'], headers: { 'Mcp-Session-Id': 'sid-era' } }, reply: { status: 200, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":{{id}},"result":{"tools":[]}}' } },
    ]);
    const c = client(server.url);
    expect((await c.connect()).protocolVersion).toBe('2025-03-26');
    await c.listTools();
    expect(server.mismatches).toEqual([]);
  });

  test('a version the kit does not speak ends the session (DELETE) with a typed error (LEG-2)', async () => {
    const server = await script([{ match: { rpc: 'server/discover' }, reply: { status: 400 } }, initialize('1999-12-31', 'sid-odd')]);
    const error = await client(server.url).connect().catch((e) => e);
    expect(error).toMatchObject({ code: 'unsupported_version' });
    expect(error.message).toContain('1999-12-31');
    await new Promise((r) => setTimeout(r, 50));
    expect(server.deletes.map((d) => d.headers['mcp-session-id'])).toEqual(['sid-odd']);
    expect(server.bodies().map((b) => b.method)).toEqual(['server/discover', 'initialize']);
  });
});

describe('answers to the probe that are not legacy', () => {
  test('a 200 without supportedVersions whose server then refuses initialize is used as modern, with a warning', async () => {
    const server = await script([
      { match: { rpc: 'server/discover' }, reply: { status: 200, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":{{id}},"result":{"capabilities":{"tools":{}}}}' } },
      { match: { rpc: 'initialize' }, reply: { status: 400, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}' } },
      { match: { rpc: 'tools/list', headers: { 'MCP-Protocol-Version': '2026-07-28' } }, reply: { status: 200, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":{{id}},"result":{"resultType":"complete","tools":[]}}' } },
    ]);
    const warnings: string[] = [];
    const c = client(server.url, { onWarning: (w) => warnings.push(w.code) });
    expect((await c.connect()).era).toBe('modern');
    expect(await c.listTools()).toEqual([]);
    expect(warnings).toContain('discover-without-versions');
    expect(server.mismatches).toEqual([]);
    expect(server.gets).toEqual([]);
  });

  const stays: [string, ScriptReply][] = [
    ['-32020 (modern, request wrong)', { status: 400, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32020,"message":"Header mismatch"}}' }],
    ['-32022 naming no version the kit speaks', { status: 400, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"nope","data":{"supported":["2031-01-01"]}}}' }],
    ['401 (authorization, any era)', { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="x"' } }],
    ['403', { status: 403 }],
    ['500', { status: 500, headers: { 'Content-Type': 'text/plain' }, body: 'oops' }],
  ];
  for (const [name, answer] of stays) {
    test(`${name}: surfaced, no initialize, no era remembered`, async () => {
      const server = await script([{ match: { rpc: 'server/discover' }, reply: answer }]);
      const cache = new MemoryEraCache();
      const error = await client(server.url, { eraCache: cache }).connect().catch((e) => e);
      expect(McpRpcError.isInstance(error) || McpClientError.isInstance(error)).toBe(true);
      expect(server.bodies().map((b) => b.method)).toEqual(['server/discover']);
      expect(cache.get(eraCacheKey(new URL(server.url)))).toBeUndefined();
    });
  }

  test('a network failure is reported, not mistaken for an era', async () => {
    const raw = await startRawServer((_req, res) => void res.end());
    const url = raw.url;
    await raw.close();
    const cache = new MemoryEraCache();
    const error = await client(url, { eraCache: cache }).connect().catch((e) => e);
    expect(error.code).toBe('network');
    expect(cache.get(eraCacheKey(new URL(url)))).toBeUndefined();
  });
});

describe('the era cache in use (VER-4)', () => {
  test('a remembered legacy verdict skips the probe on the next connection', async () => {
    const legacy = await startLegacySdkServer('sessions');
    servers.push(legacy);
    const cache = new MemoryEraCache();
    await client(legacy.url, { eraCache: cache }).connect();
    const mark = legacy.bodies().length;
    await client(legacy.url, { eraCache: cache }).connect();
    expect(legacy.bodies().slice(mark)[0].method).toBe('initialize');
    expect(legacy.bodies().slice(mark).some((b) => b?.method === 'server/discover')).toBe(false);
  });

  test('a stale legacy verdict (the server was upgraded) is dropped and the endpoint probed again', async () => {
    const modern = await startModernServer();
    servers.push(modern);
    const cache = new MemoryEraCache();
    const key = eraCacheKey(new URL(modern.url));
    cache.set(key, 'legacy');
    const description = await client(modern.url, { eraCache: cache }).connect();
    expect(description.era).toBe('modern');
    expect(cache.get(key)).toBe('modern');
    expect(modern.bodies().map((b) => b?.method)).toEqual(['initialize', 'server/discover']);
  });

  test('a stale modern verdict (the server was downgraded) ends in legacy after the probe', async () => {
    const legacy = await startLegacySdkServer('stateless');
    servers.push(legacy);
    const cache: EraCache = new MemoryEraCache();
    const key = eraCacheKey(new URL(legacy.url));
    cache.set(key, 'modern');
    expect((await client(legacy.url, { eraCache: cache }).connect()).era).toBe('legacy');
    expect(cache.get(key)).toBe('legacy');
  });

  test('an established legacy session whose endpoint starts answering like a modern server reconnects as modern', async () => {
    let upgraded = false;
    const raw = await startRawServer((req, res) => {
      const body = req.json;
      const reply = (status: number, payload: unknown, headers: Record<string, string> = {}): void => void res.writeHead(status, { ...JSON_TYPE, ...headers }).end(JSON.stringify(payload));
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (!body.id) return void res.writeHead(202).end();
      if (!upgraded) {
        if (body.method === 'server/discover') return reply(400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Server not initialized' } });
        if (body.method === 'initialize') return reply(200, { jsonrpc: '2.0', id: body.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'old', version: '1' } } }, { 'Mcp-Session-Id': 'sid-old' });
        return reply(200, { jsonrpc: '2.0', id: body.id, result: { tools: [] } });
      }
      if (req.headers['mcp-protocol-version'] !== '2026-07-28') return reply(400, { jsonrpc: '2.0', id: null, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } } });
      if (body.method === 'server/discover') return reply(200, { jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } });
      return reply(200, { jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', tools: [{ name: 'fresh', inputSchema: { type: 'object' } }] } });
    });
    servers.push(raw);
    const cache = new MemoryEraCache();
    const key = eraCacheKey(new URL(raw.url));
    const c = client(raw.url, { eraCache: cache, cache: false });
    expect((await c.connect()).era).toBe('legacy');
    upgraded = true;
    const error = await c.listTools().catch((e) => e);
    expect(error.code).toBe(-32022);
    expect(cache.get(key)).toBeUndefined();
    expect((await c.listTools()).map((t) => t.name)).toEqual(['fresh']);
    expect(c.server?.era).toBe('modern');
    expect(cache.get(key)).toBe('modern');
  });

  test('protocol: "legacy" never probes; protocol: "modern" never initializes', async () => {
    const legacy = await startLegacySdkServer('sessions');
    servers.push(legacy);
    await client(legacy.url, { protocol: 'legacy' }).connect();
    expect(legacy.bodies()[0].method).toBe('initialize');
    const mark = legacy.bodies().length;
    const error = await client(legacy.url, { protocol: 'modern' }).connect().catch((e) => e);
    expect(McpRpcError.isInstance(error) || McpClientError.isInstance(error)).toBe(true);
    expect(legacy.bodies().slice(mark).map((b) => b.method)).toEqual(['server/discover']);
  });
});
