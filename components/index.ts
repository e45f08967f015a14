/**
 * mcp-elements custom elements. Importing this module registers every element.
 *
 * @module
 */
export { clientContext } from './context.js';
export {
  McpConnectEvent,
  McpDisconnectEvent,
  McpErrorEvent,
  McpInputRequiredEvent,
  McpToolResultEvent,
  McpToolsChangedEvent,
} from './events.js';
