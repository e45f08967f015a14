/**
 * Real legacy MCP servers for the dual-era tests.
 *
 * - {@link startEverything}: `@modelcontextprotocol/server-everything` as a
 *   child process, in its Streamable HTTP mode (sessionful, resumable, elicitation,
 *   sampling, roots, progress, resource subscriptions) or its HTTP+SSE
 *   (2024-11-05) mode.
 * - {@link startLegacySdkServer}: the official SDK (v2) pinned to legacy serving,
 *   either stateless (`legacyStatelessFallback`) or sessionful
 *   (`NodeStreamableHTTPServerTransport` with session ids and an event store),
 *   with tools that exercise server → client requests, resumption, cancellation
 *   and list changes. Every HTTP request it receives is recorded.
 * - {@link recordingFetch}: a `fetch` that records what the client sent and the
 *   status it got, without changing anything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { fromJsonSchema, legacyStatelessFallback, McpServer, type CallToolResult, type EventStore } from '@modelcontextprotocol/server';
import type { RecordedRequest, RunningServer } from './servers.js';
import { applyCors, listen, readJsonBody, type CorsPolicy } from './http.js';

const require = createRequire(import.meta.url);

/** A server running in a child process. */
export interface ChildServer {
  url: string;
  origin: string;
  /** Everything the process printed (for failure messages). */
  output(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts server-everything on a free loopback port.
 * @param mode - `streamableHttp` (endpoint `/mcp`) or `sse` (HTTP+SSE, endpoint `/sse`).
 */
export async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<ChildServer> {
  const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [entry, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const ready = new Promise<boolean>((resolve) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (/listening on port|running on port/i.test(output)) resolve(true);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', () => resolve(false));
      setTimeout(() => resolve(false), 20_000);
    });
    if (await ready) {
      // Only the HTTP server is bound to all interfaces by the package; the tests use loopback.
      const origin = `http://127.0.0.1:${port}`;
      return { url: `${origin}/${mode === 'sse' ? 'sse' : 'mcp'}`, origin, output: () => output, close: () => stop(child) };
    }
    await stop(child);
    // A port taken between probing and binding: try another one.
    if (attempt >= 2 || !/EADDRINUSE|already in use/.test(output)) throw new Error(`server-everything (${mode}) did not start:\n${output}`);
  }
}

/** One exchange seen by {@link recordingFetch}. */
export interface FetchRecord {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: any;
  status?: number;
}

/** A `fetch` that records every request (method, URL, lower-cased headers, parsed JSON body) and its status. */
export function recordingFetch(base: typeof fetch = fetch): { fetch: typeof fetch; records: FetchRecord[]; posts(): any[] } {
  const records: FetchRecord[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    let body: any = init?.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        /* keep the text */
      }
    }
    const record: FetchRecord = { method: init?.method ?? 'GET', url: String(input), headers, body };
    records.push(record);
    const response = await base(input, init);
    record.status = response.status;
    return response;
  };
  return { fetch: wrapped, records, posts: () => records.filter((r) => r.method === 'POST').map((r) => r.body) };
}



const schema = (json: Record<string, unknown>) => fromJsonSchema(json as never);
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** What the sessionful SDK server's tools observed. */
export interface LegacyServerState {
  /** Tool names whose request was cancelled by the client. */
  cancelled: string[];
  /** Notifications the server received, by method. */
  notifications: string[];
  /** Log levels set with logging/setLevel. */
  logLevels: string[];
}

export interface LegacySdkServer extends RunningServer {
  state: LegacyServerState;
  /** Live sessions by id. */
  sessions: Map<string, { server: McpServer; transport: NodeStreamableHTTPServerTransport }>;
  /** Forgets every session, as a restarted server would (its next requests get 404). */
  forgetSessions(): Promise<void>;
  /** Announces a tool-list change to every session (delivered on the standalone stream). */
  toolsChanged(): void;
}

