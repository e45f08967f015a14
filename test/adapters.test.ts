/**
 * The OpenAI and Anthropic adapters: a tool's schema in strict mode and back,
 * and one model turn's tool calls run through a host of two real servers
 * (official SDK), answered in each format: Chat Completions tool messages,
 * Responses function_call_output items, Anthropic tool_result blocks.
 */
import { fromJsonSchema, type McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anthropicTools, runAnthropicToolUses, toAnthropicSchema } from '../src/adapters/anthropic.js';
import { chatCompletionsTools, responsesTools, restoreArguments, runChatCompletionsToolCalls, runResponsesToolCalls, toStrictSchema } from '../src/adapters/openai.js';
import { listedHost, startToolServer, type ToolServer } from './support/host-servers.js';
import { startModernServer, type ModernServer } from './support/servers.js';

let alpha: ToolServer;
let kit: ModernServer;
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
beforeAll(async () => {
  const withPixel = (server: McpServer) =>
    server.registerTool('pixel', { description: 'One pixel', inputSchema: fromJsonSchema({ type: 'object', properties: {} } as never) }, async () => ({
      content: [
        { type: 'text', text: 'a pixel' },
        { type: 'image', data: PIXEL, mimeType: 'image/png' },
      ],
    }));
  [alpha, kit] = await Promise.all([startToolServer('alpha', withPixel), startModernServer()]);
});
afterAll(() => Promise.all([alpha.close(), kit.close()]));

const twoServerHost = () => listedHost({ alpha: alpha.url, kit: kit.url });

describe('strict mode (OpenAI Structured Outputs) and back', () => {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2, description: 'City name' },
      when: { type: 'string', format: 'date' },
      site: { type: 'string', format: 'uri' },
      units: { enum: ['c', 'f'], default: 'c' },
      note: { type: ['string', 'null'] },
      filters: { type: 'object', properties: { tag: { type: 'string' }, max: { type: 'integer', minimum: 1 } }, required: ['tag'] },
      extras: { type: 'object' },
      shape: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      list: { type: 'array', items: { $ref: '#/$defs/item' }, uniqueItems: true },
    },
    required: ['city'],
    $defs: { item: { type: 'object', properties: { id: { type: 'string' }, qty: { type: 'integer' } }, required: ['id'] } },
  };

  test('every property required, optional ones nullable, additionalProperties false, unsupported keywords moved into descriptions', () => {
    const { schema: strict, moved, lossless } = toStrictSchema(schema);
    expect(strict).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name (minLength: 2)' },
        when: { type: ['string', 'null'], format: 'date' },
        site: { type: ['string', 'null'], description: '(format: "uri")' },
        units: { description: '(default: "c")', anyOf: [{ enum: ['c', 'f'] }, { type: 'null' }] },
        note: { type: ['string', 'null'] },
        filters: {
          type: ['object', 'null'],
          properties: { tag: { type: 'string' }, max: { type: ['integer', 'null'], minimum: 1 } },
          required: ['tag', 'max'],
          additionalProperties: false,
        },
        extras: { type: ['object', 'null'], properties: {}, required: [], additionalProperties: false, description: '(additionalProperties: "any (free-form object)")' },
        shape: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
        list: { type: ['array', 'null'], items: { $ref: '#/$defs/item' }, description: '(uniqueItems: true)' },
      },
      required: ['city', 'when', 'site', 'units', 'note', 'filters', 'extras', 'shape', 'list'],
      additionalProperties: false,
      $defs: { item: { type: 'object', properties: { id: { type: 'string' }, qty: { type: ['integer', 'null'] } }, required: ['id', 'qty'], additionalProperties: false } },
    });
    // `note` is optional and may be null: the model's null no longer tells "left out" from "null".
    expect(moved).toEqual(['additionalProperties', 'default', 'format', 'minLength', 'oneOf', 'optional null', 'uniqueItems']);
    expect(lossless).toBe(false);
  });

  test('a schema inside the subset converts without loss; a default moved into the description loses nothing', () => {
    const { moved, lossless } = toStrictSchema({ type: 'object', properties: { q: { type: 'string', pattern: '^a' }, n: { type: 'integer', maximum: 5 } }, required: ['q'] });
    expect([moved, lossless]).toEqual([[], true]);
    const withDefault = toStrictSchema({ type: 'object', properties: { n: { type: 'integer', default: 3 } } });
    expect([withDefault.moved, withDefault.lossless, withDefault.schema.properties]).toEqual([['default'], true, { n: { type: ['integer', 'null'], description: '(default: 3)' } }]);
  });

  test("the model's nulls for optional properties are removed again, through nested objects, arrays and $ref; a null the tool allows stays", () => {
    const args = { city: 'Oslo', when: null, site: null, units: null, note: null, filters: { tag: 't', max: null }, extras: null, shape: null, list: [{ id: 'a', qty: null }, { id: 'b', qty: 2 }] };
    expect(restoreArguments(args, schema)).toEqual({ city: 'Oslo', note: null, filters: { tag: 't' }, list: [{ id: 'a' }, { id: 'b', qty: 2 }] });
    // The input is not changed.
    expect(args.when).toBeNull();
  });

  test("Anthropic's input_schema: the schema as it is, root alternatives moved into the description", () => {
    expect(toAnthropicSchema({ type: 'object', properties: { a: { type: 'string', minLength: 2 } } })).toEqual({ schema: { type: 'object', properties: { a: { type: 'string', minLength: 2 } } }, moved: [], lossless: true });
    const root = toAnthropicSchema({ anyOf: [{ required: ['a'] }, { required: ['b'] }], properties: { a: {}, b: {} } });
    expect(root.schema).toEqual({ type: 'object', properties: { a: {}, b: {} }, description: '(anyOf: [{"required":["a"]},{"required":["b"]}])' });
    expect([root.moved, root.lossless]).toEqual([['anyOf'], false]);
  });
});

