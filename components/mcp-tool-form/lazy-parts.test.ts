/**
 * `<mcp-tool-form>` loads its parts (form-parts.ts) with import() when it
 * connects (issue 18). These tests hold that import through the runner's
 * `wrapDynamicImport` (every import() in Vitest's browser mode goes through it;
 * see components/test-support/frame.html). This file runs in its own page: the
 * parts have not been loaded before.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { McpClient, type Tool } from '../../src/index.js';
import '../index.js';
import { draftKey, loadDraft, saveDraft } from '../internal/drafts.js';
import { valueToDraft } from './draft.js';
import type { McpToolForm } from './mcp-tool-form.js';
import { FormModel } from './model.js';
import { holdImport } from '../test-support/lazy-imports.js';

const held = holdImport(/form-parts/);

afterEach(() => {
  held.release();
  document.body.replaceChildren();
});

const server = 'https://lazy-parts.example/mcp';

test('arguments a host sets while the parts load win over the stored draft, as they do once the form is shown', async () => {
  const tool: Tool = { name: `trip_${Math.random().toString(36).slice(2)}`, inputSchema: { type: 'object', properties: { title: { type: 'string' } } } };
  const key = draftKey(server, tool.name);
  const model = new FormModel(tool.inputSchema);
  await saveDraft(key, valueToDraft(model, model.root({ title: 'an old draft' }), { title: 'an old draft' }), '');
  const form = document.createElement('mcp-tool-form') as McpToolForm;
  form.client = new McpClient(server);
  form.tool = tool;
  document.body.append(form);
  await vi.waitFor(() => expect(held.requested).toBe(1));
  // The host fills the form from a saved call before its parts are there.
  form.arguments = { title: 'from the host' };
  held.release();
  await form.updateComplete;
  await vi.waitFor(() => expect(form.shadowRoot!.querySelector('input')).not.toBeNull());
  // The form reads the stored draft once its model is there; a read of ours made after it ends after it (IndexedDB runs them in order).
  await loadDraft(key);
  await form.updateComplete;
  const input = form.shadowRoot!.querySelector('input')!;
  expect(input.value).toBe('from the host');
  // The user goes on from what the host filled in: that is what is stored, and what stays.
  input.value = 'from the host, edited';
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await vi.waitFor(async () => expect((await loadDraft<{ p: Record<string, { v: string }> }>(key)).stored?.draft.p.title?.v).toBe('from the host, edited'));
  expect(form.value).toEqual({ title: 'from the host, edited' });
});
