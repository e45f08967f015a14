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
import { aiSdkModelOutput, aiSdkTools } from '../src/adapters/ai-sdk.js';
import { runAnthropicToolUses } from '../src/adapters/anthropic.js';
import { chatCompletionsTools, restoreArguments, runToolCall, runToolCalls } from '../src/adapters/openai.js';
import { resultParts } from '../src/adapters/run.js';
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

  test('a name store whose save throws (storage full) costs the reload, not the catalogue or remove', async () => {
    const store: NameStore = {
      load: () => undefined,
      save: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
    };
    const host = new McpHost({ names: store });
    host.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
    host.add(new McpClient(beta.url, quiet), { key: 'beta' });
    const tools = await host.refresh();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'lookup_alpha', 'pictures', 'beta__echo', 'lookup_beta']);
    host.remove('alpha');
    expect(host.tools.map((tool) => tool.name)).toEqual(['beta__echo', 'lookup_beta']);
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

describe('adapters against odd tools, results and arguments', () => {
  test('a tool named __proto__ is a tool of the AI SDK set (and the set keeps its prototype)', async () => {
    const host = new McpHost();
    host.add(new McpClient(raw.url, quiet), { key: 'raw' });
    await host.refresh();
    const set = aiSdkTools(host);
    expect(Object.getPrototypeOf(set)).toBe(Object.prototype);
    expect(Object.keys(set)).toEqual(['__proto__', 'constructor']);
    const output = await Object.getOwnPropertyDescriptor(set, '__proto__')!.value.execute({}, { toolCallId: 'c1' });
    expect(output).toMatchObject({ isError: false, content: [{ type: 'text', text: '__proto__ ran' }] });
    expect(raw.calls).toEqual(['__proto__']);
  });

  test('only images chat APIs take go to the model as images (PNG); SVG, BMP and data that is not base64 become notes', async () => {
    const host = new McpHost();
    host.add(new McpClient(alpha.url, quiet), { key: 'alpha' });
    await host.refresh();
    const message = await runAnthropicToolUses(host, [{ type: 'tool_use', id: 'u1', name: 'pictures', input: {} }]);
    expect(message.content[0]!.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } },
      { type: 'text', text: '[image: image/svg+xml, shown to the user]' },
      { type: 'text', text: '[image: image/bmp, shown to the user]' },
    ]);
    const outcome = await runToolCall(host, { id: 'c', name: 'pictures', arguments: {} });
    if (outcome.kind !== 'result') throw new Error(`the call failed: ${outcome.message}`);
    expect(aiSdkModelOutput({ kind: 'mcp-tool-output', isError: false, content: outcome.result.content ?? [] })).toEqual({
      type: 'content',
      value: [
        { type: 'media', data: PIXEL, mediaType: 'image/png' },
        { type: 'text', text: '[image: image/svg+xml, shown to the user]' },
        { type: 'text', text: '[image: image/bmp, shown to the user]' },
      ],
    });
    // Data that is not base64 (a data: URL; the SDK's server refuses to send it, a raw one need not).
    expect(resultParts({ content: [{ type: 'image', data: `data:image/png;base64,${PIXEL}`, mimeType: 'image/png' }] }, true)).toEqual([{ type: 'text', text: '[image: image/png, shown to the user]' }]);
  });

  test("a model's __proto__ argument stays an argument through strict mode's restore, and sets no prototype", () => {
    const args = JSON.parse('{"text":"a","note":null,"__proto__":{"text":"hidden"}}');
    const restored = restoreArguments(args, { type: 'object', properties: { text: { type: 'string' }, note: { type: 'string' } }, required: ['text'] }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(restored)).toBe(Object.prototype);
    expect(JSON.stringify(restored)).toBe('{"text":"a","__proto__":{"text":"hidden"}}');
  });
});

describe('a tool nested too deep to send to a model', () => {
  test('is left out of the catalogue with a too_large serverError, so the other tools still reach the model and calls run', async () => {
    // 3,000 levels of anyOf: the client's listing takes it, but JSON.stringify (the page's request to its
    // provider, the host's own comparison) and the strict-mode restore overflow the stack on it.
    const n = 3000;
    const deep = await startRawToolServer(['deep'], `{"type":"object","properties":{"x":${'{"anyOf":['.repeat(n)}{"type":"string"}${']}'.repeat(n)}}}`);
    try {
      const host = new McpHost();
      const errors: string[] = [];
      host.on('serverError', ({ key, error }) => errors.push(`${key}: ${(error as { code?: string }).code}: ${error.message}`));
      host.add(new McpClient(deep.url, quiet), { key: 'deep' });
      host.add(new McpClient(beta.url, quiet), { key: 'beta' });
      const tools = await host.refresh({ fresh: true });
      expect(tools.map((tool) => tool.name)).toEqual(['echo', 'lookup_beta']);
      expect(errors).toEqual(['deep: too_large: Left out tool(s) "deep": nested deeper than 256 levels']);
      expect(() => JSON.stringify(chatCompletionsTools(host, { strict: true }))).not.toThrow();
      const [outcome] = await runToolCalls(host, [{ id: '1', name: 'deep', arguments: '{"x":null}' }], { strict: true });
      expect(outcome).toMatchObject({ kind: 'error', message: expect.stringContaining('There is no tool named "deep"') });
    } finally {
      await deep.close();
    }
  });
});

describe('a model calling a tool there is not', () => {
  test('gets a bounded answer: at most 100 tool names, the rest counted, its own name cut', async () => {
    const many = await startRawToolServer(Array.from({ length: 5000 }, (_, i) => `tool_${i}_${'x'.repeat(50)}`));
    try {
      const host = new McpHost();
      host.add(new McpClient(many.url, quiet), { key: 'many' });
      expect((await host.refresh()).length).toBe(5000);
      const [outcome] = await runToolCalls(host, [{ id: '1', name: `guess_${'y'.repeat(10_000)}`, arguments: '{}' }]);
      if (outcome!.kind !== 'error') throw new Error(`expected an error, got ${outcome!.kind}`);
      expect(outcome!.message).toMatch(/^There is no tool named "guess_y{94}"\. Available tools: tool_0_x{50}, .* and 4900 more\.$/);
      expect(outcome!.message.split(', ').length).toBe(100);
    } finally {
      await many.close();
    }
  });
});
