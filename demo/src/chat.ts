/**
 * The embedded chat sample: a transcript over several MCP servers (the demo
 * server and any added in the settings), joined into one tool catalogue by
 * `McpHost`. With an OpenAI-compatible endpoint configured (chat-settings.ts)
 * a model answers, streaming, and calls the tools (chat-turns.ts); without one
 * a phrase router does (chat-model.ts), so the page works with no key. Tool
 * forms, results, MCP Apps and input requests appear inline.
 */
import { html, nothing, render } from 'lit';
import '../../components/index.js';
import { configureAppFrames } from '../../components/index.js';
import type { McpError } from '../../src/index.js';
import { openAiSampling, type OpenAiCompatibleConfig } from '../../src/adapters/openai.js';
import { routerModel, type ChatModel } from './chat-model.js';
import { ModelError, type ChatMessage } from './chat-llm.js';
import { ChatServers } from './chat-servers.js';
import { loadModelSettings, loadServerUrls, modelSettingsProblem, renderSettings, saveModelSettings, saveServerUrls, serverUrlProblem, type ModelSettings } from './chat-settings.js';
import { modelTurn, type Draft, type Message } from './chat-turns.js';
import { deterministicDraft } from './sampling.js';
import { appSandboxUrl, initialServerUrl, isInBrowserServer, setupThemeToggle, startInBrowserServer } from './shared.js';

setupThemeToggle();
// MCP Apps run behind the sandbox proxy on the page's other loopback origin.
configureAppFrames({ sandboxUrl: appSandboxUrl() });

/** The model hook when no endpoint is configured: swap in another here. */
export let model: ChatModel = routerModel;
/** Replaces the model (for hosts experimenting in the console). */
export function setModel(next: ChatModel): void {
  model = next;
}

const GREETING = 'Hi! Ask me for the weather in a city, to book a table, or type /help.';
const messages: Message[] = [{ id: 0, role: 'assistant', text: GREETING }];
let nextId = 1;
let busy = false;
/** The model's conversation (Chat Completions messages), kept across messages. */
const conversation: ChatMessage[] = [];
let settings: ModelSettings | undefined = loadModelSettings();
let serverProblem: string | undefined;
let modelProblem: string | undefined;
/** Stops the running model turn. */
let stopTurn: AbortController | undefined;

const app = document.getElementById('app')!;
const settingsPanel = document.createElement('div');
const statusBars = document.createElement('div');
statusBars.className = 'servers';
const content = document.createElement('div');
content.className = 'chat';
app.append(settingsPanel, statusBars, content);

/** Set once the page's state below exists: servers added before then render with the first update. */
let ready = false;
const servers = new ChatServers(statusBars, () => ready && update());
const serverUrl = initialServerUrl();
const demo = servers.add(serverUrl, {
  demo: true,
  roots: [{ uri: 'file:///home/demo/projects/mcp-web-elements', name: 'mcp-web-elements' }],
  connect: !isInBrowserServer(serverUrl),
});
// The demo server inside the browser (a static host): connect once its Service Worker answers.
if (isInBrowserServer(serverUrl)) {
  void startInBrowserServer().then(
    () => demo.connection.connect().catch(() => {}),
    (error: unknown) => console.error(error),
  );
}
for (const url of loadServerUrls()) servers.add(url);

/** The endpoint's configuration, or undefined when the phrase router answers. */
function endpoint(): OpenAiCompatibleConfig | undefined {
  return settings ? { baseUrl: settings.baseUrl, model: settings.model, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) } : undefined;
}
/** Sampling requests get the configured model's draft (still shown for approval), else the deterministic one. */
const applySampling = () => {
  const config = endpoint();
  servers.samplingHandler = config ? openAiSampling(config) : deterministicDraft;
};
applySampling();

// Each request a dialog shows (a new round changes its size) is scrolled into view: above the
// message box, which html's scroll-padding-bottom keeps clear.
const resized = new ResizeObserver((entries) => {
  for (const entry of entries) if ((entry.target as HTMLElement & { open?: boolean }).open) entry.target.scrollIntoView({ block: 'nearest' });
});

