/**
 * `<mcp-tool-form>` submitted before its validator has loaded (it loads with
 * the first check, issue 18): the submit waits for it. These tests hold that
 * load through the runner's `wrapDynamicImport` (every import() in Vitest's
 * browser mode goes through it; components/test-support/frame.html) and switch
 * the tool meanwhile. This file runs in its own page: the validator has not
 * been loaded before.
 */
import { afterEach, expect, test, vi } from 'vitest';
import '../index.js';
import type { McpToolCallEvent } from '../events.js';
import { click, mount, part, root, tool } from '../test-support/tool-form.js';
import { holdImport } from '../test-support/lazy-imports.js';

const held = holdImport(/eval-policy|schema-guard/);

afterEach(() => {
  held.release();
  document.body.replaceChildren();
});

test('"Call tool" clicked while the validator loads, then the page switches to another tool: nothing is sent, for either tool', async () => {
  const form = await mount({ tool: tool('archive_month', { type: 'object', properties: { month: { type: 'string', default: '2026-11' } } }) });
  const calls: string[] = [];
  form.addEventListener('mcp-tool-call', (event: McpToolCallEvent) => {
    event.preventDefault();
    calls.push(`${event.detail.tool} ${JSON.stringify(event.detail.arguments)}`);
  });
  const submit = form.submit();
  await vi.waitFor(() => expect(held.requested).toBeGreaterThan(0));
  // The user picks another tool in the page before the first one was checked.
  form.tool = tool('purge_cache', { type: 'object', properties: { region: { type: 'string', default: 'eu' } } });
  held.release();
  expect(await submit).toBeUndefined();
  await form.updateComplete;
  expect(calls).toEqual([]);
  expect(form.shadowRoot!.querySelector('[data-pointer="/region"]')).not.toBeNull();
  // A click on the new tool's button calls it.
  await click(form, part(root(form), 'submit-button'));
  await vi.waitFor(() => expect(calls).toEqual(['purge_cache {"region":"eu"}']));
});

test('a destructive tool awaiting confirmation when the page switches to another tool: the question goes away and nothing is sent', async () => {
  const form = await mount({ tool: tool('drop_table', { type: 'object', properties: { table: { type: 'string', default: 'orders' } } }, { annotations: { destructiveHint: true } }) });
  const calls: string[] = [];
  form.addEventListener('mcp-tool-call', (event: McpToolCallEvent) => {
    event.preventDefault();
    calls.push(event.detail.tool);
  });
  const submit = form.submit();
  await vi.waitFor(() => expect(root(form).querySelector('[part~="confirm"]')).not.toBeNull());
  form.tool = tool('list_tables', { type: 'object', properties: { schema: { type: 'string', default: 'public' } } });
  await form.updateComplete;
  // The question about the first tool is not left under the second tool's name.
  expect(root(form).querySelector('[part~="confirm"]')).toBeNull();
  expect(await submit).toBeUndefined();
  expect(calls).toEqual([]);
  expect(form.phase).toBe('idle');
  expect(part<HTMLButtonElement>(root(form), 'submit-button').disabled).toBe(false);
});
