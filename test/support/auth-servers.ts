/**
 * Servers for the OAuth tests.
 *
 * - {@link startAuthServer}: a small OAuth 2.1 authorization server on loopback
 *   whose misbehaviour can be chosen per test (wrong `iss`, issuer mismatch, no
 *   S256, refused registration, DPoP nonces, rotating refresh tokens…): faults
 *   the real provider of the demo (oidc-provider) cannot be made to produce. Its
 *   `/authorize` redirects at once, like a pre-consented grant.
 * - {@link startProtectedServer}: the official MCP server SDK (`startModernServer`)
 *   behind a resource-server guard: Protected Resource Metadata, 401/403
 *   challenges, audience and scope checks, DPoP proof verification.
 * - {@link headlessLogin}: an opener that signs in at the demo's oidc-provider
 *   login page by submitting its form, with a cookie jar.
 *
 * Every request is recorded so tests can assert what went over the wire.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { expect } from 'vitest';
import { McpAuthError, type AuthorizationOpener } from '../../src/auth/index.js';
import { startModernServer, type ModernServer } from './servers.js';
import { closeServer as close, listen, readBody } from './http.js';

export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** Form or JSON body, parsed. */
  body: Record<string, any>;
}

function b64url(bytes: ArrayBuffer | Uint8Array): string {
  return Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('base64url');
}

async function sha256(text: string): Promise<string> {
  return b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}


