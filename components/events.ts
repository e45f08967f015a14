/**
 * The kit's DOM events: one `Event` subclass per event with a readonly typed
 * `detail`, registered in `GlobalEventHandlersEventMap`. Domain events are
 * `mcp-*`, bubble and cross shadow roots (`composed`).
 */
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  InputContext,
  InputRequest,
  InputResponse,
  McpClient,
  McpError,
  ReadResourceResult,
  Root,
  ServerDescription,
  Tool,
} from '../src/index.js';

import type { HostTool } from '../src/host/index.js';
import type { CallRecord } from './mcp-call-history/types.js';

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

/**
 * `<mcp-prompt-form>` got a prompt (spec: server/prompts "Getting a Prompt"):
 * `detail.prompt` is its name, `detail.arguments` the values sent, `detail.result`
 * the `GetPromptResult` with its messages.
 */
export class McpPromptResultEvent extends Event {
  readonly detail: { prompt: string; arguments: Record<string, string>; result: GetPromptResult };
  constructor(prompt: string, args: Record<string, string>, result: GetPromptResult) {
    super('mcp-prompt-result', DOMAIN);
    this.detail = { prompt, arguments: args, result };
  }
}

/**
 * `<mcp-resource-list>` read a resource (spec: server/resources "Reading
 * Resources"): `detail.uri` is the URI read, `detail.result` the
 * `ReadResourceResult` with its contents.
 */
export class McpResourceReadEvent extends Event {
  readonly detail: { uri: string; result: ReadResourceResult };
  constructor(uri: string, result: ReadResourceResult) {
    super('mcp-resource-read', DOMAIN);
    this.detail = { uri, result };
  }
}

/**
 * The server said a resource the page subscribed to changed (spec:
 * server/resources "Subscriptions", `notifications/resources/updated`):
 * `detail.uri` names it.
 */
export class McpResourceUpdatedEvent extends Event {
  readonly detail: { uri: string };
  constructor(uri: string) {
    super('mcp-resource-updated', DOMAIN);
    this.detail = { uri };
  }
}

/**
 * The roots shared with the server changed (`<mcp-connection>`'s `roots`, or
 * `<mcp-roots-editor>`; spec: client/roots "Listing Roots", and 2025-11-25 "Root List Changes"): `detail.roots`
 * is the whole new list.
 */
export class McpRootsChangeEvent extends Event {
  readonly detail: { roots: Root[] };
  constructor(roots: Root[]) {
    super('mcp-roots-change', DOMAIN);
    this.detail = { roots };
  }
}

/**
 * `<mcp-protocol-log>` copied a message (`format` `json` or `curl`; secrets
 * masked). `detail.copied` is false when the clipboard refused: the log then
 * shows the text to copy by hand.
 */
export class McpCopyEvent extends Event {
  readonly detail: { format: 'json' | 'curl'; text: string; copied: boolean };
  constructor(format: 'json' | 'curl', text: string, copied: boolean) {
    super('mcp-copy', DOMAIN);
    this.detail = { format, text, copied };
  }
}

/** Which app sent an `mcp-app-*` event: the tool it renders and its `ui://` resource. */
export interface AppSource {
  /** The tool the app belongs to (its definition, when known). */
  tool: Tool | undefined;
  /** The app's `ui://` resource URI. */
  resourceUri: string;
  /** `appInfo` from the app's `ui/initialize` (untrusted text). */
  appInfo: { name?: string; version?: string } | undefined;
}

/**
 * An app's request that the host's chat handles (spec: ext-apps "MCP Apps
 * Specific Messages"). Cancelable: a host that calls `preventDefault()` takes
 * the request and may answer later through `detail.respondWith(promise)` (a
 * rejected promise refuses it); without `preventDefault()` the frame refuses it.
 */
abstract class AppRequestEvent<P> extends Event {
  readonly detail: P & { app: AppSource; respondWith(answer: Promise<void> | void): void };
  /** The host's answer, if it called `respondWith`. */
  response: Promise<void> | undefined;
  constructor(type: string, params: P, app: AppSource) {
    super(type, { ...DOMAIN, cancelable: true });
    this.detail = {
      ...params,
      app,
      respondWith: (answer) => {
        this.response = Promise.resolve(answer);
      },
    };
  }
}

/** `ui/message`: the app asks to add a message to the conversation (`role` is `user`; `content` untrusted). */
export class McpAppMessageEvent extends AppRequestEvent<{ role: string; content: ContentBlock[] }> {
  constructor(params: { role: string; content: ContentBlock[] }, app: AppSource) {
    super('mcp-app-message', params, app);
  }
}

/**
 * `ui/update-model-context`: the app replaces what it wants the model to know in
 * later turns (`content` blocks and/or `structuredContent`; untrusted).
 */
