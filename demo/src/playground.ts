/**
 * The playground: connect to any MCP server, browse and call its tools through
 * generated forms, answer its input requests, read resources, get prompts, and
 * watch the JSON-RPC traffic (the rounds of one multi round-trip call grouped).
 */
import { html, nothing, render } from 'lit';
import '../../components/index.js';
import { configureAppFrames, type McpConnection, type McpElicitationDialog } from '../../components/index.js';
import type { GetPromptResult, McpClient, Prompt, ReadResourceResult, Resource, ResourceTemplate, RoundEvent, Tool, TrafficEvent } from '../../src/index.js';
import { clip, stringifyBounded } from '../../components/internal/json.js';
import { appSandboxUrl, initialServerUrl, setupThemeToggle } from './shared.js';
import { deterministicDraft } from './sampling.js';
import { chooseValidatorFromQuery } from './validator.js';
import { setupStdioChoice } from './stdio-choice.js';

chooseValidatorFromQuery();

/**
 * What a server may make this page render is bounded too (issue 19): at most
 * this many tools, resources and prompts are listed at once (a filter finds
 * the others), and a protocol log entry is printed up to LOG_ENTRY_CHARS.
 */
const LISTED = 100;
const LOG_ENTRY_CHARS = 20_000;
setupThemeToggle();
// MCP Apps (tools with a UI) run behind the sandbox proxy on the page's other loopback origin.
configureAppFrames({ sandboxUrl: appSandboxUrl() });

interface LogEntry {
  id: number;
  time: number;
  direction: 'out' | 'in';
  summary: string;
  /** The JSON-RPC id the message belongs to; its call and round are known once the round ends. */
  requestId: string | number | undefined;
  json: string;
}

const state = {
  serverUrl: initialServerUrl(),
  tools: [] as readonly Tool[],
  selected: undefined as string | undefined,
  /** Filter of the tool list (name or title contains it, case-insensitively). */
  toolFilter: '',
  resources: [] as Resource[],
  templates: [] as ResourceTemplate[],
  prompts: [] as Prompt[],
  resourceResult: undefined as unknown,
  promptName: undefined as string | undefined,
  promptArgs: {} as Record<string, string>,
  promptResult: undefined as unknown,
  /** A call finished by the dialog after a reload (its form is gone). */
  resumed: undefined as { tool: string; result: unknown } | undefined,
  panelError: undefined as string | undefined,
  log: [] as LogEntry[],
};

const app = document.getElementById('app')!;
const urlInput = document.getElementById('server-url') as HTMLInputElement;
urlInput.value = state.serverUrl;

let connection: McpConnection;
const watchedAuth = new WeakSet<object>();

/** Adds a line of the page's own (not JSON-RPC) to the protocol log. */
function note(text: string): void {
  state.log.push({ id: nextLogId++, time: Date.now(), direction: 'in', summary: text, requestId: undefined, json: text });
  update();
}
let nextLogId = 1;
const roundOf = new Map<string | number, string>();

function summarize(event: TrafficEvent): string {
  const message = event.message as { method?: string; result?: { resultType?: string }; error?: { code: number; message: string }; id?: unknown };
  if (message.method) return `${message.method}${'id' in message ? ` #${String(message.id)}` : ''}`;
  if (message.error) return `error ${message.error.code} #${String(message.id)}: ${message.error.message}`;
  return `result #${String(message.id)}${message.result?.resultType === 'input_required' ? ' (input_required)' : ''}`;
}

function watch(client: McpClient): void {
  client.on('round', (event: RoundEvent) => {
    if (event.requestId !== undefined) roundOf.set(event.requestId, `call ${event.callId} · round ${event.round}`);
    update();
  });
  client.on('traffic', (event) => {
    // Printed only as far as it is shown: a 20 MB tools/list must not cost its full text.
    state.log.push({ id: nextLogId++, time: event.time, direction: event.direction, summary: clip(summarize(event), 200), requestId: event.requestId, json: stringifyBounded(event.message, LOG_ENTRY_CHARS).text });
    if (state.log.length > 400) state.log.splice(0, state.log.length - 400);
    update();
  });
}

async function loadSidePanels(client: McpClient): Promise<void> {
  const caps = client.server?.capabilities ?? {};
  state.panelError = undefined;
  try {
    [state.resources, state.templates, state.prompts] = await Promise.all([
      caps.resources ? client.listResources() : Promise.resolve([]),
      caps.resources ? client.listResourceTemplates() : Promise.resolve([]),
      caps.prompts ? client.listPrompts() : Promise.resolve([]),
    ]);
  } catch (error) {
    state.panelError = (error as Error).message;
  }
  update();
}

async function readResource(uri: string): Promise<void> {
  const client = connection.client;
  if (!client) return;
  try {
    const result = await client.readResource(uri);
    const contents = 'contents' in result ? (result as ReadResourceResult).contents : [];
    state.resourceResult = { content: contents.map((resource) => ({ type: 'resource', resource })) };
  } catch (error) {
    state.resourceResult = { content: [{ type: 'text', text: (error as Error).message }], isError: true };
  }
  update();
}

