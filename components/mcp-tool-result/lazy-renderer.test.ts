/**
 * `<mcp-tool-result>` loads its renderer (result-body.ts) with import() when it
 * is first given a result (issue 18). These tests hold that import, or fail it
 * as offline, through the runner's `wrapDynamicImport` (every import() in
 * Vitest's browser mode goes through it; see components/test-support/frame.html).
 * This file runs in its own page: the renderer has not been loaded before.
 */
import { afterEach, expect, test, vi } from 'vitest';
import type { CallToolResult } from '../../src/index.js';
import '../index.js';
import type { McpToolResult } from './mcp-tool-result.js';
import { offlineImport } from '../test-support/lazy-imports.js';

const renderer = offlineImport(/result-body/, false, 'Failed to fetch dynamically imported module');

afterEach(() => {
  renderer.offline = false;
  document.body.replaceChildren();
});

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

test('offline, a result is shown as JSON; back online, the next result is rendered as usual, not as JSON for ever, and so are the others shown as JSON', async () => {
  const element = document.createElement('mcp-tool-result') as McpToolResult;
  const other = document.createElement('mcp-tool-result') as McpToolResult;
  document.body.append(element, other);
  renderer.offline = true;
  element.result = text('first, while offline');
  other.result = text('another, while offline');
  await vi.waitFor(() => expect(element.shadowRoot!.querySelector('[part="placeholder"]')?.textContent).toContain('cannot be shown as usual (Failed to fetch dynamically imported module)'));
  await vi.waitFor(() => expect(other.shadowRoot!.querySelector('[part="placeholder"]')).not.toBeNull());
  expect(element.shadowRoot!.querySelector('pre[part="text"]')!.textContent).toContain('first, while offline');
  renderer.offline = false;
  element.result = text('second, back online');
  await element.updateComplete;
  await vi.waitFor(() => expect(element.shadowRoot!.querySelector('[part~="block-text"]')?.textContent).toContain('second, back online'));
  expect(element.shadowRoot!.querySelector('[part="placeholder"]')).toBeNull();
  // The other result, still the one given offline, is not left as JSON with the offline message.
  await vi.waitFor(() => expect(other.shadowRoot!.querySelector('[part~="block-text"]')?.textContent).toContain('another, while offline'));
  expect(other.shadowRoot!.querySelector('[part="placeholder"]')).toBeNull();
});
