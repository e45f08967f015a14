/**
 * A protected demo MCP server and a real local authorization server.
 *
 * - The authorization server is `oidc-provider` (an OpenID Certified provider,
 *   dev dependency) with Dynamic Client Registration, resource indicators (RFC
 *   8707), PKCE, refresh tokens, revocation and a one-button login page.
 * - The MCP server serves the bundled demo server's tools behind bearer tokens
 *   issued for it: Protected Resource Metadata at the path-based well-known URL,
 *   `401` with a `WWW-Authenticate` challenge, and `403 insufficient_scope` for
 *   the destructive `delete_notes` tool unless the token carries `mcp:admin`
 *   (a step-up). Requests are forwarded to an inner demo server on loopback.
 *
 * Used by the OAuth tests, the element tests and the demo:
 *   tsx demo/server/protected.ts [--port 3002] [--auth-port 3003] [--token-ttl 300] [--auto-approve] [--coop]
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import Provider from 'oidc-provider';
import { startDemoServer } from './server.js';

export interface ProtectedDemoOptions {
  /** Port of the protected MCP server; 0 picks a free one. Default 3002. */
  port?: number;
  /** Port of the authorization server; 0 picks a free one. Default 3003. */
  authPort?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Lifetime of access tokens, in seconds; default 300. */
  accessTokenTtlSeconds?: number;
  /** Origins allowed by CORS: default any http(s) origin on a loopback host. */
  allowedOrigins?: (origin: string) => boolean;
  /** Log requests to stderr. */
  verbose?: boolean;
  /** Approve sign-ins without showing the login page (automated browser tests). */
  autoApprove?: boolean;
  /** Send `Cross-Origin-Opener-Policy: same-origin` from the authorization server, as many do (it cuts `window.opener`). */
  coop?: boolean;
}

