/**
 * What a playground workspace shows: the connection settings, the sidebar's
 * tool list, and the main area (the status line's Ping and round trip, the
 * panes — the tool form, resources, prompts, tasks, roots — and, beside them,
 * the call history and the protocol log).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { clip } from '../../components/internal/json.js';
import { maskUrlSecrets, restoreMaskedSecrets } from '../../components/internal/url-secrets.js';
import type { ProtocolPreference, Tool } from '../../src/index.js';
import { inBrowserServerUrl } from './shared.js';
import type { Pane, Settings, TaskRow, Workspace } from './workspace.js';

/**
 * What a server may make this page render is bounded (issue 19): at most this
 * many tools (the search finds the others) and tasks are listed at once; the
 * inspector elements bound their own lists and log entries.
 */
export const LISTED = 100;
const ANNOTATION_BADGES = [
  ['readOnlyHint', 'read-only'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'open world'],
] as const;

const PANES: [Pane, string][] = [
  ['tool', 'Tool'],
  ['resources', 'Resources'],
  ['prompts', 'Prompts'],
  ['tasks', 'Tasks'],
  ['roots', 'Roots'],
];

function ago(time: number): string {
  const minutes = Math.floor((Date.now() - time) / 60_000);
  return minutes < 1 ? 'just now' : minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ago`;
}

export function settingsView(w: Workspace): TemplateResult {
  const s = w.settings;
  const id = (name: string) => `${name}-${w.id}`;
  const set = (patch: Partial<Settings>) => {
    w.settings = { ...w.settings, ...patch };
    w.update();
  };
  const edit = (patch: Partial<Settings>) => (w.settings = { ...w.settings, ...patch });
  return html`<details class="settings" ?open=${w.settingsOpen} @toggle=${(e: Event) => (w.settingsOpen = (e.target as HTMLDetailsElement).open)}>
    <summary><span class="summary-title">Connection settings</span> <code class="summary-url">${w.applied.url ? maskUrlSecrets(w.applied.url) : 'no server yet'}</code></summary>
    <form
      class="settings-form panel"
      @submit=${(e: Event) => {
        e.preventDefault();
        void w.connect();
      }}
    >
      <div class="field wide">
        <label for=${id('url')}>MCP server URL</label>
        <!-- Shown masked (a bridge's ?token=…); an edit keeps the secrets the mask stands for. -->
        <input
          id=${id('url')}
          type="url"
          required
          list="saved-urls"
          placeholder="https://example.com/mcp"
          .value=${live(maskUrlSecrets(s.url))}
          @input=${(e: Event) => edit({ url: restoreMaskedSecrets((e.target as HTMLInputElement).value.trim(), w.settings.url) })}
        />
        <button type="button" class="link" @click=${() => set({ url: inBrowserServerUrl(), name: '' })}>Use the demo server in this browser</button>
      </div>
      <div class="field">
        <label for=${id('name')}>Name (optional)</label>
        <input id=${id('name')} type="text" .value=${live(s.name)} @input=${(e: Event) => edit({ name: (e.target as HTMLInputElement).value })} />
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
        <input id=${id('timeout')} type="number" min="1" step="1" placeholder="60" .value=${live(s.requestTimeout)} @input=${(e: Event) => edit({ requestTimeout: (e.target as HTMLInputElement).value })} />
      </div>
      <div class="field">
        <label for=${id('total')}>Maximum total time (s)</label>
        <input id=${id('total')} type="number" min="1" step="1" placeholder="600" .value=${live(s.maxTotalTime)} @input=${(e: Event) => edit({ maxTotalTime: (e.target as HTMLInputElement).value })} />
      </div>
      <div class="field">
        <label for=${id('token')}>Bearer token</label>
        <input id=${id('token')} type="password" autocomplete="off" spellcheck="false" .value=${live(s.token)} aria-describedby=${id('token-hint')} @input=${(e: Event) => edit({ token: (e.target as HTMLInputElement).value })} />
        <span class="hint" id=${id('token-hint')}>Sent as Authorization: Bearer …</span>
      </div>
      <fieldset class="headers wide">
        <legend>Custom headers</legend>
        ${s.headers.length === 0 ? html`<p class="muted">None.</p>` : nothing}
        ${s.headers.map(
          ([name, value], index) => html`<div class="header-row">
            <label class="visually-hidden" for=${id(`hname${index}`)}>Header ${index + 1} name</label>
            <input id=${id(`hname${index}`)} type="text" placeholder="X-Api-Key" .value=${live(name)} @input=${(e: Event) => (w.settings.headers[index]![0] = (e.target as HTMLInputElement).value)} />
            <label class="visually-hidden" for=${id(`hvalue${index}`)}>Header ${index + 1} value</label>
            <input id=${id(`hvalue${index}`)} type="text" autocomplete="off" .value=${live(value)} @input=${(e: Event) => (w.settings.headers[index]![1] = (e.target as HTMLInputElement).value)} />
            <button type="button" aria-label="Remove header ${index + 1}" @click=${() => set({ headers: s.headers.filter((_, i) => i !== index) })}>Remove</button>
          </div>`,
        )}
        <button type="button" @click=${() => set({ headers: [...s.headers, ['', '']] })}>Add header</button>
      </fieldset>
      <label class="check wide"
        ><input type="checkbox" .checked=${live(s.remember)} @change=${(e: Event) => set({ remember: (e.target as HTMLInputElement).checked })} /> Remember the headers and token for this server on this device (IndexedDB; never in the
        URL)</label
      >
      <div class="actions wide">
        <button class="primary" type="submit">Connect</button>
        ${w.host.count() > 1 ? html`<button type="button" @click=${() => w.host.close(w)}>Close this tab</button>` : nothing}
      </div>
      ${w.error ? html`<p class="error wide" role="alert">${maskUrlSecrets(w.error)}</p>` : nothing}
    </form>
  </details>`;
}

/** The sidebar's tools: a search and a bounded list (the sidebar scrolls itself). */
export function sidebarView(w: Workspace): TemplateResult {
  return html`<section class="tools" aria-labelledby="tools-heading-${w.id}">
    <h2 id="tools-heading-${w.id}">Tools</h2>
    ${toolList(w)}
  </section>`;
}

function toolList(w: Workspace): TemplateResult {
  const connection = w.connection;
  if (connection.status !== 'connected') return html`<p class="muted">Not connected.</p>`;
  const needle = w.filter.trim().toLowerCase();
  // One pass, keeping the first LISTED matches: 10,000 tools cost no more DOM than 100.
  const shown: Tool[] = [];
  let matching = 0;
  for (const t of w.tools) {
    if (needle && ![t.name, t.title, t.annotations?.title, t.description].some((text) => typeof text === 'string' && text.toLowerCase().includes(needle))) continue;
    matching++;
    if (shown.length < LISTED) shown.push(t);
  }
  const total = w.tools.length.toLocaleString('en');
  const rejected = connection.client?.rejectedTools ?? [];
  return html`<div class="tool-search">
      <label class="visually-hidden" for="tool-filter-${w.id}">Filter tools</label>
      <input id="tool-filter-${w.id}" type="search" placeholder="Filter ${total} tools" .value=${live(w.filter)} @input=${(e: Event) => ((w.filter = (e.target as HTMLInputElement).value), w.update())} />
    </div>
    <p class="muted count" role="status">
      ${shown.length < matching
        ? `${shown.length} of ${matching.toLocaleString('en')} tools listed; filter to find the others.`
        : needle
          ? matching === 0
            ? 'No tool matches.'
            : `${matching.toLocaleString('en')} of ${total} tools match`
          : `${total} tool${w.tools.length === 1 ? '' : 's'}`}
    </p>
    ${w.tools.length === 0 ? html`<p class="muted">This server has no tools.</p>` : nothing}
    <ul class="tool-list">
      ${shown.map((tool) => {
        const title = clip(String(tool.title ?? tool.annotations?.title ?? tool.name), 120);
        const describedBy = `tool-${w.id}-${tool.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
        const annotations = (tool.annotations ?? {}) as Record<string, unknown>;
        const taskSupport = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
        return html`<li>
          <button type="button" aria-pressed=${w.selected === tool.name} aria-describedby=${describedBy} @click=${() => w.select(tool.name, { reveal: true })}>${title}</button>
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

function tasksPane(w: Workspace): TemplateResult {
  const rows = [...w.tasks.values()].reverse();
  const running = (row: TaskRow) => row.status === 'working' || row.status === 'input_required';
  const canList = Boolean((w.connection.client?.server?.capabilities.tasks as { list?: unknown } | undefined)?.list);
  return html`${rows.length === 0
      ? html`<p class="muted">No tasks yet. Long-running tools${w.isDemoServer ? html` (try <code>run_pipeline</code>)` : nothing} run as tasks; they are listed here and survive a reload.</p>`
      : nothing}
    ${w.tasksError ? html`<p role="alert">${clip(w.tasksError, 1000)}</p>` : nothing}
    <ul class="plain task-list">
      ${rows.slice(0, LISTED).map(
        (row) => html`<li data-task=${row.taskId}>
          <strong>${clip(row.tool ?? row.taskId.slice(0, 8), 120)}</strong>
          <span class="badge">${clip(row.status.replace('_', ' '), 40)}</span>
          ${row.statusMessage ? html`<span class="task-message">${clip(row.statusMessage, 500)}</span>` : nothing}
          <span class="muted">started ${ago(row.startedAt)}${row.earlier ? ' (before a reload)' : ''}${row.note ? ` · ${clip(row.note, 500)}` : ''}</span>
          ${running(row) && row.tool && row.tool !== w.selected ? html`<button type="button" @click=${() => w.select(row.tool)}>Show</button>` : nothing}
          ${running(row) ? html`<button type="button" @click=${() => void w.cancelTask(row.taskId)}>Cancel task</button>` : nothing}
        </li>`,
      )}
    </ul>
    ${rows.length > LISTED ? html`<p class="muted">The newest ${LISTED} of ${rows.length.toLocaleString('en')} tasks listed.</p>` : nothing}
    ${canList ? html`<button type="button" @click=${() => void w.listServerTasks()}>List the server's tasks (tasks/list)</button>` : nothing}`;
}

/** The pane tabs (ARIA tabs: arrow keys move between them). */
function paneTabs(w: Workspace): TemplateResult {
  const move = (event: KeyboardEvent) => {
    const index = PANES.findIndex(([pane]) => pane === w.pane);
    const next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? PANES.length - 1 : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const pane = PANES[(next + PANES.length) % PANES.length]![0];
    w.openPane(pane);
    (event.currentTarget as HTMLElement).querySelector<HTMLElement>(`#panetab-${pane}-${w.id}`)?.focus();
  };
  const running = [...w.tasks.values()].filter((row) => row.status === 'working' || row.status === 'input_required').length;
  return html`<div class="pane-tabs" role="tablist" aria-label="Panes" @keydown=${move}>
    ${PANES.map(
      ([pane, label]) => html`<button
        type="button"
        role="tab"
        id="panetab-${pane}-${w.id}"
        aria-selected=${w.pane === pane ? 'true' : 'false'}
        aria-controls="pane-${pane}-${w.id}"
        tabindex=${w.pane === pane ? 0 : -1}
        @click=${() => w.openPane(pane)}
      >
        ${label}${pane === 'tasks' && running > 0 ? html` <span class="badge">${running}</span>` : nothing}${pane === 'roots' && (w.connection.roots?.length ?? 0) > 0
          ? html` <span class="badge">${w.connection.roots!.length}</span>`
          : nothing}
      </button>`,
    )}
  </div>`;
}

const pane = (w: Workspace, name: Pane, body: TemplateResult) =>
  html`<section class="pane" data-pane=${name} id="pane-${name}-${w.id}" role="tabpanel" aria-labelledby="panetab-${name}-${w.id}" ?hidden=${w.pane !== name}>${body}</section>`;

/** The main area, inside `<mcp-connection>`: status line extras, panes, history and log. */
export function contentView(w: Workspace): TemplateResult {
  const connected = w.connection.status === 'connected';
  return html`<div class="status-extra">
      <span class="muted rtt" role="status" title=${w.ping ? `Measured with ${w.pingMethod}` : ''}>${w.ping}</span>
      <button type="button" ?disabled=${!connected} @click=${() => void w.measurePing()}>Ping</button>
      <button
        type="button"
        class="sidebar-toggle"
        aria-expanded=${w.sidebarOpen ? 'true' : 'false'}
        aria-controls="sidebar-${w.id}"
        @click=${() => ((w.sidebarOpen = !w.sidebarOpen), w.update())}
      >
        Sidebar
      </button>
    </div>
    ${w.rootsAsk
      ? html`<div class="roots-ask" role="status">
          <span><strong>${w.rootsAsk.server}</strong> asks which folders it may use; none are shared.</span>
          <button type="button" @click=${() => w.openPane('roots')}>Add a root</button>
          <button type="button" @click=${() => w.rootsAsk?.answer([])}>Share none</button>
        </div>`
      : nothing}
    ${paneTabs(w)}
    <div class="work">
      <div class="pane-area">
        ${pane(
          w,
          'tool',
          html`${w.selected ? html`<mcp-tool-form tool-name=${w.selected}></mcp-tool-form>` : noToolView(w, connected)}
          ${w.resumed
            ? html`<div class="resumed" role="status">
                <h3>Resumed call: ${clip(w.resumed.tool, 120)}</h3>
                <mcp-tool-result label="Resumed call result" .result=${w.resumed.result}></mcp-tool-result>
              </div>`
            : nothing}`,
        )}
        ${pane(w, 'resources', html`<h2 class="visually-hidden">Resources</h2><mcp-resource-list></mcp-resource-list>`)}
        ${pane(w, 'prompts', html`<h2 class="visually-hidden">Prompts</h2><mcp-prompt-form></mcp-prompt-form>`)}
        ${pane(w, 'tasks', html`<h2 class="visually-hidden">Tasks</h2>${tasksPane(w)}`)}
        ${pane(
          w,
          'roots',
          html`<h2 class="visually-hidden">Roots</h2>
            <p class="muted">Folders shared with servers that ask (roots/list). None until you add one.</p>
            <mcp-roots-editor></mcp-roots-editor>`,
        )}
      </div>
      <div class="traffic">
        <section class="history" aria-labelledby="history-heading-${w.id}">
          <h2 id="history-heading-${w.id}">History</h2>
          <mcp-call-history></mcp-call-history>
        </section>
        <section class="log" aria-labelledby="log-heading-${w.id}">
          <h2 id="log-heading-${w.id}">Protocol log</h2>
          <mcp-protocol-log></mcp-protocol-log>
        </section>
      </div>
    </div>`;
}

/** The tool pane with no tool picked: where to pick one, and a way there when the sidebar is hidden. */
function noToolView(w: Workspace, connected: boolean) {
  if (!connected) return html`<p class="muted">Not connected.</p>`;
  if (w.sidebarOpen) return html`<p class="muted">Pick a tool in the sidebar.</p>`;
  return html`<p class="muted">
    Pick a tool in the sidebar, which is hidden:
    <button type="button" @click=${() => ((w.sidebarOpen = true), w.update())}>Show the sidebar</button>
  </p>`;
}
