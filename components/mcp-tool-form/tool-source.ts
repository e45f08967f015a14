/**
 * The definition of the tool `<mcp-tool-form>` shows. Given a `tool-name`, it
 * comes from the client's `tools/list` (the list the client keeps, else
 * listed), and is listed again when the server says the list changed
 * (server/tools "List Changed Notification"); an unchanged definition is kept
 * as it was, so the form keeps what was typed. Without it, why (the server
 * lists no such tool, or the client excluded it). A definition set on `.tool`
 * is checked here too.
 *
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { McpClientError, type McpClient, type McpError, type Tool } from '../../src/index.js';
import { isRecord, jsonEqual } from '../internal/json.js';
import { kitError } from './form-call.js';

/** Whether two tool definitions are the same JSON (a schema too deep to compare counts as changed). */
export function sameDefinition(a: Tool, b: Tool): boolean {
  try {
    return jsonEqual(a, b);
  } catch {
    return false;
  }
}

/** Whether a tool definition has what the form needs: a string name and an object inputSchema. */
export function usableTool(tool: Tool): boolean {
  return typeof tool.name === 'string' && isRecord(tool.inputSchema);
}

/** The form as the tool source reads it: its client, and the `tool-name` and `.tool` set on it. */
export interface ToolSourceHost extends ReactiveControllerHost {
  readonly effectiveClient: McpClient | undefined;
  readonly toolName: string;
  readonly tool: Tool | undefined;
}

/** What the tool source tells the form. */
export interface ToolSourceForm {
  /**
   * The tools are being listed (`on`), or no longer. Listed anew after a list change, the tool may
   * have a call running or waiting for its confirmation: that goes on, shown as it was until it
   * ends (a changed definition starts the fields over; the call keeps its progress, Cancel and result).
   */
  loading(on: boolean): void;
  /** Why there is no definition (fired as `mcp-error`). */
  failed(error: McpError): void;
}

/** Keeps the tool definition of one `<mcp-tool-form>` given a `tool-name` (see the module). */
export class ToolSource implements ReactiveController {
  readonly #host: ToolSourceHost;
  readonly #form: ToolSourceForm;
  #tool: Tool | undefined;
  #error: McpError | undefined;
  #loadToken = 0;
  #unsubscribe: (() => void) | undefined;
  #subscribedTo: McpClient | undefined;

  constructor(host: ToolSourceHost, form: ToolSourceForm) {
    this.#host = host;
    this.#form = form;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#subscribedTo = undefined;
  }

  /** The definition listed for the tool's name. */
  get tool(): Tool | undefined {
    return this.#tool;
  }

  /** Why listing it failed, or why the list has none. */
  get error(): McpError | undefined {
    return this.#error;
  }

  #set(tool: Tool | undefined, error: McpError | undefined): void {
    if (tool === this.#tool && error === this.#error) return;
    this.#tool = tool;
    this.#error = error;
    this.#host.requestUpdate();
  }

  /** Follows the tool list of `client`: a changed list may change the definition the form shows. */
  follow(client: McpClient | undefined): void {
    if (client === this.#subscribedTo) return;
    this.#unsubscribe?.();
    this.#subscribedTo = client;
    // A changed tool list may change the definition the form shows (server/tools "List Changed Notification").
    this.#unsubscribe = client?.on('toolsChanged', () => {
      if (!this.#host.tool && this.#host.toolName) void this.load(true);
    });
  }

  /** Forgets the definition listed (the form has no tool name). */
  clear(): void {
    this.#set(undefined, this.#error);
  }

  /** Looks the tool up by name: in the client's list, or (`fresh`, or not there) listed anew. */
  async load(fresh: boolean): Promise<void> {
    const client = this.#host.effectiveClient;
    const name = this.#host.toolName;
    if (!client || !name) return;
    const token = ++this.#loadToken;
    const known = fresh ? undefined : client.tool(name);
    if (known) {
      this.#set(known, undefined);
      return;
    }
    this.#form.loading(true);
    try {
      const tools = await client.listTools(fresh ? { fresh: true } : {});
      if (token !== this.#loadToken) return;
      const found = tools.find((tool) => tool.name === name);
      if (found) {
        // A list change about other tools re-lists this one too: an unchanged definition keeps
        // the form as it is — what the user typed and the result shown.
        this.#set(!this.#tool || !sameDefinition(this.#tool, found) ? found : this.#tool, undefined);
      } else {
        const rejected = client.rejectedTools.find((tool) => tool.name === name);
        this.#set(
          undefined,
          new McpClientError(
            'invalid_arguments',
            rejected ? `The server's tool "${name}" was excluded: ${rejected.reason}` : `The server lists no tool named "${name}".`,
            { url: client.url.href, method: 'tools/list', tool: name },
          ),
        );
        this.#form.failed(this.#error!);
      }
    } catch (error) {
      if (token !== this.#loadToken) return;
      this.#set(this.#tool, kitError(error, client, 'tools/list'));
      this.#form.failed(this.#error!);
    } finally {
      if (token === this.#loadToken) this.#form.loading(false);
    }
  }
}
