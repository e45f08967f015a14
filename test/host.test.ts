/**
 * `McpHost` against two real servers (official SDK) that both have a tool
 * named `echo`: one catalogue, distinct model names that stay the same across
 * a reconnect, a lost server and a reload, per-server enable/disable, one
 * `toolsChanged` event, calls routed to the right server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { McpClient, type FetchLike } from '../src/index.js';
import { McpHost, serverKeyFromUrl, type HostTool, type NameStore } from '../src/host/index.js';
import { assignNames, sanitizeName } from '../src/host/names.js';
import { fromJsonSchema } from '@modelcontextprotocol/server';
import { startToolServer, type ToolServer } from './support/host-servers.js';
import { startModernServer } from './support/servers.js';

let alpha: ToolServer;
let beta: ToolServer;
let gamma: ToolServer;
beforeAll(async () => {
  [alpha, beta, gamma] = await Promise.all([startToolServer('alpha'), startToolServer('beta'), startToolServer('gamma')]);
});
afterAll(() => Promise.all([alpha.close(), beta.close(), gamma.close()]));

const quiet = { protocol: 'modern' as const, onWarning: () => {} };
const names = (tools: readonly HostTool[]) => tools.map((tool) => `${tool.serverKey}:${tool.tool.name}=${tool.name}`);
const text = (result: any) => result.content.map((block: any) => block.text).join('');

/** A real network path that can be cut: while `down`, every request fails as a refused connection would. */
function cuttable(): { fetch: FetchLike; down: boolean } {
  const link: { fetch: FetchLike; down: boolean } = {
    down: false,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => (link.down ? Promise.reject(new TypeError('fetch failed: connection refused')) : fetch(input, init))) as FetchLike,
  };
  return link;
}

