/**
 * `mcp-web-elements/openai`: a host's tools as OpenAI function tools (Chat
 * Completions and Responses), strict mode included, and a model turn's tool
 * calls run and answered in the same formats. Plain objects in the shapes of
 * OpenAI's HTTP API: no OpenAI SDK is needed or loaded.
 *
 * @example
 * ```ts
 * const tools = chatCompletionsTools(host, { strict: true });
 * const reply = await openai.chat.completions.create({ model, messages, tools });
 * const message = reply.choices[0].message;
 * messages.push(message, ...(await runChatCompletionsToolCalls(host, message.tool_calls ?? [], { strict: true })));
 * ```
 *
 * @module
 */
import type { HostTool } from '../host/host.js';
import type { JsonObject } from '../protocol/types.js';
import { outcomeText, runToolCalls, type RunToolCallsOptions, type ToolCallOutcome, type ToolHost } from './run.js';
import { toStrictSchema } from './schema-convert.js';

export { runToolCall, runToolCalls, outcomeParts, outcomeText, isErrorOutcome, type ModelToolCall, type ModelPart, type RunToolCallsOptions, type ToolCallOutcome, type ToolHost } from './run.js';
export { restoreArguments, toStrictSchema, type SchemaConversion } from './schema-convert.js';
export { openAiSampling, samplingRequestBody, type OpenAiCompatibleConfig, type SamplingDraft } from './openai-sampling.js';

/** Options of the OpenAI tool lists. */
export interface OpenAiToolsOptions {
  /**
   * Strict mode (Structured Outputs): every property required, `null` for optional
   * ones, `additionalProperties: false`, keywords outside the subset moved into
   * descriptions ({@link toStrictSchema}). Run the calls with the same `strict`.
   * Default false: the tool's schema as it is.
   */
  strict?: boolean;
}

/** A Chat Completions function tool (`tools[]` of `POST /v1/chat/completions`). */
export interface ChatCompletionsTool {
  type: 'function';
  function: { name: string; description?: string; parameters: JsonObject; strict?: boolean };
}

/** A Responses function tool (`tools[]` of `POST /v1/responses`). */
export interface ResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: JsonObject;
  strict: boolean;
}

/** A Chat Completions assistant tool call (`message.tool_calls[]`). */
export interface ChatCompletionsToolCall {
  id: string;
  type?: 'function';
  function: { name: string; arguments: string };
}

/** A Chat Completions tool message (`role: "tool"`), to append after the assistant message. */
export interface ChatCompletionsToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** A Responses function call output item (`type: "function_call"`). */
export interface ResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}

/** A Responses input item answering a function call. */
export interface ResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

function parameters(tool: HostTool, strict: boolean): JsonObject {
  if (strict) return toStrictSchema(tool.tool.inputSchema).schema;
  return { ...(tool.tool.inputSchema as JsonObject), type: 'object' };
}

const describe = (tool: HostTool) => tool.tool.description ?? tool.tool.title;

/** The host's tools (enabled servers) as Chat Completions function tools. */
export function chatCompletionsTools(host: ToolHost, options: OpenAiToolsOptions = {}): ChatCompletionsTool[] {
  const strict = options.strict ?? false;
  return host.tools.map((tool) => {
    const description = describe(tool);
    return { type: 'function', function: { name: tool.name, ...(description ? { description } : {}), parameters: parameters(tool, strict), ...(strict ? { strict: true } : {}) } };
  });
}

/** The host's tools (enabled servers) as Responses function tools. */
export function responsesTools(host: ToolHost, options: OpenAiToolsOptions = {}): ResponsesTool[] {
  const strict = options.strict ?? false;
  return host.tools.map((tool) => {
    const description = describe(tool);
    return { type: 'function', name: tool.name, ...(description ? { description } : {}), parameters: parameters(tool, strict), strict };
  });
}

/** The messages to append after a Chat Completions assistant message with `tool_calls`, one per call, in order. */
export async function runChatCompletionsToolCalls(
  host: ToolHost,
  calls: readonly ChatCompletionsToolCall[],
  options: RunToolCallsOptions = {},
): Promise<ChatCompletionsToolMessage[]> {
  // A provider's malformed call (no function) is answered as a call of no tool, never thrown: the turn's other calls still run.
  const outcomes = await runToolCalls(host, calls.map((call) => ({ id: call.id, name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' })), options);
  return outcomes.map((outcome) => ({ role: 'tool', tool_call_id: outcome.call.id, content: outcomeText(outcome) }));
}

/** The input items answering a Responses turn's `function_call` output items, one per call, in order (other items are ignored). */
export async function runResponsesToolCalls(host: ToolHost, items: readonly ({ type: string } | ResponsesFunctionCall)[], options: RunToolCallsOptions = {}): Promise<ResponsesFunctionCallOutput[]> {
  const calls = items.filter((item): item is ResponsesFunctionCall => item.type === 'function_call');
  const outcomes = await runToolCalls(host, calls.map((call) => ({ id: call.call_id, name: call.name, arguments: call.arguments })), options);
  return outcomes.map((outcome: ToolCallOutcome) => ({ type: 'function_call_output', call_id: outcome.call.id, output: outcomeText(outcome) }));
}
