/**
 * What `<mcp-app-frame>` answers to its app's requests (spec: ext-apps "MCP
 * Apps Specific Messages", and the server requests an app may make through its
 * host): tool calls under the page's policy (the tool checked to be on the
 * server and visible to apps, the user asked when the policy says so), the
 * server's tools and resources through the frame's client, links to open, and
 * messages and model context for the page's chat. What the app sends is
 * untrusted: parameters are checked and bounded before use, and a refusal is an
 * {@link AppRpcError} for the app. Display modes are the frame's own.
 *
 * @module
 */
import { McpRpcError, type ContentBlock, type McpClient, type Tool } from '../../src/index.js';
import { McpAppMessageEvent, McpAppModelContextEvent, McpAppOpenLinkEvent, type AppSource } from '../events.js';
import { isRecord, stringifyBounded } from '../internal/json.js';
import { appVisibility } from './app-meta.js';
import { allowToolAlways, isToolAlwaysAllowed } from './app-consent.js';
import { appFiles, saveFiles } from './app-download.js';
import type { AppAnswer, AppQuestion } from './app-prompts.js';
import { AppRpcError, RpcCode } from './channel.js';

/** A `tools/call` an app asks for, as the policy sees it. */
export interface AppToolCall {
  /** The tool's definition (from the server's `tools/list`). */
  tool: Tool;
  /** The arguments the app sent (untrusted). */
  arguments: Record<string, unknown>;
  /** Which app asks. */
  app: AppSource;
}

/**
 * What happens to a `tools/call` from an app (the tool is always first checked
 * to be on the server and visible to apps):
 * - `ask` (default): tools annotated `readOnlyHint: true` run, and so do the
 *   server's tools for its own UI (`_meta.ui.visibility: ["app"]`) unless
 *   annotated `destructiveHint: true`; the user is asked about the others, and
 *   may allow a tool that is not destructive for this app (while its frame
 *   lives) or always for this server (see `alwaysAllowedTools`); a destructive
 *   tool asks every time;
 * - `read-only`: read-only tools run, the others are refused without asking;
 * - `allow`: every call runs; `deny`: every call is refused;
 * - a function: `true` runs, `false` refuses, `undefined` falls back to `ask`.
 */
export type AppToolPolicy = 'ask' | 'read-only' | 'allow' | 'deny' | ((call: AppToolCall) => boolean | undefined | Promise<boolean | undefined>);

/** Largest arguments / message payload an app may send, in characters of JSON. */
const MAX_PAYLOAD_CHARS = 1024 * 1024;

/** What answering the app needs of its frame. */
export interface AppRequestHost {
  /** The frame's client: its own, else its connection's. */
  client(): McpClient | undefined;
  /** Which app asks (for the policy and the page's events). */
  source(): AppSource;
  /** The frame's policy for the app's tool calls. */
  policy(): AppToolPolicy;
  /** Fires one of the frame's cancelable events, handing a request to the page. */
  emit(event: McpAppMessageEvent | McpAppModelContextEvent | McpAppOpenLinkEvent): void;
  /** Asks the user; `deny` when refused or not asked. */
  ask(question: AppQuestion): Promise<AppAnswer>;
}

/** The app's requests to its host, answered for one frame. */
export class AppRequests {
  readonly #host: AppRequestHost;
  /** Tools the user allowed for this app ("Allow for this app"), by name. */
  readonly #allowedForApp = new Set<string>();

  constructor(host: AppRequestHost) {
    this.#host = host;
  }

  /** A new app (or another server) in the frame: what the user allowed for the last one no longer holds. */
  forget(): void {
    this.#allowedForApp.clear();
  }

