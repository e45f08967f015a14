/**
 * One open connection of the playground: its settings (era, timeouts, custom
 * headers, a bearer token), `<mcp-connection>` and what the page shows about
 * it (tools, tasks, the round-trip time). The views are in workspace-views.ts;
 * the tabs and the saved servers in playground.ts.
 */
import { render } from 'lit';
import type { McpProtocolLog } from '../../components/index.js';
import { clip } from '../../components/internal/json.js';
import { publicUrl } from '../../components/internal/url-secrets.js';
import type { McpClient, ProtocolPreference, Root, TaskEvent, TaskStatus, Tool } from '../../src/index.js';
import { deterministicDraft } from './sampling.js';
import { forgetServer, rememberServer, type SavedServer } from './servers.js';
import { isInBrowserServer, startInBrowserServer } from './shared.js';
import { contentView, settingsView, sidebarView } from './workspace-views.js';

/** Settings of one connection, as the form edits them. */
export interface Settings {
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

export const defaults = (url: string): Settings => ({ url, name: '', protocol: 'auto', requestTimeout: '', maxTotalTime: '', headers: [], token: '', remember: false });

/** What a workspace asks of the page around it (the tabs, the page's URL, the saved list). */
export interface PlaygroundHost {
  /** How many connections are open (the last one cannot be closed). */
  count(): number;
  close(workspace: Workspace): void;
  /** A tab's title or status changed. */
  tabsChanged(): void;
  /** The active server or tool changed: the page's URL follows. */
  urlChanged(): void;
  /** The saved servers changed. */
  saved(list: SavedServer[]): void;
}

/** The panes of the main area besides the tool form: open one at a time. */
export type Pane = 'tool' | 'resources' | 'prompts' | 'tasks' | 'roots';

/** A task of a connection, as the Tasks pane lists it. */
export interface TaskRow {
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

/** Characters of a server's name or title shown on its tab and kept in the saved list. */
const TITLE_CHARS = 80;

/** The demo server's name (demo/server): its hints (try `run_pipeline`) are shown for it only. */
const DEMO_SERVER = 'mcp-web-elements demo server';

let nextId = 1;

/** Seconds typed → ms, or undefined for empty or invalid input. */
export function seconds(text: string): number | undefined {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : undefined;
}

/** One open connection: its settings, its elements and what the page shows about them. */
export class Workspace {
  readonly id = nextId++;
  settings: Settings;
  /** The settings in force (the form may hold edits not applied yet). */
  applied: Settings;
  tools: readonly Tool[] = [];
  selected: string | undefined;
  filter = '';
  pane: Pane = 'tool';
  /** The last round trip: text for the status line. */
  ping = '';
  error = '';
  resumed: { tool: string; result: unknown } | undefined;
  /** The connection's tasks (client task events, and those an earlier page left running). */
  tasks = new Map<string, TaskRow>();
  tasksError: string | undefined;
  settingsOpen: boolean;
  sidebarOpen = true;
  /** A server's `roots/list` waiting while no root is shared: asked beside the page, never in a modal. */
  rootsAsk: { server: string; answer: (roots: Root[]) => void } | undefined;
  readonly panel = document.createElement('div');
  readonly sidebar = document.createElement('aside');
  readonly main = document.createElement('div');
  readonly settingsHost = document.createElement('div');
  readonly connection = document.createElement('mcp-connection');
  readonly content = document.createElement('div');
  readonly host: PlaygroundHost;

  constructor(host: PlaygroundHost, settings: Settings, selected?: string) {
    this.host = host;
    this.settings = { ...settings, headers: settings.headers.map(([k, v]) => [k, v]) };
    // Edits in the form change `settings` only; `applied` changes on Connect.
    this.applied = { ...this.settings, headers: this.settings.headers.map(([k, v]) => [k, v]) };
    this.selected = selected;
    this.settingsOpen = !settings.url;
    this.panel.id = `panel-${this.id}`;
    this.panel.className = 'workspace';
    this.panel.setAttribute('role', 'tabpanel');
    this.panel.setAttribute('aria-labelledby', `tab-${this.id}`);
    this.sidebar.className = 'sidebar';
    this.sidebar.id = `sidebar-${this.id}`;
    this.sidebar.setAttribute('aria-label', 'Servers and tools');
    this.main.className = 'main';
    this.settingsHost.className = 'settings-host';
    const connection = this.connection;
    connection.noAutoConnect = true;
    // No roots until the user adds one (the Roots pane): a page offers only folders its user chose. The
    // list is declared (empty), so a server may ask, and hears when the user adds one.
    connection.roots = [];
    connection.addEventListener('mcp-input-required', (event) => this.#onRootsRequest(event));
    connection.addEventListener('mcp-roots-change', () => {
      const roots = connection.roots ?? [];
      if (this.rootsAsk && roots.length > 0) this.rootsAsk.answer(roots);
      this.update();
    });
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
      this.host.tabsChanged();
      this.update();
    });
    connection.addEventListener('mcp-tools-changed', (event) => {
      this.tools = event.detail.tools;
      if (this.selected && !this.tools.some((t) => t.name === this.selected)) this.selected = undefined;
      this.update();
    });
    connection.addEventListener('mcp-error', () => this.update());
    connection.addEventListener('mcp-disconnect', () => this.update());
    // The history's Re-run and Edit fill the tool form (its default action): the page shows that tool.
    const follow = (event: Event) => {
      const { record } = (event as CustomEvent<{ record: { kind: string; name: string } }>).detail;
      if (record.kind !== 'tool') return;
      this.selected = record.name;
      this.resumed = undefined;
      this.pane = 'tool';
      this.host.urlChanged();
      this.update();
    };
    connection.addEventListener('mcp-history-rerun', follow);
    connection.addEventListener('mcp-history-edit', follow);
  }

