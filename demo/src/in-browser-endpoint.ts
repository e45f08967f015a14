/** Path of the in-browser demo server's MCP endpoint, relative to the site's root (the Service Worker's scope). */
export const IN_BROWSER_ENDPOINT = './demo-mcp';
/** The Service Worker script, relative to the site's root. */
export const IN_BROWSER_WORKER = './demo-sw.js';
