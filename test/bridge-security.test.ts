/**
 * The bridge's defences and its children's lifecycle:
 * - requests it must refuse before anything is spawned (token, Origin, Host,
 *   preflight), each with a control request that does spawn;
 * - children stopped on idle timeout and on shutdown, stdin backpressure, stdout
 *   that is not JSON;
 * - the command line: arguments passed verbatim, the printed URL, SIGTERM.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_ALLOWED_ORIGINS, parseBridgeArgs, startBridge, type StdioServerSpec } from '../bridge/index.js';
import { allowedHosts, OriginPolicy, tokenMatches } from '../bridge/guard.js';
import { McpClient, MemoryEraCache } from '../src/index.js';
import { alive, everything, initializeBody, postHeaders, raw, startTestBridge, waitFor, type TestBridge } from './support/bridge.js';

const PAGE = 'http://127.0.0.1:5173';

describe('requests the bridge refuses, with nothing spawned', () => {
  let t: TestBridge;
  let port: number;
  let path: string;
  beforeAll(async () => {
    t = await startTestBridge({ server: everything, allowedOrigins: [PAGE] });
    port = t.bridge.port;
    path = t.bridge.endpoints[0]!.path;
  });
  afterAll(() => t?.bridge.close());

  /** POSTs initialize (which would spawn a child) and checks the refusal and that nothing was spawned. */
  async function refused(headers: Record<string, string>, reason: string, requestPath = path) {
    const before = t.refusals().length;
    const response = await raw(port, 'POST', requestPath, headers, initializeBody());
    expect(response.status).toBe(403);
    expect(t.refusals().slice(before)).toEqual([expect.objectContaining({ reason, status: 403 })]);
    expect(t.spawned()).toBe(0);
    return response;
  }

  test('no token', async () => {
    const headers: Record<string, string> = postHeaders('');
    delete headers.Authorization;
    const response = await refused(headers, 'token');
    expect(JSON.parse(response.body).error.message).toContain('missing or wrong token');
  });

  test('a wrong token: in the header, in the URL, of another length, or sent as Basic', async () => {
    const token = t.bridge.token;
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    await refused(postHeaders(flipped), 'token');
    await refused(postHeaders(`${token}x`), 'token');
    await refused({ ...postHeaders(''), Authorization: `Basic ${Buffer.from(`user:${token}`).toString('base64')}` }, 'token');
    const headers: Record<string, string> = postHeaders('');
    delete headers.Authorization;
    await refused(headers, 'token', `${path}?token=${encodeURIComponent(flipped)}`);
    expect(tokenMatches(token.slice(0, 10), token)).toBe(false);
    expect(tokenMatches(token, token)).toBe(true);
  });

  test('a foreign Origin, even with the right token; no CORS headers on the refusal', async () => {
    const response = await refused(postHeaders(t.bridge.token, { Origin: 'https://attacker.example' }), 'origin');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    // A sandboxed frame or a file: page sends "null".
    const opaque = await refused(postHeaders(t.bridge.token, { Origin: 'null' }), 'origin');
    // The hint and the CLI agree: no "--allow-origin null" (the CLI refuses it), but what to do instead.
    expect(opaque.body).not.toMatch(/--allow-origin null/);
    expect(JSON.parse(opaque.body).error.message).toMatch(/opaque origin \("null": file: pages, sandboxed frames\) cannot be allowed, .*; serve the page over http\(s\) from an allowed origin/);
    expect(t.logs.at(-1)).not.toMatch(/--allow-origin null/);
    expect(() => parseBridgeArgs(['--allow-origin', 'null', '--', 'x'])).toThrow(/--allow-origin null: pages with an opaque origin/);
    // Same host, other port: another origin.
    await refused(postHeaders(t.bridge.token, { Origin: 'http://127.0.0.1:5174' }), 'origin');
  });

  test('a foreign Host (DNS rebinding: the attacker\'s name resolving to 127.0.0.1)', async () => {
    await refused(postHeaders(t.bridge.token, { Host: `rebind.attacker.example:${port}` }), 'host');
    await refused(postHeaders(t.bridge.token, { Host: `rebind.attacker.example:${port}`, Origin: PAGE }), 'host');
    await refused(postHeaders(t.bridge.token, { Host: `127.0.0.1:${port + 1}` }), 'host');
  });

  test('a preflight from a foreign origin gets no CORS answer; one from the page gets exactly its origin and every MCP header', async () => {
    const preflight = (origin: string) =>
      raw(port, 'OPTIONS', path, { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, mcp-session-id, mcp-param-region' });
    const foreign = await preflight('https://attacker.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.headers['access-control-allow-headers']).toBeUndefined();
    expect(t.refusals().at(-1)).toMatchObject({ reason: 'origin', method: 'OPTIONS' });

    const allowed = await preflight(PAGE);
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(PAGE);
    expect(allowed.headers['access-control-allow-methods']).toBe('GET, POST, DELETE, OPTIONS');
    const names = String(allowed.headers['access-control-allow-headers']).split(', ').map((n) => n.toLowerCase());
    expect(names).toEqual(expect.arrayContaining(['authorization', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'mcp-method', 'mcp-name', 'mcp-param-region']));
    expect(t.spawned()).toBe(0);
  });

  test('control: the same initialize with the token, from the page, on this Host, spawns one child and exposes its session id', async () => {
    const response = await raw(port, 'POST', path, postHeaders(t.bridge.token, { Origin: PAGE }), initializeBody());
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(PAGE);
    expect(String(response.headers['access-control-expose-headers'])).toContain('Mcp-Session-Id');
    expect(response.body).toContain('"serverInfo"');
    expect(t.spawned()).toBe(1);
    const session = String(response.headers['mcp-session-id']);
    const closed = await raw(port, 'DELETE', path, { Authorization: `Bearer ${t.bridge.token}`, 'Mcp-Session-Id': session });
    expect(closed.status).toBe(200);
    expect(t.ends()).toEqual([expect.objectContaining({ session, reason: 'delete' })]);
    // The ended session is gone for good.
    const after = await raw(port, 'POST', path, postHeaders(t.bridge.token, { 'Mcp-Session-Id': session }), JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(after.status).toBe(404);
  });

  test('origins: exact by default (the demo), any port only when asked', () => {
    const defaults = new OriginPolicy(DEFAULT_ALLOWED_ORIGINS);
    expect(defaults.allows('http://127.0.0.1:5173')).toBe(true);
    expect(defaults.allows('http://localhost:3000')).toBe(false);
    const anyPort = new OriginPolicy(['http://localhost:*']);
    expect(anyPort.allows('http://localhost:3000')).toBe(true);
    expect(anyPort.allows('https://localhost:3000')).toBe(false);
    expect(anyPort.allows('http://localhost.attacker.example:3000')).toBe(false);
    expect(() => new OriginPolicy(['*'])).toThrow(/not an origin/);
    expect(() => new OriginPolicy(['http://example.test/path'])).toThrow(/not an origin/);
  });

  test('Host: the bridge\'s own names with its port; on port 80 also without it, as browsers send it there', () => {
    const hosts = allowedHosts('127.0.0.1', 80);
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '127.0.0.1:80', 'localhost:80']) expect(hosts.has(host), host).toBe(true);
    expect(hosts.has('attacker.example')).toBe(false);
    const other = allowedHosts('127.0.0.1', 8080);
    expect(other.has('127.0.0.1:8080')).toBe(true);
    expect(other.has('127.0.0.1')).toBe(false);
  });

  test('a server named "." or ".." (whose path a URL drops) is refused at start', async () => {
    for (const name of ['.', '..']) {
      await expect(startBridge({ servers: { [name]: everything } })).rejects.toThrow(/cannot be named/);
    }
  });
});

