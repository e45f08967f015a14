/**
 * Real servers for the core tests.
 *
 * - {@link startModernServer}: the official MCP server SDK serving 2026-07-28 on
 *   loopback, with tools that exercise every client feature, and a recorder of
 *   every HTTP request it received (headers and parsed body).
 * - {@link startRawServer}: a bare `node:http` server for faults a real server
 *   cannot be made to produce (exact bytes, broken framing, wrong content types).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import * as z from 'zod/v4';
import {
  acceptedContent,
  completable,
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  McpServer,
  ResourceTemplate,
  type CallToolResult,
  type InputRequiredResult,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { applyCors, closeServer, listen, readBody, readJsonBody, type CorsPolicy } from './http.js';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export interface RunningServer {
  url: string;
  origin: string;
  requests: RecordedRequest[];
  /** JSON-RPC bodies of the recorded POSTs, in order. */
  bodies(): any[];
  close(): Promise<void>;
}

export interface ModernServer extends RunningServer {
  handler: McpHttpHandler;
  /** Tool names whose handler saw its request cancelled (stream closed). */
  cancelled: string[];
  /** Enables or disables the `bonus` tool (announced through subscriptions/listen). */
  setBonus(enabled: boolean): void;
}




/** A tool schema from plain JSON Schema (the SDK's JSON-Schema typing is narrower than real schemas). */
const schema = (json: Record<string, unknown>) => fromJsonSchema(json as never);
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    // The abort listener goes when the sleep ends: a tool that sleeps step after step on one
    // request's signal would otherwise pile them up (Node's MaxListenersExceededWarning).
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export interface ModernServerOptions {
  /** Cache hints for list results (default: none, i.e. ttlMs 0). */
  cacheHints?: Record<string, { ttlMs: number; cacheScope: 'public' | 'private' }>;
  /** `legacy` posture of the handler; default 'reject' (modern only). */
  legacy?: 'stateless' | 'reject';
  /** Response shape; default: the SDK's choice. */
  responseMode?: 'json' | 'sse';
  /** CORS for pages (element tests): answered preflights and allowed origins. Default: none. */
  cors?: CorsPolicy;
  /** Answers a request with a redirect instead (status and `Location`), when it returns one. */
  redirect?: (request: { method: string; url: string; body: any }) => { status: number; location: string } | undefined;
}

