/**
 * How the bridge answers a POSTed request (spec 2025-11-25 basic/transports
 * "Sending Messages to the Server": one JSON body or an SSE stream): a response
 * that comes first goes as one `application/json` body with the child's exact
 * bytes; a related message before it, or a response that takes long, makes the
 * answer an SSE stream. What the client sent reaches the child as sent, one
 * message per line. A real child process (a small node script as stdio server).
 */
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import type { StdioServerSpec } from '../bridge/index.js';
import { startTestBridge, type TestBridge } from './support/bridge.js';

/**
 * Answers `initialize`; `raw` with the exact line it read, in a spacing the
 * bridge would not write; `tools/call` with a log message first; `hold` only
 * once a `release` request came.
 */
const server: StdioServerSpec = {
  command: process.execPath,
  args: [
    '-e',
    `
    const readline = require('node:readline');
    const out = (text) => process.stdout.write(text + '\\n');
    let held;
    readline.createInterface({ input: process.stdin }).on('line', (line) => {
      const m = JSON.parse(line);
      if (m.id === undefined) return;
      if (m.method === 'initialize') out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'answers', version: '1.0.0' } } }));
      else if (m.method === 'raw') out('{"id" : ' + JSON.stringify(m.id) + ' ,"jsonrpc":"2.0",  "result":{"line":' + JSON.stringify(line) + '}}');
      else if (m.method === 'tools/call') {
        out(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } }));
        out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [] } }));
      } else if (m.method === 'hold') held = m.id;
      else if (m.method === 'release') {
        out(JSON.stringify({ jsonrpc: '2.0', id: held, result: { released: true } }));
        out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
      } else out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
    });`,
  ],
};

/** A bridge in front of {@link server}, initialized: `post` sends one message in its session. */
async function open(streamAfterMs: number): Promise<{ t: TestBridge; post: (body: string) => Promise<Response> }> {
  const t = await startTestBridge({ server, streamAfterMs });
  const url = t.bridge.endpoints[0]!.url;
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } } }),
  });
  const session = init.headers.get('mcp-session-id')!;
  // A child that starts slower than streamAfterMs gets its answer as an SSE stream: either way, the one message.
  const text = await init.text();
  expect(JSON.parse(text.slice(text.indexOf('{'))).result.serverInfo.name).toBe('answers');
  const post = (body: string) =>
    fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' }, body });
  return { t, post };
}

describe('the answer to a POSTed request', () => {
  let t: TestBridge;
  let post: (body: string) => Promise<Response>;
  // Long enough that no answer of these tests becomes a stream on a busy machine.
  beforeAll(async () => ({ t, post } = await open(30_000)));
  afterAll(() => t?.bridge.close());

  test('a response that comes first is one application/json body: the bytes the child wrote; the child read the bytes the client sent', async () => {
    const sent = '{ "jsonrpc" : "2.0", "id" : "r1", "method" : "raw", "params" : { "text" : "caf\\u00e9 \\ud83d\\ude00" } }';
    const response = await post(sent);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = await response.text();
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(body).toBe(`{"id" : "r1" ,"jsonrpc":"2.0",  "result":{"line":${JSON.stringify(sent)}}}`);
  });

  test('a body with line breaks in its whitespace reaches the child as one line holding the same message', async () => {
    const message = { jsonrpc: '2.0', id: 7, method: 'raw', params: { text: 'two\nlines' } };
    const response = await post(JSON.stringify(message, null, 2));
    const { result } = await response.json();
    expect(result.line).not.toMatch(/[\r\n]/);
    expect(JSON.parse(result.line)).toEqual(message);
  });

  test('a related message before the response makes the answer an SSE stream: the message, then the response', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'any', arguments: {} } }));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text())
      .split('\n\n')
      .filter((block) => block.includes('data: '))
      .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)));
    expect(events).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } },
      { jsonrpc: '2.0', id: 'c1', result: { content: [] } },
    ]);
  });

  test('a response that takes long: the SSE stream starts before it (the client sees its request accepted), and ends with it', async () => {
    const quick = await open(50);
    const post = quick.post;
    onTestFinished(() => quick.t.bridge.close());
    const held = await post(JSON.stringify({ jsonrpc: '2.0', id: 'h1', method: 'hold' }));
    // Headers came while the child still holds the answer: it only answers after "release".
    expect(held.status).toBe(200);
    expect(held.headers.get('content-type')).toBe('text/event-stream');
    const released = await post(JSON.stringify({ jsonrpc: '2.0', id: 'r2', method: 'release' }));
    expect(await released.json()).toEqual({ jsonrpc: '2.0', id: 'r2', result: {} });
    expect(await held.text()).toBe(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'h1', result: { released: true } })}\n\n`);
  });
});
