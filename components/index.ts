/**
 * mcp-elements custom elements. Importing this module registers every element.
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
  McpDisconnectEvent,
  McpErrorEvent,
  McpInputRequiredEvent,
  McpToolResultEvent,
  McpToolsChangedEvent,
} from './events.js';
export { McpConnection, type ConnectionStatus } from './mcp-connection/mcp-connection.js';
export { diagnoseCors, type CorsDiagnosis, type CorsDoctorInput } from './mcp-connection/cors-doctor.js';
export { McpElicitationDialog, type InputPolicy, type SamplingDraft } from './mcp-elicitation-dialog/mcp-elicitation-dialog.js';
export { McpToolCallEvent } from './events.js';
export { McpToolForm, type FormIssue, type ToolFormPhase } from './mcp-tool-form/mcp-tool-form.js';
export { McpToolResult } from './mcp-tool-result/mcp-tool-result.js';
export type { BlockView, ResourceView } from './mcp-tool-result/blocks.js';
export type { AppSource } from './events.js';
// The app frame itself loads on demand (`<mcp-tool-result>` imports it for tools with an app,
// or import 'mcp-elements/app-frame'): only its types and the small helpers are here.
export type { McpAppFrame, AppToolPolicy, AppToolCall, AppDisplayMode } from './mcp-app-frame/mcp-app-frame.js';
export { APP_MIME_TYPE, UI_EXTENSION, appResourceUri, appVisibility, configureAppFrames, declareAppSupport, type AppFrameDefaults } from './mcp-app-frame/app-meta.js';
export { popupAuthorization, type PopupAuthorizationOptions } from './auth/popup.js';
export { redirectAuthorization, completeRedirectAuthorization } from './auth/redirect.js';
export { completeAuthorizationCallback, type CallbackOptions } from './auth/callback.js';
