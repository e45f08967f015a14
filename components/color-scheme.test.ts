/**
 * Every element follows the page's colour scheme, never the system preference
 * alone (issue 17): on a light-only page with a dark system all five are
 * light, on a dark page with a light system all are dark, and the class and
 * attribute conventions (`class="dark"`, `data-theme`…) count like
 * `color-scheme`. The system preference is emulated through Chromium's
 * DevTools protocol in both directions, and axe checks the contrast inside
 * each element every time.
 */
import axe from 'axe-core';
import { afterAll, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { cdp } from 'vitest/browser';
import type { McpClient } from '../src/index.js';
import './index.js';
import type { McpAppFrame } from './mcp-app-frame/mcp-app-frame.js';
import './mcp-app-frame/mcp-app-frame.js';
import type { McpConnection } from './mcp-connection/mcp-connection.js';
import type { McpElicitationDialog } from './mcp-elicitation-dialog/mcp-elicitation-dialog.js';
import type { McpToolForm } from './mcp-tool-form/mcp-tool-form.js';
import type { McpToolResult } from './mcp-tool-result/mcp-tool-result.js';
import { mount, nextEvent } from './test-support/dom.js';
import { probeResource } from './test-support/probe-app.js';

const url = inject('demoServerUrl');

type Scheme = 'light' | 'dark';

let connection: McpConnection;
let client: McpClient;
let form: McpToolForm;
let result: McpToolResult;
let dialog: McpElicitationDialog;
let frame: McpAppFrame;
let survey: Promise<unknown>;

async function emulateSystem(scheme: Scheme): Promise<void> {
  await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: scheme }] });
  await vi.waitFor(() => expect(matchMedia(`(prefers-color-scheme: ${scheme})`).matches).toBe(true));
}

/** Takes away every scheme declaration the cases make. */
function resetPage(): void {
  const root = document.documentElement;
  root.style.colorScheme = '';
  root.classList.remove('dark', 'light');
  for (const element of [root, document.body]) for (const name of ['data-theme', 'data-bs-theme', 'data-color-scheme']) element.removeAttribute(name);
  document.body.classList.remove('dark', 'light');
  // Pages paint their background (axe takes a transparent page for white): the system colour follows color-scheme.
  document.body.style.background = 'Canvas';
  document.head.querySelector('meta[name="color-scheme"]')?.remove();
}

/** The text colour of each element's main text, by element. */
function texts(): [string, Element][] {
  const inside = (host: Element, selector: string) => host.shadowRoot!.querySelector(selector)!;
  return [
    ['<mcp-connection>', inside(connection, '[part="status"]')],
    ['<mcp-tool-form>', inside(form, '[part="title"]')],
    ['<mcp-tool-result> in the form', inside(inside(form, 'mcp-tool-result'), '[part~="text"]')],
    ['<mcp-tool-result>', inside(result, '[part~="text"]')],
    ['<mcp-elicitation-dialog>', inside(dialog, '[part="title"]')],
    ['<mcp-app-frame>', inside(frame, '[part="label"]')],
  ];
}

/** Whether a colour is light: closer in contrast to black than to white (relative luminance above 0.18). */
function isLight(color: string): boolean {
  const [r, g, b] = color.match(/[\d.]+/g)!.slice(0, 3).map(Number).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.18;
}

/** Light text means a dark scheme, and the other way round. */
function schemes(): Record<string, Scheme> {
  return Object.fromEntries(texts().map(([name, element]) => [name, isLight(getComputedStyle(element).color) ? 'dark' : 'light']));
}

async function contrastViolations(): Promise<{ element: string; targets: string[] }[]> {
  const found: { element: string; targets: string[] }[] = [];
  for (const element of [connection, form, result, dialog, frame]) {
    const run = await axe.run(element, { runOnly: ['color-contrast'], resultTypes: ['violations'] });
    for (const violation of run.violations) found.push({ element: element.localName, targets: violation.nodes.map((node) => node.target.join(' ')) });
  }
  return found;
}

