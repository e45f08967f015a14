/**
 * Isolation of MCP Apps in real Chromium, in both sandbox modes (one iframe
 * with an opaque origin; the proxy page on a second origin): the app cannot
 * read the host page, its cookies, storage or tokens, cannot navigate the top
 * page or open popups, cannot reach origins its CSP does not declare (counted on
 * a real loopback server), and malformed or hostile messages are refused
 * without breaking the host.
 */
import { afterEach, describe, expect, inject, test } from 'vitest';
import { McpClient } from '../../src/index.js';
import { nextEvent } from '../test-support/dom.js';
import type { McpAppFrame } from './mcp-app-frame.js';
import './mcp-app-frame.js';
import { probeResource } from '../test-support/probe-app.js';

afterEach(() => document.body.replaceChildren());

const client = new McpClient(inject('demoServerUrl'), { onWarning: () => {} });
const second = inject('secondOriginUrl');
/** The same loopback server under another name: another origin, never declared. */
const undeclared = second.replace('127.0.0.1', 'localhost');

async function run(actions: unknown[], options: { proxy: boolean; ui?: Record<string, unknown> }): Promise<{ frame: McpAppFrame; logs: Record<string, unknown>[] }> {
  const frame = document.createElement('mcp-app-frame');
  const logs: Record<string, unknown>[] = [];
  frame.addEventListener('mcp-app-log', (event) => {
    if (event.detail.logger === 'probe') logs.push(event.detail.data as Record<string, unknown>);
  });
  frame.client = client;
  frame.policy = 'allow';
  if (options.proxy) frame.sandboxUrl = `${second}/sandbox.html`;
  frame.resource = probeResource(options.ui);
  frame.arguments = { actions };
  const ready = nextEvent(frame, 'mcp-app-ready', 15_000);
  document.body.append(frame);
  await ready;
  await expect.poll(() => logs.some((e) => e.done === actions.length), { timeout: 15_000 }).toBe(true);
  return { frame, logs };
}
const outcomeOf = (logs: Record<string, unknown>[], index: number) => logs.find((e) => e.action === index)!.outcome as never;
const hits = async (): Promise<Record<string, number>> => (await fetch(`${second}/hits`, { cache: 'no-store' })).json();

