/**
 * Sampling answered by the page's model: an MCP `sampling/createMessage`
 * request (spec: client/sampling) sent to an OpenAI-compatible Chat
 * Completions endpoint, and its reply as the `CreateMessageResult`.
 *
 * The function is a draft: give it to `<mcp-elicitation-dialog>` as its
 * `samplingHandler`, and the user sees the server's request and the model's
 * reply, edits it, and sends or rejects it: nothing reaches the server without
 * that approval. (Registering it as a client's `SamplingHandler` directly
 * would answer without asking anyone; the kit does not do that for you.)
 *
 * @module
 */
import { McpClientError } from '../protocol/errors.js';
import { isObject, type ContentBlock, type CreateMessageRequestParams, type CreateMessageResult, type JsonObject } from '../protocol/types.js';
import { readBodyText, type FetchLike } from '../transport/transport.js';

/** Where the page's model is: an OpenAI-compatible Chat Completions endpoint. */
export interface OpenAiCompatibleConfig {
  /** The API base, e.g. `https://api.openai.com/v1` (`/chat/completions` is added). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` when given. */
  apiKey?: string;
  /** The model to ask (the server's `modelPreferences` hints are advice; this is the page's choice). */
  model: string;
  /** Extra headers. */
  headers?: Record<string, string>;
  /** Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Cap on the response body, in bytes; default 4 MiB. */
  maxResponseBytes?: number;
}

/** A draft of the answer to a sampling request (the shape of the dialog's `samplingHandler`). */
export type SamplingDraft = (params: CreateMessageRequestParams, context: { signal: AbortSignal }) => Promise<CreateMessageResult>;

const DEFAULT_MAX_RESPONSE = 4 * 1024 * 1024;

type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** A sampling message's content for Chat Completions: text, and images as data URLs (user messages only, as the API takes them). */
function chatContent(content: ContentBlock | ContentBlock[], role: 'user' | 'assistant'): string | ChatContentPart[] {
  const blocks = Array.isArray(content) ? content : [content];
  const parts: ChatContentPart[] = [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image' && typeof block.data === 'string' && typeof block.mimeType === 'string' && role === 'user') parts.push({ type: 'image_url', image_url: { url: `data:${block.mimeType};base64,${block.data}` } });
    else parts.push({ type: 'text', text: `[${String(block.type)} content left out]` });
  }
  return parts.every((part) => part.type === 'text') ? parts.map((part) => (part as { text: string }).text).join('\n') : parts;
}

/** The Chat Completions request body for a sampling request. */
export function samplingRequestBody(params: CreateMessageRequestParams, model: string): JsonObject {
  const messages: JsonObject[] = [];
  if (typeof params.systemPrompt === 'string' && params.systemPrompt) messages.push({ role: 'system', content: params.systemPrompt });
  for (const message of params.messages) messages.push({ role: message.role, content: chatContent(message.content, message.role) as JsonObject[string] });
  return {
    model,
    messages,
    max_tokens: params.maxTokens,
    ...(typeof params.temperature === 'number' ? { temperature: params.temperature } : {}),
    ...(Array.isArray(params.stopSequences) && params.stopSequences.length ? { stop: params.stopSequences } : {}),
  };
}

const STOP_REASONS: Record<string, string> = { stop: 'endTurn', length: 'maxTokens', content_filter: 'contentFilter' };

/**
 * A sampling draft from an OpenAI-compatible endpoint (see the module docs: give
 * it to the dialog, which asks the user before anything is sent).
 *
 * @throws McpClientError `network` (the endpoint could not be reached), `http`
 *   (an error status; `data.status`, the provider's message in the text),
 *   `protocol` (no message in the reply), `too_large`, `aborted` (through `context.signal`).
 */
export function openAiSampling(config: OpenAiCompatibleConfig): SamplingDraft {
  const url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return async (params, context) => {
    const doFetch = config.fetch ?? ((input, init) => fetch(input, init));
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}), ...config.headers },
        body: JSON.stringify(samplingRequestBody(params, config.model)),
        signal: context.signal,
      });
    } catch (error) {
      if (context.signal.aborted) throw new McpClientError('aborted', 'The model request was aborted', { url });
      throw new McpClientError('network', `Could not reach the model at ${url}: ${(error as Error).message}`, { url });
    }
    const text = await readBodyText(response, config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE, { url });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const message = isObject(body) && isObject(body.error) && typeof body.error.message === 'string' ? body.error.message : text.slice(0, 200);
      throw new McpClientError('http', `The model answered ${response.status}: ${message}`, { url, status: response.status });
    }
    const choice = isObject(body) && Array.isArray(body.choices) && isObject(body.choices[0]) ? body.choices[0] : undefined;
    const message = choice && isObject(choice.message) ? choice.message : undefined;
    if (!message || typeof message.content !== 'string') throw new McpClientError('protocol', 'The model sent no message text', { url });
    const finish = typeof choice!.finish_reason === 'string' ? choice!.finish_reason : undefined;
    return {
      role: 'assistant',
      content: { type: 'text', text: message.content },
      model: isObject(body) && typeof body.model === 'string' ? body.model : config.model,
      ...(finish ? { stopReason: STOP_REASONS[finish] ?? finish } : {}),
    };
  };
}
