/**
 * Loopback servers for the benchmarks.
 *
 * - {@link startEchoServer}: the official server SDK (`createMcpHandler`, 2026-07-28
 *   only) with an `echo` tool and, optionally, many filler tools with wide
 *   schemas; CORS for loopback page origins; counts requests per method.
 * - {@link startReplayServer}: answers `server/discover` and `tools/list` with
 *   results recorded once from a real SDK server, so the big-list benchmark
 *   times the client, not the server's per-request work.
 * - {@link startSseServer}: writes one precomputed `text/event-stream` body.
 * - {@link startStaticServer}: serves the built bench page and bundles.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, legacyStatelessFallback, McpServer } from '@modelcontextprotocol/server';
import { closeServer, readBody } from '../test/support/http.js';

export interface BenchServer {
  /** The MCP endpoint (or the server root for the static server). */
  url: string;
  /** Requests seen, keyed by JSON-RPC method (from `Mcp-Method`), plus `OPTIONS` for CORS preflights. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

/** Request headers any of the three candidates sends. */
const ALLOWED_HEADERS = ['content-type', 'accept', 'authorization', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id', 'last-event-id'];
const loopbackOrigin = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

function listen(server: Server): Promise<number> {
  // A busy machine can leave a client's pooled connection idle past Node's 5 s default; the server
  // closing it then makes the client's next POST fail with ECONNRESET (POSTs are not retried).
  server.keepAliveTimeout = 120_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function count(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * CORS for a page on another loopback port. The allowed headers are one fixed
 * superset, so Chromium's preflight cache (one entry per URL) serves every
 * candidate after the first preflight instead of alternating them.
 * @returns true when the request was a preflight and has been answered.
 */
function cors(req: IncomingMessage, res: ServerResponse, counts: Map<string, number>): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || !loopbackOrigin.test(origin)) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate, MCP-Protocol-Version');
  if (req.method !== 'OPTIONS') return false;
  count(counts, 'OPTIONS');
  const requested = String(req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'POST, GET, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': [...new Set([...ALLOWED_HEADERS, ...requested])].join(', '),
    'Access-Control-Max-Age': '7200',
  });
  res.end();
  return true;
}

/** A filler tool's `inputSchema`: `props` properties of mixed kinds, like a real API wrapper. */
export function wideSchema(index: number, props: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (let p = 0; p < props; p++) {
    const name = `field_${p}`;
    switch (p % 5) {
      case 0:
        properties[name] = { type: 'string', description: `Text value number ${p} of tool ${index}`, maxLength: 200 };
        break;
      case 1:
        properties[name] = { type: 'integer', description: `Count ${p}`, minimum: 0, maximum: 1000 };
        break;
      case 2:
        properties[name] = { type: 'boolean', description: `Switch ${p}`, default: false };
        break;
      case 3:
        properties[name] = { type: 'string', enum: ['low', 'medium', 'high'], description: `Level ${p}` };
        break;
      default:
        properties[name] = { type: 'array', items: { type: 'string' }, description: `Tags ${p}` };
    }
    if (p % 4 === 0) required.push(name);
  }
  return { type: 'object', properties, required };
}

/**
 * `fromJsonSchema(json)` compiled on its first check rather than when the tool is registered: the
 * SDK compiles each schema eagerly (about 15 ms for a 20-property one on a busy core), so a
 * 10,000-tool server took minutes to start, and `createMcpHandler` builds the server per request.
 * The filler tools are listed, never called; what `tools/list` sends is the same JSON Schema.
 */
function lazySchema(json: Record<string, unknown>) {
  let compiled: ReturnType<typeof fromJsonSchema> | undefined;
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'mcp',
      jsonSchema: { input: () => json, output: () => json },
      validate: (data: unknown) => (compiled ??= fromJsonSchema(json as never))['~standard'].validate(data),
    },
  } as unknown as ReturnType<typeof fromJsonSchema>;
}

/** The official SDK's server with the `echo` tool and `tools` filler tools of `props` properties (both default 0 and 20). */
export function echoServer(options: Pick<EchoServerOptions, 'tools' | 'props'> = {}): McpServer {
  const schema = (json: Record<string, unknown>) => fromJsonSchema(json as never);
  const server = new McpServer({ name: 'bench-server', version: '1.0.0' }, { capabilities: {} });
  server.registerTool(
    'echo',
    { description: 'Echoes its text argument', inputSchema: schema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }) },
    async (args: any) => ({ content: [{ type: 'text', text: String(args.text) }] }),
  );
  for (let i = 0; i < (options.tools ?? 0); i++) {
    server.registerTool(`tool_${i}`, { description: `Filler tool ${i}`, inputSchema: lazySchema(wideSchema(i, options.props ?? 20)) }, async () => ({ content: [] }));
  }
  return server;
}

/** Path of the echo server's request counters (GET, JSON object of method → count). */
export const COUNTS_PATH = '/__counts';

