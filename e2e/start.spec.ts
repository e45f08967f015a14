/**
 * Issue 33: `npm start`'s own page (scripts/start.mjs: the demo server, the
 * kit's bridge in front of server-everything over stdio, the Vite dev server).
 * The playground's stdio button knows the bridge is up: it opens it in a new
 * connection tab while the first stays connected, and the bridge's token is
 * shown nowhere in the page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { expect, test, type Page } from '@playwright/test';

let start: ChildProcess | undefined;
let playground = '';
let bridgeUrl = '';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // Its own process group: stopping it stops the servers it started, and nothing else.
  start = spawn(process.execPath, ['scripts/start.mjs'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DEMO_SERVER_PORT: String(await freePort()), DEMO_PORT: String(await freePort()) },
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    start!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const page = /Playground:\s+(\S+)/.exec(output);
      const bridge = /stdio server:\s+(\S+)/.exec(output);
      if (page && bridge) {
        playground = page[1]!;
        bridgeUrl = bridge[1]!;
        resolve();
      }
    });
    start!.stderr!.resume();
    start!.on('exit', (code) => reject(new Error(`npm start exited (${code}) before printing its URLs:\n${output}`)));
  });
});

test.afterAll(() => {
  if (start?.pid) {
    try {
      process.kill(-start.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
});

/** Every text the page shows or holds for the user: text through shadow roots, form values, tooltips, labels. */
function pageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        for (const node of el.childNodes) if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
        if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) parts.push(el.value);
        for (const name of ['title', 'aria-label', 'placeholder', 'value', 'href']) {
          const value = el.getAttribute(name);
          if (value) parts.push(value);
        }
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    parts.push(location.href, document.title);
    return parts.join('\n');
  });
}

test('the stdio button of npm start’s page opens the bridge in a new tab, the first stays connected, and the token is shown nowhere', async ({ page }) => {
  // The dev server compiles the page on its first request: generous on a busy machine.
  test.setTimeout(240_000);
  const token = new URL(bridgeUrl).searchParams.get('token')!;
  expect(token.length).toBeGreaterThan(8);
  await page.goto(playground);
  await expect(page.locator('mcp-connection:state(connected)')).toHaveCount(1, { timeout: 120_000 });
  const button = page.getByRole('button', { name: /^Local server \(stdio\)/ });
  // It says the bridge is running: no command to copy, no URL to paste.
  await expect(button).toHaveText('Local server (stdio): open the bridge npm start runs');
  await button.click();
  const tabs = page.getByRole('tablist', { name: 'Open connections' }).getByRole('tab');
  await expect(tabs).toHaveCount(2);
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('mcp-connection:state(connected)')).toHaveCount(2, { timeout: 60_000 });
  const second = page.locator('.workspace:not([hidden])');
  await expect(second.locator('mcp-connection [part="era"]')).toHaveText('legacy · 2025-11-25');
  await expect(second.locator('mcp-connection [part="server-name"]')).toContainText(/everything/i);
  await expect(second.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'Echo Tool' })).toBeVisible();
  // The first tab is still connected to the demo server.
  await tabs.first().click();
  await expect(page.locator('.workspace:not([hidden]) mcp-connection [part="server-name"]')).toHaveText('mcp-web-elements demo server 1.0.0');
  await expect(page.locator('.workspace:not([hidden]) mcp-connection:state(connected)')).toHaveCount(1);
  // The token: not in any text of the page (settings, summaries, the saved list, the log, tooltips), nor its URL.
  await tabs.nth(1).click();
  await second.locator('details.settings summary').click();
  await expect(second.getByLabel('MCP server URL')).toHaveValue(/token=…/);
  expect(await pageText(page)).not.toContain(token);

  // A reload opens the bridge again (`?server=` holds its URL without the token; the page puts the
  // token of the bridge it was started with back): it connects instead of failing on a missing token.
  expect(page.url()).not.toContain(token);
  await page.reload();
  await expect(page.locator('.workspace:not([hidden]) mcp-connection:state(connected)')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.locator('.workspace:not([hidden]) mcp-connection [part="server-name"]')).toContainText(/everything/i);
  expect(await pageText(page)).not.toContain(token);
});
