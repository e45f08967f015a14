/**
 * The chat sample with a model: the page configured to a local
 * OpenAI-compatible endpoint the test starts (a scripted stand-in for a
 * provider, the only fake here), the demo server and server-everything over
 * stdio behind the kit's bridge as its servers. The model's replies stream
 * in; its tool calls run on both servers, with elicitation, sampling and an
 * MCP App in the page.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createServer } from 'node:http';
import { startBridge, type Bridge } from '../bridge/index.js';
import { e2eServerUrl } from '../playwright.config.js';
import { everything } from '../test/support/bridge.js';
import { closeServer, listen } from '../test/support/http.js';
import { startOpenAiStandIn, type OpenAiStandIn } from '../test/support/openai-stand-in.js';
import { answerElicitation, answerSampling, waitForConnection } from './helpers/index.js';

const chat = `/chat.html?server=${encodeURIComponent(e2eServerUrl)}`;
const KEY = 'sk-test-6c1d';

let bridge: Bridge;
let model: OpenAiStandIn;

test.beforeAll(async ({ baseURL }) => {
  model = await startOpenAiStandIn();
  // The page's origin is this run's free port: allowed explicitly, as for the playground.
  bridge = await startBridge({ server: everything, allowedOrigins: [new URL(baseURL!).origin], log: () => {} });
});
test.afterAll(async () => {
  await bridge?.close();
  await model?.close();
});
test.beforeEach(() => {
  model.requests.length = 0;
  model.authorizations.length = 0;
});

const transcript = (page: Page) => page.locator('.transcript');

async function say(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** Fills the model settings in the page's settings panel. */
async function configure(page: Page, baseUrl = model.baseUrl, options: { remember?: boolean } = {}): Promise<void> {
  const settings = page.locator('details.settings');
  if (!(await settings.evaluate((element) => (element as HTMLDetailsElement).open))) await settings.locator('summary').click();
  await page.getByRole('textbox', { name: 'Base URL' }).fill(baseUrl);
  await page.getByLabel('API key').fill(KEY);
  await page.getByRole('textbox', { name: 'Model', exact: true }).fill('stand-in-1');
  if (options.remember) await page.getByRole('checkbox', { name: /Remember on this device/ }).check();
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(settings.locator('summary')).toContainText('model stand-in-1');
}

