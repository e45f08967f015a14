/**
 * Issue 33: the playground as a daily tool. A call and its traffic on one
 * screen at 1280×800; one column with no horizontal scroll at 390×844; the
 * call history (`<mcp-call-history>`) across a reload, with Edit and Re-run;
 * the keyboard path sidebar → form → history → log; axe in every pane, light
 * and dark. Real Chromium against the real demo server.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { e2eServerUrl } from '../playwright.config.js';
import { waitForConnection } from './helpers/index.js';

const demo = `/?server=${encodeURIComponent(e2eServerUrl)}`;
const form = (page: Page) => page.locator('mcp-tool-form');
const history = (page: Page) => page.getByRole('region', { name: 'History' });
const entries = (page: Page) => history(page).getByRole('list', { name: 'Calls, newest first' }).getByRole('listitem');

async function pickTool(page: Page, title: string): Promise<void> {
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: title }).click();
  await expect(form(page).getByRole('heading', { name: title })).toBeVisible();
}

async function callWeather(page: Page, city: string): Promise<void> {
  await form(page).getByRole('textbox', { name: 'City' }).fill(city);
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  await expect(form(page).locator('[part="result"]')).toContainText(`"city":"${city}"`);
}

/** The element's box lies inside the viewport (nothing cut, no scrolling needed). */
async function expectInViewport(page: Page, locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, what).not.toBeNull();
  expect({ what, top: box!.y >= 0, left: box!.x >= 0, bottom: box!.y + box!.height <= viewport.height, right: box!.x + box!.width <= viewport.width }).toEqual({ what, top: true, left: true, bottom: true, right: true });
}

test('at 1280×800, after a call, the form, its result and the call in the protocol log are all on screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(demo);
  await waitForConnection(page);
  await pickTool(page, 'Weather');
  await callWeather(page, 'Porto');
  await expectInViewport(page, form(page).locator('[part="form"]'), 'the form');
  await expectInViewport(page, form(page).locator('[part="result"]'), 'the result');
  const call = page.locator('mcp-protocol-log [part~="entry-request"][data-method="tools/call"]').last();
  await expect(call).toBeVisible();
  await expectInViewport(page, call, "the call's log entry");
  // Its history entry too, and the page itself does not scroll: each pane scrolls on its own.
  await expectInViewport(page, entries(page).first(), 'the history entry');
  expect(await page.evaluate(() => [document.documentElement.scrollHeight <= innerHeight, document.documentElement.scrollWidth <= innerWidth])).toEqual([true, true]);
  // The tool's title is shown once (the form's heading), not again above it.
  await expect(page.getByText('Weather', { exact: true }).filter({ visible: true })).toHaveCount(2); // the sidebar's button and the form's heading
  // Ping and its round trip sit in the status line, beside the connection's status.
  await page.getByRole('button', { name: 'Ping' }).click();
  await expect(page.locator('.status-extra [role="status"]')).toHaveText(/^RTT \d+ ms$/);
  const status = await page.locator('mcp-connection div[part="status"]').boundingBox();
  const rtt = await page.locator('.status-extra').boundingBox();
  expect(Math.abs(status!.y + status!.height / 2 - (rtt!.y + rtt!.height / 2))).toBeLessThan(12);
});

test('at 390×844 the playground is one column, in the order tools, form, history, log, with no horizontal scroll', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(demo);
  await waitForConnection(page);
  await pickTool(page, 'Weather');
  // The form is below the whole tool list: picking a tool brings it on screen.
  await expectInViewport(page, form(page).getByRole('heading', { name: 'Weather' }), "the picked tool's form");
  await callWeather(page, 'Braga');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const boxes = await Promise.all(
    [page.getByRole('complementary', { name: 'Servers and tools' }), form(page), history(page), page.getByRole('region', { name: 'Protocol log' })].map((l) => l.boundingBox()),
  );
  for (const box of boxes) {
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  }
  // The sidebar does not scroll a box of its own (it hid the tools): the page scrolls.
  expect(await page.getByRole('complementary', { name: 'Servers and tools' }).evaluate((e) => e.scrollHeight <= e.clientHeight + 1)).toBe(true);
  // One column: each starts below the one before.
  for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.y).toBeGreaterThanOrEqual(boxes[i - 1]!.y + boxes[i - 1]!.height - 1);
});

