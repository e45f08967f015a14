/**
 * One user message answered by the configured model: the conversation sent
 * with every server's tools (the `/openai` adapter's Chat Completions tools),
 * the reply streamed into the transcript, its tool calls run through the host
 * (`runToolCalls`: in parallel, arguments checked against each tool's schema
 * first), their results shown and sent back, until the model answers without
 * tool calls or {@link MAX_ROUNDS} is reached.
 */
import type { McpClient } from '../../src/index.js';
import { chatCompletionsTools, outcomeText, runToolCalls, type OpenAiCompatibleConfig, type ToolCallOutcome } from '../../src/adapters/openai.js';
import type { CallToolResult, Tool } from '../../src/index.js';
import { streamChat, type ChatMessage } from './chat-llm.js';
import type { ChatServers } from './chat-servers.js';

/** A message of the transcript. */
export type Message =
  /** `via`: the MCP App whose `ui/message` this is (not typed by the user). */
  | { id: number; role: 'user'; text: string; via?: string }
  /** `streaming`: text is still arriving; `cut`: the reply stopped part way (Stop or an error), and the model never gets this part back. */
  | { id: number; role: 'assistant'; text: string; streaming?: boolean; cut?: boolean }
  | { id: number; role: 'tool-form'; name: string; tool: Tool; client: McpClient | undefined; arguments?: Record<string, unknown>; done?: boolean }
  | { id: number; role: 'tool-result'; tool: string; result: CallToolResult; definition?: Tool; client: McpClient | undefined; arguments?: Record<string, unknown> }
  /** The model's arguments failed the tool's schema: the tool was not called; its form can be opened with them. */
  | { id: number; role: 'invalid'; name: string; text: string; tool: Tool; client: McpClient | undefined; arguments: Record<string, unknown> | undefined }
  /** `restore`: the user's text that was not answered, offered back. */
  | { id: number; role: 'error'; text: string; restore?: string };

export type Draft = Message extends infer M ? (M extends Message ? Omit<M, 'id'> : never) : never;

/** What a turn needs of the page. */
export interface TurnUi {
  /** Adds a message and returns it (mutate it, then `update()`). */
  post<D extends Draft>(draft: D): D & { id: number };
  /** Takes a message out again (an empty bubble of a reply that only called tools). */
  drop(message: Message): void;
  update(): void;
}

/** Most model requests for one user message (each round: a reply, then its tool calls run). */
export const MAX_ROUNDS = 8;
/** Most characters of one tool result sent to the model. */
const MAX_TOOL_TEXT = 100_000;

function parsedArguments(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string') return text && typeof text === 'object' && !Array.isArray(text) ? (text as Record<string, unknown>) : undefined;
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function show(outcome: ToolCallOutcome, servers: ChatServers, ui: TurnUi): void {
  const name = outcome.call.name;
  const client = outcome.serverKey ? servers.clientOf(outcome.serverKey) : undefined;
  if (outcome.kind === 'result') ui.post({ role: 'tool-result', tool: name, result: outcome.result, definition: outcome.tool, client, arguments: outcome.arguments });
  else if (outcome.kind === 'invalid' && outcome.tool) ui.post({ role: 'invalid', name, text: `${name} was not called: ${outcome.message}`, tool: outcome.tool, client, arguments: parsedArguments(outcome.call.arguments) });
  else ui.post({ role: 'error', text: `${name} failed: ${offMessage(outcome, servers) ?? outcome.message}` });
}

/**
 * A call to a tool of a switched-off server failed as "no tool named…": says that the server is off
 * (the model called it; the user did nothing wrong), for the transcript and for the model.
 */
function offMessage(outcome: ToolCallOutcome, servers: ChatServers): string | undefined {
  if (outcome.kind !== 'error' || outcome.tool) return undefined;
  const server = servers.switchedOff(outcome.call.name);
  return server ? `the tool is on ${servers.label(server)}, which the user switched off in the settings.` : undefined;
}

/**
 * Answers the last user message of `conversation` (appending the model's
 * messages and the tool results to it). `via`: the message came from an MCP
 * App, not the user: the tools the model asks for are offered as forms, never
 * run unasked.
 *
 * @throws ModelError from the endpoint ({@link streamChat}); `round` in `progress` says how far it got.
 */
export async function modelTurn(
  config: OpenAiCompatibleConfig,
  conversation: ChatMessage[],
  servers: ChatServers,
  ui: TurnUi,
  options: { signal?: AbortSignal; via?: string; progress?: { round: number } } = {},
): Promise<void> {
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    if (options.progress) options.progress.round = round;
    const bubble: Extract<Message, { role: 'assistant' }> = ui.post({ role: 'assistant', text: '', streaming: true as boolean });
    let reply;
    try {
      reply = await streamChat(config, conversation, chatCompletionsTools(servers.modelHost), {
        ...(options.signal ? { signal: options.signal } : {}),
        onText: (piece) => {
          bubble.text += piece;
          ui.update();
        },
      });
    } finally {
      bubble.streaming = false;
      if (!bubble.text) ui.drop(bubble);
      // Half a reply is not an answer: it stays readable, marked, and is not sent back to the model.
      else if (!reply) bubble.cut = true;
      ui.update();
    }
    conversation.push({ role: 'assistant', content: reply.text || null, ...(reply.toolCalls.length ? { tool_calls: reply.toolCalls } : {}) });
    if (!reply.toolCalls.length) {
      if (!reply.text) ui.post({ role: 'assistant', text: '(The model sent an empty reply.)' });
      return;
    }
    if (options.via) {
      for (const call of reply.toolCalls) {
        const entry = servers.modelHost.resolve(call.function.name);
        if (entry) ui.post({ role: 'tool-form', name: entry.name, tool: entry.tool, client: servers.clientOf(entry.serverKey), arguments: parsedArguments(call.function.arguments) });
        conversation.push({ role: 'tool', tool_call_id: call.id, content: 'Not run: the request came from an app, not the user; the tool is offered to the user as a form.' });
      }
      ui.post({ role: 'assistant', text: `${options.via} asked for ${reply.toolCalls.map((call) => call.function.name).join(', ')}. Check the arguments and call it yourself if you want to.` });
      return;
    }
    const outcomes = await runToolCalls(
      servers.modelHost,
      reply.toolCalls.map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })),
      options.signal ? { signal: options.signal } : {},
    );
    for (const outcome of outcomes) {
      show(outcome, servers, ui);
      // Bounded: a tool's answer goes to the model whole only up to a size a context window takes.
      const off = offMessage(outcome, servers);
      conversation.push({ role: 'tool', tool_call_id: outcome.call.id, content: (off ? `Not called: ${off}` : outcomeText(outcome)).slice(0, MAX_TOOL_TEXT) });
    }
  }
  ui.post({ role: 'error', text: `Stopped after ${MAX_ROUNDS} rounds of tool calls without a final answer. Send another message to let the model go on.` });
}
