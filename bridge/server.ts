/**
 * `startBridge()`: stdio MCP servers behind Streamable HTTP endpoints (spec
 * 2025-11-25 basic/transports "Streamable HTTP"), one child process per MCP
 * session, for pages and other HTTP clients on this machine.
 *
 * The endpoints speak the initialize-based protocol of the stdio servers they
 * relay. A modern client's first request (`server/discover` without a session)
 * gets `400 Bad Request` with a plain JSON-RPC error, which a dual-era client
 * reads as "legacy server" and answers with `initialize` (2026-07-28
 * basic/transports/streamable-http "Backward Compatibility"); nothing is
 * spawned before `initialize`.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildExit, StdioServerSpec } from './child.js';
import { DEFAULT_ALLOWED_ORIGINS } from './defaults.js';
import { allowedHosts, corsHeaders, OPAQUE_ORIGIN_HINT, OriginPolicy, preflightHeaders, presentedToken, tokenMatches, newToken } from './guard.js';
import { classify, Codes, errorResponse } from './jsonrpc.js';
import { BridgeSession, describeExit, type EndReason, type SessionLimits } from './session.js';
import { STREAM_AFTER_MS } from './sse.js';

export { DEFAULT_ALLOWED_ORIGINS };

export interface BridgeOptions {
  /** One stdio server, served at `/mcp`. */
  server?: StdioServerSpec;
  /** Several stdio servers, each served at `/mcp/<name>` (the name URL-encoded). */
  servers?: Readonly<Record<string, StdioServerSpec>>;
  /** Address to listen on; default `127.0.0.1`. Anything but loopback exposes the commands to the network. */
  host?: string;
  /** Port; default 0 (a free one). */
  port?: number;
  /** The secret every request must present; default 32 random bytes (base64url). */
  token?: string;
  /** Page origins allowed to call (exact, or `http://localhost:*` for any port); default {@link DEFAULT_ALLOWED_ORIGINS}. */
  allowedOrigins?: readonly string[];
  /** A session with no open connection and no request in flight for this long is ended, in ms; default 600,000. */
  idleTimeoutMs?: number;
  /** Longest message, in bytes, in either direction (a stdout line, a POST body); default 8 MiB. */
  maxMessageBytes?: number;
  /** Most bytes waiting in a child's stdin before the bridge refuses more; default 8 MiB. */
  maxPendingBytes?: number;
  /**
   * Concurrent sessions (children) across all servers; default 16. At the limit,
   * a new session ends the one whose client has been gone longest (no
   * connection open); only when every client is connected is it refused (503).
   */
  maxSessions?: number;
  /**
   * How long the answer to a request waits for the child's response before it
   * starts as an SSE stream, in ms; default 100. A response within it goes as
   * one `application/json` body; a message related to the request (progress, a
   * server request) starts the stream at once.
   */
  streamAfterMs?: number;
  /** stderr lines kept per child for crash reports; default 20. */
  stderrLines?: number;
  /** Grace between closing a child's stdin, SIGTERM and SIGKILL, in ms; default 1,000. */
  shutdownGraceMs?: number;
  /** Where log lines go (children's stderr, refusals, exits); default the bridge's stderr. */
  log?: (line: string) => void;
  /** Structured events, for hosts and tests. */
  onEvent?: (event: BridgeEvent) => void;
}

/** Why a request was refused before reaching a child. */
export type RefusalReason = 'host' | 'origin' | 'token' | 'not-found' | 'method' | 'media-type' | 'too-large' | 'parse' | 'invalid' | 'no-session' | 'unknown-session' | 'version' | 'capacity';

export type BridgeEvent =
  | { type: 'spawn'; server: string; session: string; pid: number | undefined }
  | { type: 'end'; server: string; session: string; pid: number | undefined; reason: EndReason; exit: ChildExit }
  | { type: 'refused'; status: number; reason: RefusalReason; method: string; path: string };