/** An event store that keeps everything, so streams can be resumed with Last-Event-ID. */
class MemoryEventStore implements EventStore {
  readonly #events: { id: string; streamId: string; message: unknown }[] = [];
  async storeEvent(streamId: string, message: unknown): Promise<string> {
    const id = `${streamId}:${this.#events.length}`;
    this.#events.push({ id, streamId, message });
    return id;
  }
  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.find((e) => e.id === eventId)?.streamId;
  }
  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: any) => Promise<void> }): Promise<string> {
    const index = this.#events.findIndex((e) => e.id === lastEventId);
    const streamId = this.#events[index]?.streamId ?? '';
    for (const event of this.#events.slice(index + 1)) if (event.streamId === streamId) await send(event.id, event.message);
    return streamId;
  }
}

function buildLegacyServer(state: LegacyServerState): McpServer {
  const server = new McpServer({ name: 'kit-legacy-server', version: '2.5.0' }, { capabilities: { logging: {}, tools: { listChanged: true } }, instructions: 'A legacy test server.' });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: schema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }) }, async (args: any) =>
    text(`echo: ${args.text}`),
  );
  server.registerTool('ask', { description: 'Asks the user for a colour (form elicitation)', inputSchema: schema({ type: 'object', properties: {} }) }, async (_args: any, ctx: any) => {
    const answer = await ctx.mcpReq.elicitInput({
      message: 'Which colour?',
      requestedSchema: { type: 'object', properties: { colour: { type: 'string', title: 'Colour' } }, required: ['colour'] },
    });
    return text(`answer: ${JSON.stringify(answer)}`);
  });
  server.registerTool('link', { description: 'Sends the user to a page (URL elicitation)', inputSchema: schema({ type: 'object', properties: {} }) }, async (_args: any, ctx: any) => {
    const elicitationId = randomUUID();
    const answer = await ctx.mcpReq.elicitInput({ mode: 'url', message: 'Sign in please', url: 'https://auth.example.test/start', elicitationId });
    // Completion notifications: one for the real id, one for an id the client never saw (must be ignored).
    await ctx.mcpReq.notify({ method: 'notifications/elicitation/complete', params: { elicitationId } });
    await ctx.mcpReq.notify({ method: 'notifications/elicitation/complete', params: { elicitationId: 'never-issued' } });
    return text(`url answer: ${answer.action}`);
  });
  server.registerTool('link_done_elsewhere', { description: 'URL elicitation the server sees completed before any answer', inputSchema: schema({ type: 'object', properties: {} }) }, async (_args: any, ctx: any) => {
    const elicitationId = randomUUID();
    const answer = ctx.mcpReq.elicitInput({ mode: 'url', message: 'Sign in please', url: 'https://auth.example.test/start', elicitationId });
    // The interaction finished out of band (the user used another device): the server says so at once.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await ctx.mcpReq.notify({ method: 'notifications/elicitation/complete', params: { elicitationId } });
    return text(`url answer: ${(await answer).action}`);
  });
  server.registerTool('sample', { description: 'Asks the client to sample', inputSchema: schema({ type: 'object', properties: {} }) }, async (_args: any, ctx: any) => {
    const result = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 20 });
    return text(`sampled: ${JSON.stringify(result.content)}`);
  });
  server.registerTool('roots', { description: 'Lists the client roots', inputSchema: schema({ type: 'object', properties: {} }) }, async () => {
    const result = await server.server.listRoots();
    return text(`roots: ${result.roots.map((r: any) => r.uri).join(', ')}`);
  });
  server.registerTool(
    'slow',
    { description: 'Waits `ms`, reporting progress every 50 ms', inputSchema: schema({ type: 'object', properties: { ms: { type: 'integer' } } }) },
    async (args: any, ctx: any) => {
      const token = ctx.mcpReq._meta?.progressToken;
      const steps = Math.max(1, Math.round((args.ms ?? 200) / 50));
      for (let i = 1; i <= steps; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (ctx.mcpReq.signal.aborted) {
          state.cancelled.push('slow');
          return text('cancelled');
        }
        if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
      }
      return text(`slept ${args.ms ?? 200} ms`);
    },
  );
  server.registerTool('interrupted', { description: 'Closes its stream before answering (resumption)', inputSchema: schema({ type: 'object', properties: {} }) }, async (_args: any, ctx: any) => {
    await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: 'before the break' } });
    ctx.http?.closeSSE?.();
    await new Promise((resolve) => setTimeout(resolve, 150));
    return text('answered after the break');
  });
  (server.server.setNotificationHandler as any)('notifications/roots/list_changed', async () => void state.notifications.push('notifications/roots/list_changed'));
  (server.server.setRequestHandler as any)('logging/setLevel', async (request: any) => {
    state.logLevels.push(request.params.level);
    return {};
  });
  return server;
}

