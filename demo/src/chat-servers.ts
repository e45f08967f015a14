/**
 * The chat sample's servers: the demo server and any added in the settings,
 * each an `<mcp-connection>` (its status bar above the conversation) with an
 * inline `<mcp-elicitation-dialog>` of its own, joined by an `McpHost` into
 * one tool catalogue for the model.
 *
 * The dialogs and the transcript's elements sit outside the connections and
 * are given their server's client explicitly: inside one connection they would
 * all answer for that connection's client.
 */
import { appVisibility, type McpConnection, type McpElicitationDialog } from '../../components/index.js';
import { McpHost, type HostTool } from '../../src/host/index.js';
import type { McpClient, Root, Tool } from '../../src/index.js';
import type { ToolHost } from '../../src/adapters/openai.js';
import type { SamplingDraft } from '../../src/adapters/openai-sampling.js';

/** One server of the chat. */
export interface ChatServer {
  key: string;
  url: string;
  /** The demo server (not removable). */
  demo: boolean;
  enabled: boolean;
  /** Its last connection attempt failed. */
  failed: boolean;
  connection: McpConnection;
  dialog: McpElicitationDialog;
}

/** A short name for a server URL: host and path, never its query (a bridge's token is in it). */
export function serverLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return url.slice(0, 80);
  }
}

const forModel = (entry: HostTool | undefined): entry is HostTool => entry !== undefined && appVisibility(entry.tool).includes('model');

export class ChatServers {
  readonly host = new McpHost();
  readonly list: ChatServer[] = [];
  /**
   * The host as the model sees it: tools only MCP Apps may call
   * (`_meta.ui.visibility: ["app"]`) are neither offered nor callable.
   */
  readonly modelHost: ToolHost;
  #samplingHandler: SamplingDraft | undefined;
  #onChange: () => void;

  constructor(
    readonly statusBars: HTMLElement,
    onChange: () => void,
  ) {
    this.#onChange = onChange;
    const host = this.host;
    this.modelHost = {
      get tools() {
        return host.tools.filter(forModel);
      },
      resolve: (name) => {
        const entry = host.resolve(name);
        return forModel(entry) ? entry : undefined;
      },
      callTool: (name, args, options) => (forModel(host.resolve(name)) ? host.callTool(name, args, options) : Promise.reject(new Error(`No tool named "${name}" for the model`))),
    };
    this.host.on('toolsChanged', () => this.#onChange());
    this.host.on('serverError', () => this.#onChange());
  }

  /** The tool a model name stands for (any visibility: the tool menu's forms and the router's calls use it). */
  resolve(name: string): HostTool | undefined {
    return this.host.resolve(name);
  }

  /** The client of the server with `key`, while it has one. */
  clientOf(key: string): McpClient | undefined {
    return this.list.find((server) => server.key === key)?.connection.client;
  }

  /** The tools the model may use, under their model names (for the router and the tool menu). */
  modelTools(): Tool[] {
    return this.modelHost.tools.map((entry) => ({ ...entry.tool, name: entry.name }));
  }

  set samplingHandler(handler: SamplingDraft | undefined) {
    this.#samplingHandler = handler;
    for (const server of this.list) server.dialog.samplingHandler = handler;
  }

  /** Adds a server and connects to it; `roots` are shared with it (none: roots are not declared). */
  add(url: string, options: { demo?: boolean; roots?: Root[]; connect?: boolean; key?: string } = {}): ChatServer {
    const connection = document.createElement('mcp-connection') as McpConnection;
    if (options.connect === false) connection.noAutoConnect = true;
    // Declare MCP Apps support from the first request, so app tools are listed.
    connection.apps = true;
    if (options.roots) connection.roots = options.roots;
    const dialog = document.createElement('mcp-elicitation-dialog') as McpElicitationDialog;
    dialog.inline = true;
    dialog.samplingHandler = this.#samplingHandler;
    if (options.roots) dialog.roots = options.roots;
    else dialog.noRoots = true;
    let key = options.key ?? (options.demo ? 'demo' : serverLabel(url).replace(/[^\w]+/g, '_').slice(0, 24) || 'server');
    for (let n = 2; this.list.some((server) => server.key === key); n++) key = `${key.replace(/\d+$/, '')}${n}`;
    const server: ChatServer = { key, url, demo: options.demo ?? false, enabled: true, failed: false, connection, dialog };
    // The dialog answers for the connection's current client: given at once, before it connects, so
    // the client declares elicitation and sampling in its first request.
    connection.addEventListener('mcp-client-change', (event) => {
      dialog.client = event.detail.client;
      if (this.host.servers.some((entry) => entry.key === key)) this.host.remove(key);
      this.#onChange();
    });
    connection.addEventListener('mcp-connect', () => {
      server.failed = false;
      const client = connection.client;
      const joined = this.host.servers.find((entry) => entry.key === key);
      if (client && joined?.client !== client && this.list.includes(server)) {
        if (joined) this.host.remove(key);
        this.host.add(client, { key, enabled: server.enabled });
      }
      this.#onChange();
    });
    connection.addEventListener('mcp-error', () => {
      server.failed = connection.client?.status !== 'connected';
      this.#onChange();
    });
    connection.serverUrl = url;
    this.list.push(server);
    this.statusBars.append(connection);
    this.#onChange();
    return server;
  }

  remove(key: string): void {
    const index = this.list.findIndex((server) => server.key === key && !server.demo);
    if (index < 0) return;
    const [server] = this.list.splice(index, 1);
    this.host.remove(key);
    // Out of the page, the connection closes its client.
    server!.connection.remove();
    server!.dialog.remove();
    this.#onChange();
  }

  setEnabled(key: string, enabled: boolean): void {
    const server = this.list.find((entry) => entry.key === key);
    if (!server) return;
    server.enabled = enabled;
    this.host.setEnabled(key, enabled);
    this.#onChange();
  }

  /**
   * The server's name for the settings panel: its `serverInfo` title or name once connected (clipped;
   * the server's own text), with the URL (host and path, never the query: a bridge's token) beside it.
   */
  label(server: ChatServer): string {
    const info = server.connection.serverInfo;
    const name = (info?.title || info?.name)?.trim().slice(0, 80);
    const where = serverLabel(server.url);
    if (server.demo) return `Demo server (${name ? `${name}, ` : ''}${where})`;
    return name ? `${name} (${where})` : where;
  }

  /** The switched-off server one of whose tools the model calls `name`, if one is (the call failed because of that). */
  switchedOff(name: string): ChatServer | undefined {
    const joined = this.host.servers.find((entry) => !entry.enabled && entry.tools.some((tool) => tool.name === name || name === `${entry.key}_${tool.name}`));
    return joined && this.list.find((server) => server.key === joined.key);
  }

  /** A server's state in words, for the settings panel. */
  status(server: ChatServer): string {
    const joined = this.host.servers.find((entry) => entry.key === server.key);
    if (joined?.error) return `failed: ${joined.error.message.slice(0, 120)}`;
    if (joined) return `${joined.tools.length} tool${joined.tools.length === 1 ? '' : 's'}${server.enabled ? '' : ', off'}`;
    return server.failed ? 'not connected' : 'connecting…';
  }
}
