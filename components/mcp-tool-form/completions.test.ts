/**
 * `<mcp-tool-form>` suggestions for a URI field, against the demo MCP server:
 * resource URIs, template starts, and the template variable completed through
 * `completion/complete` (`ref/resource`), chosen by keyboard.
 */
import { afterEach, beforeEach, describe, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { TrafficEvent } from '../../src/index.js';
import '../index.js';
import { axeViolations, cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import type { McpToolForm } from './mcp-tool-form.js';

const url = inject('demoServerUrl');
const WAIT = { timeout: 10_000, interval: 50 };

beforeEach(() => cleanup());
afterEach(() => cleanup());

describe('<mcp-tool-form> completions', () => {
  test('a URI field completes from the server\'s resources and templates, by keyboard', async () => {
    const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen><mcp-tool-form tool-name="show_note" no-drafts></mcp-tool-form></mcp-connection>`);
    await nextEvent(connection, 'mcp-connect');
    const sent: TrafficEvent[] = [];
    connection.client!.on('traffic', (event) => event.direction === 'out' && sent.push(event));
    const form = connection.querySelector<McpToolForm>('mcp-tool-form')!;
    const input = () => form.shadowRoot!.querySelector<HTMLInputElement>('[data-pointer="/uri"] input')!;
    await vi.waitFor(() => expect(input().getAttribute('role')).toBe('combobox'), WAIT);
    const options = () => [...form.shadowRoot!.querySelectorAll('[role="option"]')].map((o) => o.textContent!.trim());
    await userEvent.click(input());
    await userEvent.keyboard('demo://');
    await vi.waitFor(() => expect(options()).toEqual(expect.arrayContaining(['demo://notes/', 'demo://readme', 'demo://notes/welcome'])), WAIT);
    await userEvent.keyboard('notes/w');
    // The last request is for the whole value (on a busy machine a shorter one may go first).
    const completion = () => sent.map((e) => e.message).filter((m) => 'method' in m && m.method === 'completion/complete').at(-1);
    await vi.waitFor(() => expect(completion()).toMatchObject({ params: { ref: { type: 'ref/resource', uri: 'demo://notes/{name}' }, argument: { name: 'name', value: 'w' } } }), WAIT);
    await vi.waitFor(() => expect(options()).toEqual(['demo://notes/welcome']), WAIT);
    expect(await axeViolations(form)).toEqual([]);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(input().value).toBe('demo://notes/welcome');
    expect(form.value).toEqual({ uri: 'demo://notes/welcome' });
    const done = nextEvent<CustomEvent>(form, 'mcp-tool-result');
    await userEvent.keyboard('{Enter}');
    expect((await done).detail.result.content[0].text).toBe('Welcome to the mcp-web-elements demo!');
  });

  test('without the server\'s completions capability a URI field stays a plain input', async () => {
    const form = document.createElement('mcp-tool-form');
    form.tool = { name: 'fetch', inputSchema: { type: 'object', properties: { uri: { type: 'string', format: 'uri' } } } };
    document.body.append(form);
    await form.updateComplete;
    expect(form.shadowRoot!.querySelector('[data-pointer="/uri"] input')!.hasAttribute('role')).toBe(false);
  });

  test('a server with hundreds of templates matching any text is asked about a few of them per value, not one request per template', async () => {
    const hostile = new URL('/templates/mcp', inject('hostileServerUrl')).href;
    const connection = mount<McpConnection>(`<mcp-connection server-url="${hostile}" no-listen><mcp-tool-form tool-name="open_uri" no-drafts></mcp-tool-form></mcp-connection>`);
    await nextEvent(connection, 'mcp-connect');
    const asked: unknown[] = [];
    // Asks for "ab" only: a pause after "a" may have asked about it too.
    connection.client!.on('traffic', (event) => {
      const message = event.message as { method?: string; params?: { argument?: { value?: string } } };
      if (event.direction === 'out' && message.method === 'completion/complete' && message.params?.argument?.value === 'ab') asked.push(message);
    });
    const form = connection.querySelector<McpToolForm>('mcp-tool-form')!;
    const input = () => form.shadowRoot!.querySelector<HTMLInputElement>('[data-pointer="/uri"] input')!;
    await vi.waitFor(() => expect(input().getAttribute('role')).toBe('combobox'), WAIT);
    const options = () => [...form.shadowRoot!.querySelectorAll('[role="option"]')].map((o) => o.textContent!.trim());
    await userEvent.click(input());
    await userEvent.keyboard('ab');
    await vi.waitFor(() => expect(options()).toEqual(['ab-done']), WAIT);
    // 500 templates match "ab": a handful are asked (MAX_TEMPLATES_ASKED), the rest left out.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThanOrEqual(5);
  });
});
