/**
 * `<mcp-resource-list>` in real Chromium against the demo MCP server: listing,
 * reading (contents through `<mcp-tool-result>`'s renderers), subscribing over
 * `subscriptions/listen` and hearing an update, and template variables
 * completed by the server.
 */
import { afterEach, beforeEach, describe, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { McpClient } from '../../src/index.js';
import '../index.js';
import '../inspector.js';
import { axeViolations, cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import type { McpResourceList } from './mcp-resource-list.js';

const url = inject('demoServerUrl');

/** A busy machine takes seconds where an idle one takes milliseconds. */
const WAIT = { timeout: 10_000, interval: 50 };

beforeEach(() => cleanup());
afterEach(() => cleanup());

async function connected(): Promise<{ connection: McpConnection; list: McpResourceList }> {
  const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen><mcp-resource-list></mcp-resource-list></mcp-connection>`);
  await nextEvent(connection, 'mcp-connect');
  const list = connection.querySelector('mcp-resource-list')!;
  await vi.waitFor(() => expect(list.resources.length).toBeGreaterThan(0), WAIT);
  await list.updateComplete;
  return { connection, list };
}

const row = (list: McpResourceList, uri: string) => list.shadowRoot!.querySelector<HTMLElement>(`[part~="resource"][data-uri="${uri}"]`)!;
const button = (scope: ParentNode, part: string) => scope.querySelector<HTMLButtonElement>(`[part~="${part}"]`)!;

describe('<mcp-resource-list>', () => {
  test('lists resources and templates, and reads one through the tool result renderers', async () => {
    const { connection, list } = await connected();
    expect(list.resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['demo://readme', 'demo://logo.png', 'demo://notes/welcome']));
    expect(list.templates.map((t) => t.uriTemplate)).toContain('demo://notes/{name}');
    const readme = row(list, 'demo://readme');
    expect(readme.querySelector('[part~="name"]')!.textContent).toBe('Read me');
    const read = nextEvent<CustomEvent>(list, 'mcp-resource-read');
    await userEvent.click(button(readme, 'read-button'));
    expect((await read).detail.uri).toBe('demo://readme');
    await list.updateComplete;
    const contents = readme.querySelector('mcp-tool-result')!;
    await vi.waitFor(() => expect(contents.shadowRoot!.querySelector('[part~="resource-text"]')!.textContent).toContain('# Demo server'), WAIT);
    // A binary image resource: shown from checked base64 and offered as a download.
    await userEvent.click(button(row(list, 'demo://logo.png'), 'read-button'));
    await vi.waitFor(() => expect(row(list, 'demo://logo.png').querySelector('mcp-tool-result')?.shadowRoot?.querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/png;base64,/), WAIT);
    expect(await axeViolations(connection)).toEqual([]);
  });

  test('subscribes to a resource: an update is heard, marked and read again; unsubscribing stops it', async () => {
    const { connection, list } = await connected();
    expect(list.canSubscribe).toBe(true);
    const todo = () => row(list, 'demo://notes/todo');
    await userEvent.click(button(todo(), 'read-button'));
    await vi.waitFor(() => expect(todo().querySelector('mcp-tool-result')?.shadowRoot?.textContent).toBeTruthy(), WAIT);
    const subscribe = button(todo(), 'subscribe-button');
    expect(subscribe.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(subscribe);
    expect(list.subscriptions).toEqual(['demo://notes/todo']);
    expect(button(todo(), 'subscribe-button').getAttribute('aria-pressed')).toBe('true');
    expect(list.matches(':state(subscribed)')).toBe(true);
    // Another client changes the note; the server tells this one's stream.
    const other = new McpClient(url, { onWarning: () => {} });
    const text = `Changed at ${Date.now()}`;
    const updated = nextEvent<CustomEvent>(list, 'mcp-resource-updated');
    await vi.waitFor(async () => {
      // The listen stream may still be opening: write until the update arrives.
      await other.callTool('edit_note', { name: 'todo', text });
      expect(list.matches(':state(subscribed)')).toBe(true);
      await Promise.race([updated, new Promise((resolve) => setTimeout(resolve, 500))]);
      expect(todo().querySelector('mcp-tool-result')?.shadowRoot?.textContent).toContain(text);
    }, WAIT);
    expect((await updated).detail.uri).toBe('demo://notes/todo');
    await userEvent.click(button(todo(), 'subscribe-button'));
    expect(list.subscriptions).toEqual([]);
    expect(list.matches(':state(subscribed)')).toBe(false);
    await other.callTool('edit_note', { name: 'todo', text: 'Try the booking tool.' });
    await other.close();
    expect(connection.isConnected).toBe(true);
  });

  test('a template variable completed by the server (keyboard), then read', async () => {
    const { list } = await connected();
    const template = list.shadowRoot!.querySelector<HTMLElement>('[part~="template"][data-uri-template="demo://notes/{name}"]')!;
    const name = template.querySelector<HTMLInputElement>('input[role="combobox"]')!;
    expect(template.querySelector(`label[for="${name.id}"]`)!.textContent).toBe('name');
    await userEvent.click(name);
    await userEvent.keyboard('w');
    await vi.waitFor(() => expect([...template.querySelectorAll('[role="option"]')].map((o) => o.textContent!.trim())).toEqual(['welcome']), WAIT);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(name.value).toBe('welcome');
    await list.updateComplete;
    expect(template.querySelector('[part~="expanded-uri"]')!.textContent).toBe('demo://notes/welcome');
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(template.querySelector('mcp-tool-result')?.shadowRoot?.textContent).toContain('Welcome to the mcp-web-elements demo!'), WAIT);
  });

  test('the filter narrows the list; a failed read is shown', async () => {
    const { list } = await connected();
    const filter = list.shadowRoot!.querySelector<HTMLInputElement>('[part~="filter"]')!;
    await userEvent.click(filter);
    await userEvent.keyboard('logo');
    await list.updateComplete;
    expect([...list.shadowRoot!.querySelectorAll<HTMLElement>('[part~="resource"]')].map((r) => r.dataset.uri)).toEqual(['demo://logo.png']);
    expect(list.shadowRoot!.querySelector('[part~="count"]')!.textContent).toMatch(/1 of \d+ resources match/);
    const failed = nextEvent<CustomEvent>(list, 'mcp-error');
    expect(await list.read('demo://nothing-here')).toBeUndefined();
    expect((await failed).detail.during).toBe('resources/read');
  });

  test('a resource whose name, title, description, URI and MIME type are each a megabyte: shown cut, found by the filter, its full URI kept', async () => {
    // The raw hostile server (test/support/hostile-server.ts): what no SDK server would send.
    const client = new McpClient(new URL('/templates/mcp', inject('hostileServerUrl')).href, { onWarning: () => {} });
    const list = document.createElement('mcp-resource-list');
    list.client = client;
    document.body.append(list);
    await vi.waitFor(() => expect(list.resources).toHaveLength(1), WAIT);
    await list.updateComplete;
    const big = list.resources[0]!;
    expect(big.name.length).toBeGreaterThan(1_000_000);
    const shown = list.shadowRoot!.querySelector<HTMLElement>('[part~="resource"]')!;
    expect(shown.dataset.uri).toBe(big.uri);
    const name = shown.querySelector('[part~="name"]')!.textContent!;
    expect(name.startsWith('Big ttt')).toBe(true);
    expect(name.length).toBeLessThanOrEqual(201);
    expect(shown.querySelector('[part~="uri"]')!.textContent!.length).toBeLessThanOrEqual(20_001);
    expect(button(shown, 'read-button').getAttribute('aria-label')!.length).toBeLessThan(300);
    const metas = [...shown.querySelectorAll('[part~="meta"]')].map((m) => m.textContent!.length);
    expect(metas).toHaveLength(2);
    for (const length of metas) expect(length).toBeLessThanOrEqual(2_001);
    // The row holds none of the megabytes (the 500 templates below it are the server's other test).
    expect(shown.textContent!.length).toBeLessThan(25_000);
    // The filter still searches the whole text (a word past the cut), and matches no other field's end.
    const filter = list.shadowRoot!.querySelector<HTMLInputElement>('[part~="filter"]')!;
    await userEvent.fill(filter, 'ddd');
    await list.updateComplete;
    expect(list.shadowRoot!.querySelectorAll('[part~="resource"]')).toHaveLength(1);
    await userEvent.fill(filter, 'nt');
    await list.updateComplete;
    expect(list.shadowRoot!.querySelectorAll('[part~="resource"]')).toHaveLength(0);
    await client.close();
  });

  test('a read that ends after the list moved to another client is not shown under the new one', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    // The first client's read answers only when the test says so.
    const first = new McpClient(url, {
      onWarning: () => {},
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (typeof init?.body === 'string' && init.body.includes('"resources/read"')) {
          held = true;
          await gate;
        }
        return response;
      },
    });
    const second = new McpClient(url, { onWarning: () => {} });
    const list = document.createElement('mcp-resource-list');
    list.client = first;
    document.body.append(list);
    await vi.waitFor(() => expect(list.resources.length).toBeGreaterThan(0), WAIT);
    const reading = list.read('demo://readme');
    await vi.waitFor(() => expect(held).toBe(true), WAIT);
    list.client = second;
    await list.updateComplete;
    await vi.waitFor(() => expect(row(list, 'demo://readme')).not.toBeNull(), WAIT);
    release();
    const outcome = await reading;
    await list.updateComplete;
    expect(row(list, 'demo://readme').querySelector('mcp-tool-result')).toBeNull();
    expect(row(list, 'demo://readme').querySelector('[part~="status"]')).toBeNull();
    expect(outcome).toBeUndefined();
    await first.close();
    await second.close();
  });
});