describe('one model turn through a host of two servers', () => {
  test('Chat Completions: strict tools, and the tool messages to append, in call order', async () => {
    const host = await twoServerHost();
    const tools = chatCompletionsTools(host, { strict: true });
    expect(tools.find((tool) => tool.function.name === 'lookup_alpha')).toEqual({
      type: 'function',
      function: {
        name: 'lookup_alpha',
        description: 'Looks an id up on alpha',
        parameters: { type: 'object', properties: { id: { type: 'string', description: '(minLength: 2)' }, verbose: { type: ['boolean', 'null'] } }, required: ['id', 'verbose'], additionalProperties: false },
        strict: true,
      },
    });
    const calls = alpha.calls.length;
    const messages = await runChatCompletionsToolCalls(
      host,
      [
        { id: 'c1', type: 'function', function: { name: 'lookup_alpha', arguments: '{"id":"a7","verbose":null}' } },
        { id: 'c2', type: 'function', function: { name: 'kit__echo', arguments: '{"text":"hi"}' } },
        { id: 'c3', type: 'function', function: { name: 'lookup_alpha', arguments: '{"id":' } },
        { id: 'c4', type: 'function', function: { name: 'nope', arguments: '{}' } },
        { id: 'c5', type: 'function', function: { name: 'pixel', arguments: '{}' } },
        // A malformed call from a provider (no function): answered, and the others still run.
        { id: 'c6', type: 'function' } as never,
      ],
      { strict: true },
    );
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'alpha record a7' },
      { role: 'tool', tool_call_id: 'c2', content: 'echo: hi' },
      { role: 'tool', tool_call_id: 'c3', content: expect.stringMatching(/^The arguments are not valid JSON: /) },
      { role: 'tool', tool_call_id: 'c4', content: `There is no tool named "nope". Available tools: ${host.tools.map((tool) => tool.name).join(', ')}.` },
      { role: 'tool', tool_call_id: 'c5', content: 'a pixel\n[image: image/png, shown to the user]' },
      { role: 'tool', tool_call_id: 'c6', content: expect.stringMatching(/^There is no tool named "". Available tools: /) },
    ]);
    // The strict null for `verbose` was removed before the call (the server's answer has no verbose=);
    // the call with broken JSON never reached the server.
    expect(alpha.calls.slice(calls)).toEqual(['lookup_alpha']);
  });

  test('Responses: function tools and function_call_output items for the function_call items of a turn', async () => {
    const host = await twoServerHost();
    expect(responsesTools(host).find((tool) => tool.name === 'kit__echo')).toEqual({
      type: 'function',
      name: 'kit__echo',
      description: 'Echoes its text argument',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      strict: false,
    });
    const items = await runResponsesToolCalls(host, [
      { type: 'reasoning' },
      { type: 'function_call', call_id: 'r1', name: 'echo', arguments: '{"text":"yo"}' },
      { type: 'function_call', call_id: 'r2', name: 'lookup_alpha', arguments: '{"id":"x"}' },
    ]);
    expect(items).toEqual([
      { type: 'function_call_output', call_id: 'r1', output: 'alpha echo: yo' },
      { type: 'function_call_output', call_id: 'r2', output: "The arguments do not match the tool's input schema, so the tool was not called: /id: must NOT have fewer than 2 characters." },
    ]);
  });

  test('Anthropic: input_schema tools, and one user message of tool_result blocks (images as images, is_error on failures)', async () => {
    const host = await twoServerHost();
    expect(anthropicTools(host).find((tool) => tool.name === 'echo')).toEqual({
      name: 'echo',
      description: 'Echoes text (alpha)',
      input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    const message = await runAnthropicToolUses(host, [
      { type: 'text' },
      { type: 'tool_use', id: 'u1', name: 'pixel', input: {} },
      { type: 'tool_use', id: 'u2', name: 'weather', input: { city: 'Oslo', fail: true } },
      { type: 'tool_use', id: 'u3', name: 'add', input: { a: 1 } },
    ]);
    expect(message).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'u1', content: [{ type: 'text', text: 'a pixel' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } }] },
        { type: 'tool_result', tool_use_id: 'u2', content: [{ type: 'text', text: 'no such city' }], is_error: true },
        { type: 'tool_result', tool_use_id: 'u3', content: [{ type: 'text', text: "The arguments do not match the tool's input schema, so the tool was not called: /b: is required." }], is_error: true },
      ],
    });
  });
});
