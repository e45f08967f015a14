/**
 * A call running while the definition of its tool changes to one with a long
 * choice, whose searched list (internal/combobox.ts) is still loading: the
 * form shows no fields meanwhile, but the call stays the form's (a changed
 * definition is the same tool: form-call.test.ts), and its result is shown.
 * The combobox's import is held through the runner's `wrapDynamicImport`
 * (test-support/lazy-imports.ts); this file runs in its own page, so the
 * combobox has not been loaded before.
 */
import { afterEach, expect, inject, test, vi } from 'vitest';
import { McpClient, type Tool } from '../../src/index.js';
import '../index.js';
import { holdImport } from '../test-support/lazy-imports.js';
import { click, control, field, mount, part, root, type } from '../test-support/tool-form.js';

const held = holdImport(/combobox/);
const WAIT = { timeout: 15_000, interval: 25 };

afterEach(() => {
  held.release();
  document.body.replaceChildren();
});

test('the definition of a running call\'s tool changes to one with a long choice: the call goes on while the combobox loads, and its result is shown', async () => {
  const client = new McpClient(inject('demoServerUrl'));
  try {
    const form = await mount({ toolName: 'long_task', client });
    await vi.waitFor(() => control(form, '/steps'), WAIT);
    await type(form, '/steps', '3');
    await type(form, '/stepMs', '300');
    await click(form, part(root(form), 'submit-button'));
    await vi.waitFor(() => expect(form.phase).toBe('pending'), WAIT);
    const listed = form.effectiveTool!;
    const schema = listed.inputSchema as { properties: Record<string, unknown> };
    const changed: Tool = { ...listed, inputSchema: { ...schema, properties: { ...schema.properties, region: { enum: Array.from({ length: 150 }, (_, i) => `region-${i}`) } } } };
    form.tool = changed;
    await vi.waitFor(() => expect(held.requested).toBe(1));
    await vi.waitFor(() => expect(form.isUpdatePending).toBe(false));
    expect(root(form).querySelector('[data-pointer]')).toBeNull();
    expect(form.phase).toBe('pending');

    held.release();
    await form.updateComplete;
    expect(field(form, '/region').querySelector('input[role="combobox"]')).not.toBeNull();
    expect(form.phase).toBe('pending');
    await vi.waitFor(() => expect(form.result).toBeDefined(), WAIT);
    expect(form.phase).toBe('idle');
    expect(root(form).querySelector('mcp-tool-result')).not.toBeNull();
  } finally {
    await client.close();
  }
});
