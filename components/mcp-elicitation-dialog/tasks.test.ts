/**
 * `<mcp-elicitation-dialog>` answering the input requests of a running task
 * (Tasks extension `input_required`, sent back with `tasks/update`) the same
 * way as multi round-trip ones, inside `<mcp-connection>` with a
 * `<mcp-tool-form>`, in real Chromium against the demo server.
 */
import { afterEach, expect, inject, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { JsonRpcRequest } from '../../src/index.js';
import '../index.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import type { McpToolForm } from '../mcp-tool-form/mcp-tool-form.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog.js';

/** Waits for real events; generous, for a busy machine. */
const WAIT = { timeout: 15_000, interval: 25 };

afterEach(() => document.body.replaceChildren());

test('a task asking for an approval is answered in the dialog, sent with tasks/update, and the form shows the result', async () => {
  const connection = document.createElement('mcp-connection') as McpConnection;
  const sent: JsonRpcRequest[] = [];
  connection.addEventListener('mcp-client-change', (event) => {
    event.detail.client.on('traffic', (traffic) => {
      if (traffic.direction === 'out' && 'method' in traffic.message && 'id' in traffic.message) sent.push(traffic.message as JsonRpcRequest);
    });
  });
  connection.serverUrl = inject('demoServerUrl');
  const form = document.createElement('mcp-tool-form') as McpToolForm;
  form.toolName = 'run_pipeline';
  form.noDrafts = true;
  form.noResume = true;
  const dialog = document.createElement('mcp-elicitation-dialog') as McpElicitationDialog;
  // Calls other tests left unanswered in this browser's storage are not offered here.
  dialog.noResume = true;
  connection.append(form, dialog);
  document.body.append(connection);
  await vi.waitFor(() => expect(form.shadowRoot!.querySelector('[part~="submit-button"]')).not.toBeNull(), WAIT);

  form.arguments = { service: 'search', stepMs: 50 };
  const call = form.submit();
  await vi.waitFor(() => expect(dialog.shadowRoot!.querySelector('dialog[open] [part="message"]')?.textContent).toMatch(/of search passed its tests\. Deploy it to production\?/), WAIT);
  const taskId = form.task!.taskId;
  expect(dialog.shadowRoot!.querySelector('[part="task"]')!.textContent).toMatch(/For a task that is still running \(run_pipeline\)/);
  expect(form.shadowRoot!.querySelector('[part~="task-message"]')!.textContent).toBe('Waiting for approval');

  await userEvent.fill(page.getByLabelText('Release note'), 'ready');
  await userEvent.click(page.getByRole('button', { name: 'Review' }));
  await userEvent.click(page.getByRole('button', { name: 'Accept' }));
  const result = await call;
  expect(result?.structuredContent).toMatchObject({ service: 'search', deployed: true });
  expect(form.shadowRoot!.querySelector('mcp-tool-result')).not.toBeNull();

  const updates = sent.filter((m) => m.method === 'tasks/update');
  expect(updates).toHaveLength(1);
  expect(updates[0]!.params).toMatchObject({ taskId, inputResponses: { [Object.keys(updates[0]!.params!.inputResponses as object)[0]!]: { action: 'accept', content: { approve: true, note: 'ready' } } } });
  // A task's input is not a multi round-trip retry: tools/call went out once.
  expect(sent.filter((m) => m.method === 'tools/call')).toHaveLength(1);
});
