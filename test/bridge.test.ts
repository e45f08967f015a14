/**
 * `mcp-web-elements bridge` in front of real stdio servers from npm, driven by the
 * kit's McpClient in `auto` mode (and once by the official SDK client):
 * - `@modelcontextprotocol/server-everything stdio`: era detection, tools,
 *   elicitation and sampling through the kit's handlers, progress,
 *   cancellation, a crashed child;
 * - `@modelcontextprotocol/server-filesystem` on a temporary folder whose name is
 *   full of shell metacharacters, served from a `mcpServers` config file next
 *   to a second entry that cannot start.
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseConfig } from '../bridge/index.js';
import { McpClient, McpRpcError, MemoryEraCache, type McpClientOptions } from '../src/index.js';
import { alive, everything, filesystem, startTestBridge, waitFor, type TestBridge } from './support/bridge.js';
import { recordingFetch } from './support/legacy-servers.js';

const texts = (result: any): string => (result.content ?? []).map((c: any) => c.text ?? '').join('\n');

function newClient(url: string, options: McpClientOptions = {}): McpClient {
  return new McpClient(url, { eraCache: new MemoryEraCache(), onWarning: () => {}, ...options });
}

describe('server-everything over stdio, through the bridge', () => {
  let t: TestBridge;
  let url: string;
  beforeAll(async () => {
    process.env.BRIDGE_TEST_SECRET = 'not for children';
    t = await startTestBridge({ server: { ...everything, env: { BRIDGE_GIVEN: 'a value; $(with) "quotes"' } } });
    url = t.bridge.endpoints[0]!.url;
  });
  afterAll(() => {
    delete process.env.BRIDGE_TEST_SECRET;
    return t?.bridge.close();
  });

  test('auto mode: the modern probe is refused with a plain 400 before anything is spawned; initialize starts one child; DELETE stops it', async () => {
    const wire = recordingFetch();
    const spawnedBefore = t.spawned();
    const client = newClient(url, { fetch: wire.fetch });
    const description = await client.connect();
    expect(description).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'mcp-servers/everything' } });
    // The probe: server/discover without a session gets 400 (a legacy signal for the kit), and spawns nothing.
    expect(wire.records[0]).toMatchObject({ method: 'POST', body: { method: 'server/discover' }, status: 400 });
    expect(t.refusals().find((r) => r.reason === 'no-session')).toBeTruthy();
    expect(wire.records[1]).toMatchObject({ body: { method: 'initialize' }, status: 200 });
    expect(t.spawned()).toBe(spawnedBefore + 1);
    const session = wire.records[2]!.headers['mcp-session-id']!;
    const pid = t.bridge.sessions().find((s) => s.id === session)!.pid;
    expect(alive(pid)).toBe(true);

    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation']));
    expect(texts(await client.callTool('echo', { message: 'through stdio' }))).toBe('Echo: through stdio');
    expect(texts(await client.callTool('get-sum', { a: 2, b: 40 }))).toContain('42');

    await client.close();
    expect(wire.records.at(-1)).toMatchObject({ method: 'DELETE', status: 200 });
    expect(t.ends().find((e) => e.session === session)).toMatchObject({ reason: 'delete', exit: { requested: true } });
    expect(alive(pid)).toBe(false);
  });

  test('the child gets a minimal environment and the variables it was given, not the rest of the bridge\'s', async () => {
    const client = newClient(url);
    const env = JSON.parse(texts(await client.callTool('get-env', {})));
    expect(env.BRIDGE_GIVEN).toBe('a value; $(with) "quotes"');
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.BRIDGE_TEST_SECRET).toBeUndefined();
    expect(process.env.BRIDGE_TEST_SECRET).toBe('not for children');
    await client.close();
  });

  test('elicitation and sampling requests from the child reach the kit\'s handlers, tied to the call that caused them', async () => {
    const seen: { method?: string; target?: string }[] = [];
    const client = newClient(url);
    client.setInputHandler('elicitation/create', {
      modes: ['form'],
      handle: async (params, context) => {
        seen.push({ method: context.method, target: context.target });
        expect(Object.keys((params as any).requestedSchema.properties)).toEqual(expect.arrayContaining(['name', 'email']));
        return { action: 'accept', content: { name: 'Grace Hopper', email: 'grace@example.test' } };
      },
    });
    client.setInputHandler('sampling/createMessage', {
      handle: async (params, context) => {
        seen.push({ method: context.method, target: context.target });
        return { role: 'assistant', content: { type: 'text', text: `drafted for: ${(params.messages[0]!.content as any).text}` }, model: 'bridge-model', stopReason: 'endTurn' };
      },
    });
    const elicited = texts(await client.callTool('trigger-elicitation-request', {}));
    expect(elicited).toContain('Grace Hopper');
    expect(elicited).toContain('grace@example.test');
    const sampled = texts(await client.callTool('trigger-sampling-request', { prompt: 'a haiku about pipes' }));
    expect(sampled).toContain('bridge-model');
    expect(sampled).toMatch(/drafted for: .*a haiku about pipes/);
    expect(seen).toEqual([
      { method: 'tools/call', target: 'trigger-elicitation-request' },
      { method: 'tools/call', target: 'trigger-sampling-request' },
    ]);
    await client.close();
  });

  test('progress notifications reach onProgress', async () => {
    const client = newClient(url);
    const progress: number[] = [];
    const result = await client.callTool('trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
    expect(texts(result)).toContain('Steps: 3');
    expect(progress).toEqual([1, 2, 3]);
    await client.close();
  });

  test('cancellation: notifications/cancelled reaches the child, the call\'s stream ends, the session goes on', async () => {
    const wire = recordingFetch();
    const client = newClient(url, { fetch: wire.fetch });
    await client.connect();
    const session = () => t.bridge.sessions().find((s) => s.id === wire.records[2]!.headers['mcp-session-id'])!;
    const controller = new AbortController();
    const call = client.callTool('trigger-long-running-operation', { duration: 10, steps: 10 }, { signal: controller.signal });
    await waitFor(() => wire.records.some((r) => r.body?.method === 'tools/call' && r.status === 200));
    expect(session().requestsInFlight).toBe(1);
    controller.abort();
    expect((await call.catch((e) => e)).code).toBe('aborted');
    await waitFor(() => wire.records.some((r) => r.body?.method === 'notifications/cancelled' && r.status !== undefined));
    const cancelled = wire.records.find((r) => r.body?.method === 'notifications/cancelled')!;
    expect(cancelled.status).toBe(202);
    expect(cancelled.body.params.requestId).toBe(wire.records.find((r) => r.body?.method === 'tools/call')!.body.id);
    // The bridge no longer waits for that response; the same child serves the next call.
    expect(session().requestsInFlight).toBe(0);
    const pid = session().pid;
    expect(texts(await client.callTool('echo', { message: 'still here' }))).toBe('Echo: still here');
    expect(session().pid).toBe(pid);
    await client.close();
  });

  test('a child that dies mid-call: the call fails with how it ended and its last stderr lines; the next call gets a new child', async () => {
    const wire = recordingFetch();
    const client = newClient(url, { fetch: wire.fetch });
    await client.connect();
    const first = t.bridge.sessions().find((s) => s.id === wire.records[2]!.headers['mcp-session-id'])!;
    const call = client.callTool('trigger-long-running-operation', { duration: 10, steps: 10 });
    // Its stream is open (the kit lists the tools first, to check the arguments).
    await waitFor(() => wire.records.some((r) => r.body?.method === 'tools/call' && r.status === 200));
    process.kill(first.pid!, 'SIGKILL');
    const error = await call.catch((e) => e);
    expect(McpRpcError.isInstance(error)).toBe(true);
    expect(error.message).toContain('was ended by SIGKILL while tools/call was in flight');
    // server-everything announces itself on stderr when it starts.
    expect(error.message).toContain('Starting default (STDIO) server...');
    expect(error.data).toMatchObject({ bridge: 'child-exited', exitCode: null, signal: 'SIGKILL', stderr: ['Starting default (STDIO) server...'] });
    expect(t.ends().find((e) => e.session === first.id)).toMatchObject({ reason: 'exit', exit: { requested: false } });

    // The old session is gone (404), the kit starts a new one by itself.
    expect(texts(await client.callTool('echo', { message: 'after the crash' }))).toBe('Echo: after the crash');
    const initializes = wire.records.filter((r) => r.body?.method === 'initialize');
    expect(initializes).toHaveLength(2);
    const second = t.bridge.sessions().find((s) => s.id === wire.records.filter((r) => r.body?.method === 'notifications/initialized').at(-1)!.headers['mcp-session-id']);
    expect(second?.pid).not.toBe(first.pid);
    expect(alive(second?.pid)).toBe(true);
    await client.close();
  });

  test('the official SDK client works through the bridge too (Authorization: Bearer)', async () => {
    const client = new Client({ name: 'sdk-through-bridge', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${t.bridge.origin}${t.bridge.endpoints[0]!.path}`), {
      requestInit: { headers: { Authorization: `Bearer ${t.bridge.token}` } },
    });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('get-sum');
    expect(texts(await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } }))).toContain('3');
    await transport.terminateSession();
    await client.close();
  });
});

describe('server-filesystem over stdio, from a config file', () => {
  let t: TestBridge;
  let folder: string;
  let parent: string;
  // Every character a shell would act on; the server must see the folder name verbatim.
  const hostile = `it's $(touch PWNED) \`touch PWNED\`; rm -rf nothing && echo "hi" | cat > out * ~ ?[a] {b,c} #x !y`;
  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), 'mcp-bridge-'));
    folder = join(parent, hostile);
    mkdirSync(folder);
    const configFile = join(parent, 'servers.json');
    const files = filesystem(folder);
    const missing = filesystem(join(parent, 'does-not-exist'));
    writeFileSync(
      configFile,
      JSON.stringify({
        mcpServers: {
          files: { command: files.command, args: files.args },
          broken: { command: missing.command, args: missing.args },
          absent: { command: 'mcp-web-elements-test-no-such-command', args: ['x'] },
          remote: { url: 'https://example.test/mcp' },
        },
      }),
    );
    const config = parseConfig(readFileSync(configFile, 'utf8'), configFile);
    expect(config.skipped).toEqual([{ name: 'remote', reason: expect.stringContaining('not a stdio server') }]);
    // A small message cap, so that one file read can go over it.
    t = await startTestBridge({ servers: config.servers, maxMessageBytes: 64 * 1024 });
  });
  afterAll(async () => {
    await t?.bridge.close();
    rmSync(parent, { recursive: true, force: true });
  });

  const endpoint = (name: string) => t.bridge.endpoints.find((e) => e.name === name)!;

  test('each server has its own path; arguments with shell metacharacters reach the child verbatim', async () => {
    expect(t.bridge.endpoints.map((e) => e.path)).toEqual(['/mcp/files', '/mcp/broken', '/mcp/absent']);
    const client = newClient(endpoint('files').url);
    const result = await client.callTool('list_allowed_directories', {});
    expect(texts(result)).toBe(`Allowed directories:\n${folder}`);
    // Nothing ran the command substitutions.
    expect(readdirSync(parent).sort()).toEqual([hostile, 'servers.json'].sort());
    expect(readdirSync(folder)).toEqual([]);
    await client.close();
  });

  test('tools write and read files in the folder', async () => {
    const client = newClient(endpoint('files').url);
    const path = join(folder, 'note.txt');
    expect(texts(await client.callTool('write_file', { path, content: 'written through the bridge\n' }))).toContain('Successfully wrote');
    expect(texts(await client.callTool('read_text_file', { path }))).toBe('written through the bridge\n');
    await client.close();
  });

  test('a response over the message cap is refused with a clear error, and the same child goes on', async () => {
    const client = newClient(endpoint('files').url);
    const big = join(folder, 'big.txt');
    writeFileSync(big, 'x'.repeat(100 * 1024));
    await client.connect();
    const pid = t.bridge.sessions().find((s) => s.server === 'files')!.pid;
    const error = await client.callTool('read_text_file', { path: big }).catch((e) => e);
    expect(McpRpcError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/response to tools\/call was \d+ bytes, over the bridge's limit of 65536 bytes/);
    expect(error.data).toMatchObject({ bridge: 'line-too-long', limit: 65536 });
    expect(error.data.bytes).toBeGreaterThan(100 * 1024);
    expect(t.logs.some((line) => line.includes('refused a stdout line of'))).toBe(true);
    expect(texts(await client.callTool('list_allowed_directories', {}))).toContain(folder);
    expect(t.bridge.sessions().find((s) => s.server === 'files')!.pid).toBe(pid);
    await client.close();
  });

  test('a server that exits at start, or cannot start: initialize fails with its exit code and last stderr lines, or the spawn error', async () => {
    const client = newClient(endpoint('broken').url);
    const error = await client.connect().catch((e) => e);
    expect(McpRpcError.isInstance(error)).toBe(true);
    expect(error.message).toContain('the stdio server "broken" exited with code 1 while initialize was in flight');
    expect(error.message).toContain('None of the specified directories are accessible');
    expect(error.data).toMatchObject({ bridge: 'child-exited', exitCode: 1, signal: null });
    expect(error.data.stderr.at(-1)).toContain('None of the specified directories are accessible');
    await client.close();

    const absent = newClient(endpoint('absent').url);
    const notFound = await absent.connect().catch((e) => e);
    expect(notFound.message).toContain('the stdio server "absent" could not be started (spawn mcp-web-elements-test-no-such-command ENOENT)');
    await absent.close();
  });
});

