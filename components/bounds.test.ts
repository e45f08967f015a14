/**
 * Issue 19, item 2: every element renders within a budget whatever the server
 * sends. Real Chromium. Each test states its budget in DOM nodes (all nodes of
 * the element's shadow tree, nested shadow roots included) and in rendered
 * options or items, and counts them: deterministic, unlike time (the page's
 * longest task for the same inputs is in the bench).
 */
import { afterEach, describe, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { McpClient, type CallToolResult } from '../src/index.js';
import './index.js';
import type { McpConnection } from './mcp-connection/mcp-connection.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog/mcp-elicitation-dialog.js';
import type { McpToolForm } from './mcp-tool-form/mcp-tool-form.js';
import type { McpToolResult } from './mcp-tool-result/mcp-tool-result.js';
import { cleanup, mount as mountMarkup, nextEvent } from './test-support/dom.js';
import { click, field, mount, openPreview, ownButton, part, root, submitted, tool, type } from './test-support/tool-form.js';

afterEach(() => cleanup());

// Megabytes through a real server and a real browser: on a busy 2-core machine (load 16 seen)
// one test took over the suite's default 20 s. Budgets here are in nodes, never in time.
vi.setConfig({ testTimeout: 90_000 });

/** Every node under `node`, through shadow roots. */
function nodeCount(node: Node): number {
  let count = 1;
  for (const child of node.childNodes) count += nodeCount(child);
  const shadow = (node as Element).shadowRoot;
  if (shadow) count += nodeCount(shadow);
  return count;
}

const MiB = 1024 * 1024;
/** A form with one hostile field stays under this many nodes (a plain form with a few fields is about 150). */
const FORM_NODES = 600;

describe('<mcp-tool-form>', () => {
  test('an enum of 1,000,000 values is a text input checked against the enum, listing at most 50 matches', async () => {
    const values = Array.from({ length: 1_000_000 }, (_, i) => `city-${i}`);
    const form = await mount({ tool: tool('trip', { type: 'object', properties: { city: { type: 'string', enum: values } }, required: ['city'] }) });
    expect(nodeCount(form)).toBeLessThan(FORM_NODES);
    const input = field(form, '/city').querySelector<HTMLInputElement>('input[role="combobox"]')!;
    expect(root(form).querySelectorAll('[role="option"]')).toHaveLength(0);
    await userEvent.click(input);
    await form.updateComplete;
    expect(root(form).querySelectorAll('[role="option"]')).toHaveLength(50);
    expect(field(form, '/city').textContent).toContain('50 of 1,000,000 matching values listed');
    expect(nodeCount(form)).toBeLessThan(FORM_NODES + 50 * 4);
    await userEvent.type(input, 'city-99999');
    await form.updateComplete;
    // city-99999 and city-999990 … city-999999.
    expect([...root(form).querySelectorAll('[role="option"]')].map((o) => o.textContent!.trim())).toEqual(['city-99999', ...Array.from({ length: 10 }, (_, i) => `city-99999${i}`)]);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await form.updateComplete;
    expect(input.value).toBe('city-999990');
    expect(await submitted(form)).toEqual({ city: 'city-999990' });
    // Text that names no value is kept as typed, flagged, and never sent.
    await userEvent.fill(input, 'Atlantis');
    await userEvent.tab();
    await form.updateComplete;
    expect(await submitted(form)).toBeUndefined();
    expect(field(form, '/city').querySelector('[part~="error"]')!.textContent).toContain('“Atlantis” is not one of the allowed values');
    expect(input.value).toBe('Atlantis');
  });

  test('an array default of 1,000,000 items is previewed, not put in a control, and sent intact', async () => {
    const ids = Array.from({ length: 1_000_000 }, (_, i) => i);
    const form = await mount({ tool: tool('bulk', { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' }, default: ids } } }) });
    expect(nodeCount(form)).toBeLessThan(FORM_NODES);
    const preview = part(field(form, '/ids'), 'long-value');
    expect(preview.textContent!.length).toBeLessThanOrEqual(2_001);
    expect(field(form, '/ids').querySelector('textarea')).toBeNull();
    const args = await submitted(form);
    expect(args!.ids).toHaveLength(1_000_000);
    expect((args!.ids as number[]).at(-1)).toBe(999_999);
    // The preview (and the arguments' preview) printed only as far as shown.
    expect(part(await openPreview(form), 'preview-json').textContent!.length).toBeLessThan(200_100);
  });

  test('a 5 MiB string default, a 5 MiB title and a 5 MiB description: cut for display, with "Show all"; the value is sent as it is', async () => {
    const text = 'x'.repeat(5 * MiB);
    const form = await mount({
      tool: tool('big', { type: 'object', properties: { note: { type: 'string', title: `T${'t'.repeat(5 * MiB)}`, description: `D${'d'.repeat(5 * MiB)}`, default: text } } }, { description: `Tool ${'w'.repeat(5 * MiB)}` }),
    });
    expect(nodeCount(form)).toBeLessThan(FORM_NODES);
    expect(part(root(form), 'description').textContent!.length).toBeLessThanOrEqual(2_001);
    expect(field(form, '/note').querySelector('label')!.textContent!.length).toBeLessThanOrEqual(202);
    expect(part(field(form, '/note'), 'hint').textContent!.length).toBeLessThanOrEqual(2_001);
    expect(field(form, '/note').querySelector('input')).toBeNull();
    expect((await submitted(form))!.note).toBe(text);
    // On request, the whole description and the whole value to edit.
    // (Clicked from script: megabytes of text in the layout put the button beyond what a pointer can reach.)
    [...root(form).querySelectorAll<HTMLButtonElement>('[part~="show-all-button"]')].find((b) => b.closest('[part="header"]'))!.click();
    await form.updateComplete;
    expect(part(root(form), 'description').textContent!.length).toBe(5 * MiB + 5);
    [...field(form, '/note').querySelectorAll<HTMLButtonElement>('[part~="show-all-button"]')].find((b) => b.textContent!.includes('edit'))!.click();
    await form.updateComplete;
    expect(field(form, '/note').querySelector('input')!.value).toBe(text);
  });

  test('a recursive $defs tree whose children are required folds past the first level; unfolding goes one level at a time and keeps what was typed', async () => {
    const node = { type: 'object', required: ['name', 'left', 'right'], properties: { name: { type: 'string' }, left: { $ref: '#/$defs/node' }, right: { $ref: '#/$defs/node' } } };
    const form = await mount({ tool: tool('tree', { type: 'object', $defs: { node }, properties: { root: { $ref: '#/$defs/node' } }, required: ['root'] }) });
    expect(nodeCount(form)).toBeLessThan(FORM_NODES);
    expect(root(form).querySelectorAll('[data-pointer]').length).toBeLessThan(10);
    await type(form, '/root/name', 'top');
    await click(form, ownButton(form, '/root/left', 'add-button'));
    await type(form, '/root/left/name', 'left');
    await click(form, ownButton(form, '/root/left/right', 'add-button'));
    await type(form, '/root/left/right/name', 'left-right');
    expect(nodeCount(form)).toBeLessThan(FORM_NODES);
    expect(form.value).toEqual({ root: { name: 'top', left: { name: 'left', left: {}, right: { name: 'left-right', left: {}, right: {} } }, right: {} } });
    // No value can satisfy an endless required tree: the call is refused with the problems listed, not a frozen page.
    expect(await submitted(form)).toBeUndefined();
    expect(part(root(form), 'error-summary').textContent).toMatch(/problems? to fix/);
  });

  test('4,900 properties are shown 100 at a time; what is filled in or wrong always shows', async () => {
    const properties = Object.fromEntries(Array.from({ length: 4900 }, (_, i) => [`p${i}`, { type: 'string', description: `Field ${i}` }]));
    const form = await mount({ tool: tool('wide', { type: 'object', properties, required: ['p4899'] }) });
    expect(root(form).querySelectorAll('[data-pointer]')).toHaveLength(101);
    // About 30 nodes per text field.
    expect(nodeCount(form)).toBeLessThan(100 * 40 + FORM_NODES);
    const more = part(root(form), 'show-more-button');
    expect(more.textContent).toContain('(4,800 not shown yet)');
    await click(form, more);
    expect(root(form).querySelectorAll('[data-pointer]')).toHaveLength(201);
    // A required field past the pages shown: the refused call shows it, and focus goes there.
    expect(await submitted(form)).toBeUndefined();
    await vi.waitFor(() => expect(field(form, '/p4899').hasAttribute('data-invalid')).toBe(true));
    expect(root(form).querySelectorAll('[data-pointer]')).toHaveLength(202);
    expect(root(form).activeElement).toBe(field(form, '/p4899').querySelector('input'));
  });
});

describe('<mcp-tool-result>', () => {
  test('50,000 content blocks: 100 rendered, then 100 more on request', async () => {
    const element = document.createElement('mcp-tool-result') as McpToolResult;
    element.result = { content: Array.from({ length: 50_000 }, (_, i) => ({ type: 'text', text: `block ${i}` })) } as CallToolResult;
    document.body.append(element);
    await element.updateComplete;
    expect(element.shadowRoot!.querySelectorAll('[part~="block"]')).toHaveLength(100);
    expect(nodeCount(element)).toBeLessThan(100 * 12 + 100);
    const more = part(element.shadowRoot!, 'show-more-button');
    expect(more.textContent).toContain('(49,900 not shown yet)');
    await userEvent.click(more);
    await element.updateComplete;
    expect(element.shadowRoot!.querySelectorAll('[part~="block"]')).toHaveLength(200);
    expect(element.shadowRoot!.querySelectorAll('[part~="block"]')[199]!.textContent!.trim()).toBe('block 199');
  });

  test('a linked resource read as 50,000 contents: 100 rendered, then 100 more on request', async () => {
    const element = document.createElement('mcp-tool-result') as McpToolResult;
    element.client = new McpClient(inject('hostileServerUrl'), { onWarning: () => {} });
    element.result = { content: [{ type: 'resource_link', uri: 'hostile://many', name: 'Many' }] } as CallToolResult;
    document.body.append(element);
    await element.updateComplete;
    await userEvent.click(part(element.shadowRoot!, 'read-button'));
    await vi.waitFor(() => expect(element.shadowRoot!.querySelector('[part~="read-contents"]')).not.toBeNull(), { timeout: 15_000 });
    const shown = () => element.shadowRoot!.querySelectorAll('[part~="read-contents"] [part~="resource-text"]');
    expect(shown()).toHaveLength(100);
    // About 14 nodes a content (URI, type, text and the whitespace between them).
    expect(nodeCount(element)).toBeLessThan(100 * 14 + 100);
    const more = part(element.shadowRoot!, 'show-more-button');
    expect(more.textContent).toContain('(49,900 not shown yet)');
    await userEvent.click(more);
    await element.updateComplete;
    expect(shown()).toHaveLength(200);
    expect(shown()[199]!.textContent).toBe('content 199');
  });

  test('blocks of 5 MiB of text: the first is cut, and the budget of text holds the rest back', async () => {
    const element = document.createElement('mcp-tool-result') as McpToolResult;
    element.result = { content: Array.from({ length: 10 }, () => ({ type: 'text', text: 't'.repeat(5 * MiB) })) } as CallToolResult;
    document.body.append(element);
    await element.updateComplete;
    const shown = [...element.shadowRoot!.querySelectorAll('[part~="text"]')].reduce((sum, pre) => sum + pre.textContent!.length, 0);
    expect(shown).toBeLessThanOrEqual(400_010);
    expect(part(element.shadowRoot!, 'show-more-button')).toBeTruthy();
  });
});

describe('a server that sends megabytes of names', () => {
  test('a 5 MiB server name, 10 MiB of instructions and 5 MiB tool descriptions: the connection settles and shows them cut', async () => {
    const connection = mountMarkup<McpConnection>(`<mcp-connection server-url="${inject('hugeServerUrl')}" no-listen><mcp-tool-form tool-name="quiet" no-drafts></mcp-tool-form></mcp-connection>`);
    await nextEvent(connection, 'mcp-connect', 30_000);
    const form = connection.querySelector('mcp-tool-form') as McpToolForm;
    await vi.waitFor(() => expect(form.shadowRoot!.querySelector('[part~="description"]')).not.toBeNull(), { timeout: 30_000 });
    expect(connection.shadowRoot!.querySelector('[part="server-name"]')!.textContent!.length).toBeLessThanOrEqual(121);
    expect(form.shadowRoot!.querySelector('[part~="description"]')!.textContent!.length).toBeLessThanOrEqual(2_001);
    expect(nodeCount(connection)).toBeLessThan(FORM_NODES);
  });
});

describe('<mcp-elicitation-dialog>', () => {
  test('a 5 MiB message, 1,000,000 choices, 100,000 tags and a 1 MiB default: shown within budget, answered, sent intact', async () => {
    const connection = mountMarkup<McpConnection>(`<mcp-connection server-url="${inject('hostileServerUrl')}" no-listen><mcp-elicitation-dialog></mcp-elicitation-dialog></mcp-connection>`);
    await nextEvent(connection, 'mcp-connect');
    const dialog = connection.querySelector('mcp-elicitation-dialog') as McpElicitationDialog;
    const client = connection.client as McpClient;
    const call = client.callTool('huge_question', {});
    call.catch(() => undefined);
    const shadow = dialog.shadowRoot!;
    // Generous: 5 MiB and a million choices arrive and are parsed first (a waitFor of 15 s ran out at load 20); the bounds below are what is asserted.
    await vi.waitFor(() => expect(shadow.querySelector('dialog')!.open).toBe(true), { timeout: 60_000 });
    expect(nodeCount(dialog)).toBeLessThan(600);
    expect(shadow.querySelector('[part="message"]')!.textContent!.length).toBeLessThanOrEqual(2_001);
    // Tags: a search box and 50 of the 100,000 values.
    expect(shadow.querySelectorAll('[data-field="tags"] input[type="checkbox"]')).toHaveLength(50);
    const city = shadow.querySelector<HTMLInputElement>('[data-field="city"] input[role="combobox"]')!;
    await userEvent.click(city);
    await dialog.updateComplete;
    expect(shadow.querySelectorAll('[role="option"]')).toHaveLength(50);
    await userEvent.type(city, 'city-424242');
    await dialog.updateComplete;
    expect(shadow.querySelectorAll('[role="option"]')).toHaveLength(1);
    await userEvent.keyboard('{Enter}');
    await userEvent.click(shadow.querySelector<HTMLInputElement>('[data-field="tags"] input[type="search"]')!);
    await userEvent.keyboard('tag-99999');
    await dialog.updateComplete;
    await userEvent.click(shadow.querySelector<HTMLInputElement>('[data-field="tags"] input[type="checkbox"]')!);
    await userEvent.click(shadow.querySelector<HTMLButtonElement>('[data-action="review"]')!);
    await userEvent.click(shadow.querySelector<HTMLButtonElement>('[data-action="accept"]')!);
    const result = (await call) as CallToolResult;
    const text = (result.content![0] as { text: string }).text;
    expect(text).toContain('"city":"city-424242"');
    expect(text).toContain('"tags":["tag-99999"]');
    // The 1 MiB default went back as it was.
    expect(text).toContain(`"note":"n${'o'.repeat(MiB)}"`);
  }, 180_000);
});
