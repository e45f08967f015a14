/**
 * `<mcp-connection>` in real Chromium against the demo MCP server: connecting,
 * state and events, context for the elements inside, list changes over
 * `subscriptions/listen`, errors, and the CORS doctor.
 */
import { afterEach, beforeEach, describe, expect, inject, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { consume } from '@lit/context';
import { LitElement } from 'lit';
import type { McpClient, McpError } from '../../src/index.js';
import '../index.js';
import { clientContext } from '../context.js';
import { axeViolations, cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpConnection } from './mcp-connection.js';

const url = inject('demoServerUrl');
const corsBroken = inject('corsBrokenServerUrl');

/** A minimal consumer, like any kit element, to check what the context provides. */
class ClientProbe extends LitElement {
  @consume({ context: clientContext, subscribe: true }) client: McpClient | undefined;
}
customElements.define('client-probe', ClientProbe);

beforeEach(() => cleanup());
afterEach(() => cleanup());

describe('<mcp-connection>', () => {
  test('connects, reports state, lists tools and provides the client to the elements inside', async () => {
    const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen><client-probe></client-probe></mcp-connection>`);
    const connected = nextEvent<CustomEvent>(connection, 'mcp-connect');
    const toolsChanged = nextEvent<CustomEvent>(connection, 'mcp-tools-changed');
    await connection.updateComplete;
    expect(connection.matches(':state(connecting)')).toBe(true);
    const { detail } = await connected;
    expect(detail.server).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', serverInfo: { name: 'mcp-web-elements demo' } });
    expect((await toolsChanged).detail.tools.map((t: { name: string }) => t.name)).toContain('book_table');
    expect(connection.status).toBe('connected');
    expect(connection.matches(':state(connected)')).toBe(true);
    expect(connection.serverInfo?.version).toBe('1.0.0');
    expect(connection.capabilities?.tools).toBeDefined();
    expect(connection.tools.length).toBeGreaterThan(10);
    const probe = connection.querySelector<ClientProbe>('client-probe')!;
    expect(probe.client).toBe(connection.client);
    // The default rendering names the server, the era and version, and the tool count.
    const status = connection.shadowRoot!.querySelector('[part="status"]')!.textContent!;
    expect(status).toContain('mcp-web-elements demo server 1.0.0');
    expect(status).toContain('modern · 2026-07-28');
    expect(status).toContain(`Connected · ${connection.tools.length} tools`);
    expect(await axeViolations(connection)).toEqual([]);
  });

  test('a key in the URL stays out of the DOM: server-url is reflected masked, the property and the requests keep it', async () => {
    const secretUrl = `${url}?token=s3cret-from-html`;
    const connection = mount<McpConnection>(`<mcp-connection server-url="${secretUrl}" no-listen></mcp-connection>`);
    await nextEvent(connection, 'mcp-connect');
    expect(connection.serverUrl).toBe(secretUrl);
    expect(connection.getAttribute('server-url')).toBe(`${url}?token=…`);
    // Set as a property (how the playground does it): the same.
    const connected = nextEvent(connection, 'mcp-connect');
    connection.serverUrl = `${url}?api_key=s3cret-from-js`;
    await connected;
    expect(connection.status).toBe('connected');
    expect(connection.getAttribute('server-url')).toBe(`${url}?api_key=…`);
    expect(new XMLSerializer().serializeToString(document.body)).not.toContain('s3cret');
    const shown = [...connection.shadowRoot!.querySelectorAll('*')].flatMap((element) => [...element.attributes].map((attribute) => attribute.value));
    expect([...shown, connection.shadowRoot!.textContent].join(' ')).not.toContain('s3cret');
  });

  test('refreshes its tools when the server announces a change over subscriptions/listen', async () => {
    const connection = mount<McpConnection>(`<mcp-connection server-url="${url}"></mcp-connection>`);
    await nextEvent(connection, 'mcp-connect');
    await vi.waitFor(() => expect(connection.matches(':state(listening)')).toBe(true));
    const before = connection.tools.some((t) => t.name === 'bonus');
    const changed = nextEvent<CustomEvent>(connection, 'mcp-tools-changed');
    await connection.client!.callTool('toggle_bonus', {});
    const tools = (await changed).detail.tools.map((t: { name: string }) => t.name);
    expect(tools.includes('bonus')).toBe(!before);
    expect(connection.tools.some((t) => t.name === 'bonus')).toBe(!before);
    // Put the server back as it was.
    const back = nextEvent<CustomEvent>(connection, 'mcp-tools-changed');
    await connection.client!.callTool('toggle_bonus', {});
    await back;
  });

  test('disconnect() closes and fires mcp-disconnect; the button connects again', async () => {
    const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen></mcp-connection>`);
    await nextEvent(connection, 'mcp-connect');
    const client = connection.client!;
    const disconnected = nextEvent<CustomEvent>(connection, 'mcp-disconnect');
    await connection.disconnect();
    expect((await disconnected).detail.reason).toBe('client');
    expect(client.status).toBe('closed');
    expect(connection.status).toBe('idle');
    expect(connection.client).toBeUndefined();
    const again = nextEvent(connection, 'mcp-connect');
    await userEvent.click(page.getByRole('button', { name: 'Connect' }));
    await again;
    expect(connection.status).toBe('connected');
  });

  test('ping() measures a round trip: an uncached server/discover on 2026-07-28, which has no ping', async () => {
    const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen></mcp-connection>`);
    await nextEvent(connection, 'mcp-connect');
    const sent: string[] = [];
    connection.client!.on('traffic', (event) => event.direction === 'out' && 'method' in event.message && sent.push(event.message.method));
    const ms = await connection.ping();
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThan(30_000);
    expect(sent).toEqual(['server/discover']);
  });

  test('setting roots after the first render fires mcp-roots-change', async () => {
    const connection = mount<McpConnection>(`<mcp-connection no-auto-connect></mcp-connection>`);
    await connection.updateComplete;
    const changed = nextEvent<CustomEvent>(connection, 'mcp-roots-change');
    connection.roots = [{ uri: 'file:///srv' }];
    expect((await changed).detail.roots).toEqual([{ uri: 'file:///srv' }]);
  });

  test('no-auto-connect waits for connect()', async () => {
    const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-auto-connect no-listen></mcp-connection>`);
    await new Promise((r) => setTimeout(r, 100));
    expect(connection.status).toBe('idle');
    await connection.connect();
    expect(connection.status).toBe('connected');
  });

  test('an unreachable server puts it in the error state with a typed error naming the URL', async () => {
    const dead = 'http://127.0.0.1:9/mcp';
    const connection = mount<McpConnection>(`<mcp-connection server-url="${dead}" no-listen></mcp-connection>`);
    const event = await nextEvent<CustomEvent<{ error: McpError }>>(connection, 'mcp-error');
    expect(connection.matches(':state(error)')).toBe(true);
    expect(connection.status).toBe('error');
    expect(event.detail.error.message).toContain(dead);
    expect(connection.shadowRoot!.querySelector('[role="alert"]')!.textContent).toContain(dead);
  });
});

describe('CORS doctor', () => {
  test('pinned to modern, a server that does not allow Mcp-Method yields an error naming that header and the URL', async () => {
    const connection = mount<McpConnection>(`<mcp-connection server-url="${corsBroken}" protocol="modern" no-listen></mcp-connection>`);
    const { detail } = await nextEvent<CustomEvent<{ error: McpError }>>(connection, 'mcp-error', 15_000);
    expect(detail.error.code).toBe('cors');
    expect(detail.error.message).toContain(corsBroken);
    expect(detail.error.message).toMatch(/does not allow the request header Mcp-Method/);
    expect(detail.error.message).toMatch(/Access-Control-Allow-Headers/);
    expect((detail.error.data as { cors: { missingHeaders: string[] } }).cors.missingHeaders).toEqual(['Mcp-Method']);
  });

  test('an origin the server refuses is named as such', async () => {
    const { diagnoseCors } = await import('./cors-doctor.js');
    // A server with no CORS at all: it answers, but the page may not read it.
    const diagnosis = await diagnoseCors(inject('wireLab').noCors);
    expect(diagnosis.problem).toBe('origin');
    expect(diagnosis.fix).toContain(`answers, but not to ${location.origin}`);
  });
});
