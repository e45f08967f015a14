/**
 * `<mcp-elicitation-dialog>` in real Chromium against the demo MCP server
 * (official SDK, 2026-07-28): every input kind, decline/cancel on the wire,
 * keyboard-only paths, capability declaration, host override, policies,
 * resume after a reload, and axe.
 */
import { afterEach, beforeEach, describe, expect, inject, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { openAiSampling } from '../../src/adapters/openai.js';
import { McpClient, type ElicitResult, type JsonRpcRequest, type ToolCallResult } from '../../src/index.js';
import '../index.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import { axeViolations, cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog.js';
import { clearAllPending, holdPending, loadAllPending, loadPending, savePending } from './pending.js';

const url = inject('demoServerUrl');
// Waits on IndexedDB and on the dialog body's first load: at load average 16 one took over 10 s,
// so waits get 30 s and each test 60 s (the file's asserted values do not depend on time).
vi.setConfig({ testTimeout: 60_000 });

let connection: McpConnection;
let dialog: McpElicitationDialog;
let client: McpClient;
let sent: JsonRpcRequest[];

async function setup(dialogAttributes = '', roots = true) {
  connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen><mcp-elicitation-dialog ${dialogAttributes}></mcp-elicitation-dialog></mcp-connection>`);
  if (roots) connection.roots = [{ uri: 'file:///home/ada/project', name: 'project' }];
  dialog = connection.querySelector('mcp-elicitation-dialog')!;
  await nextEvent(connection, 'mcp-connect');
  client = connection.client!;
  sent = [];
  client.on('traffic', (event) => {
    if (event.direction === 'out' && 'id' in event.message && 'method' in event.message) sent.push(event.message as JsonRpcRequest);
  });
}

const textOf = (result: unknown) => ((result as ToolCallResult).content?.[0] as { text: string }).text;
const calls = (tool: string) => sent.filter((m) => m.method === 'tools/call' && m.params?.name === tool);
const retryResponses = (tool: string) => calls(tool).map((m) => m.params?.inputResponses).filter(Boolean);
const dialogOpen = () => dialog.shadowRoot!.querySelector('dialog')!.open;
const shadow = (selector: string) => dialog.shadowRoot!.querySelector<HTMLElement>(selector);

beforeEach(async () => {
  cleanup();
  await clearAllPending(url);
});
afterEach(() => cleanup());

describe('capabilities follow the dialog', () => {
  test('declared while the dialog is in the page, dropped when it is removed', async () => {
    await setup();
    await client.callTool('get_weather', { city: 'Lisbon' });
    expect(calls('get_weather').at(-1)!.params!._meta).toMatchObject({
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
    });
    dialog.remove();
    await client.callTool('get_weather', { city: 'Porto' });
    // What stays is the connection's own: the Tasks extension.
    expect((calls('get_weather').at(-1)!.params!._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities']).toEqual({ extensions: { 'io.modelcontextprotocol/tasks': {} } });
  });

  test('no roots configured: roots is not declared; no-url and no-sampling drop theirs', async () => {
    await setup('no-url no-sampling', false);
    await client.callTool('get_weather', { city: 'Faro' });
    expect((calls('get_weather').at(-1)!.params!._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } });
  });
});

describe('form mode', () => {
  test('every field kind and enum shape, answered with the keyboard only, then reviewed and accepted', async () => {
    await setup();
    const call = client.callTool('survey', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    expect(shadow('[part="message"]')!.textContent).toBe('A short survey about your setup.');
    expect(shadow('[part="server"]')!.textContent).toContain(new URL(url).host);
    // Defaults are pre-filled as they will be sent.
    expect((page.getByRole('textbox', { name: 'Name' }).element() as HTMLInputElement).value).toBe('Ada');
    expect((page.getByRole('spinbutton', { name: 'Rating' }).element() as HTMLInputElement).value).toBe('4.5');

    // Keyboard only: focus starts in the first field.
    await vi.waitFor(() => expect(dialog.shadowRoot!.activeElement?.getAttribute('id')).toBe('f0'));
    await userEvent.keyboard('{Tab}ana@example.org');
    await userEvent.keyboard('{Tab}https://ana.example.org');
    // Date inputs take segment-wise typing that depends on the locale: fill them.
    await userEvent.fill(page.getByLabelText('Using MCP since'), '2024-03-05');
    (page.getByRole('spinbutton', { name: 'Seats' }).element() as HTMLElement).focus();
    await userEvent.keyboard('7');
    await userEvent.keyboard('{Tab} '); // newsletter: toggle on
    // Editor: Tab lands on the checked radio ("No answer"); arrows wrap to vim, then emacs.
    await userEvent.keyboard('{Tab}{ArrowDown}{ArrowDown}');
    await userEvent.click(page.getByRole('radio', { name: 'macOS' }));
    await userEvent.click(page.getByRole('radio', { name: 'Professional' }));
    await userEvent.click(page.getByRole('checkbox', { name: 'ts', exact: true }));
    await userEvent.click(page.getByRole('checkbox', { name: 'go', exact: true }));
    await userEvent.click(page.getByRole('checkbox', { name: 'User interface' }));

    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    const review = shadow('[part="review"]')!;
    expect(review.textContent).toContain('Professional');
    expect(review.textContent).toContain('ts, go');
    await userEvent.keyboard('{Enter}'); // Accept has the focus
    const result = await call;
    expect(textOf(result)).toMatch(/^survey answers: /);
    expect((result as ToolCallResult).structuredContent).toEqual({
      name: 'Ada',
      email: 'ana@example.org',
      homepage: 'https://ana.example.org',
      since: '2024-03-05',
      rating: 4.5,
      seats: 7,
      newsletter: true,
      editor: 'emacs',
      os: 'mac',
      plan: 'p-pro',
      languages: ['ts', 'go'],
      topics: ['t-ui'],
    });
    // Sent as typed JSON values, and only the fields that have a value.
    const content = (retryResponses('survey')[0] as any).survey.content;
    expect(typeof content.rating).toBe('number');
    expect(Number.isInteger(content.seats)).toBe(true);
    expect('callback' in content).toBe(false);
    await vi.waitFor(() => expect(dialogOpen()).toBe(false));
  });

  test('invalid input is flagged inline, focused, and nothing is sent', async () => {
    await setup();
    const call = client.callTool('survey', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await userEvent.fill(page.getByRole('textbox', { name: 'Email' }), 'not-an-email');
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    const email = page.getByRole('textbox', { name: 'Email' }).element() as HTMLInputElement;
    await vi.waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    const described = email.getAttribute('aria-describedby')!;
    expect(dialog.shadowRoot!.getElementById(described.split(' ').at(-1)!)!.textContent).toMatch(/email/);
    // Required fields without a value are named too; the user's typing is kept.
    expect(shadow('[data-field="os"] [part="field-error"]')!.textContent).toBe('This field is required.');
    expect(email.value).toBe('not-an-email');
    expect(calls('survey')).toHaveLength(1);
    await userEvent.click(page.getByRole('button', { name: 'Cancel' }));
    await call;
  });

  test('decline is sent on the wire and the tool reports it', async () => {
    await setup();
    const call = client.callTool('book_table', { restaurant: 'Tasca' });
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await userEvent.click(page.getByRole('button', { name: 'Decline' }));
    expect(textOf(await call)).toBe('Booking declined.');
    expect(retryResponses('book_table')).toEqual([{ when: { action: 'decline' } }]);
  });

  test('Escape cancels, on the wire, and focus returns to where it was', async () => {
    await setup();
    const trigger = mount<HTMLButtonElement>('<button>Book</button>');
    trigger.focus();
    const call = client.callTool('book_table', { restaurant: 'Tasca' });
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await userEvent.keyboard('{Escape}');
    expect(textOf(await call)).toBe('Booking cancelled.');
    expect(retryResponses('book_table')).toEqual([{ when: { action: 'cancel' } }]);
    await vi.waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  test('a two-round call with requestState continues in the same dialog, with a timeline', async () => {
    await setup();
    const call = client.callTool('book_table', { restaurant: 'Casa Azul' });
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await userEvent.fill(page.getByLabelText('Date'), '2026-12-24');
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    // Round two: the same dialog, now saying round 2 and showing the history.
    await vi.waitFor(() => expect(shadow('[part="progress"]')?.textContent).toContain('Round 2'));
    expect(shadow('[part="timeline"]')!.textContent).toContain('Round 1: answered when: accept');
    await userEvent.click(page.getByRole('radio', { name: 'Terrace' }));
    await userEvent.click(page.getByRole('checkbox', { name: 'vegan' }));
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    expect(textOf(await call)).toBe('Booked Casa Azul for 2 on 2026-12-24, terrace, vegan.');
    const [first, second, third] = calls('book_table');
    expect(second!.params!.inputResponses).toEqual({ when: { action: 'accept', content: { date: '2026-12-24', guests: 2 } } });
    expect(third!.params!.requestState).toBe(JSON.stringify({ date: '2026-12-24', guests: 2 }));
    expect(new Set([first!.id, second!.id, third!.id]).size).toBe(3);
  });
});

describe('form mode: what is sent is what the user saw', () => {
  test('a required yes/no left unchecked is answered false, as the tool form sends it', async () => {
    await setup();
    const call = client.callTool('order_prints', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true), { timeout: 30_000 });
    await userEvent.fill(page.getByRole('spinbutton', { name: 'Copies', exact: true }), '3');
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    // No "required" on the unchecked box: unchecked is an answer.
    await vi.waitFor(() => expect(shadow('[part="review"]')).not.toBeNull(), { timeout: 30_000 });
    expect(shadow('[data-field="terms"] [part="field-error"]')).toBeNull();
    expect(shadow('[part="review"]')!.textContent).toContain('Accept the print termsNo');
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    const result = (await call) as ToolCallResult;
    // The optional yes/no nobody touched is not answered; the required one is false.
    expect(result.structuredContent).toEqual({ copies: 3, terms: false });
  });

  test('number text that is not a whole number asks for a whole number, not "required", and is never dropped silently', async () => {
    await setup();
    const call = client.callTool('order_prints', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true), { timeout: 30_000 });
    const copies = page.getByRole('spinbutton', { name: 'Copies', exact: true });
    const spares = page.getByRole('spinbutton', { name: 'Spare copies' });
    await userEvent.fill(copies, '2');
    await userEvent.fill(copies, '2.5');
    await userEvent.fill(spares, '1.5');
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await vi.waitFor(() => expect(shadow('[data-field="copies"] [part="field-error"]')?.textContent).toBe('Enter a whole number.'), { timeout: 30_000 });
    // The optional field is not left out quietly: the user typed something that cannot be sent.
    expect(shadow('[data-field="spares"] [part="field-error"]')!.textContent).toBe('Enter a whole number.');
    expect(shadow('[part="review"]')).toBeNull();
    // What was typed stays in the fields.
    expect((copies.element() as HTMLInputElement).value).toBe('2.5');
    expect((spares.element() as HTMLInputElement).value).toBe('1.5');
    expect(calls('order_prints')).toHaveLength(1);
    await userEvent.fill(copies, '2');
    await userEvent.clear(spares);
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    expect(((await call) as ToolCallResult).structuredContent).toEqual({ copies: 2, terms: false });
  });
});

/**
 * A client whose server is scripted in the page: the first tools/call asks for the
 * given input, the retry echoes the inputResponses back. For request shapes the SDK
 * server refuses to send (hostile keys, other dialects, odd sampling params).
 */
function scriptedClient(inputRequests: Record<string, unknown> | null, endpoint = 'https://scripted.example/mcp'): { client: McpClient; answers: () => unknown[] } {
  const answers: unknown[] = [];
  const fetch = async (_input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body));
    let result: unknown;
    if (body.method === 'server/discover') result = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '1' } } };
    else if (body.method === 'tools/list') result = { tools: [{ name: 'ask', inputSchema: { type: 'object' } }] };
    else if (!body.params.inputResponses && inputRequests) result = { resultType: 'input_required', inputRequests };
    else {
      answers.push(body.params.inputResponses);
      result = { content: [{ type: 'text', text: 'thanks' }] };
    }
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }), { headers: { 'Content-Type': 'application/json' } });
  };
  return { client: new McpClient(endpoint, { protocol: 'modern', fetch, onWarning: () => {} }), answers: () => answers };
}

async function mountWithClient(scripted: McpClient): Promise<void> {
  dialog = mount<McpElicitationDialog>('<mcp-elicitation-dialog no-resume></mcp-elicitation-dialog>');
  dialog.client = scripted;
  await dialog.updateComplete;
}

const formRequest = (requestedSchema: Record<string, unknown>) => ({ method: 'elicitation/create', params: { message: 'Details, please', requestedSchema } });

describe('form mode: schemas the SDK server would not send', () => {
  test.each([
    ['a few options (boxes)', 3],
    ['over a hundred options (a searched list)', 150],
  ])('multiple choice with %s: boxes ticked before the next render all count', async (_name, count) => {
    const values = Array.from({ length: count }, (_, i) => `o${i}`);
    const { client: scripted, answers } = scriptedClient({ q: formRequest({ type: 'object', properties: { picks: { type: 'array', items: { type: 'string', enum: values } } } }) });
    await mountWithClient(scripted);
    const call = scripted.callTool('ask', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    // A searched list shows the chosen boxes first: find a box by its label.
    const box = (value: string) => [...dialog.shadowRoot!.querySelectorAll<HTMLInputElement>('[data-field="picks"] input[type="checkbox"]')].find((input) => input.parentElement!.textContent!.trim() === value)!;
    await userEvent.click(box('o1'));
    await dialog.updateComplete;
    // Three changes in one task, no render between them (a script or an extension ticking boxes).
    const boxes = [box('o0'), box('o1'), box('o2')];
    for (const [input, checked] of [
      [boxes[2]!, true],
      [boxes[0]!, true],
      [boxes[1]!, false],
    ] as const) {
      input.checked = checked;
      input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
    }
    await dialog.updateComplete;
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    expect(textOf(await call)).toBe('thanks');
    expect(answers()).toEqual([{ q: { action: 'accept', content: { picks: ['o0', 'o2'] } } }]);
  });

  test('a root-level error clears once fixed, so the answer can be sent', async () => {
    const { client: scripted, answers } = scriptedClient({ q: formRequest({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, minProperties: 1 }) });
    await mountWithClient(scripted);
    const call = scripted.callTool('ask', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await vi.waitFor(() => expect(shadow('[part="error"]')?.textContent).toMatch(/The answer is not valid/));
    await userEvent.fill(page.getByRole('textbox', { name: 'a' }), 'filled');
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await vi.waitFor(() => expect(shadow('[part="error"]')).toBeNull());
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    expect(textOf(await call)).toBe('thanks');
    expect(answers()).toEqual([{ q: { action: 'accept', content: { a: 'filled' } } }]);
  });

  test('a schema the kit cannot compile is checked field by field, with a notice, and can still be answered', async () => {
    const { client: scripted, answers } = scriptedClient({ q: formRequest({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }) });
    await mountWithClient(scripted);
    const call = scripted.callTool('ask', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    // The required check still runs locally.
    await vi.waitFor(() => expect(shadow('[data-field="name"] [part="field-error"]')?.textContent).toBe('This field is required.'));
    expect(shadow('[part="warning"]')!.textContent).toMatch(/checked field by field only: .*draft-04/);
    await userEvent.fill(page.getByRole('textbox', { name: 'name' }), 'Ada');
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    await call;
    expect(answers()).toEqual([{ q: { action: 'accept', content: { name: 'Ada' } } }]);
  });

  test('property names are the server\'s: "50%" and "__proto__" get their own errors and values', async () => {
    const { client: scripted, answers } = scriptedClient({
      // Parsed, as a server's JSON is: in an object literal "__proto__" would set the prototype instead.
      q: formRequest(JSON.parse('{"type":"object","properties":{"50%":{"type":"string","title":"Half","minLength":3},"__proto__":{"type":"string","title":"Proto"}},"required":["__proto__"]}')),
    });
    await mountWithClient(scripted);
    const call = scripted.callTool('ask', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await userEvent.fill(page.getByRole('textbox', { name: 'Half' }), 'ab');
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    // Not percent-decoded (that would throw on "50%"): the error lands on its field.
    await vi.waitFor(() => expect(shadow('[data-field="50%"] [part="field-error"]')?.textContent).toMatch(/fewer than 3 characters/));
    expect(shadow('[data-field="__proto__"] [part="field-error"]')!.textContent).toBe('This field is required.');
    await userEvent.fill(page.getByRole('textbox', { name: 'Half' }), 'abc');
    await userEvent.fill(page.getByRole('textbox', { name: 'Proto' }), 'own key');
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    await call;
    const content = (answers()[0] as { q: { content: Record<string, unknown> } }).q.content;
    expect(Object.keys(content).sort()).toEqual(['50%', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(content, '__proto__')?.value).toBe('own key');
  });

  test('sampling params with odd shapes render as text; the reply can still be sent', async () => {
    const { client: scripted, answers } = scriptedClient({
      s: {
        method: 'sampling/createMessage',
        params: { maxTokens: 50, systemPrompt: { not: 'a string' }, modelPreferences: { hints: 'fast' }, messages: [{ role: 'user', content: [null, 7, { type: 'text', text: 'Hello <b>there</b>' }] }] },
      },
    });
    await mountWithClient(scripted);
    const call = scripted.callTool('ask', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    const messages = shadow('[part="messages"]')!;
    expect(messages.textContent).toContain('Hello <b>there</b>');
    expect(messages.querySelector('b')).toBeNull();
    expect(messages.textContent).toContain('[unreadable content]');
    await userEvent.fill(page.getByRole('textbox', { name: 'Reply' }), 'Hi');
    await userEvent.click(page.getByRole('button', { name: 'Send' }));
    await call;
    expect(answers()).toEqual([{ s: { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'user', stopReason: 'endTurn' } }]);
  });
});

describe('URL mode', () => {
  test('shows the full URL with the host, opens it only after consent with noopener, then continues', async () => {
    await setup();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const call = client.callTool('connect_account', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    expect(shadow('[part="url"]')!.textContent).toBe('https://auth.example.com/approve?app=mcp-web-elements-demo');
    expect(shadow('[part="url-host"]')!.textContent).toBe('auth.example.com');
    expect(open).not.toHaveBeenCalled();
    expect(performance.getEntriesByType('resource').some((entry) => entry.name.includes('auth.example.com'))).toBe(false);
    await userEvent.click(page.getByRole('button', { name: 'Open auth.example.com' }));
    expect(open).toHaveBeenCalledWith('https://auth.example.com/approve?app=mcp-web-elements-demo', '_blank', 'noopener,noreferrer');
    await userEvent.click(page.getByRole('button', { name: 'Continue' }));
    expect(textOf(await call)).toBe('Account connected.');
    expect(retryResponses('connect_account')).toEqual([{ approve: { action: 'accept' } }]);
    open.mockRestore();
  });

  test('keyboard only: decline', async () => {
    await setup();
    const call = client.callTool('connect_account', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await vi.waitFor(() => expect(dialog.shadowRoot!.activeElement?.textContent).toContain('Open'));
    await userEvent.keyboard('{Tab}{Enter}');
    expect(textOf(await call)).toBe('Not connected (decline).');
  });
});

describe('sampling and roots', () => {
  test('sampling: the host draft is shown, edited and sent', async () => {
    await setup();
    dialog.samplingHandler = async (params) => ({ role: 'assistant', content: { type: 'text', text: `Draft for ${params.maxTokens} tokens` }, model: 'host-model' });
    const call = client.callTool('summarize', { text: 'Tools let models act.' });
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    expect(shadow('[part="messages"]')!.textContent).toContain('Summarise in one sentence: Tools let models act.');
    const reply = page.getByRole('textbox', { name: /Reply/ });
    await vi.waitFor(() => expect((reply.element() as HTMLTextAreaElement).value).toBe('Draft for 60 tokens'));
    await userEvent.fill(reply, 'Models use tools.');
    await userEvent.click(page.getByRole('button', { name: 'Send' }));
    expect(textOf(await call)).toBe('Summary: Models use tools.');
    expect(retryResponses('summarize')).toEqual([{ summary: { role: 'assistant', content: { type: 'text', text: 'Models use tools.' }, model: 'host-model', stopReason: 'endTurn' } }]);
  });

  test("sampling: a draft from the page's model (an OpenAI-compatible endpoint) is shown, and sent only on approval", async () => {
    await setup();
    const modelBase = inject('openAiStandInUrl');
    const asked = async () => (await (await fetch(`${new URL(modelBase).origin}/__requests`)).json()) as { model: string; messages: unknown[] }[];
    const before = (await asked()).length;
    dialog.samplingHandler = openAiSampling({ baseUrl: modelBase, model: 'page-model' });
    const call = client.callTool('summarize', { text: 'Tools let models act.' });
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    const reply = page.getByRole('textbox', { name: /Reply/ });
    // The stand-in echoes the last user message: the draft is the model's answer to the server's request.
    await vi.waitFor(() => expect((reply.element() as HTMLTextAreaElement).value).toBe('Echo: Summarise in one sentence: Tools let models act.'));
    expect((await asked()).slice(before).map((request) => request.model)).toEqual(['page-model']);
    // Nothing went back to the server yet: only the first round of the call.
    expect(calls('summarize')).toHaveLength(1);
    await userEvent.click(page.getByRole('button', { name: 'Send' }));
    expect(textOf(await call)).toBe('Summary: Echo: Summarise in one sentence: Tools let models act.');
    expect(retryResponses('summarize')).toEqual([{ summary: expect.objectContaining({ role: 'assistant', content: { type: 'text', text: 'Echo: Summarise in one sentence: Tools let models act.' }, model: 'page-model' }) }]);
  });

  test('sampling: rejecting ends the call without a retry', async () => {
    await setup();
    // Keep the rejection handled while the click is in flight.
    const call = client.callTool('summarize', { text: 'x' }).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await userEvent.click(page.getByRole('button', { name: 'Reject' }));
    expect(await call).toMatchObject({ code: 'declined', message: 'You rejected the sampling request' });
    expect(calls('summarize')).toHaveLength(1);
  });

  test('keyboard only: sampling reply and send, then roots shared', async () => {
    await setup();
    const sampled = client.callTool('summarize', { text: 'Keys only.' });
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    // Focus starts on the reply box.
    await vi.waitFor(() => expect(dialog.shadowRoot!.activeElement?.id).toBe('reply'));
    await userEvent.keyboard('Typed with keys.');
    await userEvent.keyboard('{Tab}{Tab}{Tab}'); // model name, the call's history, then Send
    expect(dialog.shadowRoot!.activeElement?.textContent?.trim()).toBe('Send');
    await userEvent.keyboard('{Enter}');
    expect(textOf(await sampled)).toBe('Summary: Typed with keys.');
    const shared = client.callTool('list_workspace', {});
    await vi.waitFor(() => expect(dialog.shadowRoot!.activeElement?.textContent?.trim()).toBe('Share'));
    await userEvent.keyboard('{Enter}');
    expect(textOf(await shared)).toBe('Roots: project');
  });

  test('roots: shared only after asking; declining shares none', async () => {
    await setup();
    const shared = client.callTool('list_workspace', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    expect(shadow('form')!.textContent).toContain('file:///home/ada/project');
    await userEvent.click(page.getByRole('button', { name: 'Share', exact: true }));
    expect(textOf(await shared)).toBe('Roots: project');
    const refused = client.callTool('list_workspace', {});
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await userEvent.click(page.getByRole('button', { name: "Don't share" }));
    expect(textOf(await refused)).toBe('No roots shared.');
  });

  test('two requests in one round are a queue, answered together in one retry', async () => {
    await setup();
    const call = client.callTool('onboard', {});
    await vi.waitFor(() => expect(shadow('[part="progress"]')?.textContent).toContain('request 1 of 2'));
    await userEvent.fill(page.getByRole('textbox', { name: /Nickname/ }), 'ada');
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    await vi.waitFor(() => expect(shadow('[part="progress"]')?.textContent).toContain('request 2 of 2'));
    expect(calls('onboard')).toHaveLength(1);
    await userEvent.click(page.getByRole('button', { name: 'Share', exact: true }));
    expect(textOf(await call)).toBe('Welcome ada; 1 root(s) shared.');
    const retries = calls('onboard');
    expect(retries).toHaveLength(2);
    expect(Object.keys(retries[1]!.params!.inputResponses as object).sort()).toEqual(['nickname', 'workspace']);
  });
});

describe('extension points', () => {
  test('a host can answer through the cancelable mcp-input-required event instead', async () => {
    await setup();
    const answers: ElicitResult[] = [
      { action: 'accept', content: { date: '2027-01-02', guests: 4 } },
      { action: 'accept', content: { area: 'indoor' } },
    ];
    const seen: string[] = [];
    connection.addEventListener('mcp-input-required', (event) => {
      seen.push(`${event.detail.request.method} round ${event.detail.context.round}`);
      event.preventDefault();
      event.detail.respondWith(answers.shift()!);
    });
    expect(textOf(await client.callTool('book_table', { restaurant: 'Mar' }))).toBe('Booked Mar for 4 on 2027-01-02, indoor.');
    expect(seen).toEqual(['elicitation/create round 1', 'elicitation/create round 2']);
    expect(dialogOpen()).toBe(false);
  });

  test('policy="accept-defaults" answers what it can and asks for the rest', async () => {
    await setup('policy="accept-defaults"');
    const open = vi.spyOn(window, 'open');
    expect(textOf(await client.callTool('connect_account', {}))).toBe('Account connected.');
    expect(open).not.toHaveBeenCalled();
    // book_table round 1 has a required date without default: the dialog asks.
    const call = client.callTool('book_table', { restaurant: 'Sal' });
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await userEvent.fill(page.getByLabelText('Date'), '2026-06-01');
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    // Round 2 has defaults for everything required: answered without a dialog.
    expect(textOf(await call)).toBe('Booked Sal for 2 on 2026-06-01, indoor.');
    open.mockRestore();
  });

  test('a function policy', async () => {
    await setup();
    dialog.policy = (request) => (request.method === 'roots/list' ? { roots: [{ uri: 'file:///srv', name: 'srv' }] } : undefined);
    expect(textOf(await client.callTool('list_workspace', {}))).toBe('Roots: srv');
  });
});

describe('resume after a reload', () => {
  test('an unanswered round is stored, offered after the page comes back, and completed', async () => {
    await setup();
    const abandoned = client.callTool('book_table', { restaurant: 'Eira' }).catch((e) => e);
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    // Stored, and marked alive while this page is still asking.
    await vi.waitFor(async () => expect((await loadAllPending(url, { includeAlive: true }))[0]?.target).toBe('book_table'), { timeout: 30_000 });
    expect(await loadPending(url)).toBeUndefined();
    // "Reload": the page's elements go away with the call unanswered.
    cleanup();
    expect(await abandoned).toBeDefined();

    await setup();
    await vi.waitFor(() => expect(shadow('[data-action="resume"]')).not.toBeNull());
    expect(shadow('[part="message"]')!.textContent).toContain('tools/call book_table');
    const result = nextEvent<CustomEvent>(dialog, 'mcp-tool-result');
    await userEvent.click(page.getByRole('button', { name: 'Resume' }));
    await vi.waitFor(() => expect(shadow('[part="message"]')?.textContent).toContain('When would you like to eat at Eira?'));
    await userEvent.fill(page.getByLabelText('Date'), '2026-07-07');
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    await vi.waitFor(() => expect(shadow('[part="progress"]')?.textContent).toContain('Round 2'));
    await userEvent.click(page.getByRole('button', { name: 'Review' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    expect(textOf((await result).detail.result)).toBe('Booked Eira for 2 on 2026-07-07, indoor.');
    expect(await loadPending(url)).toBeUndefined();
  });

  test('one record per call: two calls waiting at once are both kept', async () => {
    await setup();
    const first = client.callTool('book_table', { restaurant: 'Eira' }).catch((e) => e);
    const second = client.callTool('book_table', { restaurant: 'Mar' }).catch((e) => e);
    await vi.waitFor(async () => expect((await loadAllPending(url, { includeAlive: true })).map((p) => (p.params as { arguments: { restaurant: string } }).arguments.restaurant).sort()).toEqual(['Eira', 'Mar']), { timeout: 30_000 });
    cleanup();
    await Promise.all([first, second]);
    // Removed with the page: no longer alive, both can be offered.
    await vi.waitFor(async () => expect(await loadAllPending(url)).toHaveLength(2), { timeout: 30_000 });
  });

  test('a manual-mode call the dialog never shows is not stored', async () => {
    await setup();
    const interim = await client.callTool('book_table', { restaurant: 'Eira' }, { inputRequired: 'manual' });
    expect(interim.resultType).toBe('input_required');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(dialogOpen()).toBe(false);
    expect(await loadAllPending(url)).toEqual([]);
  });

  test('call ids are per client: another client\'s call with the same id does not touch this one\'s record', async () => {
    const first = scriptedClient({ q: formRequest({ type: 'object', properties: { a: { type: 'string' } } }) }, 'https://first.example/mcp');
    const second = scriptedClient(null, 'https://second.example/mcp');
    dialog = mount<McpElicitationDialog>('<mcp-elicitation-dialog></mcp-elicitation-dialog>');
    dialog.client = first.client;
    await dialog.updateComplete;
    const waiting = first.client.callTool('ask', {}).catch((e) => e);
    await vi.waitFor(async () => expect(await loadAllPending('https://first.example/mcp', { includeAlive: true })).toHaveLength(1), { timeout: 30_000 });
    // The page switches the dialog to another client, whose first call (also call 1) completes.
    dialog.client = second.client;
    await dialog.updateComplete;
    expect(textOf(await second.client.callTool('ask', {}))).toBe('thanks');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Still stored, and still marked alive: the first call has not finished.
    expect(await loadAllPending('https://first.example/mcp', { includeAlive: true })).toHaveLength(1);
    expect(await loadPending('https://first.example/mcp')).toBeUndefined();
    cleanup();
    await waiting;
    await clearAllPending('https://first.example/mcp');
  });

  test('a call another open tab is still answering is not offered here', async () => {
    // "Another tab": a stored call whose Web Lock is held.
    await savePending({ id: 'other-tab', url, method: 'tools/call', target: 'book_table', params: { name: 'book_table', arguments: {} }, interim: { resultType: 'input_required', requestState: 's' }, savedAt: Date.now() });
    const release = holdPending('other-tab');
    await vi.waitFor(async () => expect(await loadPending(url)).toBeUndefined(), { timeout: 30_000 });
    await setup();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(shadow('[data-action="resume"]')).toBeNull();
    // Once that tab is gone (reloaded, closed), the call can be resumed.
    release();
    await vi.waitFor(async () => expect((await loadPending(url))?.id).toBe('other-tab'), { timeout: 30_000 });
  });
});

describe('storage', () => {
  test('pending rounds are kept even when other kit stores already exist in IndexedDB', async () => {
    // idb-keyval only creates an object store together with its database: stores that share
    // a database name break each other. Create the other kit stores first, as a page would.
    const { saveDraft, loadDraft } = await import('../internal/drafts.js');
    const { createStore, set, get } = await import('idb-keyval');
    await saveDraft('draft-key', { a: 1 }, '', true);
    const other = createStore('mcp-web-elements', 'era');
    await set('x', 1, other);
    await savePending({ id: 'storage-test', url, method: 'tools/call', target: 't', params: { name: 't' }, interim: { resultType: 'input_required', requestState: 's' }, savedAt: Date.now() });
    expect((await loadPending(url))?.interim.requestState).toBe('s');
    expect((await loadDraft('draft-key')).stored?.draft).toEqual({ a: 1 });
    expect(await get('x', other)).toBe(1);
  });
});

describe('accessibility', () => {
  test('axe finds no violations with the dialog open in each mode', async () => {
    await setup();
    dialog.samplingHandler = async () => ({ role: 'assistant', content: { type: 'text', text: 'draft' }, model: 'm' });
    const modes: [string, Record<string, unknown>][] = [
      ['survey', {}],
      ['connect_account', {}],
      ['summarize', { text: 'abc' }],
      ['list_workspace', {}],
    ];
    for (const [tool, args] of modes) {
      const call = client.callTool(tool, args).catch(() => undefined);
      await vi.waitFor(() => expect(dialogOpen()).toBe(true));
      expect({ tool, violations: await axeViolations() }).toEqual({ tool, violations: [] });
      if (tool === 'survey') {
        // The review step and the inline errors too.
        await userEvent.click(page.getByRole('button', { name: 'Review' }));
        expect({ tool: 'survey errors', violations: await axeViolations() }).toEqual({ tool: 'survey errors', violations: [] });
      }
      await userEvent.keyboard('{Escape}');
      await call;
      await vi.waitFor(() => expect(dialogOpen()).toBe(false));
    }
  });
});

describe('one step (issue 33)', () => {
  test('a form that validates is accepted with Accept, with no review; a choice with a default offers no "No answer"', async () => {
    await setup();
    const booked = client.callTool('book_table', { restaurant: 'Casa Lisboa' });
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    await userEvent.fill(page.getByLabelText('Date'), '2026-12-24');
    await userEvent.click(page.getByRole('button', { name: 'Accept', exact: true }));
    await vi.waitFor(() => expect(shadow('[part="message"]')?.textContent).toContain('A table for 2 on 2026-12-24'));
    expect(shadow('[part="review"]')).toBeNull();
    // Area has a default (indoor): Indoors and Terrace only.
    expect([...dialog.shadowRoot!.querySelectorAll('input[type="radio"]')].map((r) => r.parentElement!.textContent!.trim())).toEqual(['Indoors', 'Terrace']);
    await userEvent.click(page.getByRole('radio', { name: 'Terrace' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept', exact: true }));
    expect(textOf(await booked)).toBe('Booked Casa Lisboa for 2 on 2026-12-24, terrace.');
  });

  test('a request the host marks sensitive (reviewRequired) goes through Review; an invalid form is not accepted', async () => {
    await setup();
    dialog.reviewRequired = (request) => request.method === 'elicitation/create';
    const booked = client.callTool('book_table', { restaurant: 'Casa Lisboa' });
    await vi.waitFor(() => expect(dialogOpen()).toBe(true));
    expect(shadow('[data-action="accept"]')).toBeNull();
    // Review with the date missing: the form says why, nothing is sent.
    await userEvent.click(page.getByRole('button', { name: 'Review', exact: true }));
    expect(shadow('[aria-invalid="true"]')).not.toBeNull();
    expect(shadow('[part="review"]')).toBeNull();
    await userEvent.fill(page.getByLabelText('Date'), '2027-01-02');
    await userEvent.click(page.getByRole('button', { name: 'Review', exact: true }));
    expect(shadow('[part="review"]')!.textContent).toContain('2027-01-02');
    await userEvent.click(page.getByRole('button', { name: 'Accept', exact: true }));
    await vi.waitFor(() => expect(shadow('[part="message"]')?.textContent).toContain('A table for 2 on 2027-01-02'));
    dialog.reviewRequired = undefined;
    await dialog.updateComplete;
    await userEvent.click(page.getByRole('button', { name: 'Decline', exact: true }));
    expect(textOf(await booked)).toContain('declined');
  });
});
