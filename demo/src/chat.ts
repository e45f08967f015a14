/**
 * The embedded chat sample: a transcript in which a message can invoke a tool
 * (from the tool menu or `/tool` syntax). Tool forms and input requests appear
 * inline in the conversation, and results are posted as messages. Replace
 * `model` (see chat-model.ts) to plug in a real LLM.
 */
import { html, nothing, render } from 'lit';
import '../../components/index.js';
import { appVisibility, configureAppFrames, type McpConnection, type McpElicitationDialog } from '../../components/index.js';
import type { CallToolResult, McpError, Tool } from '../../src/index.js';
import { routerModel, type ChatModel } from './chat-model.js';
import { deterministicDraft } from './sampling.js';
import { appSandboxUrl, initialServerUrl, isInBrowserServer, setupThemeToggle, startInBrowserServer } from './shared.js';

setupThemeToggle();
// MCP Apps run behind the sandbox proxy on the page's other loopback origin.
configureAppFrames({ sandboxUrl: appSandboxUrl() });

type Message =
  /** `via`: the MCP App whose `ui/message` this is (not typed by the user). */
  | { id: number; role: 'user'; text: string; via?: string }
  | { id: number; role: 'assistant'; text: string }
  | { id: number; role: 'tool-form'; tool: Tool; arguments?: Record<string, unknown>; done?: boolean }
  | { id: number; role: 'tool-result'; tool: string; result: CallToolResult; definition?: Tool; arguments?: Record<string, unknown> }
  | { id: number; role: 'error'; text: string };

/** The model hook: swap in a real LLM here. */
export let model: ChatModel = routerModel;
/** Replaces the model (for hosts experimenting in the console). */
export function setModel(next: ChatModel): void {
  model = next;
}

const messages: Message[] = [{ id: 0, role: 'assistant', text: 'Hi! Ask me for the weather in a city, to book a table, or type /help.' }];
let nextId = 1;
let tools: readonly Tool[] = [];
let busy = false;

const app = document.getElementById('app')!;
const connection = document.createElement('mcp-connection') as McpConnection;
const serverUrl = initialServerUrl();
// The demo server inside the browser (a static host): connect once its Service Worker answers.
if (isInBrowserServer(serverUrl)) {
  connection.noAutoConnect = true;
  void startInBrowserServer().then(
    () => connection.connect().catch(() => {}),
    (error: unknown) => console.error(error),
  );
}
connection.serverUrl = serverUrl;
// Declare MCP Apps support from the first request, so app tools are listed.
connection.apps = true;
connection.roots = [{ uri: 'file:///home/demo/projects/mcp-web-elements', name: 'mcp-web-elements' }];
const content = document.createElement('div');
content.className = 'chat';
const dialog = document.createElement('mcp-elicitation-dialog') as McpElicitationDialog;
dialog.inline = true;
dialog.samplingHandler = deterministicDraft;
// The dialog is rendered in the conversation, between the transcript and the message box (see
// update()), so a request shows above the sticky message box, never under it (issue 33).
connection.append(content);
app.append(connection);
// Each request it shows (a new round changes its size) is scrolled into view: above the message
// box, which html's scroll-padding-bottom keeps clear.
new ResizeObserver(() => {
  if (dialog.open) dialog.scrollIntoView({ block: 'nearest' });
}).observe(dialog);

/** Settles once the connection has listed its tools, or failed: a message sent before waits for it. */
let markListed!: () => void;
const listed = new Promise<void>((resolve) => (markListed = resolve));
connection.addEventListener('mcp-error', () => markListed());
connection.addEventListener('mcp-tools-changed', (event) => {
  // Tools only MCP Apps may call (_meta.ui.visibility ["app"]) are not the model's.
  tools = event.detail.tools.filter((tool) => appVisibility(tool).includes('model'));
  markListed();
  update();
});
// An app asks to say something in the conversation: it becomes the next message, marked as the
// app's. The app is not the user: a tool call it leads to is offered as a form, never run unasked
// (else an app could run, through the chat, tools its visibility and the frame's policy deny it).
connection.addEventListener('mcp-app-message', (event) => {
  event.preventDefault();
  const text = event.detail.content
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .filter(Boolean)
    .join('\n');
  const app = event.detail.app.appInfo?.name?.trim().slice(0, 80) || event.detail.app.tool?.title || event.detail.app.tool?.name || 'an app';
  if (text) void send(text, app);
});
/** What the app last wanted the model to know (a real model would get it with the next turn). */
export let appContext: unknown;
connection.addEventListener('mcp-app-model-context', (event) => {
  event.preventDefault();
  appContext = { content: event.detail.content, structuredContent: event.detail.structuredContent };
});
connection.addEventListener('mcp-connect', () => update());

