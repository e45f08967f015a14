/**
 * CORS in real Chromium (issue "Interop…", items 1, 2, 10; field case C27):
 * the page's origin differs from the servers', so every request with a header
 * outside the CORS safelist is preflighted, and the servers' CORS
 * configurations (test/support/wire-lab.ts) refuse some.
 */
import { afterEach, beforeEach, describe, expect, inject, test } from 'vitest';
import { McpClient, McpClientError, MemoryEraCache, type McpError, type McpWarning, type ToolCallResult } from '../../src/index.js';
import '../index.js';
import { cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpToolForm } from '../mcp-tool-form/mcp-tool-form.js';
import type { McpConnection } from './mcp-connection.js';

const lab = inject('wireLab');
const corsBroken = inject('corsBrokenServerUrl');

beforeEach(() => cleanup());
afterEach(() => cleanup());

const text = (result: unknown) => (result as ToolCallResult).content?.map((c) => (c as { text?: string }).text).join('');
/** A client that remembers no era across tests (the default cache is the page's IndexedDB). */
function client(url: string, options: ConstructorParameters<typeof McpClient>[1] = {}) {
  const warnings: McpWarning[] = [];
  return { mcp: new McpClient(url, { eraCache: new MemoryEraCache(), onWarning: (w) => warnings.push(w), ...options }), warnings };
}
/** A connection that does not connect until its properties are set. */
function connection(url: string, protocol = 'auto'): McpConnection {
  const element = mount<McpConnection>(`<mcp-connection server-url="${url}" protocol="${protocol}" no-auto-connect no-listen></mcp-connection>`);
  element.clientOptions = { eraCache: new MemoryEraCache(), onWarning: () => {} };
  return element;
}
async function failure(element: McpConnection): Promise<McpError> {
  const event = nextEvent<CustomEvent<{ error: McpError }>>(element, 'mcp-error', 15_000);
  await element.connect().catch(() => {});
  return (await event).detail.error;
}

describe('refused preflights of the 2026-07-28 headers lead to the legacy handshake in auto mode (item 1)', () => {
  test('a 2025 server allowing only Content-Type, mcp-session-id, mcp-protocol-version, last-event-id, authorization: connected, tool called, warned', async () => {
    const { mcp, warnings } = client(lab.legacyStrict);
    expect(await mcp.connect()).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25' });
    expect(text(await mcp.callTool('echo', { text: 'past the preflight' }))).toBe('echo: past the preflight');
    const warning = warnings.find((w) => w.code === 'modern-headers-refused');
    expect(warning?.message).toContain(lab.legacyStrict);
    expect(warning?.message).toContain('Mcp-Method');
    await mcp.close();
  });

  test('the same through <mcp-connection>, tools listed', async () => {
    const element = connection(lab.legacyStrict);
    const connected = nextEvent<CustomEvent>(element, 'mcp-connect', 15_000);
    await element.connect();
    expect((await connected).detail.server).toMatchObject({ era: 'legacy' });
    expect(element.tools.map((t) => t.name)).toContain('echo');
    expect(text(await element.client!.callTool('echo', { text: 'ok' }))).toBe('echo: ok');
  });

  test('a 2026-07-28 server whose CORS forgot Mcp-Method but which also serves legacy clients: connected in the legacy era', async () => {
    const { mcp, warnings } = client(corsBroken);
    expect((await mcp.connect()).era).toBe('legacy');
    expect(warnings.map((w) => w.code)).toContain('modern-headers-refused');
    await mcp.close();
  });

  test('both eras refused: one cors error naming both eras\' headers and what each request sent', async () => {
    const { mcp } = client(lab.closedToAll);
    const error = await mcp.connect().catch((e) => e);
    expect(error.code).toBe('cors');
    expect(error.message).toContain(lab.closedToAll);
    expect(error.message).toMatch(/2026-07-28 server must allow Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Name/);
    expect(error.message).toMatch(/legacy\) one Content-Type, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID/);
    expect(error.data.cors.eras).toEqual({ modern: ['Content-Type', 'MCP-Protocol-Version', 'Mcp-Method'], legacy: ['Content-Type'] });
  });

  test('a CORS refusal during the legacy handshake is the error: no "continuing as modern", no unrelated stream error', async () => {
    const { mcp, warnings } = client(lab.genericLegacy);
    const error = await mcp.connect().catch((e) => e);
    expect(error.code).toBe('cors');
    expect(error.data.method).toBe('notifications/initialized');
    expect(error.data.cors.requestHeaders).toContain('Mcp-Session-Id');
    expect(error.message).not.toMatch(/closed the response stream/);
    expect(warnings.map((w) => w.code)).not.toContain('discover-without-versions');
  });
});

