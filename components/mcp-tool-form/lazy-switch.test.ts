/**
 * `<mcp-tool-form>` whose page switches the tool while the form's parts
 * (form-parts.ts) are loading: the form ends with the new tool's fields and
 * none of the other tool's values, as it does once the parts are there. The
 * import is held through the runner's `wrapDynamicImport` (every import() in
 * Vitest's browser mode goes through it; components/test-support/frame.html).
 * This file runs in its own page: the parts have not been loaded before.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { McpClient } from '../../src/index.js';
import '../index.js';
import { draftKey, loadDraft, saveDraft } from '../internal/drafts.js';
import { valueToDraft } from './draft.js';
import { FormModel } from './model.js';
import { mount, submitted, tool, type } from '../test-support/tool-form.js';
import type { McpToolForm } from './mcp-tool-form.js';
import { holdImport } from '../test-support/lazy-imports.js';

const held = holdImport(/form-parts/);

afterEach(() => {
  held.release();
  document.body.replaceChildren();
});

/** Two tools that share a member name: a value of one must not turn up in the other. */
const transfer = () => tool('transfer', { type: 'object', properties: { account: { type: 'string' }, amount: { type: 'number' } } });
const lookup = () => tool('lookup', { type: 'object', properties: { account: { type: 'string' }, year: { type: 'integer' } } });

/** The form has rendered what was set so far (an update, not the parts: those are held). */
const rendered = (form: McpToolForm) => vi.waitFor(() => expect(form.isUpdatePending).toBe(false));
const inputAt = (form: McpToolForm, pointer: string) => form.shadowRoot!.querySelector<HTMLInputElement>(`[data-pointer="${pointer}"] input`)!;

function unmounted(initial?: () => ReturnType<typeof transfer>): McpToolForm {
  const form = document.createElement('mcp-tool-form') as McpToolForm;
  form.noDrafts = true;
  if (initial) form.tool = initial();
  document.body.append(form);
  return form;
}

test('while the parts load, arguments go with the tool the form shows when they are set: not to a tool the page switches to later', async () => {
  // The page restores a saved call of the first tool; later the user picks the other tool.
  const switched = unmounted(transfer);
  await vi.waitFor(() => expect(held.requested).toBe(1));
  switched.arguments = { account: 'CH93-0000', amount: 250 };
  await rendered(switched);
  switched.tool = lookup();
  await rendered(switched);
  // A saved call of the other tool is opened: the page sets the tool, then its arguments (or the other way round).
  const toolFirst = unmounted(transfer);
  await rendered(toolFirst);
  toolFirst.tool = lookup();
  toolFirst.arguments = { account: 'DE02-1111', year: 2024 };
  const argumentsFirst = unmounted(transfer);
  await rendered(argumentsFirst);
  argumentsFirst.arguments = { account: 'DE02-3333', year: 2022 };
  argumentsFirst.tool = lookup();
  // Arguments set before there is any tool fill the first one.
  const noToolYet = unmounted();
  noToolYet.arguments = { account: 'DE02-5555', year: 2021 };
  await rendered(noToolYet);
  noToolYet.tool = lookup();
  expect(held.requested).toBe(1);

  held.release();
  for (const form of [switched, toolFirst, argumentsFirst, noToolYet]) await form.updateComplete;
  await vi.waitFor(() => expect(switched.shadowRoot!.querySelector('[data-pointer="/year"]')).not.toBeNull());
  expect(switched.shadowRoot!.querySelector('[data-pointer="/amount"]')).toBeNull();
  expect(inputAt(switched, '/account').value).toBe('');
  expect(switched.value).toEqual({});
  expect(await submitted(switched)).toEqual({});
  expect(toolFirst.value).toEqual({ account: 'DE02-1111', year: 2024 });
  expect(argumentsFirst.value).toEqual({ account: 'DE02-3333', year: 2022 });
  expect(noToolYet.value).toEqual({ account: 'DE02-5555', year: 2021 });
  expect(inputAt(noToolYet, '/account').value).toBe('DE02-5555');
});

