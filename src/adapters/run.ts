/**
 * Running a model's tool calls through a host, whatever the chat format: the
 * arguments parsed (a model writes JSON text), mapped back from strict mode,
 * checked against the tool's `inputSchema` (arguments that fail are not sent:
 * the problems go back to the model as the tool's error), the call routed by
 * the host, and its result as text and media for the model. One turn's calls
 * run in parallel; none throws.
 *
 * @module
 */
import type { McpHost } from '../host/host.js';
import { McpError, isAbortError } from '../protocol/errors.js';
import { isObject, type CallToolResult, type ContentBlock, type JsonObject, type Tool } from '../protocol/types.js';
import type { InputRequiredOptions } from '../rounds/options.js';
import { compileSchema, type ValidationIssue } from '../schema/schema.js';
import { restoreArguments } from './schema-convert.js';

/** What the adapters need of a host: its catalogue and its calls ({@link McpHost} has them). */
export type ToolHost = Pick<McpHost, 'tools' | 'resolve' | 'callTool'>;

/** One tool call a model made, in any format. */
export interface ModelToolCall {
  /** The format's id of the call (`tool_call_id`, `call_id`, `tool_use_id`). */
  id: string;
  /** The model name of the tool (see {@link McpHost.tools}). */
  name: string;
  /** The arguments: JSON text as OpenAI sends them, or an object as Anthropic and the AI SDK do. */
  arguments: string | JsonObject | undefined;
}

/** Options of running tool calls. */
export interface RunToolCallsOptions {
  /** Cancels the calls (e.g. the chat's stop button, or the AI SDK's `abortSignal`). */
  signal?: AbortSignal;
  /** The tools were offered in strict mode: `null`s for optional properties are removed before validation. */
  strict?: boolean;
  /** More options for each `callTool` (progress, rounds…). */
  callOptions?: Omit<InputRequiredOptions, 'signal'>;
}

/** How one call ended. */
export type ToolCallOutcome =
  | { kind: 'result'; call: ModelToolCall; serverKey: string; tool: Tool; arguments: JsonObject; result: CallToolResult }
  /** The arguments were not JSON, not an object, or failed the tool's `inputSchema`: the tool was not called. */
  | { kind: 'invalid'; call: ModelToolCall; serverKey?: string; tool?: Tool; message: string; issues: ValidationIssue[] }
  /** The call failed (unknown tool, network, declined input, aborted…). */
  | { kind: 'error'; call: ModelToolCall; serverKey?: string; tool?: Tool; message: string; error: unknown };

/** Most tool names listed for the model when it calls one there is not (the rest are counted). */
const MAX_LISTED_TOOLS = 100;
/** Most validation problems listed for the model (the rest are counted). */
const MAX_LISTED_ISSUES = 10;

/** Runs one call; never throws (see {@link ToolCallOutcome}). */
export async function runToolCall(host: ToolHost, call: ModelToolCall, options: RunToolCallsOptions = {}): Promise<ToolCallOutcome> {
  const entry = host.resolve(call.name);
  if (!entry) {
    // The model's name is cut and the list bounded: a message that goes back to the model each time it guesses wrong.
    const names = host.tools.slice(0, MAX_LISTED_TOOLS).map((tool) => tool.name);
    const more = host.tools.length > MAX_LISTED_TOOLS ? ` and ${host.tools.length - MAX_LISTED_TOOLS} more` : '';
    const name = String(call.name).slice(0, 100);
    return { kind: 'error', call, message: `There is no tool named "${name}". Available tools: ${names.join(', ') || 'none'}${more}.`, error: undefined };
  }
  const about = { serverKey: entry.serverKey, tool: entry.tool };
  let args: unknown = call.arguments ?? {};
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : JSON.parse(args);
    } catch (error) {
      return { kind: 'invalid', call, ...about, message: `The arguments are not valid JSON: ${(error as Error).message}`, issues: [] };
    }
  }
  if (!isObject(args)) return { kind: 'invalid', call, ...about, message: 'The arguments must be a JSON object.', issues: [] };
  if (options.strict) args = restoreArguments(args, entry.tool.inputSchema);
  try {
    const check = (await compileSchema(entry.tool.inputSchema))(args);
    if (!check.valid) {
      const listed = check.issues.slice(0, MAX_LISTED_ISSUES).map((issue) => `${issue.path || '(arguments)'}: ${issue.message}`);
      const more = check.issues.length > MAX_LISTED_ISSUES ? `; and ${check.issues.length - MAX_LISTED_ISSUES} more` : '';
      return { kind: 'invalid', call, ...about, message: `The arguments do not match the tool's input schema, so the tool was not called: ${listed.join('; ')}${more}.`, issues: check.issues };
    }
  } catch {
    // A schema the kit cannot compile (over its bounds, unsupported dialect): the server checks the arguments itself.
  }
  try {
    const result = await host.callTool(call.name, args as JsonObject, { ...options.callOptions, inputRequired: 'auto', ...(options.signal ? { signal: options.signal } : {}) });
    return { kind: 'result', call, ...about, arguments: args as JsonObject, result: result as CallToolResult };
  } catch (error) {
    const message = isAbortError(error) ? 'The call was cancelled.' : McpError.isInstance(error) ? error.message : `The call failed: ${(error as Error)?.message ?? String(error)}`;
    return { kind: 'error', call, ...about, message, error };
  }
}

