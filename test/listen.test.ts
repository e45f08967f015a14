/**
 * `subscriptions/listen` (spec: basic/patterns/subscriptions) and result caching
 * (server/utilities/caching) against the official SDK server, plus raw servers
 * for drops, graceful ends and cache scopes.
 */
import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { McpClient } from '../src/index.js';
import { ResultCache } from '../src/client/cache.js';
import { startModernServer, startRawServer, type ModernServer } from './support/servers.js';

let server: ModernServer;
beforeAll(async () => {
  server = await startModernServer({ cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' } } });
});
afterAll(() => server.close());

const quiet = { onWarning: () => {} };
const count = (method: string) => server.requests.filter((r) => r.method === 'POST' && r.body.method === method).length;

describe('subscriptions/listen', () => {
  test('acknowledged filter, list-changed notification, cache invalidation and event', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    expect((await client.listTools()).map((t) => t.name)).not.toContain('bonus');
    const listsBefore = count('tools/list');
    await client.listTools();
    expect(count('tools/list')).toBe(listsBefore); // fresh for 60 s: served from the cache

    let changed = 0;
    client.on('toolsChanged', () => changed++);
    const notifications: string[] = [];
    const acknowledged: unknown[] = [];
    const subscription = client.listen({ toolsListChanged: true, promptsListChanged: true }, { onNotification: (n) => notifications.push(n.method), onAcknowledged: (f) => acknowledged.push(f) });
    await expect.poll(() => subscription.state).toBe('open');
    expect(acknowledged).toHaveLength(1);
    expect(subscription.acknowledged).toMatchObject({ toolsListChanged: true });

    const listen = server.requests.filter((r) => r.body?.method === 'subscriptions/listen').at(-1)!;
    expect(listen.body.params.notifications).toEqual({ toolsListChanged: true, promptsListChanged: true });
    expect(listen.headers['mcp-method']).toBe('subscriptions/listen');

    server.setBonus(true);
    await expect.poll(() => changed).toBe(1);
    expect(notifications).toEqual(['notifications/tools/list_changed']);
    // The notification made the cached list stale: the next listing goes to the server.
    expect((await client.listTools()).map((t) => t.name)).toContain('bonus');
    expect(count('tools/list')).toBe(listsBefore + 1);

    const cancels = count('notifications/cancelled');
    subscription.close();
    expect(await subscription.closed).toEqual({ reason: 'client' });
    expect(subscription.state).toBe('closed');
    // Closing the stream is the cancellation on HTTP; nothing else is sent.
    expect(count('notifications/cancelled')).toBe(cancels);
    server.setBonus(false);
  });

  test("the caller's signal: one already aborted sends nothing; aborting closes it; its listener goes when the subscription ends", async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    const before = count('subscriptions/listen');
    const aborted = client.listen({ toolsListChanged: true }, { signal: AbortSignal.abort() });
    expect(await aborted.closed).toEqual({ reason: 'client' });
    expect(aborted.state).toBe('closed');

    const caller = new AbortController();
    const open = client.listen({ toolsListChanged: true }, { signal: caller.signal });
    await expect.poll(() => open.state).toBe('open');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort();
    expect(await open.closed).toEqual({ reason: 'client' });
    expect(count('subscriptions/listen')).toBe(before + 1);

    // Closed by close(): a long-lived signal the page reuses does not keep it (or its closure) alive.
    const pageSignal = new AbortController().signal;
    const closedByPage = client.listen({ toolsListChanged: true }, { signal: pageSignal });
    await expect.poll(() => closedByPage.state).toBe('open');
    closedByPage.close();
    await closedByPage.closed;
    expect(getEventListeners(pageSignal, 'abort')).toHaveLength(0);
  });

  test('a flood of tools/list_changed costs a few events and listings, not one per notification', async () => {
    const client = new McpClient(server.url, { protocol: 'modern', ...quiet });
    let events = 0;
    // What <mcp-connection> does: re-list on every change.
    const listings: Promise<unknown>[] = [];
    client.on('toolsChanged', () => {
      events++;
      listings.push(client.listTools());
    });
    let notifications = 0;
    const subscription = client.listen({ toolsListChanged: true }, { onNotification: () => notifications++ });
    await expect.poll(() => subscription.state).toBe('open');
    const before = count('tools/list');
    for (let i = 0; i < 300; i++) server.handler.notify.toolsChanged();
    server.setBonus(true); // the 301st, after which the list has "bonus"
    await expect.poll(() => notifications, { timeout: 5000 }).toBe(301);
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all(listings);
    expect(events).toBeGreaterThan(0);
    expect(events).toBeLessThan(30);
    // At most one listing in flight plus one follow-up per wave of notifications.
    expect(count('tools/list') - before).toBeLessThanOrEqual(2 * events);
    expect(client.tool('bonus')).toBeDefined();
    subscription.close();
    await subscription.closed;
    server.setBonus(false);
  });

  /** A listen endpoint scripted per attempt. */
  async function listenServer(onListen: (attempt: number, id: number, res: ServerResponse) => void) {
    let attempt = 0;
    return startRawServer((req, res) => {
      const { id, method } = req.json;
      if (method === 'server/discover') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } } } }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      onListen(attempt++, id, res);
    });
  }
  const sse = (res: ServerResponse, message: unknown) => res.write(`data: ${JSON.stringify(message)}\n\n`);
  const ack = (id: number) => ({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': id }, notifications: { toolsListChanged: true } } });

  test('after an unexpected drop it re-listens with a new id and backoff', async () => {
    const raw = await listenServer((attempt, id, res) => {
      sse(res, ack(id));
      if (attempt === 0) setTimeout(() => res.destroy(), 30); // abrupt drop, no response
    });
    try {
      const states: string[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      const subscription = client.listen({ toolsListChanged: true }, { backoffMs: 50, onState: (s) => states.push(s) });
      await expect.poll(() => raw.bodies().filter((b) => b.method === 'subscriptions/listen').length, { timeout: 3000 }).toBe(2);
      await expect.poll(() => subscription.state).toBe('open');
      const ids = raw.bodies().filter((b) => b.method === 'subscriptions/listen').map((b) => b.id);
      expect(ids[0]).not.toBe(ids[1]);
      expect(states).toEqual(['open', 'reconnecting', 'open']);
      subscription.close();
      await subscription.closed;
    } finally {
      await raw.close();
    }
  });

  test('a server that acknowledges and drops at once gets a growing backoff, not a tight loop', async () => {
    const raw = await listenServer((_attempt, id, res) => {
      sse(res, ack(id));
      setTimeout(() => res.destroy(), 5);
    });
    try {
      const client = new McpClient(raw.url, { protocol: 'modern', ...quiet });
      const subscription = client.listen({ toolsListChanged: true }, { backoffMs: 40 });
      await new Promise((r) => setTimeout(r, 1000));
      const attempts = raw.bodies().filter((b) => b.method === 'subscriptions/listen').length;
      subscription.close();
      await subscription.closed;
      // Doubling from 40 ms (±25 % jitter): about 5 attempts in a second; a reset on each acknowledgement would make ~20.
      expect(attempts).toBeGreaterThanOrEqual(3);
      expect(attempts).toBeLessThanOrEqual(7);
    } finally {
      await raw.close();
    }
  });

  test('a completion result is a graceful end: no re-listen', async () => {
    const raw = await listenServer((_attempt, id, res) => {
      sse(res, ack(id));
      sse(res, { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': id } } });
      sse(res, { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'someone-else' } } });
      res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': id } } })}\n\n`);
    });
    try {
      const warnings: string[] = [];
      const client = new McpClient(raw.url, { protocol: 'modern', onWarning: (w) => warnings.push(w.message) });
      const seen: string[] = [];
      const subscription = client.listen({ toolsListChanged: true }, { backoffMs: 20, onNotification: (n) => seen.push(n.method) });
      expect(await subscription.closed).toEqual({ reason: 'server' });
      // The notification for another subscription id was dropped.
      expect(seen).toEqual(['notifications/tools/list_changed']);
      expect(warnings.join('\n')).toMatch(/for subscription "someone-else"/);
      await new Promise((r) => setTimeout(r, 100));
      expect(raw.bodies().filter((b) => b.method === 'subscriptions/listen')).toHaveLength(1);
    } finally {
      await raw.close();
    }
  });
});

describe('result cache (server/utilities/caching)', () => {
  test('fresh while now < received + ttlMs; then stale', () => {
    let now = 1000;
    const cache = new ResultCache({ now: () => now });
    cache.set('tools/list', {}, { tools: [], ttlMs: 500, cacheScope: 'public' }, undefined);
    now = 1499;
    expect(cache.get('tools/list', {}, undefined)).toBeDefined();
    now = 1500;
    expect(cache.get('tools/list', {}, undefined)).toBeUndefined();
  });

  test('zero, negative or missing ttlMs is never served', () => {
    const cache = new ResultCache();
    for (const ttlMs of [0, -5, undefined]) {
      cache.set('tools/list', {}, { tools: [], ttlMs, cacheScope: 'public' }, undefined);
      expect(cache.get('tools/list', {}, undefined)).toBeUndefined();
    }
  });

  test('the key includes the cursor and uri; private entries need the same auth context', () => {
    const cache = new ResultCache();
    cache.set('tools/list', { cursor: 'A' }, { tools: ['a'], ttlMs: 1000, cacheScope: 'public' }, undefined);
    expect(cache.get('tools/list', { cursor: 'B' }, undefined)).toBeUndefined();
    expect(cache.get('tools/list', { cursor: 'A' }, 'anyone')).toBeDefined();
    cache.set('resources/read', { uri: 'mem://mine' }, { contents: [], ttlMs: 1000, cacheScope: 'private' }, 'token-1');
    expect(cache.get('resources/read', { uri: 'mem://mine' }, 'token-1')).toBeDefined();
    expect(cache.get('resources/read', { uri: 'mem://mine' }, 'token-2')).toBeUndefined();
    expect(cache.get('resources/read', { uri: 'mem://other' }, 'token-1')).toBeUndefined();
    cache.invalidateResource('mem://mine');
    expect(cache.get('resources/read', { uri: 'mem://mine' }, 'token-1')).toBeUndefined();
  });

  test('list_changed and resources/updated make private entries stale whatever the auth context holds ("|" included)', () => {
    // An identity provider's subject ("auth0|…") as the host's authContext: the entry key must not be split on it.
    const cache = new ResultCache();
    for (const auth of ['auth0|5f3a9c', 'a|tools/list|b', '|', undefined]) {
      cache.set('tools/list', {}, { tools: ['t'], ttlMs: 60_000, cacheScope: 'private' }, auth);
      cache.set('tools/list', { cursor: 'p|2' }, { tools: ['u'], ttlMs: 60_000, cacheScope: 'private' }, auth);
      cache.set('resources/read', { uri: 'mem://a|b' }, { contents: [], ttlMs: 60_000, cacheScope: 'private' }, auth);
      cache.set('prompts/list', {}, { prompts: [], ttlMs: 60_000, cacheScope: 'private' }, auth);
      cache.invalidate('tools/list');
      expect(cache.get('tools/list', {}, auth), String(auth)).toBeUndefined();
      expect(cache.get('tools/list', { cursor: 'p|2' }, auth), String(auth)).toBeUndefined();
      expect(cache.get('prompts/list', {}, auth), String(auth)).toBeDefined();
      cache.invalidateResource('mem://a|b');
      expect(cache.get('resources/read', { uri: 'mem://a|b' }, auth), String(auth)).toBeUndefined();
      cache.invalidate('prompts/list');
    }
  });

  test('a listing after tools/list_changed is fresh for a client whose authContext has a "|" in it', async () => {
    const privateServer = await startModernServer({ cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'private' } } });
    const lists = () => privateServer.requests.filter((r) => r.method === 'POST' && r.body.method === 'tools/list').length;
    try {
      const client = new McpClient(privateServer.url, { protocol: 'modern', authContext: () => 'auth0|5f3a9c', ...quiet });
      expect((await client.listTools()).map((t) => t.name)).not.toContain('bonus');
      await client.listTools();
      expect(lists()).toBe(1);
      let changed = 0;
      client.on('toolsChanged', () => changed++);
      const subscription = client.listen({ toolsListChanged: true });
      await expect.poll(() => subscription.state).toBe('open');
      privateServer.setBonus(true);
      await expect.poll(() => changed).toBe(1);
      expect((await client.listTools()).map((t) => t.name)).toContain('bonus');
      subscription.close();
      await client.close();
    } finally {
      await privateServer.close();
    }
  });

  test('private results are not served to a client using other credentials', async () => {
    const raw = await startRawServer((req, res) => {
      const { id, method } = req.json;
      const who = String(req.headers.authorization ?? 'nobody');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: method === 'server/discover' ? { supportedVersions: ['2026-07-28'], capabilities: {} } : { resources: [{ uri: `mem://${who.replace(/\W/g, '')}`, name: who }], ttlMs: 60_000, cacheScope: 'private' } }));
    });
    try {
      let token = 'Bearer alice';
      const client = new McpClient(raw.url, { protocol: 'modern', headers: () => ({ Authorization: token }), authContext: () => token, ...quiet });
      expect((await client.listResources())[0]!.name).toBe('Bearer alice');
      expect((await client.listResources())[0]!.name).toBe('Bearer alice');
      expect(raw.bodies().filter((b) => b.method === 'resources/list')).toHaveLength(1);
      token = 'Bearer bob';
      expect((await client.listResources())[0]!.name).toBe('Bearer bob');
      expect(raw.bodies().filter((b) => b.method === 'resources/list')).toHaveLength(2);
    } finally {
      await raw.close();
    }
  });

  test('without authContext, an API key header scopes private entries too; a header that is not a credential does not', async () => {
    // Regression: only Authorization was hashed, so two X-Api-Key values on one URL shared private entries (and stored tasks).
    const raw = await startRawServer((req, res) => {
      const { id, method } = req.json;
      const who = String(req.headers['x-api-key'] ?? 'nobody');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: method === 'server/discover' ? { supportedVersions: ['2026-07-28'], capabilities: {} } : { resources: [{ uri: 'mem://x', name: who }], ttlMs: 60_000, cacheScope: 'private' } }));
    });
    try {
      let key = 'key-erin';
      let requestId = 0;
      const client = new McpClient(raw.url, { protocol: 'modern', headers: () => ({ 'X-Api-Key': key, 'X-Request-Id': String(++requestId) }), ...quiet });
      expect((await client.listResources())[0]!.name).toBe('key-erin');
      expect((await client.listResources())[0]!.name).toBe('key-erin');
      expect(raw.bodies().filter((b) => b.method === 'resources/list')).toHaveLength(1);
      key = 'key-frank';
      expect((await client.listResources())[0]!.name).toBe('key-frank');
      expect(raw.bodies().filter((b) => b.method === 'resources/list')).toHaveLength(2);
    } finally {
      await raw.close();
    }
  });

  test('without authContext, the Authorization header from a headers function scopes private entries', async () => {
    const raw = await startRawServer((req, res) => {
      const { id, method } = req.json;
      const who = String(req.headers.authorization ?? 'nobody');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: method === 'server/discover' ? { supportedVersions: ['2026-07-28'], capabilities: {} } : { resources: [{ uri: 'mem://x', name: who }], ttlMs: 60_000, cacheScope: 'private' } }));
    });
    try {
      let token = 'Bearer carol';
      // What createOAuth() hands the client: a function, called per request.
      const client = new McpClient(raw.url, { protocol: 'modern', headers: async () => ({ Authorization: token }), ...quiet });
      expect((await client.listResources())[0]!.name).toBe('Bearer carol');
      expect((await client.listResources())[0]!.name).toBe('Bearer carol');
      expect(raw.bodies().filter((b) => b.method === 'resources/list')).toHaveLength(1);
      token = 'Bearer dave';
      expect((await client.listResources())[0]!.name).toBe('Bearer dave');
      expect(raw.bodies().filter((b) => b.method === 'resources/list')).toHaveLength(2);
    } finally {
      await raw.close();
    }
  });
});