for (const proxy of [false, true]) {
  describe(proxy ? 'behind the sandbox proxy on a second origin' : 'in one sandboxed iframe', () => {
    test('canary: the app reads nothing of the host page, its cookies, storage or tokens, and cannot navigate the top page or open popups', async () => {
      const canary = `canary-${Math.random()}`;
      (window as unknown as Record<string, string>).__mcpCanary = canary;
      (window.top as unknown as Record<string, string>).__mcpCanary = canary;
      document.cookie = `mcp-canary=${canary}`;
      localStorage.setItem('mcp-canary', canary);
      const href = location.href;
      const topHref = window.top!.location.href;
      const { logs } = await run([{ do: 'isolation' }], { proxy });
      const attempts = outcomeOf(logs, 0) as { name: string; reached: boolean; value?: string; error?: string }[];
      const byName = Object.fromEntries(attempts.map((a) => [a.name, a]));
      expect(JSON.stringify(attempts)).not.toContain(canary);
      for (const name of ['top-canary', 'parent-document', 'cookie', 'localStorage', 'indexedDB']) {
        expect(byName[name], name).toMatchObject({ reached: false, error: 'SecurityError' });
      }
      expect(byName.popup).toMatchObject({ reached: true, value: 'blocked' });
      // Whether the browser throws or ignores it, the top page stays where it was.
      expect(byName['top-navigation']?.value).not.toBe('navigated');
      expect(location.href).toBe(href);
      expect(window.top!.location.href).toBe(topHref);
    });

    test('fetch: a declared origin is reached, an undeclared one is blocked by the CSP before any request', async () => {
      const id = `${proxy ? 'proxy' : 'inline'}-${Math.random().toString(36).slice(2)}`;
      const { logs } = await run(
        [
          { do: 'fetch', url: `${second}/hit/allowed-${id}` },
          { do: 'fetch', url: `${undeclared}/hit/blocked-${id}` },
        ],
        { proxy, ui: { csp: { connectDomains: [second] } } },
      );
      const allowed = outcomeOf(logs, 0) as { outcome: string; violations: unknown[] };
      const blocked = outcomeOf(logs, 1) as { outcome: string; violations: { directive: string; blocked: string }[] };
      expect(allowed).toEqual({ outcome: 'status 200', violations: [] });
      expect(blocked.outcome).toBe('failed TypeError');
      expect(blocked.violations).toEqual([{ directive: 'connect-src', blocked: `${undeclared}/hit/blocked-${id}` }]);
      const counted = await hits();
      expect(counted[`allowed-${id}`]).toBe(1);
      expect(counted[`blocked-${id}`]).toBeUndefined();
    });

    test('code the app makes itself runs (eval, new Function, a blob: script, a blob: worker) with no CSP violation; the network stays closed', async () => {
      const id = `dynamic-${proxy}-${Math.random().toString(36).slice(2)}`;
      const { logs } = await run([{ do: 'dynamic' }, { do: 'fetch', url: `${second}/hit/${id}` }], { proxy });
      expect(outcomeOf(logs, 0)).toEqual({ eval: 42, function: 43, blobScript: 44, worker: 45, violations: [] });
      expect((outcomeOf(logs, 1) as { violations: { directive: string }[] }).violations).toEqual([{ directive: 'connect-src', blocked: `${second}/hit/${id}` }]);
      expect((await hits())[id]).toBeUndefined();
    });

    test('a blob: worker (and a worker it starts) reaches no undeclared origin: fetch, importScripts, EventSource all fail before any request', async () => {
      const id = `worker-${proxy}-${Math.random().toString(36).slice(2)}`;
      const { logs } = await run([{ do: 'worker-net', url: `${undeclared}/hit/${id}` }], { proxy, ui: { csp: { connectDomains: [second], resourceDomains: [second] } } });
      expect(outcomeOf(logs, 0)).toEqual({
        fetch: 'failed TypeError',
        importScripts: 'failed NetworkError',
        eventSource: 'failed Error',
        nested: 'failed Error',
      });
      const counted = await hits();
      expect(Object.keys(counted).filter((key) => key.startsWith(id))).toEqual([]);
    });

    test('without _meta.ui.csp the app reaches no origin at all', async () => {
      const id = `none-${proxy}-${Math.random().toString(36).slice(2)}`;
      const { logs } = await run([{ do: 'fetch', url: `${second}/hit/${id}` }], { proxy });
      expect((outcomeOf(logs, 0) as { violations: { directive: string }[] }).violations).toEqual([{ directive: 'connect-src', blocked: `${second}/hit/${id}` }]);
      expect((await hits())[id]).toBeUndefined();
    });

    test('malformed and hostile messages are refused; the host keeps working', async () => {
      const polluting = JSON.parse('{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"chart_data","arguments":{"__proto__":{"polluted":"yes"},"metric":"sales","days":3}}}');
      const protoParams = JSON.parse('{"jsonrpc":"2.0","id":78,"method":"ui/update-model-context","params":{"__proto__":{"polluted":"yes"}}}');
      const warnings: unknown[] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
      try {
        const { frame, logs } = await run(
          [
            { do: 'raw', message: 'not an object' },
            { do: 'raw', message: { jsonrpc: '1.0', id: 1, method: 'ping' } },
            { do: 'raw', message: { jsonrpc: '2.0', id: 999_999, result: { forged: true } } },
            { do: 'raw', message: { jsonrpc: '2.0', id: { nested: 1 }, method: 'ping' } },
            { do: 'raw', message: { jsonrpc: '2.0', id: 71, method: '__proto__', params: {} } },
            { do: 'raw', message: { jsonrpc: '2.0', id: 72, method: 'constructor' } },
            { do: 'raw', message: { jsonrpc: '2.0', id: 73, method: 'x'.repeat(10_000) } },
            { do: 'raw', message: { jsonrpc: '2.0', id: 74, method: 'tools/call', params: [1, 2] } },
            { do: 'raw', message: polluting },
            { do: 'raw', message: protoParams },
            { do: 'request', method: 'tools/list', params: {} },
          ],
          { proxy },
        );
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.prototype).not.toHaveProperty('polluted');
        // Answers the app got for its raw requests (they arrive as responses it did not track).
        const answeredIds = () => logs.filter((e) => e.unmatched).map((e) => (e.unmatched as { id: unknown }).id);
        await expect.poll(answeredIds, { timeout: 10_000 }).toEqual(expect.arrayContaining([71, 72, 73, 74, 77, 78]));
        const answers = new Map(logs.filter((e) => e.unmatched).map((e) => [(e.unmatched as { id: unknown }).id, e.unmatched as Record<string, unknown>]));
        expect(answers.get(71)).toEqual({ jsonrpc: '2.0', id: 71, error: { code: -32601, message: '__proto__ is not supported by this host' } });
        expect(answers.get(72)).toEqual({ jsonrpc: '2.0', id: 72, error: { code: -32601, message: 'constructor is not supported by this host' } });
        expect(answers.get(73)).toEqual({ jsonrpc: '2.0', id: 73, error: { code: -32600, message: 'The method must be a string of at most 128 characters' } });
        expect(answers.get(74)).toEqual({ jsonrpc: '2.0', id: 74, error: { code: -32602, message: 'params must be an object' } });
        expect((answers.get(77)?.result as { structuredContent: { metric: string } }).structuredContent.metric).toBe('sales');
        expect(answers.get(78)).toMatchObject({ id: 78, error: { code: -32000 } });
        const last = outcomeOf(logs, 10) as { ok: boolean };
        expect(last.ok).toBe(true);
        expect(frame.status).toBe('ready');
        expect(warnings.join('\n')).toContain('which matches no request of the host');
      } finally {
        console.warn = warn;
      }
    });

    test('a flood of requests: a burst is answered, then refusals, the rest dropped unrun, and the host answers again afterwards', async () => {
      const summaries: unknown[] = [];
      const warnings: unknown[] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
      try {
        const frame = document.createElement('mcp-app-frame');
        frame.addEventListener('mcp-app-model-context', (event) => {
          event.preventDefault();
          summaries.push(event.detail.structuredContent);
        });
        frame.client = client;
        if (proxy) frame.sandboxUrl = `${second}/sandbox.html`;
        frame.resource = probeResource();
        frame.arguments = { actions: [{ do: 'flood', count: 2_000 }, { do: 'request', method: 'tools/list', params: {}, retry: true }, { do: 'summary' }] };
        document.body.append(frame);
        await expect.poll(() => summaries.length, { timeout: 15_000 }).toBe(1);
        const summary = summaries[0] as { answered: number; pongs: number; errors: string[] };
        // A burst answered, then refusals while they last (the app learns it is limited); the rest is
        // dropped unread and unanswered: a flood costs the page a count (flood.test.ts).
        expect(summary.answered).toBeGreaterThanOrEqual(500);
        expect(summary.answered).toBeLessThan(2_000);
        expect(summary.pongs).toBeGreaterThan(50);
        expect(summary.pongs).toBeLessThan(1_000);
        expect(summary.errors).toEqual(['Too many messages: at most 100 a second']);
        expect(frame.status).toBe('ready');
        expect(warnings.join('\n')).toContain('messages a second; the excess is refused');
      } finally {
        console.warn = warn;
      }
    });
  });
}

test('messages from any other window than the app are ignored, even shaped like the app\'s', async () => {
  const { frame } = await run([], { proxy: false });
  window.postMessage({ jsonrpc: '2.0', id: 1, method: 'ui/open-link', params: { url: 'https://example.com/' } }, '*');
  window.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 600 } }, '*');
  // Messages from one window arrive in order: once this one is here, the frame has seen the others.
  const marker = new Promise((resolve) => window.addEventListener('message', (event) => event.data === 'marker' && resolve(undefined)));
  window.postMessage('marker', '*');
  await marker;
  expect(frame.shadowRoot!.querySelector('[part~="prompt"]')).toBeNull();
  expect(frame.shadowRoot!.querySelector('iframe')!.style.height).not.toBe('600px');
});
