/**
 * `<mcp-protocol-log>` in real Chromium against the demo MCP server (its
 * bearer-token endpoint): request/response pairs, the rounds of a multi
 * round-trip call, filters, the server log level, copy as `curl` with the token
 * masked, export then import, and the cap holding under 10,000 progress
 * notifications.
 */
import { afterEach, beforeEach, describe, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../index.js';
import '../inspector.js';
import type { McpCopyEvent } from '../events.js';
import { axeViolations, cleanup, nextEvent } from '../test-support/dom.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import type { McpProtocolLog } from './mcp-protocol-log.js';

const privateUrl = inject('demoPrivateUrl');
const token = inject('demoPrivateToken');
/** A busy machine takes seconds where an idle one takes milliseconds. */
const WAIT = { timeout: 10_000, interval: 50 };

beforeEach(() => cleanup());
afterEach(() => cleanup());

async function connected(attributes: [string, string][] = [], url = privateUrl): Promise<{ connection: McpConnection; log: McpProtocolLog }> {
  const connection = document.createElement('mcp-connection');
  connection.headers = { Authorization: `Bearer ${token}` };
  connection.noListen = true;
  connection.roots = [{ uri: 'file:///work/demo', name: 'demo' }];
  const log = document.createElement('mcp-protocol-log');
  for (const [name, value] of attributes) log.setAttribute(name, value);
  const dialog = document.createElement('mcp-elicitation-dialog');
  dialog.policy = 'accept-defaults';
  // A call another test left unanswered is not offered here (a modal would cover the page).
  dialog.noResume = true;
  connection.append(log, dialog);
  connection.serverUrl = url;
  document.body.append(connection);
  await nextEvent(connection, 'mcp-connect');
  await vi.waitFor(() => expect(log.records.some((r) => r.method === 'tools/list' && r.kind === 'response')).toBe(true), WAIT);
  return { connection, log };
}

const rows = (log: McpProtocolLog, part = 'entry') => [...log.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="entries"] > [part~="${part}"]`)];
const select = async (log: McpProtocolLog, part: string, value: string) => {
  const element = log.shadowRoot!.querySelector<HTMLSelectElement>(`[part~="${part}"]`)!;
  element.value = value;
  element.dispatchEvent(new Event('change'));
  await log.updateComplete;
};
const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

describe('<mcp-protocol-log>', () => {
  test('pairs each request with its response and its duration, and groups the rounds of a call', async () => {
    const { connection, log } = await connected();
    await connection.client!.callTool('list_workspace', {});
    await frame();
    await log.updateComplete;
    const discover = rows(log, 'entry-request').find((row) => row.dataset.method === 'server/discover')!;
    expect(discover.querySelector('[part~="outcome"]')!.textContent).toMatch(/^ok · (\d+ ms|\d+\.\d+ s)$/);
    expect(discover.querySelector('[part~="time"]')!.textContent).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
    // The responses are in their request's row, not rows of their own.
    expect(rows(log, 'entry-response')).toEqual([]);
    const call = rows(log, 'entry-call').at(-1)!;
    expect(call.querySelector('[part~="method"]')!.textContent).toBe('tools/call list_workspace');
    expect(call.querySelector('[part~="round"]')!.textContent).toBe('call 1 · 2 rounds');
    expect(call.querySelector('[part~="outcome"]')!.textContent).toMatch(/^complete · /);
    await userEvent.click(call.querySelector('summary')!);
    const rounds = [...call.querySelectorAll<HTMLElement>('[part~="entry-request"]')];
    expect(rounds.map((r) => r.querySelector('[part~="round"]')!.textContent)).toEqual(['call 1 · round 1', 'call 1 · round 2']);
    expect(rounds[0]!.querySelector('[part~="outcome"]')!.textContent).toMatch(/^input required · /);
    expect(await axeViolations(connection)).toEqual([]);
  });

  test('filters by method and by log level; the server log level is asked for per request', async () => {
    const { connection, log } = await connected();
    await select(log, 'log-level', 'debug');
    await connection.client!.callTool('long_task', { steps: 3, stepMs: 1 });
    const call = log.records.filter((r) => r.method === 'tools/call' && r.direction === 'out').at(-1)!;
    expect((call.message as { params: { _meta: Record<string, unknown> } }).params._meta['io.modelcontextprotocol/logLevel']).toBe('debug');
    await vi.waitFor(() => expect(log.records.filter((r) => r.method === 'notifications/message')).toHaveLength(5), WAIT);
    await frame();
    await log.updateComplete;
    const levels = () => rows(log).filter((row) => row.dataset.method === 'notifications/message').map((row) => row.dataset.level);
    expect(levels()).toEqual(['info', 'debug', 'debug', 'debug', 'notice']);
    await select(log, 'level-filter', 'notice');
    expect(levels()).toEqual(['notice']);
    // Other messages are not log messages: the level filter leaves them.
    expect(rows(log).some((row) => row.dataset.method === 'tools/list')).toBe(true);
    await select(log, 'method-filter', 'tools/list');
    expect(new Set(rows(log).map((row) => row.dataset.method))).toEqual(new Set(['tools/list']));
    await select(log, 'method-filter', '');
    await select(log, 'level-filter', '');
    // The Notifications view: the server's notifications only — its log messages, and the call's
    // progress collapsed into the call's row (the client asks for progress by default: it resets the timeout).
    expect(call.progress?.count).toBe(3);
    await userEvent.click(log.shadowRoot!.querySelector<HTMLElement>('#tab-notifications')!);
    expect(new Set(rows(log).map((row) => row.dataset.method))).toEqual(new Set(['notifications/message', 'tools/call']));
    const progressRows = rows(log).filter((row) => row.dataset.method === 'tools/call');
    expect(progressRows.map((row) => row.querySelector('[part~="progress"]')?.textContent)).toEqual([expect.stringMatching(/^progress 3 \/ 3\b/)]);
    // Tabs move with the arrow keys.
    await userEvent.keyboard('{ArrowLeft}');
    expect(log.shadowRoot!.querySelector('#tab-messages')!.getAttribute('aria-selected')).toBe('true');
    expect(log.shadowRoot!.activeElement?.id).toBe('tab-messages');
    await select(log, 'log-level', '');
    await connection.client!.callTool('long_task', { steps: 1, stepMs: 1 });
    const last = log.records.filter((r) => r.method === 'tools/call' && r.direction === 'out').at(-1)!;
    expect((last.message as { params: { _meta: Record<string, unknown> } }).params._meta).not.toHaveProperty(['io.modelcontextprotocol/logLevel']);
  });

  test('copies a request as curl with its headers and the bearer token masked', async () => {
    const { connection, log } = await connected();
    await connection.client!.callTool('get_weather', { city: "Porto's" });
    await frame();
    await log.updateComplete;
    const row = rows(log, 'entry-request').filter((r) => r.dataset.method === 'tools/call').at(-1)!;
    await userEvent.click(row.querySelector('summary')!);
    expect(row.querySelector('[part~="headers"]')!.textContent).toContain('Authorization: Bearer <redacted>');
    const copied = nextEvent<McpCopyEvent>(log, 'mcp-copy');
    await userEvent.click(row.querySelector<HTMLElement>('[part~="copy-curl-button"]')!);
    const { detail } = await copied;
    expect(detail.format).toBe('curl');
    expect(detail.text).not.toContain(token);
    expect(detail.text.split(' \\\n')).toEqual([
      `curl '${privateUrl}'`,
      '  -X POST',
      "  -H 'Content-Type: application/json'",
      "  -H 'Accept: application/json, text/event-stream'",
      "  -H 'Authorization: Bearer <redacted>'",
      "  -H 'MCP-Protocol-Version: 2026-07-28'",
      "  -H 'Mcp-Method: tools/call'",
      "  -H 'Mcp-Name: get_weather'",
      expect.stringMatching(/^ {2}--data-raw '\{"jsonrpc":"2\.0","id":\d+,"method":"tools\/call","params":\{"name":"get_weather","arguments":\{"city":"Porto'\\''s"\}/),
    ]);
    // The clipboard answered, or the text is shown to copy by hand.
    if (!detail.copied) expect(row.querySelector<HTMLTextAreaElement>('[part~="copy-fallback"]')!.value).toBe(detail.text);
    expect(log.copyText(log.records.find((r) => r.method === 'tools/call' && r.direction === 'out')!, 'json')).toContain('"method": "tools/call"');
  });

  test('a server URL with credentials in it (?token=, ?api_key=) is masked in the records, a curl copy and an exported session', async () => {
    const { connection, log } = await connected([], `${privateUrl}?token=url-t0ken-1&api_key=url-key-2&tenant=blue`);
    await connection.client!.callTool('get_weather', { city: 'Porto' });
    const call = log.records.filter((r) => r.method === 'tools/call' && r.direction === 'out').at(-1)!;
    expect(call.url).toBe(`${privateUrl}?token=…&api_key=…&tenant=blue`);
    const curl = log.copyText(call, 'curl');
    const exported = JSON.stringify(log.exportSession());
    for (const secret of ['url-t0ken-1', 'url-key-2', token]) {
      expect(curl).not.toContain(secret);
      expect(exported).not.toContain(secret);
    }
    expect(curl.split(' \\\n')[0]).toBe(`curl '${privateUrl}?token=…&api_key=…&tenant=blue'`);
  });

  test('exports the session and imports it back unchanged; a broken file replaces nothing', async () => {
    const { connection, log } = await connected();
    await connection.client!.callTool('list_workspace', {});
    await connection.client!.callTool('long_task', { steps: 5, stepMs: 1 }, { onProgress: () => {} });
    await frame();
    const before = log.records;
    const text = JSON.stringify(log.exportSession());
    expect(text).not.toContain(token);
    const rendered = rows(log).map((row) => row.textContent!.replace(/\s+/g, ' ').trim());
    log.clear();
    await log.updateComplete;
    expect(log.records).toEqual([]);
    expect(rows(log)).toEqual([]);
    log.importSession(text, 'session.json');
    await log.updateComplete;
    expect(log.records).toEqual(JSON.parse(JSON.stringify(before)));
    expect(rows(log).map((row) => row.textContent!.replace(/\s+/g, ' ').trim())).toEqual(rendered);
    expect(log.shadowRoot!.querySelector('[part~="cap"]')!.textContent).toContain(`Imported ${before.length} messages from session.json`);
    expect(log.matches(':state(imported)')).toBe(true);
    expect(() => log.importSession('{"format":"something-else","records":[]}')).toThrow(/not a protocol log session/);
    expect(() => log.importSession(JSON.stringify({ format: 'mcp-web-elements-protocol-log', version: 1, records: [{ seq: 1, time: 0, direction: 'sideways', kind: 'note' }] }))).toThrow(/unknown direction/);
    expect(log.records).toHaveLength(before.length);
    // Live traffic goes on after the imported records.
    await connection.client!.discover({ fresh: true });
    await vi.waitFor(() => expect(log.records).toHaveLength(before.length + 2), WAIT);
  });

  test('the method filter follows the buffer: a flood of notifications with methods of their own (one 100,000 characters long) leaves as many options as the cap allows, cut to a readable length', async () => {
    const connection = document.createElement('mcp-connection');
    connection.noListen = true;
    const log = document.createElement('mcp-protocol-log');
    log.setAttribute('max-entries', '50');
    connection.append(log);
    connection.serverUrl = inject('hostileServerUrl');
    document.body.append(connection);
    await nextEvent(connection, 'mcp-connect');
    const result = await connection.client!.callTool('method_flood', {});
    expect(result).toMatchObject({ content: [{ text: 'flooded' }] });
    await frame();
    await log.updateComplete;
    expect(log.records).toHaveLength(50);
    const options = [...log.shadowRoot!.querySelectorAll<HTMLOptionElement>('[part~="method-filter"] option')];
    // "All methods" and at most one per method still in the buffer (not the 3,000 seen).
    expect(options.length).toBeGreaterThan(1);
    expect(options.length).toBeLessThanOrEqual(51);
    expect(Math.max(...options.map((o) => o.textContent!.length))).toBeLessThan(250);
    const longest = options.find((o) => o.value.length > 100_000)!;
    expect(longest.textContent!.endsWith('…')).toBe(true);
    const row = rows(log).find((r) => r.dataset.method!.length > 100_000)!;
    expect(row.querySelector('[part~="method"]')!.textContent!.length).toBeLessThan(250);
  });

  test('the legacy probe ends with what happened: on a legacy SDK server (an HTTP error) and behind a CORS refusal (no response), server/discover is not left pending', async () => {
    const cases: [string, RegExp][] = [
      // The official SDK's legacy server refuses a request before initialize with HTTP 400.
      [inject('urlElicitationServerUrl'), /^failed · HTTP 400 · (\d+ ms|\d+\.\d+ s)$/],
      // Its CORS refuses the 2026-07-28 headers: the probe fails before any response.
      [inject('wireLab').legacyStrict, /^failed · cors · (\d+ ms|\d+\.\d+ s)$/],
    ];
    for (const [url, expected] of cases) {
      cleanup();
      const connection = document.createElement('mcp-connection');
      connection.noListen = true;
      const log = document.createElement('mcp-protocol-log');
      connection.append(log);
      connection.serverUrl = url;
      document.body.append(connection);
      await nextEvent(connection, 'mcp-connect');
      expect(connection.client!.server?.era).toBe('legacy');
      await frame();
      await log.updateComplete;
      const discover = rows(log, 'entry-request').find((row) => row.dataset.method === 'server/discover')!;
      const outcome = discover.querySelector('[part~="outcome"]')!;
      expect(outcome.textContent).toMatch(expected);
      expect(outcome.getAttribute('data-outcome')).toBe('failed');
      // The failure ends the entry: it is the request's, not a row of its own.
      expect(rows(log).filter((row) => row.matches('[part~="entry-failure"]'))).toEqual([]);
      // The next request is the legacy handshake.
      expect(log.records.find((r) => r.kind === 'request' && r.method !== 'server/discover')?.method).toBe('initialize');
    }
  });

  test('holds its cap under 10,000 progress notifications: one line that updates, older messages dropped and counted', async () => {
    const { connection, log } = await connected([['max-entries', '40']]);
    const client = connection.client!;
    for (let i = 0; i < 25; i++) await client.discover({ fresh: true });
    expect(log.records).toHaveLength(40);
    expect(log.dropped).toBeGreaterThan(0);
    let progress = 0;
    await client.callTool('long_task', { steps: 10_000, stepMs: 0 }, { onProgress: () => progress++, timeoutMs: 60_000 });
    expect(progress).toBe(10_000);
    await frame();
    await log.updateComplete;
    expect(log.records.length).toBeLessThanOrEqual(40);
    const call = log.records.filter((r) => r.method === 'tools/call' && r.direction === 'out').at(-1)!;
    expect(call.progress?.count).toBe(10_000);
    const row = rows(log, 'entry-request').find((r) => r.dataset.seq === String(call.seq))!;
    expect(row.querySelector('[part~="progress"]')!.textContent).toBe('progress 10000 / 10000 · Step 10000 of 10000 (10,000 notifications)');
    expect(log.shadowRoot!.querySelectorAll('[part~="entry"]').length).toBeLessThanOrEqual(40);
    const cap = log.shadowRoot!.querySelector('[part~="cap"]')!.textContent!.replace(/\s+/g, ' ');
    expect(cap).toMatch(/^ ?40 of at most 40 messages kept; \d+ older ones dropped\. ?$/);
    expect(log.matches(':state(capped)')).toBe(true);
  });
});
