/**
 * Issue 19, item 6: a server that asks for input a thousand times in one round.
 * Real Chromium, a raw node:http server (test/support/hostile-server.ts)
 * and the real elements: connection, tool form and dialog.
 */
import { afterEach, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../index.js';
import type { McpClient } from '../../src/index.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import type { McpToolForm } from '../mcp-tool-form/mcp-tool-form.js';
import { cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog.js';

const url = inject('hostileServerUrl');

afterEach(() => cleanup());

async function setup(toolName: string) {
  const connection = mount<McpConnection>(
    `<mcp-connection server-url="${url}" no-listen><mcp-tool-form tool-name="${toolName}" no-drafts></mcp-tool-form><mcp-elicitation-dialog no-resume></mcp-elicitation-dialog></mcp-connection>`,
  );
  await nextEvent(connection, 'mcp-connect');
  const form = connection.querySelector('mcp-tool-form') as McpToolForm;
  const dialog = connection.querySelector('mcp-elicitation-dialog') as McpElicitationDialog;
  await vi.waitFor(() => expect(form.shadowRoot!.querySelector('[part~="submit-button"]')).not.toBeNull(), { timeout: 10_000 });
  let asked = 0;
  connection.addEventListener('mcp-input-required', () => asked++);
  const resultText = () => form.result?.content?.map((block) => (block as { text?: string }).text).join('');
  const dialogElement = () => dialog.shadowRoot!.querySelector('dialog')!;
  const button = (action: string) => dialog.shadowRoot!.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
  const call = () => userEvent.click(form.shadowRoot!.querySelector<HTMLButtonElement>('[part~="submit-button"]')!);
  return { connection, form, dialog, asked: () => asked, resultText, dialogElement, button, call };
}

test('1,000 input requests in one round: the dialog never opens, the round is declined to the server, the user is told, the form stays usable', async () => {
  const { form, dialog, asked, resultText, dialogElement, call } = await setup('flood');
  await call();
  // The server received the round back, every request declined.
  await vi.waitFor(() => expect(resultText()).toBe('1000 answers: decline ×1000'), { timeout: 15_000 });
  expect(asked()).toBe(0);
  expect(dialogElement().open).toBe(false);
  expect(dialogElement().matches(':modal')).toBe(false);
  const notice = dialog.shadowRoot!.querySelector('[part="notice"]')!;
  expect(notice.getAttribute('role')).toBe('alert');
  expect(notice.textContent).toContain('asked for 1,000 inputs at once (tools/call flood)');
  expect(notice.textContent).toContain('all were declined');
  // Nothing modal is left: the form can be used at once, and the notice dismissed.
  expect(form.phase).toBe('idle');
  await userEvent.click(dialog.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="dismiss-notice"]')!);
  expect(dialog.shadowRoot!.querySelector('[part="notice"]')).toBeNull();
});

test('a flood under a tool name of 10,000 characters: the notice names the tool cut to 200 characters', async () => {
  const { connection, dialog } = await setup('flood');
  const name = `flood_${'n'.repeat(10_000)}`;
  const result = await (connection.client as McpClient).callTool(name, {});
  expect(result.content).toEqual([{ type: 'text', text: '1000 answers: decline ×1000' }]);
  const notice = dialog.shadowRoot!.querySelector('[part="notice"]')!;
  expect(notice.textContent).toContain(`(tools/call ${name.slice(0, 200)}…)`);
  expect(notice.textContent!.length).toBeLessThan(600);
});

test('a running task asking for 1,000 inputs at once: declined without asking, sent with tasks/update, the user is told', async () => {
  const { form, dialog, asked, resultText, dialogElement, call } = await setup('task_flood');
  await call();
  // The task received the answers through tasks/update, every request declined, and completed with them.
  await vi.waitFor(() => expect(resultText()).toBe('1000 answers: decline ×1000'), { timeout: 15_000 });
  expect(asked()).toBe(0);
  expect(dialogElement().open).toBe(false);
  const notice = dialog.shadowRoot!.querySelector('[part="notice"]')!;
  expect(notice.textContent).toContain('asked for 1,000 inputs at once for a running task (tools/call task_flood)');
  expect(notice.textContent).toContain('all were declined');
  expect(form.phase).toBe('idle');
});

test('five requests in a round: "Decline all 5" answers every one of them at once', async () => {
  const { asked, resultText, dialogElement, button, call } = await setup('five_questions');
  await call();
  await vi.waitFor(() => expect(dialogElement().open).toBe(true));
  expect(dialogElement().querySelector('[part="progress"]')!.textContent).toContain('request 1 of 5');
  expect(button('decline-rest')!.textContent!.trim()).toBe('Decline all 5');
  await userEvent.click(button('decline-rest')!);
  await vi.waitFor(() => expect(resultText()).toBe('5 answers: decline ×5'), { timeout: 10_000 });
  expect(asked()).toBe(1);
  expect(dialogElement().open).toBe(false);
});

test('Escape on the second of five requests cancels it and the rest of the round; what was answered stays', async () => {
  const { resultText, dialogElement, button, call } = await setup('five_questions');
  await call();
  await vi.waitFor(() => expect(dialogElement().open).toBe(true));
  await userEvent.click(button('decline')!);
  await vi.waitFor(() => expect(dialogElement().querySelector('[part="progress"]')!.textContent).toContain('request 2 of 5'));
  expect(button('decline-rest')!.textContent!.trim()).toBe('Decline all 4');
  await userEvent.keyboard('{Escape}');
  await vi.waitFor(() => expect(resultText()).toBe('5 answers: decline ×1, cancel ×4'), { timeout: 10_000 });
  expect(dialogElement().open).toBe(false);
});

test('"Stop the call" ends the call from inside the modal: nothing more is sent, the form says it was cancelled and can call again', async () => {
  const { form, resultText, dialogElement, button, call } = await setup('five_questions');
  await call();
  await vi.waitFor(() => expect(dialogElement().open).toBe(true));
  expect(form.phase).toBe('pending');
  await userEvent.click(button('stop')!);
  await vi.waitFor(() => expect(form.phase).toBe('idle'));
  expect(dialogElement().open).toBe(false);
  expect(resultText()).toBeUndefined();
  expect(form.shadowRoot!.querySelector('[part~="status"]')!.textContent).toMatch(/^Cancelled/);
  expect(form.shadowRoot!.querySelector('[part~="call-error"]')).toBeNull();
  // The form's own controls are reachable again (no modal left).
  expect(dialogElement().matches(':modal')).toBe(false);
  expect(form.shadowRoot!.querySelector<HTMLButtonElement>('[part~="submit-button"]')!.disabled).toBe(false);
});