/**
 * Starts the official SDK serving only legacy revisions on a random loopback port.
 * @param mode - `sessions`: sessionful with an event store (retry hint 200 ms); `stateless`: `legacyStatelessFallback`.
 * @param options.intercept - answers a request itself instead of the SDK when it returns true (faults: redirects…).
 * @param options.cors - a CORS policy for pages (element and end-to-end tests).
 * @param options.port - the port; default a free one.
 */
export async function startLegacySdkServer(
  mode: 'sessions' | 'stateless',
  options: { intercept?: (req: IncomingMessage, res: ServerResponse, body: any) => boolean; cors?: CorsPolicy; port?: number } = {},
): Promise<LegacySdkServer> {
  const state: LegacyServerState = { cancelled: [], notifications: [], logLevels: [] };
  const sessions = new Map<string, { server: McpServer; transport: NodeStreamableHTTPServerTransport }>();
  const requests: RecordedRequest[] = [];
  const legacyOnly = legacyStatelessFallback(() => buildLegacyServer(state));
  const stateless = mode === 'stateless' ? toNodeHandler({ fetch: legacyOnly }) : undefined;

  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readJsonBody(req);
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body });
    if (options.cors && applyCors(req, res, options.cors)) return;
    if (options.intercept?.(req, res, body)) return;
    if (stateless) return void (await stateless(req as never, res as never, body));
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) return void (await existing.transport.handleRequest(req as never, res as never, body));
    if (typeof sessionId === 'string') {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    if (req.method !== 'POST' || body?.method !== 'initialize') {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Server not initialized' }, id: null }));
      return;
    }
    const server = buildLegacyServer(state);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new MemoryEventStore(),
      retryInterval: 200,
      onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await server.connect(transport);
    await transport.handleRequest(req as never, res as never, body);
  });
  const origin = await listen(http, options.port);
  return {
    url: `${origin}/mcp`,
    origin,
    requests,
    bodies: () => requests.filter((r) => r.method === 'POST').map((r) => r.body),
    state,
    sessions,
    async forgetSessions() {
      const all = [...sessions.values()];
      sessions.clear();
      for (const { server } of all) await server.close().catch(() => {});
    },
    toolsChanged() {
      for (const { server } of sessions.values()) server.sendToolListChanged();
    },
    async close() {
      for (const { server } of sessions.values()) await server.close().catch(() => {});
      sessions.clear();
      await new Promise<void>((resolve) => {
        http.closeAllConnections?.();
        http.close(() => resolve());
      });
    },
  };
}

/** How a {@link startScriptedServer} step recognises a POST. */
export interface ScriptMatch {
  /** JSON-RPC method of the body; `response` for a JSON-RPC response. */
  rpc: string;
  /** Headers that must be present with these values (names in any case). */
  headers?: Record<string, string>;
  /** Headers that must be absent. */
  absent?: string[];
  /** A predicate on the parsed body. */
  body?: (body: any) => boolean;
}