function parseBody(text: string, type: string | undefined): Record<string, any> {
  if (!text) return {};
  if ((type ?? '').includes('application/json')) {
    try {
      return JSON.parse(text);
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}



function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/** Verifies a DPoP proof (RFC 9449 §4.3) with WebCrypto; returns its claims and key thumbprint, or an error. */
export async function verifyDpopProof(
  proof: string | undefined,
  expected: { method: string; url: string; accessToken?: string; nonce?: string },
): Promise<{ ok: true; jkt: string; jti: string } | { ok: false; error: string }> {
  if (!proof) return { ok: false, error: 'no DPoP header' };
  const parts = proof.split('.');
  if (parts.length !== 3) return { ok: false, error: 'not a JWS' };
  const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
  const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  if (header.typ !== 'dpop+jwt' || header.alg !== 'ES256' || !header.jwk || header.jwk.d !== undefined) return { ok: false, error: 'bad header' };
  const key = await crypto.subtle.importKey('jwk', header.jwk, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
  const valid = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, Buffer.from(parts[2]!, 'base64url'), new TextEncoder().encode(`${parts[0]}.${parts[1]}`));
  if (!valid) return { ok: false, error: 'bad signature' };
  const target = new URL(expected.url);
  if (claims.htm !== expected.method || claims.htu !== `${target.origin}${target.pathname}`) return { ok: false, error: `htm/htu ${claims.htm} ${claims.htu}` };
  if (typeof claims.jti !== 'string' || typeof claims.iat !== 'number' || Math.abs(claims.iat - Date.now() / 1000) > 60) return { ok: false, error: 'jti/iat' };
  if (expected.accessToken !== undefined && claims.ath !== (await sha256(expected.accessToken))) return { ok: false, error: 'ath' };
  if (expected.nonce !== undefined && claims.nonce !== expected.nonce) return { ok: false, error: 'use_dpop_nonce' };
  const { crv, kty, x, y } = header.jwk;
  return { ok: true, jkt: await sha256(JSON.stringify({ crv, kty, x, y })), jti: claims.jti };
}

// --- authorization server -----------------------------------------------------------------------------

export interface AuthServerOptions {
  /** Path of the issuer (`/tenant1`); default none. */
  issuerPath?: string;
  /** Which well-known document is served; default `oauth` (RFC 8414 with path insertion). */
  metadataAt?: 'oauth' | 'openid-inserted' | 'openid-appended';
  /** The `issuer` the metadata claims; default the real one. */
  metadataIssuer?: string;
  /** Default `['S256']`; `null` omits the field. */
  codeChallengeMethods?: string[] | null;
  /** Advertised `authorization_response_iss_parameter_supported`; default true. */
  issSupported?: boolean;
  /** What `/authorize` puts in `iss`; default `correct`. */
  iss?: 'correct' | 'omit' | 'wrong' | 'trailing-slash';
  /** Make `/authorize` answer with this error instead of a code. */
  authorizeError?: string;
  /** Offer DCR; default true. */
  registration?: boolean;
  /** Refuse DCR with this OAuth error. */
  registrationError?: string;
  /** `token_endpoint_auth_methods_supported`; default `['none']`; `null` omits the field (RFC 8414 default: client_secret_basic). */
  authMethods?: string[] | null;
  /**
   * The registration response to send instead of the default one (which
   * registers what was asked for). The server then holds the client to what the
   * response says: its `token_endpoint_auth_method`, or RFC 7591's default
   * `client_secret_basic` when a secret comes without one.
   */
  registrationReply?: (request: Record<string, any>, serial: number) => Record<string, unknown>;
  /** Advertise CIMD support. */
  cimd?: boolean;
  /** AS `scopes_supported`. */
  scopesSupported?: string[];
  /** Access token lifetime, in seconds; default 3600. */
  accessTokenTtl?: number;
  /** Issue refresh tokens (rotated on use); default true. */
  refreshTokens?: boolean;
  /** Delay of the token endpoint's answer to refresh requests, in ms. */
  refreshDelayMs?: number;
  /** Advertise DPoP (ES256) and bind tokens to proofs. */
  dpop?: boolean;
  /** Require this DPoP nonce at the token endpoint. */
  dpopNonce?: string;
  /** Revocation endpoint; default true. */
  revocation?: boolean;
  /** Scopes this server never grants (to provoke endless step-ups). */
  denyScopes?: string[];
  /** Prefix of the client ids this server registers; default `client`. */
  clientPrefix?: string;
  /**
   * Answers `/authorize` with a redirect to this URL instead of deciding itself:
   * an attacker's server relaying the user to another one (mix-up, RFC 9700 §4.4).
   */
  authorizeRelay?: (query: URLSearchParams) => string | Promise<string>;
  /** Metadata endpoint URLs to publish instead of the real ones (unreachable or insecure endpoints). */
  endpoints?: { authorization_endpoint?: string; token_endpoint?: string };
}

export interface IssuedToken {
  scopes: string[];
  resource: string;
  clientId: string;
  jkt?: string;
  expiresAt: number;
}

export interface AuthServer {
  origin: string;
  issuer: string;
  requests: Recorded[];
  /** Access tokens issued, by value. */
  tokens: Map<string, IssuedToken>;
  /** Refresh tokens still valid, by value. */
  refreshTokens: Map<string, { scopes: string[]; resource: string; clientId: string }>;
  revoked: string[];
  options: AuthServerOptions;
  /** Registered clients by id: their secret and token endpoint auth method. */
  clients: Map<string, { secret?: string; method: string; redirectUris?: string[] }>;
  /** Forgets a registration (an expired or deleted client): its token requests get 401 invalid_client from now on. */
  dropClient(clientId: string): void;
  count(path: string): number;
  close(): Promise<void>;
}

/** Starts the configurable test authorization server. */
export async function startAuthServer(options: AuthServerOptions = {}): Promise<AuthServer> {
  const requests: Recorded[] = [];
  const tokens = new Map<string, IssuedToken>();
  const refreshTokens = new Map<string, { scopes: string[]; resource: string; clientId: string }>();
  const codes = new Map<string, { challenge: string; clientId: string; redirectUri: string; resource: string; scopes: string[]; dpopJkt?: string }>();
  const clients = new Map<string, { secret?: string; method: string; redirectUris?: string[] }>();
  const dropped = new Set<string>();
  const revoked: string[] = [];
  let serial = 0;
  const server = createServer();
  const origin = await listen(server);
  const path = options.issuerPath ?? '';
  const issuer = `${origin}${path}`;
  const metadataPath =
    options.metadataAt === 'openid-inserted'
      ? `/.well-known/openid-configuration${path}`
      : options.metadataAt === 'openid-appended'
        ? `${path}/.well-known/openid-configuration`
        : `/.well-known/oauth-authorization-server${path}`;

  server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    const text = await readBody(req);
    const body = parseBody(text, req.headers['content-type']);
    requests.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body });
    if (req.method === 'GET' && url.pathname === metadataPath) {
      return json(res, 200, {
        issuer: options.metadataIssuer ?? issuer,
        authorization_endpoint: options.endpoints?.authorization_endpoint ?? `${issuer}/authorize`,
        token_endpoint: options.endpoints?.token_endpoint ?? `${issuer}/token`,
        ...(options.registration !== false ? { registration_endpoint: `${issuer}/register` } : {}),
        ...(options.revocation !== false ? { revocation_endpoint: `${issuer}/revoke` } : {}),
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        ...(options.codeChallengeMethods !== null ? { code_challenge_methods_supported: options.codeChallengeMethods ?? ['S256'] } : {}),
        authorization_response_iss_parameter_supported: options.issSupported ?? true,
        ...(options.authMethods !== null ? { token_endpoint_auth_methods_supported: options.authMethods ?? ['none'] } : {}),
        ...(options.cimd ? { client_id_metadata_document_supported: true } : {}),
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
        ...(options.dpop ? { dpop_signing_alg_values_supported: ['ES256'] } : {}),
      });
    }
    if (req.method === 'POST' && url.pathname === `${path}/register`) {
      if (options.registrationError) return json(res, 400, { error: options.registrationError, error_description: 'registration refused by the test server' });
      if (options.registrationReply) {
        const reply = options.registrationReply(body, ++serial);
        const secret = typeof reply.client_secret === 'string' ? reply.client_secret : undefined;
        const method = typeof reply.token_endpoint_auth_method === 'string' ? reply.token_endpoint_auth_method : secret !== undefined ? 'client_secret_basic' : 'none';
        clients.set(String(reply.client_id), { ...(secret !== undefined ? { secret } : {}), method, redirectUris: body.redirect_uris });
        return json(res, 201, reply);
      }
      const clientId = `${options.clientPrefix ?? 'client'}-${++serial}`;
      const method = String(body.token_endpoint_auth_method ?? 'client_secret_basic');
      const secret = method === 'none' ? undefined : `secret-${serial}`;
      clients.set(clientId, { secret, method, redirectUris: body.redirect_uris });
      return json(res, 201, { client_id: clientId, ...(secret ? { client_secret: secret } : {}), token_endpoint_auth_method: method, redirect_uris: body.redirect_uris });
    }
    if (req.method === 'GET' && url.pathname === `${path}/authorize`) {
      const q = url.searchParams;
      if (options.authorizeRelay) {
        res.writeHead(302, { Location: await options.authorizeRelay(q) }).end();
        return;
      }
      // Exact redirect URI matching for registered clients (RFC 9700 §4.1.1): an error page, no redirect.
      const registeredUris = clients.get(q.get('client_id') ?? '')?.redirectUris;
      if (registeredUris && !registeredUris.includes(q.get('redirect_uri') ?? '')) {
        res.writeHead(400, { 'Content-Type': 'text/plain' }).end('redirect_uri is not registered for this client');
        return;
      }
      const redirect = new URL(q.get('redirect_uri')!);
      if (q.get('state')) redirect.searchParams.set('state', q.get('state')!);
      const iss = options.iss ?? 'correct';
      if (iss === 'correct') redirect.searchParams.set('iss', issuer);
      else if (iss === 'wrong') redirect.searchParams.set('iss', 'https://impostor.test');
      else if (iss === 'trailing-slash') redirect.searchParams.set('iss', `${issuer}/`);
      if (options.authorizeError) {
        redirect.searchParams.set('error', options.authorizeError);
        redirect.searchParams.set('error_description', 'the test server said no');
      } else {
        const code = `code-${++serial}`;
        codes.set(code, {
          challenge: q.get('code_challenge') ?? '',
          clientId: q.get('client_id') ?? '',
          redirectUri: q.get('redirect_uri') ?? '',
          resource: q.get('resource') ?? '',
          scopes: (q.get('scope') ?? '').split(' ').filter((scope) => scope && !options.denyScopes?.includes(scope)),
          ...(q.get('dpop_jkt') ? { dpopJkt: q.get('dpop_jkt')! } : {}),
        });
        redirect.searchParams.set('code', code);
      }
      res.writeHead(302, { Location: redirect.href }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === `${path}/revoke`) {
      revoked.push(String(body.token));
      refreshTokens.delete(String(body.token));
      tokens.delete(String(body.token));
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === `${path}/token`) {
      // Client authentication (RFC 6749 §2.3), strict: exactly one method, the one registered.
      let clientId = String(body.client_id ?? '');
      const basic = req.headers.authorization?.startsWith('Basic ') ? req.headers.authorization.slice(6) : undefined;
      let basicSecret: string | undefined;
      if (basic !== undefined) {
        const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':').map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
        if (body.client_id !== undefined && body.client_id !== id) return json(res, 400, { error: 'invalid_request', error_description: 'client_id in the body differs from the Basic credentials' });
        clientId = id!;
        basicSecret = secret;
      }
      const methodsUsed = [basic !== undefined, body.client_secret !== undefined, body.client_assertion !== undefined].filter(Boolean).length;
      if (methodsUsed > 1) return json(res, 400, { error: 'invalid_request', error_description: 'more than one client authentication method' });
      if (dropped.has(clientId)) return json(res, 401, { error: 'invalid_client', error_description: 'unknown client' });
      const registered = clients.get(clientId);
      if (registered) {
        const ok =
          registered.method === 'none'
            ? methodsUsed === 0
            : registered.method === 'client_secret_basic'
              ? basicSecret !== undefined && basicSecret === registered.secret
              : registered.method === 'client_secret_post'
                ? body.client_secret !== undefined && body.client_secret === registered.secret
                : false;
        if (!ok) return json(res, 401, { error: 'invalid_client', error_description: `client authentication does not match the registered ${registered.method}` });
      }
      let jkt: string | undefined;
      if (options.dpop) {
        const proof = await verifyDpopProof(req.headers.dpop as string | undefined, { method: 'POST', url: `${issuer}/token`, nonce: options.dpopNonce });
        if (!proof.ok) {
          if (proof.error === 'use_dpop_nonce') return json(res, 400, { error: 'use_dpop_nonce' }, { 'DPoP-Nonce': options.dpopNonce! });
          if (req.headers.dpop) return json(res, 400, { error: 'invalid_dpop_proof', error_description: proof.error });
        } else jkt = proof.jkt;
      }
      let grant: { scopes: string[]; resource: string; clientId: string };
      if (body.grant_type === 'authorization_code') {
        const code = codes.get(String(body.code));
        codes.delete(String(body.code));
        if (!code || code.clientId !== clientId || code.redirectUri !== body.redirect_uri) return json(res, 400, { error: 'invalid_grant' });
        if ((await sha256(String(body.code_verifier ?? ''))) !== code.challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
        if (body.resource !== code.resource) return json(res, 400, { error: 'invalid_target' });
        if (code.dpopJkt && code.dpopJkt !== jkt) return json(res, 400, { error: 'invalid_dpop_proof', error_description: 'dpop_jkt mismatch' });
        grant = { scopes: code.scopes, resource: code.resource, clientId };
      } else if (body.grant_type === 'refresh_token') {
        if (options.refreshDelayMs) await new Promise((r) => setTimeout(r, options.refreshDelayMs));
        const previous = refreshTokens.get(String(body.refresh_token));
        if (!previous || previous.clientId !== clientId) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown or spent refresh token' });
        refreshTokens.delete(String(body.refresh_token)); // rotation
        grant = previous;
      } else {
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      const accessToken = `at-${++serial}`;
      const ttl = options.accessTokenTtl ?? 3600;
      tokens.set(accessToken, { ...grant, ...(jkt ? { jkt } : {}), expiresAt: Date.now() + ttl * 1000 });
      let refreshToken: string | undefined;
      if (options.refreshTokens !== false) {
        refreshToken = `rt-${++serial}`;
        refreshTokens.set(refreshToken, grant);
      }
      return json(res, 200, {
        access_token: accessToken,
        token_type: jkt ? 'DPoP' : 'Bearer',
        expires_in: ttl,
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
        ...(grant.scopes.length ? { scope: grant.scopes.join(' ') } : {}),
      });
    }
    json(res, 404, { error: 'not_found' });
  });

  return {
    origin,
    issuer,
    requests,
    tokens,
    refreshTokens,
    revoked,
    options,
    clients,
    dropClient: (clientId) => void dropped.add(clientId),
    count: (p) => requests.filter((r) => r.path === p).length,
    close: () => close(server),
  };
}

