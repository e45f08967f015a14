/**
 * `initialize` refused for its protocol version (issue "Interop…", item 3). A
 * conformant legacy server answers an offer it does not speak with a version it
 * does (2025-11-25 basic/lifecycle "Version Negotiation"); some refuse with a
 * 400 instead — a JSON-RPC error naming their versions, `-32602` with
 * `data.supported`, or plain text. The official SDK negotiates correctly, so
 * these servers are raw node:http ones sending exact bytes.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient, MemoryEraCache, type McpWarning, type ToolCallResult } from '../src/index.js';
import { eraCacheKey } from '../src/protocol/era.js';
import { startRawServer, type RunningServer } from './support/servers.js';

const open: RunningServer[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

interface Picky extends RunningServer {
  /** Protocol versions offered by each initialize, in order. */
  offers: string[];
  /** Forgets the session, as a restarted server does (next request: 404). */
  forget(): void;
}

/** A legacy Streamable HTTP server that speaks only `accepts`, and refuses other offers through `refuse`. */
async function pickyServer(accepts: string[], refuse: (res: ServerResponse, id: number, offered: string) => void): Promise<Picky> {
  const offers: string[] = [];
  let session = 0;
  const raw = await startRawServer((req, res) => {
    const body = req.json;
    if (req.method === 'GET') return void res.writeHead(405).end();
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    if (body?.method === 'initialize') {
      const offered = body.params.protocolVersion;
      offers.push(offered);
      if (!accepts.includes(offered)) return refuse(res, body.id, offered);
      session++;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': `s-${session}` });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { protocolVersion: offered, capabilities: { tools: {} }, serverInfo: { name: 'picky', version: '1.0.0' } } }));
      return;
    }
    const sid = req.headers['mcp-session-id'];
    if (sid === undefined) {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}');
      return;
    }
    if (sid !== `s-${session}`) return void res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}');
    if (body?.id === undefined) return void res.writeHead(202).end();
    const result =
      body.method === 'tools/list'
        ? { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] }
        : { content: [{ type: 'text', text: `echo: ${body.params?.arguments?.text}` }] };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
  });
  open.push(raw);
  return Object.assign(raw, { offers, forget: () => void session++ });
}