test('the history keeps three calls across a reload; Edit puts a past call’s arguments into the form; Re-run adds an entry', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(demo);
  await waitForConnection(page);
  await pickTool(page, 'Weather');
  for (const city of ['Lisbon', 'Porto', 'Faro']) await callWeather(page, city);
  await expect(entries(page)).toHaveCount(3);
  await page.reload();
  await waitForConnection(page);
  await expect(entries(page)).toHaveCount(3);
  // Newest first: time, tool, arguments, outcome and duration.
  await expect(entries(page).nth(0)).toContainText('city: "Faro"');
  await expect(entries(page).nth(2)).toContainText('city: "Lisbon"');
  await expect(entries(page).nth(0)).toContainText('get_weather');
  await expect(entries(page).nth(0).locator('[part~="outcome"]')).toHaveText('ok');
  await expect(entries(page).nth(0).locator('[part~="duration"]')).toHaveText(/^\d+(\.\d)? m?s$/);

  // Select the oldest: its arguments and result again.
  await entries(page).nth(2).getByRole('button').click();
  const detail = history(page).getByRole('region', { name: 'Selected call' });
  await expect(detail.getByLabel('Arguments')).toContainText('"city": "Lisbon"');
  await expect(detail.getByLabel('Result')).toContainText('Lisbon');
  // Readable where it is, at 1280×800: the arguments and the result at least two lines tall (they were
  // squeezed to 11 px), and Edit and Re-run inside the History pane without scrolling it.
  for (const block of [detail.getByLabel('Arguments'), detail.getByLabel('Result')]) expect((await block.boundingBox())!.height).toBeGreaterThanOrEqual(28);
  const pane = (await history(page).boundingBox())!;
  for (const button of ['Edit', 'Re-run']) {
    const box = (await detail.getByRole('button', { name: button }).boundingBox())!;
    expect({ button, inside: box.y >= pane.y && box.y + box.height <= pane.y + pane.height }).toEqual({ button, inside: true });
  }
  // Edit: the form (on another tool now) shows get_weather with Lisbon.
  await pickTool(page, 'Create a ticket');
  await detail.getByRole('button', { name: 'Edit' }).click();
  await expect(form(page).getByRole('heading', { name: 'Weather' })).toBeVisible();
  await expect(form(page).getByRole('textbox', { name: 'City' })).toHaveValue('Lisbon');
  expect(new URL(page.url()).searchParams.get('tool')).toBe('get_weather');
  // Re-run: one more entry, first, with the same arguments.
  await detail.getByRole('button', { name: 'Re-run' }).click();
  await expect(entries(page)).toHaveCount(4);
  await expect(entries(page).nth(0)).toContainText('city: "Lisbon"');
  await expect(entries(page).nth(0).locator('[part~="outcome"]')).toHaveText('ok');
  await expect(form(page).locator('[part="result"]')).toContainText('"city":"Lisbon"');
});

test('keyboard only: sidebar → form → history → log', async ({ page }) => {
  await page.goto(demo);
  await waitForConnection(page);
  /** Presses Tab until the focused element (through shadow roots) matches, within a bound. */
  async function tabTo(match: (text: string) => boolean, limit = 80): Promise<string> {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        let el = document.activeElement as Element | null;
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
        return `${el?.tagName} ${el?.getAttribute('aria-label') ?? ''} ${(el as HTMLElement | null)?.innerText ?? ''} ${(el as HTMLInputElement | null)?.labels?.[0]?.innerText ?? ''}`.trim();
      });
      if (match(focused)) return focused;
    }
    throw new Error('focus never reached the target');
  }
  await tabTo((text) => text.startsWith('BUTTON') && text.includes('Weather'));
  await page.keyboard.press('Enter');
  await expect(form(page).getByRole('heading', { name: 'Weather' })).toBeVisible();
  await tabTo((text) => text.startsWith('INPUT') && text.includes('City'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Évora');
  await tabTo((text) => text.startsWith('BUTTON') && text.includes('Call tool'));
  await page.keyboard.press('Enter');
  await expect(form(page).locator('[part="result"]')).toContainText('"city":"Évora"');
  // On to the history: its entry opens with Enter.
  await tabTo((text) => text.startsWith('BUTTON') && text.includes('get_weather'));
  await page.keyboard.press('Enter');
  await expect(history(page).getByRole('region', { name: 'Selected call' })).toBeVisible();
  // And to the log's list of messages (focusable, it scrolls with the arrow keys).
  await tabTo((text) => text.startsWith('OL') && text.includes('Messages') || text.startsWith('OL') && text.includes('tools/call'));
});

