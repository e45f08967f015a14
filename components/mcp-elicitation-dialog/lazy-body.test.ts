/**
 * The dialog's body (dialog-body.ts) loads with import() on the first input
 * request (issue 18). These tests hold that import, or make it fail as it does
 * offline, and check what happens to the requests meanwhile: none hangs, none
 * is lost, none throws where nobody listens. Real Chromium, the real elements
 * and a raw node:http server (test/support/hostile-server.ts).
 *
 * In Vitest's browser mode every import() goes through the runner's
 * `wrapDynamicImport` (see components/test-support/frame.html): the tests wrap it
 * to hold or fail the body's chunk. This file runs in its own page, so the body
 * has not been loaded before.
 */
import { afterEach, expect, inject, test, vi } from 'vitest';
import '../index.js';
import { McpError, type McpClient } from '../../src/index.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import { cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog.js';

const url = inject('hostileServerUrl');

type Load = () => Promise<unknown>;
const runner = (globalThis as unknown as { __vitest_browser_runner__: { wrapDynamicImport: (load: Load) => Promise<unknown> } }).__vitest_browser_runner__;
const passThrough = runner.wrapDynamicImport.bind(runner);

/** What happens to the next import()s of the dialog's body: held until released, or failed. */
let bodyImport: 'pass' | 'hold' | 'fail' = 'pass';
let held: { requested: number; release: () => void; waiting: Promise<void> } = newHold();
function newHold() {
  let release!: () => void;
  const waiting = new Promise<void>((resolve) => (release = resolve));
  return { requested: 0, release, waiting };
}
runner.wrapDynamicImport = (load: Load) => {
  if (!/dialog-body/.test(String(load))) return passThrough(load);
  if (bodyImport === 'fail') return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
  if (bodyImport === 'hold') {
    held.requested++;
    return held.waiting.then(() => passThrough(load));
  }
  return passThrough(load);
};

afterEach(() => {
  held.release();
  bodyImport = 'pass';
  held = newHold();
  cleanup();
});