describe('the diagnosis tests what the failing request sent (item 2)', () => {
  test('a legacy server set up per the old README list fails after initialize: the core error and the doctor name Mcp-Session-Id', async () => {
    const { mcp } = client(lab.legacyOldReadme);
    const error = await mcp.connect().catch((e) => e);
    expect(error.code).toBe('cors');
    expect(error.data).toMatchObject({ url: lab.legacyOldReadme, method: 'notifications/initialized' });
    expect(error.data.cors.requestHeaders).toEqual(expect.arrayContaining(['Content-Type', 'Mcp-Session-Id', 'MCP-Protocol-Version']));

    const reported = await failure(connection(lab.legacyOldReadme));
    expect(reported.code).toBe('cors');
    expect((reported.data as { cors: { missingHeaders: string[] } }).cors.missingHeaders).toEqual(['Mcp-Session-Id']);
    expect(reported.message).toMatch(/does not allow the request header Mcp-Session-Id/);
    expect(reported.message).not.toMatch(/Every header/);
  });

  test('pinned to modern, a server refusing Mcp-Method whose CORS allows the legacy handshake: the doctor suggests the era', async () => {
    const reported = await failure(connection(corsBroken, 'modern'));
    expect(reported.code).toBe('cors');
    expect(reported.message).toContain(corsBroken);
    expect(reported.message).toMatch(/does not allow the request header Mcp-Method/);
    expect(reported.message).toMatch(/Access-Control-Allow-Headers/);
    expect(reported.message).toMatch(/protocol "auto"/);
    expect(reported.data).toMatchObject({ cors: { missingHeaders: ['Mcp-Method'], era: 'legacy' } });
  });
});

describe('the core\'s own error carries the diagnosis, at connect and at call time (item 10)', () => {
  test('McpClient without <mcp-connection>: a refused preflight at connect is a cors error listing the headers that request sent', async () => {
    const { mcp } = client(corsBroken, { protocol: 'modern' });
    const error = await mcp.connect().catch((e) => e);
    expect(error.code).toBe('cors');
    expect(error.message).toContain('server/discover');
    expect(error.message).toMatch(/refused the preflight/);
    expect(error.data).toMatchObject({ url: corsBroken, method: 'server/discover', cors: { problem: 'headers', origin: location.origin, requestHeaders: ['Content-Type', 'MCP-Protocol-Version', 'Mcp-Method'] } });
  });

  test('at call time: a tool whose Mcp-Param-* header is refused', async () => {
    const { mcp } = client(lab.modernParamStrict, { protocol: 'modern' });
    const error = await mcp.callTool('route', { region: 'eu-west', query: 'x' }).catch((e) => e);
    expect(error.code).toBe('cors');
    expect(error.data.method).toBe('tools/call');
    expect(error.data.cors.requestHeaders).toEqual(['Content-Type', 'MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Mcp-Param-Region']);
    expect(error.message).toContain('Mcp-Param-Region');
    // Tools without header bindings still work on the same server.
    expect(text(await mcp.callTool('echo', { text: 'plain' }))).toBe('echo: plain');
  });

  test('at call time inside <mcp-connection>: the tool form shows that error', async () => {
    const element = mount<McpConnection>(`<mcp-connection server-url="${lab.modernParamStrict}" protocol="modern" no-listen><mcp-tool-form tool-name="route"></mcp-tool-form></mcp-connection>`);
    element.clientOptions = { eraCache: new MemoryEraCache(), onWarning: () => {} };
    await nextEvent(element, 'mcp-connect', 15_000);
    const form = element.querySelector<McpToolForm>('mcp-tool-form')!;
    await form.updateComplete;
    form.arguments = { region: 'eu-west' };
    const failed = nextEvent<CustomEvent<{ error: McpError }>>(form, 'mcp-error', 15_000);
    await form.submit();
    const { error } = (await failed).detail;
    expect(error.code).toBe('cors');
    expect(error.message).toContain('Mcp-Param-Region');
    await form.updateComplete;
    expect(form.shadowRoot!.textContent).toContain('Mcp-Param-Region');
  });
});