describe('children\'s lifecycle', () => {
  const open = async (t: TestBridge) => {
    const response = await raw(t.bridge.port, 'POST', '/mcp', postHeaders(t.bridge.token), initializeBody());
    expect(response.status).toBe(200);
    return String(response.headers['mcp-session-id']);
  };

  test('an idle session\'s child is stopped', async () => {
    const t = await startTestBridge({ server: everything, idleTimeoutMs: 300 });
    try {
      const idle = await open(t);
      await waitFor(() => t.ends().some((e) => e.session === idle));
      expect(t.ends()[0]).toMatchObject({ reason: 'idle', exit: { requested: true } });
      expect(alive(t.ends()[0]!.pid)).toBe(false);
    } finally {
      await t.bridge.close();
    }
  });

  test('what counts as idle: an open GET stream keeps a session, a call its client walked away from does not; closing the bridge stops every child', async () => {
    const t = await startTestBridge({ server: everything });
    const info = (id: string) => t.bridge.sessions().find((s) => s.id === id)!;
    try {
      const abandoned = await open(t);
      const headers = postHeaders(t.bridge.token, { 'Mcp-Session-Id': abandoned });
      expect((await raw(t.bridge.port, 'POST', '/mcp', headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
      const controller = new AbortController();
      const call = await fetch(t.bridge.endpoints[0]!.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'trigger-long-running-operation', arguments: { duration: 60, steps: 2 } } }),
        signal: controller.signal,
      });
      expect(call.status).toBe(200);
      expect(info(abandoned)).toMatchObject({ requestsInFlight: 1, idle: false });
      controller.abort();
      // The child is still working on the call, but nobody waits for its answer.
      await waitFor(() => info(abandoned).idle);
      expect(info(abandoned).requestsInFlight).toBe(1);

      const kept = await open(t);
      const stream = await fetch(t.bridge.endpoints[0]!.url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': kept } });
      expect(stream.status).toBe(200);
      expect(info(kept).idle).toBe(false);
      const pids = t.bridge.sessions().map((s) => s.pid);
      expect(pids).toHaveLength(2);
      await t.bridge.close();
      expect(t.ends().map((e) => e.reason)).toEqual(['shutdown', 'shutdown']);
      expect(pids.filter(alive)).toEqual([]);
      await stream.body?.cancel().catch(() => {});
    } finally {
      await t.bridge.close();
    }
  });

  test('at --max-sessions, a new session takes the place of the one whose client left longest ago (a reloaded page never sends DELETE); connected ones are never taken', async () => {
    const t = await startTestBridge({ server: everything, maxSessions: 2 });
    const streams: Response[] = [];
    const listen = async (session: string) => {
      const stream = await fetch(t.bridge.endpoints[0]!.url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': session } });
      expect(stream.status).toBe(200);
      streams.push(stream);
    };
    const info = (id: string) => t.bridge.sessions().find((s) => s.id === id);
    try {
      // The first page initialized and went away (its answer was read, nothing stays open).
      const left = await open(t);
      await waitFor(() => info(left)?.idle === true);
      const connected = await open(t);
      await listen(connected);
      // The page comes back: a third session, at the limit of two.
      const back = await open(t);
      expect(t.ends()).toEqual([expect.objectContaining({ session: left, reason: 'capacity', exit: expect.objectContaining({ requested: true }) })]);
      expect(alive(t.ends()[0]!.pid)).toBe(false);
      expect(t.bridge.sessions().map((s) => s.id).sort()).toEqual([connected, back].sort());
      // The old session's client is told what happened to it.
      const gone = await raw(t.bridge.port, 'POST', '/mcp', postHeaders(t.bridge.token, { 'Mcp-Session-Id': left }), JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }));
      expect(gone.status).toBe(404);
      expect(JSON.parse(gone.body).error.message).toContain('session ended: capacity');
      // Both clients connected: nothing to take, the new one is refused and nothing is spawned.
      await listen(back);
      const spawned = t.spawned();
      const refused = await raw(t.bridge.port, 'POST', '/mcp', postHeaders(t.bridge.token), initializeBody());
      expect(refused.status).toBe(503);
      expect(t.spawned()).toBe(spawned);
      expect(t.bridge.sessions()).toHaveLength(2);
    } finally {
      for (const stream of streams) await stream.body?.cancel().catch(() => {});
      await t.bridge.close();
    }
  });

  /**
   * A stdio program that answers initialize, prints a line that is not JSON,
   * then never reads its stdin again: a fault no real server produces on demand.
   */
  const stalled: StdioServerSpec = {
    command: process.execPath,
    args: [
      '-e',
      `process.stdin.once('data', (d) => {
        const request = JSON.parse(String(d).split('\\n')[0]);
        process.stdout.write('this is not JSON-RPC\\n');
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'stalled', version: '0' } } }) + '\\n');
        process.stdin.pause();
      });
      setInterval(() => {}, 1000);`,
    ],
  };

  test('stdin backpressure: writes wait for the child, and past the cap they are refused (503) instead of buffered', async () => {
    const t = await startTestBridge({ server: stalled, maxPendingBytes: 1024 * 1024 });
    try {
      const init = await raw(t.bridge.port, 'POST', '/mcp', postHeaders(t.bridge.token), initializeBody());
      expect(init.body).toContain('"stalled"');
      expect(t.logs.some((line) => line.includes('ignored a stdout line that is not JSON') && line.includes('this is not JSON-RPC'))).toBe(true);
      const session = String(init.headers['mcp-session-id']);
      const headers = postHeaders(t.bridge.token, { 'Mcp-Session-Id': session });
      const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(700 * 1024) } });
      const settled: number[] = [];
      const first = raw(t.bridge.port, 'POST', '/mcp', headers, notification).then((r) => (settled.push(r.status), r));
      // The first one fills the pipe, and its answer waits for the child to read.
      await waitFor(() => t.logs.some((line) => line.includes('is not reading its input')));
      // The second would go past the cap.
      const second = await raw(t.bridge.port, 'POST', '/mcp', headers, notification);
      expect(second.status).toBe(503);
      expect(JSON.parse(second.body).error.message).toContain('is not reading its input');
      expect(settled).toEqual([]);
      // When the child goes, the waiting write is answered too.
      process.kill(t.bridge.sessions()[0]!.pid!, 'SIGKILL');
      expect((await first).status).toBe(503);
    } finally {
      await t.bridge.close();
    }
  });
});