// --- protected resource -----------------------------------------------------------------------------------

export interface ProtectedServerOptions {
  /** The authorization server(s) the metadata names; a function for migrations. */
  authorizationServers: () => string[];
  /** Accepts a token: by default, one issued by `authServer` for this resource, unexpired. */
  authServer: AuthServer | (() => AuthServer);
  /** Where the PRM is served; default `path` (`/.well-known/oauth-protected-resource/mcp`). */
  prmAt?: 'path' | 'root' | 'custom';
  /** Put `resource_metadata` in the challenge; default true. */
  hint?: boolean;
  /** The PRM `resource`; default the MCP URL. */
  resource?: (mcpUrl: string) => string;
  /** PRM `scopes_supported`. */
  scopesSupported?: string[];
  /** `scope` of the 401 challenge. */
  challengeScope?: string;
  /** Scopes a tool needs (a 403 `insufficient_scope` otherwise). */
  toolScopes?: Record<string, string[]>;
  /** Challenge scheme and DPoP checks: require DPoP-bound tokens. */
  dpop?: boolean;
  /** Require this DPoP nonce on MCP requests. */
  dpopNonce?: string;
  /** Writes the 401 challenge itself (one `WWW-Authenticate` header per array item), as sloppy servers do. */
  challengeHeader?: (facts: { prmUrl: string; error?: string }) => string | string[];
}