export interface ProtectedDemo {
  /** The protected MCP endpoint, e.g. `http://127.0.0.1:3002/mcp`. */
  url: string;
  /** The authorization server's issuer, e.g. `http://127.0.0.1:3003`. */
  issuer: string;
  /** What the MCP server saw: method, MCP method, the auth scheme used and the outcome status. */
  requests: { method: string; mcpMethod?: string; scheme?: string; status: number }[];
  /** Makes the MCP server refuse every access token it has accepted so far (as if they had expired). */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

/** Scopes of the MCP resource; `mcp:admin` is needed for destructive tools. */
const RESOURCE_SCOPES = ['mcp:tools', 'mcp:admin'];
const ADMIN_TOOLS = new Set(['delete_notes']);
const ALLOWED_HEADERS = ['content-type', 'accept', 'authorization', 'dpop', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id', 'last-event-id'];
const localOrigin = (origin: string) => /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin);

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function closeHttp(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Text for an HTML page: server-side rendering of values that came from clients. */
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, clientName: string, scopes: string[], resource: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in — demo authorization server</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style></head>
<body><main>
<h1>Demo authorization server</h1>
<p><strong>${escapeHtml(clientName)}</strong> asks to use <code>${escapeHtml(resource)}</code> on your behalf.</p>
<p>Permissions: ${scopes.length ? scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ') : 'none'}</p>
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">
  <button type="submit" name="decision" value="allow">Sign in as demo user</button>
  <button type="submit" name="decision" value="deny">Cancel</button>
</form>
</main></body></html>`;
}

/**
 * Starts the authorization server and the protected MCP server.
 * @returns their URLs, the MCP server's request log, and `close()`.
 */
export async function startProtectedDemo(options: ProtectedDemoOptions = {}): Promise<ProtectedDemo> {
  const host = options.host ?? '127.0.0.1';
  const allowed = options.allowedOrigins ?? localOrigin;
  const log = (line: string) => {
    if (options.verbose) process.stderr.write(`${line}\n`);
  };

  // Ports first: the issuer and the resource identifier contain them.
  const authHttp = createServer();
  const mcpHttp = createServer();
  const authPort = await listen(authHttp, options.authPort ?? 3003, host);
  const mcpPort = await listen(mcpHttp, options.port ?? 3002, host);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const issuer = `http://${urlHost}:${authPort}`;
  const resource = `http://${urlHost}:${mcpPort}/mcp`;
  const prmPath = '/.well-known/oauth-protected-resource/mcp';
  const inner = await startDemoServer({ port: 0, host: '127.0.0.1', allowedOrigins: allowed });

  const provider = new Provider(issuer, {
    // Clients register themselves (RFC 7591); no pre-registered ones.
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new Provider.errors.InvalidTarget(`unknown resource ${indicator}`);
          return { scope: RESOURCE_SCOPES.join(' '), audience: resource, accessTokenTTL: options.accessTokenTtlSeconds ?? 300, accessTokenFormat: 'opaque' };
        },
      },
    },
    // OpenID scopes only: the resource's scopes come from getResourceServerInfo.
    scopes: ['openid', 'offline_access'],
    pkce: { required: () => true },
    ttl: { AccessToken: options.accessTokenTtlSeconds ?? 300, RefreshToken: 24 * 3600, Grant: 24 * 3600, Session: 24 * 3600, Interaction: 600, AuthorizationCode: 60 },
    // Refresh tokens for every client that registered the grant type (public clients get them rotated).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    clientBasedCORS: (_ctx: unknown, origin: string) => allowed(origin),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    cookies: { keys: ['mcp-web-elements-demo-only-cookie-key'] },
    renderError: async (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Authorization error</title><h1>Authorization error</h1><pre>${escapeHtml(JSON.stringify(out, null, 2))}</pre>`;
    },
  } as never);
  provider.proxy = false;
  const providerCallback = provider.callback();

  authHttp.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    log(`[as] ${req.method} ${req.url}`);
    if (options.coop) res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    const url = new URL(req.url ?? '/', issuer);
    // oidc-provider does not answer CORS on its registration endpoint; a browser app registering itself needs it.
    const origin = req.headers.origin;
    if (url.pathname === '/reg' && origin && allowed(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'content-type, accept, authorization', 'Access-Control-Max-Age': '600' });
        res.end();
        return;
      }
    }
    const match = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
    if (!match) return providerCallback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      const params = details.params as Record<string, string | undefined>;
      const scopes = (params.scope ?? '').split(' ').filter(Boolean);
      const approve = options.autoApprove && req.method === 'GET' && !match[2];
      if (req.method === 'GET' && !match[2] && !approve) {
        const client = await provider.Client.find(params.client_id ?? '');
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(loginPage(details.uid, client?.clientName ?? params.client_id ?? 'An application', scopes, params.resource ?? resource));
        return;
      }
      if (approve || (req.method === 'POST' && match[2])) {
        const form = approve ? new URLSearchParams({ decision: 'allow' }) : new URLSearchParams((await readBody(req)).toString('utf8'));
        if (form.get('decision') !== 'allow') {
          await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user cancelled the sign-in' }, { mergeWithLastSubmission: false });
          return;
        }
        // Demo consent: grant what was asked for, for this resource only.
        const accountId = 'demo-user';
        const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: params.client_id! });
        const oidcScopes = scopes.filter((s) => s === 'openid' || s === 'offline_access');
        if (oidcScopes.length) grant!.addOIDCScope(oidcScopes.join(' '));
        const resourceScopes = scopes.filter((s) => RESOURCE_SCOPES.includes(s));
        grant!.addResourceScope(params.resource ?? resource, resourceScopes.join(' '));
        const grantId = await grant!.save();
        await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
        return;
      }
      res.writeHead(405).end();
    } catch (error) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`Sign-in failed: ${(error as Error).message}`);
    }
  });

  const requests: ProtectedDemo['requests'] = [];
  // Tokens the MCP server has seen, and the ones it now treats as expired.
  const seen = new Set<string>();
  const expired = new Set<string>();
  const corsHeaders = (origin: string | undefined): Record<string, string> =>
    origin && allowed(origin)
      ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': 'WWW-Authenticate, Mcp-Session-Id, MCP-Protocol-Version' }
      : {};

  mcpHttp.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const origin = req.headers.origin;
    const url = new URL(req.url ?? '/', resource);
    log(`[mcp] ${req.method} ${url.pathname} ${req.headers['mcp-method'] ?? ''}`);
    if (origin !== undefined && !allowed(origin)) {
      res.writeHead(403, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: `Origin ${origin} is not allowed` }));
      return;
    }
    if (req.method === 'OPTIONS') {
      const requested = String(req.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h && (ALLOWED_HEADERS.includes(h) || h.startsWith('mcp-param-')));
      res.writeHead(204, {
        ...corsHeaders(origin),
        'Access-Control-Allow-Methods': 'POST, GET, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': [...new Set([...ALLOWED_HEADERS, ...requested])].join(', '),
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    if (url.pathname === prmPath && req.method === 'GET') {
      res.writeHead(200, { ...corsHeaders(origin), 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ resource, authorization_servers: [issuer], scopes_supported: ['mcp:tools'], bearer_methods_supported: ['header'], resource_name: 'mcp-web-elements protected demo' }));
      return;
    }
    if (url.pathname !== '/mcp') {
      res.writeHead(404, { ...corsHeaders(origin), 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    const body = await readBody(req);
    let mcpMethod: string | undefined;
    let toolName: string | undefined;
    try {
      const message = JSON.parse(body.toString('utf8') || 'null');
      mcpMethod = typeof message?.method === 'string' ? message.method : undefined;
      toolName = mcpMethod === 'tools/call' ? message.params?.name : undefined;
    } catch {
      /* not JSON: the inner server will say so */
    }
    const authorization = req.headers.authorization ?? '';
    const scheme = authorization.split(' ', 1)[0] || undefined;
    const challenge = (extra: string) => `Bearer resource_metadata="${resource.replace(/\/mcp$/, '')}${prmPath}", scope="mcp:tools"${extra}`;
    const refuse = (status: number, header: string, error: string) => {
      requests.push({ method: req.method ?? '', mcpMethod, scheme, status });
      res.writeHead(status, { ...corsHeaders(origin), 'Content-Type': 'application/json', 'WWW-Authenticate': header });
      res.end(JSON.stringify({ error }));
    };
    if (!/^Bearer [^ ]+$/.test(authorization)) return refuse(401, challenge(''), 'invalid_request');
    const value = authorization.slice(7);
    const token = expired.has(value) ? undefined : await provider.AccessToken.find(value);
    const audience = token?.aud;
    const valid = token && !token.isExpired && (audience === resource || (Array.isArray(audience) && audience.includes(resource)));
    if (valid) seen.add(value);
    if (!valid) return refuse(401, challenge(', error="invalid_token", error_description="The access token is invalid or expired"'), 'invalid_token');
    const granted = String(token.scope ?? '').split(' ');
    if (!granted.includes('mcp:tools')) return refuse(403, challenge(', error="insufficient_scope"'), 'insufficient_scope');
    if (toolName && ADMIN_TOOLS.has(toolName) && !granted.includes('mcp:admin')) {
      return refuse(403, `Bearer error="insufficient_scope", scope="mcp:tools mcp:admin", resource_metadata="${resource.replace(/\/mcp$/, '')}${prmPath}", error_description="${toolName} needs mcp:admin"`, 'insufficient_scope');
    }
    requests.push({ method: req.method ?? '', mcpMethod, scheme, status: 200 });
    // Forward to the inner demo server (the token stays here: no token passthrough).
    const target = new URL(inner.url);
    const headers = { ...req.headers, host: target.host };
    delete headers.authorization;
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: target.pathname + url.search, method: req.method, headers }, (reply) => {
      // The inner server's own CORS headers are replaced by ours (a header given twice fails CORS).
      const replyHeaders: Record<string, string | string[] | undefined> = {};
      for (const [name, value] of Object.entries(reply.headers)) if (!name.startsWith('access-control-') && name !== 'vary') replyHeaders[name] = value;
      Object.assign(replyHeaders, corsHeaders(origin));
      res.writeHead(reply.statusCode ?? 502, replyHeaders);
      reply.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`Upstream failed: ${error.message}`);
    });
    res.on('close', () => upstream.destroy());
    upstream.end(body);
  });

  return {
    url: resource,
    issuer,
    requests,
    expireAccessTokens() {
      for (const token of seen) expired.add(token);
      seen.clear();
    },
    async close() {
      await Promise.all([closeHttp(mcpHttp), closeHttp(authHttp), inner.close()]);
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const demo = await startProtectedDemo({
    port: Number(flag('--port') ?? 3002),
    authPort: Number(flag('--auth-port') ?? 3003),
    accessTokenTtlSeconds: Number(flag('--token-ttl') ?? 300),
    verbose: args.includes('--verbose'),
    autoApprove: args.includes('--auto-approve'),
    coop: args.includes('--coop'),
  });
  console.log(`Protected demo MCP server at ${demo.url}; authorization server ${demo.issuer}`);
  const stop = async () => {
    await demo.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
