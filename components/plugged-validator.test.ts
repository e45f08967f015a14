/**
 * The elements with another JSON Schema library plugged in
 * (`useSchemaCompiler(cfworkerCompiler)`), in real Chromium against the demo MCP
 * server: the tool form and the elicitation dialog validate as with ajv, and
 * ajv is never downloaded; if/then/else fields work when the form is set up
 * before the validator has loaded, and after switching libraries. This file
 * sets the compiler before any element connects, as a page would; each test
 * file runs in its own page, and the test order matters (see the comments).
 */
import { afterEach, expect, inject, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cfworkerCompiler } from '../src/cfworker.js';
import { McpClient, useSchemaCompiler, type ToolCallResult } from '../src/index.js';
import './index.js';
import type { McpConnection } from './mcp-connection/mcp-connection.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog/mcp-elicitation-dialog.js';
import type { McpToolForm } from './mcp-tool-form/mcp-tool-form.js';
import { cleanup, mount, nextEvent } from './test-support/dom.js';
import { conditionalTool, fanOutSchema } from './test-support/fixtures.js';

useSchemaCompiler(cfworkerCompiler);

const url = inject('demoServerUrl');

/** Scripts and modules the page has fetched whose URL names ajv (its package or the kit's ajv module). */
const ajvDownloads = () => performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => /ajv/i.test(name));

afterEach(() => cleanup());

/** Mounts a form for conditionalTool() and checks that its if/then/else follows the chosen delivery. */
async function conditionsFollowTheValue(): Promise<void> {
  const form = document.createElement('mcp-tool-form') as McpToolForm;
  form.noDrafts = true;
  form.tool = conditionalTool();
  document.body.append(form);
  const has = (pointer: string) => form.shadowRoot!.querySelector(`[data-pointer="${pointer}"]`) !== null;
  await vi.waitFor(() => expect(has('/street')).toBe(true));
  expect(has('/store')).toBe(false);
  const pickup = [...form.shadowRoot!.querySelectorAll('[data-pointer="/delivery"] label')].find((label) => label.textContent!.trim() === 'pickup')!;
  await userEvent.click(pickup.querySelector('input')!);
  await vi.waitFor(() => expect(has('/store')).toBe(true));
  expect(has('/street')).toBe(false);
  form.remove();
}

// First in this file: the form's model is built before the validator has loaded.
test('if/then/else fields follow the value when the form was set up before the validator loaded', async () => {
  await conditionsFollowTheValue();
});

test('the tool form shows the same errors and sends only valid arguments, without downloading ajv', async () => {
  const client = new McpClient(url);
  const sent: unknown[] = [];
  client.on('traffic', (event) => {
    const message = (event as { message?: { method?: string; params?: { arguments?: unknown } } }).message;
    if (event.direction === 'out' && message?.method === 'tools/call') sent.push(message.params?.arguments);
  });
  const form = document.createElement('mcp-tool-form') as McpToolForm;
  form.toolName = 'create_ticket';
  form.client = client;
  form.noDrafts = true;
  document.body.append(form);
  const input = (pointer: string) => form.shadowRoot!.querySelector<HTMLInputElement>(`[data-pointer="${pointer}"] input`);
  const error = (pointer: string) => form.shadowRoot!.querySelector(`[data-pointer="${pointer}"] [part~="error"]`)?.textContent?.trim();
  await vi.waitFor(() => expect(input('/title')).not.toBeNull());

  await userEvent.fill(input('/title')!, 'ab');
  await userEvent.fill(input('/reporter')!, 'not-an-email');
  await userEvent.click(form.shadowRoot!.querySelector('[part~="submit-button"]')!);
  await form.updateComplete;
  expect(form.issues.map((issue) => issue.pointer).sort()).toEqual(['/reporter', '/title']);
  expect(error('/title')).toBe('Enter at least 3 characters.');
  expect(error('/reporter')).toBe('Enter a valid email.');
  expect(sent).toEqual([]);

  await userEvent.fill(input('/title')!, 'Printer on fire');
  await userEvent.fill(input('/reporter')!, 'ana@example.org');
  await userEvent.click(form.shadowRoot!.querySelector('[part~="submit-button"]')!);
  await vi.waitFor(() => expect(form.result).toBeDefined());
  expect(sent).toEqual([expect.objectContaining({ title: 'Printer on fire', reporter: 'ana@example.org' })]);
  expect(ajvDownloads()).toEqual([]);
  await client.close();
});