  /**
   * Answers one request of the app (the channel has checked that it is a
   * well-formed JSON-RPC request); throws {@link AppRpcError} to refuse it.
   */
  async answer(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    switch (method) {
      case 'tools/call':
        return this.#callTool(params, signal);
      case 'tools/list':
        return { tools: await this.#appTools() };
      case 'resources/read': {
        if (typeof params.uri !== 'string' || params.uri.length > 2048) throw new AppRpcError(RpcCode.invalidParams, 'uri must be a string');
        return this.#withClient((client) => client.readResource(params.uri as string, { signal }));
      }
      case 'resources/list':
        return { resources: await this.#withClient((client) => client.listResources({ signal })) };
      case 'ui/open-link':
        return this.#openLink(params);
      case 'ui/download-file': {
        const files = appFiles(params);
        const host = this.#host.client()?.url.host ?? 'the app';
        // Refused or cancelled by the user: a result with isError (spec), not a protocol error.
        if ((await this.#host.ask({ kind: 'download', host, files: files.map(({ name, size }) => ({ name, size })) })) === 'deny') return { isError: true };
        saveFiles(files);
        return {};
      }
      case 'ui/message': {
        if (params.role !== 'user') throw new AppRpcError(RpcCode.invalidParams, 'role must be "user"');
        const content = this.#blocks(params.content);
        if (!content) throw new AppRpcError(RpcCode.invalidParams, 'content must be content blocks');
        return this.#toPage(new McpAppMessageEvent({ role: 'user', content }, this.#host.source()), 'No chat on this page takes messages from apps');
      }
      case 'ui/update-model-context': {
        const content = params.content === undefined ? undefined : this.#blocks(params.content);
        if (params.content !== undefined && !content) throw new AppRpcError(RpcCode.invalidParams, 'content must be content blocks');
        if (params.structuredContent !== undefined && !isRecord(params.structuredContent)) throw new AppRpcError(RpcCode.invalidParams, 'structuredContent must be an object');
        this.#checkSize(params);
        const structuredContent = params.structuredContent as Record<string, unknown> | undefined;
        return this.#toPage(new McpAppModelContextEvent({ content, structuredContent }, this.#host.source()), 'This page keeps no model context from apps');
      }
      default:
        throw new AppRpcError(RpcCode.methodNotFound, `${method.slice(0, 128)} is not supported by this host`);
    }
  }

  #checkSize(value: unknown): void {
    if (stringifyBounded(value, MAX_PAYLOAD_CHARS).truncated) throw new AppRpcError(RpcCode.refused, `The request is larger than ${MAX_PAYLOAD_CHARS} characters of JSON`);
  }

  /** Content blocks from the app: objects with a string `type` (one block is taken as a list of one). */
  #blocks(value: unknown): ContentBlock[] | undefined {
    const list = Array.isArray(value) ? value : isRecord(value) ? [value] : undefined;
    if (!list || list.length > 100 || !list.every((block) => isRecord(block) && typeof block.type === 'string')) return undefined;
    this.#checkSize(list);
    return list as ContentBlock[];
  }

  /** Hands an app request to the page: answered only if a listener took it. */
  async #toPage(event: McpAppMessageEvent | McpAppModelContextEvent | McpAppOpenLinkEvent, refusal: string): Promise<Record<string, never>> {
    this.#host.emit(event);
    if (!event.defaultPrevented) throw new AppRpcError(RpcCode.refused, refusal);
    return this.#toPageAnswer(event);
  }

  async #withClient<T>(run: (client: McpClient) => Promise<T>): Promise<T> {
    const client = this.#host.client();
    if (!client) throw new AppRpcError(RpcCode.refused, 'The host has no connection to the server');
    try {
      return await run(client);
    } catch (error) {
      if (error instanceof McpRpcError) throw new AppRpcError(error.code, error.message);
      throw new AppRpcError(RpcCode.internal, error instanceof Error ? error.message : String(error));
    }
  }

