/**
 * The client's tool catalogue: the tools of the last `tools/list` (spec:
 * server/tools "Listing Tools"), screened once as their pages arrive (shape,
 * and the `x-mcp-header` annotations of basic/transports/streamable-http
 * "Schema Extension", whose checker loads only for tools that mention them),
 * one listing in flight at a time, and the `Mcp-Param-*` headers a call
 * sends.
 *
 * @module
 */
import { mentionsHeaderBindings } from '../transport/headers.js';
import type { HeaderBinding, RejectedTool } from '../transport/header-bindings.js';
import { isObject, type JsonObject, type Tool } from '../protocol/types.js';

/** What the catalogue needs from its client. */
export interface CatalogueHost {
  /** Follows every page of `tools/list` (`fresh`: not from the cache), handing each page to `pages` as it arrives. */
  listAll(fresh: boolean, pages: object[]): Promise<Tool[]>;
  warn(code: string, message: string): void;
}

export class ToolCatalogue {
  readonly #host: CatalogueHost;
  #tools = new Map<string, Tool>();
  #bindings = new Map<string, HeaderBinding[]>();
  #rejected = new Map<string, RejectedTool>();
  #listed = false;
  // The tools/list pages the current tools were screened from (a listing served from the cache reuses them).
  #screenedPages: readonly object[] = [];
  // Single-flight tools/list: a listing in flight, the generation it answers, and
  // the one follow-up shared by callers who arrive after an invalidation.
  #flight: { promise: Promise<Tool[]>; generation: number } | undefined;
  #followUp: Promise<Tool[]> | undefined;
  #generation = 0;
  #fresh = false;

  constructor(host: CatalogueHost) {
    this.#host = host;
  }

  /** Whether a listing has completed (the definitions below are the server's). */
  get listed(): boolean {
    return this.#listed;
  }

  /** Tools dropped from the last listing because of invalid `x-mcp-header` annotations. */
  get rejected(): readonly RejectedTool[] {
    return [...this.#rejected.values()];
  }

  /** The definition of a tool from the last listing, if any. */
  tool(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** Why the last listing excluded the tool `name`, if it did. */
  rejection(name: string): RejectedTool | undefined {
    return this.#rejected.get(name);
  }

  /** The listing in hand is stale (`notifications/tools/list_changed`): callers from now on get a new one. */
  invalidate(): void {
    this.#generation++;
  }

  /**
   * The tools, listed once for everyone asking while a current listing is in flight;
   * `fresh` skips the cache and starts a new generation. After an invalidation
   * (list_changed, `fresh`) one follow-up runs when the stale flight ends, so a flood
   * of notifications costs at most two listings at a time.
   */
  list(fresh?: boolean): Promise<Tool[]> {
    if (fresh) {
      this.#generation++;
      this.#fresh = true;
    }
    return this.#shared();
  }

  #shared(): Promise<Tool[]> {
    const flight = this.#flight;
    if (!flight) {
      const generation = this.#generation;
      const fresh = this.#fresh;
      this.#fresh = false;
      const promise = this.#listOnce(fresh).finally(() => {
        if (this.#flight?.promise === promise) this.#flight = undefined;
      });
      this.#flight = { promise, generation };
      return promise;
    }
    if (flight.generation === this.#generation) return flight.promise;
    return (this.#followUp ??= flight.promise
      .catch(() => undefined)
      .then(() => {
        this.#followUp = undefined;
        return this.#shared();
      }));
  }

  async #listOnce(fresh: boolean): Promise<Tool[]> {
    const pages: object[] = [];
    const raw = await this.#host.listAll(fresh, pages);
    // Every page served from the cache, as screened last time: the same tools, nothing to screen again.
    if (pages.length === this.#screenedPages.length && pages.every((page, i) => page === this.#screenedPages[i])) return [...this.#tools.values()];
    // One pass: shape checks and the cheap x-mcp-header mention test; only the tools that mention
    // the annotation go through its (lazily loaded) checker, each once. Little garbage right after
    // the parse (one queue for every walk, no pair per map entry): collecting it then would copy
    // the whole, still young, list.
    const flagged: Tool[] = [];
    const queue: unknown[] = [];
    const warn = (code: string, message: string) => this.#host.warn(code, message);
    const tools = raw.filter((tool) => {
      const ok = isObject(tool) && typeof tool.name === 'string' && isObject(tool.inputSchema);
      if (!ok) warn('tool-malformed', `Excluded a tool without a name or an object inputSchema: ${JSON.stringify(tool).slice(0, 120)}`);
      for (const key of ['title', 'description'] as const) {
        // Shown as text by every UI: a number, object or array here would be rendered as "[object Object]" or break it.
        if (ok && key in tool && typeof tool[key] !== 'string') {
          warn('tool-malformed', `Dropped the non-string ${key} of tool "${tool.name}"`);
          delete tool[key];
        }
      }
      if (ok && mentionsHeaderBindings(tool.inputSchema, queue)) flagged.push(tool);
      return ok;
    });
    const { tools: kept, bindings, rejected } = flagged.length ? await import('../transport/header-bindings.js').then((module) => module.screenTools(tools, flagged)) : { tools, bindings: new Map(), rejected: [] };
    this.#tools = new Map();
    for (const tool of kept) this.#tools.set(tool.name, tool);
    this.#bindings = bindings;
    this.#rejected = new Map(rejected.map((entry) => [entry.name, entry]));
    this.#listed = true;
    this.#screenedPages = pages;
    for (const entry of rejected) warn('tool-rejected', `Excluded tool "${entry.name}": ${entry.reason}`);
    return kept;
  }

  /**
   * The `Mcp-Param-*` headers of a call to `name` with `args`, from the caller's own
   * definition `tool` or else the listed one.
   */
  async paramHeaders(name: string, args: JsonObject, tool: Tool | undefined): Promise<Record<string, string>> {
    const listed = tool ? undefined : this.#bindings.get(name);
    // A caller's own definition is checked here; the x-mcp-header checker loads only when it mentions the annotation
    // (or the listing found bindings), and once.
    if (tool ? !mentionsHeaderBindings(tool.inputSchema) : !listed?.length) return {};
    const checker = await import('../transport/header-bindings.js');
    const bindings = listed ?? checker.screenTools([tool!]).bindings.get(name);
    return bindings?.length ? checker.paramHeaders(bindings, args) : {};
  }
}
