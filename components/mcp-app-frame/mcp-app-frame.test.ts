/**
 * `<mcp-app-frame>` in real Chromium against the real demo server: the
 * handshake, tool input and result reaching the app, the app's tool calls
 * (approved, refused by policy, not visible to apps), links, size and theme,
 * the double-iframe sandbox proxy on a second origin, and accessibility.
 */
import { afterEach, describe, expect, inject, test } from 'vitest';
import { page } from 'vitest/browser';
import { McpClient, type CallToolResult, type Tool } from '../../src/index.js';
import { axeViolations, nextEvent } from '../test-support/dom.js';
import { alwaysAllowedTools, revokeAlwaysAllowedTool } from './app-consent.js';
import { appResourceUri, UI_EXTENSION } from './app-meta.js';
import { STYLE_VARIABLES } from './app-styles.js';
import { McpAppFrame } from './mcp-app-frame.js';
import { probeResource } from '../test-support/probe-app.js';

afterEach(() => document.body.replaceChildren());

let shared: { client: McpClient; tools: Tool[] } | undefined;
async function demo(): Promise<{ client: McpClient; tools: Tool[] }> {
  if (!shared) {
    const client = new McpClient(inject('demoServerUrl'), { onWarning: () => {} });
    shared = { client, tools: await client.listTools() };
  }
  return shared;
}
const toolNamed = (tools: Tool[], name: string) => tools.find((t) => t.name === name)!;

/** Mounts a frame configured by `setup` and waits for the app's handshake. */
async function mountFrame(setup: (frame: McpAppFrame) => void): Promise<{ frame: McpAppFrame; logs: unknown[] }> {
  const frame = document.createElement('mcp-app-frame');
  const logs: unknown[] = [];
  frame.addEventListener('mcp-app-log', (event) => {
    if (event.detail.logger === 'probe') logs.push(event.detail.data);
  });
  setup(frame);
  const ready = nextEvent(frame, 'mcp-app-ready', 15_000);
  document.body.append(frame);
  await ready;
  return { frame, logs };
}

/** Waits until the probe logged something matching `match`; returns it. */
async function logged<T = Record<string, unknown>>(logs: unknown[], match: (entry: Record<string, unknown>) => boolean): Promise<T> {
  let found: unknown;
  await expect.poll(() => (found = logs.find((entry) => typeof entry === 'object' && entry !== null && match(entry as Record<string, unknown>))), { timeout: 10_000 }).toBeDefined();
  return found as T;
}

const iframeOf = (frame: McpAppFrame) => frame.shadowRoot!.querySelector('iframe')!;
const part = <T extends Element = HTMLElement>(frame: McpAppFrame, name: string) => frame.shadowRoot!.querySelector<T>(`[part~="${name}"]`);

/** Runs the probe with `actions` on the demo server's client; returns the frame and its log. */
async function probe(actions: unknown[], setup: (frame: McpAppFrame) => void = () => {}) {
  const { client } = await demo();
  return mountFrame((f) => {
    f.client = client;
    f.resource = probeResource();
    f.arguments = { actions };
    setup(f);
  });
}
type Outcome = { outcome: { ok: boolean; result?: Record<string, unknown>; error?: { code: number; message: string } } };
const outcome = (logs: unknown[], index: number) => logged<Outcome>(logs, (e) => e.action === index).then((e) => e.outcome);
const callTool = (name: string, args: Record<string, unknown>) => ({ do: 'request', method: 'tools/call', params: { name, arguments: args } });
const hostLocator = (frame: McpAppFrame) => page.elementLocator(frame);