const namedInMessage = (res: ServerResponse, id: number, offered: string) =>
  res
    .writeHead(400, { 'Content-Type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message: `Unsupported protocol version ${offered}; supported versions: 2025-06-18, 2025-03-26` } }));
const supportedInData = (versions: string[]) => (res: ServerResponse, id: number, offered: string) =>
  res
    .writeHead(400, { 'Content-Type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: 'Unsupported protocol version', data: { supported: versions, requested: offered } } }));
const plainText = (res: ServerResponse) => res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad Request: unsupported protocol version');

function client(url: string) {
  const warnings: McpWarning[] = [];
  return { mcp: new McpClient(url, { onWarning: (w) => warnings.push(w) }), warnings };
}
const text = (result: unknown) => (result as ToolCallResult).content?.map((c) => (c as { text?: string }).text).join('');

describe('initialize refused for its protocol version: each older version once, those named first', () => {
  test('a 400 whose JSON-RPC error names the versions: the newest named one is offered next', async () => {
    const server = await pickyServer(['2025-06-18', '2025-03-26'], namedInMessage);
    const { mcp, warnings } = client(server.url);
    const description = await mcp.connect();
    expect(description).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
    expect(server.offers).toEqual(['2025-11-25', '2025-06-18']);
    expect(text(await mcp.callTool('echo', { text: 'hi' }))).toBe('echo: hi');
    const call = server.requests.find((r) => r.body?.method === 'tools/call')!;
    expect(call.headers['mcp-protocol-version']).toBe('2025-06-18');
    expect(warnings).toContainEqual({ code: 'legacy-version-refused', message: expect.stringMatching(/refused initialize offering 2025-11-25 .*connected by offering 2025-06-18/) });
    // No HTTP+SSE attempt.
    expect(server.requests.filter((r) => r.method === 'GET' && r.headers['mcp-session-id'] === undefined)).toEqual([]);
    await mcp.close();
  });

  test('-32602 with data.supported: the listed version is offered next, skipping ones it does not list', async () => {
    const server = await pickyServer(['2025-03-26'], supportedInData(['2025-03-26']));
    const { mcp } = client(server.url);
    expect(await mcp.connect()).toMatchObject({ protocolVersion: '2025-03-26' });
    expect(server.offers).toEqual(['2025-11-25', '2025-03-26']);
    await mcp.listTools();
    // 2025-03-26 predates the MCP-Protocol-Version header.
    expect(server.requests.find((r) => r.body?.method === 'tools/list')!.headers['mcp-protocol-version']).toBeUndefined();
    await mcp.close();
  });

  test('a plain-text 400 naming no version: the older versions in turn, newest first', async () => {
    const server = await pickyServer(['2025-03-26'], plainText);
    const { mcp } = client(server.url);
    expect(await mcp.connect()).toMatchObject({ protocolVersion: '2025-03-26' });
    expect(server.offers).toEqual(['2025-11-25', '2025-06-18', '2025-03-26']);
    await mcp.close();
  });

  test('refused at every version: each offered once, then the HTTP+SSE fallback, and an error naming what was tried', async () => {
    const server = await pickyServer([], namedInMessage);
    const { mcp } = client(server.url);
    const error = await mcp.connect().catch((e) => e);
    expect(server.offers).toEqual(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
    expect(server.requests.some((r) => r.method === 'GET')).toBe(true);
    expect(error.message).toContain('Unsupported protocol version 2025-11-25');
    expect(error.message).toContain('initialize offered 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05 in turn');
    expect(error.message).toMatch(/HTTP\+SSE/);
  });

  test('a 400 that is not about the version is not retried', async () => {
    const refusing = await pickyServer([], (res, id) =>
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Accept must list text/event-stream' } })),
    );
    const error = await client(refusing.url).mcp.connect().catch((e) => e);
    expect(refusing.offers).toEqual(['2025-11-25']);
    expect(error.message).toContain('Accept must list text/event-stream');
  });

  test('a lost session is initialized again with the version that worked, not the refused one', async () => {
    const server = await pickyServer(['2025-06-18'], supportedInData(['2025-06-18']));
    const { mcp } = client(server.url);
    await mcp.connect();
    server.forget();
    expect(text(await mcp.callTool('echo', { text: 'again' }))).toBe('echo: again');
    expect(server.offers).toEqual(['2025-11-25', '2025-06-18', '2025-06-18']);
    await mcp.close();
  });
});

describe('version step-down (issue 29 item 12): down in order, each version once, never back up', () => {
  const json400 = (res: ServerResponse, id: number, message: string) =>
    res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } }));

  test('refused for its version at 2025-11-25, then plain 400s: steps on down to 2025-03-26 and 2024-11-05', async () => {
    const server = await pickyServer(['2024-11-05'], (res, id, offered) =>
      json400(res, id, offered === '2025-11-25' ? 'Bad Request: unsupported protocol version' : 'Bad Request'),
    );
    const { mcp } = client(server.url);
    expect(await mcp.connect()).toMatchObject({ era: 'legacy', protocolVersion: '2024-11-05' });
    expect(server.offers).toEqual(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
    await mcp.close();
  });

  test('a refusal naming a newer version than the last offer does not bring the offer back up', async () => {
    const server = await pickyServer(['2024-11-05'], (res, id, offered) =>
      json400(res, id, offered === '2025-11-25' ? `Unsupported protocol version ${offered}; supported: 2025-03-26` : `Unsupported protocol version ${offered}; try 2025-06-18`),
    );
    const { mcp } = client(server.url);
    expect(await mcp.connect()).toMatchObject({ protocolVersion: '2024-11-05' });
    expect(server.offers).toEqual(['2025-11-25', '2025-03-26', '2024-11-05']);
    await mcp.close();
  });

  test('the server\'s supported list is followed: versions it does not list are skipped, and a list with nothing older ends the handshake', async () => {
    const server = await pickyServer([], supportedInData(['2025-11-25', '2025-03-26']));
    const { mcp } = client(server.url);
    const error = await mcp.connect().catch((e) => e);
    // 2025-03-26 (listed, yet refused) then nothing older is listed: no going back to 2025-11-25.
    expect(server.offers).toEqual(['2025-11-25', '2025-03-26']);
    expect(error.message).toContain('initialize offered 2025-11-25, 2025-03-26 in turn');
  });

  test('a new session of the client starts at the version that worked, not back at the refused one', async () => {
    const server = await pickyServer(['2024-11-05'], (res, id, offered) =>
      json400(res, id, `Bad Request: Unsupported protocol version: ${offered} (supported versions: 2024-11-05)`),
    );
    const { mcp } = client(server.url);
    await mcp.connect();
    expect(server.offers).toEqual(['2025-11-25', '2024-11-05']);
    expect(await mcp.reconnect()).toMatchObject({ protocolVersion: '2024-11-05' });
    expect(server.offers).toEqual(['2025-11-25', '2024-11-05', '2024-11-05']);
    await mcp.close();
  });

  test('a remembered legacy verdict that fails is not followed by the same handshake again after the probe', async () => {
    const server = await pickyServer([], plainText);
    const cache = new MemoryEraCache();
    cache.set(eraCacheKey(new URL(server.url)), 'legacy');
    const mcp = new McpClient(server.url, { eraCache: cache, onWarning: () => {} });
    const error = await mcp.connect().catch((e) => e);
    expect(server.offers).toEqual(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
    expect(error.message).toContain('initialize offered 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05 in turn');
  });
});
