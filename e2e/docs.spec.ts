/**
 * The docs site (issue 31) as a static host serves it: the docs built into the
 * hosted demo's folder (docs/ beside the playground), served by a plain file
 * server, with no MCP server in the loop. The `<mcp-tool-form>` page's live
 * example fills the form, calls the demo server's tool through the site's
 * Service Worker and shows its result; its API tables come from the manifest.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { e2eSiteDir } from '../playwright.config.js';
import { serveStatic } from './support/static-server.js';

const root = resolve(import.meta.dirname, '..');
/** This run's manifest: made here, so the test needs no earlier build and leaves dist/ alone. */
const manifestDir = `${e2eSiteDir}-manifest`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // The analyzer (about 15 s) and VitePress (about 30 s on an idle machine; more when it is shared).
  test.setTimeout(300_000);
  execFileSync(process.execPath, [join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js'), 'analyze', '--config', 'custom-elements-manifest.config.mjs', '--outdir', manifestDir, '--quiet'], { cwd: root, timeout: 120_000 });
  execFileSync(process.execPath, [join(root, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'docs'], {
    cwd: root,
    timeout: 240_000,
    env: { ...process.env, DOCS_OUT_DIR: join(e2eSiteDir, 'docs'), DOCS_MANIFEST: join(manifestDir, 'custom-elements.json') },
    stdio: 'pipe',
  });
});

test('the <mcp-tool-form> page: its live example calls the in-browser demo server; its API tables are the manifest\'s', async ({ page }) => {
  const site = await serveStatic(e2eSiteDir);
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${site.origin}/`)) elsewhere.push(request.url());
  });
  try {
    await page.goto(`${site.origin}/docs/elements/mcp-tool-form.html`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('<mcp-tool-form>');

    const example = page.locator('.live-example');
    await expect(example.locator('mcp-connection')).toHaveJSProperty('status', 'connected', { timeout: 30_000 });
    const form = example.locator('mcp-tool-form');
    await form.getByRole('textbox', { name: 'Title' }).fill('Printer on fire');
    await form.getByRole('radio', { name: 'high' }).check();
    await form.getByRole('button', { name: 'Call tool' }).click();
    await expect(form.locator('[part="result"]')).toContainText(/Created T-\d{4}: Printer on fire \(high\)/);

    // The MCP traffic went to the site's own /demo-mcp and never reached the file server: the
    // Service Worker answered it. Nothing went to another origin (no Node MCP server).
    const connection = example.locator('mcp-connection');
    expect(await connection.evaluate((element) => (element as HTMLElement & { serverUrl: string }).serverUrl)).toBe(`${site.origin}/demo-mcp`);
    expect(site.requests.filter((request) => request.includes('demo-mcp'))).toEqual([]);
    expect(site.requests).toContain('GET /demo-sw.js');
    expect(elsewhere).toEqual([]);

    // Every attribute and event the manifest lists for the element is in the page's tables.
    const manifest = JSON.parse(readFileSync(join(manifestDir, 'custom-elements.json'), 'utf8')) as { modules: { declarations?: { tagName?: string; attributes?: { name: string }[]; events?: { name: string }[] }[] }[] };
    const declaration = manifest.modules.flatMap((module) => module.declarations ?? []).find((d) => d.tagName === 'mcp-tool-form')!;
    const firstColumn = (table: string) => page.getByRole('table', { name: `mcp-tool-form: ${table}` }).locator('tbody tr td:first-child');
    await expect(firstColumn('Attributes')).toHaveText(declaration.attributes!.map((a) => a.name));
    await expect(firstColumn('Events')).toHaveText(declaration.events!.map((e) => e.name));
    await expect(page.getByRole('table', { name: 'mcp-tool-form: Custom states' })).toContainText(':state(pending)');
  } finally {
    await site.close();
  }
});
