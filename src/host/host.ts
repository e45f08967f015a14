/**
 * `McpHost`: several `McpClient` connections seen as one tool catalogue, for a
 * chat UI that hands every server's tools to one model.
 *
 * Each connection stays a client of its own (its OAuth, input handlers,
 * tasks, apps and subscriptions are untouched); the host adds the catalogue
 * across them, with model names that never collide and never change under a
 * model ({@link assignNames}), per-server enable/disable, one `toolsChanged`
 * event, and calls routed to the connection that owns the tool.
 *
 * @module
 */
import type { McpClient } from '../client.js';
import type { CallToolOptions, ToolCallResult } from '../client/options.js';
import { McpClientError, type McpError } from '../protocol/errors.js';
import type { InputRequestMethod, InputRequiredResult, JsonObject, Tool } from '../protocol/types.js';
import type { InputHandlers } from '../rounds/handlers.js';
import { Emitter } from '../util/emitter.js';
import { assignNames, entryId, isModelName, serverKeyFromUrl, type NameStore } from './names.js';

/** One tool of the host's catalogue: the name a model calls it by, and where it lives. */
export interface HostTool {
  /** The name for the model: unique in the host, stable across reconnects (and reloads, with a {@link NameStore}). */
  readonly name: string;
  /** The key of the server that has it (see {@link McpHost.add}). */
  readonly serverKey: string;
  /** The tool's definition as its server listed it (`tool.name` is the server's name for it). */
  readonly tool: Tool;
}

/** A server of the host, as {@link McpHost.servers} lists it. */
export interface HostServer {
  readonly key: string;
  readonly client: McpClient;
  /** Disabled servers keep their names but none of their tools is in the catalogue or callable. */
  readonly enabled: boolean;
  /** The tools of its last listing (every listing, enabled or not). */
  readonly tools: readonly Tool[];
  /** Why its last listing failed, if it did (its tools are then left out until a listing succeeds). */
  readonly error: McpError | Error | undefined;
}

/** Options of {@link McpHost.add}. */
export interface AddServerOptions {
  /**
   * The server's key: its prefix in clashing names and its identity in the
   * {@link NameStore}. Give one that stays the same across reloads (a setting's
   * id); default: derived from the URL ({@link serverKeyFromUrl}), made unique
   * in the host with a number.
   */
  key?: string;
  /** Default true. */
  enabled?: boolean;
}

/** Options of {@link McpHost.remove}. */
export interface RemoveServerOptions {
  /** Keep the server's names reserved for a server added later under the same key. Default false: they are forgotten. */
  keepNames?: boolean;
}

/** Options of {@link McpHost}. */
export interface McpHostOptions {
  /** Remembers the names given, for the same names after a reload. Default: memory of this host only. */
  names?: NameStore;
}

/** Events of {@link McpHost}. */
export interface HostEvents {
  /** The catalogue changed: a server was added, removed, enabled or disabled, or a listing changed its tools. */
  toolsChanged: { tools: readonly HostTool[] };
  /**
   * A server's listing failed (its tools are left out of the catalogue until one succeeds), or
   * (`too_large`) some of its tools were left out: nested too deep to send to a model.
   */
  serverError: { key: string; error: McpError | Error };
}

/**
 * Whether a tool is the model's: not one a server made for its MCP App's own use only
 * (`_meta.ui.visibility` without `"model"`; MCP Apps extension, `McpUiToolMeta.visibility`:
 * "app" is "callable by the app from this server only"). The app calls those through its
 * own connection; in the catalogue a model would call them.
 */
function forModel(tool: Tool): boolean {
  const ui = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui;
  const visibility = ui && typeof ui === 'object' ? ui.visibility : undefined;
  return !Array.isArray(visibility) || visibility.includes('model');
}

/** Deepest nesting (objects and arrays) of a tool definition the catalogue takes (real schemas nest a few dozen levels). */
const MAX_TOOL_NESTING = 256;

/** Whether `value` nests at most `max` levels of objects and arrays (walked without recursion). */
function nestingWithin(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return false;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return true;
}

interface ServerState {
  key: string;
  client: McpClient;
  enabled: boolean;
  tools: Tool[];
  error: McpError | Error | undefined;
  off: () => void;
  /** Bumped per listing started, so an older listing's answer never replaces a newer one's. */
  generation: number;
  /** Its first listing has ended (with tools or an error). */
  settled: boolean;
}

/**
 * Several MCP servers as one tool catalogue.
 *
 * @example
 * ```ts
 * const host = new McpHost();
 * host.add(new McpClient('https://mcp.example.com/mcp'), { key: 'example' });
 * host.add(new McpClient('https://tools.internal/mcp'), { key: 'internal' });
 * const tools = await host.refresh();          // [{ name: 'search', serverKey: 'example', tool }, …]
 * const result = await host.callTool(tools[0].name, { query: 'mcp' });
 * ```
 */