/** Builds the test server's tools, resources and prompts. */
function buildServer(state: { bonus: boolean; cancelled: string[] }, options: ModernServerOptions): McpServer {
  const server = new McpServer(
    { name: 'kit-test-server', version: '1.2.3' },
    { capabilities: { logging: {} }, ...(options.cacheHints ? { cacheHints: options.cacheHints as never } : {}) },
  );

  server.registerTool(
    'echo',
    {
      description: 'Echoes its text argument',
      inputSchema: schema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
    },
    async (args: any) => text(`echo: ${args.text}`),
  );

  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: schema({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }),
    },
    async (args: any) => text(String(args.a + args.b)),
  );

  server.registerTool(
    'slow',
    {
      description: 'Takes `steps` × `delayMs`, reporting progress each step',
      inputSchema: schema({ type: 'object', properties: { steps: { type: 'integer' }, delayMs: { type: 'integer' } } }),
    },
    async (args: any, ctx: any) => {
      const steps = args.steps ?? 3;
      const token = ctx.mcpReq._meta?.progressToken;
      try {
        for (let i = 1; i <= steps; i++) {
          await sleep(args.delayMs ?? 50, ctx.mcpReq.signal);
          if (token !== undefined) {
            await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
          }
        }
      } catch {
        state.cancelled.push('slow');
        return text('cancelled');
      }
      return text(`done after ${steps} steps`);
    },
  );

  server.registerTool(
    'chatty',
    {
      description: 'Logs before answering',
      inputSchema: schema({ type: 'object', properties: {} }),
    },
    async (_args: any, ctx: any) => {
      await ctx.mcpReq.log('info', 'working on it');
      return text('chatty done');
    },
  );

  server.registerTool(
    'weather',
    {
      description: 'Structured weather',
      inputSchema: schema({ type: 'object', properties: { city: { type: 'string' }, broken: { type: 'boolean' }, fail: { type: 'boolean' } }, required: ['city'] }),
      outputSchema: schema({
        type: 'object',
        properties: { city: { type: 'string' }, celsius: { type: 'number' } },
        required: ['city', 'celsius'],
      }),
    },
    async (args: any) => {
      if (args.fail) return { content: [{ type: 'text', text: 'no such city' }], isError: true };
      // `broken` returns data that violates the outputSchema (celsius as a string).
      const structuredContent = args.broken ? { city: args.city, celsius: 'warm' } : { city: args.city, celsius: 21.5 };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent } as CallToolResult;
    },
  );

  server.registerTool(
    'route',
    {
      description: 'Has parameters mirrored into headers',
      inputSchema: schema({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          shard: { type: 'integer', 'x-mcp-header': 'Shard' },
          dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
          options: { type: 'object', properties: { tenant: { type: 'string', 'x-mcp-header': 'Tenant' } } },
          query: { type: 'string' },
        },
      }),
    },
    async (args: any) => text(`routed ${JSON.stringify(args)}`),
  );

  // --- multi round-trip tools --------------------------------------------------------
  server.registerTool(
    'confirm',
    { description: 'Asks the user to confirm (form elicitation)', inputSchema: schema({ type: 'object', properties: { action: { type: 'string' } } }) },
    async (args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
      if (view.kind === 'elicit') {
        if (view.action !== 'accept') return text(`not confirmed: ${view.action}`);
        const content = acceptedContent<{ ok: boolean; note?: string }>(ctx.mcpReq.inputResponses, 'confirm');
        return text(`confirmed=${content?.ok} note=${content?.note ?? ''}`);
      }
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: `Really ${args.action ?? 'proceed'}?`,
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', title: 'OK' }, note: { type: 'string' } }, required: ['ok'] },
          }),
        },
      });
    },
  );

  server.registerTool(
    'confirm_then_work',
    {
      description: 'Asks for a confirmation, then works `steps` × `delayMs`, reporting progress when the request has a token',
      inputSchema: schema({ type: 'object', properties: { steps: { type: 'integer' }, delayMs: { type: 'integer' } } }),
    },
    async (args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      if (inputResponse(ctx.mcpReq.inputResponses, 'go').kind !== 'elicit') {
        return inputRequired({ inputRequests: { go: inputRequired.elicit({ message: 'Start the work?', requestedSchema: { type: 'object', properties: {} } }) } });
      }
      const token = ctx.mcpReq._meta?.progressToken;
      const steps = args.steps ?? 3;
      for (let i = 1; i <= steps; i++) {
        await sleep(args.delayMs ?? 50, ctx.mcpReq.signal);
        if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
      }
      return text(`worked ${steps} steps`);
    },
  );

  server.registerTool(
    'two_step',
    { description: 'Two elicitation rounds carried by requestState', inputSchema: schema({ type: 'object', properties: {} }) },
    async (_args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const raw = ctx.mcpReq.requestState?.() as unknown;
      const state = typeof raw === 'string' ? JSON.parse(raw) : raw;
      if (!state) {
        const first = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'name');
        if (!first) {
          return inputRequired({
            inputRequests: { name: inputRequired.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }) },
          });
        }
        return inputRequired({
          inputRequests: { city: inputRequired.elicit({ message: 'Your city?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }) },
          requestState: JSON.stringify({ name: first.name }),
        });
      }
      const second = acceptedContent<{ city: string }>(ctx.mcpReq.inputResponses, 'city');
      return text(`${state.name} from ${second?.city ?? '?'}`);
    },
  );

  server.registerTool(
    'pair',
    { description: 'Two input requests in one round', inputSchema: schema({ type: 'object', properties: {} }) },
    async (_args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const a = acceptedContent<{ a: string }>(ctx.mcpReq.inputResponses, 'first');
      const b = inputResponse(ctx.mcpReq.inputResponses, 'roots');
      if (!a || b.kind !== 'roots') {
        return inputRequired({
          inputRequests: {
            first: inputRequired.elicit({ message: 'First?', requestedSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } }),
            roots: inputRequired.listRoots(),
          },
        });
      }
      return text(`a=${a.a} roots=${b.roots.map((r) => r.uri).join(',')}`);
    },
  );

  server.registerTool(
    'sample',
    { description: 'Asks the client to sample', inputSchema: schema({ type: 'object', properties: {} }) },
    async (_args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'haiku');
      if (view.kind === 'sampling') return text(`model said: ${(view as any).result.content.text}`);
      return inputRequired({
        inputRequests: {
          haiku: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }], maxTokens: 50 }),
        },
      });
    },
  );

  server.registerTool(
    'open_url',
    { description: 'URL-mode elicitation', inputSchema: schema({ type: 'object', properties: {} }) },
    async (_args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'consent');
      if (view.kind === 'elicit') return text(`url consent: ${view.action}`);
      return inputRequired({ inputRequests: { consent: inputRequired.elicitUrl({ message: 'Approve on the site', url: 'https://example.com/approve?x=1' }) } });
    },
  );

  server.registerTool(
    'forever',
    { description: 'Always asks again', inputSchema: schema({ type: 'object', properties: {} }) },
    async () =>
      inputRequired({
        inputRequests: { again: inputRequired.elicit({ message: 'Again?', requestedSchema: { type: 'object', properties: { x: { type: 'string' } } } }) },
      }),
  );

  if (state.bonus) {
    server.registerTool('bonus', { description: 'Appears after setBonus(true)', inputSchema: schema({ type: 'object', properties: {} }) }, async () => text('bonus!'));
  }

  server.registerResource('readme', 'mem://readme', { title: 'Read me', mimeType: 'text/plain' }, async (uri: URL) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello resource' }],
  }));
  server.registerResource(
    'note',
    new ResourceTemplate('mem://notes/{id}', { list: undefined }),
    { title: 'A note', mimeType: 'text/plain' },
    async (uri: URL, variables: Record<string, string | string[]>) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: `note ${String(variables.id)}` }] }),
  );
  server.registerPrompt(
    'greet',
    { title: 'Greeting', description: 'Greets someone', argsSchema: schema({ type: 'object', properties: { who: { type: 'string' } }, required: ['who'] }) as never },
    async (args: any) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${args.who}!` } }] }),
  );
  server.registerPrompt(
    'review',
    {
      description: 'A prompt with a completable argument',
      argsSchema: z.object({ language: completable(z.string(), (value: string) => ['typescript', 'tcl', 'python'].filter((l) => l.startsWith(value))) }),
    },
    async ({ language }: { language: string }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review ${language}` } }] }),
  );
  return server;
}

