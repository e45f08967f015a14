/**
 * The playground as an everyday inspector: a server reached with a bearer
 * token typed into the page, the saved-server list across reloads, two
 * connections in two tabs, and the static build on a plain file server running
 * the demo server inside the browser.
 */
import { expect, test, type Page } from '@playwright/test';
import { e2eEverythingUrl, e2ePrivateToken, e2ePrivateUrl, e2eServerUrl, e2eSiteDir } from '../playwright.config.js';
import { answerElicitation, waitForConnection } from './helpers/index.js';
import { serveStatic } from './support/static-server.js';

const at = (url: string) => `/?server=${encodeURIComponent(url)}`;
const panel = (page: Page) => page.locator('.workspace:not([hidden])');
const settings = (page: Page) => panel(page).locator('details.settings');
const tabs = (page: Page) => page.getByRole('tablist', { name: 'Open connections' }).getByRole('tab');

async function openSettings(page: Page): Promise<void> {
  if (!(await settings(page).evaluate((details) => (details as HTMLDetailsElement).open))) await settings(page).locator('summary').click();
}

async function connectWith(page: Page, fields: { url?: string; token?: string; name?: string; remember?: boolean }): Promise<void> {
  await openSettings(page);
  const form = settings(page);
  if (fields.url !== undefined) await form.getByLabel('MCP server URL').fill(fields.url);
  if (fields.name !== undefined) await form.getByLabel('Name (optional)').fill(fields.name);
  if (fields.token !== undefined) await form.getByLabel('Bearer token').fill(fields.token);
  if (fields.remember !== undefined) await form.getByRole('checkbox', { name: /Remember the headers and token/ }).setChecked(fields.remember);
  await form.getByRole('button', { name: 'Connect', exact: true }).click();
}

test('a bearer-token server is reached by typing the token; the token never enters the URL and the log masks it', async ({ page }) => {
  await page.goto(at(e2ePrivateUrl));
  await expect(panel(page).locator('mcp-connection:state(error), mcp-connection [part="notice"]').first()).toBeVisible();
  await expect(page.locator('mcp-connection:state(connected)')).toHaveCount(0);
  await connectWith(page, { token: e2ePrivateToken });
  await waitForConnection(page);
  await panel(page).getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'Weather' }).click();
  const form = panel(page).locator('mcp-tool-form');
  await form.getByRole('button', { name: 'Call tool' }).click();
  await expect(form.locator('[part="result"]')).toContainText('"city":"Lisbon"');
  expect(page.url()).not.toContain(e2ePrivateToken);
  const log = panel(page).locator('mcp-protocol-log');
  await log.locator('[part~="entry-request"][data-method="tools/call"] summary').last().click();
  await expect(log.locator('[part~="headers"]').last()).toContainText('Authorization: Bearer <redacted>');
  await expect(log).not.toContainText(e2ePrivateToken);
});

test('credentials in a server URL (?code=, ?sig=, ?token=) stay out of the page URL and the saved server list', async ({ page }) => {
  await page.goto(at(`${e2eServerUrl}?code=fk-secret-1&sig=sas-secret-2&token=tok-secret-3&tenant=blue`));
  await waitForConnection(page);
  expect(new URL(page.url()).searchParams.get('server')).toBe(`${e2eServerUrl}?tenant=blue`);
  const saved = page.getByRole('region', { name: 'Saved servers' });
  await expect(saved.locator('li').first()).toContainText(`${e2eServerUrl}?tenant=blue`);
  for (const secret of ['fk-secret-1', 'sas-secret-2', 'tok-secret-3']) {
    expect(page.url()).not.toContain(secret);
    await expect(saved).not.toContainText(secret);
  }
});

test('a user:password@ in a server URL stays out of the page URL too', async ({ page }) => {
  const withUser = new URL(e2eServerUrl);
  withUser.username = 'demo-user';
  withUser.password = 'pw-secret-7';
  await page.goto(at(withUser.href));
  // The playground rewrites the address bar once it has applied the server.
  await expect.poll(() => page.url()).not.toContain('pw-secret-7');
  expect(new URL(page.url()).searchParams.get('server')).toBe(new URL(e2eServerUrl).href);
  expect(page.url()).not.toContain('demo-user');
});

