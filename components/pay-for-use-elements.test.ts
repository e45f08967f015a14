/**
 * Pay for what you use (issue 18), with the whole elements entry: a page that
 * does `import 'mcp-web-elements/elements'` (components/index.ts) and places a
 * connection, a tool form and the elicitation dialog connects, lists and
 * renders the form without requesting the dialog's body (its forms, URL
 * consent, sampling, roots, styles) or the result renderer. A call that asks
 * for input loads the dialog's body, which answers it; the result renderer
 * arrives with the result. Real Chromium, the demo MCP server. The test
 * server serves each source module as its own file, so the page's resource
 * entries name every module it asked for. This file must stay alone in its
 * page: what another test file imported would be requested already.
 */
import { afterEach, expect, inject, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import './index.js';
import type { McpConnection } from './mcp-connection/mcp-connection.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog/mcp-elicitation-dialog.js';
import type { McpToolForm } from './mcp-tool-form/mcp-tool-form.js';
import { cleanup, mount, nextEvent } from './test-support/dom.js';

const url = inject('demoServerUrl');

afterEach(() => cleanup());

/** Paths of every module and script the page has requested so far. */
const requested = () => performance.getEntriesByType('resource').map((entry) => decodeURIComponent(new URL(entry.name).pathname));

/** The dialog's body: what it loads when a request is to be shown. */
const DIALOG_BODY = /\/components\/mcp-elicitation-dialog\/(dialog-body|elicitation-form|url|mcp-elicitation-dialog\.styles)\.ts$/;
/** The result renderer: what `<mcp-tool-result>` loads with its first result. */
const RESULT_BODY = /\/components\/mcp-tool-result\/(result-body|mcp-tool-result\.styles)\.ts$/;

test('the whole entry: no dialog body before an input request, no result renderer before a result; the dialog answers a two-round call', async () => {
  const connection = mount<McpConnection>(
    `<mcp-connection server-url="${url}" no-listen><mcp-tool-form tool-name="book_table" no-drafts></mcp-tool-form><mcp-elicitation-dialog no-resume></mcp-elicitation-dialog></mcp-connection>`,
  );
  await nextEvent(connection, 'mcp-connect');
  const form = connection.querySelector('mcp-tool-form') as McpToolForm;
  const dialog = connection.querySelector('mcp-elicitation-dialog') as McpElicitationDialog;
  await vi.waitFor(() => expect(form.shadowRoot!.querySelector('[data-pointer="/restaurant"] input')).not.toBeNull());
  await form.updateComplete;

  const before = requested();
  // The page did load the entry and the dialog element (the checks would pass vacuously otherwise).
  expect(before.some((path) => path.endsWith('/components/index.ts'))).toBe(true);
  expect(before.some((path) => path.endsWith('/components/mcp-elicitation-dialog/mcp-elicitation-dialog.ts'))).toBe(true);
  expect(before.some((path) => path.endsWith('/components/mcp-tool-result/mcp-tool-result.ts'))).toBe(true);
  expect(before.filter((path) => DIALOG_BODY.test(path))).toEqual([]);
  expect(before.filter((path) => RESULT_BODY.test(path))).toEqual([]);
  // The element is defined and wired before its body: the client declares what the dialog answers.
  expect(customElements.get('mcp-elicitation-dialog')).toBeDefined();
  expect(dialog.open).toBe(false);

  // The call asks for input: the body loads, and the dialog asks the user.
  await userEvent.click(form.shadowRoot!.querySelector<HTMLButtonElement>('[part~="submit-button"]')!);
  await vi.waitFor(() => expect(dialog.shadowRoot!.querySelector('dialog')!.open).toBe(true));
  expect(requested().filter((path) => DIALOG_BODY.test(path)).length).toBeGreaterThan(0);
  expect(dialog.shadowRoot!.querySelector('[part="message"]')!.textContent).toBe('When would you like to eat at Casa Lisboa?');
  // Its own styles came with it.
  expect(getComputedStyle(dialog.shadowRoot!.querySelector('[part="actions"]')!).display).toBe('flex');
  await userEvent.fill(page.getByLabelText('Date'), '2026-05-01');
  await userEvent.click(page.getByRole('button', { name: 'Review' }));
  await userEvent.click(page.getByRole('button', { name: 'Accept' }));
  // Round two, in the same dialog.
  await vi.waitFor(() => expect(dialog.shadowRoot!.querySelector('[part="message"]')?.textContent).toBe('A table for 2 on 2026-05-01. Any preferences?'));
  await userEvent.click(page.getByRole('button', { name: 'Review' }));
  await userEvent.click(page.getByRole('button', { name: 'Accept' }));

  // The result arrives: its renderer with it, then the text.
  await vi.waitFor(() => expect(form.result?.content?.[0]).toEqual({ type: 'text', text: 'Booked Casa Lisboa for 2 on 2026-05-01, indoor.' }));
  const result = form.shadowRoot!.querySelector('mcp-tool-result')!;
  await result.updateComplete;
  expect(result.shadowRoot!.querySelector('[part~="text"]')!.textContent).toBe('Booked Casa Lisboa for 2 on 2026-05-01, indoor.');
  expect(requested().filter((path) => RESULT_BODY.test(path)).length).toBeGreaterThan(0);
  await vi.waitFor(() => expect(dialog.open).toBe(false));
});