/** Starts the official-SDK server (2026-07-28) on a random loopback port. */
export async function startModernServer(options: ModernServerOptions = {}): Promise<ModernServer> {
  const state = { bonus: false, cancelled: [] as string[] };
  const handler = createMcpHandler(() => buildServer(state, options), {
    legacy: options.legacy ?? 'reject',
    ...(options.responseMode ? { responseMode: options.responseMode } : {}),
  });
  const node = toNodeHandler(handler);
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body: unknown = await readJsonBody(req);
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body });
    if (options.cors && applyCors(req, res, options.cors)) return;
    const redirect = options.redirect?.({ method: req.method ?? '', url: req.url ?? '', body });
    if (redirect) return void res.writeHead(redirect.status, { Location: redirect.location }).end();
    await node(req as never, res as never, body);
  });
  const origin = await listen(server);
  return {
    url: `${origin}/mcp`,
    origin,
    requests,
    bodies: () => requests.filter((r) => r.method === 'POST').map((r) => r.body),
    handler,
    cancelled: state.cancelled,
    setBonus(enabled: boolean) {
      state.bonus = enabled;
      handler.notify.toolsChanged();
    },
    async close() {
      await handler.close();
      await closeServer(server);
    },
  };
}

export type RawHandler = (req: IncomingMessage & { bodyText: string; json: any }, res: ServerResponse) => void | Promise<void>;

/** Starts a bare `node:http` server that answers with exactly what `handle` writes. */
export async function startRawServer(handle: RawHandler): Promise<RunningServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const bodyText = req.method === 'POST' ? await readBody(req) : '';
    let json: any;
    try {
      json = bodyText ? JSON.parse(bodyText) : undefined;
    } catch {
      json = undefined;
    }
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body: json ?? bodyText });
    try {
      await handle(Object.assign(req, { bodyText, json }), res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    }
  });
  const origin = await listen(server);
  return {
    url: `${origin}/mcp`,
    origin,
    requests,
    bodies: () => requests.filter((r) => r.method === 'POST').map((r) => r.body),
    close: () => closeServer(server),
  };
}

/** Writes `chunks` one `write()` at a time with a pause between them. */
export async function writeChunks(res: ServerResponse, chunks: (string | Uint8Array)[], delayMs = 5): Promise<void> {
  for (const chunk of chunks) {
    res.write(chunk);
    await new Promise((r) => setTimeout(r, delayMs));
  }
}