test('the model calls tools of the demo server and of server-everything behind the bridge, an elicitation is answered, an app renders, the reply streams in', async ({ page }) => {
  await page.goto(chat);
  await waitForConnection(page);
  await configure(page);
  // server-everything over stdio, through the bridge, added as a second server.
  await page.getByRole('textbox', { name: 'Server URL' }).fill(bridge.endpoints[0]!.url);
  await page.getByRole('button', { name: 'Add server' }).click();
  await expect(page.locator('mcp-connection:state(connected)')).toHaveCount(2);
  // One catalogue: the tool menu offers both servers' tools.
  await expect(page.locator('#tool-menu option[value="echo"]')).toHaveCount(1);
  await expect(page.locator('#tool-menu option[value="get_weather"]')).toHaveCount(1);
  // The bridge's token is not shown.
  await expect(page.locator('.server-settings')).not.toContainText('token');
  // Listed by its name (serverInfo) once connected, its URL's host beside it.
  const serverRow = page.locator('.server-settings li').nth(1);
  await expect(serverRow).toContainText(new URL(bridge.endpoints[0]!.url).host);
  const name = await page.locator('mcp-connection').nth(1).evaluate((connection) => (connection as any).serverInfo.title ?? (connection as any).serverInfo.name);
  expect(name).toBeTruthy();
  await expect(serverRow.locator('.server-label')).toHaveText(`${name} (${new URL(bridge.endpoints[0]!.url).host}${new URL(bridge.endpoints[0]!.url).pathname})`);

  model.script(
    { text: 'Let me check both servers.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Lisbon' } }, { name: 'echo', arguments: { message: 'hello from the model' } }] },
    { toolCalls: [{ name: 'book_table', arguments: { restaurant: 'Casa Azul' } }] },
    { toolCalls: [{ name: 'show_chart', arguments: { metric: 'sales', days: 7 } }] },
    { text: 'All done: booked, charted and echoed.', chunks: 3, hold: true },
  );
  await say(page, 'Plan my evening');
  await expect(transcript(page)).toContainText('Let me check both servers.');
  const results = transcript(page).locator('mcp-tool-result');
  await expect(transcript(page).locator('li', { hasText: 'Result · echo' }).locator('mcp-tool-result')).toContainText('Echo: hello from the model');
  await expect(transcript(page).locator('li', { hasText: 'Result · get_weather' }).locator('mcp-tool-result')).toContainText(/lisbon/i);

  // The demo server's booking asks for details in two rounds, answered in the page's inline dialog.
  await answerElicitation(page, { Date: '2026-11-30', Guests: '4' });
  await answerElicitation(page, { Area: 'Terrace' });
  await expect(transcript(page).locator('li', { hasText: 'Result · book_table' }).locator('mcp-tool-result')).toContainText('Booked Casa Azul for 4 on 2026-11-30, terrace.');

  // The chart app renders inline.
  const app = page.frameLocator('mcp-app-frame iframe').frameLocator('iframe');
  await expect(app.getByRole('heading', { name: 'Sales, last 7 days' })).toBeVisible();

  // The last reply streams: its first pieces are on the page while the stand-in holds the last one.
  await model.held();
  const reply = transcript(page).locator('li.assistant').last();
  await expect(reply).toContainText('All done: booked, charted');
  await expect(reply).toHaveAttribute('aria-busy', 'true');
  await expect(reply).not.toContainText('and echoed.');
  model.release();
  await expect(reply).toContainText('All done: booked, charted and echoed.');
  await expect(reply).toHaveAttribute('aria-busy', 'false');
  await expect(results).toHaveCount(4);

  // What the model was sent: a streamed request with both servers' tools (not the app-only ones),
  // the key, and each round's results as tool messages.
  expect(model.requests).toHaveLength(4);
  expect(model.requests.every((body) => body.stream === true && body.model === 'stand-in-1')).toBe(true);
  expect(model.authorizations[0]).toBe(`Bearer ${KEY}`);
  const offered = model.requests[0].tools.map((tool: any) => tool.function.name);
  expect(offered).toEqual(expect.arrayContaining(['get_weather', 'book_table', 'show_chart', 'echo', 'trigger-elicitation-request']));
  expect(offered).not.toContain('chart_data');
  const toolMessages = model.requests[1].messages.filter((message: any) => message.role === 'tool');
  expect(toolMessages.map((message: any) => message.content).join('\n')).toContain('Echo: hello from the model');
  expect(model.requests[2].messages.at(-1).content).toContain('Booked Casa Azul for 4 on 2026-11-30, terrace.');
  expect((await new AxeBuilder({ page }).exclude('mcp-app-frame').analyze()).violations).toEqual([]);
});

test('arguments that fail the tool\'s schema: the tool is not called, the error is shown and goes back to the model, and "Open form" offers the form pre-filled', async ({ page }) => {
  let calls = 0;
  page.on('request', (request) => {
    if (request.url().startsWith(e2eServerUrl) && /"method"\s*:\s*"tools\/call"/.test(request.postData() ?? '')) calls++;
  });
  await page.goto(chat);
  await waitForConnection(page);
  await configure(page);
  model.script({ toolCalls: [{ name: 'create_ticket', arguments: { title: 'Hi', priority: 'urgent' } }] }, { text: 'Those arguments were wrong, sorry.' });
  await say(page, 'File a ticket about the printer');
  const invalid = transcript(page).locator('li.invalid');
  await expect(invalid).toContainText('create_ticket was not called');
  await expect(invalid).toContainText("do not match the tool's input schema");
  await expect(invalid.locator('.who')).toHaveText(/^Problem with the tool call · /);
  await expect(transcript(page)).toContainText('Those arguments were wrong, sorry.');
  expect(calls).toBe(0);
  expect(model.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining("do not match the tool's input schema") });

  await invalid.getByRole('button', { name: 'Open form' }).click();
  const form = transcript(page).locator('mcp-tool-form').last();
  await expect(form.getByRole('textbox', { name: 'Title' })).toHaveValue('Hi');
  expect(calls).toBe(0);
});