/** What a step answers. `{{id}}` in `body` becomes the JSON of the request's id. */
export interface ScriptReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface ScriptStep {
  match: ScriptMatch;
  reply: ScriptReply | ((req: IncomingMessage & { json: any }, res: ServerResponse) => void | Promise<void>);
  /** The request may not happen; later steps are then matched. */
  optional?: boolean;
}

export interface ScriptedServer extends RunningServer {
  /** POSTs that matched no step (each is a test failure). */
  mismatches: string[];
  /** GET requests received (the standalone stream attempts). */
  gets: RecordedRequest[];
  /** DELETE requests received. */
  deletes: RecordedRequest[];
  /** Steps not reached yet (non-optional ones left over are a failure). */
  remaining(): ScriptStep[];
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * A raw `node:http` server that plays an ordered script of POST exchanges, for
 * faults a real server cannot be made to produce. GET and DELETE are answered
 * by `onGet` / `onDelete` (default 405) and recorded apart, since the client's
 * standalone stream runs concurrently with its POSTs.
 */
export async function startScriptedServer(
  steps: ScriptStep[],
  options: { onGet?: (req: IncomingMessage, res: ServerResponse) => unknown; onDelete?: (req: IncomingMessage, res: ServerResponse) => unknown } = {},
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const mismatches: string[] = [];
  const gets: RecordedRequest[] = [];
  const deletes: RecordedRequest[] = [];
  let cursor = 0;
  const matchesStep = (step: ScriptStep, req: IncomingMessage, json: any): string | undefined => {
    const rpc = json && typeof json === 'object' ? (json.method ?? ('result' in json || 'error' in json ? 'response' : undefined)) : undefined;
    if (rpc !== step.match.rpc) return `expected ${step.match.rpc}, got ${rpc}`;
    for (const [name, value] of Object.entries(step.match.headers ?? {})) {
      if (header(req, name) !== value) return `${rpc}: header ${name} is ${JSON.stringify(header(req, name))}, expected ${JSON.stringify(value)}`;
    }
    for (const name of step.match.absent ?? []) if (header(req, name) !== undefined) return `${rpc}: header ${name} must be absent`;
    if (step.match.body && !step.match.body(json)) return `${rpc}: body does not match: ${JSON.stringify(json)}`;
    return undefined;
  };
  const server = createServer(async (req, res) => {
    const json = await readJsonBody(req);
    const record: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body: json };
    requests.push(record);
    if (req.method === 'GET') {
      gets.push(record);
      if (options.onGet) return void (await options.onGet(req, res));
      return void res.writeHead(405, { Allow: 'POST, DELETE' }).end();
    }
    if (req.method === 'DELETE') {
      deletes.push(record);
      if (options.onDelete) return void (await options.onDelete(req, res));
      return void res.writeHead(200).end();
    }
    let problem: string | undefined;
    let step: ScriptStep | undefined;
    for (let i = cursor; i < steps.length; i++) {
      problem = matchesStep(steps[i]!, req, json);
      if (problem === undefined) {
        step = steps[i];
        cursor = i + 1;
        break;
      }
      if (!steps[i]!.optional) break;
    }
    if (!step) {
      mismatches.push(problem ?? `unexpected ${JSON.stringify(json)}`);
      return void res.writeHead(500, { 'Content-Type': 'text/plain' }).end('script mismatch');
    }
    if (typeof step.reply === 'function') return void (await step.reply(Object.assign(req, { json }), res));
    const body = (step.reply.body ?? '').replaceAll('{{id}}', JSON.stringify(json?.id ?? null));
    res.writeHead(step.reply.status, step.reply.headers ?? {});
    res.end(body);
  });
  const origin = await listen(server);
  return {
    url: `${origin}/mcp`,
    origin,
    requests,
    mismatches,
    gets,
    deletes,
    bodies: () => requests.filter((r) => r.method === 'POST').map((r) => r.body),
    remaining: () => steps.slice(cursor).filter((s) => !s.optional),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