describe('McpHost: one catalogue across servers', () => {
  test('a tool both servers have gets its own name on the first and a server prefix on the second; calls reach the right server', async () => {
    const host = new McpHost();
    host.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
    host.add(new McpClient(beta.url, quiet), { key: 'beta' });
    const tools = await host.refresh();
    expect(names(tools)).toEqual(['alpha:echo=echo', 'alpha:lookup_alpha=lookup_alpha', 'beta:echo=beta__echo', 'beta:lookup_beta=lookup_beta']);
    expect(text(await host.callTool('echo', { text: 'hi' }))).toBe('alpha echo: hi');
    expect(text(await host.callTool('beta__echo', { text: 'hi' }))).toBe('beta echo: hi');
    expect(text(await host.callTool('lookup_beta', { id: 'b7' }))).toBe('beta record b7');
    await expect(host.callTool('alpha__echo', {})).rejects.toMatchObject({ code: 'invalid_arguments' });
  });

  test('a reconnect, and a server lost then back, rename nothing; one toolsChanged per change', async () => {
    const link = cuttable();
    const host = new McpHost();
    const first = new McpClient(alpha.url, { ...quiet, fetch: link.fetch });
    host.add(first, { key: 'alpha' });
    host.add(new McpClient(beta.url, quiet), { key: 'beta' });
    const before = names(await host.refresh());
    const events: string[][] = [];
    host.on('toolsChanged', ({ tools }) => events.push(tools.map((tool) => tool.name)));

    await first.reconnect();
    expect(names(await host.refresh({ fresh: true }))).toEqual(before);

    // alpha unreachable: its tools leave the catalogue, and beta's echo keeps its prefixed name
    // (without the reservation it would have become plain `echo`, and alpha's would be renamed on return).
    link.down = true;
    await first.reconnect().catch(() => undefined);
    const errors: string[] = [];
    host.on('serverError', ({ key }) => errors.push(key));
    expect(names(await host.refresh({ fresh: true }))).toEqual(['beta:echo=beta__echo', 'beta:lookup_beta=lookup_beta']);
    expect(errors).toEqual(['alpha']);
    expect(host.servers[0]!.error).toBeDefined();

    // A server added while alpha is away does not take the name alpha's echo had.
    host.add(new McpClient(gamma.url, quiet), { key: 'gamma' });
    expect(names(await host.refresh())).toEqual(['beta:echo=beta__echo', 'beta:lookup_beta=lookup_beta', 'gamma:echo=gamma__echo', 'gamma:lookup_gamma=lookup_gamma']);

    link.down = false;
    await first.reconnect();
    expect(names(await host.refresh({ fresh: true }))).toEqual([...before, 'gamma:echo=gamma__echo', 'gamma:lookup_gamma=lookup_gamma']);
    expect(text(await host.callTool('echo', { text: 'back' }))).toBe('alpha echo: back');
    // An unchanged listing fires nothing: the events are the loss and the return.
    expect(events.map((list) => list.join(','))).toEqual([
      'beta__echo,lookup_beta',
      'beta__echo,lookup_beta,gamma__echo,lookup_gamma',
      'echo,lookup_alpha,beta__echo,lookup_beta,gamma__echo,lookup_gamma',
    ]);
  });

  test('the first server added keeps the plain name even when a later one answers first', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // alpha's listing is held until beta's has arrived.
    const slow: FetchLike = async (input, init) => {
      if (String(init?.body).includes('"tools/list"')) await gate;
      return fetch(input, init);
    };
    const host = new McpHost();
    host.add(new McpClient(alpha.url, { ...quiet, fetch: slow }), { key: 'alpha' });
    const second = new McpClient(beta.url, quiet);
    host.add(second, { key: 'beta' });
    await second.listTools();
    expect(host.servers[1]!.tools.length).toBe(2);
    expect(host.tools).toEqual([]);
    open();
    expect(names(await host.refresh())).toEqual(['alpha:echo=echo', 'alpha:lookup_alpha=lookup_alpha', 'beta:echo=beta__echo', 'beta:lookup_beta=lookup_beta']);
  });

  test('a reload with a name store gives the same names, even with the servers added in the other order', async () => {
    const saved: { value?: Record<string, string> } = {};
    const store: NameStore = { load: () => saved.value, save: (value) => void (saved.value = structuredClone(value)) };
    const first = new McpHost({ names: store });
    first.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
    first.add(new McpClient(beta.url, quiet), { key: 'beta' });
    const before = names(await first.refresh());

    const reloaded = new McpHost({ names: store });
    reloaded.add(new McpClient(beta.url, quiet), { key: 'beta' });
    reloaded.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
    expect(names(await reloaded.refresh()).sort()).toEqual([...before].sort());

    // Without the store, the order decides: the first server keeps the plain name.
    const forgetful = new McpHost();
    forgetful.add(new McpClient(beta.url, quiet), { key: 'beta' });
    forgetful.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
    expect(names(await forgetful.refresh())).toContain('beta:echo=echo');
  });

  test('a server removed with keepNames and added again under its key gets its names back, even when another took the plain name meanwhile', async () => {
    const host = new McpHost();
    host.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
    host.add(new McpClient(beta.url, quiet), { key: 'beta' });
    const before = names(await host.refresh());
    host.remove('alpha', { keepNames: true });
    // gamma arrives while alpha is away: `echo` stays alpha's.
    host.add(new McpClient(gamma.url, quiet), { key: 'gamma' });
    expect(names(await host.refresh())).toEqual(['beta:echo=beta__echo', 'beta:lookup_beta=lookup_beta', 'gamma:echo=gamma__echo', 'gamma:lookup_gamma=lookup_gamma']);
    host.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
    expect(names(await host.refresh()).filter((entry) => entry.startsWith('alpha:'))).toEqual(before.filter((entry) => entry.startsWith('alpha:')));
    expect(text(await host.callTool('echo', { text: 'again' }))).toBe('alpha echo: again');

    // Without keepNames the names go: removed again, alpha's `echo` is free for the next server.
    host.remove('alpha');
    expect(names(await host.refresh())).toContain('beta:echo=beta__echo');
    host.remove('beta');
    host.add(new McpClient(beta.url, quiet), { key: 'beta' });
    expect(names(await host.refresh())).toContain('beta:echo=echo');
  });

  test('a disabled server leaves the catalogue and cannot be called; enabled again, its names are the same', async () => {
    const host = new McpHost();
    host.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
    host.add(new McpClient(beta.url, quiet), { key: 'beta' });
    const before = names(await host.refresh());
    const events: number[] = [];
    host.on('toolsChanged', ({ tools }) => events.push(tools.length));
    host.setEnabled('alpha', false);
    expect(names(host.tools)).toEqual(['beta:echo=beta__echo', 'beta:lookup_beta=lookup_beta']);
    const calls = alpha.calls.length;
    await expect(host.callTool('lookup_alpha', { id: 'a1' })).rejects.toMatchObject({ code: 'invalid_arguments' });
    expect(alpha.calls.length).toBe(calls);
    host.setEnabled('alpha', true);
    expect(names(host.tools)).toEqual(before);
    expect(events).toEqual([2, 4]);
  });

  test('an input handler set on the host answers for every server, present and added later', async () => {
    const modern = await startModernServer();
    try {
      const host = new McpHost();
      host.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
      const asked: string[] = [];
      host.setInputHandler('elicitation/create', { modes: ['form'], handle: async (_params, context) => (asked.push(context.url), { action: 'accept', content: { ok: true } }) });
      host.add(new McpClient(modern.url, quiet), { key: 'kit' });
      await host.refresh();
      expect(host.servers.map((server) => server.client.capabilities.elicitation)).toEqual([{ form: {} }, { form: {} }]);
      expect(host.resolve('confirm')?.serverKey).toBe('kit');
      expect(text(await host.callTool('confirm', { action: 'ship' }))).toBe('confirmed=true note=');
      expect(asked).toEqual([modern.url]);
    } finally {
      await modern.close();
    }
  });
});