export interface ProtectedServer {
  url: string;
  origin: string;
  prmUrl: string;
  mcp: ModernServer;
  /** Every request to the guard (MCP and PRM). */
  requests: Recorded[];
  /** Tokens the guard rejects from now on (revoked or "expired"). */
  rejected: Set<string>;
  close(): Promise<void>;
}

/** Starts the SDK test server behind a resource-server guard. */
export async function startProtectedServer(options: ProtectedServerOptions): Promise<ProtectedServer> {
  const mcp = await startModernServer();
  const requests: Recorded[] = [];
  const rejected = new Set<string>();
  const seenJti = new Set<string>();
  const server = createServer();
  const origin = await listen(server);
  const url = `${origin}/mcp`;
  const prmPath = options.prmAt === 'root' ? '/.well-known/oauth-protected-resource' : options.prmAt === 'custom' ? '/meta/resource.json' : '/.well-known/oauth-protected-resource/mcp';
  const prmUrl = `${origin}${prmPath}`;
  const as = () => (typeof options.authServer === 'function' ? options.authServer() : options.authServer);

  server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const reqUrl = new URL(req.url ?? '/', origin);
    const text = await readBody(req);
    const body = parseBody(text, 'application/json');
    requests.push({ method: req.method ?? '', path: reqUrl.pathname, query: Object.fromEntries(reqUrl.searchParams), headers: req.headers, body });
    if (req.method === 'GET' && reqUrl.pathname === prmPath) {
      return json(res, 200, {
        resource: options.resource ? options.resource(url) : url,
        authorization_servers: options.authorizationServers(),
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      });
    }
    if (reqUrl.pathname !== '/mcp') return json(res, 404, { error: 'not found' });
    const scheme = options.dpop ? 'DPoP' : 'Bearer';
    const params = [
      ...(options.hint !== false ? [`resource_metadata="${prmUrl}"`] : []),
      ...(options.challengeScope ? [`scope="${options.challengeScope}"`] : []),
    ];
    const challenge = (extra: string[] = []): string | string[] =>
      options.challengeHeader ? options.challengeHeader({ prmUrl, ...(extra.length ? { error: 'invalid_token' } : {}) }) : `${scheme} ${[...extra, ...params].join(', ')}`.trim();
    const auth = req.headers.authorization ?? '';
    const [given, value] = auth.split(' ');
    if (!value || given!.toLowerCase() !== scheme.toLowerCase()) return json(res, 401, { error: 'unauthorized' }, { 'WWW-Authenticate': challenge() });
    const token = as().tokens.get(value);
    if (!token || rejected.has(value) || token.expiresAt < Date.now() || token.resource !== url) {
      return json(res, 401, { error: 'invalid_token' }, { 'WWW-Authenticate': challenge(['error="invalid_token"']) });
    }
    if (options.dpop) {
      const proof = await verifyDpopProof(req.headers.dpop as string | undefined, { method: req.method ?? 'POST', url, accessToken: value, nonce: options.dpopNonce });
      if (!proof.ok && proof.error === 'use_dpop_nonce') {
        return json(res, 401, { error: 'use_dpop_nonce' }, { 'WWW-Authenticate': `DPoP error="use_dpop_nonce", resource_metadata="${prmUrl}"`, 'DPoP-Nonce': options.dpopNonce! });
      }
      if (!proof.ok || proof.jkt !== token.jkt || seenJti.has(proof.jti)) return json(res, 401, { error: 'invalid_dpop_proof' }, { 'WWW-Authenticate': challenge(['error="invalid_token"']) });
      seenJti.add(proof.jti);
    }
    const tool = body?.method === 'tools/call' ? body.params?.name : undefined;
    const needed = tool ? (options.toolScopes?.[tool] ?? []) : [];
    if (!needed.every((s) => token.scopes.includes(s))) {
      return json(res, 403, { error: 'insufficient_scope' }, { 'WWW-Authenticate': `${scheme} error="insufficient_scope", scope="${needed.join(' ')}", resource_metadata="${prmUrl}"` });
    }
    // Forward to the SDK server (without the token: no passthrough).
    const headers = new Headers();
    for (const [name, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['authorization', 'dpop', 'host', 'content-length'].includes(name)) headers.set(name, v);
    const upstream = await fetch(mcp.url, { method: req.method, headers, body: text || undefined });
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'transfer-encoding') out[k] = v;
    });
    res.writeHead(upstream.status, out);
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });

  return {
    url,
    origin,
    prmUrl,
    mcp,
    requests,
    rejected,
    async close() {
      await close(server);
      await mcp.close();
    },
  };
}

