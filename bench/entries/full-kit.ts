/**
 * The full kit as an app ships it when it follows the README: the client core
 * and `import 'mcp-web-elements/elements'` (components/index.ts), which registers
 * `<mcp-connection>`, `<mcp-tool-form>` (with `<mcp-tool-result>`) and
 * `<mcp-elicitation-dialog>`; with Lit and, loaded on demand, ajv. The form
 * benchmark renders from this bundle too.
 */
import '../../components/index.js';

export { McpClient } from '../../src/index.js';
