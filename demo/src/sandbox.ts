/**
 * The demo's MCP Apps sandbox proxy page (sandbox.html): the kit's proxy
 * script. Imported from here rather than named in the page, because the dev
 * server serves only what the pages' own scripts import from outside `demo/`.
 */
import '../../components/mcp-app-frame/sandbox-proxy.js';