export interface BridgeEndpoint {
  /** The server's name (`default` for `server`). */
  name: string;
  /** Path of its MCP endpoint. */
  path: string;
  /** Full URL with the token (`?token=`): what a page connects to. */
  url: string;
  /** The command line, for display. */
  command: string;
}

export interface BridgeSessionInfo {
  id: string;
  server: string;
  pid: number | undefined;
  startedAt: number;
  protocolVersion: string | undefined;
  /** Client requests the child has not answered yet. */
  requestsInFlight: number;
  /** No connection of the client is open: the idle countdown runs. */
  idle: boolean;
}

export interface Bridge {
  /** `http://host:port` the bridge answers on (loopback address for a wildcard bind). */
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  readonly endpoints: readonly BridgeEndpoint[];
  readonly allowedOrigins: readonly string[];
  /** The sessions (children) running now. */
  sessions(): BridgeSessionInfo[];
  /** Stops listening and stops every child (stdin closed, SIGTERM, SIGKILL); resolves when all exited. */
  close(): Promise<void>;
}

interface Endpoint {
  name: string;
  path: string;
  spec: StdioServerSpec;
}

const MAX_TOMBSTONES = 256;
const KEEP_ALIVE_MS = 25_000;
/**
 * How long an idle kept-alive connection stays open, in ms: longer than any client keeps one
 * for reuse (Node's fetch 4 s, or the server's `Keep-Alive: timeout` hint less a margin;
 * Chromium 300 s; Firefox 115 s). Node's default (5 s) closed connections in a race with their
 * reuse: a request sent as the bridge closed the socket failed with "other side closed".
 */
export const IDLE_CONNECTION_MS = 310_000;

/** Quotes a command line for display only (it is never run through a shell). */
export function displayCommand(spec: StdioServerSpec): string {
  return [spec.command, ...(spec.args ?? [])].map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function accepts(header: string | undefined, type: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const media = part.split(';', 1)[0]!.trim().toLowerCase();
    return media === type || media === '*/*' || media === `${type.split('/')[0]}/*`;
  });
}

/**
 * Starts a bridge.
 * @throws Error when no server is given, a server is named `.` or `..`, an allowed origin is malformed, or the port cannot be bound.
 */
