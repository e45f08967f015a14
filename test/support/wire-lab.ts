/**
 * Servers for the browser tests of CORS and redirects (started in Node by
 * `elements-global-setup.ts`). Each is a real server — the official SDK, legacy or
 * modern — behind the CORS configuration a real deployment might have, except
 * where only exact bytes make the fault (`genericLegacy`, the redirect target).
 */
import { createServer } from 'node:http';
import { applyCors, closeServer, listen, readBody } from './http.js';
import { startLegacySdkServer } from './legacy-servers.js';
import { startModernServer } from './servers.js';

/** The explicit allow-list of a 2025-era server (issue "Interop…", item 1): enough for the legacy handshake, not for 2026-07-28's headers. */
export const LEGACY_ALLOW_LIST = ['Content-Type', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'authorization'];
/** The allow-list the README once gave: 2026-07-28's headers, without the legacy ones (item 2). */
const OLD_README_ALLOW_LIST = ['Content-Type', 'MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Authorization'];

export interface WireLab {
  /** Legacy SDK server (sessions) allowing only {@link LEGACY_ALLOW_LIST}. */
  legacyStrict: string;
  /** Legacy SDK server allowing only the old README's list: it fails right after initialize. */
  legacyOldReadme: string;
  /** Modern SDK server allowing the modern headers but no Mcp-Param-* (its `route` tool declares some). */
  modernParamStrict: string;
  /** Modern SDK server that allows this origin but no request header at all: both eras are refused. */
  closedToAll: string;
  /** A legacy server that answers server/discover with `{}` and does not allow Mcp-Session-Id. */
  genericLegacy: string;
  /**
   * Origin A: the modern test server (CORS allows anything). `/r307`, `/r308` redirect every
   * request to origin B; `/calls` redirects tools/call only to B (the rest is served there);
   * `/same` redirects to A's own `/mcp`.
   */
  redirecting: string;
  /** Origin B: answers and records everything (CORS allows anything); `GET /__log` returns the record. */
  elsewhere: string;
  /** A server with no CORS at all (no Access-Control-* header on any answer, OPTIONS included): it answers, but to no page. */
  noCors: string;
  /** A loopback port nothing listens on (a server was there and closed): no answer at all. */
  nothingListens: string;
  close(): Promise<void>;
}

export async function startWireLab(): Promise<WireLab> {
  const legacyStrict = await startLegacySdkServer('sessions', { cors: { allowHeaders: LEGACY_ALLOW_LIST, exposeHeaders: ['Mcp-Session-Id'] } });
  const legacyOldReadme = await startLegacySdkServer('sessions', { cors: { allowHeaders: OLD_README_ALLOW_LIST, exposeHeaders: ['Mcp-Session-Id', 'WWW-Authenticate'] } });
  const modernParamStrict = await startModernServer({ cors: { allowHeaders: ['Content-Type', 'MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name'] } });
  const closedToAll = await startModernServer({ cors: { allowHeaders: [] } });

  // Answers server/discover generically ({}), initializes with a session id its CORS does not let
  // the page send back, and answers anything else with an event stream that ends without a reply.
  const generic = createServer(async (req, res) => {
    const policy = { allowHeaders: ['Content-Type', 'MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name'], exposeHeaders: ['Mcp-Session-Id'] };
    if (applyCors(req, res, policy)) return;
    const body = req.method === 'POST' ? JSON.parse((await readBody(req)) || 'null') : null;
    if (body?.method === 'server/discover') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: {} }));
    if (body?.method === 'initialize') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'generic-1' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'generic', version: '1' } } }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end();
  });
  const genericOrigin = await listen(generic);

  // Origin B records every request that reaches it, preflights included.
  const log: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];
  const other = createServer(async (req, res) => {
    if (req.url === '/__log') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' });
      return void res.end(JSON.stringify(log));
    }
    const body = await readBody(req);
    log.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body });
    if (applyCors(req, res, { allowHeaders: 'reflect', exposeHeaders: ['Mcp-Session-Id'] })) return;
    let id: unknown = null;
    try {
      id = JSON.parse(body).id ?? null;
    } catch {
      /* not JSON */
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, tools: [], content: [{ type: 'text', text: 'from elsewhere' }] } }));
  });
  const elsewhere = await listen(other);
  // Many servers never thought of browsers: a 200 to every request, CORS headers on none.
  const bare = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  const noCors = `${await listen(bare)}/mcp`;
  const gone = createServer();
  const nothingListens = `${await listen(gone)}/mcp`;
  await closeServer(gone);
  const redirecting = await startModernServer({
    cors: { allowHeaders: 'reflect' },
    redirect: ({ url, body }) => {
      if (url.startsWith('/r307')) return { status: 307, location: `${elsewhere}/mcp` };
      if (url.startsWith('/r308')) return { status: 308, location: `${elsewhere}/mcp` };
      if (url.startsWith('/calls') && body?.method === 'tools/call') return { status: 307, location: `${elsewhere}/mcp` };
      if (url.startsWith('/same')) return { status: 308, location: '/mcp' };
      return undefined;
    },
  });

  return {
    legacyStrict: legacyStrict.url,
    legacyOldReadme: legacyOldReadme.url,
    modernParamStrict: modernParamStrict.url,
    closedToAll: closedToAll.url,
    genericLegacy: `${genericOrigin}/mcp`,
    redirecting: redirecting.origin,
    elsewhere,
    noCors,
    nothingListens,
    async close() {
      await Promise.all([legacyStrict.close(), legacyOldReadme.close(), modernParamStrict.close(), closedToAll.close(), redirecting.close(), closeServer(generic), closeServer(other), closeServer(bare)]);
    },
  };
}
