/**
 * mcp-elements custom elements. Importing this module registers every element.
 *
 * @module
 */
export { clientContext, connectionContext } from './context.js';
export {
  McpClientChangeEvent,
  McpConnectEvent,
  McpDisconnectEvent,
  McpErrorEvent,
  McpInputRequiredEvent,
  McpToolResultEvent,
  McpToolsChangedEvent,
} from './events.js';
export { McpConnection, type ConnectionStatus } from './mcp-connection/mcp-connection.js';
export { diagnoseCors, type CorsDiagnosis } from './mcp-connection/cors-doctor.js';
export { McpElicitationDialog, type InputPolicy, type SamplingDraft } from './mcp-elicitation-dialog/mcp-elicitation-dialog.js';
export { McpToolCallEvent } from './events.js';
export { McpToolForm, type FormIssue, type ToolFormPhase } from './mcp-tool-form/mcp-tool-form.js';
export { McpToolResult } from './mcp-tool-result/mcp-tool-result.js';
export type { BlockView, ResourceView } from './mcp-tool-result/blocks.js';
export { popupAuthorization, type PopupAuthorizationOptions } from './auth/popup.js';
export { redirectAuthorization, completeRedirectAuthorization } from './auth/redirect.js';
export { completeAuthorizationCallback, type CallbackOptions } from './auth/callback.js';