test('errors from the endpoint are shown and the message is not lost: 401, a malformed stream, a cut stream, an endpoint that cannot be reached', async ({ page }) => {
  await page.goto(chat);
  await waitForConnection(page);
  await configure(page);
  // The key is kept for this tab only.
  expect(await page.evaluate(() => [sessionStorage.getItem('mcp-chat-model-v1')?.includes('sk-test'), localStorage.getItem('mcp-chat-model-v1')])).toEqual([true, null]);
  const input = page.getByRole('textbox', { name: 'Message' });

  model.script({ status: 401, error: 'Incorrect API key provided' });
  await say(page, 'Hello there');
  await expect(transcript(page).getByRole('alert').last()).toContainText('The model endpoint answered 401: Incorrect API key provided');
  await expect(input).toHaveValue('Hello there');
  // The error is not the model talking: labelled "Error", edged and labelled in the theme's danger colour.
  const error = transcript(page).locator('li.error').last();
  await expect(error.locator('.who')).toHaveText('Error');
  const danger = await page.evaluate(() => {
    const probe = document.body.appendChild(document.createElement('span'));
    probe.style.color = 'var(--mcp-color-danger)';
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  });
  expect(await error.evaluate((li) => [getComputedStyle(li).borderLeftColor, getComputedStyle(li.querySelector('.who')!).color])).toEqual([danger, danger]);

  model.script({ raw: 'data: {"choices":[{"index":0,"delta":{"content":"Hal"}}]}\n\ndata: {not json\n\n' });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(transcript(page).getByRole('alert').last()).toContainText('malformed stream');
  await expect(input).toHaveValue('Hello there');
  // The half reply stays readable, marked as cut off (the model never sees it), not as an answer.
  const partial = transcript(page).locator('li.assistant', { hasText: 'Hal' }).last();
  await expect(partial.locator('.who')).toHaveText('Assistant (cut off: not part of the conversation)');
  await expect(partial).toHaveClass(/\bcut\b/);

  // A stream cut off before its end (no finish reason, no [DONE]): half a reply is not taken for one.
  model.script({ raw: 'data: {"choices":[{"index":0,"delta":{"content":"Hal"}}]}\n\n' });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(transcript(page).getByRole('alert').last()).toContainText('ended before the reply was complete');
  await expect(input).toHaveValue('Hello there');

  // A port nothing listens on any more.
  const closed = createServer();
  const origin = await listen(closed);
  await closeServer(closed);
  // A server that cannot be reached is listed as such; the others' tools are still the model's.
  await page.getByRole('textbox', { name: 'Server URL' }).fill(`${origin}/mcp`);
  await page.getByRole('button', { name: 'Add server' }).click();
  await expect(page.locator('.server-settings li', { hasText: new URL(origin).host })).toContainText('not connected');
  await configure(page, `${origin}/v1`);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(transcript(page).getByRole('alert').last()).toContainText('Could not reach the model');
  await expect(input).toHaveValue('Hello there');

  // Back to the stand-in, with "remember": the same message now gets its answer.
  await configure(page, model.baseUrl, { remember: true });
  expect(await page.evaluate(() => [sessionStorage.getItem('mcp-chat-model-v1'), localStorage.getItem('mcp-chat-model-v1')?.includes('sk-test')])).toEqual([null, true]);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(transcript(page).locator('li.assistant').last()).toContainText('Echo: Hello there');
  await expect(input).toHaveValue('');
  expect(model.requests.at(-1).tools.map((tool: any) => tool.function.name)).toContain('get_weather');
  // Each failed attempt was taken back: the model saw the message once.
  expect(model.requests.at(-1).messages.filter((message: any) => message.role === 'user')).toHaveLength(1);
});

test('"Put my message back" after an error while the user typed something new keeps both: the old message above the new text', async ({ page }) => {
  await page.goto(chat);
  await waitForConnection(page);
  await configure(page);
  // The request is held at the page until the user has typed the next text.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => (asked = resolve));
  await page.route('**/chat/completions', async (route) => {
    asked();
    await gate;
    await route.continue();
  });
  model.script({ status: 500, error: 'Overloaded' });
  await say(page, 'The old message');
  await requested;
  // While the turn runs Send is disabled, and looks it.
  const send = page.getByRole('button', { name: 'Send', exact: true });
  await expect(send).toBeDisabled();
  expect(await send.evaluate((button) => [Number(getComputedStyle(button).opacity), getComputedStyle(button).cursor])).toEqual([expect.any(Number), 'not-allowed']);
  expect(await send.evaluate((button) => Number(getComputedStyle(button).opacity))).toBeLessThan(0.6);
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('New text typed meanwhile');
  release();
  await expect(transcript(page).getByRole('alert').last()).toContainText('The model endpoint answered 500');
  await expect(input).toHaveValue('New text typed meanwhile');
  await transcript(page).getByRole('button', { name: 'Put my message back' }).click();
  await expect(input).toHaveValue('The old message\n\nNew text typed meanwhile');
  await expect(input).toBeFocused();
  // Shift+Enter is a new line, Enter sends.
  await input.press('Shift+Enter');
  await expect(input).toHaveValue('The old message\n\nNew text typed meanwhile\n');
  model.script({ text: 'Both read.' });
  await input.press('Enter');
  await expect(transcript(page).locator('li.assistant').last()).toContainText('Both read.');
  expect(model.requests.at(-1).messages.at(-1).content).toBe('The old message\n\nNew text typed meanwhile');
});