test('a server URL with a token kept on purpose is listed masked; unticking Remember forgets the entry that kept it', async ({ page }) => {
  await page.goto(at(`${e2eServerUrl}?token=tok-secret-9&tenant=green`));
  await waitForConnection(page);
  const saved = page.getByRole('region', { name: 'Saved servers' });
  await connectWith(page, { remember: true });
  await waitForConnection(page);
  await expect(saved.locator('li').first()).toContainText('credentials kept');
  await expect(saved.locator('li').first()).toContainText(`${e2eServerUrl}?token=…&tenant=green`);
  await expect(saved).not.toContainText('tok-secret-9');
  await connectWith(page, { remember: false });
  await waitForConnection(page);
  await expect(saved.locator('li')).toHaveCount(1);
  await expect(saved.locator('li').first()).toContainText(`${e2eServerUrl}?tenant=green`);
  await expect(saved.locator('li').first()).not.toContainText('credentials kept');
});

test('the saved servers come back after a reload; credentials only when the user asks', async ({ page }) => {
  await page.goto(at(e2eServerUrl));
  await waitForConnection(page);
  // A server with a token the user does not ask to keep.
  await connectWith(page, { url: e2ePrivateUrl, name: 'Private demo', token: e2ePrivateToken, remember: false });
  await waitForConnection(page);
  const saved = page.getByRole('region', { name: 'Saved servers' });
  await expect(saved.locator('li')).toHaveCount(2);

  // The reload opens the same server (?server=), whose token was not kept: the server refuses.
  await page.reload();
  await expect(saved.locator('li')).toHaveCount(2);
  await expect(saved.locator('li').first()).toContainText('Private demo');
  await expect(saved.locator('li').first()).toContainText('modern · 2026-07-28');
  await expect(saved.locator('li').first()).not.toContainText('credentials kept');
  await expect(saved.locator('li').nth(1)).toContainText('mcp-web-elements demo server');
  await expect(panel(page).locator('mcp-connection:state(error), mcp-connection [part="notice"]').first()).toBeVisible();
  await openSettings(page);
  await expect(settings(page).getByLabel('Name (optional)')).toHaveValue('Private demo');
  await expect(settings(page).getByLabel('Bearer token')).toHaveValue('');

  // Now kept on purpose: after a reload the saved server connects with no typing.
  await connectWith(page, { token: e2ePrivateToken, remember: true });
  await waitForConnection(page);
  await expect(saved.locator('li').first()).toContainText('credentials kept');
  await page.goto(at(e2eServerUrl));
  await waitForConnection(page);
  await saved.getByRole('button', { name: 'Open Private demo', exact: true }).click();
  await waitForConnection(page);
  await expect(panel(page).locator('mcp-connection [part="server-name"]')).toHaveText('mcp-web-elements demo server 1.0.0');
  // Both servers have that name, so the check above may pass before the switch: the URL is polled.
  await expect.poll(() => new URL(page.url()).searchParams.get('server')).toBe(e2ePrivateUrl);
});

test('a saved server keeps its row when the list reorders: a button aimed at one server never opens another', async ({ page }) => {
  await page.goto(at(e2eServerUrl));
  await waitForConnection(page);
  await connectWith(page, { url: e2ePrivateUrl, name: 'Private demo', token: e2ePrivateToken, remember: false });
  await waitForConnection(page);
  const saved = page.getByRole('region', { name: 'Saved servers' });
  await expect(saved.locator('li').first()).toContainText('Private demo');
  // The second row's Open button, held across the reorder that opening its server causes.
  const second = (await saved.locator('li').nth(1).getByRole('button', { name: /^Open / }).first().elementHandle())!;
  const label = await second.getAttribute('aria-label');
  expect(label).toMatch(/^Open mcp-web-elements demo server/);
  await saved.getByRole('button', { name: `${label} in a new tab`, exact: true }).click();
  await expect(page.locator('mcp-connection:state(connected)')).toHaveCount(2);
  await expect(saved.locator('li').first()).not.toContainText('Private demo');
  // An unkeyed list rebinds this element to the server now in its place (Private demo).
  expect(await second.getAttribute('aria-label')).toBe(label);
});

