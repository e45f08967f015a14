/**
 * A legacy server's `-32042` URL elicitation required error (2025-11-25
 * client/elicitation) in real Chromium: `<mcp-elicitation-dialog>` asks the
 * user's consent for the page exactly as for a URL-mode request — full URL,
 * host emphasised, nothing fetched before consent — then the call is retried.
 * Against the official SDK serving 2025-11-25 (test/support/url-elicitation-server.ts).
 */
import { afterEach, beforeEach, expect, inject, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { McpClient, McpClientError, type ToolCallResult } from '../../src/index.js';
import '../index.js';
import { cleanup, mount } from '../test-support/dom.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog.js';

const url = inject('urlElicitationServerUrl');
const origin = new URL(url).origin;
const consentUrl = `${origin}/consent?elicitation=vault-access`;
const host = new URL(url).host;

let dialog: McpElicitationDialog;
let client: McpClient;
const dialogOpen = () => dialog.shadowRoot!.querySelector('dialog')!.open;
const shadow = (selector: string) => dialog.shadowRoot!.querySelector<HTMLElement>(selector);
const consents = async () => (await (await fetch(`${origin}/consents`)).json()) as string[];

beforeEach(async () => {
  cleanup();
  await fetch(`${origin}/reset`, { method: 'POST' });
  client = new McpClient(url, { protocol: 'legacy', onWarning: () => {} });
  dialog = mount<McpElicitationDialog>('<mcp-elicitation-dialog></mcp-elicitation-dialog>');
  dialog.client = client;
  await dialog.updateComplete;
});
afterEach(async () => {
  cleanup();
  await client.close();
});

test('-32042 from a legacy server: the dialog shows the consent with the host; Open, then Continue retries the call', async () => {
  const open = vi.spyOn(window, 'open');
  const call = client.callTool('open_vault', {});
  call.catch(() => {}); // awaited below; a failed step above must not leave it unhandled
  // The first call connects (legacy initialize) and loads the legacy code: generous on a busy machine.
  await vi.waitFor(() => expect(dialogOpen()).toBe(true), { timeout: 15_000 });
  expect(shadow('[part="message"]')!.textContent).toBe('Allow this app to open your vault.');
  expect(shadow('[part="url"]')!.textContent).toBe(consentUrl);
  expect(shadow('[part="url-host"]')!.textContent).toBe(host);
  expect(shadow('[part="server-host"]')!.textContent).toBe(host);
  // Nothing is opened or fetched before the user consents.
  expect(open).not.toHaveBeenCalled();
  expect(await consents()).toEqual([]);
  await userEvent.click(page.getByRole('button', { name: `Open ${host}` }));
  expect(open).toHaveBeenCalledWith(consentUrl, '_blank', 'noopener,noreferrer');
  // The new tab reaches the server's page; then the user comes back and continues.
  await vi.waitFor(async () => expect(await consents()).toEqual(['vault-access']), { timeout: 10_000 });
  await userEvent.click(page.getByRole('button', { name: 'Continue' }));
  const result = (await call) as ToolCallResult;
  expect(result.content).toEqual([{ type: 'text', text: 'vault opened' }]);
  await vi.waitFor(() => expect(dialogOpen()).toBe(false));
  open.mockRestore();
});

test('-32042, declined in the dialog: the call fails with a declined error and is not retried', async () => {
  const call = client.callTool('open_vault', {}).catch((e: unknown) => e);
  await vi.waitFor(() => expect(dialogOpen()).toBe(true), { timeout: 15_000 });
  await userEvent.click(page.getByRole('button', { name: 'Decline' }));
  const error = await call;
  expect(McpClientError.isInstance(error) && error.code).toBe('declined');
  expect((error as McpClientError).message).toContain(host);
  expect(await consents()).toEqual([]);
});
