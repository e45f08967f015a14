/**
 * `<mcp-host>` in real Chromium with two `<mcp-connection>`s to two real servers
 * (official SDK, test/support/host-servers.ts) that both have `echo` and `ask`:
 * one catalogue with distinct model names that survive a reconnect, a
 * connection leaving and coming back, and a reload with a name store;
 * per-server enable/disable with one event; calls routed to the right server;
 * an input request answered by its own connection's dialog.
 */
import { afterEach, beforeEach, describe, expect, inject, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { ToolCallResult } from '../../src/index.js';
import type { HostTool } from '../../src/host/index.js';
import '../index.js';
import './mcp-host.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import type { McpElicitationDialog } from '../mcp-elicitation-dialog/mcp-elicitation-dialog.js';
import type { McpErrorEvent, McpHostToolsChangedEvent } from '../events.js';
import { cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpHostElement } from './mcp-host.js';

const servers = inject('toolServers');

const connection = (key: string, url: string, inner = '') => `<mcp-connection host-key="${key}" server-url="${url}" no-listen>${inner}</mcp-connection>`;
/** The nodes `markup` makes (kit markup of the test's own, never a server's). */
function nodes(markup: string): DocumentFragment {
  const template = document.createElement('template');
  template.setHTMLUnsafe(markup);
  return template.content;
}
const names = (tools: readonly HostTool[]) => tools.map((tool) => `${tool.serverKey}:${tool.tool.name}=${tool.name}`);
const text = (result: unknown) => ((result as ToolCallResult).content as { text: string }[]).map((block) => block.text).join('');
const member = (host: McpHostElement, key: string) => host.querySelector<McpConnection>(`mcp-connection[host-key="${key}"]`)!;

/** The names each server's tools have, server by server (the catalogue's order follows the order servers joined). */
const byServer = (tools: readonly HostTool[]) => [...names(tools)].sort();

const BOTH = ['alpha:ask=ask', 'alpha:echo=echo', 'alpha:lookup_alpha=lookup_alpha', 'beta:ask=beta__ask', 'beta:echo=beta__echo', 'beta:lookup_beta=lookup_beta'];

/** Mounts `markup` and waits until the host's catalogue has `count` tools. */
async function mountHost(markup: string, count: number): Promise<McpHostElement> {
  const host = mount<McpHostElement>(markup);
  await vi.waitFor(() => expect(host.tools.length).toBe(count));
  return host;
}

beforeEach(() => cleanup());
afterEach(() => cleanup());

describe('<mcp-host>', () => {
  test('two connections with a tool of the same name: one catalogue, distinct names, calls routed to the right server', async () => {
    const host = mount<McpHostElement>(`<mcp-host>${connection('alpha', servers.alpha)}${connection('beta', servers.beta)}</mcp-host>`);
    const events: string[][] = [];
    host.addEventListener('mcp-host-tools-changed', (event: McpHostToolsChangedEvent) => events.push(names(event.detail.tools)));
    await vi.waitFor(() => expect(host.tools.length).toBe(6));
    // The first connection keeps the plain names; the second gets its key as a prefix, only on a clash.
    expect(names(host.tools)).toEqual(['alpha:echo=echo', 'alpha:lookup_alpha=lookup_alpha', 'alpha:ask=ask', 'beta:echo=beta__echo', 'beta:lookup_beta=lookup_beta', 'beta:ask=beta__ask']);
    expect(events.at(-1)).toEqual(names(host.tools));
    expect(host.servers.map((server) => [server.key, server.client])).toEqual([
      ['alpha', member(host, 'alpha').client],
      ['beta', member(host, 'beta').client],
    ]);

    expect(text(await host.callTool('echo', { text: 'hi' }))).toBe('alpha echo: hi');
    expect(text(await host.callTool('beta__echo', { text: 'hi' }))).toBe('beta echo: hi');
    expect(text(await host.callTool('lookup_beta', { id: 'b7' }))).toBe('beta record b7');
    await expect(host.callTool('alpha__echo', {})).rejects.toMatchObject({ code: 'invalid_arguments' });
    expect(host.connectionOf('beta__echo')).toBe(member(host, 'beta'));
    expect(host.connectionOf('echo')).toBe(member(host, 'alpha'));
    expect(host.connectionOf('nothing')).toBeUndefined();
  });

  test('a reconnect, and a connection leaving and coming back, rename nothing; a connection added meanwhile does not take its names', async () => {
    const host = await mountHost(`<mcp-host>${connection('alpha', servers.alpha)}${connection('beta', servers.beta)}</mcp-host>`, 6);
    expect(byServer(host.tools)).toEqual(BOTH);

    // A reconnect makes a new client: it takes the old one's place under the same names.
    const alpha = member(host, 'alpha');
    const old = alpha.client;
    await alpha.connect();
    expect(alpha.client).not.toBe(old);
    await vi.waitFor(() => expect(host.servers.find((server) => server.key === 'alpha')?.client).toBe(alpha.client));
    await vi.waitFor(() => expect(host.tools.length).toBe(6));
    expect(byServer(host.tools)).toEqual(BOTH);
    expect(text(await host.callTool('echo', { text: 'again' }))).toBe('alpha echo: again');

    // alpha's connection leaves the page: its tools go, and beta keeps its prefixed names.
    alpha.remove();
    await vi.waitFor(() => expect(names(host.tools)).toEqual(['beta:echo=beta__echo', 'beta:lookup_beta=lookup_beta', 'beta:ask=beta__ask']));
    // Another connection (to alpha's server, under another key) joins while alpha is away: `echo` stays alpha's.
    host.append(nodes(connection('gamma', servers.alpha)));
    await vi.waitFor(() => expect(host.tools.length).toBe(6));
    expect(names(host.tools).filter((entry) => entry.startsWith('gamma:'))).toEqual(['gamma:echo=gamma__echo', 'gamma:lookup_alpha=gamma__lookup_alpha', 'gamma:ask=gamma__ask']);

    // alpha comes back (a connection put back on the page connects again when asked): the same names.
    host.append(alpha);
    await alpha.connect();
    await vi.waitFor(() => expect(host.tools.length).toBe(9));
    expect(byServer(host.tools).filter((entry) => !entry.startsWith('gamma:'))).toEqual(BOTH);
    expect(text(await host.callTool('echo', { text: 'back' }))).toBe('alpha echo: back');
    expect(text(await host.callTool('gamma__echo', { text: 'g' }))).toBe('alpha echo: g');
  });

  test('disabling a server takes its tools out with one event, by setEnabled or the host-disabled attribute; enabled again, the same names', async () => {
    const host = await mountHost(`<mcp-host>${connection('alpha', servers.alpha)}${connection('beta', servers.beta)}</mcp-host>`, 6);
    const before = names(host.tools);
    const events: string[][] = [];
    host.addEventListener('mcp-host-tools-changed', (event: McpHostToolsChangedEvent) => events.push(names(event.detail.tools)));

    host.setEnabled('alpha', false);
    expect(events).toEqual([['beta:echo=beta__echo', 'beta:lookup_beta=lookup_beta', 'beta:ask=beta__ask']]);
    expect(member(host, 'alpha').hasAttribute('host-disabled')).toBe(true);
    await expect(host.callTool('lookup_alpha', { id: 'a1' })).rejects.toMatchObject({ code: 'invalid_arguments' });
    // The attribute's own change (seen by the host's observer after this task) fires nothing more.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events.length).toBe(1);

    // The attribute on the connection does the same.
    const changed = nextEvent<McpHostToolsChangedEvent>(host, 'mcp-host-tools-changed');
    member(host, 'beta').setAttribute('host-disabled', '');
    expect((await changed).detail.tools).toEqual([]);
    expect(host.servers.map((server) => server.enabled)).toEqual([false, false]);

    member(host, 'alpha').removeAttribute('host-disabled');
    member(host, 'beta').removeAttribute('host-disabled');
    await vi.waitFor(() => expect(names(host.tools)).toEqual(before));
    expect(events.length).toBe(4);

    // A disabled connection that reconnects stays disabled.
    host.setEnabled('beta', false);
    await member(host, 'beta').connect();
    await vi.waitFor(() => expect(host.servers.find((server) => server.key === 'beta')?.client).toBe(member(host, 'beta').client));
    await vi.waitFor(() => expect(host.servers.find((server) => server.key === 'beta')?.tools.length).toBe(3));
    expect(names(host.tools)).toEqual(before.filter((entry) => entry.startsWith('alpha:')));
  });

  test('an input request is answered through its own connection: one by its dialog\'s policy, the other by the user in its dialog', async () => {
    const host = await mountHost(
      `<mcp-host>${connection('alpha', servers.alpha, '<mcp-elicitation-dialog no-resume></mcp-elicitation-dialog>')}${connection('beta', servers.beta, '<mcp-elicitation-dialog no-resume></mcp-elicitation-dialog>')}</mcp-host>`,
      6,
    );
    const alphaDialog = member(host, 'alpha').querySelector<McpElicitationDialog>('mcp-elicitation-dialog')!;
    const betaDialog = member(host, 'beta').querySelector<McpElicitationDialog>('mcp-elicitation-dialog')!;
    const asked: string[] = [];
    alphaDialog.policy = (request) => {
      asked.push(String((request.params as { message?: string }).message));
      return { action: 'accept', content: { ok: true } };
    };
    expect(text(await host.callTool('ask'))).toBe('alpha answered: ok=true');
    expect(asked).toEqual(['Go ahead on alpha?']);

    // beta's dialog asks the user (its default policy); alpha's stays shut.
    const answer = host.callTool('beta__ask');
    await vi.waitFor(() => expect(betaDialog.shadowRoot?.querySelector('dialog')?.open).toBe(true), { timeout: 30_000 });
    expect(alphaDialog.shadowRoot!.querySelector('dialog')?.open ?? false).toBe(false);
    expect(betaDialog.shadowRoot!.textContent).toContain('Go ahead on beta?');
    await userEvent.click(page.getByRole('checkbox', { name: 'OK' }));
    await userEvent.click(page.getByRole('button', { name: 'Accept' }));
    expect(text(await answer)).toBe('beta answered: ok=true');
    expect(asked).toEqual(['Go ahead on alpha?']);
  });

  test('name-store="local": a reload gives the same names even with the connections in the other order; each page and host has its own', async () => {
    const storageKey = `mcp-web-elements:host-names:${location.pathname}#chat`;
    localStorage.removeItem(storageKey);
    const first = await mountHost(`<mcp-host id="chat" name-store="local">${connection('alpha', servers.alpha)}${connection('beta', servers.beta)}</mcp-host>`, 6);
    const before = byServer(first.tools);
    expect(before).toEqual(BOTH);
    expect(JSON.parse(localStorage.getItem(storageKey)!)).toMatchObject({ 'beta\u0000echo': 'beta__echo', 'alpha\u0000echo': 'echo' });
    cleanup();

    // "Reloaded": beta first this time. Without the store beta would get the plain names.
    const reloaded = await mountHost(`<mcp-host id="chat" name-store="local">${connection('beta', servers.beta)}${connection('alpha', servers.alpha)}</mcp-host>`, 6);
    expect(byServer(reloaded.tools)).toEqual(before);
    cleanup();
    const other = await mountHost(`<mcp-host id="other" name-store="local">${connection('beta', servers.beta)}${connection('alpha', servers.alpha)}</mcp-host>`, 6);
    expect(byServer(other.tools)).toContain('beta:echo=echo');
    localStorage.removeItem(storageKey);
    localStorage.removeItem(`mcp-web-elements:host-names:${location.pathname}#other`);
  });

  test('name-store="local" on a host without an id: the console says that such hosts share one key', async () => {
    const storageKey = `mcp-web-elements:host-names:${location.pathname}#`;
    localStorage.removeItem(storageKey);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await mountHost(`<mcp-host name-store="local">${connection('alpha', servers.alpha)}</mcp-host>`, 3);
      expect(warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('<mcp-host name-store="local"> has no id'))).toHaveLength(1);
      cleanup();
      await mountHost(`<mcp-host id="named" name-store="local">${connection('alpha', servers.alpha)}</mcp-host>`, 3);
      expect(warn.mock.calls.filter((call) => String(call[0]).includes('has no id'))).toHaveLength(1);
    } finally {
      warn.mockRestore();
      localStorage.removeItem(storageKey);
      localStorage.removeItem(`mcp-web-elements:host-names:${location.pathname}#named`);
    }
  });

  test('unreadable stored names count as none; a name store given as a property is used', async () => {
    const storageKey = `mcp-web-elements:host-names:${location.pathname}#broken`;
    localStorage.setItem(storageKey, '{not json');
    const broken = await mountHost(`<mcp-host id="broken" name-store="local">${connection('alpha', servers.alpha)}${connection('beta', servers.beta)}</mcp-host>`, 6);
    expect(byServer(broken.tools)).toEqual(BOTH);
    localStorage.removeItem(storageKey);
    cleanup();

    const saved: Record<string, string>[] = [];
    const host = document.createElement('mcp-host');
    host.nameStore = { load: () => ({ 'beta\u0000echo': 'shout' }), save: (names) => void saved.push(names) };
    host.append(nodes(connection('alpha', servers.alpha) + connection('beta', servers.beta)));
    document.body.append(host);
    await vi.waitFor(() => expect(host.tools.length).toBe(6));
    expect(names(host.tools)).toContain('beta:echo=shout');
    expect(names(host.tools)).toContain('alpha:echo=echo');
    expect(saved.at(-1)).toMatchObject({ 'beta\u0000echo': 'shout', 'alpha\u0000echo': 'echo' });
  });

  test('two connections with the same host-key: the second does not join, and the host says why', async () => {
    const host = document.createElement('mcp-host');
    const failed = nextEvent<McpErrorEvent>(host, 'mcp-error');
    host.append(nodes(connection('same', servers.alpha) + connection('same', servers.beta)));
    document.body.append(host);
    const { detail } = await failed;
    expect(detail).toMatchObject({ during: 'host', error: { code: 'invalid_arguments' } });
    await vi.waitFor(() => expect(host.tools.length).toBe(3));
    expect(host.servers.map((server) => server.key)).toEqual(['same']);
  });
});
