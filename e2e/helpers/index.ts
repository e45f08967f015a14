/**
 * Playwright helpers for pages that embed mcp-web-elements — for the kit's own
 * end-to-end tests and for host teams testing their chat UIs.
 *
 * ```ts
 * import { answerElicitation } from 'mcp-web-elements/playwright';
 * await answerElicitation(page, { Date: '2026-12-24', Guests: '3' });
 * ```
 *
 * Playwright locators pierce open shadow roots, so the helpers find the kit's
 * controls by their accessible names, as a person would.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** The open `<mcp-elicitation-dialog>` (its native `<dialog>`). */
export function elicitationDialog(page: Page): Locator {
  return page.locator('mcp-elicitation-dialog dialog[open]');
}

/** Waits until the dialog shows a request whose message contains `text` (when given). */
export async function waitForInputRequest(page: Page, text?: string | RegExp): Promise<Locator> {
  const dialog = elicitationDialog(page);
  await expect(dialog).toBeVisible();
  if (text !== undefined) await expect(dialog.locator('[part="message"]')).toContainText(text);
  return dialog;
}

/** A value for one form field: text, a number, a boolean (checkbox), a choice label, or several choice labels. */
export type AnswerValue = string | number | boolean | string[];

/**
 * Answers a form-mode elicitation. With `action: 'accept'` (default) it fills each
 * field by its label and accepts (one click; `review: true` goes through Review
 * first, as a request the host marks sensitive must); otherwise it presses
 * Decline or Cancel. Choices (radio buttons, selects, checkbox groups) are given
 * by their visible labels.
 */
export async function answerElicitation(
  page: Page,
  values: Record<string, AnswerValue> = {},
  options: { action?: 'accept' | 'decline' | 'cancel'; message?: string | RegExp; review?: boolean } = {},
): Promise<void> {
  const dialog = await waitForInputRequest(page, options.message);
  const action = options.action ?? 'accept';
  if (action !== 'accept') {
    await dialog.getByRole('button', { name: action === 'decline' ? 'Decline' : 'Cancel', exact: true }).click();
    return;
  }
  for (const [label, value] of Object.entries(values)) {
    const group = dialog.getByRole('group', { name: label });
    if (Array.isArray(value)) {
      for (const box of await group.getByRole('checkbox').all()) {
        const name = (await box.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? '')).trim();
        await box.setChecked(value.includes(name));
      }
    } else if (typeof value === 'boolean') {
      await dialog.getByRole('checkbox', { name: label }).setChecked(value);
    } else if ((await group.count()) > 0) {
      await group.getByRole('radio', { name: String(value), exact: true }).check();
    } else {
      // An exact label first ("String" must not pick "String with default"), then a partial one.
      const exact = dialog.getByLabel(label, { exact: true });
      const field = (await exact.count()) > 0 ? exact.first() : dialog.getByLabel(label, { exact: false }).first();
      const tag = await field.evaluate((el) => el.tagName.toLowerCase());
      if (tag === 'select') await field.selectOption({ label: String(value) });
      else await field.fill(String(value));
    }
  }
  if (options.review) await dialog.getByRole('button', { name: 'Review', exact: true }).click();
  await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
}

/**
 * Answers a URL-mode elicitation: `open` opens the page (a new tab) and then
 * continues (unless the server's completion already closed the dialog: a
 * 2025-11-25 request is answered on open); `decline` and `cancel` press those buttons.
 */
export async function answerUrlElicitation(page: Page, action: 'open' | 'decline' | 'cancel' = 'open'): Promise<void> {
  const dialog = await waitForInputRequest(page);
  if (action === 'open') {
    await dialog.getByRole('button', { name: /^Open / }).click();
    // A 2025-11-25 server's request was answered on Open, and its completion may close the dialog first.
    const next = dialog.getByRole('button', { name: 'Continue', exact: true });
    await next.click({ timeout: 10_000 }).catch(async (error: unknown) => {
      if ((await next.count()) > 0) throw error;
    });
  } else {
    await dialog.getByRole('button', { name: action === 'decline' ? 'Decline' : 'Cancel', exact: true }).click();
  }
}

/** Answers a sampling request with `text` (or keeps the host's draft when omitted), or rejects it. */
export async function answerSampling(page: Page, options: { text?: string; reject?: boolean } = {}): Promise<void> {
  const dialog = await waitForInputRequest(page);
  if (options.reject) return dialog.getByRole('button', { name: 'Reject', exact: true }).click();
  const reply = dialog.getByRole('textbox', { name: /^Reply/ });
  if (options.text !== undefined) await reply.fill(options.text);
  else await expect(reply).not.toHaveValue('');
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
}

/** Shares (or refuses to share) the configured roots. */
export async function answerRoots(page: Page, share = true): Promise<void> {
  const dialog = await waitForInputRequest(page);
  await dialog.getByRole('button', { name: share ? 'Share' : "Don't share", exact: true }).click();
}

/** Answers the "continue where you left off?" offer shown after a reload. */
export async function resumePendingCall(page: Page, resume = true): Promise<void> {
  const dialog = elicitationDialog(page);
  await expect(dialog.getByRole('heading', { name: 'Continue where you left off?' })).toBeVisible();
  await dialog.getByRole('button', { name: resume ? 'Resume' : 'Discard', exact: true }).click();
}

/** Waits for `<mcp-connection>` to be connected. */
export async function waitForConnection(page: Page, selector = 'mcp-connection'): Promise<void> {
  await expect(page.locator(`${selector}:state(connected)`)).toHaveCount(1);
}
