/**
 * The docs' live examples run the kit's real elements against the demo MCP
 * server of the hosted demo: the Service Worker `demo-sw.js` at the site's
 * root answers `<root>/demo-mcp` (demo/src/demo-sw.ts), so the docs need no
 * backend either. The same start-up code as the playground's (demo/src/shared.ts).
 */
import { inBrowserServerUrl, startInBrowserServer } from '../../../demo/src/shared.js';
import type { McpConnection } from '../../../components/index.js';

/**
 * Defines the elements, starts the in-browser demo server and points every
 * `<mcp-connection>` under `container` at it.
 * @param siteRoot URL of the site's root (the folder of demo-sw.js), with a trailing slash.
 */
export async function startLiveExample(container: HTMLElement, siteRoot: string): Promise<void> {
  await import('../../../components/index.js');
  await startInBrowserServer(siteRoot);
  for (const connection of container.querySelectorAll<McpConnection>('mcp-connection')) connection.serverUrl = inBrowserServerUrl(siteRoot);
}
