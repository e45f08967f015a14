/**
 * The kit's DOM events: one `Event` subclass per event with a readonly typed
 * `detail`, registered in `GlobalEventHandlersEventMap`. Domain events are
 * `mcp-*`, bubble and cross shadow roots (`composed`).
 */
import type {
  CallToolResult,
  InputContext,
  InputRequest,
  InputResponse,
  McpClient,
  McpError,
  ServerDescription,
  Tool,
} from '../src/index.js';

const DOMAIN = { bubbles: true, composed: true } as const;

/** `<mcp-connection>` connected; `detail.server` describes the server. */
export class McpConnectEvent extends Event {
  readonly detail: { server: ServerDescription };
  constructor(server: ServerDescription) {
    super('mcp-connect', DOMAIN);
    this.detail = { server };
  }
}

/**
 * `<mcp-connection>` created a new client (before connecting it), e.g. to attach
 * a protocol log from the very first request. `detail.client` is the client.
 */
export class McpClientChangeEvent extends Event {
  readonly detail: { client: McpClient };
  constructor(client: McpClient) {
    super('mcp-client-change', DOMAIN);
    this.detail = { client };
  }
}

/** `<mcp-connection>` disconnected (closed by the page or the user). */
export class McpDisconnectEvent extends Event {
  readonly detail: { reason: 'client' | 'error' };
  constructor(reason: 'client' | 'error') {
    super('mcp-disconnect', DOMAIN);
    this.detail = { reason };
  }
}

/** Something failed; `detail.error` is the typed kit error. */
export class McpErrorEvent extends Event {
  readonly detail: { error: McpError; during: string };
  constructor(error: McpError, during: string) {
    super('mcp-error', DOMAIN);
    this.detail = { error, during };
  }
}

/** The server's tool list was (re)loaded. */
export class McpToolsChangedEvent extends Event {
  readonly detail: { tools: readonly Tool[] };
  constructor(tools: readonly Tool[]) {
    super('mcp-tools-changed', DOMAIN);
    this.detail = { tools };
  }
}

/** A tool call finished; `detail.result` is the final `CallToolResult`. */
export class McpToolResultEvent extends Event {
  readonly detail: { tool: string; arguments: Record<string, unknown>; result: CallToolResult };
  constructor(tool: string, args: Record<string, unknown>, result: CallToolResult) {
    super('mcp-tool-result', DOMAIN);
    this.detail = { tool, arguments: args, result };
  }
}

/**
 * The server asked for input (MRTR). Cancelable: a host that calls
 * `preventDefault()` must answer through `detail.respondWith(promise)`; otherwise
 * the built-in `<mcp-elicitation-dialog>` answers.
 */
export class McpInputRequiredEvent extends Event {
  readonly detail: {
    request: InputRequest;
    context: InputContext;
    respondWith(response: Promise<InputResponse> | InputResponse): void;
  };
  /** The host's answer, if it called `respondWith`. */
  response: Promise<InputResponse> | undefined;
  constructor(request: InputRequest, context: InputContext) {
    super('mcp-input-required', { ...DOMAIN, cancelable: true });
    this.detail = {
      request,
      context,
      respondWith: (response) => {
        this.response = Promise.resolve(response);
      },
    };
  }
}

/**
 * `<mcp-tool-form>` is about to call a tool with `detail.arguments` (already
 * validated and confirmed). Cancelable: `preventDefault()` stops the call, e.g.
 * to ask the user in the host's own way or to record the arguments.
 */
export class McpToolCallEvent extends Event {
  readonly detail: { tool: string; arguments: Record<string, unknown> };
  constructor(tool: string, args: Record<string, unknown>) {
    super('mcp-tool-call', { ...DOMAIN, cancelable: true });
    this.detail = { tool, arguments: args };
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mcp-connect': McpConnectEvent;
    'mcp-client-change': McpClientChangeEvent;
    'mcp-disconnect': McpDisconnectEvent;
    'mcp-error': McpErrorEvent;
    'mcp-tools-changed': McpToolsChangedEvent;
    'mcp-tool-result': McpToolResultEvent;
    'mcp-tool-call': McpToolCallEvent;
    'mcp-input-required': McpInputRequiredEvent;
  }
}
