/**
 * Redirects in real Chromium (issue "Hardening…", item 1): a page cannot see
 * where a redirect points before the browser follows it, so the kit sends every
 * request with `redirect: 'manual'` and learns the target with a bare request
 * (src/transport/redirect.ts). Origin B records every request that reaches it; none may
 * carry anything the kit or the caller put in a request.
 */
import { afterEach, beforeEach, describe, expect, inject, test } from 'vitest';
import { McpClient, MemoryEraCache, type McpError, type ToolCallResult } from '../../src/index.js';
import '../index.js';
import { cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpConnection } from './mcp-connection.js';

const lab = inject('wireLab');

beforeEach(() => cleanup());
afterEach(() => cleanup());

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}
const log = async (): Promise<Seen[]> => (await fetch(`${lab.elsewhere}/__log`, { cache: 'no-store' })).json();

/** What the caller configures, and what an OAuth fetch adds (Authorization, DPoP). */
const callerHeaders = { 'X-Api-Key': 'caller-key' };
const withAuth: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Authorization: 'DPoP token-1', DPoP: 'proof-1' } });

/** Every request B received since `mark` is bare: none of the kit's or the caller's headers, no body. */
function expectBare(seen: Seen[]): void {
  for (const request of seen) {
    const names = Object.keys(request.headers);
    expect(names.filter((n) => /^(authorization|dpop|x-api-key|mcp-.*|last-event-id)$/.test(n))).toEqual([]);
    expect(request.headers['content-type'] ?? '').not.toContain('application/json');
    expect(request.headers['access-control-request-headers'] ?? '').toBe('');
    expect(request.body).toBe('');
  }
}

const client = (url: string) => new McpClient(url, { headers: callerHeaders, fetch: withAuth, eraCache: new MemoryEraCache(), onWarning: () => {} });

describe('a redirect to another origin: a typed error naming both URLs, nothing of the kit\'s or the caller\'s reaches it', () => {
  for (const status of [307, 308]) {
    test(`${status} on every request, McpClient in a page`, async () => {
      const mark = (await log()).length;
      const from = `${lab.redirecting}/r${status}/mcp`;
      const error = await client(from).connect().catch((e) => e);
      expect(error.code).toBe('redirect');
      expect(error.message).toContain(from);
      expect(error.message).toContain(`${lab.elsewhere}/mcp`);
      expect(error.data).toMatchObject({ url: from, location: `${lab.elsewhere}/mcp` });
      const seen = (await log()).slice(mark);
      // B did see the bare request that found the target (so this test watches the right place)…
      expect(seen.length).toBeGreaterThan(0);
      // …and nothing else.
      expectBare(seen);
    });
  }

  test('307 on tools/call only, through <mcp-connection>: the call fails, its arguments stay home', async () => {
    const mark = (await log()).length;
    const element = mount<McpConnection>(`<mcp-connection server-url="${lab.redirecting}/calls/mcp" no-listen></mcp-connection>`);
    element.headers = callerHeaders;
    element.clientOptions = { fetch: withAuth, eraCache: new MemoryEraCache(), onWarning: () => {} };
    await nextEvent(element, 'mcp-connect', 15_000);
    const error: McpError = await element.client!.callTool('echo', { text: 'card 4242' }).catch((e) => e);
    expect(error.code).toBe('redirect');
    // Only the real request (by its body) is redirected, so the bare one that looks for the target is not:
    // the browser never shows where the call would have gone, and the error says so.
    expect(error.message).toContain(`${lab.redirecting}/calls/mcp`);
    expect(error.message).toMatch(/hides its target/);
    const seen = (await log()).slice(mark);
    expectBare(seen);
    expect(seen.some((r) => r.body.includes('4242'))).toBe(false);
  });
});

describe('same-origin redirects keep working in a page', () => {
  test('308 /same/mcp → /mcp: connected, tool called', async () => {
    const mcp = client(`${lab.redirecting}/same/mcp`);
    expect((await mcp.connect()).era).toBe('modern');
    const result = (await mcp.callTool('echo', { text: 'moved' })) as ToolCallResult;
    expect(result.content).toEqual([{ type: 'text', text: 'echo: moved' }]);
  });
});
