/**
 * The playground's "Local server (stdio)" choice, end to end: the kit's bridge
 * in front of server-everything over stdio, the page connecting through it
 * (CORS preflights, the token in the URL, era detection), calling a tool and
 * answering the tool's elicitation in the dialog.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { DEFAULT_ALLOWED_ORIGINS, startBridge, type Bridge, type BridgeEvent } from '../bridge/index.js';
import { everything } from '../test/support/bridge.js';
import { answerElicitation } from './helpers/index.js';

let bridge: Bridge;
const events: BridgeEvent[] = [];
const logs: string[] = [];

test.beforeAll(async ({ baseURL }) => {
  // The page's origin is this run's free port: allowed explicitly, as the dialog's command says.
  bridge = await startBridge({ server: everything, allowedOrigins: [new URL(baseURL!).origin], onEvent: (e) => events.push(e), log: (line) => logs.push(line) });
});
test.afterAll(() => bridge?.close());

test('calls a tool of a stdio server through the bridge and answers its elicitation in the dialog', async ({ page, baseURL }) => {
  const url = bridge.endpoints[0]!.url;
  await page.goto('/');
  await page.getByRole('button', { name: 'Local server (stdio)' }).click();
  const choice = page.getByRole('dialog', { name: 'Local server (stdio)' });
  // The command names this page's origin unless the bridge allows it by default.
  const origin = new URL(baseURL!).origin;
  const allow = DEFAULT_ALLOWED_ORIGINS.includes(origin) ? '' : ` --allow-origin ${origin}`;
  await expect(choice.locator('pre')).toHaveText(`npx -y mcp-web-elements bridge${allow} -- npx -y @modelcontextprotocol/server-everything stdio`);

  // A URL without its token is caught before connecting.
  const field = choice.getByRole('textbox', { name: 'Bridge URL' });
  await field.fill(url.replace(/\?token=.*/, ''));
  await choice.getByRole('button', { name: 'Connect' }).click();
  await expect(choice.getByRole('alert')).toContainText('no ?token=');
  expect((await new AxeBuilder({ page }).include('dialog.stdio-choice').analyze()).violations).toEqual([]);
  await field.fill(url);
  await choice.getByRole('button', { name: 'Connect' }).click();
  await expect(choice).toBeHidden();
  // Connecting set up nothing twice: one dialog in the page.
  await expect(page.locator('dialog.stdio-choice')).toHaveCount(1);

  // In a new connection tab: the first one (the demo server in the browser) stays connected.
  await expect(page.getByRole('tablist', { name: 'Open connections' }).getByRole('tab')).toHaveCount(2);
  await expect(page.locator('mcp-connection:state(connected)')).toHaveCount(2);
  const panel = page.locator('.workspace:not([hidden])');
  await expect(panel.locator('mcp-connection [part="era"]')).toHaveText('legacy · 2025-11-25');
  // The server asks for the roots as soon as it is initialized: none are shared, and the question waits beside the page.
  await expect(panel.locator('.roots-ask')).toBeVisible();
  const tools = panel.getByRole('region', { name: 'Tools' });
  const form = panel.locator('mcp-tool-form');

  await tools.getByRole('button', { name: 'Echo Tool' }).click();
  await form.getByRole('textbox', { name: /message/i }).fill('hello over stdio');
  await form.getByRole('button', { name: 'Call tool' }).click();
  await expect(form.locator('[part="result"]')).toContainText('Echo: hello over stdio');

  await tools.getByRole('button', { name: 'Trigger Elicitation Request Tool' }).click();
  await form.getByRole('button', { name: 'Call tool' }).click();
  await expect(panel.locator('mcp-elicitation-dialog dialog[open] [part="server"]')).toContainText('Everything Reference Server');
  await answerElicitation(page, { String: 'Ada Lovelace', 'String with email format': 'ada@example.org' });
  await expect(form.locator('[part="result"]')).toContainText('Ada Lovelace');

  // One page, one MCP session, one child; nothing the browser sent was refused.
  expect(events.filter((e) => e.type === 'spawn')).toHaveLength(1);
  expect(events.filter((e) => e.type === 'refused').map((e) => (e as { reason: string }).reason)).toEqual(['no-session']);
});
