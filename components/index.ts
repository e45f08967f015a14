/**
 * mcp-web-elements custom elements. Importing this module registers
 * `<mcp-connection>`, `<mcp-tool-form>`, `<mcp-tool-result>` and
 * `<mcp-elicitation-dialog>` (and `<mcp-app-frame>` on demand, when a tool has an
 * app). The inspector elements (`<mcp-prompt-form>`, `<mcp-resource-list>`,
 * `<mcp-protocol-log>`, `<mcp-roots-editor>`) have entries of their own
 * (`mcp-web-elements/inspector`, or one each): a page pays only for those it uses;
 * so has `<mcp-host>` (`mcp-web-elements/host-element`), several connections as
 * one tool catalogue for a model.
 *
 * @module
 */
export { clientContext, connectionContext } from './context.js';
export {
  McpAppCloseEvent,
  McpAppDisplayModeEvent,
  McpAppLogEvent,
  McpAppMessageEvent,
  McpAppModelContextEvent,
  McpAppOpenLinkEvent,
  McpAppReadyEvent,
  McpClientChangeEvent,
  McpConnectEvent,
  McpCopyEvent,
  McpDisconnectEvent,
  McpErrorEvent,
  McpInputRequiredEvent,
  McpPromptResultEvent,
  McpResourceReadEvent,
  McpResourceUpdatedEvent,
  McpRootsChangeEvent,
  McpToolResultEvent,
  McpToolsChangedEvent,
} from './events.js';
export { McpConnection, type ConnectionStatus } from './mcp-connection/mcp-connection.js';
export { diagnoseCors, type CorsDiagnosis, type CorsDoctorInput } from './mcp-connection/diagnose.js';
export { McpElicitationDialog, type InputPolicy, type SamplingDraft } from './mcp-elicitation-dialog/mcp-elicitation-dialog.js';
export { McpToolCallEvent } from './events.js';
export { McpToolForm, type FormIssue, type FormTask, type ToolFormPhase } from './mcp-tool-form/mcp-tool-form.js';
export { McpToolResult } from './mcp-tool-result/mcp-tool-result.js';
export type { BlockView, ResourceView } from './mcp-tool-result/blocks.js';
export type { AppSource } from './events.js';
// The inspector elements register from their own entries (components/inspector.ts); their types are here too.
export type { McpPromptForm } from './mcp-prompt-form/mcp-prompt-form.js';
export type { McpResourceList } from './mcp-resource-list/mcp-resource-list.js';
export type { McpProtocolLog, LogRecord, SessionFile } from './mcp-protocol-log/mcp-protocol-log.js';
export type { McpRootsEditor } from './mcp-roots-editor/mcp-roots-editor.js';
// <mcp-host> registers from its own entry (mcp-web-elements/host-element); its types are here too.
export type { McpHostElement, McpHostToolsChangedEvent } from './mcp-host/mcp-host.js';
export type { McpCallHistory, McpHistoryRerunEvent, McpHistoryEditEvent, CallRecord, CallKind, CallOutcome } from './mcp-call-history/mcp-call-history.js';
// The app frame itself loads on demand (`<mcp-tool-result>` imports it for tools with an app,
// or import 'mcp-web-elements/app-frame'): only its types and the small helpers are here.
export type { McpAppFrame, AppToolPolicy, AppToolCall, AppDisplayMode } from './mcp-app-frame/mcp-app-frame.js';
export { APP_MIME_TYPE, UI_EXTENSION, appResourceUri, appVisibility, configureAppFrames, declareAppSupport, type AppFrameDefaults } from './mcp-app-frame/app-meta.js';
export { alwaysAllowedTools, onAlwaysAllowedChange, revokeAlwaysAllowedTool, type AlwaysAllowedTool } from './mcp-app-frame/app-consent.js';
export { popupAuthorization, type PopupAuthorizationOptions } from './auth/popup.js';
export { redirectAuthorization, completeRedirectAuthorization } from './auth/redirect.js';
export { completeAuthorizationCallback, type CallbackOptions } from './auth/callback.js';
