/**
 * Browser OAuth against the bundled protected demo server and a real local
 * authorization server (oidc-provider, with Cross-Origin-Opener-Policy set, so
 * the popup cannot talk to its opener): sign in through the popup, call a tool,
 * reload (the token comes from IndexedDB), let the token expire (it is
 * refreshed), sign out.
 */
import { expect, test, type Page } from '@playwright/test';
import { e2eProtectedUrl } from '../playwright.config.js';
import { waitForConnection } from './helpers/index.js';

const status = (page: Page) => page.locator('mcp-connection [part="status"]');
const log = (page: Page) => page.getByRole('region', { name: 'Protocol log' });

async function callWeather(page: Page, city: string): Promise<void> {
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'Weather' }).click();
  const form = page.locator('mcp-tool-form');
  await form.getByRole('textbox', { name: 'City' }).fill(city);
  await form.getByRole('button', { name: 'Call tool' }).click();
  await expect(form.locator('[part="result"]')).toContainText(`"city":"${city}"`);
}

test('sign in through the popup, call, reload, refresh, sign out', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(`/?server=${encodeURIComponent(e2eProtectedUrl)}`);
  // A protected server: the connection asks the user to sign in instead of opening a popup by itself.
  await expect(page.locator('mcp-connection [part="notice"]')).toHaveText('This server requires signing in.');
  const popupPromise = page.waitForEvent('popup');
  await status(page).getByRole('button', { name: 'Sign in' }).click();
  const popup = await popupPromise;
  // Listen before clicking: on a busy machine the popup can close while the click is still being reported.
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Sign in as demo user' }).click();
  await closed;
  await waitForConnection(page);
  await expect(status(page).getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(log(page)).toContainText('OAuth: signed in (Bearer');
  await callWeather(page, 'Braga');

  // Reload: the token comes back from IndexedDB, no sign-in.
  await page.reload();
  await waitForConnection(page);
  await expect(status(page).getByRole('button', { name: 'Sign in' })).toHaveCount(0);
  await callWeather(page, 'Évora');

  // The access token lives 6 s. Past half its lifetime the next request refreshes it first,
  // and after the original token has expired, calls keep working with the new one.
  await page.waitForTimeout(3_500);
  await callWeather(page, 'Coimbra');
  await expect(log(page)).toContainText('OAuth: token refreshed');
  await page.waitForTimeout(3_500);
  await callWeather(page, 'Faro');

  // Sign out: tokens are gone and the server asks for sign-in again.
  await status(page).getByRole('button', { name: 'Sign out' }).click();
  await expect(status(page).getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.locator('mcp-connection:state(connected)')).toHaveCount(0);
});
