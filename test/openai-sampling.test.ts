/**
 * Sampling answered by the page's model: `openAiSampling` against a local
 * OpenAI-compatible stand-in (the only fake: no real model is reachable), for
 * a real server's `sampling/createMessage` request (official SDK). The draft
 * goes through an approval step here as the dialog's does in a page
 * (components/mcp-elicitation-dialog tests it there).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openAiSampling, samplingRequestBody } from '../src/adapters/openai.js';
import { McpClient, type CreateMessageRequestParams } from '../src/index.js';
import { startOpenAiStandIn, type OpenAiStandIn } from './support/openai-stand-in.js';
import { startModernServer, type ModernServer } from './support/servers.js';

let model: OpenAiStandIn;
let kit: ModernServer;
beforeAll(async () => {
  [model, kit] = await Promise.all([startOpenAiStandIn(), startModernServer()]);
});
afterAll(() => Promise.all([model.close(), kit.close()]));

const signal = new AbortController().signal;

describe('openAiSampling', () => {
  test("a server's sampling request is answered by the page's model, after the approval step saw the draft", async () => {
    const draft = openAiSampling({ baseUrl: model.baseUrl, apiKey: 'sk-test', model: 'page-model' });
    const approved: string[] = [];
    const client = new McpClient(kit.url, { protocol: 'modern', onWarning: () => {} });
    client.setInputHandler('sampling/createMessage', {
      handle: async (params, context) => {
        const result = await draft(params, context);
        // The approval step (the dialog, in a page): what the user sends is what they saw.
        approved.push(JSON.stringify(result.content));
        return result;
      },
    });
    model.script({ text: 'Old pond, a frog' });
    const result: any = await client.callTool('sample', {});
    expect(result.content[0].text).toBe('model said: Old pond, a frog');
    expect(approved).toEqual([JSON.stringify({ type: 'text', text: 'Old pond, a frog' })]);
    expect(model.requests.at(-1)).toEqual({ model: 'page-model', messages: [{ role: 'user', content: 'Write a haiku' }], max_tokens: 50 });
    expect(model.authorizations.at(-1)).toBe('Bearer sk-test');
  });

  test('the request carries the system prompt, temperature, stop sequences and images; the reply its model and stop reason', async () => {
    const params: CreateMessageRequestParams = {
      systemPrompt: 'Be brief.',
      maxTokens: 20,
      temperature: 0.2,
      stopSequences: ['END'],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
        { role: 'assistant', content: { type: 'text', text: 'A square.' } },
        { role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
      ],
    };
    expect(samplingRequestBody(params, 'm')).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
        { role: 'assistant', content: 'A square.' },
        { role: 'user', content: '[audio content left out]' },
      ],
      max_tokens: 20,
      temperature: 0.2,
      stop: ['END'],
    });
    model.script({ text: 'ok' });
    expect(await openAiSampling({ baseUrl: `${model.baseUrl}/`, model: 'm' })(params, { signal })).toEqual({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm', stopReason: 'endTurn' });
    expect(model.authorizations.at(-1)).toBeUndefined();
  });

  test('failures are typed errors: the provider refusing, an unreachable endpoint, a reply with no message, a reply over the cap', async () => {
    const draft = openAiSampling({ baseUrl: model.baseUrl, model: 'm' });
    const params: CreateMessageRequestParams = { maxTokens: 5, messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] };
    model.script({ status: 401, error: 'Incorrect API key provided' });
    await expect(draft(params, { signal })).rejects.toMatchObject({ code: 'http', message: 'The model answered 401: Incorrect API key provided', data: { status: 401 } });
    await expect(openAiSampling({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm' })(params, { signal })).rejects.toMatchObject({ code: 'network' });
    model.script({ toolCalls: [{ name: 'x', arguments: {} }] });
    await expect(draft(params, { signal })).rejects.toMatchObject({ code: 'protocol' });
    model.script({ text: 'x'.repeat(5000) });
    await expect(openAiSampling({ baseUrl: model.baseUrl, model: 'm', maxResponseBytes: 1000 })(params, { signal })).rejects.toMatchObject({ code: 'too_large' });
  });
});
