/**
 * The full kit as an app would ship it: the client core plus `<mcp-connection>`,
 * `<mcp-tool-form>` (which brings `<mcp-tool-result>`) and
 * `<mcp-elicitation-dialog>`, with Lit and, loaded on demand, ajv. Importing the
 * element modules registers the elements. The form benchmark renders from this
 * bundle too.
 */
export { McpClient } from '../../src/index.js';
export { McpConnection } from '../../components/mcp-connection/mcp-connection.js';
export { McpToolForm } from '../../components/mcp-tool-form/mcp-tool-form.js';
export { McpElicitationDialog } from '../../components/mcp-elicitation-dialog/mcp-elicitation-dialog.js';