// --- headless login at the demo's authorization server ------------------------------------------------

/**
 * An opener that completes the demo authorization server's login page without a
 * browser: follows redirects with a cookie jar and submits the sign-in form
 * (`decision=allow`, or `deny` to test a refusal).
 */
export function headlessLogin(options: { decision?: 'allow' | 'deny'; onVisit?: (url: string) => void } = {}): AuthorizationOpener & { visits: string[] } {
  const jar = new Map<string, string>();
  const visits: string[] = [];
  return {
    visits,
    async open(url, request) {
      let current = url.href;
      let method = 'GET';
      let body: string | undefined;
      for (let hop = 0; hop < 15; hop++) {
        visits.push(`${method} ${new URL(current).pathname}`);
        options.onVisit?.(current);
        const res = await fetch(current, {
          method,
          body,
          redirect: 'manual',
          signal: request.signal,
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        });
        for (const cookie of res.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const index = pair!.indexOf('=');
          jar.set(pair!.slice(0, index), pair!.slice(index + 1));
        }
        const location = res.headers.get('location');
        if (location) {
          const next = new URL(location, current);
          if (next.href.startsWith(request.redirectUri)) return next;
          current = next.href;
          method = 'GET';
          body = undefined;
          continue;
        }
        const html = await res.text();
        const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
        if (!action) throw new Error(`no sign-in form at ${current} (HTTP ${res.status})`);
        current = new URL(action, current).href;
        method = 'POST';
        body = `decision=${options.decision ?? 'allow'}`;
      }
      throw new Error('the sign-in did not finish within 15 hops');
    },
  };
}

/** The McpAuthError a promise rejects with (the test fails if it resolves or rejects otherwise). */
export async function authError(promise: Promise<unknown>): Promise<McpAuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(McpAuthError.isInstance(error), `expected an McpAuthError, got ${String(error)}`).toBe(true);
  return error as McpAuthError;
}