async function setup() {
  const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen><mcp-elicitation-dialog no-resume></mcp-elicitation-dialog></mcp-connection>`);
  await nextEvent(connection, 'mcp-connect');
  const dialog = connection.querySelector('mcp-elicitation-dialog') as McpElicitationDialog;
  const client = connection.client as McpClient;
  /** A call that asks one question; settles with the result or the error. */
  const ask = () => client.callTool('one_question', {}).then((result) => ({ result }), (error: unknown) => ({ error }));
  return { connection, dialog, client, ask };
}

test('the dialog removed from the page while its body loads: the waiting request fails as aborted, nothing is shown, nothing throws', async () => {
  const { dialog, ask } = await setup();
  bodyImport = 'hold';
  const call = ask();
  await vi.waitFor(() => expect(held.requested).toBe(1));
  dialog.remove();
  held.release();
  const outcome = await call;
  expect('error' in outcome && McpError.isInstance(outcome.error) && outcome.error.code).toBe('aborted');
  await dialog.updateComplete;
  expect(dialog.open).toBe(false);
  expect(dialog.shadowRoot!.querySelector('dialog')!.open).toBe(false);
});

test('the body cannot load (offline): the request fails with a clear error, and the next request loads it again and is asked', async () => {
  const { dialog, ask } = await setup();
  bodyImport = 'fail';
  const outcome = await ask();
  expect('error' in outcome).toBe(true);
  const error = (outcome as { error: unknown }).error;
  expect(McpError.isInstance(error) && error.code).toBe('input_unsupported');
  expect((error as Error).message).toContain('The elicitation dialog cannot be shown: Failed to fetch dynamically imported module');
  // Back online: the next request is shown.
  bodyImport = 'pass';
  void ask();
  await vi.waitFor(() => expect(dialog.open).toBe(true));
  expect(dialog.shadowRoot!.querySelector('[part="message"]')!.textContent).toContain('Tell us about the trip.');
});

test('a burst of requests before the body has loaded is capped like one after: the rest are declined unasked, and the user is told', async () => {
  const { connection, dialog, ask } = await setup();
  let asked = 0;
  connection.addEventListener('mcp-input-required', () => asked++);
  bodyImport = 'hold';
  const calls = Array.from({ length: 20 }, () => ask());
  // 1 shown and 16 waiting, as once the body is there; the other 3 are declined at once.
  const settled: unknown[] = [];
  for (const call of calls) void call.then((outcome) => settled.push('result' in outcome ? ((outcome.result as { content?: { text?: string }[] }).content?.[0])?.text : outcome.error));
  await vi.waitFor(() => expect(dialog.shadowRoot!.querySelector('[part="notice"]')?.textContent).toContain('asked for more than 16 inputs at once'));
  expect(asked).toBe(17);
  await vi.waitFor(() => expect(settled).toHaveLength(3));
  expect(settled).toEqual(Array(3).fill(settled[0]));
  expect(settled[0]).toMatch(/decline/);
  held.release();
  await vi.waitFor(() => expect(dialog.open).toBe(true));
});

test('a request withdrawn while the body loads (its call aborted) fails at once, without waiting for the chunk', async () => {
  const { client } = await setup();
  bodyImport = 'hold';
  const controller = new AbortController();
  const call = client.callTool('one_question', {}, { signal: controller.signal }).then(() => 'completed', (error: unknown) => (McpError.isInstance(error) ? error.code : String(error)));
  await vi.waitFor(() => expect(held.requested).toBe(1));
  controller.abort();
  // The chunk is still held: the call ends anyway.
  expect(await call).toBe('aborted');
});

test('a request withdrawn while the body loads is not shown when the body arrives; the next request is', async () => {
  const { dialog, client, ask } = await setup();
  bodyImport = 'hold';
  const controller = new AbortController();
  const withdrawn = client.callTool('one_question', {}, { signal: controller.signal }).catch((error: unknown) => (McpError.isInstance(error) ? error.code : String(error)));
  await vi.waitFor(() => expect(held.requested).toBe(1));
  controller.abort();
  expect(await withdrawn).toBe('aborted');
  held.release();
  await vi.waitFor(() => expect(dialog.shadowRoot!.querySelector('[part="dialog"]')).not.toBeNull());
  await dialog.updateComplete;
  expect(dialog.open).toBe(false);
  expect(dialog.shadowRoot!.querySelector('dialog')!.open).toBe(false);
  // The next request is asked, once.
  const next = ask();
  await vi.waitFor(() => expect(dialog.open).toBe(true));
  expect(dialog.shadowRoot!.querySelectorAll('[part="message"]')).toHaveLength(1);
  dialog.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="decline"]')!.click();
  const outcome = await next;
  expect('result' in outcome).toBe(true);
  await vi.waitFor(() => expect(dialog.open).toBe(false));
});

test("two connections' dialogs asked while their bodies load: each shows its own server's request, and answering one leaves the other asking", async () => {
  const one = await setup();
  const two = await setup();
  bodyImport = 'hold';
  const first = one.ask();
  const second = two.ask();
  await vi.waitFor(() => expect(held.requested).toBe(2));
  held.release();
  await vi.waitFor(() => expect(one.dialog.open && two.dialog.open).toBe(true));
  one.dialog.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="decline"]')!.click();
  expect('result' in (await first)).toBe(true);
  await vi.waitFor(() => expect(one.dialog.open).toBe(false));
  expect(two.dialog.open).toBe(true);
  expect(two.dialog.shadowRoot!.querySelector('[part="message"]')!.textContent).toContain('Tell us about the trip.');
  two.dialog.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="cancel"]')!.click();
  expect('result' in (await second)).toBe(true);
});

test('the dialog moved in the page while its body loads: the waiting request fails as aborted, and the dialog asks the next one where it now is', async () => {
  const { connection, dialog, ask } = await setup();
  bodyImport = 'hold';
  const call = ask();
  await vi.waitFor(() => expect(held.requested).toBe(1));
  const wrapper = connection.appendChild(document.createElement('div'));
  wrapper.append(dialog);
  const outcome = await call;
  expect('error' in outcome && McpError.isInstance(outcome.error) && outcome.error.code).toBe('aborted');
  held.release();
  const next = ask();
  await vi.waitFor(() => expect(dialog.open).toBe(true));
  expect(dialog.shadowRoot!.querySelector('[part="message"]')!.textContent).toContain('Tell us about the trip.');
  dialog.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="decline"]')!.click();
  expect('result' in (await next)).toBe(true);
});
