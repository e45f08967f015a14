/**
 * A legacy (2025-11-25) server built with the official SDK whose tool answers
 * `-32042` URL elicitation required (SDK `UrlElicitationRequiredError`) until the
 * user has visited the page it names; served statelessly
 * (`legacyStatelessFallback`) with CORS for loopback pages, so the element tests
 * in Chromium can use it too.
 *
 * - `open_vault`: needs a visit to `/consent?elicitation=vault-access`.
 * - `open_vault_sloppy`: the same, but its error entries lack `mode` and
 *   `elicitationId` (what careless servers send).
 * - `GET /consents` lists the elicitation ids whose page was visited; `POST /reset` forgets them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { fromJsonSchema, legacyStatelessFallback, McpServer, UrlElicitationRequiredError, type CallToolResult } from '@modelcontextprotocol/server';
import { closeServer, listen, readJsonBody } from './http.js';

export interface UrlElicitationServer {
  /** The MCP endpoint (legacy only). */
  url: string;
  origin: string;
  /** The consent page URL of `open_vault`. */
  consentUrl: string;
  /** Elicitation ids whose consent page was visited. */
  consents: Set<string>;
  /** `tools/call` requests received, by tool name. */
  calls: string[];
  close(): Promise<void>;
}

const ELICITATION_ID = 'vault-access';
const loopback = (origin: string) => /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin);
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** Starts the server on a free loopback port. */
export async function startUrlElicitationServer(): Promise<UrlElicitationServer> {
  const consents = new Set<string>();
  const calls: string[] = [];
  const http = createServer();
  const origin = await listen(http);
  const consentUrl = `${origin}/consent?elicitation=${ELICITATION_ID}`;

  const build = () => {
    const server = new McpServer({ name: 'vault', version: '1.0.0' });
    const empty = { inputSchema: fromJsonSchema({ type: 'object', properties: {} } as never) };
    server.registerTool('open_vault', { description: 'Needs your consent on the server page first', ...empty }, async () => {
      if (!consents.has(ELICITATION_ID)) {
        throw new UrlElicitationRequiredError([{ mode: 'url', elicitationId: ELICITATION_ID, url: consentUrl, message: 'Allow this app to open your vault.' }], 'The vault needs your consent first');
      }
      return text('vault opened');
    });
    server.registerTool('open_vault_sloppy', { description: 'The same with careless error entries', ...empty }, async () => {
      if (!consents.has(ELICITATION_ID)) throw new UrlElicitationRequiredError([{ url: consentUrl } as never], 'The vault needs your consent first');
      return text('vault opened');
    });
    return server;
  };
  const handler = toNodeHandler({ fetch: legacyStatelessFallback(build) });

  http.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const requestOrigin = req.headers.origin;
    if (requestOrigin !== undefined && loopback(requestOrigin)) {
      res.setHeader('Access-Control-Allow-Origin', requestOrigin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, MCP-Protocol-Version');
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'POST, GET, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': 'content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id, mcp-method, mcp-name',
      });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', origin);
    if (req.method === 'GET' && url.pathname === '/consent') {
      consents.add(url.searchParams.get('elicitation') ?? '');
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('Consent recorded. You can close this tab.');
      return;
    }
    if (req.method === 'POST' && url.pathname === '/reset') {
      consents.clear();
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'GET' && url.pathname === '/consents') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify([...consents]));
      return;
    }
    if (url.pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const body = await readJsonBody(req);
    if (body?.method === 'tools/call') calls.push(String(body.params?.name));
    await handler(req as never, res as never, body);
  });

  return { url: `${origin}/mcp`, origin, consentUrl, consents, calls, close: () => closeServer(http) };
}