test('an endpoint needs a model name: the settings say so and are not saved, and nothing is sent without one', async ({ page }) => {
  await page.goto(chat);
  await waitForConnection(page);
  const settings = page.locator('details.settings');
  await settings.locator('summary').click();
  const name = page.getByRole('textbox', { name: 'Model', exact: true });
  await expect(name).toHaveAttribute('placeholder', /^e\.g\. /);
  await page.getByRole('textbox', { name: 'Base URL' }).fill(model.baseUrl);
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(settings.getByRole('alert')).toContainText('Name the model');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(settings.locator('summary')).toContainText('no model: the phrase router answers');
  // Settings saved before a name was required: the message is refused, not sent with model "".
  await page.evaluate((baseUrl) => sessionStorage.setItem('mcp-chat-model-v1', JSON.stringify({ baseUrl, apiKey: '', model: '', remember: false })), model.baseUrl);
  await page.reload();
  await waitForConnection(page);
  await expect(settings.locator('summary')).toContainText('model not named');
  await say(page, 'Hello there');
  await expect(transcript(page).getByRole('alert').last()).toContainText('Not sent: Name the model');
  expect(model.requests).toHaveLength(0);
});

test('a sampling request is drafted by the configured model and sent after approval; a model that never stops calling tools is stopped after 8 rounds', async ({ page }) => {
  await page.goto(chat);
  await waitForConnection(page);
  await configure(page);
  model.script(
    { toolCalls: [{ name: 'summarize', arguments: { text: 'MCP lets models use tools.' } }] },
    // The sampling request (not streamed), between the two chat requests.
    { text: 'Models use tools through MCP.' },
    { text: 'Summarised.' },
  );
  await say(page, 'Summarize it');
  const dialog = page.locator('mcp-elicitation-dialog dialog[open]');
  await expect(dialog.getByRole('textbox', { name: /^Reply/ })).toHaveValue('Models use tools through MCP.');
  await answerSampling(page);
  await expect(transcript(page).locator('li', { hasText: 'Result · summarize' })).toContainText('Summary: Models use tools through MCP.');
  await expect(transcript(page).locator('li.assistant').last()).toContainText('Summarised.');
  expect(model.requests[1].stream).toBeUndefined();
  expect(model.requests[1].messages.at(-1).content).toContain('Summarise in one sentence: MCP lets models use tools.');

  model.script(...Array.from({ length: 9 }, () => ({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Faro' } }] })));
  await say(page, 'Weather forever');
  await expect(transcript(page).getByRole('alert').last()).toContainText('Stopped after 8 rounds');
  expect(model.requests).toHaveLength(3 + 8);
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  // The ninth scripted reply was never asked for.
  await page.request.post(`${model.origin}/__reset`);
});

test('a tool of a switched-off server called by the model: the error says the server is off, to the user and to the model', async ({ page }) => {
  await page.goto(chat);
  await waitForConnection(page);
  await configure(page);
  await page.getByRole('checkbox', { name: /Demo server/ }).uncheck();
  await expect(page.locator('#tool-menu option[value="get_weather"]')).toHaveCount(0);
  model.script({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Lisbon' } }] }, { text: 'That server is off.' });
  await say(page, 'Weather in Lisbon?');
  const error = transcript(page).getByRole('alert').last();
  await expect(error).toContainText(/get_weather failed: the tool is on Demo server \(.*\), which the user switched off/);
  await expect(error).not.toContainText('Available tools');
  await expect(transcript(page).locator('li.assistant').last()).toContainText('That server is off.');
  expect(model.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('which the user switched off') });
});
