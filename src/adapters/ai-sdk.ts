/**
 * `mcp-web-elements/ai-sdk`: a host's tools as an AI SDK `ToolSet` (`ai` 5 and
 * later) for `generateText` / `streamText`. Each tool's `execute` calls through
 * the host: arguments checked against the tool's `inputSchema` first (on a
 * failure the tool is not called and the problems go back to the model as the
 * tool's error), input requests answered by the page's handlers (the dialog or
 * a policy), cancellation through the SDK's `abortSignal`, images as media in
 * the tool result the model sees.
 *
 * The entry does not import `ai`: a tool is a plain object of the shape the
 * SDK's `dynamicTool()` returns, and its schema the object `jsonSchema()`
 * returns (marked with `Symbol.for('vercel.ai.schema')`, the SDK's own test
 * for a schema since version 4). So the page's `ai`, whichever version, is the
 * only copy, and pages that do not use the AI SDK download none of it. Pass
 * `jsonSchema` from `ai` to have the SDK build the schemas itself.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { aiSdkTools } from 'mcp-web-elements/ai-sdk';
 * const { text } = await generateText({ model, tools: aiSdkTools(host), stopWhen: stepCountIs(5), prompt });
 * ```
 *
 * @module
 */
import type { ContentBlock, JsonObject } from '../protocol/types.js';
import { isErrorOutcome, resultParts, runToolCall, type ToolCallOutcome, type ToolHost } from './run.js';
import { toAiSdkSchema } from './schema-convert.js';

export { runToolCall, runToolCalls, outcomeParts, outcomeText, isErrorOutcome, type ModelToolCall, type ModelPart, type RunToolCallsOptions, type ToolCallOutcome, type ToolHost } from './run.js';
export { toAiSdkSchema, type SchemaConversion } from './schema-convert.js';

/** The AI SDK's mark of a schema object (`jsonSchema()` sets it; `asSchema()` looks for it). */
const SCHEMA_MARK = Symbol.for('vercel.ai.schema');

/** What a tool's `execute` returns: the call's outcome as JSON (kept in the SDK's messages and steps). */
export interface AiSdkToolOutput {
  readonly kind: 'mcp-tool-output';
  /** The server that answered, by its host key. */
  serverKey?: string;
  isError: boolean;
  /** The tool's content blocks (a failed or refused call: one text block saying why). */
  content: ContentBlock[];
  structuredContent?: unknown;
}

/** What the SDK sends the model for a tool's output (its `ToolResultOutput`). */
export type AiSdkModelOutput =
  | { type: 'text'; value: string }
  | { type: 'error-text'; value: string }
  | { type: 'content'; value: ({ type: 'text'; text: string } | { type: 'media'; data: string; mediaType: string })[] };

/** A tool of the set, in the shape of the SDK's `dynamicTool()`. */
export interface AiSdkTool {
  type: 'dynamic';
  description?: string;
  /**
   * The SDK's schema object (see {@link aiSdkTools}). Typed `any`: the SDK's type for it is
   * keyed by a `unique symbol` only `ai` can name, and this entry imports nothing from `ai`.
   */
  inputSchema: any;
  execute(input: unknown, options: { toolCallId: string; abortSignal?: AbortSignal }): Promise<AiSdkToolOutput>;
  /** Called by the SDK with `{ output }` (version 6 and later) or the output itself (version 5). */
  toModelOutput(options: unknown): AiSdkModelOutput;
}

/** Options of {@link aiSdkTools}. */
export interface AiSdkToolsOptions {
  /** The SDK's `jsonSchema` (`import { jsonSchema } from 'ai'`); default: an object of the same shape. */
  jsonSchema?: (schema: JsonObject) => unknown;
  /** Aborts every call of these tools, besides each call's own `abortSignal`. */
  signal?: AbortSignal;
}

function schemaObject(schema: JsonObject): unknown {
  // The SDK validates input with `validate` when present; the kit validates itself (with its own bounds), so none.
  return { [SCHEMA_MARK]: true, _type: undefined, jsonSchema: schema, validate: undefined };
}

function toOutput(outcome: ToolCallOutcome): AiSdkToolOutput {
  if (outcome.kind !== 'result') return { kind: 'mcp-tool-output', ...(outcome.serverKey ? { serverKey: outcome.serverKey } : {}), isError: true, content: [{ type: 'text', text: outcome.message }] };
  const { content, structuredContent } = outcome.result;
  return {
    kind: 'mcp-tool-output',
    serverKey: outcome.serverKey,
    isError: isErrorOutcome(outcome),
    content: Array.isArray(content) ? content : [],
    ...(structuredContent !== undefined ? { structuredContent } : {}),
  };
}

/** The model's view of an output, from the same content mapping as the other formats. */
export function aiSdkModelOutput(output: AiSdkToolOutput): AiSdkModelOutput {
  const parts = resultParts(output, true);
  const text = parts.map((part) => (part.type === 'text' ? part.text : '')).filter(Boolean).join('\n');
  if (output.isError) return { type: 'error-text', value: text };
  if (!parts.some((part) => part.type === 'image')) return { type: 'text', value: text };
  return { type: 'content', value: parts.map((part) => (part.type === 'text' ? part : { type: 'media', data: part.data, mediaType: part.mimeType })) };
}

const isOutput = (value: unknown): value is AiSdkToolOutput => typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'mcp-tool-output';

/**
 * The host's tools (enabled servers, as they are now) as an AI SDK `ToolSet`,
 * keyed by their model names. Build it again after `toolsChanged`.
 */
export function aiSdkTools(host: ToolHost, options: AiSdkToolsOptions = {}): Record<string, AiSdkTool> {
  const set: Record<string, AiSdkTool> = {};
  for (const entry of host.tools) {
    const schema = toAiSdkSchema(entry.tool.inputSchema).schema;
    const description = entry.tool.description ?? entry.tool.title;
    // A defined property: a tool a server named `__proto__` is a tool of the set, not the set's prototype.
    Object.defineProperty(set, entry.name, { enumerable: true, configurable: true, writable: true, value: {
      type: 'dynamic',
      ...(description ? { description } : {}),
      inputSchema: options.jsonSchema ? options.jsonSchema(schema) : schemaObject(schema),
      async execute(input, { toolCallId, abortSignal }) {
        const signals = [abortSignal, options.signal].filter((signal): signal is AbortSignal => signal !== undefined);
        const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
        const outcome = await runToolCall(host, { id: toolCallId, name: entry.name, arguments: input as JsonObject }, signal ? { signal } : {});
        // Cancelled: the SDK's own abort, not a tool result for the model.
        if (signal?.aborted) throw signal.reason;
        return toOutput(outcome);
      },
      toModelOutput(arg) {
        const output = isOutput(arg) ? arg : (arg as { output?: unknown } | undefined)?.output;
        return isOutput(output) ? aiSdkModelOutput(output) : { type: 'text', value: JSON.stringify(output) ?? '' };
      },
    } satisfies AiSdkTool });
  }
  return set;
}
