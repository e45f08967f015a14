/**
 * Redirects never carry anything to another origin (issue "Hardening against
 * hostile servers", item 1). A server answering with 307/308 to another origin
 * used to have the kit follow: the other origin received the caller's headers,
 * a legacy session's Mcp-Session-Id and the body (tool arguments), and its
 * answer was taken as the server's. Real servers (the official SDK, modern and
 * legacy) redirect; a second raw origin records whatever reaches it.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient, McpClientError, type ToolCallResult } from '../src/index.js';
import { startLegacySdkServer } from './support/legacy-servers.js';
import { startModernServer, startRawServer, type RunningServer } from './support/servers.js';

const open: RunningServer[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** The other origin: answers every request like a server would, and records it. */
async function otherOrigin() {
  const raw = await startRawServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: req.json?.id ?? null, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, content: [{ type: 'text', text: 'from the other origin' }] } }));
  });
  open.push(raw);
  return raw;
}

const caller = { Authorization: 'Bearer secret-token', 'X-Api-Key': 'caller-key' };
const quiet = { onWarning: () => {} };
const text = (result: unknown) => (result as ToolCallResult).content?.map((c) => (c as { text?: string }).text).join('');

describe('a redirect to another origin is a typed error naming both URLs; nothing reaches that origin', () => {
  for (const status of [307, 308, 301, 302, 303]) {
    test(`${status} on every request (server/discover included)`, async () => {
      const other = await otherOrigin();
      const server = await startModernServer({ redirect: () => ({ status, location: `${other.origin}/mcp` }) });
      open.push(server);
      const error = await new McpClient(server.url, { headers: caller, ...quiet }).connect().catch((e) => e);
      expect(McpClientError.isInstance(error)).toBe(true);
      expect(error.code).toBe('redirect');
      expect(error.message).toContain(server.url);
      expect(error.message).toContain(`${other.origin}/mcp`);
      expect(error.data).toMatchObject({ url: server.url, location: `${other.origin}/mcp`, status, method: 'POST' });
      expect(other.requests).toEqual([]);
    });
  }

  test('308 on tools/call only: the call fails, the tool arguments and headers never leave the server', async () => {
    const other = await otherOrigin();
    const server = await startModernServer({ redirect: ({ body }) => (body?.method === 'tools/call' ? { status: 308, location: `${other.origin}/steal` } : undefined) });
    open.push(server);
    const client = new McpClient(server.url, { headers: caller, ...quiet });
    const error = await client.callTool('echo', { text: 'card 4242' }).catch((e) => e);
    expect(error).toMatchObject({ code: 'redirect', data: { location: `${other.origin}/steal` } });
    expect(other.requests).toEqual([]);
    // The client stays usable for requests the server does not redirect.
    expect((await client.listTools()).map((t) => t.name)).toContain('echo');
  });

  test('a legacy session\'s Mcp-Session-Id is not sent along a 307 to another origin', async () => {
    const other = await otherOrigin();
    const legacy = await startLegacySdkServer('sessions', {
      intercept: (_req, res, body) => {
        if (body?.method !== 'tools/call') return false;
        res.writeHead(307, { Location: `${other.origin}/mcp` }).end();
        return true;
      },
    });
    open.push(legacy);
    const client = new McpClient(legacy.url, { protocol: 'legacy', headers: caller, ...quiet });
    await client.connect();
    const error = await client.callTool('echo', { text: 'secret' }).catch((e) => e);
    expect(error).toMatchObject({ code: 'redirect', data: { url: legacy.url, location: `${other.origin}/mcp`, status: 307 } });
    expect(other.requests).toEqual([]);
    await client.close();
  });

  test('an injected fetch that follows redirects anyway: the other origin\'s answer is refused', async () => {
    const other = await otherOrigin();
    const server = await startModernServer({ redirect: () => ({ status: 307, location: `${other.origin}/mcp` }) });
    open.push(server);
    // A wrapper that drops the redirect mode (as some proxies' fetch do).
    const following: typeof fetch = (input, init) => fetch(input, { ...init, redirect: 'follow' });
    const error = await new McpClient(server.url, { fetch: following, ...quiet }).connect().catch((e) => e);
    expect(error).toMatchObject({ code: 'redirect', data: { location: `${other.origin}/mcp` } });
  });
});

describe('same-origin redirects keep working', () => {
  for (const status of [307, 308, 301, 302, 303]) {
    test(`${status} /old → /mcp: every request reaches the server with its method, headers and body`, async () => {
      const server = await startModernServer({ redirect: ({ url }) => (url.startsWith('/old') ? { status, location: '/mcp' } : undefined) });
      open.push(server);
      const client = new McpClient(`${server.origin}/old`, { headers: caller, ...quiet });
      expect(text(await client.callTool('echo', { text: 'moved' }))).toBe('echo: moved');
      const call = server.requests.filter((r) => r.url === '/mcp' && r.body?.method === 'tools/call');
      expect(call).toHaveLength(1);
      expect(call[0]!.method).toBe('POST');
      expect(call[0]!.headers).toMatchObject({ authorization: 'Bearer secret-token', 'x-api-key': 'caller-key', 'mcp-method': 'tools/call' });
    });
  }

  test('a Location that is not a URL is a redirect error naming it, not "the server may be down"', async () => {
    const server = await startModernServer({ redirect: () => ({ status: 307, location: 'http://[not-a-host' }) });
    open.push(server);
    const error = await new McpClient(`${server.origin}/mcp`, quiet).connect().catch((e) => e);
    expect(error).toBeInstanceOf(McpClientError);
    expect(error).toMatchObject({ code: 'redirect', data: { status: 307 } });
    expect(error.message).toContain('its Location "http://[not-a-host" is not a URL');
  });

  test('a redirect loop on the same origin stops after five hops with a typed error', async () => {
    const server = await startModernServer({ redirect: ({ url }) => ({ status: 307, location: url === '/a' ? '/b' : '/a' }) });
    open.push(server);
    const error = await new McpClient(`${server.origin}/a`, quiet).connect().catch((e) => e);
    expect(error).toMatchObject({ code: 'redirect' });
    expect(error.message).toMatch(/after 5 hops/);
    expect(server.requests.length).toBeLessThanOrEqual(6);
  });
});
