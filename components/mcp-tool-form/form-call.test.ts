/**
 * The call `<mcp-tool-form>` waits for (form-call.ts), in real Chromium against
 * the demo server: what a call reports reaches the form only while the form
 * waits for it, and a tool list that changes meanwhile does not make the form
 * forget the call (progress, Cancel, Submit disabled until it ends) or the
 * question before a destructive one.
 */
import { afterEach, describe, expect, inject, test, vi, type MockInstance } from 'vitest';
import { McpClient } from '../../src/index.js';
import '../index.js';
import { click, control, mount, part, root, type } from '../test-support/tool-form.js';

/** Waits for real calls and notifications; generous, for a busy machine. */
const WAIT = { timeout: 15_000, interval: 25 };

const demoUrl = () => inject('demoServerUrl');

afterEach(() => {
  document.body.replaceChildren();
});

describe('progress', () => {
  test('a call the form let go of (it showed another tool meanwhile) does not move the progress bar of a later call', async () => {
    const client = new McpClient(demoUrl());
    try {
      const form = await mount({ toolName: 'long_task', client });
      await vi.waitFor(() => control(form, '/steps'), WAIT);
      // The first call reports 200 steps, one every 100 ms: it still runs while the later one starts.
      await type(form, '/steps', '200');
      await type(form, '/stepMs', '100');
      await click(form, part(root(form), 'submit-button'));
      await vi.waitFor(() => expect(part(root(form), 'progress-message').textContent).toMatch(/^Step \d+ of 200$/), WAIT);
      // Another tool shown: the form lets go of the call (it goes on at the server).
      form.toolName = 'get_weather';
      await vi.waitFor(() => control(form, '/city'), WAIT);
      form.toolName = 'long_task';
      await vi.waitFor(() => control(form, '/steps'), WAIT);
      // Every message the later call's progress line shows, from its start to its own second step (of three: it still runs).
      const shown: string[] = [];
      const record = () => {
        const message = root(form).querySelector('[part~="progress-message"]')?.textContent;
        if (message && message !== shown.at(-1)) shown.push(message);
      };
      const observer = new MutationObserver(record);
      observer.observe(root(form), { subtree: true, childList: true, characterData: true });
      try {
        await type(form, '/steps', '3');
        await type(form, '/stepMs', '1000');
        await click(form, part(root(form), 'submit-button'));
        await vi.waitFor(() => expect(form.phase).toBe('pending'), WAIT);
        await vi.waitFor(() => expect(shown).toContain('Step 2 of 3'), WAIT);
      } finally {
        observer.disconnect();
      }
      expect(shown).toEqual(['Calling the tool…', 'Step 1 of 3', 'Step 2 of 3']);
    } finally {
      // Ends the call the form let go of too (the stream closes, the server stops).
      await client.close();
    }
  });
});

describe('a tool list changed while the form waits (notifications/tools/list_changed)', () => {
  /**
   * A form for `toolName` inside a connection to the demo server that follows
   * list changes, once its fields are there, and a spy on the connection's
   * client's `listTools` (it calls through: the form lists its tool anew with
   * `{ fresh: true }` after a change).
   */
  async function inListeningConnection(toolName: string) {
    const connection = document.createElement('mcp-connection');
    connection.setAttribute('server-url', demoUrl());
    const form = document.createElement('mcp-tool-form');
    form.toolName = toolName;
    form.noDrafts = true;
    connection.append(form);
    document.body.append(connection);
    await vi.waitFor(() => expect(connection.listening).toBe(true), WAIT);
    await vi.waitFor(() => expect(root(form).querySelector('[data-pointer]')).not.toBeNull(), WAIT);
    const client = connection.client!;
    const listings = vi.spyOn(client, 'listTools');
    return { client, form, listings };
  }

  /** Has the server announce a list change (the bonus tool comes or goes) and waits until the form has listed its tool anew. */
  async function changeToolList(client: McpClient, form: HTMLElement & { updateComplete: Promise<boolean> }, listings: MockInstance<McpClient['listTools']>) {
    const before = listings.mock.calls.length;
    await client.callTool('toggle_bonus', {});
    const fresh = () => listings.mock.calls.findIndex(([options], i) => i >= before && options?.fresh === true);
    await vi.waitFor(() => expect(fresh()).toBeGreaterThanOrEqual(0), WAIT);
    await listings.mock.results[fresh()]!.value;
    await form.updateComplete;
  }

  test('the same definition listed again during a call keeps the call shown: progress, Cancel and Submit disabled until it ends', async () => {
    const { client, form, listings } = await inListeningConnection('long_task');
    const message = () => part(root(form), 'progress-message').textContent ?? '';
    await type(form, '/steps', '100');
    await type(form, '/stepMs', '100');
    await click(form, part(root(form), 'submit-button'));
    await vi.waitFor(() => expect(message()).toMatch(/^Step \d+ of 100$/), WAIT);
    const shown = form.effectiveTool;
    try {
      await changeToolList(client, form, listings);
      expect(form.effectiveTool).toBe(shown);
      expect(form.phase).toBe('pending');
      expect(form.matches(':state(pending)')).toBe(true);
      expect(part<HTMLButtonElement>(root(form), 'submit-button').disabled).toBe(true);
      expect(control(form, '/steps').matches(':disabled')).toBe(true);
      // The progress goes on, and Cancel still stops the call.
      const step = Number(/\d+/.exec(message())![0]);
      await vi.waitFor(() => expect(Number(/\d+/.exec(message())![0])).toBeGreaterThan(step), WAIT);
      await click(form, part(root(form), 'cancel-button'));
      await vi.waitFor(() => expect(form.phase).toBe('idle'), WAIT);
      expect(part(root(form), 'status').textContent).toMatch(/Cancelled/);
      expect(part<HTMLButtonElement>(root(form), 'submit-button').disabled).toBe(false);
    } finally {
      await client.callTool('toggle_bonus', {}); // the demo server is shared: put the bonus tool back as it was
    }
  });

  test('the same definition listed again while a destructive call waits for its confirmation keeps the question', async () => {
    const { client, form, listings } = await inListeningConnection('delete_notes');
    const deletes: unknown[] = [];
    client.on('traffic', (event) => {
      const sent = (event as { message?: { method?: string; params?: { name?: string } } }).message;
      if (sent?.method === 'tools/call' && sent.params?.name === 'delete_notes') deletes.push(sent);
    });
    await click(form, part(root(form), 'submit-button'));
    await vi.waitFor(() => expect(form.phase).toBe('confirming'), WAIT);
    try {
      await changeToolList(client, form, listings);
      expect(form.phase).toBe('confirming');
      expect(form.matches(':state(confirming)')).toBe(true);
      expect(part<HTMLButtonElement>(root(form), 'submit-button').disabled).toBe(true);
      // The question is still the one asked: the submit that asked it takes the answer ("Not called.").
      await click(form, part(root(form), 'confirm-cancel'));
      await vi.waitFor(() => expect(root(form).querySelector('[part~="status"]')?.textContent).toBe('Not called.'), WAIT);
      expect(form.phase).toBe('idle');
      expect(deletes).toEqual([]);
    } finally {
      await client.callTool('toggle_bonus', {}); // the demo server is shared: put the bonus tool back as it was
    }
  });
});
