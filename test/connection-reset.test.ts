/**
 * A kept-alive connection the server closes just as the client reuses it (the
 * race that made calls through the bridge fail with "other side closed"): a raw
 * node:http server that destroys a connection when a second request arrives on
 * it, before reading it — a fault a real server produces only by timing. The kit
 * sends a request that is harmless to repeat once more on a new connection; a
 * `tools/call` it does not send again, and says why. And the bridge keeps idle
 * connections open longer than clients keep them for reuse.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient, McpClientError } from '../src/index.js';
import { everything, startTestBridge } from './support/bridge.js';
import { closeServer, listen } from './support/http.js';

interface ResettingServer {
  url: string;
  /** The JSON-RPC methods of the requests the server read and answered. */
  answered: string[];
  /** How many connections it reset at their reuse. */
  resets: number;
  close(): Promise<void>;
}

/**
 * A 2026-07-28 server that resets a kept-alive connection when a request arrives on it
 * for the second time or later, `resets` times in all (default: every time), as a server
 * does whose idle timeout ends just then; other requests are answered.
 */
async function startResettingServer(budget = Infinity): Promise<ResettingServer> {
  const requestsOn = new WeakMap<Socket, number>();
  const state = { answered: [] as string[], resets: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const count = (requestsOn.get(req.socket) ?? 0) + 1;
    requestsOn.set(req.socket, count);
    if (count > 1 && state.resets < budget) {
      // The idle connection is closed as the request arrives: nothing of it was read or answered.
      state.resets++;
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string };
      state.answered.push(message.method);
      const result =
        message.method === 'server/discover'
          ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'resetting', version: '1' } }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'act', inputSchema: { type: 'object' } }] }
            : message.method === 'tools/call'
              ? { content: [{ type: 'text', text: 'acted' }] }
              : {};
      res.writeHead(200, { 'Content-Type': 'application/json', Connection: 'keep-alive' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...result } }));
    });
  });
  const origin = await listen(server);
  return {
    url: `${origin}/mcp`,
    answered: state.answered,
    get resets() {
      return state.resets;
    },
    close: () => closeServer(server),
  };
}

describe('a connection reset at its reuse', () => {
  let server: ResettingServer | undefined;
  afterEach(() => server?.close());

  test('a request that is harmless to repeat (ping, tools/list) is sent once more on a new connection and answered', async () => {
    server = await startResettingServer(1);
    const client = new McpClient(server.url, { protocol: 'modern', cache: false, onWarning: () => {} });
    await client.connect();
    // Requests in a row until one goes out on a kept-alive connection and meets the reset (bounded).
    let sent = 0;
    for (; server.resets === 0 && sent < 20; sent++) {
      if (sent % 2 === 0) expect(await client.request('ping')).toEqual({ resultType: 'complete' });
      else expect((await client.listTools()).map((tool) => tool.name)).toEqual(['act']);
    }
    expect(server.resets).toBe(1);
    // Every one was answered, each read once: the reset one was sent again on another connection.
    expect(server.answered).toHaveLength(1 + sent);
    expect(server.answered.slice(1)).toEqual(Array.from({ length: sent }, (_, i) => (i % 2 === 0 ? 'ping' : 'tools/list')));
    await client.close();
  });

  test('tools/call is not sent again: it fails with network, saying the server may have received it', async () => {
    server = await startResettingServer();
    const client = new McpClient(server.url, { protocol: 'modern', onWarning: () => {} });
    await client.connect();
    await client.listTools();
    const resetsBefore = server.resets;
    const error = await client.callTool('act', {}).catch((e) => e);
    expect(error).toBeInstanceOf(McpClientError);
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/The connection was reset before any answer; it was not sent again, as the server may have received it\./);
    expect(error.data).toMatchObject({ method: 'tools/call', resent: false });
    expect(server.resets).toBe(resetsBefore + 1);
    expect(server.answered).not.toContain('tools/call');
    await client.close();
  });
});

describe('the bridge and kept-alive connections', () => {
  test('an idle connection stays open past the 5 s at which Node closes one by default: the next request reuses it', { timeout: 30_000 }, async () => {
    const t = await startTestBridge({ server: everything });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { port } = t.bridge;
      const send = () =>
        new Promise<{ status: number; reused: boolean; keepAlive: string | undefined }>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: `/mcp?token=${t.bridge.token}`, agent, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket, keepAlive: res.headers['keep-alive'] as string | undefined }));
          });
          req.on('error', reject);
          // The modern probe: refused with 400 before anything is spawned.
          req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover' }));
        });
      const first = await send();
      expect(first).toMatchObject({ status: 400, reused: false });
      expect(Number(/timeout=(\d+)/.exec(first.keepAlive ?? '')?.[1])).toBeGreaterThanOrEqual(300);
      // Idle longer than Node's default keepAliveTimeout (5 s): the scenario itself, not a wait for an event.
      await new Promise((resolve) => setTimeout(resolve, 6000));
      expect(await send()).toMatchObject({ status: 400, reused: true });
      expect(t.spawned()).toBe(0);
    } finally {
      agent.destroy();
      await t.bridge.close();
    }
  });
});
