/**
 * `mcp-web-elements/bridge` (Node only): stdio MCP servers behind Streamable HTTP
 * endpoints that pages on this machine can use, secure by default. The command
 * line is `npx mcp-web-elements bridge -- <command> [args…]`; see docs/bridge.md.
 *
 * ```ts
 * import { startBridge } from 'mcp-web-elements/bridge';
 * const bridge = await startBridge({ server: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'] } });
 * console.log(bridge.endpoints[0].url); // http://127.0.0.1:<port>/mcp?token=…
 * ```
 *
 * @module
 */
export { startBridge, displayCommand, DEFAULT_ALLOWED_ORIGINS } from './server.js';
export type { Bridge, BridgeEndpoint, BridgeEvent, BridgeOptions, BridgeSessionInfo, RefusalReason } from './server.js';
export type { ChildExit, StdioServerSpec } from './child.js';
export type { EndReason } from './session.js';
export { parseConfig, type BridgeConfig } from './config.js';
export { main, parseBridgeArgs, USAGE, type CliIo, type CliOptions } from './cli.js';
