/**
 * The call `<mcp-tool-form>` waits for (form-call.ts), in real Chromium against
 * the demo server: what a call reports reaches the form only while the form
 * waits for it.
 */
import { afterEach, describe, expect, inject, test, vi } from 'vitest';
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