/** Runs one model turn's calls in parallel, in the order given; never throws. */
export function runToolCalls(host: ToolHost, calls: readonly ModelToolCall[], options: RunToolCallsOptions = {}): Promise<ToolCallOutcome[]> {
  return Promise.all(calls.map((call) => runToolCall(host, call, options)));
}

/** A piece of a tool's answer for a model: text, or media it may see. */
export type ModelPart = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** Whether the outcome is an error for the model (`isError`, invalid arguments, a failed call). */
export const isErrorOutcome = (outcome: ToolCallOutcome): boolean => outcome.kind !== 'result' || outcome.result.isError === true;

/**
 * The outcome as parts for a model: each text block; images as images when the
 * format takes them (`images`), else a short note; audio and binary resources
 * as a note; embedded text resources as their text; resource links as their
 * name and URI; `structuredContent` as JSON when there is no text beside it.
 */
export function outcomeParts(outcome: ToolCallOutcome, images: boolean): ModelPart[] {
  return outcome.kind === 'result' ? resultParts(outcome.result, images) : [{ type: 'text', text: outcome.message }];
}

/** The image types chat APIs accept as input (Anthropic's `media_type` is exactly these; OpenAI's are the same). */
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A tool result as parts for a model (see {@link outcomeParts}). */
export function resultParts(result: Pick<CallToolResult, 'content' | 'structuredContent' | 'isError'>, images: boolean): ModelPart[] {
  const parts: ModelPart[] = [];
  const content: ContentBlock[] = Array.isArray(result.content) ? result.content : [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image' && typeof block.data === 'string' && typeof block.mimeType === 'string') {
      const mimeType = block.mimeType.toLowerCase();
      // Only what every chat API takes as an image: one it refuses (SVG, BMP, not base64) fails the whole request.
      const seen = images && MODEL_IMAGE_TYPES.has(mimeType) && BASE64.test(block.data);
      parts.push(seen ? { type: 'image', data: block.data, mimeType } : { type: 'text', text: `[image: ${block.mimeType}, shown to the user]` });
    } else if (block.type === 'audio') parts.push({ type: 'text', text: `[audio: ${String(block.mimeType)}, offered to the user]` });
    else if (block.type === 'resource_link') parts.push({ type: 'text', text: `[resource: ${String(block.title ?? block.name)} ${String(block.uri)}]` });
    else if (block.type === 'resource' && isObject(block.resource)) {
      const resource = block.resource;
      parts.push({ type: 'text', text: typeof resource.text === 'string' ? resource.text : `[resource: ${String(resource.uri)}, ${String(resource.mimeType ?? 'binary')}]` });
    }
  }
  const structured = result.structuredContent;
  if (structured !== undefined && !parts.some((part) => part.type === 'text')) parts.unshift({ type: 'text', text: JSON.stringify(structured) });
  if (!parts.length) parts.push({ type: 'text', text: result.isError ? 'The tool failed without a message.' : 'The tool returned no content.' });
  return parts;
}

/** The outcome as one text (for formats whose tool results are text only). */
export function outcomeText(outcome: ToolCallOutcome): string {
  const text = outcomeParts(outcome, false)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
  return outcome.kind === 'result' && outcome.result.isError ? `Error: ${text}` : text;
}