test('the elicitation dialog flags invalid answers inline and sends a valid one, without downloading ajv', async () => {
  const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen><mcp-elicitation-dialog no-resume></mcp-elicitation-dialog></mcp-connection>`);
  const dialog = connection.querySelector<McpElicitationDialog>('mcp-elicitation-dialog')!;
  await nextEvent(connection, 'mcp-connect');
  const call = connection.client!.callTool('survey', {});
  const shadow = (selector: string) => dialog.shadowRoot!.querySelector<HTMLElement>(selector);
  await vi.waitFor(() => expect(dialog.shadowRoot!.querySelector('dialog')!.open).toBe(true));

  await userEvent.fill(page.getByRole('textbox', { name: 'Name' }), 'A');
  await userEvent.fill(page.getByRole('textbox', { name: 'Email' }), 'not-an-email');
  await userEvent.click(page.getByRole('button', { name: 'Review' }));
  await vi.waitFor(() => expect(shadow('[data-field="email"] [part="field-error"]')?.textContent).toBe('This value must match format "email".'));
  expect(shadow('[data-field="name"] [part="field-error"]')!.textContent).toBe('This value must NOT have fewer than 2 characters.');
  expect(shadow('[data-field="os"] [part="field-error"]')!.textContent).toBe('This field is required.');

  await userEvent.fill(page.getByRole('textbox', { name: 'Name' }), 'Ada');
  await userEvent.fill(page.getByRole('textbox', { name: 'Email' }), 'ada@example.org');
  await userEvent.click(page.getByRole('radio', { name: 'Linux' }));
  await userEvent.click(page.getByRole('checkbox', { name: 'ts', exact: true }));
  await userEvent.click(page.getByRole('button', { name: 'Review' }));
  await userEvent.click(page.getByRole('button', { name: 'Accept' }));
  const result = (await call) as ToolCallResult;
  expect(result.structuredContent).toMatchObject({ name: 'Ada', email: 'ada@example.org', os: 'linux', languages: ['ts'] });
  expect(ajvDownloads()).toEqual([]);
});

test('patterns run on the linear-time engine and a schema that branches out is not checked: the form flags a catastrophic value, and the first submit of the costly schema sends at once', async () => {
  const form = document.createElement('mcp-tool-form') as McpToolForm;
  form.noDrafts = true;
  const fan = fanOutSchema(26, 'allOf');
  form.tool = {
    name: 'checks',
    inputSchema: { type: 'object', properties: { slug: { type: 'string', pattern: 'a*a*b' } }, required: ['slug'] },
  };
  document.body.append(form);
  const calls: unknown[] = [];
  form.addEventListener('mcp-tool-call', (event) => {
    event.preventDefault();
    calls.push(event.detail.arguments);
  });
  const input = () => form.shadowRoot!.querySelector<HTMLInputElement>('[data-pointer="/slug"] input')!;
  await vi.waitFor(() => expect(input()).not.toBeNull());
  // Cubic on a backtracking engine: seconds to minutes for 30,000 characters.
  await userEvent.fill(input(), 'a'.repeat(30_000));
  await vi.waitFor(() => expect(input().validity.customError).toBe(true));
  await userEvent.click(form.shadowRoot!.querySelector('[part~="submit-button"]')!);
  await form.updateComplete;
  expect(form.issues.map((issue) => `${issue.pointer} ${issue.message}`)).toEqual([expect.stringMatching(/^\/slug /)]);
  expect(calls).toEqual([]);

  form.tool = { name: 'fan', inputSchema: { type: 'object', $defs: fan.$defs, properties: { name: { $ref: '#/$defs/n0' } } } };
  await form.updateComplete;
  await vi.waitFor(() => expect(form.shadowRoot!.querySelector('[part~="notice"]')?.textContent).toMatch(/^The input schema cannot be checked \(The schema is too costly to check safely/));
  form.arguments = { name: { any: 'value' } };
  await form.updateComplete;
  await userEvent.click(form.shadowRoot!.querySelector('[part~="submit-button"]')!);
  await vi.waitFor(() => expect(calls).toEqual([{ name: { any: 'value' } }]));
  expect(ajvDownloads()).toEqual([]);
  form.remove();
});

// Last: it loads ajv.
test('switching libraries while forms are in the page: the next form checks with the new one', async () => {
  useSchemaCompiler(undefined);
  await conditionsFollowTheValue();
  useSchemaCompiler(cfworkerCompiler);
  await conditionsFollowTheValue();
});