export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const endpoints: Endpoint[] = [];
  if (options.server) endpoints.push({ name: 'default', path: '/mcp', spec: options.server });
  for (const [name, spec] of Object.entries(options.servers ?? {})) {
    // A URL path drops "." and ".." segments: such a server could never be reached.
    if (name === '.' || name === '..') throw new Error(`startBridge: a server cannot be named ${JSON.stringify(name)} (its path /mcp/${name} would be /mcp or /); rename it`);
    endpoints.push({ name, path: `/mcp/${encodeURIComponent(name)}`, spec });
  }
  if (endpoints.length === 0) throw new Error('startBridge: give a server ({ server }) or several ({ servers })');
  const byPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? newToken();
  const allowedOrigins = [...(options.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS)];
  const originPolicy = new OriginPolicy(allowedOrigins);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const emit = options.onEvent ?? (() => {});
  const maxMessageBytes = options.maxMessageBytes ?? 8 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 16;
  const limits: SessionLimits = {
    maxLineBytes: maxMessageBytes,
    maxPendingBytes: options.maxPendingBytes ?? 8 * 1024 * 1024,
    stderrLines: options.stderrLines ?? 20,
    shutdownGraceMs: options.shutdownGraceMs ?? 1000,
    idleTimeoutMs: options.idleTimeoutMs ?? 600_000,
    streamAfterMs: options.streamAfterMs ?? STREAM_AFTER_MS,
  };
  const sessions = new Map<string, BridgeSession>();
  /** Why recently ended sessions ended, for the 404 that tells their client. */
  const tombstones = new Map<string, string>();
  let hosts = new Set<string>();
  let closing = false;

  const refuse = (request: IncomingMessage, response: ServerResponse, status: number, reason: RefusalReason, message: string, headers: Record<string, string> = {}, id: unknown = null) => {
    emit({ type: 'refused', status, reason, method: request.method ?? '', path: (request.url ?? '').split('?', 1)[0]! });
    if (reason === 'host' || reason === 'origin' || reason === 'token') {
      log(`refused ${request.method} ${(request.url ?? '').split('?', 1)[0]} (${reason}): ${message}${request.headers.origin ? ` [Origin ${request.headers.origin}]` : ''}`);
    }
    const body = errorResponse(typeof id === 'string' || typeof id === 'number' ? id : null, reason === 'unknown-session' ? Codes.SessionNotFound : Codes.ServerError, message);
    response.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  const ended = (session: BridgeSession, reason: EndReason, exit: ChildExit) => {
    sessions.delete(session.id);
    tombstones.set(session.id, describeExit(session.server, exit, reason).message);
    if (tombstones.size > MAX_TOMBSTONES) tombstones.delete(tombstones.keys().next().value!);
    emit({ type: 'end', server: session.server, session: session.id, pid: session.child.pid, reason, exit });
  };

  /**
   * Room for one more session. At the limit, the session whose client has been
   * gone longest (no connection open: a reloaded or closed page, which never
   * says DELETE) is ended to make room, instead of refusing every new client
   * until the idle timeout; sessions whose clients are connected are never
   * taken. False when there is no room and nothing to take.
   */
  async function makeRoom(): Promise<boolean> {
    const live = () => [...sessions.values()].filter((session) => !session.ending);
    if (live().length < maxSessions) return true;
    const idle = live().filter((session) => session.idleSince !== undefined);
    if (idle.length === 0) return false;
    const victim = idle.reduce((a, b) => (b.idleSince! < a.idleSince! ? b : a));
    log(`[${victim.server} ${victim.id.slice(0, 8)}] ended to make room for a new session (--max-sessions ${maxSessions}): its client has been gone ${Math.round((Date.now() - victim.idleSince!) / 1000)} s`);
    await victim.end('capacity');
    return live().length < maxSessions;
  }

  const readBody = (request: IncomingMessage): Promise<Buffer | 'too-large'> =>
    new Promise((resolve, reject) => {
      const declared = Number(request.headers['content-length']);
      if (declared > maxMessageBytes) return resolve('too-large');
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxMessageBytes) {
          request.removeAllListeners('data');
          request.resume();
          resolve('too-large');
        } else chunks.push(chunk);
      });
      request.on('end', () => resolve(Buffer.concat(chunks)));
      request.on('error', reject);
    });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://bridge.invalid');
    // 1. Host: a DNS-rebinding page reaches us under its own name.
    const hostHeader = (request.headers.host ?? '').toLowerCase();
    if (!hosts.has(hostHeader)) return refuse(request, response, 403, 'host', `mcp-web-elements bridge: Host ${JSON.stringify(request.headers.host ?? '')} is not this bridge's address`);
    // 2. Origin: exact allow-list; requests without one (not from a page) go on to the token check.
    const origin = request.headers.origin;
    if (origin !== undefined && !originPolicy.allows(origin)) {
      const hint = origin === 'null' ? OPAQUE_ORIGIN_HINT : `start the bridge with --allow-origin ${origin} to allow them`;
      return refuse(request, response, 403, 'origin', `mcp-web-elements bridge: pages from ${origin} are not allowed; ${hint}`);
    }
    const cors = corsHeaders(origin);
    const endpoint = byPath.get(url.pathname);
    // 3. Preflight: browsers send no credentials on it, so it is answered for allowed origins only.
    if (request.method === 'OPTIONS') {
      if (!endpoint) return refuse(request, response, 404, 'not-found', `mcp-web-elements bridge: no MCP endpoint at ${url.pathname}`, cors);
      response.writeHead(204, origin ? preflightHeaders(origin, request.headers) : { Allow: 'GET, POST, DELETE, OPTIONS' });
      response.end();
      return;
    }
    // 4. Token, in constant time.
    if (!tokenMatches(presentedToken(request.headers, url), token)) {
      return refuse(request, response, 403, 'token', 'mcp-web-elements bridge: missing or wrong token; use the URL the bridge printed (with ?token=…) or send "Authorization: Bearer <token>"', cors);
    }
    if (!endpoint) return refuse(request, response, 404, 'not-found', `mcp-web-elements bridge: no MCP endpoint at ${url.pathname} (endpoints: ${endpoints.map((e) => e.path).join(', ')})`, cors);

    const sessionId = request.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    const unknownSession = () =>
      refuse(request, response, 404, 'unknown-session', `mcp-web-elements bridge: session not found${tombstones.has(sessionId as string) ? ` (${tombstones.get(sessionId as string)})` : ''}; start a new one with initialize`, cors);
    const versionMismatch = (target: BridgeSession): boolean => {
      const version = request.headers['mcp-protocol-version'];
      if (version === undefined || target.protocolVersion === undefined || version === target.protocolVersion) return false;
      refuse(request, response, 400, 'version', `mcp-web-elements bridge: MCP-Protocol-Version ${JSON.stringify(version)} is not the version this session negotiated (${target.protocolVersion})`, cors);
      return true;
    };

    switch (request.method) {
      case 'POST':
        return post(request, response, endpoint, cors, sessionId, session, unknownSession, versionMismatch);
      case 'GET': {
        if (!accepts(request.headers.accept, 'text/event-stream')) return refuse(request, response, 406, 'media-type', 'mcp-web-elements bridge: a GET must accept text/event-stream', cors);
        if (sessionId === undefined) return refuse(request, response, 400, 'no-session', 'mcp-web-elements bridge: a GET needs an Mcp-Session-Id (send initialize first)', cors);
        if (!session || session.server !== endpoint.name) return unknownSession();
        if (versionMismatch(session)) return;
        session.listen(response, cors);
        return;
      }
      case 'DELETE': {
        if (sessionId === undefined) return refuse(request, response, 400, 'no-session', 'mcp-web-elements bridge: DELETE needs an Mcp-Session-Id', cors);
        if (!session || session.server !== endpoint.name) return unknownSession();
        await session.end('delete');
        response.writeHead(200, cors);
        response.end();
        return;
      }
      default:
        return refuse(request, response, 405, 'method', `mcp-web-elements bridge: ${request.method} is not allowed here`, { ...cors, Allow: 'GET, POST, DELETE, OPTIONS' });
    }
  }

  async function post(
    request: IncomingMessage,
    response: ServerResponse,
    endpoint: Endpoint,
    cors: Record<string, string>,
    sessionId: string | string[] | undefined,
    session: BridgeSession | undefined,
    unknownSession: () => void,
    versionMismatch: (session: BridgeSession) => boolean,
  ): Promise<void> {
    if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
      return refuse(request, response, 415, 'media-type', 'mcp-web-elements bridge: the body must be application/json', cors);
    }
    if (!accepts(request.headers.accept, 'application/json') || !accepts(request.headers.accept, 'text/event-stream')) {
      return refuse(request, response, 406, 'media-type', 'mcp-web-elements bridge: a POST must accept both application/json and text/event-stream', cors);
    }
    const body = await readBody(request);
    if (body === 'too-large') return refuse(request, response, 413, 'too-large', `mcp-web-elements bridge: the body is over ${maxMessageBytes} bytes`, { ...cors, Connection: 'close' });
    const text = body.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      response.writeHead(400, { ...cors, 'Content-Type': 'application/json' });
      response.end(JSON.stringify(errorResponse(null, Codes.ParseError, 'mcp-web-elements bridge: the body is not JSON')));
      return;
    }
    const message = classify(value);
    if (typeof message === 'string') return refuse(request, response, 400, 'invalid', `mcp-web-elements bridge: ${message}`, cors, (value as { id?: unknown } | null)?.id);
    const isInitialize = message.kind === 'request' && message.method === 'initialize';

    if (sessionId === undefined) {
      if (!isInitialize) {
        // The answer a dual-era client's modern probe gets: a plain 400 error, so it falls back to initialize.
        return refuse(
          request,
          response,
          400,
          'no-session',
          'Bad Request: no Mcp-Session-Id. This endpoint is an mcp-web-elements bridge to a stdio MCP server that speaks the initialize-based protocol (2025-11-25 and earlier): send initialize first',
          cors,
          message.kind === 'response' ? null : 'id' in message ? message.id : null,
        );
      }
      if (closing) return refuse(request, response, 503, 'capacity', 'mcp-web-elements bridge: shutting down', cors, message.id);
      if (!(await makeRoom())) {
        return refuse(request, response, 503, 'capacity', `mcp-web-elements bridge: ${maxSessions} sessions are running and their clients are connected, the limit (--max-sessions); end one (DELETE) or start the bridge with a larger --max-sessions`, cors, message.id);
      }
      if (closing) return refuse(request, response, 503, 'capacity', 'mcp-web-elements bridge: shutting down', cors, message.id);
      const id = randomUUID();
      const created = new BridgeSession(id, endpoint.name, endpoint.spec, limits, { log, ended });
      sessions.set(id, created);
      log(`[${endpoint.name} ${id.slice(0, 8)}] started ${displayCommand(endpoint.spec)} (pid ${created.child.pid ?? '-'})`);
      emit({ type: 'spawn', server: endpoint.name, session: id, pid: created.child.pid });
      await created.request(message, response, { ...cors, 'Mcp-Session-Id': id }, text);
      return;
    }
    if (!session || session.server !== endpoint.name) return unknownSession();
    if (isInitialize) return refuse(request, response, 400, 'invalid', 'mcp-web-elements bridge: this session is already initialized; send initialize without Mcp-Session-Id to start another', cors, message.id);
    if (versionMismatch(session)) return;
    if (message.kind === 'request') {
      await session.request(message, response, cors, text);
      return;
    }
    const outcome = await session.relay(message, text);
    response.writeHead(outcome.status, 'body' in outcome ? { ...cors, 'Content-Type': 'application/json' } : cors);
    response.end('body' in outcome ? JSON.stringify(outcome.body) : undefined);
  }

  // No Nagle delay on small answers (Node's default too, said here because the bridge's latency depends on it).
  const server = createServer({ noDelay: true }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`internal error on ${request.method} ${(request.url ?? '').split('?', 1)[0]}: ${(error as Error)?.stack ?? String(error)}`);
      if (!response.headersSent) {
        response.writeHead(500, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(errorResponse(null, Codes.InternalError, 'mcp-web-elements bridge: internal error')));
      } else response.destroy();
    });
  });
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  // Above the idle time, as Node's docs advise, so that no header timer ends a kept-alive connection first.
  server.headersTimeout = IDLE_CONNECTION_MS + 10_000;
  server.requestTimeout = Math.max(server.requestTimeout, server.headersTimeout);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(host, port);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const origin = `http://${shownHost}:${port}`;
  const keepAlive = setInterval(() => {
    for (const session of sessions.values()) session.keepAlive();
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  // A process that exits without close() still takes its children along (each has its own process group).
  const killAll = () => {
    for (const session of sessions.values()) session.child.killNow();
  };
  process.on('exit', killAll);

  return {
    origin,
    port,
    token,
    allowedOrigins,
    endpoints: endpoints.map((endpoint) => ({ name: endpoint.name, path: endpoint.path, url: `${origin}${endpoint.path}?token=${token}`, command: displayCommand(endpoint.spec) })),
    sessions: () =>
      [...sessions.values()].map((session) => ({ id: session.id, server: session.server, pid: session.child.pid, startedAt: session.startedAt, protocolVersion: session.protocolVersion, requestsInFlight: session.requestsInFlight, idle: !session.busy })),
    async close() {
      closing = true;
      clearInterval(keepAlive);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...sessions.values()].map((session) => session.end('shutdown')));
      server.closeAllConnections();
      await stopped;
      // Only now: a process that exits while its children are still stopping (a second Ctrl+C) takes them along.
      process.off('exit', killAll);
    },
  };
}