async function getPrompt(event: Event): Promise<void> {
  event.preventDefault();
  const client = connection.client;
  if (!client || !state.promptName) return;
  try {
    const result = await client.getPrompt(state.promptName, state.promptArgs);
    const messages = result.resultType === 'input_required' ? [] : (result as GetPromptResult).messages;
    state.promptResult = { content: messages.flatMap((m) => [{ type: 'text', text: `${m.role}:` }, m.content]) };
  } catch (error) {
    state.promptResult = { content: [{ type: 'text', text: (error as Error).message }], isError: true };
  }
  update();
}

function toolTitle(tool: Tool): string {
  const title = tool.title ?? tool.annotations?.title ?? tool.name;
  return typeof title === 'string' ? title : tool.name;
}

function toolList() {
  if (connection?.status !== 'connected') return html`<p class="muted">Not connected.</p>`;
  if (state.tools.length === 0) return html`<p class="muted">This server has no tools.</p>`;
  const needle = state.toolFilter.trim().toLowerCase();
  const matching: Tool[] = [];
  let total = 0;
  for (const tool of state.tools) {
    if (needle && !tool.name.toLowerCase().includes(needle) && !toolTitle(tool).toLowerCase().includes(needle)) continue;
    total++;
    if (matching.length < LISTED) matching.push(tool);
  }
  return html`${state.tools.length > 10
      ? html`<input
          type="search"
          class="tool-filter"
          aria-label="Filter tools"
          placeholder="Filter ${state.tools.length.toLocaleString('en')} tools"
          .value=${state.toolFilter}
          @input=${(e: Event) => ((state.toolFilter = (e.target as HTMLInputElement).value), update())}
        />`
      : nothing}
    <ul class="tool-list">
      ${matching.map(
        (tool) => html`<li>
          <button type="button" aria-pressed=${state.selected === tool.name} @click=${() => ((state.selected = tool.name), update())}>
            <span class="tool-title">${clip(toolTitle(tool), 120)}</span>
            ${tool.annotations?.destructiveHint ? html`<span class="badge">destructive</span>` : nothing}
          </button>
        </li>`,
      )}
    </ul>
    ${total > matching.length
      ? html`<p class="muted" role="status">${matching.length} of ${total.toLocaleString('en')} tools listed; filter to find the others.</p>`
      : needle && total === 0
        ? html`<p class="muted" role="status">No tool matches.</p>`
        : nothing}`;
}

function resourcesPanel() {
  return html`<section class="panel" aria-labelledby="resources-heading">
    <h2 id="resources-heading">Resources</h2>
    ${state.panelError ? html`<p role="alert">${state.panelError}</p>` : nothing}
    ${state.resources.length === 0 && state.templates.length === 0 ? html`<p class="muted">No resources.</p>` : nothing}
    <ul class="plain">
      ${state.resources.slice(0, LISTED).map((r) => html`<li><button type="button" @click=${() => readResource(r.uri)}>Read</button> ${clip(String(r.title ?? r.name), 120)} <code>${clip(r.uri, 200)}</code></li>`)}
    </ul>
    ${state.resources.length > LISTED ? html`<p class="muted">${LISTED} of ${state.resources.length.toLocaleString('en')} resources listed.</p>` : nothing}
    ${state.templates.length
      ? html`<p class="muted">Templates: ${state.templates.slice(0, LISTED).map((t) => html`<code>${clip(t.uriTemplate, 200)}</code> `)}</p>
          <form class="inline-form" @submit=${(e: Event) => {
            e.preventDefault();
            void readResource((e.target as HTMLFormElement).uri.value);
          }}>
            <label for="resource-uri">URI</label>
            <input id="resource-uri" name="uri" required value=${state.templates[0]!.uriTemplate.replace(/\{[^}]+\}/g, 'welcome')} />
            <button type="submit">Read</button>
          </form>`
      : nothing}
    ${state.resourceResult ? html`<mcp-tool-result .result=${state.resourceResult}></mcp-tool-result>` : nothing}
  </section>`;
}

function promptsPanel() {
  const prompt = state.prompts.find((p) => p.name === state.promptName);
  return html`<section class="panel" aria-labelledby="prompts-heading">
    <h2 id="prompts-heading">Prompts</h2>
    ${state.prompts.length === 0
      ? html`<p class="muted">No prompts.</p>`
      : html`<form class="stack" @submit=${getPrompt}>
          <label for="prompt-name">Prompt</label>
          <select id="prompt-name" @change=${(e: Event) => ((state.promptName = (e.target as HTMLSelectElement).value || undefined), (state.promptArgs = {}), update())}>
            <option value="">Choose a prompt…</option>
            ${state.prompts.slice(0, LISTED).map((p) => html`<option value=${p.name} ?selected=${p.name === state.promptName}>${clip(String(p.title ?? p.name), 120)}</option>`)}
          </select>
          ${prompt?.arguments?.slice(0, LISTED).map(
            (arg) => html`<label for="arg-${arg.name}">${arg.title ?? arg.name}${arg.required ? ' *' : ''}</label>
              <input id="arg-${arg.name}" ?required=${arg.required} .value=${state.promptArgs[arg.name] ?? ''} @input=${(e: Event) => (state.promptArgs[arg.name] = (e.target as HTMLInputElement).value)} />`,
          )}
          <button type="submit" ?disabled=${!prompt}>Get prompt</button>
        </form>`}
    ${state.promptResult ? html`<mcp-tool-result .result=${state.promptResult}></mcp-tool-result>` : nothing}
  </section>`;
}

