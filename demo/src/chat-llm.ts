/**
 * The chat sample's client for an OpenAI-compatible Chat Completions endpoint:
 * one streamed request (`stream: true`), its text handed on as it arrives and
 * its tool calls put together from their deltas. Everything the endpoint sends
 * is bounded (bytes, calls, argument size) and every failure is a
 * {@link ModelError} with a message for the transcript.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ChatCompletionsTool, ChatCompletionsToolCall, OpenAiCompatibleConfig } from '../../src/adapters/openai.js';

/** A message of the conversation, as Chat Completions takes it. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatCompletionsToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** What one streamed reply said. */
export interface ModelReply {
  text: string;
  toolCalls: ChatCompletionsToolCall[];
  /** `finish_reason` of the reply (`stop`, `tool_calls`, `length`…). */
  finish: string | undefined;
}

/** Why a request to the model failed: `status` for an error answer, else undefined. */
export class ModelError extends Error {
  override name = 'ModelError';
  constructor(
    message: string,
    readonly kind: 'network' | 'http' | 'stream' | 'too_large' | 'aborted',
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Bounds on one reply (a provider, or anything answering at that URL, is not trusted with the page's memory). */
export const LIMITS = { bytes: 8 * 1024 * 1024, text: 256 * 1024, toolCalls: 32, argumentChars: 256 * 1024, errorBytes: 16 * 1024 } as const;

/** The endpoint's URL for `path` under the configured base (`/chat/completions`). */
export function endpointUrl(config: Pick<OpenAiCompatibleConfig, 'baseUrl'>, path = '/chat/completions'): string {
  return `${config.baseUrl.trim().replace(/\/+$/, '')}${path}`;
}

/** Reads at most `max` bytes of a body as text (an error body for the message). */
async function readSome(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    while (bytes < max) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  return text.slice(0, max);
}

function errorMessage(status: number, body: string): string {
  let detail = body.trim().slice(0, 300);
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string') detail = message.slice(0, 300);
  } catch {
    // Not JSON: the start of the text says what happened.
  }
  const hint = status === 401 || status === 403 ? ' Check the API key in the model settings.' : status === 404 ? ' Check the base URL and the model name.' : '';
  return `The model endpoint answered ${status}${detail ? `: ${detail}` : ''}.${hint}`;
}

/**
 * Sends the conversation and streams the reply: `onText` gets each piece of
 * text as it arrives; the promise settles with the whole reply once the
 * stream ends.
 *
 * @throws ModelError `network` (unreachable, CORS), `http` (an error status),
 *   `stream` (not SSE, a chunk that is not JSON, a stream that stops before its end),
 *   `too_large` (past {@link LIMITS}), `aborted` (through `signal`).
 */
export async function streamChat(
  config: OpenAiCompatibleConfig,
  messages: readonly ChatMessage[],
  tools: readonly ChatCompletionsTool[],
  options: { signal?: AbortSignal; onText?: (piece: string) => void } = {},
): Promise<ModelReply> {
  const url = endpointUrl(config);
  const doFetch = config.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  let response: Response;
  try {
    response = await doFetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}), ...config.headers },
      body: JSON.stringify({ model: config.model, messages, stream: true, ...(tools.length ? { tools } : {}) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw new ModelError('The request to the model was stopped.', 'aborted');
    throw new ModelError(`Could not reach the model at ${url} (${(error as Error).message}). Check the base URL, and that the endpoint allows this page's origin (CORS).`, 'network');
  }
  if (!response.ok) throw new ModelError(errorMessage(response.status, await readSome(response, LIMITS.errorBytes)), 'http', response.status);
  const type = response.headers.get('content-type') ?? '';
  if (!/text\/event-stream/i.test(type) || !response.body) {
    void response.body?.cancel().catch(() => {});
    throw new ModelError(`The model endpoint did not stream its answer (content type "${type.slice(0, 80)}"); it must support "stream": true.`, 'stream');
  }

  const reply: ModelReply = { text: '', toolCalls: [], finish: undefined };
  let done = false;
  let problem: ModelError | undefined;
  const fail = (error: ModelError) => (problem ??= error);
  const onEvent = (event: EventSourceMessage) => {
    if (problem || done) return;
    if (event.data.trim() === '[DONE]') return void (done = true);
    let chunk: any;
    try {
      chunk = JSON.parse(event.data);
    } catch {
      return void fail(new ModelError(`The model sent a malformed stream: a chunk is not JSON (${event.data.slice(0, 80)}).`, 'stream'));
    }
    if (chunk?.error) return void fail(new ModelError(`The model stopped with an error: ${String(chunk.error.message ?? chunk.error).slice(0, 300)}`, 'stream'));
    const choice = Array.isArray(chunk?.choices) ? chunk.choices[0] : undefined;
    if (!choice) return;
    if (typeof choice.finish_reason === 'string') reply.finish = choice.finish_reason;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content) {
      if (reply.text.length + delta.content.length > LIMITS.text) return void fail(new ModelError(`The model's reply is longer than ${LIMITS.text} characters.`, 'too_large'));
      reply.text += delta.content;
      options.onText?.(delta.content);
    }
    for (const part of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      const index = Number.isInteger(part?.index) ? part.index : reply.toolCalls.length;
      if (index < 0 || index >= LIMITS.toolCalls) return void fail(new ModelError(`The model made more than ${LIMITS.toolCalls} tool calls in one reply.`, 'too_large'));
      const call = (reply.toolCalls[index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
      if (typeof part.id === 'string') call.id = part.id.slice(0, 200);
      if (typeof part.function?.name === 'string') call.function.name += part.function.name;
      if (typeof part.function?.arguments === 'string') call.function.arguments += part.function.arguments;
      if (call.function.arguments.length > LIMITS.argumentChars || call.function.name.length > 200) return void fail(new ModelError(`A tool call of the model is over ${LIMITS.argumentChars} characters.`, 'too_large'));
    }
  };
  const parser = createParser({ onEvent, onError: (error) => fail(new ModelError(`The model sent a malformed stream: ${error.message}`, 'stream')) });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  try {
    while (!problem && !done) {
      const { done: ended, value } = await reader.read();
      if (ended) break;
      bytes += value.byteLength;
      if (bytes > LIMITS.bytes) fail(new ModelError(`The model's answer is over ${LIMITS.bytes} bytes.`, 'too_large'));
      else parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    if (options.signal?.aborted) throw new ModelError('The request to the model was stopped.', 'aborted');
    throw new ModelError(`The connection to the model broke off: ${(error as Error).message}`, 'network');
  } finally {
    void reader.cancel().catch(() => {});
  }
  if (problem) throw problem;
  // A stream cut short has neither `[DONE]` nor a finish reason: what arrived may be half a call.
  if (!done && reply.finish === undefined) throw new ModelError('The model\'s stream ended before the reply was complete.', 'stream');
  reply.toolCalls = reply.toolCalls.filter(Boolean);
  for (const [i, call] of reply.toolCalls.entries()) {
    if (!call.function.name) throw new ModelError('The model sent a tool call without a tool name.', 'stream');
    if (!call.id) call.id = `call_${i}`;
  }
  return reply;
}
