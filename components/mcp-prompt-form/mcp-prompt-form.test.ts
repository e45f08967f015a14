/**
 * `<mcp-prompt-form>` in real Chromium against the demo MCP server: the
 * arguments form, completions from `completion/complete` chosen with the
 * keyboard (the ARIA combobox pattern), `prompts/get`, and messages rendered
 * through `<mcp-tool-result>`.
 */
import { afterEach, beforeEach, describe, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { McpClient, type TrafficEvent } from '../../src/index.js';
import '../index.js';
import '../inspector.js';
import { axeViolations, cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import type { McpPromptForm } from './mcp-prompt-form.js';

const url = inject('demoServerUrl');

/** A busy machine takes seconds where an idle one takes milliseconds. */
const WAIT = { timeout: 10_000, interval: 50 };

beforeEach(() => cleanup());
afterEach(() => cleanup());

async function connected(markup: string): Promise<{ connection: McpConnection; form: McpPromptForm }> {
  const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen>${markup}</mcp-connection>`);
  await nextEvent(connection, 'mcp-connect');
  const form = connection.querySelector('mcp-prompt-form')!;
  await vi.waitFor(() => expect(form.shadowRoot!.querySelector('#arg-language, [part~="picker"] option[value="review_code"]')).not.toBeNull(), WAIT);
  return { connection, form };
}

const input = (form: McpPromptForm, name: string) => form.shadowRoot!.querySelector<HTMLInputElement>(`#arg-${name}`)!;
const options = (form: McpPromptForm, name: string) => [...form.shadowRoot!.querySelectorAll<HTMLElement>(`#arg-${name}-listbox [role="option"]`)];

describe('<mcp-prompt-form>', () => {
  test('a completion chosen by keyboard, then the prompt got and its messages shown', async () => {
    const { connection, form } = await connected('<mcp-prompt-form prompt-name="review_code"></mcp-prompt-form>');
    const sent: TrafficEvent[] = [];
    connection.client!.on('traffic', (event) => event.direction === 'out' && sent.push(event));
    const language = input(form, 'language');
    // The combobox pattern: a combobox that controls a (closed) listbox.
    expect(language.getAttribute('role')).toBe('combobox');
    expect(language.getAttribute('aria-autocomplete')).toBe('list');
    expect(language.getAttribute('aria-expanded')).toBe('false');
    expect(form.shadowRoot!.getElementById(language.getAttribute('aria-controls')!)?.getAttribute('role')).toBe('listbox');

    await userEvent.click(language);
    await userEvent.keyboard('ja');
    // The request for the whole value, with the prompt as the reference. On a busy machine the
    // pause after "j" can outlast the debounce: then "j" was asked first (its answer is the same
    // two), and "ja" follows; the last request is for the whole value either way.
    const asked = () => sent.filter((e) => 'method' in e.message && e.message.method === 'completion/complete').map((e) => e.message);
    await vi.waitFor(() => expect(asked().at(-1)).toMatchObject({ params: { ref: { type: 'ref/prompt', name: 'review_code' }, argument: { name: 'language', value: 'ja' } } }), WAIT);
    expect(asked().map((message) => (message as unknown as { params: { argument: { value: string } } }).params.argument.value).every((value) => 'ja'.startsWith(value))).toBe(true);
    await vi.waitFor(() => expect(options(form, 'language').map((o) => o.textContent!.trim())).toEqual(['java', 'javascript']), WAIT);
    expect(language.getAttribute('aria-expanded')).toBe('true');

    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    const active = language.getAttribute('aria-activedescendant')!;
    expect(form.shadowRoot!.getElementById(active)?.textContent?.trim()).toBe('javascript');
    expect(form.shadowRoot!.getElementById(active)?.getAttribute('aria-selected')).toBe('true');
    // Enter takes the suggestion; it does not submit the form.
    await userEvent.keyboard('{Enter}');
    expect(language.value).toBe('javascript');
    expect(language.getAttribute('aria-expanded')).toBe('false');
    expect(form.result).toBeUndefined();

    await userEvent.keyboard('{Tab}');
    await userEvent.keyboard('console.log(1)');
    const got = nextEvent<CustomEvent>(form, 'mcp-prompt-result');
    await userEvent.keyboard('{Enter}');
    const { detail } = await got;
    expect(detail.arguments).toEqual({ language: 'javascript', code: 'console.log(1)' });
    const messages = form.shadowRoot!.querySelectorAll('[part~="message"]');
    expect(messages).toHaveLength(1);
    expect(messages[0]!.querySelector('[part~="role"]')!.textContent).toBe('user');
    await vi.waitFor(() => expect(messages[0]!.querySelector('mcp-tool-result')!.shadowRoot!.textContent).toContain('Please review this javascript code:'), WAIT);
    expect(form.matches(':state(done)')).toBe(true);
    expect(await axeViolations(connection)).toEqual([]);
  });

  test('Escape closes the suggestions and keeps the text; the context carries the other arguments', async () => {
    const { connection, form } = await connected('<mcp-prompt-form prompt-name="review_code"></mcp-prompt-form>');
    const sent: TrafficEvent[] = [];
    connection.client!.on('traffic', (event) => event.direction === 'out' && sent.push(event));
    await userEvent.click(input(form, 'code'));
    await userEvent.keyboard('x = 1');
    const language = input(form, 'language');
    await userEvent.click(language);
    await userEvent.keyboard('{ArrowDown}');
    await vi.waitFor(() => expect(options(form, 'language').length).toBeGreaterThan(5), WAIT);
    expect(language.getAttribute('aria-activedescendant')).toBe('arg-language-option-0');
    expect(sent.map((e) => e.message).filter((m) => 'method' in m && m.method === 'completion/complete').at(-1)).toMatchObject({ params: { argument: { name: 'language', value: '' }, context: { arguments: { code: 'x = 1' } } } });
    await userEvent.keyboard('{Escape}');
    expect(language.getAttribute('aria-expanded')).toBe('false');
    expect(language.value).toBe('');
    expect(form.isConnected).toBe(true);
  });

  test('a required argument left empty is not sent; a picker lists the prompts without prompt-name', async () => {
    const { form } = await connected('<mcp-prompt-form></mcp-prompt-form>');
    const picker = form.shadowRoot!.querySelector<HTMLSelectElement>('[part~="picker"]')!;
    expect([...picker.options].map((o) => o.value)).toContain('review_code');
    picker.value = 'review_code';
    picker.dispatchEvent(new Event('change'));
    await form.updateComplete;
    expect(input(form, 'language').required).toBe(true);
    expect(await form.submit()).toBeUndefined();
    expect(form.result).toBeUndefined();
    expect(input(form, 'language').matches(':invalid')).toBe(true);
  });

  test('completions from a hostile server: 100 values of 50,000 characters are listed cut to 200, and the one chosen is taken whole', async () => {
    // The raw hostile server's completions path (test/support/hostile-server.ts).
    const client = new McpClient(new URL('/completions/mcp', inject('hostileServerUrl')).href, { onWarning: () => {} });
    await client.connect();
    const form = document.createElement('mcp-prompt-form');
    form.client = client;
    form.prompt = { name: 'pick', arguments: [{ name: 'word' }] };
    document.body.append(form);
    await form.updateComplete;
    await userEvent.click(input(form, 'word'));
    await userEvent.keyboard('a');
    await vi.waitFor(() => expect(options(form, 'word')).toHaveLength(100), WAIT);
    const longest = Math.max(...options(form, 'word').map((o) => o.textContent!.trim().length));
    expect(longest).toBe(201);
    const status = form.shadowRoot!.querySelector('[role="status"]')!.textContent!;
    expect(status).toContain('1,000,000,000 in all');
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(input(form, 'word').value).toBe(`0 ${'w'.repeat(50_000)}`);
    await client.close();
  });

  test('texts of megabytes from a hostile server (descriptions, the result description, a role) are shown cut', async () => {
    const client = new McpClient(new URL('/completions/mcp', inject('hostileServerUrl')).href, { onWarning: () => {} });
    await client.connect();
    const form = document.createElement('mcp-prompt-form');
    form.client = client;
    form.noCompletions = true;
    form.prompt = { name: 'pick', description: 'p'.repeat(1024 * 1024), arguments: [{ name: 'word', description: 'h'.repeat(1024 * 1024) }] };
    document.body.append(form);
    await form.updateComplete;
    const text = (part: string) => form.shadowRoot!.querySelector(`[part~="${part}"]`)!.textContent!.trim();
    expect(text('description').length).toBe(2001);
    expect(text('hint').length).toBe(2001);
    const got = nextEvent<CustomEvent>(form, 'mcp-prompt-result');
    await form.submit();
    await got;
    await vi.waitFor(() => expect(form.shadowRoot!.querySelector('[part~="role"]')).not.toBeNull(), WAIT);
    expect(text('result-description').length).toBe(2001);
    expect(text('role').length).toBe(201);
    await client.close();
  });

  test('standalone with .client: a server error is shown and the values are kept', async () => {
    const client = new McpClient(url, { onWarning: () => {} });
    const form = document.createElement('mcp-prompt-form');
    form.client = client;
    form.prompt = { name: 'no_such_prompt', arguments: [{ name: 'topic', required: true }] };
    document.body.append(form);
    await form.updateComplete;
    await userEvent.click(input(form, 'topic'));
    await userEvent.keyboard('tea');
    const failed = nextEvent<CustomEvent>(form, 'mcp-error');
    await form.submit();
    await failed;
    await form.updateComplete;
    expect(form.shadowRoot!.querySelector('[part~="error"]')!.textContent).toMatch(/no_such_prompt/);
    expect(input(form, 'topic').value).toBe('tea');
    expect(form.values).toEqual({ topic: 'tea' });
    await client.close();
  });

  test('a prompts/get still running when the form moves to another prompt is dropped: its messages are not shown under the other one', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    const client = new McpClient(url, {
      onWarning: () => {},
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (typeof init?.body === 'string' && init.body.includes('"prompts/get"')) {
          held = true;
          await gate;
        }
        return response;
      },
    });
    const form = document.createElement('mcp-prompt-form');
    form.client = client;
    form.prompt = { name: 'review_code', arguments: [{ name: 'language', required: true }, { name: 'code', required: true }] };
    form.values = { language: 'python', code: 'print(1)' };
    document.body.append(form);
    await form.updateComplete;
    const got = form.submit();
    await vi.waitFor(() => expect(held).toBe(true), WAIT);
    form.prompt = { name: 'summarize', arguments: [{ name: 'text' }] };
    await form.updateComplete;
    expect(form.matches(':state(pending)')).toBe(false);
    release();
    await got;
    await form.updateComplete;
    expect(form.shadowRoot!.querySelector('[part~="messages"]')).toBeNull();
    expect(form.shadowRoot!.querySelector('[part~="error"]')).toBeNull();
    await client.close();
  });
});
