/**
 * The playground: an everyday MCP inspector built from the kit's tags. Each
 * connection is a tab with its own settings (era, timeouts, custom headers, a
 * bearer token), `<mcp-connection>`, a searchable tool list, `<mcp-tool-form>`,
 * `<mcp-resource-list>`, `<mcp-prompt-form>`, `<mcp-roots-editor>` and
 * `<mcp-protocol-log>`, and a Tasks panel (the tasks of long-running calls,
 * picked up after a reload). Servers used are remembered (IndexedDB; credentials only
 * when asked); the active server and tool are written to the page's URL
 * (`?server=…&tool=…`), so a link reproduces the view. With no server chosen, a
 * static build talks to the demo server running inside the browser.
 */
import { html, nothing, render, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import '../../components/index.js';
import { configureAppFrames, type McpProtocolLog } from '../../components/index.js';
import { clip } from '../../components/internal/json.js';
import { isSecretParam, maskUrlSecrets } from '../../src/protocol/errors.js';
import type { McpClient, ProtocolPreference, TaskEvent, TaskStatus, Tool } from '../../src/index.js';
import { appSandboxUrl, initialServerUrl, inBrowserServerUrl, isInBrowserServer, setupThemeToggle, startInBrowserServer } from './shared.js';
import { deterministicDraft } from './sampling.js';
import { forgetServer, loadServers, rememberServer, type SavedServer } from './servers.js';
import { chooseValidatorFromQuery } from './validator.js';
import { setupStdioChoice } from './stdio-choice.js';
import { appGrantsPanel } from './app-grants.js';

chooseValidatorFromQuery();
setupThemeToggle();
// MCP Apps (tools with a UI) run behind the sandbox proxy on the page's other loopback origin.
configureAppFrames({ sandboxUrl: appSandboxUrl() });

/**
 * What a server may make this page render is bounded (issue 19): at most this
 * many tools (the search finds the others) and tasks are listed at once; the
 * inspector elements bound their own lists and log entries.
 */
const LISTED = 100;
const ANNOTATION_BADGES = [
  ['readOnlyHint', 'read-only'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'open world'],
] as const;

/** Settings of one connection, as the form edits them. */
interface Settings {
  url: string;
  name: string;
  protocol: ProtocolPreference;
  /** Seconds, as typed ('' for the default). */
  requestTimeout: string;
  maxTotalTime: string;
  headers: [string, string][];
  token: string;
  remember: boolean;
}

/** Characters of a server's name or title shown on its tab and kept in the saved list. */
const TITLE_CHARS = 80;

const defaults = (url: string): Settings => ({ url, name: '', protocol: 'auto', requestTimeout: '', maxTotalTime: '', headers: [], token: '', remember: false });

let nextId = 1;
let servers: SavedServer[] = [];
const workspaces: Workspace[] = [];
let active: Workspace | undefined;
const app = document.getElementById('app')!;

/** A task of a connection, as the Tasks panel lists it. */
interface TaskRow {
  taskId: string;
  tool: string | undefined;
  status: TaskStatus;
  statusMessage: string | undefined;
  startedAt: number;
  /** Left running by an earlier page (picked up from storage). */
  earlier: boolean;
  /** What the client last reported (detached, lost, error…), when it is not just a status. */
  note?: string;
}

const TASK_NOTES: Partial<Record<TaskEvent['phase'], string>> = {
  detached: 'detached: still running at the server',
  lost: 'no longer known to the server',
  error: 'stopped waiting',
  paused: 'polling paused while the page is hidden',
};

function ago(time: number): string {
  const minutes = Math.floor((Date.now() - time) / 60_000);
  return minutes < 1 ? 'just now' : minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ago`;
}

/** One open connection: its settings, its elements and what the page shows about them. */
class Workspace {
  readonly id = nextId++;
  settings: Settings;
  /** The settings in force (the form may hold edits not applied yet). */
  applied: Settings;
  tools: readonly Tool[] = [];
  selected: string | undefined;
  filter = '';
  ping = '';
  error = '';
  resumed: { tool: string; result: unknown } | undefined;
  /** The connection's tasks (client task events, and those an earlier page left running). */
  tasks = new Map<string, TaskRow>();
  tasksError: string | undefined;
  settingsOpen: boolean;
  readonly panel = document.createElement('div');
  readonly connection = document.createElement('mcp-connection');
  readonly content = document.createElement('div');

  constructor(settings: Settings, selected?: string) {
    this.settings = { ...settings, headers: settings.headers.map(([k, v]) => [k, v]) };
    // Edits in the form change `settings` only; `applied` changes on Connect.
    this.applied = { ...this.settings, headers: this.settings.headers.map(([k, v]) => [k, v]) };
    this.selected = selected;
    this.settingsOpen = !settings.url;
    this.panel.id = `panel-${this.id}`;
    this.panel.className = 'workspace';
    this.panel.setAttribute('role', 'tabpanel');
    this.panel.setAttribute('aria-labelledby', `tab-${this.id}`);
    const connection = this.connection;
    connection.noAutoConnect = true;
    connection.roots = [{ uri: 'file:///home/demo/projects/mcp-web-elements', name: 'mcp-web-elements' }];
    this.content.className = 'content';
    const dialog = document.createElement('mcp-elicitation-dialog');
    dialog.samplingHandler = deterministicDraft;
    dialog.addEventListener('mcp-tool-result', (event) => {
      this.resumed = { tool: event.detail.tool, result: event.detail.result };
      this.update();
    });
    connection.append(this.content, dialog);
    connection.addEventListener('mcp-client-change', (event) => {
      this.#watchAuth();
      this.#watchTasks(event.detail.client);
    });
    connection.addEventListener('mcp-connect', () => {
      this.error = '';
      this.settingsOpen = false;
      void this.#remember();
      void this.#loadStoredTasks();
      updateTabs();
      this.update();
    });
    connection.addEventListener('mcp-tools-changed', (event) => {
      this.tools = event.detail.tools;
      if (this.selected && !this.tools.some((t) => t.name === this.selected)) this.selected = undefined;
      this.update();
    });
    connection.addEventListener('mcp-error', () => this.update());
    connection.addEventListener('mcp-disconnect', () => this.update());
  }

  get title(): string {
    const info = this.connection.serverInfo;
    if (this.applied.name) return this.applied.name;
    if (isInBrowserServer(this.applied.url)) return 'Demo (in this browser)';
    // The server's own words, on the tab and in the saved list (IndexedDB): cut, since a hostile server may send megabytes.
    if (info) return clip(String(info.title ?? info.name), TITLE_CHARS);
    try {
      return new URL(this.applied.url).host || 'New connection';
    } catch {
      return this.applied.url || 'New connection';
    }
  }

  get log(): McpProtocolLog | null {
    return this.content.querySelector('mcp-protocol-log');
  }

  #taskClients = new WeakSet<object>();
  #watchTasks(client: McpClient | undefined): void {
    if (!client || this.#taskClients.has(client)) return;
    this.#taskClients.add(client);
    client.on('task', (event) => {
      if (client !== this.connection.client) return;
      const row = this.tasks.get(event.taskId) ?? { taskId: event.taskId, tool: event.target, status: 'working' as TaskStatus, statusMessage: undefined, startedAt: Date.now(), earlier: false };
      if (event.state) {
        row.status = event.state.status;
        row.statusMessage = event.state.statusMessage;
      }
      if (event.phase === 'lost') row.status = 'failed';
      row.note = TASK_NOTES[event.phase] ?? (event.error ? event.error.message : undefined);
      this.tasks.set(event.taskId, row);
      this.update();
    });
  }

  /** Tasks an earlier page left running: listed, and the newest one's tool opened (its form picks the task up). */
  async #loadStoredTasks(): Promise<void> {
    const client = this.connection.client;
    if (!client) return;
    const { tasks, expired } = await client.storedTasks();
    for (const record of [...tasks].reverse()) {
      if (this.tasks.has(record.taskId)) continue;
      this.tasks.set(record.taskId, { taskId: record.taskId, tool: record.target, status: record.status, statusMessage: record.statusMessage, startedAt: record.startedAt, earlier: true });
    }
    for (const record of expired) {
      this.tasks.set(record.taskId, { taskId: record.taskId, tool: record.target, status: 'failed', statusMessage: record.statusMessage, startedAt: record.startedAt, earlier: true, note: 'expired before its result was picked up' });
    }
    const newest = tasks.find((t) => t.method === 'tools/call' && t.target && this.tools.some((tool) => tool.name === t.target));
    if (newest && !this.selected) this.select(newest.target);
    else this.update();
  }

  async #cancelTask(taskId: string): Promise<void> {
    try {
      await (await this.connection.client!.task(taskId)).cancel();
    } catch (error) {
      this.tasksError = (error as Error).message;
    }
    this.update();
  }

  /** 2025-11-25 servers that declare tasks.list can list their tasks. */
  async #listServerTasks(): Promise<void> {
    try {
      for (const task of await this.connection.client!.listTasks()) {
        const row = this.tasks.get(task.taskId) ?? { taskId: task.taskId, tool: undefined, startedAt: task.createdAt ? Date.parse(task.createdAt) : Date.now(), earlier: false, status: task.status, statusMessage: undefined };
        row.status = task.status;
        row.statusMessage = task.statusMessage;
        this.tasks.set(task.taskId, row);
      }
      this.tasksError = undefined;
    } catch (error) {
      this.tasksError = (error as Error).message;
    }
    this.update();
  }

  #auths = new WeakSet<object>();
  #watchAuth(): void {
    const auth = this.connection.oauth;
    if (!auth || this.#auths.has(auth)) return;
    this.#auths.add(auth);
    auth.on('token', ({ kind, session }) => this.log?.note?.(`OAuth: ${kind === 'refreshed' ? 'token refreshed' : 'signed in'} (${session.tokenType}, scopes: ${session.scopes.join(' ') || 'none'})`));
    auth.on('status', ({ status, error }) => this.log?.note?.(`OAuth: ${status.replace('_', ' ')}${error ? ` — ${error.message}` : ''}`));
  }

  async #remember(): Promise<void> {
    const server = this.connection.server;
    const s = this.applied;
    // Not kept any more: an entry saved earlier with the URL's credentials goes too.
    if (!s.remember && publicUrl(s.url) !== s.url) await forgetServer(s.url);
    servers = await rememberServer({
      // Credentials in the URL itself (a bridge's token) are kept only when asked, like the others.
      url: s.remember ? s.url : publicUrl(s.url),
      name: s.name || this.title,
      protocol: s.protocol,
      ...(server ? { detected: `${server.era} · ${server.protocolVersion}` } : {}),
      lastUsed: Date.now(),
      ...(seconds(s.requestTimeout) ? { requestTimeoutMs: seconds(s.requestTimeout)! } : {}),
      ...(seconds(s.maxTotalTime) ? { maxTotalTimeoutMs: seconds(s.maxTotalTime)! } : {}),
      remember: s.remember,
      headers: s.headers.filter(([name]) => name.trim()),
      token: s.token,
    });
    renderServers();
  }

  /** Applies the settings and connects. */
  async connect(): Promise<void> {
    const s = (this.applied = { ...this.settings, headers: this.settings.headers.map(([k, v]) => [k, v]) });
    const connection = this.connection;
    const headers: Record<string, string> = {};
    for (const [name, value] of s.headers) if (name.trim()) headers[name.trim()] = value;
    if (s.token.trim()) headers.Authorization = `Bearer ${s.token.trim()}`;
    connection.headers = Object.keys(headers).length > 0 ? headers : undefined;
    connection.protocol = s.protocol;
    connection.clientOptions = {
      ...(seconds(s.requestTimeout) ? { requestTimeoutMs: seconds(s.requestTimeout)! } : {}),
      ...(seconds(s.maxTotalTime) ? { maxTotalTimeoutMs: seconds(s.maxTotalTime)! } : {}),
    };
    // Protected servers: sign in through a popup — unless the user gave credentials of their own.
    connection.oauthRedirectUri = headers.Authorization ? '' : new URL('./oauth-callback.html', location.href).href;
    connection.serverUrl = s.url;
    this.tools = [];
    this.tasks = new Map();
    this.tasksError = undefined;
    this.error = '';
    this.ping = '';
    updateTabs();
    writeUrl();
    this.update();
    if (!s.url) return;
    try {
      if (isInBrowserServer(s.url)) await startInBrowserServer();
      await connection.connect();
    } catch (error) {
      if (!connection.error) this.error = (error as Error).message;
      this.settingsOpen = true;
      this.update();
    }
  }

  async measurePing(): Promise<void> {
    this.ping = 'Pinging…';
    this.update();
    try {
      const ms = await this.connection.ping();
      this.ping = `Round trip: ${Math.round(ms)} ms (${this.connection.server?.era === 'legacy' ? 'ping' : 'server/discover: 2026-07-28 has no ping'})`;
    } catch (error) {
      this.ping = `Ping failed: ${(error as Error).message}`;
    }
    this.update();
  }

  select(name: string | undefined): void {
    this.selected = name;
    this.resumed = undefined;
    writeUrl();
    this.update();
  }

  update(): void {
    render(this.#settingsView(), this.panel.querySelector<HTMLElement>('.settings-host')!);
    render(this.#contentView(), this.content);
  }

  mount(): void {
    const settings = document.createElement('div');
    settings.className = 'settings-host';
    this.panel.append(settings, this.connection);
    this.update();
  }

  // --- views --------------------------------------------------------------------------------

  #settingsView(): TemplateResult {
    const s = this.settings;
    const id = (name: string) => `${name}-${this.id}`;
    const set = (patch: Partial<Settings>) => {
      this.settings = { ...this.settings, ...patch };
      this.update();
    };
    return html`<details class="panel settings" ?open=${this.settingsOpen} @toggle=${(e: Event) => (this.settingsOpen = (e.target as HTMLDetailsElement).open)}>
      <summary><span class="summary-title">Connection settings</span> <code class="summary-url">${this.applied.url || 'no server yet'}</code></summary>
      <form
        class="settings-form"
        @submit=${(e: Event) => {
          e.preventDefault();
          void this.connect();
        }}
      >
        <div class="field wide">
          <label for=${id('url')}>MCP server URL</label>
          <input id=${id('url')} type="url" required list="saved-urls" placeholder="https://example.com/mcp" .value=${live(s.url)} @input=${(e: Event) => (this.settings = { ...this.settings, url: (e.target as HTMLInputElement).value.trim() })} />
          <button type="button" class="link" @click=${() => set({ url: inBrowserServerUrl(), name: '' })}>Use the demo server in this browser</button>
        </div>
        <div class="field">
          <label for=${id('name')}>Name (optional)</label>
          <input id=${id('name')} type="text" .value=${live(s.name)} @input=${(e: Event) => (this.settings = { ...this.settings, name: (e.target as HTMLInputElement).value })} />
        </div>
        <div class="field">
          <label for=${id('protocol')}>Protocol era</label>
          <select id=${id('protocol')} .value=${live(s.protocol)} @change=${(e: Event) => set({ protocol: (e.target as HTMLSelectElement).value as ProtocolPreference })}>
            <option value="auto" ?selected=${s.protocol === 'auto'}>Detect (auto)</option>
            <option value="modern" ?selected=${s.protocol === 'modern'}>2026-07-28 (modern)</option>
            <option value="legacy" ?selected=${s.protocol === 'legacy'}>2025-11-25 and earlier (legacy)</option>
          </select>
        </div>
        <div class="field">
          <label for=${id('timeout')}>Request timeout (s)</label>
          <input id=${id('timeout')} type="number" min="1" step="1" placeholder="60" .value=${live(s.requestTimeout)} @input=${(e: Event) => (this.settings = { ...this.settings, requestTimeout: (e.target as HTMLInputElement).value })} />
        </div>
        <div class="field">
          <label for=${id('total')}>Maximum total time (s)</label>
          <input id=${id('total')} type="number" min="1" step="1" placeholder="600" .value=${live(s.maxTotalTime)} @input=${(e: Event) => (this.settings = { ...this.settings, maxTotalTime: (e.target as HTMLInputElement).value })} />
        </div>
        <div class="field">
          <label for=${id('token')}>Bearer token</label>
          <input id=${id('token')} type="password" autocomplete="off" spellcheck="false" .value=${live(s.token)} aria-describedby=${id('token-hint')} @input=${(e: Event) => (this.settings = { ...this.settings, token: (e.target as HTMLInputElement).value })} />
          <span class="hint" id=${id('token-hint')}>Sent as Authorization: Bearer …</span>
        </div>
        <fieldset class="headers wide">
          <legend>Custom headers</legend>
          ${s.headers.length === 0 ? html`<p class="muted">None.</p>` : nothing}
          ${s.headers.map(
            ([name, value], index) => html`<div class="header-row">
              <label class="visually-hidden" for=${id(`hname${index}`)}>Header ${index + 1} name</label>
              <input id=${id(`hname${index}`)} type="text" placeholder="X-Api-Key" .value=${live(name)} @input=${(e: Event) => (this.settings.headers[index]![0] = (e.target as HTMLInputElement).value)} />
              <label class="visually-hidden" for=${id(`hvalue${index}`)}>Header ${index + 1} value</label>
              <input id=${id(`hvalue${index}`)} type="text" autocomplete="off" .value=${live(value)} @input=${(e: Event) => (this.settings.headers[index]![1] = (e.target as HTMLInputElement).value)} />
              <button type="button" aria-label="Remove header ${index + 1}" @click=${() => set({ headers: s.headers.filter((_, i) => i !== index) })}>Remove</button>
            </div>`,
          )}
          <button type="button" @click=${() => set({ headers: [...s.headers, ['', '']] })}>Add header</button>
        </fieldset>
        <label class="check wide"
          ><input type="checkbox" .checked=${live(s.remember)} @change=${(e: Event) => set({ remember: (e.target as HTMLInputElement).checked })} /> Remember the headers and token for this server on this device
          (IndexedDB; never in the URL)</label
        >
        <div class="actions wide">
          <button class="primary" type="submit">Connect</button>
          ${workspaces.length > 1 ? html`<button type="button" @click=${() => closeWorkspace(this)}>Close this tab</button>` : nothing}
        </div>
        ${this.error ? html`<p class="error wide" role="alert">${this.error}</p>` : nothing}
      </form>
    </details>`;
  }

  #toolList(): TemplateResult {
    const connection = this.connection;
    if (connection.status !== 'connected') return html`<p class="muted">Not connected.</p>`;
    const needle = this.filter.trim().toLowerCase();
    // One pass, keeping the first LISTED matches: 10,000 tools cost no more DOM than 100.
    const shown: Tool[] = [];
    let matching = 0;
    for (const t of this.tools) {
      if (needle && ![t.name, t.title, t.annotations?.title, t.description].some((text) => typeof text === 'string' && text.toLowerCase().includes(needle))) continue;
      matching++;
      if (shown.length < LISTED) shown.push(t);
    }
    const total = this.tools.length.toLocaleString('en');
    const rejected = connection.client?.rejectedTools ?? [];
    return html`<div class="tool-search">
        <label class="visually-hidden" for="tool-filter-${this.id}">Filter tools</label>
        <input id="tool-filter-${this.id}" type="search" placeholder="Filter ${total} tools" .value=${live(this.filter)} @input=${(e: Event) => ((this.filter = (e.target as HTMLInputElement).value), this.update())} />
      </div>
      <p class="muted count" role="status">
        ${shown.length < matching
          ? `${shown.length} of ${matching.toLocaleString('en')} tools listed; filter to find the others.`
          : needle
            ? matching === 0
              ? 'No tool matches.'
              : `${matching.toLocaleString('en')} of ${total} tools match`
            : `${total} tool${this.tools.length === 1 ? '' : 's'}`}
      </p>
      ${this.tools.length === 0 ? html`<p class="muted">This server has no tools.</p>` : nothing}
      <ul class="tool-list">
        ${shown.map((tool) => {
          const title = clip(String(tool.title ?? tool.annotations?.title ?? tool.name), 120);
          const describedBy = `tool-${this.id}-${tool.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
          const annotations = (tool.annotations ?? {}) as Record<string, unknown>;
          const taskSupport = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
          return html`<li>
            <button type="button" aria-pressed=${this.selected === tool.name} aria-describedby=${describedBy} @click=${() => this.select(tool.name)}>${title}</button>
            <div class="tool-meta" id=${describedBy}>
              ${title !== tool.name ? html`<code>${clip(tool.name, 200)}</code>` : nothing}
              ${ANNOTATION_BADGES.filter(([key]) => annotations[key] === true).map(([, label]) => html`<span class="badge" data-badge=${label}>${label}</span>`)}
              ${typeof taskSupport === 'string' && taskSupport !== 'forbidden' ? html`<span class="badge" data-badge="task">task: ${taskSupport}</span>` : nothing}
              ${typeof tool.description === 'string' && tool.description ? html`<span class="description">${clip(tool.description, 2_000)}</span>` : nothing}
            </div>
          </li>`;
        })}
      </ul>
      ${rejected.length > 0
        ? html`<details class="rejected">
            <summary>${rejected.length} tool${rejected.length === 1 ? '' : 's'} rejected by the client</summary>
            <ul class="plain">
              ${rejected.slice(0, LISTED).map((r) => html`<li><code>${clip(r.name, 200)}</code>: ${clip(r.reason, 2_000)}</li>`)}
            </ul>
            ${rejected.length > LISTED ? html`<p class="muted">${LISTED} of ${rejected.length.toLocaleString('en')} listed.</p>` : nothing}
          </details>`
        : nothing}`;
  }

  #tasksPanel(): TemplateResult {
    const rows = [...this.tasks.values()].reverse();
    const running = (row: TaskRow) => row.status === 'working' || row.status === 'input_required';
    const canList = Boolean((this.connection.client?.server?.capabilities.tasks as { list?: unknown } | undefined)?.list);
    return html`<section class="panel tasks" aria-labelledby="tasks-heading-${this.id}">
      <h2 id="tasks-heading-${this.id}">Tasks</h2>
      ${rows.length === 0 ? html`<p class="muted">No tasks yet. Long-running tools (try <code>run_pipeline</code>) run as tasks; they are listed here and survive a reload.</p>` : nothing}
      ${this.tasksError ? html`<p role="alert">${clip(this.tasksError, 1000)}</p>` : nothing}
      <ul class="plain task-list">
        ${rows.slice(0, LISTED).map(
          (row) => html`<li data-task=${row.taskId}>
            <strong>${clip(row.tool ?? row.taskId.slice(0, 8), 120)}</strong>
            <span class="badge">${clip(row.status.replace('_', ' '), 40)}</span>
            ${row.statusMessage ? html`<span class="task-message">${clip(row.statusMessage, 500)}</span>` : nothing}
            <span class="muted">started ${ago(row.startedAt)}${row.earlier ? ' (before a reload)' : ''}${row.note ? ` · ${clip(row.note, 500)}` : ''}</span>
            ${running(row) && row.tool && row.tool !== this.selected ? html`<button type="button" @click=${() => this.select(row.tool)}>Show</button>` : nothing}
            ${running(row) ? html`<button type="button" @click=${() => void this.#cancelTask(row.taskId)}>Cancel task</button>` : nothing}
          </li>`,
        )}
      </ul>
      ${rows.length > LISTED ? html`<p class="muted">The newest ${LISTED} of ${rows.length.toLocaleString('en')} tasks listed.</p>` : nothing}
      ${canList ? html`<button type="button" @click=${() => void this.#listServerTasks()}>List the server's tasks (tasks/list)</button>` : nothing}
    </section>`;
  }

  #contentView(): TemplateResult {
    const connection = this.connection;
    const connected = connection.status === 'connected';
    return html`<div class="toolbar">
        <button type="button" ?disabled=${!connected} @click=${() => void this.measurePing()}>Ping</button>
        <span class="muted" role="status">${this.ping}</span>
      </div>
      <div class="layout">
        <section class="panel tools" aria-labelledby="tools-heading-${this.id}">
          <h2 id="tools-heading-${this.id}">Tools</h2>
          ${this.#toolList()}
        </section>
        <section class="panel call" aria-labelledby="call-heading-${this.id}">
          <h2 id="call-heading-${this.id}">${this.selected ? `Call ${clip(this.selected, 120)}` : 'Call a tool'}</h2>
          ${this.selected ? html`<mcp-tool-form tool-name=${this.selected}></mcp-tool-form>` : html`<p class="muted">Pick a tool on the left.</p>`}
          ${this.resumed
            ? html`<div class="resumed" role="status">
                <h3>Resumed call: ${clip(this.resumed.tool, 120)}</h3>
                <mcp-tool-result label="Resumed call result" .result=${this.resumed.result}></mcp-tool-result>
              </div>`
            : nothing}
        </section>
        ${this.#tasksPanel()}
        <section class="panel resources" aria-labelledby="resources-heading-${this.id}">
          <h2 id="resources-heading-${this.id}">Resources</h2>
          <mcp-resource-list></mcp-resource-list>
        </section>
        <section class="panel prompts" aria-labelledby="prompts-heading-${this.id}">
          <h2 id="prompts-heading-${this.id}">Prompts</h2>
          <mcp-prompt-form></mcp-prompt-form>
        </section>
        <section class="panel roots" aria-labelledby="roots-heading-${this.id}">
          <h2 id="roots-heading-${this.id}">Roots</h2>
          <mcp-roots-editor></mcp-roots-editor>
        </section>
        <section class="panel log" aria-labelledby="log-heading-${this.id}">
          <h2 id="log-heading-${this.id}">Protocol log</h2>
          <mcp-protocol-log></mcp-protocol-log>
        </section>
      </div>`;
  }
}


/** `url` without credentials (`user:password@` and credential parameters), for the page's URL and for history kept without credentials. */
function publicUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
        // The parameters the kit masks in messages (the stdio bridge's `?token=`, API keys, SAS signatures, `?code=`).
    for (const name of [...parsed.searchParams.keys()]) if (isSecretParam(name)) parsed.searchParams.delete(name);
    return parsed.href;
  } catch {
    return url;
  }
}

/** Seconds typed → ms, or undefined for empty or invalid input. */
function seconds(text: string): number | undefined {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : undefined;
}

// --- tabs ---------------------------------------------------------------------------------------

const tablist = document.createElement('div');
const panels = document.createElement('div');
const savedPanel = document.createElement('section');

function settingsFor(url: string): Settings {
  const saved = servers.find((s) => s.url === url);
  if (!saved) return defaults(url);
  return {
    url,
    name: saved.name,
    protocol: saved.protocol,
    requestTimeout: saved.requestTimeoutMs ? String(saved.requestTimeoutMs / 1000) : '',
    maxTotalTime: saved.maxTotalTimeoutMs ? String(saved.maxTotalTimeoutMs / 1000) : '',
    headers: saved.headers ?? [],
    token: saved.token ?? '',
    remember: saved.remember,
  };
}

function openWorkspace(settings: Settings, options: { connect?: boolean; tool?: string } = {}): Workspace {
  const workspace = new Workspace(settings, options.tool);
  workspaces.push(workspace);
  panels.append(workspace.panel);
  workspace.mount();
  activate(workspace);
  if (options.connect !== false && settings.url) void workspace.connect();
  return workspace;
}

function closeWorkspace(workspace: Workspace): void {
  const index = workspaces.indexOf(workspace);
  if (index < 0 || workspaces.length === 1) return;
  workspaces.splice(index, 1);
  void workspace.connection.disconnect();
  workspace.panel.remove();
  activate(workspaces[Math.max(0, index - 1)]!, true);
}

function activate(workspace: Workspace, focus = false): void {
  active = workspace;
  for (const w of workspaces) w.panel.hidden = w !== workspace;
  updateTabs();
  writeUrl();
  if (focus) tablist.querySelector<HTMLElement>(`#tab-${workspace.id}`)?.focus();
}

function updateTabs(): void {
  const move = (event: KeyboardEvent) => {
    const index = workspaces.indexOf(active!);
    const next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? workspaces.length - 1 : undefined;
    if (next === undefined) return;
    event.preventDefault();
    activate(workspaces[(next + workspaces.length) % workspaces.length]!, true);
  };
  render(
    html`<div class="tabs" role="tablist" aria-label="Open connections" @keydown=${move}>
        ${workspaces.map(
          (w) => html`<button
            type="button"
            role="tab"
            id="tab-${w.id}"
            aria-selected=${w === active ? 'true' : 'false'}
            aria-controls="panel-${w.id}"
            tabindex=${w === active ? 0 : -1}
            @click=${() => activate(w)}
          >
            <span class="dot" data-status=${w.connection.status} aria-hidden="true"></span>${w.title}
          </button>`,
        )}
      </div>
      <button type="button" class="new-tab" @click=${() => openNew()}>New connection</button>`,
    tablist,
  );
}

function openNew(): void {
  const workspace = openWorkspace(defaults(''), { connect: false });
  requestAnimationFrame(() => workspace.panel.querySelector<HTMLInputElement>('input[type="url"]')?.focus());
}

/** The active server (and tool) in the page's URL: a link reproduces the view. Credentials never go there. */
function writeUrl(): void {
  if (!active) return;
  const url = new URL(location.href);
  if (active.applied.url) url.searchParams.set('server', publicUrl(active.applied.url));
  else url.searchParams.delete('server');
  if (active.selected) url.searchParams.set('tool', active.selected);
  else url.searchParams.delete('tool');
  if (url.href !== location.href) history.replaceState(null, '', url);
}

function renderServers(): void {
  render(
    html`<h2 id="saved-heading">Saved servers</h2>
      ${servers.length === 0
        ? html`<p class="muted">Servers you connect to are listed here.</p>`
        : html`<ul class="saved-list">
            ${servers.map(
              (s) => html`<li>
                <span class="saved-name">${s.name}</span>
                <code class="saved-url">${maskUrlSecrets(s.url)}</code>
                <span class="muted saved-meta"
                  >${s.detected ?? s.protocol} · last used <time datetime=${new Date(s.lastUsed).toISOString()}>${new Date(s.lastUsed).toLocaleString()}</time>${s.remember ? ' · credentials kept' : ''}</span
                >
                <span class="saved-actions">
                  <button type="button" aria-label="Open ${s.name}" @click=${() => openSaved(s, false)}>Open</button>
                  <button type="button" aria-label="Open ${s.name} in a new tab" @click=${() => openSaved(s, true)}>New tab</button>
                  <button type="button" aria-label="Forget ${s.name}" @click=${async () => ((servers = await forgetServer(s.url)), renderServers())}>Forget</button>
                </span>
              </li>`,
            )}
          </ul>`}
      <datalist id="saved-urls">${servers.map((s) => html`<option value=${s.url}>${s.name}</option>`)}</datalist>`,
    savedPanel,
  );
}

function openSaved(saved: SavedServer, newTab: boolean): void {
  const settings = settingsFor(saved.url);
  if (newTab || !active) {
    openWorkspace(settings);
    return;
  }
  active.settings = settings;
  active.select(undefined);
  void active.connect();
}

async function start(): Promise<void> {
  tablist.className = 'tab-bar';
  panels.className = 'panels';
  savedPanel.className = 'panel saved';
  savedPanel.setAttribute('aria-labelledby', 'saved-heading');
  app.append(tablist, panels, savedPanel, appGrantsPanel());
  let opened!: () => void;
  const ready = new Promise<void>((resolve) => (opened = resolve));
  // A stdio server through the bridge: its URL (token included) goes to the active connection.
  // Set up before anything is awaited, so the header's button works as soon as the page shows it.
  setupStdioChoice(document.getElementById('stdio-choice') as HTMLButtonElement, (url) => {
    void ready.then(() => {
      const workspace = active ?? openWorkspace(defaults(''), { connect: false });
      workspace.settings = { ...settingsFor(url), url };
      workspace.select(undefined);
      void workspace.connect();
    });
  });
  servers = await loadServers();
  renderServers();
  // The inspector elements (their own entry); loaded before the first connection so its log sees every message.
  await import('../../components/inspector.js');
  const query = new URLSearchParams(location.search);
  openWorkspace(settingsFor(initialServerUrl()), { tool: query.get('tool') ?? undefined });
  opened();
}

void start();