describe('the command line', () => {
  test('arguments after -- reach the child verbatim; options are checked', () => {
    const args = ['--', 'my-server', '--port', '1', '$(rm -rf ~)', "it's", '; echo hi', '|', '>out'];
    const parsed = parseBridgeArgs(['--env', 'TOKEN=a=b c', '--allow-origin', 'http://localhost:*', ...args]);
    expect(parsed.servers.server).toEqual({ command: 'my-server', args: ['--port', '1', '$(rm -rf ~)', "it's", '; echo hi', '|', '>out'], env: { TOKEN: 'a=b c' } });
    expect(parsed.allowedOrigins).toEqual(['http://localhost:*']);
    expect(parsed.host).toBe('127.0.0.1');
    expect(parseBridgeArgs(['npx', '-y', 'pkg']).servers.server).toEqual({ command: 'npx', args: ['-y', 'pkg'] });
    // --env KEY hands on one variable of the bridge's own environment.
    expect(parseBridgeArgs(['--env', 'API_KEY', 'srv'], undefined, { API_KEY: 'k1', OTHER: 'o' }).servers.server).toEqual({ command: 'srv', args: [], env: { API_KEY: 'k1' } });
    expect(() => parseBridgeArgs(['--env', 'MISSING', 'srv'], undefined, {})).toThrow(/not set/);
    expect(parseBridgeArgs(['npx']).allowedOrigins).toEqual([...DEFAULT_ALLOWED_ORIGINS]);
    expect(() => parseBridgeArgs(['--allow-origin', '*', '--', 'x'])).toThrow(/not an origin/);
    // Patterns the URL parser takes but no page's origin can have: an error, not an entry that matches nothing.
    for (const pattern of ['http://*', 'http://*:*', 'https://*.example', 'http://*:5173', 'http://a*b:*']) {
      expect(() => parseBridgeArgs(['--allow-origin', pattern, '--', 'x'])).toThrow(/can match no origin/);
    }
    expect(parseBridgeArgs(['--allow-origin', 'http://my_host.local:*', '--allow-origin', 'http://[::1]:5173', '--', 'x']).allowedOrigins).toEqual(['http://my_host.local:*', 'http://[::1]:5173']);
    expect(() => parseBridgeArgs(['--port'])).toThrow(/needs a value/);
    expect(() => parseBridgeArgs([])).toThrow(/no command/);
    const config = JSON.stringify({ mcpServers: { a: { command: 'a-server', args: ['x'] }, off: { command: 'b', disabled: true } } });
    const fromFile = parseBridgeArgs(['--config', '/etc/servers.json', '--cwd', '/srv'], () => config);
    expect(fromFile.servers.servers).toEqual({ a: { command: 'a-server', args: ['x'], cwd: '/srv' } });
    expect(fromFile.skipped).toEqual([{ name: 'off', reason: 'disabled' }]);
    expect(() => parseBridgeArgs(['--config', 'c.json', '--', 'x'], () => config)).toThrow(/not both/);
  });

  test('prints the URL with its token once, serves it, and stops its children on SIGTERM', async () => {
    const cli = spawn(process.execPath, ['--import', 'tsx', 'bridge/main.ts', 'bridge', '--', everything.command, ...everything.args!], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    cli.stdout.on('data', (chunk) => (out += chunk));
    cli.stderr.on('data', (chunk) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => /Ctrl\+C/.test(out), 40_000);
      const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp\?token=[\w-]+)/.exec(out)![1]!;
      const token = new URL(url).searchParams.get('token')!;
      expect(out.split(token).length - 1).toBe(2); // in the URL and on the token line, nowhere else
      const client = new McpClient(url, { eraCache: new MemoryEraCache(), onWarning: () => {} });
      expect((await client.listTools()).map((tool) => tool.name)).toContain('echo');
      const pid = Number(/\(pid (\d+)\)/.exec(err)![1]);
      expect(alive(pid)).toBe(true);
      expect(err).toContain('Starting default (STDIO) server...');
      cli.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(alive(pid)).toBe(false);
    } finally {
      cli.kill('SIGKILL');
    }
    // tsx compiles the sources first: slow on a busy machine.
  }, 60_000);

  test('a second signal while the servers stop (Ctrl+C, then npm start\'s SIGTERM) still takes a child that has not exited along', async () => {
    // A stdio server that answers the handshake but neither exits when its stdin closes nor on SIGTERM, as
    // server-everything did while it waited on a roots request: only the bridge's SIGKILL of its group ends it.
    const stubborn = [
      "process.on('SIGTERM', () => {}); process.stdin.on('end', () => {}); setInterval(() => {}, 1 << 30);",
      "require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {",
      '  const m = JSON.parse(line);',
      "  if (m.id === undefined || !m.method) return;",
      "  const result = m.method === 'initialize' ? { protocolVersion: m.params.protocolVersion, capabilities: {}, serverInfo: { name: 'stubborn', version: '1' } } : {};",
      "  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');",
      '});',
    ].join('\n');
    const cli = spawn(process.execPath, ['--import', 'tsx', 'bridge/main.ts', 'bridge', '--', process.execPath, '-e', stubborn], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    cli.stdout.on('data', (chunk) => (out += chunk));
    cli.stderr.on('data', (chunk) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
    let pid = 0;
    try {
      await waitFor(() => /Ctrl\+C/.test(out), 40_000);
      const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp\?token=[\w-]+)/.exec(out)![1]!;
      const client = new McpClient(url, { eraCache: new MemoryEraCache(), onWarning: () => {} });
      expect((await client.connect()).serverInfo?.name).toBe('stubborn');
      pid = Number(/\(pid (\d+)\)/.exec(err)![1]);
      expect(alive(pid)).toBe(true);
      cli.kill('SIGINT');
      await waitFor(() => /SIGINT: stopping the servers/.test(err), 20_000);
      cli.kill('SIGTERM');
      expect(await exited).toBe(128 + 15);
      await waitFor(() => !alive(pid), 10_000);
    } finally {
      cli.kill('SIGKILL');
      if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 60_000);
});
