/**
 * A reply on an event stream whose reader could not be loaded (the chunk
 * unreachable: offline, a deploy replacing it) is let go at once, not left open
 * for as long as the server streams: in a browser, a few such replies would hold
 * every connection to the origin, and the next request could not even be sent.
 * Found by the review of issue 30's F1 fix. Every import of the reader fails in
 * this file (its module factory throws).
 */
import { expect, test, vi } from 'vitest';
import { McpClient } from '../src/index.js';
import { startRawServer } from './support/servers.js';

vi.mock('../src/transport/sse.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module (test: offline)');
});

test('a reply stream whose reader failed to load is cancelled: the server sees its connection closed while it is still streaming', async () => {
  let closed = false;
  const server = await startRawServer((req, res) => {
    if (req.json?.method === 'server/discover') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: req.json.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } }));
      return;
    }
    // A long call: keep-alive comments until the client goes away.
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    const timer = setInterval(() => res.write(': keep-alive\n\n'), 100);
    res.on('close', () => {
      clearInterval(timer);
      closed = true;
    });
  });
  // The responses are kept reachable, as a page's own fetch wrapper or devtools may: Node's fetch
  // would otherwise cancel an unread body once it is collected, which hides the leak.
  const kept: Response[] = [];
  const keeping: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    kept.push(response);
    return response;
  };
  const client = new McpClient(server.url, { protocol: 'modern', fetch: keeping, onWarning: () => {} });
  try {
    const error = await client.callTool('slow', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'McpClientError' });
    // What failed it is the load (vitest wraps the factory's error: it is the cause's cause).
    expect(error).toMatchObject({ cause: { cause: { message: 'Failed to fetch dynamically imported module (test: offline)' } } });
    await expect.poll(() => closed).toBe(true);
    expect(kept.length).toBeGreaterThanOrEqual(2);
  } finally {
    await client.close();
    await server.close();
  }
});
