/**
 * The AI SDK adapter against the real `ai` package and its own mock language
 * model (`ai/test`), with a host of two real servers (official SDK): one
 * model turn calls a tool of each server (one of them asks for input, which a
 * policy answers) and one with arguments that fail the tool's schema (not
 * called: the problems go back to the model as the tool's error); the next
 * turn writes the final text from what the tools returned.
 */
import { asSchema, generateText, jsonSchema, stepCountIs, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { aiSdkTools } from '../src/adapters/ai-sdk.js';
import { fromJsonSchema, type McpServer } from '@modelcontextprotocol/server';
import { listedHost, startToolServer, type ToolServer } from './support/host-servers.js';
import { startModernServer, type ModernServer } from './support/servers.js';

let alpha: ToolServer;
let kit: ModernServer;
/** Resolved when alpha's `hold` tool starts; `hold` then waits until its request is cancelled. */
let holdStarted: () => void = () => {};
beforeAll(async () => {
  const withHold = (server: McpServer, calls: string[]) =>
    server.registerTool('hold', { description: 'Waits until cancelled', inputSchema: fromJsonSchema({ type: 'object', properties: {} } as never) }, async (_args: any, ctx: any) => {
      holdStarted();
      const signal: AbortSignal = ctx.mcpReq.signal;
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      calls.push('hold cancelled');
      return { content: [{ type: 'text', text: 'stopped' }] };
    });
  [alpha, kit] = await Promise.all([startToolServer('alpha', withHold), startModernServer()]);
});
afterAll(() => Promise.all([alpha.close(), kit.close()]));

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };

const twoServerHost = () => listedHost({ alpha: alpha.url, kit: kit.url });

/** The tool-result parts of the prompt the model got, by tool name. */
function toolResults(prompt: ModelMessage[] | readonly unknown[]) {
  return (prompt as { role: string; content: unknown }[])
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content as { type: string; toolName: string; output: { type: string; value: unknown } }[])
    .filter((part) => part.type === 'tool-result')
    .map((part) => [part.toolName, part.output] as const);
}

describe('aiSdkTools: a host of two servers as an AI SDK ToolSet', () => {
  test('a model turn calls one tool of each server (one asks for input, answered by a policy), then writes its final text', async () => {
    const host = await twoServerHost();
    const policy: string[] = [];
    // A policy: confirmations are accepted, without a person, and recorded.
    host.setInputHandler('elicitation/create', { modes: ['form'], handle: async (params) => (policy.push(String(params.message)), { action: 'accept', content: { ok: true, note: 'by policy' } }) });
    const tools = aiSdkTools(host);
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(['echo', 'lookup_alpha', 'kit__echo', 'confirm']));

    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        const results = toolResults(prompt);
        if (!results.length) {
          return {
            content: [
              { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup_alpha', input: JSON.stringify({ id: 'a7' }) },
              { type: 'tool-call', toolCallId: 'c2', toolName: 'confirm', input: JSON.stringify({ action: 'deploy' }) },
              { type: 'tool-call', toolCallId: 'c3', toolName: 'lookup_alpha', input: JSON.stringify({ id: 'x' }) },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          };
        }
        const summary = results.map(([name, output]) => `${name}=${output.type}:${String(output.value)}`).join(' | ');
        return { content: [{ type: 'text', text: `Done. ${summary}` }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      },
    });
    const callsBefore = alpha.calls.length;
    const result = await generateText({ model, tools, stopWhen: stepCountIs(4), prompt: 'Look up a7 and deploy.' });

    expect(model.doGenerateCalls).toHaveLength(2);
    // The tools the model was offered: the host's names and the tools' own schemas.
    const offered = model.doGenerateCalls[0]!.tools!.map((tool) => [tool.name, (tool as { inputSchema: unknown }).inputSchema]);
    expect(offered).toContainEqual(['lookup_alpha', expect.objectContaining({ type: 'object', required: ['id'] })]);
    expect(policy).toEqual(['Really deploy?']);
    // lookup_alpha ran once: the call with id "x" (minLength 2) never reached the server.
    expect(alpha.calls.slice(callsBefore)).toEqual(['lookup_alpha']);
    expect(result.text).toBe(
      'Done. lookup_alpha=text:alpha record a7 | confirm=text:confirmed=true note=by policy | ' +
        "lookup_alpha=error-text:The arguments do not match the tool's input schema, so the tool was not called: /id: must NOT have fewer than 2 characters.",
    );
    expect(result.steps[0]!.toolResults.map((entry) => [entry.toolName, (entry.output as { serverKey: string }).serverKey])).toEqual([
      ['lookup_alpha', 'alpha'],
      ['confirm', 'kit'],
      ['lookup_alpha', 'alpha'],
    ]);
  });

  test("the SDK's abort signal cancels a running call on its server", async () => {
    const host = await twoServerHost();
    const controller = new AbortController();
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'tool-call', toolCallId: 'h1', toolName: 'hold', input: '{}' }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      }),
    });
    const started = new Promise<void>((resolve) => (holdStarted = resolve));
    const run = generateText({ model, tools: aiSdkTools(host), stopWhen: stepCountIs(1), prompt: 'Wait.', abortSignal: controller.signal });
    await started;
    controller.abort();
    // The SDK records the call as a tool error (the abort), not as a result the model would read.
    const result = await run;
    expect(result.content).toContainEqual(expect.objectContaining({ type: 'tool-error', toolName: 'hold', error: controller.signal.reason }));
    expect(result.toolResults).toEqual([]);
    // The server saw its request cancelled (the client closed the call's stream).
    await expect.poll(() => alpha.calls.includes('hold cancelled'), { timeout: 20_000 }).toBe(true);
  });

  test("its schemas are the SDK's: asSchema takes them as they are, and jsonSchema from ai can build them instead", () => {
    const host = { tools: [{ name: 'lookup', serverKey: 's', tool: { name: 'lookup', inputSchema: { type: 'object', properties: { id: { type: 'string' } } } } }], resolve: () => undefined, callTool: () => Promise.reject(new Error('unused')) };
    const ours = aiSdkTools(host as never).lookup!.inputSchema;
    expect(asSchema(ours as never)).toBe(ours);
    expect(asSchema(ours as never).jsonSchema).toEqual({ type: 'object', properties: { id: { type: 'string' } } });
    const theirs = aiSdkTools(host as never, { jsonSchema: (schema) => jsonSchema(schema) }).lookup!.inputSchema;
    expect(asSchema(theirs as never).jsonSchema).toEqual(asSchema(ours as never).jsonSchema);
  });
});
