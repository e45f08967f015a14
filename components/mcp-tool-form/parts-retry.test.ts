/**
 * `<mcp-tool-form>` after its parts (form-parts.ts) failed to load (offline):
 * another tool tries again, and a later load that works — its own or another
 * form's — shows the fields and drops the error. The import goes through the
 * runner's `wrapDynamicImport` (components/test-support/frame.html); this file
 * runs in its own page, so the parts have not been loaded before.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { McpClient, type Tool } from '../../src/index.js';
import '../index.js';
import type { McpToolForm } from './mcp-tool-form.js';

type Load = () => Promise<unknown>;
const runner = (globalThis as unknown as { __vitest_browser_runner__: { wrapDynamicImport: (load: Load) => Promise<unknown> } }).__vitest_browser_runner__;
const passThrough = runner.wrapDynamicImport.bind(runner);
/** How many loads of the parts to fail, as a browser that is offline does. */
let failing = 2;
let attempts = 0;
runner.wrapDynamicImport = (load: Load) => {
  if (!/form-parts/.test(String(load))) return passThrough(load);
  attempts++;
  if (failing > 0) {
    failing--;
    return Promise.reject(new TypeError('Failed to fetch dynamically imported module (test: offline)'));
  }
  return passThrough(load);
};

afterEach(() => document.body.replaceChildren());

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object', properties: { city: { type: 'string' } } } });
const error = (form: McpToolForm) => form.shadowRoot!.querySelector('[part~="call-error"]')?.textContent ?? '';
const input = (form: McpToolForm) => form.shadowRoot!.querySelector('input');

test('a failed load is tried again for another tool, and a later load that works shows the fields of every form that failed', async () => {
  const client = new McpClient('https://parts-retry.example/mcp');
  const first = document.createElement('mcp-tool-form') as McpToolForm;
  first.client = client;
  first.noDrafts = true;
  first.tool = tool('weather');
  document.body.append(first);
  await vi.waitFor(() => expect(error(first)).toContain('The form cannot be shown'));
  expect(attempts).toBe(1);

  // Another tool: the form tries again (still offline here).
  first.tool = tool('forecast');
  await vi.waitFor(() => expect(attempts).toBe(2));
  await vi.waitFor(() => expect(error(first)).toContain('test: offline'));
  expect(input(first)).toBeNull();

  // Back online: a second form loads the parts; the first one shows its fields too, without the error.
  const second = document.createElement('mcp-tool-form') as McpToolForm;
  second.client = client;
  second.noDrafts = true;
  second.tool = tool('weather');
  document.body.append(second);
  await vi.waitFor(() => expect(input(second)).not.toBeNull());
  expect(attempts).toBe(3);
  await vi.waitFor(() => expect(input(first)).not.toBeNull());
  expect(error(first)).toBe('');
  expect(first.shadowRoot!.querySelector('[data-pointer="/city"]')).not.toBeNull();
  await client.close();
});