/** Settles once the demo server has listed its tools, or failed: a message sent before waits for it. */
let markListed!: () => void;
const listed = new Promise<void>((resolve) => (markListed = resolve));
demo.connection.addEventListener('mcp-error', () => markListed());
servers.host.on('toolsChanged', () => {
  if (servers.host.servers.some((server) => server.key === demo.key)) markListed();
});
servers.host.on('serverError', ({ key }) => key === demo.key && markListed());

// An app asks to say something in the conversation: it becomes the next message, marked as the
// app's. The app is not the user: a tool call it leads to is offered as a form, never run unasked
// (else an app could run, through the chat, tools its visibility and the frame's policy deny it).
content.addEventListener('mcp-app-message', (event) => {
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
content.addEventListener('mcp-app-model-context', (event) => {
  event.preventDefault();
  appContext = { content: event.detail.content, structuredContent: event.detail.structuredContent };
});

const ui = {
  post<D extends Draft>(draft: D): D & { id: number } {
    const message = { ...draft, id: nextId++ };
    messages.push(message as unknown as Message);
    update();
    queueMicrotask(() => {
      const li = content.querySelector<HTMLElement>('.transcript li:last-child');
      li?.scrollIntoView({ block: 'end' });
      if (li && draft.role === 'tool-form') followForm(li);
    });
    return message;
  },
  drop(message: Message): void {
    const index = messages.indexOf(message);
    if (index >= 0) messages.splice(index, 1);
  },
  update: () => update(),
};
const post = (draft: Draft) => void ui.post(draft);

/**
 * A tool form renders after it is posted (its first render is light, the fields come later): as it
 * grows it is kept in view, whole if it fits above the composer, else from its top, until the user
 * takes over (a focus inside it, a scroll by wheel or touch) or another message comes.
 */
function followForm(li: HTMLElement): void {
  const place = () => {
    const room = innerHeight - (content.querySelector('.composer')?.getBoundingClientRect().height ?? 0);
    li.scrollIntoView({ block: li.getBoundingClientRect().height <= room ? 'end' : 'start' });
  };
  const observer = new ResizeObserver(() => (li === content.querySelector('.transcript li:last-child') ? place() : stop()));
  const stop = () => {
    observer.disconnect();
    li.removeEventListener('focusin', stop);
    removeEventListener('wheel', stop);
    removeEventListener('touchmove', stop);
  };
  observer.observe(li);
  li.addEventListener('focusin', stop);
  addEventListener('wheel', stop, { passive: true });
  addEventListener('touchmove', stop, { passive: true });
}

/** The composer's text box (a textarea: a message put back keeps what was typed since, below it). */
const composerInput = () => content.querySelector<HTMLTextAreaElement>('#message');

/** Puts the user's unanswered text back in the message box (unless they typed something new). */
function restore(text: string): boolean {
  const input = composerInput();
  if (!input || input.value.trim()) return false;
  input.value = text;
  input.focus();
  return true;
}

/**
 * The error's "Put my message back" button: the text returns to the message box (once). Nothing
 * typed is lost: text typed since goes below it, after a blank line.
 */
function putBack(message: Extract<Message, { role: 'error' }>): void {
  const input = composerInput();
  if (!input || message.restore === undefined) return;
  const typed = input.value.trim();
  input.value = typed ? `${message.restore}\n\n${typed}` : message.restore;
  input.focus();
  delete message.restore;
  update();
}

async function callTool(name: string, args: Record<string, unknown>): Promise<void> {
  const entry = servers.resolve(name);
  if (!entry) return post({ role: 'error', text: `There is no tool named "${name}" on the servers.` });
  busy = true;
  update();
  try {
    const result = await servers.host.callTool(name, args as never);
    if (result.resultType !== 'input_required') post({ role: 'tool-result', tool: name, result: result as never, definition: entry.tool, client: servers.clientOf(entry.serverKey), arguments: args });
  } catch (error) {
    post({ role: 'error', text: `${name} failed: ${(error as McpError).message}` });
  } finally {
    busy = false;
    update();
  }
}

/** Shows a tool's form (by its model name), pre-filled with `args`. */
function offerForm(name: string, args?: Record<string, unknown>): void {
  const entry = servers.resolve(name);
  if (entry) post({ role: 'tool-form', name, tool: entry.tool, client: servers.clientOf(entry.serverKey), ...(args ? { arguments: args } : {}) });
}

/** The configured model answers (streaming; tools run through the host). */
async function askModel(config: OpenAiCompatibleConfig, text: string, via?: string): Promise<void> {
  const mark = conversation.length;
  conversation.push({ role: 'user', content: via ? `(Sent by the app ${via}, not typed by the user.) ${text}` : text });
  const progress = { round: 0 };
  stopTurn = new AbortController();
  busy = true;
  update();
  try {
    await modelTurn(config, conversation, servers, ui, { signal: stopTurn.signal, progress, ...(via ? { via } : {}) });
  } catch (error) {
    const problem = error instanceof ModelError ? error.message : `The chat failed: ${(error as Error).message}`;
    // Nothing was done for the message yet: it is taken back, so sending it again is a clean retry.
    const untouched = progress.round <= 1;
    if (untouched) conversation.length = mark;
    else conversation.push({ role: 'user', content: '(The previous answer was cut off by an error.)' });
    const back = untouched && !via && restore(text);
    post({ role: 'error', text: `${problem}${back ? ' Your message is back in the message box.' : ''}`, ...(untouched && !via && !back ? { restore: text } : {}) });
  } finally {
    stopTurn = undefined;
    busy = false;
    update();
  }
}

/** The label of the switched-off server with a tool named `name`, if there is one. */
function switchedOffLabel(name: string): string | undefined {
  const server = servers.switchedOff(name);
  return server && servers.label(server);
}

/** Sends a message to the model; `via` names the app it came from, when it did not come from the user. */
async function send(text: string, via?: string): Promise<void> {
  post(via ? { role: 'user', text, via } : { role: 'user', text });
  // Typed while the page still connects: the model gets the tools, not "the server has no tools".
  await listed;
  const config = endpoint();
  // Settings saved before a model name was required: nothing is sent without one.
  const problem = modelSettingsProblem(settings);
  if (problem) return post({ role: 'error', text: `Not sent: ${problem}` });
  if (config) return askModel(config, text, via);
  let turn = await model({ text, tools: servers.modelTools(), switchedOff: switchedOffLabel });
  if (via && turn.kind === 'call') {
    turn = { kind: 'form', tool: turn.tool, arguments: turn.arguments, text: `${via} asked for ${turn.tool}. Check the arguments and call it yourself if you want to.` };
  }
  if (turn.text || turn.kind === 'reply') post({ role: 'assistant', text: turn.kind === 'reply' ? turn.text : turn.text! });
  if (turn.kind === 'call') await callTool(turn.tool, turn.arguments);
  else if (turn.kind === 'form') offerForm(turn.tool, turn.arguments);
}

function onSubmit(event: SubmitEvent): void {
  event.preventDefault();
  const input = composerInput()!;
  const text = input.value.trim();
  if (!text || stopTurn) return;
  input.value = '';
  void send(text);
}

/** Enter sends, Shift+Enter starts a new line (as in most chats). */
function onComposerKey(event: KeyboardEvent): void {
  if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  (event.target as HTMLTextAreaElement).form?.requestSubmit();
}

function onPickTool(event: Event): void {
  const select = event.target as HTMLSelectElement;
  const name = select.value;
  select.value = '';
  if (name) offerForm(name);
}

const settingsActions = {
  saveModel(next: ModelSettings | undefined): void {
    // Settings that cannot work are not saved: the panel says why, the chat keeps the last good ones.
    modelProblem = modelSettingsProblem(next);
    if (modelProblem) return update();
    settings = next;
    saveModelSettings(next);
    applySampling();
    update();
  },
  addServer(url: string): string | undefined {
    serverProblem = serverUrlProblem(url) ?? (servers.list.some((server) => server.url === url) ? 'That server is already in the chat.' : undefined);
    if (!serverProblem) {
      servers.add(url);
      saveServerUrls(servers.list.filter((server) => !server.demo).map((server) => server.url));
    }
    update();
    return serverProblem;
  },
  removeServer(key: string): void {
    servers.remove(key);
    saveServerUrls(servers.list.filter((server) => !server.demo).map((server) => server.url));
  },
  setEnabled: (key: string, enabled: boolean) => servers.setEnabled(key, enabled),
};

function renderMessage(message: Message) {
  switch (message.role) {
    case 'user':
      return html`<li class="user"><span class="who">${message.via ? `From the app ${message.via}` : 'You'}</span><p>${message.text}</p></li>`;
    case 'assistant':
      return html`<li class="assistant ${message.cut ? 'cut' : ''}" aria-busy=${message.streaming ? 'true' : 'false'}><span class="who">Assistant${message.cut ? ' (cut off: not part of the conversation)' : ''}</span><p>${message.text}</p></li>`;
    case 'error':
      // Not the model talking: labelled and styled as a problem of the page, the endpoint or a server.
      return html`<li class="error"><span class="who">Error</span><p role="alert">${message.text}</p>
        ${message.restore !== undefined
          ? html`<button type="button" @click=${() => putBack(message)}>Put my message back</button>`
          : nothing}</li>`;
    case 'invalid':
      return html`<li class="error invalid"><span class="who">Problem with the tool call · ${message.tool.title ?? message.name}</span><p role="alert">${message.text}</p>
        <button type="button" @click=${() => offerForm(message.name, message.arguments)}>Open form</button></li>`;
    case 'tool-form':
      return html`<li class="assistant tool">
        <span class="who">Tool · ${message.tool.title ?? message.tool.name}</span>
        <mcp-tool-form .tool=${message.tool} .client=${message.client} .arguments=${message.arguments} no-result
          @mcp-tool-result=${(e: CustomEvent) => {
            if (message.done) return;
            post({ role: 'tool-result', tool: message.name, result: e.detail.result, definition: message.tool, client: message.client, arguments: e.detail.arguments });
          }}></mcp-tool-form>
      </li>`;
    case 'tool-result':
      return html`<li class="assistant tool"><span class="who">Result · ${message.tool}</span><mcp-tool-result .result=${message.result} .tool=${message.definition} .client=${message.client} .arguments=${message.arguments}></mcp-tool-result></li>`;
  }
}

function update(): void {
  const tools = servers.modelTools();
  renderSettings(
    settingsPanel,
    {
      model: settings,
      servers: servers.list.map((server) => ({ key: server.key, url: server.url, label: servers.label(server), removable: !server.demo, enabled: server.enabled, status: servers.status(server) })),
      ...(serverProblem ? { serverProblem } : {}),
      ...(modelProblem ? { modelProblem } : {}),
    },
    settingsActions,
  );
  for (const server of servers.list) resized.observe(server.dialog);
  render(
    html`<section class="conversation" aria-labelledby="chat-heading">
        <h2 id="chat-heading" class="visually-hidden">Conversation</h2>
        <ol class="transcript" aria-live="polite">
          ${messages.map(renderMessage)}
        </ol>
      </section>
      ${servers.list.map((server) => server.dialog)}
      <form class="composer" @submit=${onSubmit}>
        <label class="visually-hidden" for="tool-menu">Use a tool</label>
        <select id="tool-menu" @change=${onPickTool} ?disabled=${tools.length === 0}>
          <option value="">Tools…</option>
          ${tools.map((t) => html`<option value=${t.name}>${t.title ?? t.name}</option>`)}
        </select>
        <label class="visually-hidden" for="message">Message</label>
        <textarea id="message" name="message" rows="1" autocomplete="off" @keydown=${onComposerKey}
          placeholder=${settings ? 'Ask the model something' : 'Ask something, or /tool name {…}'}></textarea>
        <button class="primary" type="submit" ?disabled=${stopTurn !== undefined}>Send</button>
        ${stopTurn ? html`<button type="button" @click=${() => stopTurn?.abort()}>Stop</button>` : nothing}
        ${busy ? html`<span class="muted" role="status">Working…</span>` : nothing}
      </form>`,
    content,
  );
}

ready = true;
update();
