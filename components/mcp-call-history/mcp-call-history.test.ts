/**
 * `<mcp-call-history>` in real Chromium against the real demo server: calls
 * of the connection's tool form, resource reads and prompt gets recorded with
 * their outcome and duration, kept per server across a new element (a
 * reload), capped, shown again, re-run and edited into the form.
 */
import { afterEach, beforeEach, describe, expect, inject, test, vi } from 'vitest';
import '../index.js';
import '../inspector.js';
import { axeViolations, cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import type { McpToolForm } from '../mcp-tool-form/mcp-tool-form.js';
import type { McpResourceList } from '../mcp-resource-list/mcp-resource-list.js';
import type { McpCallHistory } from './mcp-call-history.js';
import { clearCalls, loadCalls, summarize } from './records.js';

const url = inject('demoServerUrl');

beforeEach(async () => {
  cleanup();
  await clearCalls(url);
});
afterEach(() => cleanup());

async function setup(limit = 50): Promise<{ connection: McpConnection; form: McpToolForm; history: McpCallHistory }> {
  const connection = mount<McpConnection>(
    `<mcp-connection server-url="${url}" no-listen><mcp-tool-form tool-name="get_weather" no-drafts></mcp-tool-form><mcp-call-history limit="${limit}"></mcp-call-history><mcp-resource-list no-subscribe></mcp-resource-list></mcp-connection>`,
  );
  await nextEvent(connection, 'mcp-connect');
  const form = connection.querySelector<McpToolForm>('mcp-tool-form')!;
  const history = connection.querySelector<McpCallHistory>('mcp-call-history')!;
  await form.updateComplete;
  return { connection, form, history };
}

async function call(form: McpToolForm, city: string): Promise<void> {
  form.arguments = { city };
  await form.updateComplete;
  expect(await form.submit()).toBeDefined();
}

const rows = (history: McpCallHistory) => [...history.shadowRoot!.querySelectorAll('[part~="entry"]')];

describe('<mcp-call-history>', () => {
  test('records each call with its arguments, outcome and duration, newest first, and keeps them for the next page', async () => {
    const { history, form } = await setup();
    await call(form, 'Lisbon');
    await call(form, 'Porto');
    await history.updateComplete;
    expect(history.records.map((r) => [r.kind, r.name, r.arguments, r.outcome])).toEqual([
      ['tool', 'get_weather', { city: 'Porto' }, 'ok'],
      ['tool', 'get_weather', { city: 'Lisbon' }, 'ok'],
    ]);
    for (const record of history.records) expect(record.durationMs).toBeGreaterThanOrEqual(0);
    expect(history.records[0]!.result).toMatchObject({ structuredContent: { city: 'Porto' } });
    expect(rows(history).map((row) => row.querySelector('[part~="summary"]')!.textContent)).toEqual(['city: "Porto"', 'city: "Lisbon"']);
    // Stored per server, without credentials in the key: a new element (a reload) lists them.
    await vi.waitFor(async () => expect((await loadCalls(url)).map((r) => r.arguments.city)).toEqual(['Porto', 'Lisbon']));
    cleanup();
    const again = await setup();
    await vi.waitFor(() => expect(again.history.records.map((r) => r.arguments.city)).toEqual(['Porto', 'Lisbon']));
    expect(await axeViolations(again.history)).toEqual([]);
  });

  test('keeps the newest `limit` records', async () => {
    const { history, form } = await setup(2);
    for (const city of ['A-town', 'B-town', 'C-town']) await call(form, city);
    await history.updateComplete;
    expect(history.records.map((r) => r.arguments.city)).toEqual(['C-town', 'B-town']);
    await vi.waitFor(async () => expect((await loadCalls(url)).map((r) => r.arguments.city)).toEqual(['C-town', 'B-town']));
  });

  test('a selected record shows its arguments and result; Edit fills the form, Re-run calls again through it', async () => {
    const { history, form, connection } = await setup();
    await call(form, 'Faro');
    form.toolName = 'create_ticket';
    await form.updateComplete;
    await history.updateComplete;
    history.shadowRoot!.querySelector<HTMLButtonElement>('[part~="entry-button"]')!.click();
    await history.updateComplete;
    const detail = history.shadowRoot!.querySelector('[part~="detail"]')!;
    expect(detail.querySelector('[aria-label="Arguments"]')!.textContent).toContain('"city": "Faro"');
    expect(detail.querySelector('[aria-label="Result"]')!.textContent).toContain('Faro');
    expect(await axeViolations(history)).toEqual([]);

    const edits: unknown[] = [];
    connection.addEventListener('mcp-history-edit', (event) => edits.push(event.detail.record.arguments));
    detail.querySelector<HTMLButtonElement>('[part~="edit-button"]')!.click();
    await vi.waitFor(() => expect(form.toolName).toBe('get_weather'));
    await form.updateComplete;
    expect(form.value).toEqual({ city: 'Faro' });
    expect(edits).toEqual([{ city: 'Faro' }]);

    form.arguments = { city: 'Elsewhere' };
    await form.updateComplete;
    detail.querySelector<HTMLButtonElement>('[part~="rerun-button"]')!.click();
    await vi.waitFor(() => expect(history.records).toHaveLength(2), { timeout: 10_000 });
    await vi.waitFor(() => expect(history.records[0]!.outcome).toBe('ok'), { timeout: 10_000 });
    // The record's arguments, not what the form held.
    expect(history.records[0]!.arguments).toEqual({ city: 'Faro' });
  });

  test('a listener that prevents Re-run stops it', async () => {
    const { history, form, connection } = await setup();
    await call(form, 'Tavira');
    connection.addEventListener('mcp-history-rerun', (event) => event.preventDefault());
    await history.rerun(history.records[0]!.id);
    expect(history.records).toHaveLength(1);
  });

  test('a resource read is recorded with its URI and duration', async () => {
    const { history, connection } = await setup();
    const list = connection.querySelector<McpResourceList>('mcp-resource-list')!;
    await vi.waitFor(() => expect(list.resources.length).toBeGreaterThan(0), { timeout: 10_000 });
    await list.read('demo://readme', true);
    await vi.waitFor(() => expect(history.records[0]?.kind).toBe('resource'));
    expect(history.records[0]).toMatchObject({ name: 'demo://readme', outcome: 'ok' });
    expect(history.records[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  test('summaries are one bounded line', () => {
    expect(summarize({ city: 'Lisbon', days: 3, nested: { a: [1, 2] } })).toBe('city: "Lisbon", days: 3, nested: { "a": [ 1, 2 ] }');
    expect(summarize({ text: 'x'.repeat(500) }).length).toBeLessThanOrEqual(120);
  });
});