function logPanel() {
  return html`<section class="panel log" aria-labelledby="log-heading">
    <div class="log-head">
      <h2 id="log-heading">Protocol log</h2>
      <button type="button" @click=${() => ((state.log = []), update())}>Clear</button>
    </div>
    <ol class="log-list" aria-live="off">
      ${state.log.map(
        (entry) => html`<li class=${entry.direction}>
          <details>
            <summary>
              <span class="arrow" aria-label=${entry.direction === 'out' ? 'sent' : 'received'}>${entry.direction === 'out' ? '→' : '←'}</span>
              <span class="summary">${entry.summary}</span>
              ${entry.requestId !== undefined && roundOf.has(entry.requestId) ? html`<span class="badge">${roundOf.get(entry.requestId)}</span>` : nothing}
            </summary>
            <pre>${entry.json}</pre>
          </details>
        </li>`,
      )}
    </ol>
  </section>`;
}

function update(): void {
  // The log follows new lines while the reader is at its end (not while they scroll back).
  const log = connection.querySelector<HTMLElement>('.log-list');
  const following = !log || log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  render(
    html`<div class="layout">
      <section class="panel tools" aria-labelledby="tools-heading">
        <h2 id="tools-heading">Tools</h2>
        ${toolList()}
      </section>
      <section class="panel call" aria-labelledby="call-heading">
        <h2 id="call-heading">${state.selected ? `Call ${clip(state.selected, 120)}` : 'Call a tool'}</h2>
        ${state.selected ? html`<mcp-tool-form tool-name=${state.selected}></mcp-tool-form>` : html`<p class="muted">Pick a tool on the left.</p>`}
        ${state.resumed
          ? html`<div class="resumed" role="status">
              <h3>Resumed call: ${state.resumed.tool}</h3>
              <mcp-tool-result .result=${state.resumed.result}></mcp-tool-result>
            </div>`
          : nothing}
      </section>
      ${resourcesPanel()} ${promptsPanel()} ${logPanel()}
    </div>`,
    connection.querySelector<HTMLElement>('.content')!,
  );
  const list = connection.querySelector<HTMLElement>('.log-list');
  if (list && following) list.scrollTop = list.scrollHeight;
}

function mountConnection(url: string): void {
  app.replaceChildren();
  connection = document.createElement('mcp-connection');
  connection.roots = [{ uri: 'file:///home/demo/projects/mcp-elements', name: 'mcp-elements' }];
  // Protected servers: sign in through a popup that returns to this callback page.
  connection.oauthRedirectUri = new URL('./oauth-callback.html', location.href).href;
  connection.serverUrl = url;
  const content = document.createElement('div');
  content.className = 'content';
  const dialog = document.createElement('mcp-elicitation-dialog') as McpElicitationDialog;
  dialog.samplingHandler = deterministicDraft;
  connection.append(content, dialog);
  connection.addEventListener('mcp-client-change', (event) => {
    watch(event.detail.client);
    const auth = connection.oauth;
    if (auth && !watchedAuth.has(auth)) {
      watchedAuth.add(auth);
      auth.on('token', ({ kind, session }) => note(`OAuth: ${kind === 'refreshed' ? 'token refreshed' : 'signed in'} (${session.tokenType}, scopes: ${session.scopes.join(' ') || 'none'})`));
      auth.on('status', ({ status, error }) => note(`OAuth: ${status.replace('_', ' ')}${error ? ` — ${error.message}` : ''}`));
    }
  });
  connection.addEventListener('mcp-connect', () => {
    void loadSidePanels(connection.client!);
    update();
  });
  connection.addEventListener('mcp-tools-changed', (event) => {
    state.tools = event.detail.tools;
    if (state.selected && !state.tools.some((t) => t.name === state.selected)) state.selected = undefined;
    update();
  });
  connection.addEventListener('mcp-error', () => update());
  dialog.addEventListener('mcp-tool-result', (event) => {
    state.resumed = { tool: event.detail.tool, result: event.detail.result };
    update();
  });
  connection.addEventListener('mcp-disconnect', () => update());
  app.append(connection);
  update();
}

document.getElementById('server-form')!.addEventListener('submit', (event) => {
  event.preventDefault();
  state.serverUrl = urlInput.value.trim();
  Object.assign(state, { tools: [], selected: undefined, toolFilter: '', resources: [], templates: [], prompts: [], resourceResult: undefined, promptResult: undefined, log: [] });
  mountConnection(state.serverUrl);
});

mountConnection(state.serverUrl);

// A stdio server through the bridge: its URL goes through the same form.
setupStdioChoice(document.getElementById('stdio-choice') as HTMLButtonElement, (url) => {
  urlInput.value = url;
  (document.getElementById('server-form') as HTMLFormElement).requestSubmit();
});
