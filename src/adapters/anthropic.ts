/**
 * `mcp-web-elements/anthropic`: a host's tools as Anthropic Messages tools
 * (`input_schema`), and a model turn's `tool_use` blocks run and answered with
 * `tool_result` blocks (text and images, `is_error` for failures). Plain
 * objects in the shapes of the Messages API: no Anthropic SDK is needed.
 *
 * @example
 * ```ts
 * const reply = await anthropic.messages.create({ model, max_tokens, messages, tools: anthropicTools(host) });
 * messages.push({ role: 'assistant', content: reply.content });
 * if (reply.stop_reason === 'tool_use') messages.push(await runAnthropicToolUses(host, reply.content));
 * ```
 *
 * @module
 */
import type { JsonObject } from '../protocol/types.js';
import { isErrorOutcome, outcomeParts, runToolCalls, type RunToolCallsOptions, type ToolHost } from './run.js';
import { toAnthropicSchema } from './schema-convert.js';

export { runToolCall, runToolCalls, outcomeParts, outcomeText, isErrorOutcome, type ModelToolCall, type ModelPart, type RunToolCallsOptions, type ToolCallOutcome, type ToolHost } from './run.js';
export { toAnthropicSchema, type SchemaConversion } from './schema-convert.js';

/** A Messages API client tool (`tools[]` of `POST /v1/messages`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: JsonObject;
}

/** A `tool_use` content block of an assistant message. */
export interface AnthropicToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: JsonObject;
}

/** A content block of a `tool_result`. */
export type AnthropicResultBlock = { type: 'text'; text: string } | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

/** A `tool_result` content block. */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: AnthropicResultBlock[];
  is_error?: boolean;
}

/** The host's tools (enabled servers) as Messages API tools. */
export function anthropicTools(host: ToolHost): AnthropicTool[] {
  return host.tools.map((tool) => {
    const description = tool.tool.description ?? tool.tool.title;
    return { name: tool.name, ...(description ? { description } : {}), input_schema: toAnthropicSchema(tool.tool.inputSchema).schema };
  });
}

/**
 * Runs the `tool_use` blocks of an assistant message's content (other blocks
 * are ignored) in parallel and returns the user message to append: one
 * `tool_result` per call, in order, as the API wants them (first in the message).
 */
export async function runAnthropicToolUses(host: ToolHost, content: readonly ({ type: string } | AnthropicToolUse)[], options: RunToolCallsOptions = {}): Promise<{ role: 'user'; content: AnthropicToolResult[] }> {
  const uses = content.filter((block): block is AnthropicToolUse => block.type === 'tool_use');
  const outcomes = await runToolCalls(host, uses.map((use) => ({ id: use.id, name: use.name, arguments: use.input })), options);
  return {
    role: 'user',
    content: outcomes.map((outcome) => ({
      type: 'tool_result',
      tool_use_id: outcome.call.id,
      content: outcomeParts(outcome, true).map((part): AnthropicResultBlock => (part.type === 'text' ? part : { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } })),
      ...(isErrorOutcome(outcome) ? { is_error: true } : {}),
    })),
  };
}