type Draft = Message extends infer M ? (M extends Message ? Omit<M, 'id'> : never) : never;

function post(message: Draft): void {
  messages.push({ ...message, id: nextId++ } as Message);
  update();
  queueMicrotask(() => content.querySelector('.transcript li:last-child')?.scrollIntoView({ block: 'end' }));
}

async function callTool(name: string, args: Record<string, unknown>): Promise<void> {
  const client = connection.client;
  if (!client) return post({ role: 'error', text: 'Not connected to the server.' });
  busy = true;
  update();
  try {
    const result = await client.callTool(name, args);
    if (result.resultType !== 'input_required') post({ role: 'tool-result', tool: name, result: result as CallToolResult, definition: tools.find((t) => t.name === name), arguments: args });
  } catch (error) {
    post({ role: 'error', text: `${name} failed: ${(error as McpError).message}` });
  } finally {
    busy = false;
    update();
  }
}

/** Sends a message to the model; `via` names the app it came from, when it did not come from the user. */
async function send(text: string, via?: string): Promise<void> {
  post(via ? { role: 'user', text, via } : { role: 'user', text });
  // Typed while the page still connects: the model gets the tools, not "the server has no tools".
  await listed;
  let turn = await model({ text, tools });
  if (via && turn.kind === 'call') {
    turn = { kind: 'form', tool: turn.tool, arguments: turn.arguments, text: `${via} asked for ${turn.tool}. Check the arguments and call it yourself if you want to.` };
  }
  if (turn.text || turn.kind === 'reply') post({ role: 'assistant', text: turn.kind === 'reply' ? turn.text : turn.text! });
  if (turn.kind === 'call') await callTool(turn.tool, turn.arguments);
  else if (turn.kind === 'form') {
    const tool = tools.find((t) => t.name === turn.tool);
    if (tool) post({ role: 'tool-form', tool, arguments: turn.arguments });
  }
}

function onSubmit(event: SubmitEvent): void {
  event.preventDefault();
  const form = event.target as HTMLFormElement;
  const input = form.elements.namedItem('message') as HTMLInputElement;
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  void send(text);
}

function onPickTool(event: Event): void {
  const select = event.target as HTMLSelectElement;
  const tool = tools.find((t) => t.name === select.value);
  select.value = '';
  if (tool) post({ role: 'tool-form', tool });
}

function renderMessage(message: Message) {
  switch (message.role) {
    case 'user':
      return html`<li class="user"><span class="who">${message.via ? `From the app ${message.via}` : 'You'}</span><p>${message.text}</p></li>`;
    case 'assistant':
      return html`<li class="assistant"><span class="who">Assistant</span><p>${message.text}</p></li>`;
    case 'error':
      return html`<li class="assistant error"><span class="who">Assistant</span><p role="alert">${message.text}</p></li>`;
    case 'tool-form':
      return html`<li class="assistant tool">
        <span class="who">Tool · ${message.tool.title ?? message.tool.name}</span>
        <mcp-tool-form .tool=${message.tool} .arguments=${message.arguments} no-result
          @mcp-tool-result=${(e: CustomEvent) => {
            if (message.done) return;
            post({ role: 'tool-result', tool: message.tool.name, result: e.detail.result, definition: message.tool, arguments: e.detail.arguments });
          }}></mcp-tool-form>
      </li>`;
    case 'tool-result':
      return html`<li class="assistant tool"><span class="who">Result · ${message.tool}</span><mcp-tool-result .result=${message.result} .tool=${message.definition} .arguments=${message.arguments}></mcp-tool-result></li>`;
  }
}

function update(): void {
  render(
    html`<section class="conversation" aria-labelledby="chat-heading">
        <h2 id="chat-heading" class="visually-hidden">Conversation</h2>
        <ol class="transcript" aria-live="polite">
          ${messages.map(renderMessage)}
        </ol>
      </section>
      ${dialog}
      <form class="composer" @submit=${onSubmit}>
        <label class="visually-hidden" for="tool-menu">Use a tool</label>
        <select id="tool-menu" @change=${onPickTool} ?disabled=${tools.length === 0}>
          <option value="">Tools…</option>
          ${tools.map((t) => html`<option value=${t.name}>${t.title ?? t.name}</option>`)}
        </select>
        <label class="visually-hidden" for="message">Message</label>
        <input id="message" name="message" autocomplete="off" placeholder="Ask something, or /tool name {…}" />
        <button class="primary" type="submit">Send</button>
        ${busy ? html`<span class="muted" role="status">Working…</span>` : nothing}
      </form>`,
    content,
  );
}

update();