test('with the parts there, the same: arguments set for a tool stay with it; a tool and its arguments set together (either order) fill that tool', async () => {
  held.release();
  const switched = await mount({ tool: transfer() });
  switched.arguments = { account: 'CH93-0000', amount: 250 };
  await switched.updateComplete;
  switched.tool = lookup();
  await switched.updateComplete;
  expect(switched.value).toEqual({});

  // Property bindings are set in the order the host wrote them.
  for (const order of ['tool first', 'arguments first']) {
    const form = await mount({ tool: transfer() });
    if (order === 'tool first') form.tool = lookup();
    form.arguments = { account: 'FR76-2222', year: 2023 };
    if (order === 'arguments first') form.tool = lookup();
    await form.updateComplete;
    expect(form.value, order).toEqual({ account: 'FR76-2222', year: 2023 });
    expect(inputAt(form, '/account').value, order).toBe('FR76-2222');
  }
});

test('the page sets an equal definition again (a list fetched anew, a framework re-render): what the user typed stays; a changed definition starts over', async () => {
  held.release();
  const form = await mount({ tool: transfer() });
  form.addEventListener('mcp-tool-call', (event) => event.preventDefault());
  await type(form, '/account', 'IT60-4444');
  form.tool = transfer();
  await form.updateComplete;
  expect(form.value).toEqual({ account: 'IT60-4444' });
  expect(inputAt(form, '/account').value).toBe('IT60-4444');
  // A definition that changed is another form: its fields start over.
  form.tool = { ...transfer(), inputSchema: { type: 'object', properties: { account: { type: 'string' }, amount: { type: 'integer' } } } };
  await form.updateComplete;
  expect(form.value).toEqual({});
});

test('the page switches the form to another server mid-edit (same tool): that server\'s stored draft is shown, and what was typed stays stored for the first server', async () => {
  held.release();
  const name = `booking_${Math.random().toString(36).slice(2)}`;
  const definition = tool(name, { type: 'object', properties: { city: { type: 'string' } } });
  const first = new McpClient('https://first-server.example/mcp');
  const second = new McpClient('https://second-server.example/mcp');
  const model = new FormModel(definition.inputSchema);
  const secondKey = draftKey(second.url.href, name);
  await saveDraft(secondKey, valueToDraft(model, model.root({ city: 'Lima' }), { city: 'Lima' }), '');
  const form = await mount({ tool: definition, client: first, drafts: true });
  await type(form, '/city', 'Quito');
  form.client = second;
  await form.updateComplete;
  await vi.waitFor(() => expect(form.value).toEqual({ city: 'Lima' }));
  expect(form.shadowRoot!.querySelector('[part~="draft-conflict"]')).toBeNull();
  await vi.waitFor(async () => expect((await loadDraft<{ p: Record<string, { v: string }> }>(draftKey(first.url.href, name))).stored?.draft.p.city?.v).toBe('Quito'));
  expect((await loadDraft<{ p: Record<string, { v: string }> }>(secondKey)).stored?.draft.p.city?.v).toBe('Lima');
});

test('a client set after the tool: its server\'s stored draft is shown', async () => {
  held.release();
  const name = `booking_${Math.random().toString(36).slice(2)}`;
  const definition = tool(name, { type: 'object', properties: { city: { type: 'string' } } });
  const client = new McpClient('https://late-client.example/mcp');
  const model = new FormModel(definition.inputSchema);
  await saveDraft(draftKey(client.url.href, name), valueToDraft(model, model.root({ city: 'Cusco' }), { city: 'Cusco' }), '');
  const form = await mount({ tool: definition, drafts: true });
  form.client = client;
  await vi.waitFor(() => expect(form.value).toEqual({ city: 'Cusco' }));
});
