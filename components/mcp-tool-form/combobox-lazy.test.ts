/**
 * `<mcp-tool-form>` loads the searched list of a long choice (more than
 * SEARCH_OVER values: internal/combobox.ts) only for a tool whose schema has
 * one, and sets that tool up once it is there, as it waits for its parts: no
 * fields meanwhile (not the previous tool's), and `updateComplete` waits for
 * it. The import is held through the runner's `wrapDynamicImport`
 * (test-support/lazy-imports.ts); this file runs in its own page, so the
 * combobox has not been loaded before.
 */
import { afterEach, expect, test, vi } from 'vitest';
import '../index.js';
import { holdImport } from '../test-support/lazy-imports.js';
import { field, mount, root, submitted, tool, type } from '../test-support/tool-form.js';

const held = holdImport(/combobox/);

afterEach(() => {
  held.release();
  document.body.replaceChildren();
});

const cities = Array.from({ length: 150 }, (_, i) => `city-${i}`);
const transfer = () => tool('transfer', { type: 'object', properties: { account: { type: 'string' } } });
const trip = () => tool('trip', { type: 'object', properties: { city: { type: 'string', enum: cities } }, required: ['city'] });

test('a tool without a long choice does not ask for the combobox; one with a long choice shows its fields once it is there, and nothing of the tool before meanwhile', async () => {
  // Choices of up to 100 values are radios and selects: no combobox.
  const form = await mount({ tool: tool('short', { type: 'object', properties: { size: { enum: cities.slice(0, 100) }, account: { type: 'string' } } }) });
  expect(field(form, '/size').querySelector('select')).not.toBeNull();
  form.tool = transfer();
  await form.updateComplete;
  await type(form, '/account', 'CH93-0000');
  expect(held.requested).toBe(0);

  // The page switches to a tool with a long choice, and fills it from a saved call.
  form.tool = trip();
  form.arguments = { city: 'city-7' };
  await vi.waitFor(() => expect(held.requested).toBe(1));
  await vi.waitFor(() => expect(form.isUpdatePending).toBe(false));
  expect(root(form).querySelector('[data-pointer]')).toBeNull();
  expect(root(form).querySelector('[part~="submit-button"]')).toBeNull();
  expect(form.value).toEqual({});
  expect(await form.submit()).toBeUndefined();
  let complete = false;
  const done = form.updateComplete.then(() => (complete = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(complete).toBe(false);

  held.release();
  await done;
  const input = field(form, '/city').querySelector<HTMLInputElement>('input[role="combobox"]');
  expect(input).not.toBeNull();
  expect(input!.value).toBe('city-7');
  expect(await submitted(form)).toEqual({ city: 'city-7' });
  // One load per page: another form with a long choice has it at once.
  const other = await mount({ tool: trip() });
  expect(field(other, '/city').querySelector('input[role="combobox"]')).not.toBeNull();
  expect(held.requested).toBe(1);
});
