/**
 * The playground: an everyday MCP inspector built from the kit's tags. Each
 * connection is a tab with its own settings (workspace.ts): a sidebar with the
 * saved servers and the server's tools (searchable), and a main area with the
 * status line (Ping and the round trip), `<mcp-tool-form>` and its result, the
 * Resources, Prompts, Tasks and Roots panes, and beside them `<mcp-call-history>`
 * and `<mcp-protocol-log>`, so a call and its traffic are on one screen.
 * Servers used are remembered (IndexedDB; credentials only when asked); the
 * active server and tool are written to the page's URL (`?server=…&tool=…`,
 * never with credentials), so a link reproduces the view. With no server
 * chosen, a static build talks to the demo server running inside the browser.
 */
import { html, render } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import '../../components/index.js';
import { configureAppFrames } from '../../components/index.js';
import { maskUrlSecrets, publicUrl } from '../../components/internal/url-secrets.js';
import { appSandboxUrl, initialServerUrl, setupThemeToggle } from './shared.js';
import { forgetServer, loadServers, type SavedServer } from './servers.js';
import { chooseValidatorFromQuery } from './validator.js';
import { setupStdioChoice, startedBridgeUrl } from './stdio-choice.js';
import { defaults, Workspace, type PlaygroundHost, type Settings } from './workspace.js';
import { appGrantsPanel } from './app-grants.js';

chooseValidatorFromQuery();
setupThemeToggle();
// MCP Apps (tools with a UI) run behind the sandbox proxy on the page's other loopback origin.
configureAppFrames({ sandboxUrl: appSandboxUrl() });

let servers: SavedServer[] = [];
const workspaces: Workspace[] = [];
let active: Workspace | undefined;
const app = document.getElementById('app')!;

const host: PlaygroundHost = {
  count: () => workspaces.length,
  close: (workspace) => closeWorkspace(workspace),
  tabsChanged: () => updateTabs(),
  urlChanged: () => writeUrl(),
  saved: (list) => {
    servers = list;
    renderServers();
  },
};

// --- tabs ---------------------------------------------------------------------------------------

const tablist = document.createElement('div');
const panels = document.createElement('div');
const savedPanel = document.createElement('section');
/** Tools the user chose to always allow for apps, with Revoke (hidden while there are none). */
const grantsPanel = appGrantsPanel();
savedPanel.className = 'saved';
savedPanel.setAttribute('aria-labelledby', 'saved-heading');

/**
 * `url` with the token of the bridge `npm start` started put back, when `url` is that bridge's
 * URL as the page keeps it (`?server=` and the saved list never hold the token): a reload or a
 * saved entry reaches the bridge again instead of failing on a missing token.
 */
function withBridgeToken(url: string): string {
  const bridge = startedBridgeUrl();
  return bridge && url !== bridge && publicUrl(bridge) === publicUrl(url) ? bridge : url;
}

function settingsFor(target: string): Settings {
  const url = withBridgeToken(target);
  const saved = servers.find((s) => s.url === url || s.url === publicUrl(url));
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
  const workspace = new Workspace(host, settings, options.tool);
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
  // One saved-servers list and one list of tools always allowed for apps, in the sidebar of the connection shown.
  workspace.sidebar.prepend(savedPanel, grantsPanel);
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
            ${repeat(
              servers,
              // Keyed by URL: the list reorders (newest first) when a connection is recorded, and an
              // unkeyed list would rebind the row under the pointer to another server, so a click aimed
              // at "Open X" could open the server that just moved into X's place (issue 33).
              (s) => s.url,
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
      <datalist id="saved-urls">${servers.map((s) => html`<option value=${maskUrlSecrets(s.url)}>${s.name}</option>`)}</datalist>`,
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
  app.append(tablist, panels);
  let opened!: () => void;
  const ready = new Promise<void>((resolve) => (opened = resolve));
  // A stdio server through the bridge: its URL (token included) opens in a new connection tab, the
  // others stay connected. Set up before anything is awaited, so the header's button works as soon as
  // the page shows it.
  setupStdioChoice(document.getElementById('stdio-choice') as HTMLButtonElement, (url) => {
    void ready.then(() => {
      const workspace = openWorkspace({ ...settingsFor(url), url });
      workspace.settingsOpen = false;
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
