/**
 * `<mcp-elicitation-dialog>` asked a form request with a long choice (more
 * than SEARCH_OVER options: a searched list, internal/combobox.ts, loaded on
 * demand) while that chunk cannot load (offline): the call gets a clear error
 * and the dialog stays closed, as when the validator cannot load; a request
 * without a long choice is asked meanwhile, and back online the next request
 * with one is. The chunk fails through the runner's `wrapDynamicImport`
 * (test-support/lazy-imports.ts); this file runs in its own page, so the
 * combobox has not been loaded before.
 */
import { afterEach, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../index.js';
import { McpError, type CallToolResult, type McpClient } from '../../src/index.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import { cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog.js';
import { offlineImport } from '../test-support/lazy-imports.js';

const url = inject('hostileServerUrl');

const combobox = offlineImport(/combobox/, false);

afterEach(() => {
  combobox.offline = false;
  cleanup();
});

test('the combobox cannot load for a request with a long choice: the call fails with a clear error and the dialog stays closed; back online, the request is asked', async () => {
  const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen><mcp-elicitation-dialog no-resume></mcp-elicitation-dialog></mcp-connection>`);
  await nextEvent(connection, 'mcp-connect');
  const dialog = connection.querySelector('mcp-elicitation-dialog') as McpElicitationDialog;
  const shadow = dialog.shadowRoot!;
  const client = connection.client as McpClient;
  const ask = (tool: string) => client.callTool(tool, {}).then((result) => ({ result }), (error: unknown) => ({ error }));

  combobox.offline = true;
  // A request without a long choice does not need it.
  const plain = ask('one_question');
  await vi.waitFor(() => expect(dialog.open).toBe(true));
  expect(combobox.attempts).toBe(0);
  shadow.querySelector<HTMLButtonElement>('[data-action="decline"]')!.click();
  expect('result' in (await plain)).toBe(true);

  const outcome = await ask('long_question');
  expect(combobox.attempts).toBe(1);
  const error = (outcome as { error: unknown }).error;
  expect(McpError.isInstance(error) && error.code).toBe('input_unsupported');
  expect((error as Error).message).toContain('could not be loaded');
  expect((error as Error).message).toContain('test: offline');
  expect(dialog.open).toBe(false);

  combobox.offline = false;
  const next = ask('long_question');
  await vi.waitFor(() => expect(dialog.open).toBe(true));
  expect(combobox.attempts).toBe(2);
  const city = shadow.querySelector<HTMLInputElement>('[data-field="city"] input[role="combobox"]')!;
  await userEvent.click(city);
  await userEvent.keyboard('city-149');
  await dialog.updateComplete;
  await userEvent.keyboard('{ArrowDown}{Enter}');
  // The multiple choice: a search box and the values that match.
  await userEvent.click(shadow.querySelector<HTMLInputElement>('[data-field="tags"] input[type="search"]')!);
  await userEvent.keyboard('tag-119');
  await dialog.updateComplete;
  await userEvent.click(shadow.querySelector<HTMLInputElement>('[data-field="tags"] input[type="checkbox"]')!);
  await userEvent.click(shadow.querySelector<HTMLButtonElement>('[data-action="review"]')!);
  await userEvent.click(shadow.querySelector<HTMLButtonElement>('[data-action="accept"]')!);
  const text = (((await next) as { result: CallToolResult }).result.content![0] as { text: string }).text;
  expect(text).toContain('"city":"city-149"');
  expect(text).toContain('"tags":["tag-119"]');
});