describe('against the demo server', () => {
  test('the chart app: handshake, then tool input and tool result reach it, and it draws them', async () => {
    const { client, tools } = await demo();
    const tool = toolNamed(tools, 'show_chart');
    expect(appResourceUri(tool)).toBe('ui://demo/chart.html');
    const said: unknown[] = [];
    const frame = document.createElement('mcp-app-frame');
    frame.addEventListener('mcp-app-log', (event) => {
      if (event.detail.logger === 'chart') said.push(event.detail.data);
    });
    frame.client = client;
    frame.tool = tool;
    frame.arguments = { metric: 'sales', days: 5 };
    const ready = nextEvent<import('../events.js').McpAppReadyEvent>(frame, 'mcp-app-ready', 15_000);
    document.body.append(frame);
    const detail = (await ready).detail;
    expect(detail.app).toEqual({ tool, resourceUri: 'ui://demo/chart.html', appInfo: { name: 'Demo chart', version: '1.0.0' } });
    expect(detail.appCapabilities).toEqual({ availableDisplayModes: ['inline', 'fullscreen'] });
    expect(frame.status).toBe('ready');
    expect(frame.matches(':state(ready)')).toBe(true);
    const iframe = iframeOf(frame);
    expect(iframe.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
    expect(iframe.title).toBe('App: Chart');
    expect(iframe.srcdoc).toMatch(/^<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src 'none'; /);
    // The input comes first: the app says what it waits for.
    await expect.poll(() => said, { timeout: 10_000 }).toContain('Loading sales…');
    frame.result = (await client.callTool('show_chart', { metric: 'sales', days: 5 })) as CallToolResult;
    await expect.poll(() => said, { timeout: 10_000 }).toContain('Drew Sales, last 5 days');
  });

  test('tool input and result arrive in order after the handshake, partial input first', async () => {
    const { logs, frame } = await probe([], (f) => {
      f.arguments = undefined;
      f.partialArguments = { metric: 'sa' };
    });
    await logged(logs, (e) => e.received === 'ui/notifications/tool-input-partial');
    frame.arguments = { metric: 'sales' };
    frame.result = { content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 } };
    await logged(logs, (e) => e.received === 'ui/notifications/tool-result');
    const received = logs
      .map((e) => e as Record<string, unknown>)
      .filter((e) => typeof e.received === 'string' && e.received.includes('/tool-'))
      .map(({ received, params }) => ({ received, params }));
    expect(received).toEqual([
      { received: 'ui/notifications/tool-input-partial', params: { arguments: { metric: 'sa' } } },
      { received: 'ui/notifications/tool-input', params: { arguments: { metric: 'sales' } } },
      { received: 'ui/notifications/tool-result', params: { content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 } } },
    ]);
  });

  test('a read-only tool visible to apps runs without asking', async () => {
    const { frame, logs } = await probe([callTool('chart_data', { metric: 'sales', days: 3 })]);
    const result = await outcome(logs, 0);
    expect(result.ok).toBe(true);
    expect((result.result!.structuredContent as { points: unknown[] }).points).toHaveLength(3);
    expect(part(frame, 'prompt')).toBeNull();
  });

  test('a call the user approves runs: the server saved the note and the app gets the result', async () => {
    const { client } = await demo();
    const { frame, logs } = await probe([callTool('save_chart_note', { metric: 'probe', total: 7 })]);
    const prompt = hostLocator(frame).getByRole('alertdialog');
    await expect.element(prompt, { timeout: 10_000 }).toHaveTextContent('“Probe” wants to call the tool Save chart note (save_chart_note) with these arguments:');
    await expect.element(prompt, { timeout: 10_000 }).toHaveTextContent('"total": 7');
    expect(frame.matches(':state(asking)')).toBe(true);
    expect(frame.shadowRoot!.activeElement?.textContent).toBe('Deny');
    await hostLocator(frame).getByRole('button', { name: 'Allow' }).click();
    const result = await outcome(logs, 0);
    expect(result).toMatchObject({ ok: true, result: expect.objectContaining({ content: [{ type: 'text', text: 'Saved note chart-probe: total probe 7' }] }) });
    expect(JSON.stringify(await client.readResource('demo://notes/chart-probe'))).toContain('Total probe: 7');
  });

  test('arguments longer than the question shows: Allow waits until the user has shown them all; the tool\'s name is shown beside its title', async () => {
    // A hostile app puts a screenful of padding first, so the part that matters would be cut off.
    const padding = 'p'.repeat(6_000);
    const { frame, logs } = await probe([callTool('save_chart_note', { padding, metric: 'hidden-after-padding', total: 1 })]);
    const host = hostLocator(frame);
    const prompt = host.getByRole('alertdialog');
    await expect.element(prompt, { timeout: 10_000 }).toHaveTextContent('wants to call the tool Save chart note (save_chart_note) with these arguments:');
    const detail = part(frame, 'prompt-detail')!;
    expect(detail.textContent).not.toContain('hidden-after-padding');
    const allow = part<HTMLButtonElement>(frame, 'allow-button')!;
    expect(allow.disabled).toBe(true);
    // A click on it (a script's, or one aimed there) does not run the call.
    allow.click();
    expect(part(frame, 'prompt')).not.toBeNull();
    expect(frame.matches(':state(asking)')).toBe(true);
    await host.getByRole('button', { name: /^Show all [\d,]+ characters$/ }).click();
    await expect.poll(() => part(frame, 'prompt-detail')?.textContent ?? '').toContain('"metric": "hidden-after-padding"');
    expect(part(frame, 'prompt-note')).toBeNull();
    await host.getByRole('button', { name: 'Allow' }).click();
    expect((await outcome(logs, 0)).ok).toBe(true);
  });

  test('a click that lands on Allow as the question opens (one the app invited) does not answer it; Allow works once the question has been seen', async () => {
    const seenAtOpen: boolean[] = [];
    let observer: MutationObserver | undefined;
    const { frame, logs } = await probe([callTool('save_chart_note', { metric: 'instant', total: 2 })], (f) => {
      // Watches the question appear: this runs right after the render that shows it, as a
      // double click's second click could.
      observer = new MutationObserver(() => {
        const allow = f.shadowRoot?.querySelector<HTMLButtonElement>('[part~="allow-button"]');
        if (!allow || seenAtOpen.length > 0) return;
        seenAtOpen.push(allow.disabled);
        allow.click();
      });
      queueMicrotask(() => observer!.observe(f.shadowRoot!, { childList: true, subtree: true, attributes: true }));
    });
    try {
      await expect.poll(() => seenAtOpen.length, { timeout: 10_000 }).toBe(1);
      expect(seenAtOpen).toEqual([true]);
      // The click answered nothing: the question is still open.
      await frame.updateComplete;
      expect(part(frame, 'prompt')).not.toBeNull();
      expect(frame.matches(':state(asking)')).toBe(true);
      // Enabled a moment later: a deliberate click allows the call.
      await expect.poll(() => part<HTMLButtonElement>(frame, 'allow-button')?.disabled, { timeout: 10_000 }).toBe(false);
      await hostLocator(frame).getByRole('button', { name: 'Allow' }).click();
      expect((await outcome(logs, 0)).ok).toBe(true);
    } finally {
      observer?.disconnect();
    }
  });

  test('a question that would open under a sticky bar the page declares (scroll-padding) opens above it, focused on Deny', async () => {
    // The chat sample's case: the frame near the bottom, a sticky composer over the last
    // pixels of the viewport. A question hidden under it leaves the user with an app that
    // says "Saving…" and nothing to answer (and a click there first scrolls the page).
    const bar = 220;
    document.documentElement.style.scrollPaddingBottom = `${bar}px`;
    const spacer = document.createElement('div');
    const footer = document.createElement('div');
    // Fixed, with its room kept at the end of the page (as such pages do).
    footer.style.cssText = `position:fixed;left:0;right:0;bottom:0;height:${bar}px;background:#eee`;
    const room = document.createElement('div');
    room.style.height = `${bar}px`;
    try {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      const { frame, logs } = await probe([callTool('save_chart_note', { metric: 'hidden', total: 3 })], (f) => {
        // The question waits until the layout below is set up.
        f.policy = () => opened.then(() => undefined);
      });
      frame.before(spacer);
      frame.after(room, footer);
      // The frame ends just above the bar: the question will open under it, inside the viewport.
      spacer.style.height = `${innerHeight - bar - frame.getBoundingClientRect().height - 10}px`;
      scrollTo(0, 0);
      expect(scrollY).toBe(0);
      open();
      await expect.element(hostLocator(frame).getByRole('alertdialog'), { timeout: 10_000 }).toBeVisible();
      const prompt = part(frame, 'prompt')!;
      await expect.poll(() => prompt.getBoundingClientRect().bottom, { timeout: 10_000 }).toBeLessThanOrEqual(innerHeight - bar + 1);
      expect(prompt.getBoundingClientRect().top).toBeGreaterThanOrEqual(0);
      expect(scrollY).toBeGreaterThan(0);
      // The decision still starts on Deny.
      expect(frame.shadowRoot!.activeElement?.textContent).toBe('Deny');
      await hostLocator(frame).getByRole('button', { name: 'Deny' }).click();
      expect((await outcome(logs, 0)).error?.code).toBe(-32000);
    } finally {
      document.documentElement.style.scrollPaddingBottom = '';
      for (const added of [spacer, room, footer]) added.remove();
    }
  });

  test('consent: the app\'s own tool runs unasked; "Allow for this app" lasts the frame\'s life; "Always allow" is kept for the server until revoked; a destructive tool always asks', async () => {
    const { client } = await demo();
    const server = client.url.href;
    await revokeAlwaysAllowedTool(server, 'edit_note');
    const editNote = (text: string) => callTool('edit_note', { name: 'consent-test', text });
    const buttons = (frame: McpAppFrame) => [...frame.shadowRoot!.querySelectorAll('[part~="prompt"] button')].map((b) => b.textContent);

    // count_chart_view: visible to apps only, not destructive (and not read-only): no question.
    const first = await probe([callTool('count_chart_view', { metric: 'sales' }), editNote('one'), editNote('two'), callTool('save_chart_note', { metric: 'consent', total: 1 })]);
    expect(await outcome(first.logs, 0)).toMatchObject({ ok: true, result: { structuredContent: { metric: 'sales' } } });
    await expect.element(hostLocator(first.frame).getByRole('alertdialog')).toHaveTextContent('wants to call the tool Edit a note (edit_note)');
    expect(buttons(first.frame)).toEqual(['Allow', 'Allow for this app', 'Always allow this tool for this server', 'Deny']);
    await hostLocator(first.frame).getByRole('button', { name: 'Allow for this app', exact: true }).click();
    expect((await outcome(first.logs, 1)).ok).toBe(true);
    // The second call of the same tool from the same app: not asked again.
    expect((await outcome(first.logs, 2)).ok).toBe(true);
    // save_chart_note is destructiveHint: asked, with no way to remember the answer.
    await expect.element(hostLocator(first.frame).getByRole('alertdialog')).toHaveTextContent('Save chart note (save_chart_note)');
    expect(buttons(first.frame)).toEqual(['Allow', 'Deny']);
    await hostLocator(first.frame).getByRole('button', { name: 'Deny' }).click();
    expect((await outcome(first.logs, 3)).ok).toBe(false);
    first.frame.remove();

    // Another frame is another app: asked again; this time always allowed for the server.
    const second = await probe([editNote('three')]);
    await hostLocator(second.frame).getByRole('button', { name: 'Always allow this tool for this server', exact: true }).click();
    expect((await outcome(second.logs, 0)).ok).toBe(true);
    expect((await alwaysAllowedTools()).filter((g) => g.server === server).map((g) => g.tool)).toEqual(['edit_note']);
    second.frame.remove();

    const third = await probe([editNote('four')]);
    expect((await outcome(third.logs, 0)).ok).toBe(true);
    expect(part(third.frame, 'prompt')).toBeNull();
    third.frame.remove();
    expect(JSON.stringify(await client.readResource('demo://notes/consent-test'))).toContain('four');

    // Revoked: the next call asks again.
    await revokeAlwaysAllowedTool(server, 'edit_note');
    expect((await alwaysAllowedTools()).some((g) => g.server === server && g.tool === 'edit_note')).toBe(false);
    const fourth = await probe([editNote('five')]);
    await hostLocator(fourth.frame).getByRole('button', { name: 'Deny' }).click();
    expect((await outcome(fourth.logs, 0)).ok).toBe(false);
  });

  test('refused: by the user, by policy "read-only", by a policy function, and a tool not visible to apps', async () => {
    const denied = await probe([callTool('save_chart_note', { metric: 'x', total: 1 })]);
    await hostLocator(denied.frame).getByRole('button', { name: 'Deny' }).click();
    expect((await outcome(denied.logs, 0)).error).toEqual({ code: -32000, message: 'The call to "save_chart_note" was refused by the host\'s policy or the user' });
    denied.frame.remove();

    const readOnly = await probe([callTool('save_chart_note', { metric: 'x', total: 1 }), callTool('chart_data', { metric: 'sales', days: 3 })], (f) => (f.policy = 'read-only'));
    expect((await outcome(readOnly.logs, 0)).error?.message).toBe('The call to "save_chart_note" was refused by the host\'s policy or the user');
    expect((await outcome(readOnly.logs, 1)).ok).toBe(true);
    expect(part(readOnly.frame, 'prompt')).toBeNull();
    readOnly.frame.remove();

    const seen: string[] = [];
    const fn = await probe([callTool('chart_data', { metric: 'sales', days: 3 })], (f) => {
      f.policy = (call) => {
        seen.push(`${call.tool.name} ${JSON.stringify(call.arguments)} from ${call.app.appInfo?.name}`);
        return false;
      };
    });
    expect((await outcome(fn.logs, 0)).error?.message).toBe('The call to "chart_data" was refused by the host\'s policy or the user');
    expect(seen).toEqual(['chart_data {"metric":"sales","days":3} from Probe']);
    fn.frame.remove();

    const { client } = await demo();
    const hidden = await probe([callTool('delete_notes', {}), { do: 'request', method: 'tools/list', params: {} }], (f) => (f.policy = 'allow'));
    expect((await outcome(hidden.logs, 0)).error).toEqual({ code: -32000, message: 'The tool "delete_notes" is not visible to apps (_meta.ui.visibility)' });
    const names = ((await outcome(hidden.logs, 1)).result!.tools as Tool[]).map((t) => t.name);
    expect(names).toContain('chart_data');
    expect(names).toContain('save_chart_note');
    expect(names).not.toContain('delete_notes');
    expect(JSON.stringify(await client.readResource('demo://notes/welcome'))).toContain('Welcome to the mcp-web-elements demo!');
  });

  test('ui/open-link: the user sees the host and the URL, and the link opens with noopener; javascript: is refused unasked', async () => {
    const opened: unknown[][] = [];
    const original = window.open;
    window.open = ((...args: unknown[]) => {
      opened.push(args);
      return null;
    }) as typeof window.open;
    try {
      const { frame, logs } = await probe([
        { do: 'request', method: 'ui/open-link', params: { url: 'javascript:alert(1)' } },
        { do: 'request', method: 'ui/open-link', params: { url: 'https://example.com/mcp-web-elements/chart-data' } },
      ]);
      expect((await outcome(logs, 0)).error).toEqual({ code: -32000, message: 'Only http and https links are opened, not javascript:' });
      const prompt = hostLocator(frame).getByRole('alertdialog');
      await expect.element(prompt, { timeout: 10_000 }).toHaveTextContent('wants to open a page on example.com');
      await expect.element(prompt, { timeout: 10_000 }).toHaveTextContent('https://example.com/mcp-web-elements/chart-data');
      await hostLocator(frame).getByRole('button', { name: 'Open example.com' }).click();
      expect((await outcome(logs, 1)).ok).toBe(true);
      expect(opened).toEqual([['https://example.com/mcp-web-elements/chart-data', '_blank', 'noopener,noreferrer']]);
    } finally {
      window.open = original;
    }
  });

  test('ui/download-file: cancelled by the user, the app gets isError; a path in the name is cleaned; a link is refused unasked', async () => {
    const download = (contents: unknown[]) => ({ do: 'request', method: 'ui/download-file', params: { contents } });
    const file = { type: 'resource', resource: { uri: 'file:///tmp/..%2F..%2Fetc%2Fpasswd', mimeType: 'text/plain', text: 'x' } };
    const { frame, logs } = await probe([download([file]), download([{ type: 'resource_link', uri: 'https://example.com/a.pdf', name: 'a.pdf' }])]);
    const prompt = hostLocator(frame).getByRole('alertdialog');
    await expect.element(prompt).toHaveTextContent('“Probe” wants to save a file from');
    // The name's path separators are not a path: one file name, offered as such.
    await expect.element(prompt).toHaveTextContent('_.._etc_passwd (1 bytes)');
    await hostLocator(frame).getByRole('button', { name: 'Cancel' }).click();
    expect(await outcome(logs, 0)).toEqual({ ok: true, result: { isError: true }, attempts: 1 });
    expect((await outcome(logs, 1)).error).toMatchObject({ code: -32602, message: expect.stringContaining('Only embedded resources') });
  });

  test('ui/message and ui/update-model-context are cancelable events; unhandled, the app is told no', async () => {
    const message = { do: 'request', method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'What stands out?' }] } };
    const context = { do: 'request', method: 'ui/update-model-context', params: { structuredContent: { metric: 'sales' } } };
    const unhandled = await probe([message, context]);
    expect((await outcome(unhandled.logs, 0)).error?.message).toBe('No chat on this page takes messages from apps');
    expect((await outcome(unhandled.logs, 1)).error?.message).toBe('This page keeps no model context from apps');
    unhandled.frame.remove();
    const got: unknown[] = [];
    const handled = await probe([message, context], (f) => {
      f.addEventListener('mcp-app-message', (event) => {
        event.preventDefault();
        got.push(event.detail.content);
      });
      f.addEventListener('mcp-app-model-context', (event) => {
        event.preventDefault();
        event.detail.respondWith(Promise.reject(new Error('Context is full')));
      });
    });
    expect((await outcome(handled.logs, 0)).ok).toBe(true);
    expect(got).toEqual([[{ type: 'text', text: 'What stands out?' }]]);
    expect((await outcome(handled.logs, 1)).error?.message).toBe('Context is full');
  });

  test('the frame follows the app\'s height within max-height', async () => {
    const { client } = await demo();
    const { frame, logs } = await mountFrame((f) => {
      f.client = client;
      f.resource = probeResource({}, 300);
    });
    await logged(logs, (e) => 'initialized' in e);
    await expect.poll(() => iframeOf(frame).getBoundingClientRect().height, { timeout: 10_000 }).toBe(300);
    frame.maxHeight = 120;
    await frame.updateComplete;
    frame.resource = probeResource({}, 250);
    await nextEvent(frame, 'mcp-app-ready');
    await expect.poll(() => iframeOf(frame).getBoundingClientRect().height, { timeout: 10_000 }).toBe(120);
  });

  test('theme: the handshake says it, and a change reaches the app as host-context-changed', async () => {
    const { client } = await demo();
    const { frame, logs } = await mountFrame((f) => {
      f.client = client;
      f.theme = 'light';
      f.resource = probeResource();
    });
    const init = await logged<{ initialized: { hostContext: Record<string, unknown>; hostInfo: unknown; hostCapabilities: Record<string, unknown> } }>(logs, (e) => 'initialized' in e);
    expect(init.initialized.hostContext).toMatchObject({ theme: 'light', displayMode: 'inline', platform: 'web', locale: expect.any(String), containerDimensions: { width: expect.any(Number), maxHeight: 640 } });
    expect(init.initialized.hostInfo).toEqual({ name: 'mcp-web-elements', version: expect.any(String) });
    expect(Object.keys(init.initialized.hostCapabilities)).toEqual(expect.arrayContaining(['openLinks', 'serverTools', 'serverResources', 'logging', 'message', 'updateModelContext', 'sandbox']));
    type Styles = { variables: Record<string, string>; css: { fonts: string } };
    const lightStyles = init.initialized.hostContext.styles as Styles;
    expect(Object.keys(lightStyles.variables).sort()).toEqual([...STYLE_VARIABLES].sort());
    expect(lightStyles.variables['--color-text-primary']).toBe('rgb(31, 35, 40)');
    expect(lightStyles.css).toEqual({ fonts: '' });
    frame.theme = 'dark';
    const changed = await logged<{ params: Record<string, unknown> }>(logs, (e) => e.received === 'ui/notifications/host-context-changed');
    // The new theme with its whole variable set, computed for it: no light colours left behind.
    expect(changed.params.theme).toBe('dark');
    const darkStyles = changed.params.styles as Styles;
    expect(Object.keys(darkStyles.variables).sort()).toEqual([...STYLE_VARIABLES].sort());
    expect(darkStyles.variables['--color-text-primary']).toBe('rgb(230, 237, 243)');
    expect(darkStyles.variables['--color-background-primary']).toBe('rgb(13, 17, 23)');
    expect(Object.values(darkStyles.variables).join(' ')).not.toContain('light-dark');
    expect(STYLE_VARIABLES).toHaveLength(76);
  });

  test('theme by default follows the page\'s color-scheme, and a change of it reaches the app', async () => {
    const { client } = await demo();
    document.documentElement.style.colorScheme = 'dark';
    try {
      const { logs } = await mountFrame((f) => {
        f.client = client;
        f.resource = probeResource();
      });
      const init = await logged<{ initialized: { hostContext: { theme: string } } }>(logs, (e) => 'initialized' in e);
      expect(init.initialized.hostContext.theme).toBe('dark');
      document.documentElement.style.colorScheme = 'light';
      const changed = await logged<{ params: Record<string, unknown> }>(logs, (e) => e.received === 'ui/notifications/host-context-changed');
      expect(changed.params).toMatchObject({ theme: 'light', styles: { variables: { '--color-text-primary': 'rgb(31, 35, 40)' } } });
    } finally {
      document.documentElement.style.colorScheme = '';
    }
  });

  test('display mode: the app asks for full screen after a click in it, gets it, and the host\'s button brings it back; unprompted, it stays inline', async () => {
    const { client } = await demo();
    const fullscreen = { do: 'request', method: 'ui/request-display-mode', params: { mode: 'fullscreen' } };
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    let frame!: McpAppFrame;
    let logs!: unknown[];
    // A click of an earlier test still counts as a gesture for a few seconds: let it expire.
    await expect.poll(() => navigator.userActivation.isActive, { timeout: 15_000 }).toBe(false);
    try {
      ({ frame, logs } = await mountFrame((f) => {
        f.client = client;
        f.resource = probeResource({}, 160);
        f.arguments = {
          actions: [fullscreen, { do: 'on-click', label: 'Full screen', then: fullscreen }, { do: 'request', method: 'ui/request-display-mode', params: { mode: 'pip' } }],
        };
      }));
      // Asked as soon as it loads, with no click: an app must not cover the page by itself.
      const unprompted = await logged<{ outcome: { result: unknown } }>(logs, (e) => e.action === 0);
      expect(unprompted.outcome.result).toEqual({ mode: 'inline' });
      expect(frame.displayMode).toBe('inline');
      expect(warnings.join('\n')).toContain('without a user gesture in the app');
    } finally {
      console.warn = warn;
    }
    await page.frameLocator(page.elementLocator(iframeOf(frame))).getByRole('button', { name: 'Full screen' }).click();
    const first = await logged<{ outcome: { result: unknown } }>(logs, (e) => e.action === 1);
    expect(first.outcome.result).toEqual({ mode: 'fullscreen' });
    // The app declared inline and fullscreen only: pip is not granted.
    const second = await logged<{ outcome: { result: unknown } }>(logs, (e) => e.action === 2);
    expect(second.outcome.result).toEqual({ mode: 'fullscreen' });
    expect(frame.matches(':state(fullscreen)')).toBe(true);
    await page.elementLocator(frame).getByRole('button', { name: 'Exit full screen' }).click();
    expect(frame.displayMode).toBe('inline');
    const changed = await logged<{ params: Record<string, unknown> }>(logs, (e) => e.received === 'ui/notifications/host-context-changed' && (e.params as Record<string, unknown>).displayMode === 'inline');
    expect(changed.params).toMatchObject({ displayMode: 'inline', containerDimensions: { maxHeight: 640 } });
  });

  test('teardown: the app gets ui/resource-teardown, then is removed', async () => {
    const { client } = await demo();
    const { frame, logs } = await mountFrame((f) => {
      f.client = client;
      f.resource = probeResource();
    });
    const closed = nextEvent<import('../events.js').McpAppCloseEvent>(frame, 'mcp-app-close');
    await frame.teardown('done here');
    expect(logs.some((e) => (e as Record<string, unknown>).received === 'ui/resource-teardown')).toBe(true);
    expect((await closed).detail.reason).toBe('done here');
    expect(frame.shadowRoot!.querySelector('iframe')).toBeNull();
    expect(frame.matches(':state(closed)')).toBe(true);
  });

  test('while a frame is on the page its client declares the ui extension', async () => {
    const client = new McpClient(inject('demoServerUrl'), { onWarning: () => {} });
    expect(client.capabilities.extensions).toBeUndefined();
    const { frame } = await mountFrame((f) => {
      f.client = client;
      f.resource = probeResource();
    });
    expect(client.capabilities.extensions).toEqual({ [UI_EXTENSION]: { mimeTypes: ['text/html;profile=mcp-app'] } });
    frame.remove();
    expect(client.capabilities.extensions).toBeUndefined();
    // Back on the page: declared again, and the app loads again.
    const ready = nextEvent(frame, 'mcp-app-ready', 15_000);
    document.body.append(frame);
    await ready;
    expect(client.capabilities.extensions).toEqual({ [UI_EXTENSION]: { mimeTypes: ['text/html;profile=mcp-app'] } });
  });

  test('prefersBorder: false drops the border around the app; true or unset keeps it', async () => {
    const { client } = await demo();
    const borderOf = (frame: McpAppFrame) => getComputedStyle(part(frame, 'base')!).borderTopColor;
    const plain = await mountFrame((f) => ((f.client = client), (f.resource = probeResource())));
    const bordered = await mountFrame((f) => ((f.client = client), (f.resource = probeResource({ prefersBorder: true }))));
    const borderless = await mountFrame((f) => ((f.client = client), (f.resource = probeResource({ prefersBorder: false }))));
    expect(borderOf(plain.frame)).not.toBe('rgba(0, 0, 0, 0)');
    expect(borderOf(bordered.frame)).toBe(borderOf(plain.frame));
    expect(borderOf(borderless.frame)).toBe('rgba(0, 0, 0, 0)');
  });

  test('a resource that is not an MCP App is refused with a clear error', async () => {
    const { client } = await demo();
    const frame = document.createElement('mcp-app-frame');
    frame.client = client;
    frame.resourceUri = 'demo://readme';
    document.body.append(frame);
    await expect.poll(() => part(frame, 'error')?.textContent, { timeout: 10_000 }).toBe('demo://readme is "text/markdown", not an MCP App (text/html;profile=mcp-app).');
    expect(frame.shadowRoot!.querySelector('iframe')).toBeNull();
  });

  test('axe: no violations on the host chrome around an app and its prompt; the frame has an accessible name', async () => {
    const { frame } = await probe([callTool('save_chart_note', { metric: 'axe', total: 1 })], (f) => (f.label = 'App: Probe'));
    expect(iframeOf(frame).title).toBe('App: Probe');
    expect(frame.shadowRoot!.querySelector('[part~="base"]')!.getAttribute('aria-label')).toBe('App: Probe');
    await expect.element(hostLocator(frame).getByRole('alertdialog'), { timeout: 10_000 }).toBeVisible();
    expect(await axeViolations(frame)).toEqual([]);
    await hostLocator(frame).getByRole('button', { name: 'Deny' }).click();
  });
});

