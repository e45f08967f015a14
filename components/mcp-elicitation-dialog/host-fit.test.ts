/**
 * `<mcp-elicitation-dialog>` in a host page (issue 17): its buttons stay in
 * view on a short screen, a reload seconds old is "just now", required fields
 * are required in Chromium's accessibility tree, and it adds no landmarks.
 * Real Chromium, the real demo MCP server.
 */
import { afterEach, beforeEach, expect, inject, test, vi } from 'vitest';
import { page } from 'vitest/browser';
import type { McpClient } from '../../src/index.js';
import '../index.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import { accessibilityTree, requiredNodes } from '../test-support/ax.js';
import { cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog.js';
import { clearAllPending, savePending } from './pending.js';

const url = inject('demoServerUrl');

let dialog: McpElicitationDialog;
let client: McpClient;

async function setup(): Promise<void> {
  const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen><mcp-elicitation-dialog></mcp-elicitation-dialog></mcp-connection>`);
  dialog = connection.querySelector('mcp-elicitation-dialog')!;
  await nextEvent(connection, 'mcp-connect');
  client = connection.client!;
}

const shadow = <T extends Element = HTMLElement>(selector: string) => dialog.shadowRoot!.querySelector<T>(selector);

beforeEach(async () => {
  cleanup();
  await clearAllPending(url);
});
afterEach(async () => {
  cleanup();
  await page.viewport(414, 896);
});

test('on a short screen the long survey scrolls and its buttons stay in view', async () => {
  await page.viewport(640, 360);
  await setup();
  const call = client.callTool('survey', {}).catch(() => undefined);
  await vi.waitFor(() => expect(shadow<HTMLDialogElement>('dialog')?.open).toBe(true));
  const box = shadow('dialog')!;
  // The survey is taller than the screen: the dialog scrolls.
  expect(box.scrollHeight).toBeGreaterThan(box.clientHeight);
  for (const name of ['Review', 'Decline', 'Cancel']) {
    const button = [...dialog.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent!.trim() === name)!;
    const rect = button.getBoundingClientRect();
    expect({ name, inView: rect.top >= 0 && rect.bottom <= innerHeight }).toEqual({ name, inView: true });
    // Not covered by the scrolled content: it is what a click at its centre reaches.
    expect(dialog.shadowRoot!.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2)).toBe(button);
  }
  box.scrollTop = box.scrollHeight;
  const review = [...dialog.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent!.trim() === 'Review')!;
  expect(review.getBoundingClientRect().bottom).toBeLessThanOrEqual(innerHeight);
  box.querySelector<HTMLButtonElement>('[data-action="cancel"]')?.click();
  await userCancel(call);
});

async function userCancel(call: Promise<unknown>): Promise<void> {
  if (shadow<HTMLDialogElement>('dialog')?.open) [...dialog.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent!.trim() === 'Cancel')!.click();
  await call;
}

test('a reload seconds old is "just now"; an older one says its minutes', async () => {
  const record = { url, method: 'tools/call', target: 'book_table', params: { name: 'book_table', arguments: {} }, interim: { resultType: 'input_required', requestState: 's' } } as const;
  await savePending({ ...record, id: 'seconds-old', savedAt: Date.now() - 5_000 });
  await setup();
  await vi.waitFor(() => expect(shadow('[data-action="resume"]')).not.toBeNull());
  expect(shadow('[part="message"]')!.textContent!.replace(/\s+/g, ' ').trim()).toBe('tools/call book_table was waiting for your answer just now, before the page was reloaded.');
  cleanup();
  await clearAllPending(url);

  await savePending({ ...record, id: 'minutes-old', savedAt: Date.now() - 5 * 60_000 });
  await setup();
  await vi.waitFor(() => expect(shadow('[data-action="resume"]')).not.toBeNull());
  expect(shadow('[part="message"]')!.textContent).toContain('was waiting for your answer about 5 minutes ago');
});

test('required fields are required in the accessibility tree; the dialog adds no landmarks', async () => {
  await setup();
  const call = client.callTool('survey', {}).catch(() => undefined);
  await vi.waitFor(() => expect(shadow<HTMLDialogElement>('dialog')?.open).toBe(true));
  expect((await requiredNodes()).sort()).toEqual(['textbox: Name', 'textbox: Email', 'radiogroup: Operating system'].sort());
  // A group of checkboxes cannot carry aria-required: its name says it.
  const languages = [...dialog.shadowRoot!.querySelectorAll('legend')].find((legend) => legend.textContent!.includes('Languages'))!;
  expect(languages.textContent!.replace(/\s+/g, ' ').trim()).toBe('Languages * (required) (at least 1, at most 3)');
  const landmarks = ['banner', 'contentinfo', 'region', 'complementary', 'navigation', 'main'];
  expect((await accessibilityTree()).filter((node) => landmarks.includes(node.role)).map((node) => `${node.role}: ${node.name}`)).toEqual([]);
  await userCancel(call);
});
