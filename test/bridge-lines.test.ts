/**
 * What the bridge makes of a stdio server's odd stdout lines, with real child
 * processes (small node scripts as stdio servers): a byte-order mark before the
 * first line is dropped (the `initialize` answer is not lost as noise), and a
 * line that starts like a JSON-RPC answer but is cut short fails its request at
 * once with a clear error instead of being dropped until the client's timeout.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { StdioServerSpec } from '../bridge/index.js';
import { McpClient, McpRpcError, MemoryEraCache } from '../src/index.js';
import { startTestBridge, type TestBridge } from './support/bridge.js';

/**
 * A stdio server in a few lines: answers `initialize` (its first output starts
 * with a UTF-8 BOM when `bom`), `ping`, and `tools/list` with the line `cut`
 * when given (a JSON-RPC answer cut short), else a one-tool list.
 */
function scriptServer(options: { bom?: boolean; cut?: (id: number) => string }): StdioServerSpec {
  const script = `
    const readline = require('node:readline');
    let first = true;
    const out = (text) => { process.stdout.write((first && ${options.bom ? 'true' : 'false'} ? '\\ufeff' : '') + text + '\\n'); first = false; };
    const cut = ${options.cut ? options.cut.toString() : 'undefined'};
    readline.createInterface({ input: process.stdin }).on('line', (line) => {
      const m = JSON.parse(line);
      if (m.id === undefined) return;
      if (m.method === 'initialize') out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'odd-lines', version: '1.0.0' } } }));
      else if (m.method === 'tools/list' && cut) out(cut(m.id));
      else if (m.method === 'tools/list') out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'only', inputSchema: { type: 'object' } }] } }));
      else out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
    });`;
  return { command: process.execPath, args: ['-e', script] };
}

describe('stdout lines of a stdio server', () => {
  let t: TestBridge | undefined;
  afterEach(async () => {
    await t?.bridge.close();
    t = undefined;
  });
  const connect = (bridge: TestBridge) => new McpClient(bridge.bridge.endpoints[0]!.url, { eraCache: new MemoryEraCache(), onWarning: () => {}, requestTimeoutMs: 20_000 });

  test('a byte-order mark before the first line: the initialize answer gets through', { timeout: 40_000 }, async () => {
    t = await startTestBridge({ server: scriptServer({ bom: true }) });
    const client = connect(t);
    const description = await client.connect();
    expect(description).toMatchObject({ era: 'legacy', serverInfo: { name: 'odd-lines' } });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['only']);
    expect(t.logs.filter((line) => /not JSON/.test(line))).toEqual([]);
    await client.close();
  });

  test.each([
    ['cut after its id', (id: number) => `{"jsonrpc":"2.0","id":${id},"result":{"tools":[{"name":"only","inputSch`],
    ['cut, its id only at the end', (id: number) => `{"result":{"tools":[]},"jsonrpc":"2.0","id":${id}`],
    ['cut before its id (the only request in flight)', () => `{"jsonrpc":"2.0","res`],
  ])('an answer %s fails its request at once with a clear error; the session goes on', { timeout: 40_000 }, async (_name, cut) => {
    t = await startTestBridge({ server: scriptServer({ cut }) });
    const client = connect(t);
    await client.connect();
    const started = Date.now();
    const error = await client.listTools().catch((e) => e);
    expect(error).toBeInstanceOf(McpRpcError);
    expect(error.message).toMatch(/the stdio server's response to tools\/list was not valid JSON \(\d+ bytes, cut short or malformed; it starts "\{/);
    expect(error.data).toMatchObject({ bridge: 'malformed-line' });
    // Not the request timeout (20 s).
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(t.logs.some((line) => /starts like a JSON-RPC message but is not valid JSON/.test(line))).toBe(true);
    // The same child answers the next request.
    await client.request('ping');
    expect(t.spawned()).toBe(1);
    await client.close();
  });

  test('a line of log text on stdout is still ignored (and logged), not taken for an answer', { timeout: 40_000 }, async () => {
    t = await startTestBridge({ server: scriptServer({ cut: (id: number) => `listing tools for request ${id}\n${JSON.stringify({ jsonrpc: '2.0', id, result: { tools: [] } })}` }) });
    const client = connect(t);
    expect(await client.listTools()).toEqual([]);
    expect(t.logs.some((line) => /ignored a stdout line that is not JSON .*"listing tools for request/.test(line))).toBe(true);
    await client.close();
  });
});