describe('C27 in a page: a header value fetch cannot send is named, not blamed on CORS', () => {
  test('C27 <mcp-connection> with X-Display-Name: Đorđe', async () => {
    const element = connection(lab.legacyStrict);
    element.headers = { 'X-Display-Name': 'Đorđe' };
    const error = await failure(element);
    expect(error.code).toBe('invalid_header');
    expect(error.message).toContain('X-Display-Name');
    expect(error.message).toMatch(/"Đ" \(U\+0110\)/);
    expect(error.message).not.toMatch(/Access-Control|CORS/);
  });
});

describe('the CORS diagnosis of a URL with credentials, and of a bridge (issue 29 item 6)', () => {
  const secret = 's3cret-in-url';

  test('a bridge URL (loopback, ?token=) this page cannot reach: the fix names the bridge\'s --allow-origin, and no text carries the token', async () => {
    const { diagnoseCors } = await import('./diagnose.js');
    const { corsError } = await import('./cors-doctor.js');
    // A loopback server that answers, with no CORS for this page: the doctor's "origin" case.
    const url = `${lab.noCors}?token=${secret}`;
    const diagnosis = await diagnoseCors(url);
    expect(diagnosis.problem).toBe('origin');
    expect(diagnosis.fix).toContain(`If it is an mcp-web-elements bridge, start it with --allow-origin ${location.origin}`);
    expect(diagnosis.fix).toContain('?token=…');
    const error = corsError(diagnosis, new McpClientError('network', 'Failed to fetch', { url }));
    // One rule: text (the message, data.cors.fix) is masked; url fields keep the URL the caller gave.
    const { url: _url, cors, ...rest } = error.data as { url: string; cors: { url: string } & Record<string, unknown> };
    const { url: _corsUrl, ...corsText } = cors;
    expect(JSON.stringify([error.message, rest, corsText])).not.toContain(secret);
  });

  test('nothing answering is not called CORS: a port nothing listens on is a network error that says to check the URL and the server', async () => {
    const { diagnoseCors } = await import('./diagnose.js');
    const { corsError } = await import('./cors-doctor.js');
    const url = `${lab.nothingListens}?token=${secret}`;
    const diagnosis = await diagnoseCors(url);
    expect(diagnosis.problem).toBe('unreachable');
    const error = corsError(diagnosis, new McpClientError('network', 'Failed to fetch', { url }));
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/^Could not reach http:\/\/127\.0\.0\.1:\d+\/mcp\?token=… — no response at all\. Nothing answered: .*Check the URL and that the server is running\.$/);
    expect(error.message).not.toMatch(/CORS|allow-origin/i);
    expect(error.message).not.toContain(secret);
  });

  test('a server whose CORS refuses a header: the fix shows its URL with the API key and the user:password masked', async () => {
    const { diagnoseCors } = await import('./diagnose.js');
    const withKey = new URL(corsBroken);
    withKey.searchParams.set('key', secret);
    const diagnosis = await diagnoseCors(withKey.href, { protocol: 'modern' });
    expect(diagnosis.problem).toBe('headers');
    expect(diagnosis.fix).toContain('?key=…');
    expect(diagnosis.fix).not.toContain(secret);
    // Not a bridge (no token): no bridge flag in the fix.
    expect(diagnosis.fix).not.toContain('--allow-origin');
    const withUser = new URL(corsBroken);
    withUser.username = 'me';
    withUser.password = secret;
    // A page's fetch refuses such a URL outright: said so, not blamed on CORS.
    const refused = await diagnoseCors(withUser.href);
    expect(refused.problem).toBe('unreachable');
    expect(refused.fix).toMatch(/^A page's fetch refuses any URL with a user name or password in it \(http:\/\/…@127\.0\.0\.1:\d+\/mcp \)/);
    expect(refused.fix).not.toContain(secret);
  });
});
