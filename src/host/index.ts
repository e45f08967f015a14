/**
 * `mcp-web-elements/host`: several MCP connections as one tool catalogue for a
 * model ({@link McpHost}), an entry of its own so that pages with one
 * connection download none of it (the core's eager bytes stay within budget).
 *
 * @module
 */
export { McpHost, type AddServerOptions, type HostEvents, type HostServer, type HostTool, type McpHostOptions, type RemoveServerOptions } from './host.js';
export { serverKeyFromUrl, type NameStore } from './names.js';
