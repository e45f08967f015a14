/**
 * `<mcp-app-frame>` hosting an app written with the official SDK's `App` class
 * (`@modelcontextprotocol/ext-apps`), in real Chromium against the real demo
 * server: the SDK's handshake, each app→host request and the host's answer as
 * the SDK documents it, picture-in-picture dimensions, and teardown reaching
 * the app (`onteardown`) when the frame is removed from the page.
 */
import { afterEach, expect, inject, test } from 'vitest';
import { page } from 'vitest/browser';
import { McpClient } from '../../src/index.js';
import { nextEvent } from '../test-support/dom.js';
import { SDK_STEPS, sdkAppResource } from '../test-support/sdk-app.js';
import type { McpAppFrame } from './mcp-app-frame.js';
import './mcp-app-frame.js';

afterEach(() => document.body.replaceChildren());

const client = new McpClient(inject('demoServerUrl'), { onWarning: () => {} });
type Entry = Record<string, unknown>;

async function mountSdkApp(steps: readonly string[] = []): Promise<{ frame: McpAppFrame; logs: Entry[] }> {
  const frame = document.createElement('mcp-app-frame');
  const logs: Entry[] = [];
  frame.addEventListener('mcp-app-log', (event) => {
    if (event.detail.logger === 'sdk') logs.push(event.detail.data as Entry);
  });
  frame.client = client;
  frame.resource = sdkAppResource();
  frame.arguments = { steps };
  const ready = nextEvent(frame, 'mcp-app-ready', 30_000);
  document.body.append(frame);
  await ready;
  return { frame, logs };
}
const find = async (logs: Entry[], match: (e: Entry) => boolean): Promise<Entry> => {
  let found: Entry | undefined;
  await expect.poll(() => (found = logs.find(match)), { timeout: 20_000 }).toBeDefined();
  return found!;
};

test('every app→host request of the SDK App is answered as documented', async () => {
  const taken: string[] = [];
  const take = (event: Event & { detail: { respondWith?: (p: Promise<void>) => void } }) => {
    taken.push(event.type);
    event.preventDefault();
  };
  // Downloads are recorded, not saved: the anchor's click is where the browser would take over.
  const saved: { name: string; text: Promise<string> | string }[] = [];
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    if (this.download) saved.push({ name: this.download, text: fetch(this.href).then((r) => r.text()) });
    else click.call(this);
  };
  document.addEventListener('mcp-app-message', take as EventListener);
  document.addEventListener('mcp-app-model-context', take as EventListener);
  document.addEventListener('mcp-app-open-link', take as EventListener);
  try {
    const { frame, logs } = await mountSdkApp(SDK_STEPS);
    const connected = (await find(logs, (e) => 'connected' in e)).connected as Entry;
    expect(connected.hostVersion).toMatchObject({ name: 'mcp-web-elements' });
    expect(connected.hostCapabilities).toMatchObject({ openLinks: {}, downloadFile: {}, serverTools: {}, serverResources: {}, logging: {} });
    // ui/download-file: the user sees the server's host, the file's name and size, then saves it.
    const prompt = page.elementLocator(frame).getByRole('alertdialog');
    await expect.element(prompt, { timeout: 20_000 }).toHaveTextContent(`“SDK app” wants to save a file from ${client.url.host}:`);
    await expect.element(prompt).toHaveTextContent('report.csv (8 bytes)');
    await page.elementLocator(frame).getByRole('button', { name: 'Save' }).click();
    expect(connected.hostContext).toMatchObject({ displayMode: 'inline', platform: 'web', availableDisplayModes: ['inline', 'fullscreen', 'pip'] });
    await find(logs, (e) => e.done === true);
    const step = (name: string) => logs.find((e) => e.step === name)!;
    expect(step('callServerTool')).toMatchObject({ ok: true, value: { structuredContent: { metric: 'sales' } } });
    expect(((step('callServerTool').value as Entry).structuredContent as { points: unknown[] }).points).toHaveLength(3);
    expect(JSON.stringify(step('readServerResource'))).toContain('# Demo server');
    expect(JSON.stringify(step('listServerResources'))).toContain('demo://readme');
    expect(step('sendMessage')).toMatchObject({ ok: true });
    expect(step('updateModelContext')).toMatchObject({ ok: true });
    expect(step('openLink')).toMatchObject({ ok: true });
    expect(taken).toEqual(['mcp-app-message', 'mcp-app-model-context', 'mcp-app-open-link']);
    expect(step('downloadFile')).toMatchObject({ ok: true, value: {} });
    for (const file of saved) file.text = await file.text;
    expect(saved).toEqual([{ name: 'report.csv', text: 'a,b\n1,2\n' }]);
    // Not offered by this host (hostCapabilities has no sampling): a clear refusal.
    expect(step('createSamplingMessage')).toMatchObject({ ok: false });
    expect(step('sendSizeChanged')).toMatchObject({ ok: true });
    await expect.poll(() => frame.shadowRoot!.querySelector('iframe')!.getBoundingClientRect().height).toBe(222);
  } finally {
    HTMLAnchorElement.prototype.click = click;
    document.removeEventListener('mcp-app-message', take as EventListener);
    document.removeEventListener('mcp-app-model-context', take as EventListener);
    document.removeEventListener('mcp-app-open-link', take as EventListener);
  }
});

test('picture-in-picture after a click in the app: the app is told the floating box\'s size, not the window\'s', async () => {
  const { frame, logs } = await mountSdkApp();
  await find(logs, (e) => 'connected' in e);
  await page.frameLocator(page.elementLocator(frame.shadowRoot!.querySelector('iframe')!)).getByRole('button', { name: 'Picture in picture' }).click();
  expect((await find(logs, (e) => e.step === 'requestDisplayMode')).value).toEqual({ mode: 'pip' });
  const changed = (await find(logs, (e) => (e.contextChanged as Entry | undefined)?.displayMode === 'pip')).contextChanged as { containerDimensions: { width: number; height: number } };
  const box = frame.shadowRoot!.querySelector('[part~="viewport"]')!.getBoundingClientRect();
  expect(changed.containerDimensions).toEqual({ width: Math.round(box.width), height: Math.round(box.height) });
  expect(changed.containerDimensions.width).toBeLessThan(window.innerWidth);
  expect(changed.containerDimensions.height).toBeLessThan(window.innerHeight);
  expect(changed.containerDimensions.width).toBeGreaterThan(100);
});

test('frame.remove(): the element leaves at once, and the app\'s onteardown runs before its document goes', async () => {
  const { frame, logs } = await mountSdkApp();
  await find(logs, (e) => 'connected' in e);
  const closed = nextEvent<import('../events.js').McpAppCloseEvent>(frame, 'mcp-app-close', 15_000);
  frame.remove();
  expect(frame.isConnected).toBe(false);
  expect((await closed).detail.reason).toBe('removed from the page');
  expect(logs.some((e) => e.teardown === true)).toBe(true);
  // Nothing is left behind.
  expect(document.querySelector('[data-mcp-app-teardown]')).toBeNull();
  expect(document.querySelectorAll('iframe')).toHaveLength(0);
});