  /** The server's tools an app may call (`_meta.ui.visibility` includes `app`). */
  async #appTools(): Promise<Tool[]> {
    const tools = await this.#withClient((client) => client.listTools());
    return tools.filter((tool) => appVisibility(tool).includes('app'));
  }

  async #callTool(params: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const name = params.name;
    if (typeof name !== 'string' || name.length === 0 || name.length > 256) throw new AppRpcError(RpcCode.invalidParams, 'name must be a tool name');
    if (params.arguments !== undefined && !isRecord(params.arguments)) throw new AppRpcError(RpcCode.invalidParams, 'arguments must be an object');
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    this.#checkSize(args);
    const all = await this.#withClient((client) => client.listTools());
    const tool = all.find((t) => t.name === name);
    if (!tool) throw new AppRpcError(RpcCode.refused, `The server has no tool named "${name.slice(0, 80)}"`);
    if (!appVisibility(tool).includes('app')) throw new AppRpcError(RpcCode.refused, `The tool "${name}" is not visible to apps (_meta.ui.visibility)`);
    const readOnly = tool.annotations?.readOnlyHint === true;
    const destructive = tool.annotations?.destructiveHint === true;
    const visibility = appVisibility(tool);
    // The server's API for its own UI: a tool the model never sees.
    const appOnly = !visibility.includes('model');
    const policy = this.#host.policy();
    let decision: boolean | undefined;
    if (typeof policy === 'function') decision = await policy({ tool, arguments: args, app: this.#host.source() });
    else if (policy === 'allow') decision = true;
    else if (policy === 'deny') decision = false;
    else if (policy === 'read-only') decision = readOnly;
    const undecided = decision === undefined;
    if (undecided) decision = readOnly || (appOnly && !destructive) || (!destructive && (await this.#remembered(name)));
    if (undecided && !decision) {
      // The whole arguments (already bounded by #checkSize): the question shows them all before Allow works.
      const answer = await this.#host.ask({ kind: 'tool', title: tool.title ?? tool.name, name: tool.name, args: stringifyBounded(args, MAX_PAYLOAD_CHARS).text, remember: !destructive });
      decision = answer !== 'deny';
      if (answer === 'app') this.#allowedForApp.add(name);
      const server = this.#host.client()?.url.href;
      if (answer === 'always' && server) await allowToolAlways(server, name).catch(() => undefined);
    }
    if (!decision) throw new AppRpcError(RpcCode.refused, `The call to "${name}" was refused by the host's policy or the user`);
    if (signal.aborted) throw new AppRpcError(RpcCode.refused, 'Cancelled by the app');
    return this.#withClient((client) => client.callTool(name, args, { signal, tool }));
  }

  /** Whether the user allowed `name` for this app, or always for this server. */
  async #remembered(name: string): Promise<boolean> {
    if (this.#allowedForApp.has(name)) return true;
    const server = this.#host.client()?.url.href;
    return server !== undefined && (await isToolAlwaysAllowed(server, name).catch(() => false));
  }

  async #openLink(params: Record<string, unknown>): Promise<Record<string, never>> {
    let url: URL;
    try {
      if (typeof params.url !== 'string' || params.url.length > 4096) throw new Error();
      url = new URL(params.url);
    } catch {
      throw new AppRpcError(RpcCode.invalidParams, 'url must be an absolute URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AppRpcError(RpcCode.refused, `Only http and https links are opened, not ${url.protocol}`);
    const event = new McpAppOpenLinkEvent(url, this.#host.source());
    this.#host.emit(event);
    if (event.defaultPrevented) return this.#toPageAnswer(event);
    if ((await this.#host.ask({ kind: 'link', url })) === 'deny') throw new AppRpcError(RpcCode.refused, 'The user did not open the link');
    window.open(url.href, '_blank', 'noopener,noreferrer');
    return {};
  }

  /** The answer of the page that took an app request: a rejected `respondWith()` refuses it. */
  async #toPageAnswer(event: McpAppMessageEvent | McpAppModelContextEvent | McpAppOpenLinkEvent): Promise<Record<string, never>> {
    try {
      await event.response;
    } catch (error) {
      throw new AppRpcError(RpcCode.refused, error instanceof Error ? error.message : String(error));
    }
    return {};
  }
}
