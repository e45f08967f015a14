/**
 * `<mcp-tool-form>` whose validator could not be loaded (offline; it loads
 * with the first check, issue 18): once the network is back, the next submit
 * loads it again and checks the arguments, rather than sending them unchecked
 * for the rest of the page's life. The validator's chunks fail through the
 * runner's `wrapDynamicImport` (components/test-support/frame.html). This file
 * runs in its own page: the validator has not been loaded before.
 */
import { afterEach, expect, test, vi } from 'vitest';
import '../index.js';
import { compileSchema } from '../../src/index.js';
import type { McpToolCallEvent } from '../events.js';
import { errorOf, mount, part, root, tool, type } from '../test-support/tool-form.js';
import { offlineImport } from '../test-support/lazy-imports.js';

const validator = offlineImport(/eval-policy|schema-guard|schema-ajv|cfworker/, true);

afterEach(() => document.body.replaceChildren());

test('offline, the form says the validator could not be loaded; back online, the next submit loads it and flags what the schema rejects instead of sending it', async () => {
  const form = await mount({ tool: tool('book_room', { type: 'object', properties: { code: { type: 'string', minLength: 3 } }, required: ['code'] }) });
  await type(form, '/code', 'ab');
  await vi.waitFor(() => expect(part(root(form), 'notice').textContent).toContain('the schema validator could not be loaded'));
  const failed = validator.attempts;

  validator.offline = false;
  const sent: unknown[] = [];
  form.addEventListener('mcp-tool-call', (event: McpToolCallEvent) => {
    event.preventDefault();
    sent.push(event.detail.arguments);
  });
  // The submit waits for the validator's new load (a click does the same).
  await form.submit();
  await form.updateComplete;
  expect(sent).toEqual([]);
  expect(validator.attempts).toBeGreaterThan(failed);
  expect(errorOf(form, '/code')).toMatch(/3/);
  expect(root(form).querySelector('[part~="notice"]')).toBeNull();
  await type(form, '/code', 'abc');
  await form.submit();
  expect(sent).toEqual([{ code: 'abc' }]);
  // The kit's other checks (tool output, the dialog) load it again too, not the failure of the first try.
  expect((await compileSchema({ type: 'integer' }))(1.5).valid).toBe(false);
});
