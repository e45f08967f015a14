/**
 * `<mcp-elicitation-dialog>` asked a form request while the schema validator
 * cannot load (offline; it loads with the first form shown, issue 18): the call
 * gets a clear error, the dialog stays closed, and the next request, back
 * online, is asked. The validator's chunks fail through the runner's
 * `wrapDynamicImport` (components/test-support/frame.html); this file runs in
 * its own page, so the validator has not been loaded before.
 */
import { afterEach, expect, inject, test, vi } from 'vitest';
import '../index.js';
import { McpError, type McpClient } from '../../src/index.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import { cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog.js';
import { offlineImport } from '../test-support/lazy-imports.js';

const url = inject('hostileServerUrl');

const validator = offlineImport(/eval-policy|schema-guard|schema-ajv|cfworker/, false);

afterEach(() => {
  validator.offline = false;
  cleanup();
});

test('the validator cannot load for a form request: the call fails with a clear error and the dialog stays closed; back online, the next request is asked', async () => {
  const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen><mcp-elicitation-dialog no-resume></mcp-elicitation-dialog></mcp-connection>`);
  await nextEvent(connection, 'mcp-connect');
  const dialog = connection.querySelector('mcp-elicitation-dialog') as McpElicitationDialog;
  const client = connection.client as McpClient;
  const ask = () => client.callTool('one_question', {}).then((result) => ({ result }), (error: unknown) => ({ error }));

  validator.offline = true;
  const outcome = await ask();
  expect('error' in outcome).toBe(true);
  const error = (outcome as { error: unknown }).error;
  expect(McpError.isInstance(error) && error.code).toBe('input_unsupported');
  expect((error as Error).message).toContain('test: offline');
  expect(dialog.open).toBe(false);

  validator.offline = false;
  const next = ask();
  await vi.waitFor(() => expect(dialog.open).toBe(true));
  expect(dialog.shadowRoot!.querySelector('[part="message"]')!.textContent).toContain('Tell us about the trip.');
  dialog.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="decline"]')!.click();
  expect('result' in (await next)).toBe(true);
});