test('two connections in two tabs, each with its own tools; the URL follows the active tab', async ({ page }) => {
  await page.goto(at(e2eServerUrl));
  await waitForConnection(page);
  await page.getByRole('button', { name: 'New connection' }).click();
  await expect(tabs(page)).toHaveCount(2);
  await expect(tabs(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  await connectWith(page, { url: e2eEverythingUrl });
  // The legacy server may ask for the roots as soon as it is initialized: never in a modal (none are shared).
  await expect(page.locator('mcp-elicitation-dialog dialog[open]')).toHaveCount(0);
  await expect(page.locator('mcp-connection:state(connected)')).toHaveCount(2);
  await expect(panel(page).getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'Echo Tool' })).toBeVisible();
  await expect(panel(page).locator('mcp-connection [part="era"]')).toHaveText('legacy · 2025-11-25');
  expect(new URL(page.url()).searchParams.get('server')).toBe(e2eEverythingUrl);

  // Back to the first tab with the keyboard (ARIA tabs: arrow keys move between tabs).
  await tabs(page).nth(1).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(tabs(page).first()).toHaveAttribute('aria-selected', 'true');
  await expect(tabs(page).first()).toBeFocused();
  await expect(panel(page).getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'Book a table' })).toBeVisible();
  await expect(panel(page).getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'Echo Tool' })).toHaveCount(0);
  expect(new URL(page.url()).searchParams.get('server')).toBe(e2eServerUrl);
  // Both stay connected: a call in the first tab while the second is open.
  await panel(page).getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'Weather' }).click();
  await panel(page).locator('mcp-tool-form').getByRole('button', { name: 'Call tool' }).click();
  await expect(panel(page).locator('mcp-tool-form [part="result"]')).toContainText('"city":"Lisbon"');
  await expect(page.locator('mcp-connection:state(connected)')).toHaveCount(2);
});

test('the static build on a plain file server, with no MCP server running, calls a tool that elicits — against the demo server in the browser', async ({ page }) => {
  const site = await serveStatic(e2eSiteDir);
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${site.origin}/`)) elsewhere.push(request.url());
  });
  try {
    await page.goto(`${site.origin}/`);
    await waitForConnection(page);
    await expect(page.locator('mcp-connection [part="era"]')).toHaveText('modern · 2026-07-28');
    const tools = panel(page).getByRole('region', { name: 'Tools' });
    await tools.getByRole('button', { name: 'Book a table' }).click();
    const form = panel(page).locator('mcp-tool-form');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await answerElicitation(page, { Date: '2027-03-01', Guests: '2' }, { message: 'When would you like to eat at Casa Lisboa?' });
    await answerElicitation(page, { Area: 'Terrace' });
    await expect(form.locator('[part="result"]')).toContainText('Booked Casa Lisboa for 2 on 2027-03-01, terrace.');
    // A list change travels over subscriptions/listen, inside the browser too.
    await tools.getByRole('button', { name: 'Toggle bonus tool' }).click();
    await form.getByRole('button', { name: 'Call tool' }).click();
    await expect(tools.getByRole('button', { name: 'Bonus', exact: true })).toBeVisible();
    // Nothing left the static site, and the site itself never saw an MCP request: the Service Worker answered them.
    expect(elsewhere).toEqual([]);
    expect(site.requests.filter((line) => line.includes('demo-mcp'))).toEqual([]);
    expect(site.requests).toContain('GET /demo-sw.js');
  } finally {
    await site.close();
  }
});
