/**
 * The official MCP Apps examples (`@modelcontextprotocol/server-*` from the npm
 * registry, in their own Streamable HTTP mode) shown by the playground in real
 * Chromium, behind the sandbox proxy: each works as its authors wrote it.
 */
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { e2eOfficialAppUrls } from '../playwright.config.js';
import { waitForConnection } from './helpers/index.js';

/** Opens the playground on an example server, calls `tool` with its defaults, and returns the app's frame and document. */
async function showApp(page: Page, server: keyof typeof e2eOfficialAppUrls, tool: string) {
  await page.goto(`/?server=${encodeURIComponent(e2eOfficialAppUrls[server])}&tool=${encodeURIComponent(tool)}`);
  await waitForConnection(page);
  await page.locator('mcp-tool-form').getByRole('button', { name: 'Call tool' }).click();
  const frame = page.locator('mcp-app-frame');
  await expect(frame).toBeVisible();
  await expect(frame.locator('iframe')).toHaveAttribute('src', /\/sandbox\.html$/);
  return { frame, app: page.frameLocator('mcp-app-frame iframe').frameLocator('iframe') };
}

/** Console messages of every frame of the page (the app's included). */
function consoleOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message: ConsoleMessage) => seen.push(`${message.type()}: ${message.text()}`));
  return seen;
}

test('Three.js: the scene renders on a canvas, with no CSP error', async ({ page }) => {
  const messages = consoleOf(page);
  const { frame, app } = await showApp(page, 'threejs', 'show_threejs_scene');
  await expect(app.locator('canvas').first()).toBeVisible({ timeout: 30_000 });
  await expect(frame).toHaveJSProperty('status', 'ready');
  await expect.poll(() => messages.filter((m) => /Content Security Policy|unsafe-eval/i.test(m))).toEqual([]);
  expect(messages.filter((m) => /Content Security Policy|unsafe-eval/i.test(m))).toEqual([]);
});

test('system-monitor: shows data with no question, and its next poll of its own app-only tool shows new data', async ({ page }) => {
  const { frame, app } = await showApp(page, 'system-monitor', 'get-system-info');
  const log = page.locator('mcp-protocol-log');
  const polls = log.locator('[data-method="tools/call"]');
  await expect.poll(() => polls.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  await expect(frame.getByRole('alertdialog')).toHaveCount(0);
  const first = await app.locator('body').innerText();
  expect(first).toMatch(/\d+%/);
  // A later poll changes what the app shows (uptime, CPU and memory figures).
  await expect.poll(async () => (await app.locator('body').innerText()) !== first, { timeout: 30_000 }).toBe(true);
  await expect(frame.getByRole('alertdialog')).toHaveCount(0);
});

test('cohort-heatmap: its own data asks once ("Allow for this app"), then the grid shows', async ({ page }) => {
  const { frame, app } = await showApp(page, 'cohort-heatmap', 'get-cohort-data');
  const ask = frame.getByRole('alertdialog');
  await expect(ask).toContainText('get-cohort-data', { timeout: 30_000 });
  await ask.getByRole('button', { name: 'Allow for this app', exact: true }).click();
  await expect(app.getByText(/Month 0|M0|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec/).first()).toBeVisible({ timeout: 30_000 });
  await expect(app.getByText(/\d+(\.\d+)?%/).first()).toBeVisible();
});

test('basic-vanillajs: Send Message, Send Log and Open Link each reach the host as documented', async ({ page }) => {
  await page.addInitScript(() => {
    const seen: unknown[] = ((window as unknown as { __appEvents: unknown[] }).__appEvents = []);
    document.addEventListener('mcp-app-message', (event) => {
      event.preventDefault();
      seen.push({ type: event.type, content: (event as unknown as CustomEvent).detail.content });
    });
    document.addEventListener('mcp-app-log', (event) => seen.push({ type: event.type, data: (event as unknown as CustomEvent).detail.data }));
  });
  const { frame, app } = await showApp(page, 'basic-vanillajs', 'get-time');
  const events = () => page.evaluate(() => JSON.stringify((window as unknown as { __appEvents: unknown[] }).__appEvents));
  await app.getByRole('button', { name: 'Send Message' }).click();
  await expect.poll(events).toContain('"type":"mcp-app-message"');
  await app.getByRole('button', { name: 'Send Log' }).click();
  await expect.poll(events).toContain('"data":"This is log text."');
  await app.getByRole('button', { name: 'Open Link' }).click();
  const ask = frame.getByRole('alertdialog');
  await expect(ask).toContainText('wants to open a page on modelcontextprotocol.io');
  await expect(ask).toContainText('https://modelcontextprotocol.io/');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
});