export class McpHost {
  readonly #servers = new Map<string, ServerState>();
  readonly #emitter = new Emitter<HostEvents>();
  readonly #store: NameStore | undefined;
  readonly #remembered = new Map<string, string>();
  /** The host's input handlers, in registration order, each with its removal on every server it was set on. */
  readonly #handlers = new Set<{ method: InputRequestMethod; handler: InputHandlers[InputRequestMethod]; offs: Map<ServerState, () => void> }>();
  #catalogue: HostTool[] = [];
  #byName = new Map<string, HostTool>();

  constructor(options: McpHostOptions = {}) {
    this.#store = options.names;
    const stored = this.#store?.load();
    if (stored && typeof stored === 'object') {
      // A stored name a chat API would refuse (another version's, or edited by hand) is not reused: one such
      // name in a request's tool list makes the provider reject the whole request.
      for (const [id, name] of Object.entries(stored)) if (isModelName(name)) this.#remembered.set(id, name);
    }
  }

  /**
   * Adds a connection. Its tools are listed now (and again whenever it announces
   * a change); `toolsChanged` fires when they arrive.
   *
   * @returns the server's key.
   * @throws McpClientError `invalid_arguments` when `key` is already used in this host.
   */
  add(client: McpClient, options: AddServerOptions = {}): string {
    let key = options.key;
    if (key !== undefined) {
      if (this.#servers.has(key)) throw new McpClientError('invalid_arguments', `A server with key "${key}" is already in the host`, { url: client.url.href });
    } else {
      const base = serverKeyFromUrl(client.url);
      key = base;
      // A separator: `local3001` numbered `local30012` would be the key of port 30012.
      for (let n = 2; this.#servers.has(key); n++) key = `${base}-${n}`;
    }
    const offChanged = client.on('toolsChanged', () => void this.#list(state, true));
    const state: ServerState = {
      key,
      client,
      enabled: options.enabled ?? true,
      tools: [],
      error: undefined,
      off: () => {
        offChanged();
        for (const registration of this.#handlers) {
          registration.offs.get(state)?.();
          registration.offs.delete(state);
        }
      },
      generation: 0,
      settled: false,
    };
    for (const registration of this.#handlers) registration.offs.set(state, client.setInputHandler(registration.method, registration.handler as never));
    this.#servers.set(key, state);
    void this.#list(state, false);
    return key;
  }

  /**
   * Removes a server (its client is not closed: the page may still use it). Its
   * names are forgotten, unless `keepNames`: then they stay reserved for it, and
   * a server added again under the same key gets them back (a connection that
   * is re-created, as `<mcp-host>` does when a connection reconnects).
   */
  remove(key: string, options: RemoveServerOptions = {}): void {
    const state = this.#servers.get(key);
    if (!state) return;
    state.off();
    this.#servers.delete(key);
    if (!options.keepNames) {
      for (const id of [...this.#remembered.keys()]) if (id.startsWith(`${key}\u0000`)) this.#remembered.delete(id);
      this.#save();
    }
    this.#update(true);
  }

  /** Takes a server's tools out of the catalogue (`false`) or puts them back; their names are kept. */
  setEnabled(key: string, enabled: boolean): void {
    const state = this.#servers.get(key);
    if (!state || state.enabled === enabled) return;
    state.enabled = enabled;
    this.#update(true);
  }

  /** The servers, in the order they were added. */
  get servers(): readonly HostServer[] {
    return [...this.#servers.values()].map(({ key, client, enabled, tools, error }) => ({ key, client, enabled, tools, error }));
  }

  /**
   * The catalogue: every tool of the enabled servers that is the model's, in server order then
   * listing order. Tools a server made for its MCP App only (`_meta.ui.visibility` without
   * `"model"`) are not in it (`servers[i].tools` has them). While a server's first listing is in
   * flight, it and the servers added after it are not in it yet.
   */
  get tools(): readonly HostTool[] {
    return this.#catalogue;
  }

  /** The tool a model name stands for (enabled servers only). */
  resolve(name: string): HostTool | undefined {
    return this.#byName.get(name);
  }

  /**
   * Lists every server's tools again (`fresh`: past the cache) and returns the
   * catalogue. A server whose listing fails is left out (see `serverError`).
   */
  async refresh(options: { fresh?: boolean } = {}): Promise<readonly HostTool[]> {
    await Promise.all([...this.#servers.values()].map((state) => this.#list(state, options.fresh ?? false)));
    return this.#catalogue;
  }

  /**
   * Calls the tool a model name stands for on its server, with the client's own
   * `callTool` (input requests answered by that client's handlers).
   *
   * @throws McpClientError `invalid_arguments` when no enabled server has a tool of that name;
   *   whatever `McpClient.callTool` throws.
   */
  callTool(name: string, args: JsonObject = {}, options: CallToolOptions = {}): Promise<ToolCallResult | InputRequiredResult> {
    const entry = this.#byName.get(name);
    const state = entry && this.#servers.get(entry.serverKey);
    if (!entry || !state) return Promise.reject(new McpClientError('invalid_arguments', `No enabled server has a tool named "${name}"`, { method: 'tools/call', tool: name }));
    return state.client.callTool(entry.tool.name, args, { tool: entry.tool, ...options });
  }

  /**
   * Registers an input handler on every server of the host, now and added later
   * (the context each call gets names the asking server: `context.url`, `context.server`).
   * @returns a function that removes it from them all.
   */
  setInputHandler<K extends InputRequestMethod>(method: K, handler: InputHandlers[K]): () => void {
    // Each removal is kept per server, so the function returned also takes it off the servers added after this call.
    const registration = { method, handler: handler as InputHandlers[InputRequestMethod], offs: new Map<ServerState, () => void>() };
    this.#handlers.add(registration);
    for (const state of this.#servers.values()) registration.offs.set(state, state.client.setInputHandler(method, handler));
    return () => {
      this.#handlers.delete(registration);
      for (const off of registration.offs.values()) off();
      registration.offs.clear();
    };
  }

  /**
   * Adds an event listener.
   * @returns a function that removes it.
   */
  on<K extends keyof HostEvents>(type: K, listener: (event: HostEvents[K]) => void): () => void {
    return this.#emitter.on(type, listener);
  }

  async #list(state: ServerState, fresh: boolean): Promise<void> {
    const generation = ++state.generation;
    try {
      const listed = await state.client.listTools({ fresh });
      if (generation !== state.generation || this.#servers.get(state.key) !== state) return;
      // A definition nested deeper than JSON.stringify's stack cannot be sent to a model: in the catalogue it
      // would fail every chat request the page makes, for every server's tools. Such a tool is left out.
      const tools = listed.filter((tool) => nestingWithin(tool, MAX_TOOL_NESTING));
      state.tools = tools;
      state.error = undefined;
      if (tools.length < listed.length) {
        const kept = new Set(tools);
        const left = listed.filter((tool) => !kept.has(tool)).map((tool) => `"${tool.name.slice(0, 64)}"`);
        const error = new McpClientError('too_large', `Left out tool(s) ${left.slice(0, 5).join(', ')}${left.length > 5 ? ` and ${left.length - 5} more` : ''}: nested deeper than ${MAX_TOOL_NESTING} levels`, { url: state.client.url.href, method: 'tools/list', limit: MAX_TOOL_NESTING });
        this.#emitter.emit('serverError', { key: state.key, error });
      }
    } catch (error) {
      if (generation !== state.generation || this.#servers.get(state.key) !== state) return;
      state.tools = [];
      // A server that declares no tools (prompts or resources only) refuses tools/list: it has none, nothing failed.
      const toolless = state.client.server !== undefined && state.client.server.capabilities.tools === undefined;
      state.error = toolless ? undefined : (error as Error);
      if (!toolless) this.#emitter.emit('serverError', { key: state.key, error: error as Error });
    }
    state.settled = true;
    this.#update(false);
  }

  /** Saves the names given; a store that throws (full, refused) costs the names' reload, never the catalogue. */
  #save(): void {
    try {
      this.#store?.save(Object.fromEntries(this.#remembered));
    } catch {
      /* the names stay this host's: they are still unique and stable while it lives */
    }
  }

  /** Recomputes names and the catalogue; fires `toolsChanged` when it differs (`always`: when the servers changed). */
  #update(always: boolean): void {
    // A server's tools join once every server added before it has answered its first listing: which
    // server keeps a clashing tool's plain name then depends on the order servers were added, never
    // on which answered first.
    const servers = [...this.#servers.values()];
    const waiting = servers.findIndex((state) => !state.settled);
    const entries = (waiting < 0 ? servers : servers.slice(0, waiting)).flatMap((state) =>
      state.tools.filter(forModel).map((tool) => ({ serverKey: state.key, toolName: tool.name, tool, enabled: state.enabled })),
    );
    const before = this.#remembered.size;
    const names = assignNames(entries, this.#remembered);
    if (this.#remembered.size !== before) this.#save();
    const catalogue = entries.filter((entry) => entry.enabled).map((entry) => ({ name: names.get(entryId(entry.serverKey, entry.toolName))!, serverKey: entry.serverKey, tool: entry.tool }));
    // A listing gives new objects each time: the same catalogue is the same names for equal definitions.
    const same =
      catalogue.length === this.#catalogue.length &&
      catalogue.every((entry, i) => {
        const was = this.#catalogue[i]!;
        return entry.name === was.name && (entry.tool === was.tool || JSON.stringify(entry.tool) === JSON.stringify(was.tool));
      });
    this.#catalogue = catalogue;
    this.#byName = new Map(catalogue.map((entry) => [entry.name, entry]));
    if (!same || always) this.#emitter.emit('toolsChanged', { tools: catalogue });
  }
}
