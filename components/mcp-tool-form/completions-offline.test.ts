/**
 * The suggestions code (completions.ts) loads when a form's server declares
 * `completions`. When that chunk cannot load (offline, a blocked file), the form
 * works as one without suggestions: no unhandled rejection, fields plain, the call
 * made. Every import() of the chunk is failed (test-support/lazy-imports.ts, through the runner's
 * `wrapDynamicImport`); this file runs in
 * its own page, so the chunk has not been loaded before.
 */
import { afterEach, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../index.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import { cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpToolForm } from './mcp-tool-form.js';
import { offlineImport } from '../test-support/lazy-imports.js';

const completions = offlineImport(/completions/, true, 'Failed to fetch dynamically imported module: completions.js');

const url = inject('demoServerUrl');
afterEach(() => cleanup());

test('the suggestions chunk cannot load: the URI field is a plain input, nothing is left unhandled, the tool is called', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (event: PromiseRejectionEvent) => {
    unhandled.push(event.reason);
    event.preventDefault();
  };
  window.addEventListener('unhandledrejection', onUnhandled);
  try {
    const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen><mcp-tool-form tool-name="show_note" no-drafts></mcp-tool-form></mcp-connection>`);
    await nextEvent(connection, 'mcp-connect');
    const form = connection.querySelector<McpToolForm>('mcp-tool-form')!;
    const input = () => form.shadowRoot!.querySelector<HTMLInputElement>('[data-pointer="/uri"] input');
    await vi.waitFor(() => expect(input()).not.toBeNull(), { timeout: 30_000 });
    await vi.waitFor(() => expect(completions.attempts).toBeGreaterThan(0), { timeout: 30_000 });
    await userEvent.click(input()!);
    await userEvent.keyboard('demo://notes/welcome');
    await form.updateComplete;
    // A macrotask for a rejection nobody handled to be reported.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(unhandled).toEqual([]);
    expect(input()!.getAttribute('role')).toBeNull();
    expect(form.value).toEqual({ uri: 'demo://notes/welcome' });
    const done = nextEvent<CustomEvent>(form, 'mcp-tool-result');
    await userEvent.keyboard('{Enter}');
    expect((await done).detail.result.content[0].text).toBe('Welcome to the mcp-web-elements demo!');
  } finally {
    window.removeEventListener('unhandledrejection', onUnhandled);
  }
});
