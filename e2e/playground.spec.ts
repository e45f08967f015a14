/**
 * The playground in real Chromium against the real demo MCP server, driven the
 * way a person uses the page.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { e2eServerUrl } from '../playwright.config.js';
import { answerElicitation, answerSampling, answerUrlElicitation, resumePendingCall, waitForConnection } from './helpers/index.js';

/** The playground on the demo server (Node); `query` adds parameters. */
const demo = (query = '') => `/?server=${encodeURIComponent(e2eServerUrl)}${query}`;

async function open(page: Page): Promise<void> {
  await page.goto(demo());
  await waitForConnection(page);
}

async function pickTool(page: Page, title: string): Promise<void> {
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: title }).click();
  await expect(page.locator('mcp-tool-form').getByRole('heading', { name: title })).toBeVisible();
}

const form = (page: Page) => page.locator('mcp-tool-form');
const result = (page: Page) => page.locator('mcp-tool-form mcp-tool-result, mcp-tool-form [part="result"]').first();

test.beforeEach(async ({ context }) => {
  // Nothing may leave the machine: URL-mode pages are answered locally.
  await context.route('https://auth.example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Approve</title><h1>Approved</h1>' }));
});

test('connects and lists the tools', async ({ page }) => {
  await open(page);
  await expect(page.locator('mcp-connection [part="server-name"]')).toHaveText('mcp-web-elements demo server 1.0.0');
  await expect(page.locator('mcp-connection [part="era"]')).toHaveText('modern · 2026-07-28');
  const tools = page.getByRole('region', { name: 'Tools' });
  for (const title of ['Create a ticket', 'Plan a trip', 'Long task', 'Book a table']) await expect(tools.getByRole('button', { name: title })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Protocol log' })).toContainText('server/discover');
});

test('fills and submits the nested form, and shows the result', async ({ page }) => {
  await open(page);
  await pickTool(page, 'Plan a trip');
  const traveller = form(page).getByRole('group', { name: 'Traveller' });
  await traveller.getByRole('textbox', { name: 'Name' }).fill('Ada');
  await traveller.getByRole('spinbutton', { name: 'Age' }).fill('36');
  const stops = form(page).getByRole('group', { name: 'Stops' });
  await stops.getByRole('textbox', { name: 'City' }).fill('Porto');
  await stops.getByRole('button', { name: 'Add item to Stops' }).click();
  const second = stops.getByRole('group', { name: 'Item 2 of Stops' });
  await second.getByRole('textbox', { name: 'City' }).fill('Lisbon');
  await second.getByRole('spinbutton', { name: 'Nights' }).fill('3');
  await form(page).getByRole('radio', { name: 'Business' }).check();
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect(result(page)).toContainText('Trip for Ada: Porto → Lisbon, 4 night(s), business');
  // The README's picture of the playground is refreshed only on request (UPDATE_SCREENSHOTS=1): a test run leaves the tree clean.
  await page.screenshot({ path: process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots/playground.png' : 'test-results/playground.png', fullPage: true });
});

test('runs the slow tool with progress and cancels it', async ({ page }) => {
  await open(page);
  await pickTool(page, 'Long task');
  await form(page).getByRole('spinbutton', { name: 'Steps' }).fill('40');
  await form(page).getByRole('spinbutton', { name: 'Milliseconds per step' }).fill('250');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect(form(page).locator('[part="progress-message"]')).toContainText(/Step \d+ of 40/);
  await form(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(form(page).getByRole('button', { name: 'Call tool' })).toBeEnabled();
  await expect(form(page)).toContainText(/cancel|abort/i);
  await expect(result(page)).toHaveCount(0);
});

test('answers a two-round elicitation (accept path)', async ({ page }) => {
  await open(page);
  await pickTool(page, 'Book a table');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await answerElicitation(page, { Date: '2026-12-24', Guests: '3' }, { message: 'When would you like to eat at Casa Lisboa?' });
  await answerElicitation(page, { Area: 'Terrace', 'Dietary needs': ['vegetarian'] }, { message: 'A table for 3 on 2026-12-24' });
  await expect(result(page)).toContainText('Booked Casa Lisboa for 3 on 2026-12-24, terrace, vegetarian.');
  // The protocol log groups the rounds of the call.
  const log = page.locator('mcp-protocol-log');
  const call = log.locator('[part~="entry-call"]').last();
  await expect(call.locator('[part~="round"]')).toHaveText(/call \d+ · 3 rounds/);
  await call.locator('summary').first().click();
  await expect(call.locator('[part~="entry-request"] [part~="round"]').nth(1)).toHaveText(/round 2$/);
  // It follows the newest lines: scrolled to its end.
  await expect.poll(() => log.locator('[part~="entries"]').evaluate((list) => list.scrollHeight - list.scrollTop - list.clientHeight)).toBeLessThan(24);
});

test('answers a two-round elicitation (decline path)', async ({ page }) => {
  await open(page);
  await pickTool(page, 'Book a table');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await answerElicitation(page, {}, { action: 'decline' });
  await expect(result(page)).toContainText('Booking declined.');
});

test('confirms a URL-mode request', async ({ page }) => {
  await open(page);
  await pickTool(page, 'Connect account');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  const dialog = page.locator('mcp-elicitation-dialog dialog[open]');
  await expect(dialog.locator('[part="url-host"]')).toHaveText('auth.example.com');
  const popup = page.waitForEvent('popup');
  await answerUrlElicitation(page, 'open');
  expect((await popup).url()).toBe('https://auth.example.com/approve?app=mcp-web-elements-demo');
  await expect(result(page)).toContainText('Account connected.');
});

test('answers a sampling request', async ({ page }) => {
  await open(page);
  await pickTool(page, 'Summarize');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await answerSampling(page, { text: 'Tools let models act.' });
  await expect(result(page)).toContainText('Summary: Tools let models act.');
});

test('resumes an elicitation after a reload', async ({ page }) => {
  await open(page);
  await pickTool(page, 'Book a table');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect(page.locator('mcp-elicitation-dialog dialog[open]')).toBeVisible();
  await page.reload();
  await waitForConnection(page);
  await resumePendingCall(page);
  await answerElicitation(page, { Date: '2027-02-14', Guests: '2' });
  await answerElicitation(page, { Area: 'Indoors' });
  await expect(page.locator('.resumed')).toContainText('Booked Casa Lisboa for 2 on 2027-02-14, indoor.');
});

test('refreshes the tool list after a list change', async ({ page }) => {
  await open(page);
  const tools = page.getByRole('region', { name: 'Tools' });
  const hadBonus = await tools.getByRole('button', { name: 'Bonus', exact: true }).count();
  await expect(page.locator('mcp-connection:state(listening)')).toHaveCount(1);
  await pickTool(page, 'Toggle bonus tool');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect(tools.getByRole('button', { name: 'Bonus', exact: true })).toHaveCount(hadBonus ? 0 : 1);
  // Leave the server as it was for the next test.
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect(tools.getByRole('button', { name: 'Bonus', exact: true })).toHaveCount(hadBonus);
});

test('has no accessibility violations (light and dark), every panel open', async ({ page }) => {
  // Two full axe passes and a full-page screenshot: 47 s to 100 s at load average 11-16.
  test.setTimeout(180_000);
  await open(page);
  await pickTool(page, 'Create a ticket');
  // Every panel in a state that shows its controls: settings with a header row, a resource read,
  // a prompt chosen with suggestions open, a log entry opened.
  await page.locator('details.settings summary').click();
  await page.getByRole('button', { name: 'Add header' }).click();
  const panes = page.getByRole('tablist', { name: 'Panes' });
  await panes.getByRole('tab', { name: 'Resources' }).click();
  const resources = page.locator('mcp-resource-list');
  await resources.getByRole('button', { name: 'Read Read me' }).click();
  await expect(resources.locator('mcp-tool-result').first()).toContainText('Demo server');
  await panes.getByRole('tab', { name: 'Prompts' }).click();
  const prompts = page.locator('mcp-prompt-form');
  await prompts.getByRole('combobox', { name: 'Prompt' }).selectOption('review_code');
  await prompts.getByRole('combobox', { name: 'language' }).fill('p');
  await expect(prompts.getByRole('option', { name: 'python' })).toBeVisible();
  await page.locator('mcp-protocol-log [part~="entry-request"] summary').first().click();
  await expect(page.locator('mcp-protocol-log [part~="json"]').first()).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  // The picture of the inspector panels in docs/demo.md (refreshed only with UPDATE_SCREENSHOTS=1).
  await page.screenshot({ path: process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots/inspector.png' : 'test-results/inspector.png', fullPage: true });
  await page.getByRole('button', { name: 'Dark theme' }).click();
});

/** Records the page's CSP violations from its first script on (init scripts run whatever the policy says). */
async function recordViolations(page: Page): Promise<() => Promise<{ directive: string; blocked: string }[]>> {
  await page.addInitScript(() => {
    const seen: { directive: string; blocked: string }[] = [];
    (window as unknown as { violations: typeof seen }).violations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push({ directive: event.effectiveDirective, blocked: event.blockedURI }));
  });
  return () => page.evaluate(() => (window as unknown as { violations: { directive: string; blocked: string }[] }).violations);
}

test('under a strict Content-Security-Policy (no unsafe-eval) values are still checked, by @cfworker/json-schema, and ajv is never requested', async ({ page }) => {
  const ajv: string[] = [];
  page.on('request', (request) => {
    if (/ajv/i.test(request.url())) ajv.push(request.url());
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const violations = await recordViolations(page);
  const response = await page.goto(demo('&csp=strict'));
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(response?.headers()['content-security-policy']).not.toContain('unsafe-eval');
  await waitForConnection(page);
  await pickTool(page, 'Create a ticket');
  const title = form(page).getByRole('textbox', { name: 'Title' });
  await title.fill('ab');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  // Refused with the field's own message: the fallback checked it (ajv was never downloaded, see below).
  await expect(form(page).locator('[data-pointer="/title"] [part~="error"]')).toHaveText('Enter at least 3 characters.');
  await expect(form(page).locator('[part="notice"]')).toHaveCount(0);
  await title.fill('Printer on fire');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect(result(page)).toContainText('Printer on fire');
  expect(ajv).toEqual([]);
  // Finding out costs one refused compile of an empty function (a policy in a header cannot be read), never one per schema.
  expect(await violations()).toEqual([{ directive: 'script-src', blocked: 'eval' }]);
  // The refusal is caught: nothing is logged as an error (ajv would also print each schema's generated code).
  expect(consoleErrors).toEqual([]);
});

test('under the same policy, with @cfworker/json-schema chosen by the page, values are checked, ajv is never downloaded and nothing is refused', async ({ page }) => {
  const ajv: string[] = [];
  page.on('request', (request) => {
    if (/ajv/i.test(request.url())) ajv.push(request.url());
  });
  const violations = await recordViolations(page);
  const response = await page.goto(demo('&csp=strict&validator=cfworker'));
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await waitForConnection(page);
  await pickTool(page, 'Create a ticket');
  const title = form(page).getByRole('textbox', { name: 'Title' });
  await title.fill('ab');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect(form(page).locator('[data-pointer="/title"] [part~="error"]')).toHaveText('Enter at least 3 characters.');
  await expect(form(page).locator('[part="notice"]')).toHaveCount(0);
  await title.fill('Printer on fire');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect(result(page)).toContainText('Printer on fire');
  expect(ajv).toEqual([]);
  // The page chose a library: the kit never tries eval.
  expect(await violations()).toEqual([]);
});

test('keyboard only: pick a tool, fill its form, call it', async ({ page }) => {
  await open(page);
  /** Presses Tab until the focused element (through shadow roots) matches, within a bound. */
  async function tabTo(match: (text: string) => boolean, limit = 60): Promise<void> {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        let el = document.activeElement as Element | null;
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
        return `${el?.tagName} ${el?.getAttribute('aria-label') ?? ''} ${(el as HTMLElement | null)?.innerText ?? ''} ${(el as HTMLInputElement | null)?.labels?.[0]?.innerText ?? ''}`.trim();
      });
      if (match(focused)) return;
    }
    throw new Error('focus never reached the target');
  }
  await tabTo((text) => text.startsWith('BUTTON') && text.includes('Weather'));
  await page.keyboard.press('Enter');
  await expect(form(page).getByRole('heading', { name: 'Weather' })).toBeVisible();
  await tabTo((text) => text.startsWith('INPUT') && text.includes('City'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Guimarães');
  await tabTo((text) => text.startsWith('BUTTON') && text.includes('Call tool'));
  await page.keyboard.press('Enter');
  await expect(result(page)).toContainText('"city":"Guimarães"');
});
