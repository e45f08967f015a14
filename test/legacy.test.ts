/**
 * The client against real legacy servers started by the test, in `auto` mode:
 * - `@modelcontextprotocol/server-everything` over Streamable HTTP (sessionful,
 *   resumable) and over the deprecated HTTP+SSE transport (2024-11-05);
 * - the official SDK pinned to legacy serving, sessionful (server → client
 *   requests on SSE, event store) and stateless.
 * Server requests are answered through the same input handlers the MRTR path
 * uses.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { McpClient, MemoryEraCache, type ElicitationHandler, type JsonObject, type McpClientOptions } from '../src/index.js';
import { recordingFetch, startEverything, startLegacySdkServer, type ChildServer, type LegacySdkServer } from './support/legacy-servers.js';

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const texts = (result: any): string => (result.content ?? []).map((c: any) => c.text ?? '').join('\n');

function newClient(url: string, options: McpClientOptions = {}): McpClient {
  return new McpClient(url, { eraCache: new MemoryEraCache(), onWarning: () => {}, ...options });
}

describe('server-everything over Streamable HTTP', () => {
  let server: ChildServer;
  beforeAll(async () => {
    server = await startEverything('streamableHttp');
  });
  afterAll(() => server?.close());

  test('auto mode detects legacy, negotiates 2025-11-25 and keeps the session id and version on every request', async () => {
    const wire = recordingFetch();
    const client = newClient(server.url, { fetch: wire.fetch });
    const description = await client.connect();
    expect(description).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', supportedVersions: ['2025-11-25'], serverInfo: { name: 'mcp-servers/everything' } });
    expect(description.capabilities.resources).toMatchObject({ subscribe: true });
    expect(typeof description.instructions).toBe('string');
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(texts(await client.callTool('echo', { message: 'dual era' }))).toBe('Echo: dual era');
    await client.close();

    const methods = wire.records.map((r) => `${r.method} ${r.body?.method ?? ''}`.trim());
    expect(methods.slice(0, 3)).toEqual(['POST server/discover', 'POST initialize', 'POST notifications/initialized']);
    const initialize = wire.records[1]!;
    expect(initialize.body.params).toMatchObject({ protocolVersion: '2025-11-25', clientInfo: { name: 'mcp-web-elements' } });
    expect(initialize.headers['mcp-session-id']).toBeUndefined();
    const sessionId = wire.records[2]!.headers['mcp-session-id'];
    expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
    for (const record of wire.records.slice(2)) {
      expect(record.headers['mcp-session-id']).toBe(sessionId);
      expect(record.headers['mcp-protocol-version']).toBe('2025-11-25');
    }
    // The standalone stream, and DELETE on close (LEG-6, LEG-7).
    expect(wire.records.some((r) => r.method === 'GET' && r.headers.accept === 'text/event-stream')).toBe(true);
    expect(wire.records.at(-1)).toMatchObject({ method: 'DELETE', status: 200 });
    // Legacy requests carry no modern _meta: only the progress token that lets progress reset the timeout.
    const call = wire.records.find((r) => r.body?.method === 'tools/call')!;
    expect(call.body.params._meta).toEqual({ progressToken: expect.any(String) });
  });

  test('elicitation, sampling and roots are answered through the input handlers', async () => {
    const seen: { method: string; target?: string; fields: string[] }[] = [];
    const client = newClient(server.url);
    client.setInputHandler('elicitation/create', {
      modes: ['form'],
      handle: async (params, context) => {
        seen.push({ method: context.method, target: context.target, fields: Object.keys((params as any).requestedSchema.properties) });
        return { action: 'accept', content: { name: 'Grace Hopper', check: true, email: 'grace@example.test' } };
      },
    });
    client.setInputHandler('sampling/createMessage', {
      handle: async (params) => ({ role: 'assistant', content: { type: 'text', text: `echoing ${(params.messages[0]!.content as any).text}` }, model: 'kit-model', stopReason: 'endTurn' }),
    });
    client.setInputHandler('roots/list', { handle: async () => ({ roots: [{ uri: 'file:///srv/kit-root', name: 'kit root' }] }) });

    const elicited = texts(await client.callTool('trigger-elicitation-request', {}));
    expect(elicited).toContain('Grace Hopper');
    expect(elicited).toContain('grace@example.test');
    expect(seen).toEqual([{ method: 'tools/call', target: 'trigger-elicitation-request', fields: expect.arrayContaining(['name', 'check', 'email']) }]);

    const sampled = texts(await client.callTool('trigger-sampling-request', { prompt: 'tell me' }));
    expect(sampled).toContain('kit-model');
    expect(sampled).toContain('echoing');
    expect(sampled).toContain('tell me');

    const roots = texts(await client.callTool('get-roots-list', {}));
    expect(roots).toContain('file:///srv/kit-root');
    expect(roots).toContain('kit root');
    await client.close();
  });

  test('URL-mode elicitation is answered through the same handler', async () => {
    const urls: string[] = [];
    const client = newClient(server.url);
    client.setInputHandler('elicitation/create', {
      modes: ['form', 'url'],
      handle: async (params) => {
        if (params.mode === 'url') urls.push(params.url);
        return { action: 'accept' };
      },
    });
    const result = texts(await client.callTool('trigger-url-elicitation', { url: 'https://login.example.test/start' }));
    expect(urls).toEqual(['https://login.example.test/start']);
    expect(result.toLowerCase()).toContain('accept');
    await client.close();
  });

  test('URLElicitationRequired (-32042): the elicitations go to the URL-mode handler, then the call is retried', async () => {
    const client = newClient(server.url);
    const asked: unknown[] = [];
    client.setInputHandler('elicitation/create', { modes: ['form', 'url'], handle: async (params) => (asked.push(params), { action: 'accept' }) });
    const args = { url: 'https://login.example.test/consent', errorPath: true };
    // The server lets the same call through once the prerequisite is handled.
    expect(texts(await client.callTool('trigger-url-elicitation', args)).toLowerCase()).toContain('accept');
    // First the page the -32042 error named, then (on the retry) the server's own URL-mode request.
    expect(asked).toEqual([
      expect.objectContaining({ mode: 'url', elicitationId: expect.any(String), url: expect.stringMatching(/^https:/) }),
      expect.objectContaining({ mode: 'url', url: args.url }),
    ]);
    await client.close();
  });

  test('progress notifications reach onProgress, with the token in params._meta', async () => {
    const wire = recordingFetch();
    const client = newClient(server.url, { fetch: wire.fetch });
    const progress: number[] = [];
    const result = await client.callTool('trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
    expect(texts(result)).toContain('Steps: 3');
    expect(progress).toEqual([1, 2, 3]);
    const call = wire.records.find((r) => r.body?.method === 'tools/call')!;
    expect(Object.keys(call.body.params._meta)).toEqual(['progressToken']);
    await client.close();
  });

  test('resource subscriptions: resources/subscribe, then updates on the standalone stream, unsubscribe on close', async () => {
    const wire = recordingFetch();
    const client = newClient(server.url, { fetch: wire.fetch });
    const resources = await client.listResources();
    const uri = resources[0]!.uri;
    const updated: string[] = [];
    client.on('resourceUpdated', (event) => updated.push(event.uri));
    const acknowledged: unknown[] = [];
    const subscription = client.listen({ resourceSubscriptions: [uri] }, { onAcknowledged: (filter) => acknowledged.push(filter) });
    await waitFor(() => subscription.state === 'open');
    expect(acknowledged).toEqual([{ resourceSubscriptions: [uri] }]);
    expect(wire.records.find((r) => r.body?.method === 'resources/subscribe')?.body.params).toEqual({ uri });
    // The server pushes an update for every subscribed URI as soon as this is toggled on.
    await client.callTool('toggle-subscriber-updates', {});
    // Pushed at once, then every 5 s: allow one more round in case the stream was still connecting.
    await waitFor(() => updated.length > 0, 8000);
    expect(updated[0]).toBe(uri);
    subscription.close();
    expect(await subscription.closed).toEqual({ reason: 'client' });
    await waitFor(() => wire.records.some((r) => r.body?.method === 'resources/unsubscribe'));
    await client.callTool('toggle-subscriber-updates', {});
    await client.close();
  });

  test('aborting a call POSTs notifications/cancelled with its id', async () => {
    const wire = recordingFetch();
    const client = newClient(server.url, { fetch: wire.fetch });
    await client.connect();
    const controller = new AbortController();
    const call = client.callTool('trigger-long-running-operation', { duration: 5, steps: 5 }, { signal: controller.signal });
    await waitFor(() => wire.records.some((r) => r.body?.method === 'tools/call'));
    controller.abort();
    expect((await call.catch((e) => e)).code).toBe('aborted');
    await waitFor(() => wire.records.some((r) => r.body?.method === 'notifications/cancelled' && r.status !== undefined));
    const callId = wire.records.find((r) => r.body?.method === 'tools/call')!.body.id;
    const cancelled = wire.records.find((r) => r.body?.method === 'notifications/cancelled')!;
    expect(cancelled.body.params.requestId).toBe(callId);
    expect(cancelled.status).toBe(202);
    await client.close();
  });
});

describe('server-everything over HTTP+SSE (2024-11-05)', () => {
  let server: ChildServer;
  beforeAll(async () => {
    server = await startEverything('sse');
  });
  afterAll(() => server?.close());

  test('Streamable HTTP is refused, the endpoint event is followed, tools and elicitation work', async () => {
    const wire = recordingFetch();
    const warnings: string[] = [];
    const client = newClient(server.url, { fetch: wire.fetch, onWarning: (w) => warnings.push(w.code) });
    const answered: string[] = [];
    client.setInputHandler('elicitation/create', { modes: ['form'], handle: async (_params, context) => (answered.push(context.method), { action: 'accept', content: { name: 'Lin', check: false } }) });
    const description = await client.connect();
    expect(description.era).toBe('legacy');
    expect(description.serverInfo?.name).toBe('mcp-servers/everything');
    expect(warnings).toContain('legacy-http-sse');
    expect(wire.records.slice(0, 3).map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`)).toEqual(['POST /sse 404', 'POST /sse 404', 'GET /sse 200']);
    const endpoint = wire.records.find((r) => r.body?.method === 'initialize' && r.status === 202)!;
    expect(new URL(endpoint.url).pathname).toBe('/message');
    expect(new URL(endpoint.url).searchParams.get('sessionId')).toBeTruthy();

    expect(texts(await client.callTool('echo', { message: 'old transport' }))).toBe('Echo: old transport');
    expect(texts(await client.callTool('trigger-elicitation-request', {}))).toContain('Lin');
    // One stream carries everything on this transport, so a server request cannot be tied to the call that caused it.
    expect(answered).toEqual(['elicitation/create']);
    const progress: number[] = [];
    await client.callTool('trigger-long-running-operation', { duration: 0.2, steps: 2 }, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
    await client.close();
  });
});

describe('official SDK pinned to legacy serving, with sessions', () => {
  let server: LegacySdkServer;
  beforeAll(async () => {
    server = await startLegacySdkServer('sessions');
  });
  afterAll(() => server?.close());

  const form: ElicitationHandler = { modes: ['form'], handle: async () => ({ action: 'accept', content: { colour: 'teal' } }) };

  test('a form elicitation pushed on the call\'s SSE stream is answered by POST', async () => {
    const client = newClient(server.url);
    client.setInputHandler('elicitation/create', form);
    const description = await client.connect();
    expect(description).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'kit-legacy-server' }, instructions: 'A legacy test server.' });
    expect(texts(await client.callTool('ask', {}))).toBe('answer: {"action":"accept","content":{"colour":"teal"}}');
    await client.close();
  });

  test('URL elicitation: notifications/elicitation/complete is delivered once, an unknown id is dropped', async () => {
    const client = newClient(server.url);
    client.setInputHandler('elicitation/create', { modes: ['form', 'url'], handle: async () => ({ action: 'accept' }) });
    const completions: JsonObject[] = [];
    client.on('notification', (n) => n.method === 'notifications/elicitation/complete' && completions.push(n.params as JsonObject));
    expect(texts(await client.callTool('link', {}))).toBe('url answer: accept');
    expect(completions).toHaveLength(1);
    expect(completions[0]!.elicitationId).not.toBe('never-issued');
    await client.close();
  });

  test('URL elicitation (issue 29, item 4): the server\'s completion before any answer ends the wait with accept and aborts the handler; the handler is told to answer on open', async () => {
    const client = newClient(server.url);
    const seen: { urlAnswer?: string; aborted?: boolean } = {};
    client.setInputHandler('elicitation/create', {
      modes: ['form', 'url'],
      // A user who never comes back to the dialog: only the signal ends this.
      handle: (_params, context) =>
        new Promise((_resolve, reject) => {
          seen.urlAnswer = context.urlAnswer;
          context.signal.addEventListener('abort', () => {
            seen.aborted = true;
            reject(context.signal.reason);
          });
        }),
    });
    expect(texts(await client.callTool('link_done_elsewhere', {}))).toBe('url answer: accept');
    expect(seen).toEqual({ urlAnswer: 'on-open', aborted: true });
    await client.close();
  });

  test('sampling and roots through the handlers; a later roots handler announces notifications/roots/list_changed', async () => {
    const client = newClient(server.url);
    client.setInputHandler('sampling/createMessage', { handle: async () => ({ role: 'assistant', content: { type: 'text', text: 'hello there' }, model: 'm1' }) });
    client.setInputHandler('roots/list', { handle: async () => ({ roots: [{ uri: 'file:///one' }] }) });
    expect(texts(await client.callTool('sample', {}))).toBe('sampled: {"type":"text","text":"hello there"}');
    expect(texts(await client.callTool('roots', {}))).toBe('roots: file:///one');
    const initialize = server.bodies().filter((b) => b?.method === 'initialize').at(-1);
    expect(initialize.params.capabilities).toEqual({ sampling: {}, roots: { listChanged: true } });
    const before = server.state.notifications.length;
    client.setInputHandler('roots/list', { handle: async () => ({ roots: [{ uri: 'file:///two' }] }) });
    await waitFor(() => server.state.notifications.length > before);
    expect(server.state.notifications.at(-1)).toBe('notifications/roots/list_changed');
    expect(texts(await client.callTool('roots', {}))).toBe('roots: file:///two');
    await client.close();
  });

  test('a handler registered after initialize starts a new session that declares it', async () => {
    const warnings: string[] = [];
    const client = newClient(server.url, { onWarning: (w) => warnings.push(w.code) });
    await client.connect();
    const initializes = () => server.bodies().filter((b) => b?.method === 'initialize').length;
    const before = initializes();
    client.setInputHandler('elicitation/create', form);
    expect(texts(await client.callTool('ask', {}))).toContain('teal');
    expect(initializes()).toBe(before + 1);
    expect(server.bodies().filter((b) => b?.method === 'initialize').at(-1).params.capabilities).toEqual({ elicitation: { form: {} } });
    expect(warnings).toContain('legacy-reinitialize');
    await client.close();
  });

  test('a stream closed by the server mid-call is resumed with Last-Event-ID and yields the result', async () => {
    const client = newClient(server.url);
    const logs: unknown[] = [];
    const mark = server.requests.length;
    const result = await client.callTool('interrupted', {}, { onLog: (l) => logs.push(l.data) });
    expect(texts(result)).toBe('answered after the break');
    const resumed = server.requests.slice(mark).filter((r) => r.method === 'GET' && r.headers['last-event-id']);
    expect(resumed.length).toBeGreaterThanOrEqual(1);
    expect(logs).toContain('before the break');
    await client.close();
  });

  test('aborting a call cancels it on the server; the traffic ends the request with a failed event', async () => {
    const client = newClient(server.url);
    await client.connect();
    const failed: unknown[] = [];
    client.on('traffic', (event) => {
      if (event.direction === 'failed') failed.push({ id: event.requestId, method: 'method' in event.message ? event.message.method : undefined, code: (event.error as { code?: unknown } | undefined)?.code });
    });
    const controller = new AbortController();
    let id: unknown;
    client.on('traffic', (event) => {
      if (event.direction === 'out' && 'method' in event.message && event.message.method === 'tools/call') id = event.requestId;
    });
    const call = client.callTool('slow', { ms: 3000 }, { signal: controller.signal });
    await waitFor(() => server.bodies().some((b) => b?.method === 'tools/call' && b.params.name === 'slow'));
    controller.abort();
    await call.catch(() => {});
    expect(failed).toEqual([{ id, method: 'tools/call', code: 'aborted' }]);
    await waitFor(() => server.state.cancelled.includes('slow'));
    await client.close();
  });

  test('C08 with a real server: after it forgets every session the next call re-initializes once and succeeds', async () => {
    const client = newClient(server.url);
    await client.listTools();
    const initializes = () => server.bodies().filter((b) => b?.method === 'initialize').length;
    const before = initializes();
    await server.forgetSessions();
    expect(texts(await client.callTool('echo', { text: 'again' }))).toBe('echo: again');
    expect(initializes()).toBe(before + 1);
    await client.close();
  });

  test('tool list changes arrive on the standalone stream and reach listeners', async () => {
    const client = newClient(server.url);
    await client.listTools();
    let changed = 0;
    client.on('toolsChanged', () => changed++);
    const notified: string[] = [];
    const subscription = client.listen({ toolsListChanged: true }, { onNotification: (n) => notified.push(n.method) });
    await waitFor(() => subscription.state === 'open');
    expect(subscription.acknowledged).toEqual({ toolsListChanged: true });
    // The stream may still be connecting: announce until one arrives.
    for (let i = 0; i < 50 && changed === 0; i++) {
      server.toolsChanged();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(changed).toBeGreaterThan(0);
    expect(notified[0]).toBe('notifications/tools/list_changed');
    subscription.close();
    await client.close();
  });

  test('logLevel is set with logging/setLevel; close sends DELETE and ends the session', async () => {
    const client = newClient(server.url, { logLevel: 'warning' });
    await client.connect();
    expect(server.state.logLevels.at(-1)).toBe('warning');
    const live = server.sessions.size;
    await client.close();
    expect(server.requests.at(-1)?.method).toBe('DELETE');
    await waitFor(() => server.sessions.size === live - 1);
  });

  test('a traffic listener attached after the session started gets the records of later messages', async () => {
    const client = newClient(server.url);
    await client.connect();
    const seen: string[] = [];
    client.on('traffic', (event) => seen.push(`${event.direction} ${'method' in event.message ? event.message.method : 'response'}`));
    await client.callTool('echo', { text: 'watched' });
    expect(seen).toEqual(expect.arrayContaining(['out tools/call', 'in response']));
    await client.close();
  });

  test('client.discover() on a legacy server answers from initialize', async () => {
    const client = newClient(server.url);
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toEqual(['2025-11-25']);
    expect(discovered.capabilities).toMatchObject({ tools: { listChanged: true } });
    expect(server.bodies().some((b) => b?.method === 'server/discover' && b.params?._meta === undefined)).toBe(false);
    await client.close();
  });
});

describe('official SDK pinned to legacy serving, stateless', () => {
  let server: LegacySdkServer;
  beforeAll(async () => {
    server = await startLegacySdkServer('stateless');
  });
  afterAll(() => server?.close());

  test('no session id: requests go without one, the 405 GET is not retried, close sends no DELETE', async () => {
    const client = newClient(server.url);
    const description = await client.connect();
    expect(description).toMatchObject({ era: 'legacy', serverInfo: { name: 'kit-legacy-server' } });
    expect(texts(await client.callTool('echo', { text: 'stateless' }))).toBe('echo: stateless');
    await new Promise((r) => setTimeout(r, 1200));
    await client.close();
    expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
    expect(server.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    const later = server.requests.filter((r) => r.method === 'POST' && r.body.method !== 'server/discover' && r.body.method !== 'initialize');
    expect(later.every((r) => r.headers['mcp-session-id'] === undefined && r.headers['mcp-protocol-version'] === description.protocolVersion)).toBe(true);
  });
});