test('axe: no violations in any pane, light and dark', async ({ page }) => {
  // Five panes, two themes: ten axe passes; 4.6 min at a load average of 20.
  test.setTimeout(600_000);
  await page.goto(demo);
  await waitForConnection(page);
  await pickTool(page, 'Weather');
  await callWeather(page, 'Lisbon');
  await entries(page).first().getByRole('button').click();
  const panes = page.getByRole('tablist', { name: 'Panes' });
  for (const theme of ['light', 'dark']) {
    if (theme === 'dark') {
      await page.getByRole('button', { name: 'Dark theme' }).click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    }
    for (const name of ['Tool', 'Resources', 'Prompts', 'Tasks', 'Roots']) {
      await panes.getByRole('tab', { name }).click();
      await expect(page.getByRole('tabpanel', { name })).toBeVisible();
      const violations = (await new AxeBuilder({ page }).analyze()).violations.map((v) => `${theme} ${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(violations).toEqual([]);
    }
  }
});

test('the two-round booking completes with two clicks of Accept (no review step for a valid form)', async ({ page }) => {
  await page.goto(demo);
  await waitForConnection(page);
  await pickTool(page, 'Book a table');
  await form(page).getByRole('button', { name: 'Call tool' }).click();
  const dialog = page.locator('mcp-elicitation-dialog dialog[open]');
  await expect(dialog.locator('[part="message"]')).toContainText('When would you like to eat at Casa Lisboa?');
  await dialog.getByLabel('Date').fill('2026-12-24');
  await dialog.getByLabel('Guests').fill('3');
  await dialog.getByRole('button', { name: 'Accept', exact: true }).click(); // 1
  await expect(dialog.locator('[part="message"]')).toContainText('A table for 3 on 2026-12-24');
  await expect(dialog.locator('[part="review"]')).toHaveCount(0);
  await dialog.getByRole('group', { name: 'Area' }).getByRole('radio', { name: 'Terrace', exact: true }).check();
  await dialog.getByRole('button', { name: 'Accept', exact: true }).click(); // 2
  await expect(form(page).locator('[part="result"]')).toContainText('Booked Casa Lisboa for 3 on 2026-12-24, terrace.');
  // Both answers are in the history's entry of the call: one call, ok.
  await expect(entries(page)).toHaveCount(1);
  await expect(entries(page).first().locator('[part~="outcome"]')).toHaveText('ok');
});

test('with the sidebar hidden, the empty tool pane offers to show it, and picking a tool from it works', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(demo);
  await waitForConnection(page);
  await expect(page.getByText('Pick a tool in the sidebar.')).toBeVisible();
  await page.getByRole('button', { name: 'Sidebar' }).click();
  await expect(page.getByRole('complementary', { name: 'Servers and tools' })).toBeHidden();
  // The settings, now wider, keep each field in its own box (the era's select spilled over the next).
  await page.getByText('Connection settings').click();
  const era = await page.getByLabel('Protocol era').boundingBox();
  const timeout = await page.getByLabel('Request timeout (s)').boundingBox();
  expect(era!.x + era!.width).toBeLessThanOrEqual(timeout!.x);
  await page.getByText('Connection settings').click();
  await page.getByRole('button', { name: 'Show the sidebar' }).click();
  await expect(page.getByRole('complementary', { name: 'Servers and tools' })).toBeVisible();
  await pickTool(page, 'Weather');
});
