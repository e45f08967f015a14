/**
 * The playground against a legacy (2025-11-25) server — the reference
 * server-everything over Streamable HTTP: the kit detects the era, and the same
 * form and dialog work, with the server's elicitation request arriving on its
 * SSE stream instead of an input_required result.
 */
import { expect, test } from '@playwright/test';
import { e2eEverythingUrl, e2eStrictLegacyUrl } from '../playwright.config.js';
import { answerElicitation, waitForConnection } from './helpers/index.js';

test('calls a plain tool and a tool that elicits through the dialog', async ({ page }) => {
  await page.goto(`/?server=${encodeURIComponent(e2eEverythingUrl)}`);
  await waitForConnection(page);
  await expect(page.locator('mcp-connection [part="era"]')).toHaveText('legacy · 2025-11-25');
  // A legacy server may ask for the roots as soon as it is initialized (a request on its stream): with none
  // shared, the question waits in a line beside the page, and the page stays usable (no modal).
  const rootsAsk = page.locator('.roots-ask');
  await expect(rootsAsk).toContainText('asks which folders it may use; none are shared.');
  await expect(page.locator('mcp-elicitation-dialog dialog[open]')).toHaveCount(0);
  const tools = page.getByRole('region', { name: 'Tools' });
  const form = page.locator('mcp-tool-form');

  await tools.getByRole('button', { name: 'Echo Tool' }).click();
  await form.getByRole('textbox', { name: /message/i }).fill('hello from the kit');
  await form.getByRole('button', { name: 'Call tool' }).click();
  await expect(form.locator('[part="result"]')).toContainText('hello from the kit');
  await rootsAsk.getByRole('button', { name: 'Share none' }).click();
  await expect(rootsAsk).toHaveCount(0);

  await tools.getByRole('button', { name: 'Trigger Elicitation Request Tool' }).click();
  await form.getByRole('button', { name: 'Call tool' }).click();
  const dialog = page.locator('mcp-elicitation-dialog dialog[open]');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('[part="server"]')).toContainText('Everything Reference Server');
  await answerElicitation(page, { String: 'Ada Lovelace', 'String with email format': 'ada@example.org' });
  await expect(form.locator('[part="result"]')).toContainText('Ada Lovelace');
});

test('auto mode reaches a 2025 server whose CORS allows only Content-Type, mcp-session-id, mcp-protocol-version, last-event-id, authorization', async ({ page }) => {
  // The 2026-07-28 probe carries Mcp-Method, which this server's preflight refuses: the kit falls back to initialize.
  await page.goto(`/?server=${encodeURIComponent(e2eStrictLegacyUrl)}`);
  await waitForConnection(page);
  await expect(page.locator('mcp-connection [part="era"]')).toHaveText('legacy · 2025-11-25');
  const form = page.locator('mcp-tool-form');
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^echo/ }).click();
  await form.getByRole('textbox', { name: /text/i }).fill('through a strict allow-list');
  await form.getByRole('button', { name: 'Call tool' }).click();
  await expect(form.locator('[part="result"]')).toContainText('echo: through a strict allow-list');
});

test('a root added in the roots editor is announced with notifications/roots/list_changed; the server asks again and gets it, with no dialog', async ({ page }) => {
  await page.goto(`/?server=${encodeURIComponent(e2eEverythingUrl)}`);
  await waitForConnection(page);
  // The playground makes up no roots: the server's first question finds none.
  await expect(page.locator('.roots-ask')).toBeVisible();
  await page.getByRole('tablist', { name: 'Panes' }).getByRole('tab', { name: 'Roots' }).click();
  const roots = page.getByRole('tabpanel', { name: 'Roots' });
  await expect(roots).toContainText('No roots are shared.');
  await roots.getByRole('textbox', { name: 'Root URI' }).fill('file:///home/demo/notes');
  await roots.getByRole('textbox', { name: 'Name (optional)' }).fill('notes');
  await roots.getByRole('button', { name: 'Add root' }).click();
  // The waiting question is answered with it; the server hears of the change and asks again, answered from the roots.
  await expect(page.locator('.roots-ask')).toHaveCount(0);
  const log = page.locator('mcp-protocol-log');
  await expect(log.locator('[part~="entry-notification"][data-method="notifications/roots/list_changed"]')).toHaveCount(1);
  await expect(log.locator('[part~="entry-notification"][data-method="notifications/roots/list_changed"] [part~="direction"]')).toHaveAttribute('aria-label', 'sent');
  const answers = log.locator('[part~="entry-request"][data-method="roots/list"]');
  await expect(answers).toHaveCount(2);
  await expect(page.locator('mcp-elicitation-dialog dialog[open]')).toHaveCount(0);
});