beforeAll(async () => {
  connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen>
    <mcp-tool-form tool-name="get_weather" no-drafts></mcp-tool-form>
    <mcp-elicitation-dialog inline></mcp-elicitation-dialog>
  </mcp-connection>`);
  await nextEvent(connection, 'mcp-connect');
  client = connection.client!;
  form = connection.querySelector('mcp-tool-form')!;
  dialog = connection.querySelector('mcp-elicitation-dialog')!;
  await vi.waitFor(() => expect(form.shadowRoot!.querySelector('[part="submit-button"]')).not.toBeNull());
  await form.submit();
  await vi.waitFor(() => expect(form.shadowRoot!.querySelector('mcp-tool-result')).not.toBeNull());

  result = document.createElement('mcp-tool-result');
  result.result = { content: [{ type: 'text', text: 'A result shown on its own.' }], structuredContent: { ok: true } };
  document.body.append(result);

  // The dialog shows the survey's form (answered never: the call is cancelled at the end).
  survey = client.callTool('survey', {}).catch(() => undefined);
  await vi.waitFor(() => expect(dialog.open).toBe(true));

  frame = document.createElement('mcp-app-frame');
  frame.client = client;
  frame.resource = probeResource();
  frame.label = 'App: Probe';
  const ready = nextEvent(frame, 'mcp-app-ready', 15_000);
  document.body.append(frame);
  await ready;
});

afterAll(async () => {
  resetPage();
  await cdp().send('Emulation.setEmulatedMedia', { features: [] });
  document.body.replaceChildren();
  await survey;
});

const cases: { name: string; system: Scheme; page: () => void; expected: Scheme }[] = [
  { name: 'a light-only page (color-scheme: light) with a dark system', system: 'dark', page: () => (document.documentElement.style.colorScheme = 'light'), expected: 'light' },
  { name: 'a page that declares nothing (drawn light) with a dark system', system: 'dark', page: () => {}, expected: 'light' },
  { name: '<meta name="color-scheme" content="light"> with a dark system', system: 'dark', page: () => document.head.append(Object.assign(document.createElement('meta'), { name: 'color-scheme', content: 'light' })), expected: 'light' },
  { name: 'class="light" on <html> over a dark color-scheme, dark system', system: 'dark', page: () => ((document.documentElement.style.colorScheme = 'dark'), document.documentElement.classList.add('light'), (document.body.style.background = '#ffffff')), expected: 'light' },
  { name: 'a dark page (color-scheme: dark) with a light system', system: 'light', page: () => (document.documentElement.style.colorScheme = 'dark'), expected: 'dark' },
  { name: '<meta name="color-scheme" content="dark"> with a light system', system: 'light', page: () => document.head.append(Object.assign(document.createElement('meta'), { name: 'color-scheme', content: 'dark' })), expected: 'dark' },
  { name: 'class="dark" on <html> (Tailwind) with a light system', system: 'light', page: () => (document.documentElement.classList.add('dark'), (document.body.style.background = '#0d1117')), expected: 'dark' },
  { name: 'data-theme="dark" on <body> with a light system', system: 'light', page: () => (document.body.setAttribute('data-theme', 'dark'), (document.body.style.background = '#0d1117')), expected: 'dark' },
  { name: 'data-bs-theme="dark" on <html> (Bootstrap) with a light system', system: 'light', page: () => (document.documentElement.setAttribute('data-bs-theme', 'dark'), (document.body.style.background = '#0d1117')), expected: 'dark' },
  { name: 'a page that allows both (color-scheme: light dark) with a dark system', system: 'dark', page: () => (document.documentElement.style.colorScheme = 'light dark'), expected: 'dark' },
  { name: 'a page that allows both (color-scheme: light dark) with a light system', system: 'light', page: () => (document.documentElement.style.colorScheme = 'light dark'), expected: 'light' },
];

describe.each(cases)('$name', ({ system, page, expected }) => {
  test(`every element is ${expected}, with no contrast violations`, async () => {
    resetPage();
    await emulateSystem(system);
    page();
    const all = Object.fromEntries(texts().map(([name]) => [name, expected]));
    await vi.waitFor(() => expect(schemes()).toEqual(all));
    expect(await contrastViolations()).toEqual([]);
  });
});

test('the app inside the frame is told the scheme the page switches to by class', async () => {
  resetPage();
  await emulateSystem('dark');
  document.documentElement.style.colorScheme = 'light';
  const themes: string[] = [];
  frame.addEventListener('mcp-app-log', (event) => {
    const data = event.detail.data as { received?: string; params?: { theme?: string } };
    if (data?.received === 'ui/notifications/host-context-changed' && data.params?.theme) themes.push(data.params.theme);
  });
  await vi.waitFor(() => expect(themes.at(-1) ?? 'light').toBe('light'));
  document.documentElement.classList.add('dark');
  await vi.waitFor(() => expect(themes.at(-1)).toBe('dark'));
});
