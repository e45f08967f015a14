/**
 * `<mcp-tool-form>` moved in the page (removed and added again, as a list
 * that re-orders or a layout that changes does) while its parts
 * (form-parts.ts) load and while the user types: it shows its fields once,
 * keeps what was typed, and one submit is one call. The import is held
 * through the runner's `wrapDynamicImport` (components/test-support/frame.html);
 * this file runs in its own page, so the parts have not been loaded before.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../index.js';
import type { McpToolCallEvent } from '../events.js';
import { click, control, part, root, tool } from '../test-support/tool-form.js';
import type { McpToolForm } from './mcp-tool-form.js';
import { holdImport } from '../test-support/lazy-imports.js';

const held = holdImport(/form-parts/);

afterEach(() => {
  held.release();
  document.body.replaceChildren();
});

test('moved while its parts load and again while the user types: one set of fields, the value kept, one input event per keystroke, one call per submit', async () => {
  const left = document.body.appendChild(document.createElement('section'));
  const right = document.body.appendChild(document.createElement('section'));
  const form = document.createElement('mcp-tool-form') as McpToolForm;
  form.noDrafts = true;
  form.tool = tool('rename_file', { type: 'object', properties: { to: { type: 'string', minLength: 1 } }, required: ['to'] });
  left.append(form);
  await vi.waitFor(() => expect(held.requested).toBe(1));
  right.append(form);
  left.append(form);
  held.release();
  await form.updateComplete;
  expect(root(form).querySelectorAll('[data-pointer="/to"]')).toHaveLength(1);
  expect(root(form).querySelectorAll('[part~="form"]')).toHaveLength(1);

  const inputs: Event[] = [];
  const calls: unknown[] = [];
  form.addEventListener('input', (event) => inputs.push(event));
  form.addEventListener('mcp-tool-call', (event: McpToolCallEvent) => {
    event.preventDefault();
    calls.push(event.detail.arguments);
  });
  await userEvent.type(control(form, '/to'), 'a.txt');
  expect(inputs).toHaveLength(5);
  // Moved mid-edit (focus leaves with it), then the user goes on typing.
  right.append(form);
  await form.updateComplete;
  expect(control(form, '/to').value).toBe('a.txt');
  await userEvent.type(control(form, '/to'), 'x');
  expect(inputs).toHaveLength(6);
  expect(form.value).toEqual({ to: 'a.txtx' });
  await click(form, part(root(form), 'submit-button'));
  await vi.waitFor(() => expect(calls).toEqual([{ to: 'a.txtx' }]));
  // Moved back and submitted again: one more call, not two.
  left.append(form);
  await form.updateComplete;
  await click(form, part(root(form), 'submit-button'));
  await vi.waitFor(() => expect(calls).toHaveLength(2));
  await form.updateComplete;
  expect(calls).toHaveLength(2);
  expect(inputs).toHaveLength(6);
});
