/**
 * The playground's sidebar tool list (demo/src/workspace-views.ts `sidebarView`, the real code,
 * with the playground's own styles) rendered in the bench page for a server of many tools:
 * built by Vite on its own and imported into the bench page by bench/huge.ts. The listing is
 * fetched first (a raw `tools/list`, every page), so the timed part starts with the tools in hand,
 * as the playground has them when `<mcp-connection>` reports `mcp-tools-changed`.
 */
import { render } from 'lit';
import { sidebarView } from '../demo/src/workspace-views.js';
import type { Workspace } from '../demo/src/workspace.js';
import type { Tool } from '../src/index.js';
import playgroundCss from '../demo/src/playground.css?inline';
import themeCss from '../demo/src/theme.css?inline';

export interface SidebarSample {
  /** Tools in the listing. */
  tools: number;
  /** Tool rows rendered (the sidebar bounds them). */
  rows: number;
  /** List in hand → sidebar rendered and laid out, in ms. */
  renderMs: number;
  /** One keystroke in the sidebar's filter (a name that matches one tool) → rendered and laid out, in ms. */
  filterMs: number;
}

async function listTools(url: string): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  let id = 0;
  do {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/list',
        params: { ...(cursor === undefined ? {} : { cursor }), _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    const page = (await response.json()).result as { tools: Tool[]; nextCursor?: string };
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

let styled = false;

/** Lists the tools at `url`, then renders the playground's sidebar `repeats` times, each in a fresh sidebar. */
async function measure(url: string, repeats: number): Promise<SidebarSample[]> {
  if (!styled) {
    const style = document.createElement('style');
    style.textContent = `${themeCss}\n${playgroundCss}`;
    document.head.append(style);
    document.body.classList.add('playground');
    styled = true;
  }
  const samples: SidebarSample[] = [];
  for (let r = 0; r < repeats; r++) {
    const tools = await listTools(url);
    const panel = document.createElement('div');
    panel.className = 'workspace';
    const sidebar = document.createElement('aside');
    sidebar.className = 'sidebar';
    const host = document.createElement('div');
    host.className = 'sidebar-tools';
    sidebar.append(host);
    panel.append(sidebar);
    document.body.append(panel);
    void panel.offsetHeight;
    // What toolList reads of a Workspace; the rest of the class (connection element, views) is not involved.
    const w = {
      id: `b${r}`,
      connection: { status: 'connected', client: { rejectedTools: [] } },
      filter: '',
      tools,
      selected: undefined,
      select: () => {},
      update: () => render(sidebarView(w as unknown as Workspace), host),
    };
    const start = performance.now();
    w.update();
    void host.offsetHeight;
    const renderMs = performance.now() - start;
    const rows = host.querySelectorAll('.tool-list > li').length;
    const last = tools.at(-1)?.name ?? '';
    const input = host.querySelector<HTMLInputElement>('input[type="search"]')!;
    const typed = performance.now();
    input.value = last;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    void host.offsetHeight;
    const filterMs = performance.now() - typed;
    if (host.querySelectorAll('.tool-list > li').length < 1) throw new Error(`the filter "${last}" found no tool`);
    panel.remove();
    samples.push({ tools: tools.length, rows, renderMs, filterMs });
  }
  return samples;
}

declare global {
  interface Window {
    benchSidebar?: { measure: typeof measure };
  }
}

window.benchSidebar = { measure };
