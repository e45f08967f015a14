/**
 * `<mcp-tool-result>` given results while its renderer (result-body.ts) is
 * still loading: several elements at once, and an element whose result is
 * replaced (or taken away) before the renderer arrives. What shows is each
 * element's latest result, checked against its tool's `outputSchema`. The
 * import is held through the runner's `wrapDynamicImport`
 * (components/test-support/frame.html); this file runs in its own page, so the
 * renderer has not been loaded before.
 */
import { afterEach, expect, test, vi } from 'vitest';
import type { CallToolResult, Tool } from '../../src/index.js';
import '../index.js';
import type { McpToolResult } from './mcp-tool-result.js';
import { holdImport } from '../test-support/lazy-imports.js';

const held = holdImport(/result-body/);

afterEach(() => {
  held.release();
  document.body.replaceChildren();
});

const quote: Tool = { name: 'quote', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] } };
const priced = (text: string, price: unknown): CallToolResult => ({ content: [{ type: 'text', text }], structuredContent: { price } });
const shown = (element: McpToolResult) => [...element.shadowRoot!.querySelectorAll('[part~="block-text"]')].map((block) => block.textContent!.trim());

function element(): McpToolResult {
  const created = document.createElement('mcp-tool-result') as McpToolResult;
  created.tool = quote;
  document.body.append(created);
  return created;
}

test('results given while the renderer loads: each element shows its latest one, checked, and one that was taken away shows nothing', async () => {
  const first = element();
  const second = element();
  const replaced = element();
  const cleared = element();
  first.result = priced('first: 12 EUR', 12);
  second.result = priced('second: 30 EUR', 30);
  replaced.result = priced('old quote', 'twelve');
  cleared.result = priced('withdrawn quote', 5);
  await vi.waitFor(() => expect(held.requested).toBe(1));
  // Before the renderer arrives: replaced by a newer result (and a third one), or taken away.
  replaced.result = priced('newer quote', 'thirteen');
  replaced.result = priced('newest quote: 14 EUR', 14);
  cleared.result = undefined;
  // Nothing half-drawn meanwhile.
  for (const each of [first, second, replaced, cleared]) expect(shown(each)).toEqual([]);
  held.release();
  await Promise.all([first, second, replaced, cleared].map((each) => each.updateComplete));
  expect(held.requested).toBe(1);
  expect(shown(first)).toEqual(['first: 12 EUR']);
  expect(shown(second)).toEqual(['second: 30 EUR']);
  expect(shown(replaced)).toEqual(['newest quote: 14 EUR']);
  await vi.waitFor(() => expect(replaced.outputValidation).toEqual({ status: 'valid' }));
  expect(replaced.shadowRoot!.querySelector('[part~="validation"]')!.textContent).not.toMatch(/invalid|does not match/i);
  expect(cleared.shadowRoot!.querySelector('[part~="base"]')).toBeNull();
  // A result given to it afterwards is shown in the update that sets it.
  cleared.result = priced('a fresh quote: 7 EUR', 7);
  await cleared.updateComplete;
  expect(shown(cleared)).toEqual(['a fresh quote: 7 EUR']);
});