describe('the double-iframe sandbox proxy on a second origin', () => {
  test('the app runs inside the proxy: handshake, tool result and a tool call of the app', async () => {
    const { client } = await demo();
    const sandboxUrl = `${inject('secondOriginUrl')}/sandbox.html`;
    const { frame, logs } = await mountFrame((f) => {
      f.client = client;
      f.sandboxUrl = sandboxUrl;
      f.resource = probeResource();
      f.result = { content: [{ type: 'text', text: 'done' }] };
      f.arguments = { actions: [{ do: 'request', method: 'tools/call', params: { name: 'chart_data', arguments: { metric: 'sales', days: 3 } } }] };
    });
    const iframe = iframeOf(frame);
    expect(iframe.src).toBe(sandboxUrl);
    expect(iframe.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms');
    const call = await logged<{ outcome: { ok: boolean; result: { structuredContent: { metric: string } } } }>(logs, (e) => e.action === 0);
    expect(call.outcome.ok).toBe(true);
    expect(call.outcome.result.structuredContent.metric).toBe('sales');
    expect(await logged(logs, (e) => e.received === 'ui/notifications/tool-result')).toMatchObject({ params: { content: [{ type: 'text', text: 'done' }] } });
  });

  test('a proxy on the page\'s own origin is refused', async () => {
    const { client } = await demo();
    const frame = document.createElement('mcp-app-frame');
    frame.client = client;
    frame.sandboxUrl = `${location.origin}/sandbox.html`;
    frame.resource = probeResource();
    document.body.append(frame);
    await expect.poll(() => part(frame, 'error')?.textContent, { timeout: 10_000 }).toBe('The sandbox proxy must be on another origin than this page (spec: "Sandbox proxy").');
  });
});