test('tools a server made for its MCP App only (_meta.ui.visibility ["app"]) are not the model\'s: not in the catalogue, not callable by model name', async () => {
  const withAppTools = await startToolServer('delta', (server) => {
    const none = fromJsonSchema({ type: 'object', properties: {} } as never);
    // The official SDK passes _meta through as given.
    server.registerTool('poll_stats', { description: 'The app polls this', inputSchema: none, _meta: { ui: { visibility: ['app'] } } }, async () => ({ content: [{ type: 'text', text: 'stats' }] }));
    server.registerTool('show_stats', { description: 'Both see this', inputSchema: none, _meta: { ui: { resourceUri: 'ui://stats', visibility: ['model', 'app'] } } }, async () => ({ content: [{ type: 'text', text: 'shown' }] }));
  });
  try {
    const host = new McpHost();
    host.add(new McpClient(withAppTools.url, quiet), { key: 'delta' });
    const tools = await host.refresh();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'lookup_delta', 'show_stats']);
    expect(host.servers[0]!.tools.map((tool) => tool.name)).toContain('poll_stats');
    await expect(host.callTool('poll_stats', {})).rejects.toMatchObject({ code: 'invalid_arguments' });
  } finally {
    await withAppTools.close();
  }
});

test('two servers at one URL get keys kept apart by a separator (local<port>-2), never another port\'s key', () => {
  const host = new McpHost();
  const url = 'http://127.0.0.1:3001/mcp';
  expect([host.add(new McpClient(url, quiet)), host.add(new McpClient(url, quiet))]).toEqual(['local3001', 'local3001-2']);
  expect(host.add(new McpClient('http://127.0.0.1:30012/mcp', quiet))).toBe('local30012');
});

describe('model names', () => {
  test('characters chat APIs refuse become _, long names are cut with a hash that keeps them apart', () => {
    expect(sanitizeName('files/read.text')).toBe('files_read_text');
    const a = sanitizeName('x'.repeat(70) + 'a');
    const b = sanitizeName('x'.repeat(70) + 'b');
    expect(a).toMatch(/^[a-zA-Z0-9_-]{64}$/);
    expect(a).not.toBe(b);
  });

  test('two tools whose names clean to the same text, on one server, still get distinct names', () => {
    const table = new Map<string, string>();
    const out = assignNames([{ serverKey: 's', toolName: 'a.b' }, { serverKey: 's', toolName: 'a_b' }], table);
    expect([...out.values()]).toEqual(['a_b', 's__a_b']);
  });

  test('server keys from URLs: the distinctive host label, local<port> on loopback', () => {
    expect(serverKeyFromUrl('https://mcp.github.com/mcp')).toBe('github');
    expect(serverKeyFromUrl('https://www.example.co/x')).toBe('example');
    expect(serverKeyFromUrl('http://127.0.0.1:3001/mcp')).toBe('local3001');
    expect(serverKeyFromUrl('http://[::1]:8080/mcp')).toBe('local8080');
  });
});
