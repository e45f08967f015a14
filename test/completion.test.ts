/**
 * Argument completion against a server without completions: the official SDK
 * (legacy revisions) answers `completion/complete` with -32601, and the client
 * then stops asking that server for the rest of the session (issue 29 item 7).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { McpClient, McpRpcError } from '../src/index.js';
import { startLegacySdkServer, type LegacySdkServer } from './support/legacy-servers.js';

let server: LegacySdkServer;
beforeAll(async () => {
  server = await startLegacySdkServer('sessions');
});
afterAll(() => server.close());

const asked = () => server.bodies().filter((b) => b?.method === 'completion/complete').length;

describe('a server that answers completion/complete with -32601', () => {
  test('is asked once per session: the next template variable fails at once with the same code, a new session asks again', async () => {
    const client = new McpClient(server.url, { onWarning: () => {} });
    await client.connect();
    const before = asked();
    const first = await client.complete({ type: 'ref/resource', uri: 'mem://a/{x}' }, { name: 'x', value: 'q' }).catch((e) => e);
    expect(McpRpcError.isInstance(first) && first.code).toBe(-32601);
    expect(asked()).toBe(before + 1);
    // Another template's variable, another prompt: not sent.
    const second = await client.complete({ type: 'ref/resource', uri: 'mem://b/{y}' }, { name: 'y', value: 'r' }).catch((e) => e);
    const third = await client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'who', value: 'A' }).catch((e) => e);
    for (const error of [second, third]) {
      expect(McpRpcError.isInstance(error) && error.code).toBe(-32601);
      expect(error.message).toMatch(/not asked again/);
    }
    expect(asked()).toBe(before + 1);
    // A new session may be a different server (it was upgraded): asked again, once.
    await client.reconnect();
    await client.complete({ type: 'ref/resource', uri: 'mem://a/{x}' }, { name: 'x', value: 'q' }).catch(() => {});
    await client.complete({ type: 'ref/resource', uri: 'mem://b/{y}' }, { name: 'y', value: 'q' }).catch(() => {});
    expect(asked()).toBe(before + 2);
    await client.close();
  });
});