export interface EchoServerOptions {
  /** Filler tools besides `echo`; default 0. */
  tools?: number;
  /** Properties of each filler tool's schema; default 20. */
  props?: number;
  /** The SDK's response shaping; default `json` (one JSON body per reply, no SSE). */
  responseMode?: 'json' | 'sse' | 'auto';
  /**
   * 2025-era clients: refused (default) or served statelessly (the bridge section's HTTP
   * reference); `only`: nothing but them (`legacyStatelessFallback`: a modern probe is refused).
   */
  legacy?: 'reject' | 'stateless' | 'only';
}

/**
 * The official server SDK on loopback, serving 2026-07-28 only (`legacy: 'reject'`)
 * with `responseMode: 'json'` unless told otherwise (`legacy`, `responseMode`).
 */
export async function startEchoServer(options: EchoServerOptions = {}): Promise<BenchServer> {
  const handler =
    options.legacy === 'only'
      ? { fetch: legacyStatelessFallback(() => echoServer(options)), close: async () => {} }
      : createMcpHandler(() => echoServer(options), { legacy: options.legacy ?? 'reject', responseMode: options.responseMode ?? 'json' });
  const node = toNodeHandler(handler);
  const counts = new Map<string, number>();
  const http = createServer((req, res) => {
    if (req.url === COUNTS_PATH) {
      // For a server in another process (bench/echo-server.ts): the counters, uncounted.
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(Object.fromEntries(counts)));
      return;
    }
    if (cors(req, res, counts)) return;
    count(counts, String(req.headers['mcp-method'] ?? req.method));
    void node(req as never, res as never);
  });
  const port = await listen(http);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    counts,
    async close() {
      await handler.close();
      await closeServer(http);
    },
  };
}

/**
 * Records `server/discover` and every page of `tools/list` from `source` (a real
 * SDK server), then serves them from memory: each reply is the recorded result
 * text spliced with the request's id. Other methods get -32601.
 */
export async function startReplayServer(source: string): Promise<BenchServer & { bytes: number; pages: number }> {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28' };
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const record = async (method: string, params: Record<string, unknown>): Promise<string> => {
    const response = await fetch(source, {
      method: 'POST',
      headers: { ...headers, 'Mcp-Method': method },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
    });
    const message = (await response.json()) as { result?: unknown; error?: { message: string } };
    if (!message.result) throw new Error(`${method} failed on the source server: ${message.error?.message}`);
    return JSON.stringify(message.result);
  };
  const recorded = new Map<string, string>();
  recorded.set('server/discover', await record('server/discover', {}));
  let cursor: string | undefined;
  let bytes = 0;
  let pages = 0;
  do {
    pages++;
    const text = await record('tools/list', cursor === undefined ? {} : { cursor });
    recorded.set(`tools/list ${cursor ?? ''}`, text);
    bytes += text.length;
    cursor = (JSON.parse(text) as { nextCursor?: string }).nextCursor;
  } while (cursor !== undefined);

  const counts = new Map<string, number>();
  const http = createServer((req, res) => {
    if (cors(req, res, counts)) return;
    void readBody(req).then((body) => {
      const message = JSON.parse(body) as { id?: number | string; method: string; params?: { cursor?: string } };
      count(counts, message.method);
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const key = message.method === 'tools/list' ? `tools/list ${message.params?.cursor ?? ''}` : message.method;
      const result = recorded.get(key);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        result === undefined
          ? JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Not recorded: ${message.method}` } })
          : `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`,
      );
    });
  });
  const port = await listen(http);
  return { url: `http://127.0.0.1:${port}/mcp`, counts, bytes, pages, close: () => closeServer(http) };
}

/**
 * Serves `body` (a whole SSE stream) to every POST, in 64 KiB writes that wait
 * for the socket to drain, as a streaming server would.
 */
export async function startSseServer(body: Buffer): Promise<BenchServer> {
  const counts = new Map<string, number>();
  const http = createServer((req, res) => {
    count(counts, req.method ?? '');
    req.resume();
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    let offset = 0;
    const write = () => {
      while (offset < body.length) {
        const chunk = body.subarray(offset, offset + 65536);
        offset += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', write);
          return;
        }
      }
      res.end();
    };
    write();
  });
  const port = await listen(http);
  return { url: `http://127.0.0.1:${port}/sse`, counts, close: () => closeServer(http) };
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json', '.css': 'text/css' };

/** Serves the files under `root` (GET only, no directory listing); `counts` is keyed by path. */
export async function startStaticServer(root: string): Promise<BenchServer> {
  const counts = new Map<string, number>();
  const http = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, path === '/' ? 'index.html' : path);
    count(counts, path);
    readFile(file).then(
      (data) => {
        res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
        res.end(data);
      },
      () => {
        res.writeHead(404).end();
      },
    );
  });
  const port = await listen(http);
  return { url: `http://127.0.0.1:${port}/`, counts, close: () => closeServer(http) };
}
