/**
 * Issue 19, item 2: the playground against a server listing 50,000 tools (a raw
 * node:http server started by the test on a free port). The page lists a
 * bounded number of them, with a filter that finds the others.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { waitForConnection } from './helpers/index.js';

const TOOLS = 50_000;
let server: Server;
let url: string;

test.beforeAll(async () => {
  const tools = Array.from({ length: TOOLS }, (_, i) => ({ name: `tool_${String(i).padStart(5, '0')}`, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }));
  const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': 'POST, OPTIONS', 'Access-Control-Expose-Headers': '*' };
  server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'OPTIONS' ? 204 : 405, cors);
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string };
      const result =
        message.method === 'server/discover'
          ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: req.url === '/huge-name/mcp' ? `Huge ${'n'.repeat(1024 * 1024)}` : 'many-tools', version: '1' } }
          : message.method === 'tools/list'
            ? { resultType: 'complete', tools }
            : undefined;
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
      res.end(JSON.stringify(result ? { jsonrpc: '2.0', id: message.id, result } : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('50,000 tools: at most 100 buttons, and a filter finds any of them', async ({ page }) => {
  await page.goto(`/?server=${encodeURIComponent(url)}`);
  await waitForConnection(page);
  const tools = page.getByRole('region', { name: 'Tools' });
  await expect(tools.getByRole('status')).toContainText('100 of 10,000 tools listed');
  expect(await tools.getByRole('button').count()).toBe(100);
  // The region's whole DOM stays small (each entry is a few nodes).
  const nodes = await tools.evaluate((element) => element.querySelectorAll('*').length);
  expect(nodes).toBeLessThan(100 * 5 + 20);
  await tools.getByRole('searchbox', { name: 'Filter tools' }).fill('tool_0424');
  await expect(tools.getByRole('button')).toHaveCount(10);
  await tools.getByRole('searchbox', { name: 'Filter tools' }).fill('tool_04242');
  await expect(tools.getByRole('button')).toHaveCount(1);
  await tools.getByRole('button', { name: 'tool_04242' }).click();
  await expect(page.locator('mcp-tool-form').getByRole('heading', { name: 'tool_04242' })).toBeVisible();
});

test('a server name of a megabyte: the tab and the saved server list show (and keep) its start only', async ({ page }) => {
  await page.goto(`/?server=${encodeURIComponent(url.replace(/\/mcp$/, '/huge-name/mcp'))}`);
  await waitForConnection(page);
  const tab = page.getByRole('tablist', { name: 'Open connections' }).getByRole('tab').first();
  await expect(tab).toContainText('Huge nnn');
  expect((await tab.textContent())!.length).toBeLessThan(200);
  const saved = page.getByRole('region', { name: 'Saved servers' }).locator('li .saved-name').first();
  await expect(saved).toContainText('Huge nnn');
  expect((await saved.textContent())!.length).toBeLessThan(200);
});
