/**
 * The package without a bundler: the packed tarball's dist/cdn/elements.js,
 * served as plain files by a static server, in a page that has nothing but
 * `<script type="module" src=".../dist/cdn/elements.js">` and the tags (no
 * import map), against the demo MCP server. The form's validation runs from
 * there (ajv, converted from CommonJS by the build, or @cfworker/json-schema
 * where the page forbids eval) and the tool is called.
 *
 * The tarball is the one scripts/samples.mjs packed for this run (its
 * typecheck.json names it): packing again would rebuild dist/ under the
 * samples' feet.
 */
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { e2eSamplesUrl, e2eServerUrl } from '../playwright.config.js';

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
const STRICT_CSP = "script-src 'self'; object-src 'none'; base-uri 'self'";

let unpacked: string;
let server: Server;
let origin: string;
/** Paths the static server was asked for, with its answer's status. */
const served: { path: string; status: number }[] = [];

/** The page: the script tag and the tags, nothing else. */
function html(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>mcp-web-elements without a bundler</title><link rel="icon" href="data:,">
<script type="module" src="/package/dist/cdn/elements.js"></script></head>
<body>
<mcp-connection server-url="${e2eServerUrl}" no-listen>
  <mcp-tool-form tool-name="create_ticket" no-drafts></mcp-tool-form>
</mcp-connection>
</body>
</html>`;
}

test.beforeAll(async ({ request }, testInfo) => {
  // The samples server answers once it has packed (prepack builds dist/): a minute or two on a busy machine.
  testInfo.setTimeout(240_000);
  const response = await request.get(`${e2eSamplesUrl}/typecheck.json`, { timeout: 230_000 });
  expect(response.status(), await response.text()).toBe(200);
  const { tarball } = (await response.json()) as { tarball: string };
  unpacked = mkdtempSync(join(tmpdir(), 'mcp-web-elements-cdn-'));
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);

  // A plain static file server: the unpacked package under /package/, the page at / (with ?csp, under a policy without 'unsafe-eval').
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const answer = (status: number, body: string | Buffer, type = 'text/plain; charset=utf-8', headers: Record<string, string> = {}) => {
      served.push({ path: url.pathname, status });
      res.writeHead(status, { 'content-type': type, ...headers }).end(body);
    };
    if (url.pathname === '/') {
      const csp = url.searchParams.has('csp');
      return answer(200, html(), TYPES['.html'], csp ? { 'content-security-policy': STRICT_CSP } : {});
    }
    const file = normalize(join(unpacked, decodeURIComponent(url.pathname)));
    if (!file.startsWith(join(unpacked, 'package') + sep)) return answer(404, 'not found');
    try {
      if (!statSync(file).isFile()) return answer(404, 'not found');
      answer(200, readFileSync(file), TYPES[extname(file)] ?? 'application/octet-stream');
    } catch {
      answer(404, 'not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (unpacked) rmSync(unpacked, { recursive: true, force: true });
});

test.beforeEach(() => {
  served.length = 0;
});

/** Fills the title too short (flagged by the validator), then right, and calls the tool. */
async function validateAndCall(page: Page): Promise<void> {
  const form = page.locator('mcp-tool-form');
  await expect(form.getByRole('heading', { name: 'Create a ticket' })).toBeVisible({ timeout: 20_000 });
  const title = form.getByRole('textbox', { name: 'Title' });
  await title.fill('ab');
  await form.getByRole('button', { name: 'Call tool' }).click();
  // The schema's minLength, checked in the page: the call is refused with the field's message.
  await expect(form.locator('[data-pointer="/title"] [part~="error"]')).toHaveText('Enter at least 3 characters.');
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await title.fill('Printer on fire');
  await form.getByRole('button', { name: 'Call tool' }).click();
  await expect(form.locator('mcp-tool-result')).toContainText('Printer on fire');
}

/** Every file the page asked the static server for: all found, all from dist/cdn (or the page). */
function expectOnlyCdnFiles(): string[] {
  expect(served.filter((r) => r.status !== 200)).toEqual([]);
  const files = served.map((r) => r.path).filter((path) => path !== '/');
  expect(files.filter((path) => !path.startsWith('/package/dist/cdn/'))).toEqual([]);
  return files;
}

test('dist/cdn/elements.js from the tarball, in a page with no bundler and no import map, validates a form with ajv and calls the tool', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const elsewhere: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith(new URL(e2eServerUrl).origin)) elsewhere.push(r.url());
  });
  await page.goto(`${origin}/`);
  await validateAndCall(page);
  const files = expectOnlyCdnFiles();
  // The lazily loaded parts came from dist/cdn: the form's parts and ajv's chunk (the validator that flagged the title).
  expect(files.some((path) => /\/chunks\/form-parts-[\w-]+\.js$/.test(path))).toBe(true);
  expect(files.some((path) => /\/chunks\/schema-ajv-[\w-]+\.js$/.test(path))).toBe(true);
  expect(files.some((path) => /cfworker/.test(path))).toBe(false);
  // Lit's production build: its development build announces itself.
  expect(readFileSync(join(unpacked, 'package/dist/cdn/elements.js'), 'utf8')).not.toContain('Lit is in dev mode');
  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});

test('under a Content-Security-Policy without unsafe-eval, dist/cdn checks values with @cfworker/json-schema and never downloads ajv', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const response = await page.goto(`${origin}/?csp`);
  expect(response?.headers()['content-security-policy']).toBe(STRICT_CSP);
  await validateAndCall(page);
  const files = expectOnlyCdnFiles();
  expect(files.some((path) => /\/chunks\/cfworker-[\w-]+\.js$/.test(path))).toBe(true);
  expect(files.filter((path) => /schema-ajv/.test(path))).toEqual([]);
  expect(errors).toEqual([]);
});
