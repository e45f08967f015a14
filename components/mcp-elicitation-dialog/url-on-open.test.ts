/**
 * Issue 29, item 4: a 2025-11-25 server's own URL-mode `elicitation/create`
 * (official SDK, legacy sessions) in real Chromium. `accept` means consent to
 * open the page, so the dialog answers when the user clicks "Open …", not
 * after "Continue": the server's tool goes on while the page is still open.
 * The server's `notifications/elicitation/complete` for the request then ends
 * the dialog's wait. (The -32042 retry keeps its Continue:
 * url-elicitation-required.test.ts.)
 */
import { afterEach, beforeEach, expect, inject, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { McpClient, type ToolCallResult } from '../../src/index.js';
import '../index.js';
import { cleanup, mount } from '../test-support/dom.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog.js';

// The legacy SDK server (sessions, CORS for this page) whose `link` tool asks for a URL-mode
// elicitation, then, once answered, sends notifications/elicitation/complete for it.
const url = inject('wireLab').legacyStrict;

let dialog: McpElicitationDialog;
let client: McpClient;
const dialogOpen = () => dialog.shadowRoot!.querySelector('dialog')!.open;

beforeEach(async () => {
  cleanup();
  client = new McpClient(url, { protocol: 'legacy', onWarning: () => {} });
  dialog = mount<McpElicitationDialog>('<mcp-elicitation-dialog></mcp-elicitation-dialog>');
  dialog.client = client;
  await dialog.updateComplete;
});
afterEach(async () => {
  cleanup();
  await client.close();
});

test('the answer goes on "Open": the tool finishes without Continue, and the completion closes the dialog', async () => {
  const open = vi.spyOn(window, 'open').mockReturnValue(null);
  const call = client.callTool('link', {});
  call.catch(() => {});
  await vi.waitFor(() => expect(dialogOpen()).toBe(true), { timeout: 15_000 });
  expect(dialog.shadowRoot!.querySelector('[part="url-host"]')!.textContent).toBe('auth.example.test');
  expect(open).not.toHaveBeenCalled();
  await userEvent.click(page.getByRole('button', { name: 'Open auth.example.test' }));
  expect(open).toHaveBeenCalledWith('https://auth.example.test/start', '_blank', 'noopener,noreferrer');
  // Nobody clicks Continue: the server got accept on Open and its tool answered.
  const result = (await call) as ToolCallResult;
  expect(result.content).toEqual([{ type: 'text', text: 'url answer: accept' }]);
  // Its notifications/elicitation/complete ended the dialog's "finish on the other page".
  await vi.waitFor(() => expect(dialogOpen()).toBe(false), { timeout: 10_000 });
  open.mockRestore();
});
