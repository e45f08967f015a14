/**
 * `<mcp-host>`: the `<mcp-connection>`s inside it as one tool catalogue for a
 * model (`McpHost`, `mcp-web-elements/host`), for a chat UI that hands every
 * server's tools to an LLM. An entry of its own (`mcp-web-elements/host-element`),
 * so a page with one connection downloads none of it.
 *
 * @module
 */
import { css, html, LitElement, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import { McpClientError, McpError, type CallToolOptions, type InputRequiredResult, type JsonObject, type McpClient, type ToolCallResult } from '../../src/index.js';
import { McpHost, type HostServer, type HostTool, type NameStore } from '../../src/host/index.js';
import { defineElement } from '../define.js';
import { McpErrorEvent, McpHostToolsChangedEvent } from '../events.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';

export { McpHostToolsChangedEvent } from '../events.js';
export type { HostServer, HostTool, NameStore } from '../../src/host/index.js';

/** The attributes of a connection inside `<mcp-host>` that the host reads. */
const MEMBER_ATTRIBUTES = ['host-key', 'host-disabled'];

/** What the host knows of one of its connections. */
interface Member {
  /** Its key in the McpHost while its client is in it. */
  key: string | undefined;
  client: McpClient | undefined;
  /** The key and endpoint it had last: a reconnect to the same endpoint keeps the key (and so its names). */
  lastKey: string | undefined;
  lastUrl: string | undefined;
}

/**
 * A {@link NameStore} in `localStorage` under `key`. Unreadable or foreign
 * content counts as no names; a full or refused storage keeps the names for this
 * page only (a name store is a convenience: names are still unique without it).
 */
export function localNameStore(key: string): NameStore {
  return {
    load() {
      try {
        const text = localStorage.getItem(key);
        const value: unknown = text === null ? undefined : JSON.parse(text);
        return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : undefined;
      } catch {
        return undefined;
      }
    },
    save(names) {
      try {
        localStorage.setItem(key, JSON.stringify(names));
      } catch {
        /* quota or storage refused: the names stay this page's */
      }
    },
  };
}

/**
 * Several MCP servers as one tool catalogue: the `<mcp-connection>`s inside it
 * (light DOM, at any depth, not those of a nested `<mcp-host>`) each join an
 * {@link McpHost} with their client, so a chat UI gets one list of tools
 * with names a model can call (the tool's own name while no other server has it,
 * `<server key>__<tool>` on a clash), and calls routed to the right server.
 *
 * Each connection stays what it is alone: its `<mcp-elicitation-dialog>` (or
 * policy) answers the input requests of calls to its server, and its sampling,
 * roots, apps and OAuth are its own.
 *
 * A connection's key (its prefix on a clash, and its identity in the name store)
 * is its `host-key` attribute, else one derived from its URL (`local3001`,
 * `github`). A connection with the `host-disabled` attribute, or turned off with
 * `setEnabled(key, false)`, keeps its names but none of its tools is in the
 * catalogue or callable. Names never change meaning under a model: a connection
 * that reconnects, or leaves and comes back under the same key, gets its names
 * back (names of a connection that left stay reserved for it); with `name-store`
 * they also survive a reload.
 *
 * @tagname mcp-host
 * @summary Several MCP connections as one tool catalogue for a model.
 *
 * @slot - The `<mcp-connection>`s (and anything else).
 *
 * @event mcp-host-tools-changed - The catalogue changed; `detail.tools` is all of it, each tool with its model name.
 * @event mcp-error - A connection could not join (`during: 'host'`: its `host-key` is another connection's).
 */
export class McpHostElement extends LitElement {
  static override styles = css`
    :host {
      display: block;
    }
    :host([hidden]) {
      display: none;
    }
  `;

  /**
   * Where the names given are remembered across reloads: `local` (the
   * `localStorage` of this origin, keyed by the page's path and this element's
   * `id`, so two pages or two hosts on a page keep apart; without an `id` the
   * console says so, as hosts without one share a key), or a
   * {@link NameStore} of the page's. Default: this page's memory only.
   * Changing it rebuilds the host with the names of the new store.
   */
  @property({ attribute: 'name-store' }) nameStore: 'local' | NameStore | undefined;

  #host: McpHost | undefined;
  #hostStore: 'local' | NameStore | undefined;
  #offHost: (() => void) | undefined;
  readonly #members = new Map<McpConnection, Member>();
  readonly #observer = new MutationObserver((records) => this.#onMutations(records));
  #leaveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    // The connections' own events, bubbling from inside: a new client takes the old one's place, a closed one leaves.
    this.addEventListener('mcp-client-change', (event) => this.#memberEvent(event, true));
    this.addEventListener('mcp-disconnect', (event) => this.#memberEvent(event, false));
    this.addEventListener('mcp-connect', (event) => this.#memberEvent(event, true));
  }

  /** The {@link McpHost} of the connections inside (a page may add clients of its own to it). */
  get host(): McpHost {
    if (!this.#host) this.#build();
    return this.#host!;
  }

  /** The catalogue: every tool of the enabled servers that answered their listing, with the name a model calls it by. */
  get tools(): readonly HostTool[] {
    return this.host.tools;
  }

  /** The servers in the host, with their keys, clients, tools and whether they are enabled. */
  get servers(): readonly HostServer[] {
    return this.host.servers;
  }

  /** The `<mcp-connection>` whose server has the tool a model name stands for (its dialog answers for that tool's calls). */
  connectionOf(name: string): McpConnection | undefined {
    const key = this.host.resolve(name)?.serverKey;
    for (const [child, member] of this.#members) if (key !== undefined && member.key === key) return child;
    return undefined;
  }

  /**
   * Calls the tool a model name stands for on its server, through that
   * connection's client (its input requests answered by its dialog or policy).
   *
   * @throws McpClientError `invalid_arguments` when no enabled server has a tool of that name;
   *   whatever `McpClient.callTool` throws.
   */
  callTool(name: string, args: JsonObject = {}, options: CallToolOptions = {}): Promise<ToolCallResult | InputRequiredResult> {
    return this.host.callTool(name, args, options);
  }

  /**
   * Takes a server's tools out of the catalogue (`false`) or puts them back,
   * names kept; one `mcp-host-tools-changed`. For a connection inside, this sets
   * or removes its `host-disabled` attribute, so the choice outlives a reconnect.
   */
  setEnabled(key: string, enabled: boolean): void {
    for (const [child, member] of this.#members) if (member.key === key) child.toggleAttribute('host-disabled', !enabled);
    this.host.setEnabled(key, enabled);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    clearTimeout(this.#leaveTimer);
    this.#observer.observe(this, { childList: true, subtree: true, attributes: true, attributeFilter: MEMBER_ATTRIBUTES });
    this.#reconcile();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#observer.disconnect();
    // Moved around the page, the host keeps its servers; taken off it, they leave (names kept).
    this.#leaveTimer = setTimeout(() => {
      if (this.isConnected) return;
      for (const child of this.#members.keys()) this.#detach(child);
      this.#members.clear();
    }, 0);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('nameStore') && this.#host && this.nameStore !== this.#hostStore) this.#build();
  }

  protected override render() {
    return html`<slot></slot>`;
  }

  /** A new McpHost for the current name store, with every member that has a client in it. */
  #build(): void {
    const old = this.#host;
    this.#offHost?.();
    for (const member of this.#members.values()) {
      if (old && member.key !== undefined) old.remove(member.key, { keepNames: true });
      member.key = undefined;
      member.client = undefined;
    }
    const store = this.nameStore;
    // The local key is the page's path and the id: hosts without one would overwrite each other's names.
    if (store === 'local' && !this.id) console.warn('<mcp-host name-store="local"> has no id: every such host on this page saves its names under one key, so one host overwrites the names of another; give each host an id');
    const names = store === 'local' ? localNameStore(`mcp-web-elements:host-names:${location.pathname}#${this.id}`) : typeof store === 'object' && store ? store : undefined;
    const host = new McpHost(names ? { names } : {});
    this.#host = host;
    this.#hostStore = store;
    this.#offHost = host.on('toolsChanged', ({ tools }) => this.dispatchEvent(new McpHostToolsChangedEvent(tools)));
    for (const child of this.#members.keys()) this.#attach(child);
  }

  /** The connections that belong to this host: inside it, and not inside a nested one. */
  #connections(): McpConnection[] {
    return [...this.querySelectorAll('mcp-connection')].filter((child) => child.closest('mcp-host') === this);
  }

  /** Brings the members in line with the connections inside: those gone leave, new ones join with their client. */
  #reconcile(): void {
    const current = new Set(this.#connections());
    for (const child of [...this.#members.keys()]) {
      if (current.has(child)) continue;
      this.#detach(child);
      this.#members.delete(child);
    }
    for (const child of current) {
      if (this.#members.has(child)) continue;
      this.#members.set(child, { key: undefined, client: undefined, lastKey: undefined, lastUrl: undefined });
      this.#attach(child);
    }
  }

  #onMutations(records: MutationRecord[]): void {
    this.#reconcile();
    for (const record of records) {
      if (record.type !== 'attributes') continue;
      const child = record.target as McpConnection;
      const member = this.#members.get(child);
      if (!member) continue;
      if (record.attributeName === 'host-disabled') {
        if (member.key !== undefined) this.host.setEnabled(member.key, !child.hasAttribute('host-disabled'));
      } else if (member.client && (child.getAttribute('host-key') || undefined) !== member.key) {
        // A new key is a new identity: the server joins again under it.
        this.#detach(child);
        member.lastKey = undefined;
        this.#attach(child);
      }
    }
  }

  #memberEvent(event: Event, join: boolean): void {
    const child = event.target as McpConnection;
    if (!(child instanceof HTMLElement) || child.localName !== 'mcp-connection') return;
    if (!this.#members.has(child)) this.#reconcile();
    if (!this.#members.has(child)) return;
    if (join) this.#attach(child);
    else this.#detach(child);
  }

  /**
   * Puts a member's client in the host, in place of the one it had. The client
   * joins as soon as the connection creates it (its listing waits for the same
   * connect), so servers join in the order their connections start, which is
   * document order for connections that start together.
   */
  #attach(child: McpConnection): void {
    const member = this.#members.get(child);
    const client = child.client;
    if (!member || !client || member.client === client) return;
    this.#detach(child);
    const host = this.host;
    const url = client.url.href;
    const explicit = child.getAttribute('host-key') || undefined;
    const again = member.lastKey !== undefined && member.lastUrl === url && !host.servers.some((server) => server.key === member.lastKey) ? member.lastKey : undefined;
    const key = explicit ?? again;
    try {
      member.key = host.add(client, { ...(key !== undefined ? { key } : {}), enabled: !child.hasAttribute('host-disabled') });
      member.client = client;
      member.lastKey = member.key;
      member.lastUrl = url;
    } catch (error) {
      const failure = McpError.isInstance(error) ? error : new McpClientError('invalid_arguments', String(error), { url });
      this.dispatchEvent(new McpErrorEvent(failure, 'host'));
    }
  }

  /** Takes a member's client out of the host; its names stay reserved for it. */
  #detach(child: McpConnection): void {
    const member = this.#members.get(child);
    if (!member || member.key === undefined) return;
    this.#host?.remove(member.key, { keepNames: true });
    member.key = undefined;
    member.client = undefined;
  }
}

defineElement('mcp-host', McpHostElement);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-host': McpHostElement;
  }
}