export class McpAppModelContextEvent extends AppRequestEvent<{ content: ContentBlock[] | undefined; structuredContent: Record<string, unknown> | undefined }> {
  constructor(params: { content: ContentBlock[] | undefined; structuredContent: Record<string, unknown> | undefined }, app: AppSource) {
    super('mcp-app-model-context', params, app);
  }
}

/**
 * `ui/open-link`: the app asks to open an http(s) URL (already checked).
 * Cancelable: `preventDefault()` means the host opens it (or not) itself;
 * otherwise the frame asks the user, showing the URL's host.
 */
export class McpAppOpenLinkEvent extends AppRequestEvent<{ url: URL }> {
  constructor(url: URL, app: AppSource) {
    super('mcp-app-open-link', { url }, app);
  }
}

/** The app finished its handshake (`ui/initialize`, then `ui/notifications/initialized`). */
export class McpAppReadyEvent extends Event {
  readonly detail: { app: AppSource; appCapabilities: Record<string, unknown> };
  constructor(app: AppSource, appCapabilities: Record<string, unknown>) {
    super('mcp-app-ready', DOMAIN);
    this.detail = { app, appCapabilities };
  }
}

/** A log message from the app (`notifications/message`; `data` is untrusted). */
export class McpAppLogEvent extends Event {
  readonly detail: { app: AppSource; level: string; logger: string | undefined; data: unknown };
  constructor(app: AppSource, level: string, logger: string | undefined, data: unknown) {
    super('mcp-app-log', DOMAIN);
    this.detail = { app, level, logger, data };
  }
}

/** The app's display mode changed (`inline`, `fullscreen` or `pip`). */
export class McpAppDisplayModeEvent extends Event {
  readonly detail: { app: AppSource; mode: 'inline' | 'fullscreen' | 'pip' };
  constructor(app: AppSource, mode: 'inline' | 'fullscreen' | 'pip') {
    super('mcp-app-display-mode', DOMAIN);
    this.detail = { app, mode };
  }
}

/** The app was torn down (`ui/resource-teardown` sent); `detail.reason` says why. */
export class McpAppCloseEvent extends Event {
  readonly detail: { app: AppSource; reason: string };
  constructor(app: AppSource, reason: string) {
    super('mcp-app-close', DOMAIN);
    this.detail = { app, reason };
  }
}

/**
 * `<mcp-call-history>`: Re-run was chosen for `detail.record`. Cancelable: a
 * page that calls `preventDefault()` runs it its own way; otherwise the history
 * sends it again (a tool through the connection's `<mcp-tool-form>`).
 */
export class McpHistoryRerunEvent extends Event {
  readonly detail: { record: CallRecord };
  constructor(record: CallRecord) {
    super('mcp-history-rerun', { ...DOMAIN, cancelable: true });
    this.detail = { record };
  }
}

/**
 * `<mcp-call-history>`: Edit was chosen for the tool call `detail.record`.
 * Cancelable: otherwise the history puts its arguments into the connection's
 * `<mcp-tool-form>`.
 */
export class McpHistoryEditEvent extends Event {
  readonly detail: { record: CallRecord };
  constructor(record: CallRecord) {
    super('mcp-history-edit', { ...DOMAIN, cancelable: true });
    this.detail = { record };
  }
}

/**
 * `<mcp-host>`: its catalogue changed (a connection joined, left, reconnected,
 * was enabled or disabled, or a server's tool list changed). `detail.tools` is
 * the whole catalogue, each tool with the name a model calls it by.
 */
export class McpHostToolsChangedEvent extends Event {
  readonly detail: { tools: readonly HostTool[] };
  constructor(tools: readonly HostTool[]) {
    super('mcp-host-tools-changed', DOMAIN);
    this.detail = { tools };
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'mcp-host-tools-changed': McpHostToolsChangedEvent;
    'mcp-history-rerun': McpHistoryRerunEvent;
    'mcp-history-edit': McpHistoryEditEvent;
    'mcp-connect': McpConnectEvent;
    'mcp-client-change': McpClientChangeEvent;
    'mcp-disconnect': McpDisconnectEvent;
    'mcp-error': McpErrorEvent;
    'mcp-tools-changed': McpToolsChangedEvent;
    'mcp-tool-result': McpToolResultEvent;
    'mcp-tool-call': McpToolCallEvent;
    'mcp-input-required': McpInputRequiredEvent;
    'mcp-prompt-result': McpPromptResultEvent;
    'mcp-resource-read': McpResourceReadEvent;
    'mcp-resource-updated': McpResourceUpdatedEvent;
    'mcp-roots-change': McpRootsChangeEvent;
    'mcp-copy': McpCopyEvent;
    'mcp-app-message': McpAppMessageEvent;
    'mcp-app-model-context': McpAppModelContextEvent;
    'mcp-app-open-link': McpAppOpenLinkEvent;
    'mcp-app-ready': McpAppReadyEvent;
    'mcp-app-log': McpAppLogEvent;
    'mcp-app-display-mode': McpAppDisplayModeEvent;
    'mcp-app-close': McpAppCloseEvent;
  }
}
