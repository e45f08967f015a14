/**
 * The framework samples (samples/: React 19, its @lit/react wrappers, Vue 3,
 * Svelte 5), type-checked and built against the packed package by
 * scripts/samples.mjs, run in Chromium against the demo MCP server: each
 * renders the tool form, calls the tool, and hears of the result through its
 * framework's typed event binding (issue 17).
 */
import { expect, test } from '@playwright/test';
import { e2eSamplesUrl, e2eServerUrl } from '../playwright.config.js';

interface Typecheck {
  tarball: string;
  results: Record<string, { checker: string; code: number; output: string }>;
}

let typecheck: Typecheck;
test.beforeAll(async ({ request }, testInfo) => {
  // The samples server answers once packing, checking and building are done: a minute or two on a busy machine.
  testInfo.setTimeout(240_000);
  const response = await request.get(`${e2eSamplesUrl}/typecheck.json`, { timeout: 230_000 });
  expect(response.status(), await response.text()).toBe(200);
  typecheck = (await response.json()) as Typecheck;
});

for (const [name, checker] of [['react', 'tsc'], ['vue', 'vue-tsc (strict templates)'], ['svelte', 'svelte-check']] as const) {
  test(`the ${name} sample type-checks against the packed types (${checker})`, () => {
    expect(typecheck.tarball).toMatch(/mcp-web-elements-[\d.]+\.tgz$/);
    const result = typecheck.results[name]!;
    expect(result.checker).toBe(checker);
    // The checker's own report is the message when it fails.
    expect(result.code, result.output).toBe(0);
  });
}

for (const [label, path, heading] of [
  ['React 19 (JSX)', '/react/', 'React 19'],
  ['React (the @lit/react wrappers)', '/react/?wrappers', 'React wrappers'],
  ['Vue 3', '/vue/', 'Vue 3'],
  ['Svelte 5', '/svelte/', 'Svelte 5'],
] as const) {
  test(`the ${label} sample renders a form and calls a tool`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const url = `${e2eSamplesUrl}${path}${path.includes('?') ? '&' : '?'}server=${encodeURIComponent(e2eServerUrl)}`;
    await page.goto(url);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    const form = page.locator('mcp-tool-form');
    await expect(form.getByRole('heading', { name: 'Weather' })).toBeVisible();
    await form.getByRole('textbox', { name: 'City' }).fill('Braga');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await expect(form.locator('mcp-tool-result')).toContainText('"city":"Braga"');
    // The app's own handler got the typed event.
    await expect(page.locator('main > p[role="status"]')).toHaveText('get_weather returned 1 block(s)');
    expect(errors).toEqual([]);
  });
}
