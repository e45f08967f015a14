/**
 * `McpHost` and the adapters against what a hostile or odd server, model or
 * name store sends (regressions of the review of issue 28): real servers
 * (official SDK) with images chat APIs refuse, or no tools at all; a raw one
 * (the SDK cannot serve it) with a tool named `__proto__`; a model's
 * `__proto__` argument; stored names a chat API would refuse; thousands of
 * tools whose names clean to the same text; an input handler removed after
 * servers joined.
 */
import { fromJsonSchema, type McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { McpClient } from '../src/index.js';
import { McpHost, type NameStore } from '../src/host/index.js';
import { assignNames } from '../src/host/names.js';
import { startPromptOnlyServer, startRawToolServer, startToolServer, type ToolServer } from './support/host-servers.js';

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const SVG = btoa('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
const empty = () => fromJsonSchema({ type: 'object', properties: {} } as never);

let alpha: ToolServer;
let beta: ToolServer;
let prompts: ToolServer;
let raw: ToolServer;
beforeAll(async () => {
  const hostile = (server: McpServer) => {
    server.registerTool('pictures', { description: 'Images of every kind', inputSchema: empty() }, async () => ({
      content: [
        { type: 'image', data: PIXEL, mimeType: 'image/png' },
        { type: 'image', data: SVG, mimeType: 'image/svg+xml' },
        { type: 'image', data: PIXEL, mimeType: 'image/bmp' },
      ],
    }));
  };
  // The official SDK cannot serve a tool named `__proto__` (its own discover fails): a raw server does.
  [alpha, beta, prompts, raw] = await Promise.all([startToolServer('alpha', hostile), startToolServer('beta'), startPromptOnlyServer(), startRawToolServer(['__proto__', 'constructor'])]);
});
afterAll(() => Promise.all([alpha.close(), beta.close(), prompts.close(), raw.close()]));

const quiet = { protocol: 'modern' as const, onWarning: () => {} };

describe('McpHost against odd servers and stores', () => {
  test('the function an input handler set on the host returns takes it off the servers added after it too', async () => {
    const host = new McpHost();
    host.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
    const off = host.setInputHandler('elicitation/create', { modes: ['form'], handle: async () => ({ action: 'decline' }) });
    host.add(new McpClient(beta.url, quiet), { key: 'beta' });
    await host.refresh();
    expect(host.servers.map((server) => server.client.capabilities.elicitation)).toEqual([{ form: {} }, { form: {} }]);
    off();
    expect(host.servers.map((server) => server.client.capabilities.elicitation)).toEqual([undefined, undefined]);
    // And a server added after the removal does not get it either.
    host.add(new McpClient(prompts.url, quiet), { key: 'prompts' });
    expect(host.servers[2]!.client.capabilities.elicitation).toBeUndefined();
  });

  test('stored names a chat API would refuse (spaces, over 64 characters, not strings) are not reused', async () => {
    const stored = { 'alpha\u0000echo': 'echo tool!', 'alpha\u0000lookup_alpha': 'x'.repeat(65), 'alpha\u0000pictures': 42, 'beta\u0000echo': 'echo' } as unknown as Record<string, string>;
    const store: NameStore = { load: () => stored, save: () => {} };
    const host = new McpHost({ names: store });
    host.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
    host.add(new McpClient(beta.url, quiet), { key: 'beta' });
    const tools = await host.refresh();
    for (const tool of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    // The valid stored name is kept: beta's echo is `echo`, so alpha's gets the prefix.
    expect(tools.filter((tool) => tool.tool.name === 'echo').map((tool) => `${tool.serverKey}=${tool.name}`)).toEqual(['alpha=alpha__echo', 'beta=echo']);
    expect(host.resolve('lookup_alpha')?.serverKey).toBe('alpha');
  });

  test('a server that declares no tools is a server with none, not a failed listing', async () => {
    const host = new McpHost();
    const errors: string[] = [];
    host.on('serverError', ({ key, error }) => errors.push(`${key}: ${error.message}`));
    host.add(new McpClient(prompts.url, quiet), { key: 'prompts' });
    host.add(new McpClient(beta.url, quiet), { key: 'beta' });
    const tools = await host.refresh();
    expect(errors).toEqual([]);
    expect(host.servers[0]!.error).toBeUndefined();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'lookup_beta']);
  });

  test('thousands of tools whose names clean to the same text get distinct valid names, each in a step', () => {
    // A hostile listing: 20,000 tools `t` + one character a chat API refuses, all `t_` once cleaned. Naming
    // them used to try every earlier number for each (quadratic: minutes, past this test's timeout).
    const entries = Array.from({ length: 20_000 }, (_, i) => ({ serverKey: 's', toolName: `t${String.fromCharCode(0x100 + i)}` }));
    const names = [...assignNames(entries, new Map()).values()];
    expect(new Set(names).size).toBe(entries.length);
    expect(names.slice(0, 3)).toEqual(['t_', 's__t_', 's__t__2']);
    expect(names.at(-1)).toBe('s__t__19999');
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});