  /**
   * `roots/list` (server-everything asks as soon as it connects): answered
   * with the roots the user added in the Roots pane; with none, asked in a
   * line beside the page (Share none, or add one: the answer follows), so the
   * page stays usable and no modal covers it before the user did anything.
   */
  #onRootsRequest(event: GlobalEventHandlersEventMap['mcp-input-required']): void {
    if (event.detail.request.method !== 'roots/list') return;
    event.preventDefault();
    const roots = this.connection.roots ?? [];
    if (roots.length > 0) return event.detail.respondWith({ roots });
    // One question at a time: an earlier one still open is answered "none" (the newer asks again).
    this.rootsAsk?.answer([]);
    const server = clip(String(this.connection.serverInfo?.title ?? this.connection.serverInfo?.name ?? 'The server'), TITLE_CHARS);
    event.detail.respondWith(
      new Promise((resolve) => {
        const ask = {
          server,
          answer: (shared: Root[]) => {
            if (this.rootsAsk === ask) this.rootsAsk = undefined;
            resolve({ roots: shared });
            this.update();
          },
        };
        this.rootsAsk = ask;
        this.update();
      }),
    );
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

  /** Whether the server is the kit's demo server (its hints apply). */
  get isDemoServer(): boolean {
    return isInBrowserServer(this.applied.url) || this.connection.serverInfo?.name === DEMO_SERVER;
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
      // After tasks/cancel the event still carries the last polled state (working): the phase says what happened.
      if (event.phase === 'cancelled') row.status = 'cancelled';
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

  async cancelTask(taskId: string): Promise<void> {
    try {
      await (await this.connection.client!.task(taskId)).cancel();
    } catch (error) {
      this.tasksError = (error as Error).message;
    }
    this.update();
  }

  /** 2025-11-25 servers that declare tasks.list can list their tasks. */
  async listServerTasks(): Promise<void> {
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
    this.host.saved(
      await rememberServer({
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
      }),
    );
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
    this.host.tabsChanged();
    this.host.urlChanged();
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
      this.ping = `RTT ${Math.round(ms)} ms`;
    } catch (error) {
      this.ping = `Ping failed: ${clip((error as Error).message, 200)}`;
    }
    this.update();
  }

  /** What the round trip measured (the status line's tooltip). */
  get pingMethod(): string {
    return this.connection.server?.era === 'legacy' ? 'ping' : 'server/discover (2026-07-28 has no ping)';
  }

  /**
   * Shows tool `name` in the tool pane. With `reveal` (a click in the sidebar), on a narrow
   * screen, where the pane is below the whole tool list, the pane is scrolled into view.
   */
  select(name: string | undefined, { reveal = false } = {}): void {
    this.selected = name;
    this.resumed = undefined;
    if (name) this.pane = 'tool';
    this.host.urlChanged();
    this.update();
    // One column (playground.css: max-width 700px): the form would be a long scroll away.
    if (reveal && name && matchMedia('(max-width: 700px)').matches) this.main.scrollIntoView({ block: 'start' });
  }

  openPane(pane: Pane): void {
    this.pane = pane;
    this.update();
  }

  update(): void {
    render(settingsView(this), this.settingsHost);
    render(sidebarView(this), this.sidebar.querySelector<HTMLElement>('.sidebar-tools')!);
    render(contentView(this), this.content);
    this.panel.classList.toggle('sidebar-closed', !this.sidebarOpen);
  }

  mount(): void {
    const tools = document.createElement('div');
    tools.className = 'sidebar-tools';
    this.sidebar.append(tools);
    this.main.append(this.settingsHost, this.connection);
    this.panel.append(this.sidebar, this.main);
    this.update();
  }
}
