/**
 * The bundled demo MCP server over `node:http`: the definitions of
 * `demo-server.ts` (official server SDK; 2026-07-28 and, by the SDK's default,
 * stateless legacy clients) on loopback, with CORS for the demo page. With
 * `privateToken`, a second endpoint (`/private/mcp`) serves the same server only
 * to requests carrying `Authorization: Bearer <token>` — a server reached with
 * an API key. The Node server adds `run_pipeline`, a long-running tool that
 * runs as a task (Tasks extension, `./pipeline.ts`, `./tasks.ts`), and streams
 * its `notifications/tasks` on `subscriptions/listen`.
 *
 * Used by `npm start`, the element tests and the end-to-end tests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { createDemoHandler } from './demo-server.js';
import { addPipeline } from './pipeline.js';
import { TaskRegistry, TASKS_EXTENSION } from './tasks.js';

export interface DemoServerOptions {
  /** Port to listen on; 0 picks a free one. Default 3001. */
  port?: number;
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  host?: string;
  /**
   * Origins allowed by CORS and by the Origin check. Default: any http(s)
   * origin on localhost / 127.0.0.1 / [::1], whatever the port.
   */
  allowedOrigins?: (origin: string) => boolean;
  /** Log each request to stderr. */
  verbose?: boolean;
  /**
   * Request headers to leave out of `Access-Control-Allow-Headers` — only for
   * testing the kit's CORS diagnosis against a misconfigured server.
   */
  withholdCorsHeaders?: string[];
  /** Also serve `/private/mcp`, only to requests with `Authorization: Bearer <privateToken>`. */
  privateToken?: string;
  /** Polling interval the task tool suggests, ms; default 500. */
  taskPollIntervalMs?: number;
  /** Stream notifications/tasks on subscriptions/listen; default true. */
  taskNotifications?: boolean;
}

export interface DemoServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string;
  /** The endpoint that needs the bearer token (`privateToken`), e.g. `http://127.0.0.1:3001/private/mcp`. */
  privateUrl: string | undefined;
  handler: McpHttpHandler;
  close(): Promise<void>;
}

/** Request headers the kit sends (streamable-http "Request Metadata", auth, legacy). */
const ALLOWED_HEADERS = ['content-type', 'accept', 'authorization', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id', 'last-event-id'];

const localOrigin = (origin: string) => /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin);

/**
 * Starts the demo server.
 * @returns its MCP URL and a `close()`.
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const tasks = new TaskRegistry({ pollIntervalMs: options.taskPollIntervalMs ?? 500, notifications: options.taskNotifications ?? true });
  const { handler } = createDemoHandler({ extensions: { [TASKS_EXTENSION]: {} }, extend: (server) => addPipeline(server, tasks) });
  const toNode = toNodeHandler(handler);
  // Read the body first: a subscriptions/listen for task ids is served by the task registry.
  const node = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'POST') return void toNode(req as never, res as never);
    void readJson(req).then((body) => {
      if (tasks.wantsListen(body)) tasks.serveListen(body as never, res);
      else void toNode(req as never, res as never, body);
    });
  };
  const allowed = options.allowedOrigins ?? localOrigin;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const origin = req.headers.origin;
    if (options.verbose) process.stderr.write(`${req.method} ${req.url} ${req.headers['mcp-method'] ?? ''}\n`);
    if (origin !== undefined) {
      // DNS-rebinding guard: a browser request from an origin we do not serve is refused.
      if (!allowed(origin)) {
        res.writeHead(403, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Origin ${origin} is not allowed` } }));
        return;
      }
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate, MCP-Protocol-Version');
    }
    if (req.method === 'OPTIONS') {
      // Allow the kit's headers, including every Mcp-Param-* (there is no prefix wildcard in CORS).
      const requested = String(req.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h && (ALLOWED_HEADERS.includes(h) || h.startsWith('mcp-param-')));
      const withheld = new Set((options.withholdCorsHeaders ?? []).map((h) => h.toLowerCase()));
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'POST, GET, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': [...new Set([...ALLOWED_HEADERS, ...requested])].filter((h) => !withheld.has(h)).join(', '),
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/private/mcp' && options.privateToken !== undefined) {
      if (req.headers.authorization !== `Bearer ${options.privateToken}`) {
        res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer realm="mcp-web-elements demo"' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'This endpoint needs Authorization: Bearer <token>' } }));
        return;
      }
      node(req, res);
      return;
    }
    if (url.pathname !== '/mcp') {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Not found: the MCP endpoint is /mcp');
      return;
    }
    node(req, res);
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 3001, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/mcp`,
    privateUrl: options.privateToken === undefined ? undefined : `http://${host}:${address.port}/private/mcp`,
    handler,
    async close() {
      await handler.close();
      await closeHttp(server);
    },
  };
}

/** A request body as JSON (undefined when it is not JSON: the SDK answers that). */
function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
    req.on('error', () => resolve(undefined));
  });
}

function closeHttp(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}
