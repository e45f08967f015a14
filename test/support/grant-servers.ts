/**
 * Authorization servers for the machine-to-machine grant tests.
 *
 * - {@link startOidcGrantServer}: oidc-provider (a certified OpenID provider)
 *   with the client credentials grant, resource indicators and pre-registered
 *   clients that authenticate with `client_secret_basic` or `private_key_jwt`.
 *   It verifies client assertions itself.
 * - {@link startJwtGrantServers}: what oidc-provider does not implement: an
 *   authorization server for the JWT bearer grant (RFC 7523 §2.1) that trusts a
 *   workload platform and an enterprise IdP, and that IdP, which exchanges ID
 *   tokens for ID-JAGs (RFC 8693). JWTs are signed and verified with node:crypto,
 *   independently of the kit's own signing code.
 *
 * Both expose a `tokens` map that `startProtectedServer` (auth-servers.ts) uses
 * to accept access tokens, and record what they were sent.
 */
import { constants, generateKeyPairSync, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import type { AuthServer, IssuedToken, Recorded } from './auth-servers.js';
import { closeServer as close, listen, readBody } from './http.js';




function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** `Basic` credentials as RFC 6749 §2.3.1 encodes them, decoded. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header?.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const form = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
  return { id: form(decoded.slice(0, colon)), secret: form(decoded.slice(colon + 1)) };
}

// --- keys and JWTs (node:crypto) ---------------------------------------------------------------

export type TestKeyType = 'RS256' | 'PS256' | 'ES256' | 'ES384' | 'EdDSA';

export interface TestKeyPair {
  alg: TestKeyType;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The private key as PKCS#8 PEM (what a service is configured with). */
  pem: string;
  /** The public key as a JWK (what the authorization server registers). */
  publicJwk: Record<string, unknown>;
}

/** A fresh key pair for `alg`. */
export function testKeyPair(alg: TestKeyType): TestKeyPair {
  const pair =
    alg === 'RS256' || alg === 'PS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : alg === 'EdDSA'
        ? generateKeyPairSync('ed25519')
        : generateKeyPairSync('ec', { namedCurve: alg === 'ES256' ? 'P-256' : 'P-384' });
  return {
    alg,
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
    pem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicJwk: { ...pair.publicKey.export({ format: 'jwk' }), alg, use: 'sig' },
  };
}

function hashOf(alg: string): string | null {
  return alg === 'EdDSA' ? null : `sha${alg.slice(2)}`;
}

/** node:crypto options for a JWS algorithm: r||s ECDSA signatures, PSS padding with a hash-length salt. */
function signatureOptions(alg: TestKeyType) {
  return {
    ...(alg.startsWith('ES') ? { dsaEncoding: 'ieee-p1363' as const } : {}),
    ...(alg === 'PS256' ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } : {}),
  };
}

/** Signs a JWT with node:crypto. */
export function signTestJwt(key: TestKeyPair, claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const input = `${Buffer.from(JSON.stringify({ ...header, alg: key.alg })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const signature = sign(hashOf(key.alg), Buffer.from(input), { key: key.privateKey, ...signatureOptions(key.alg) });
  return `${input}.${signature.toString('base64url')}`;
}

export type JwtCheck = { ok: true; header: Record<string, any>; claims: Record<string, any> } | { ok: false; error: string };

/** Verifies a JWT's signature (with the key its `iss` maps to), `aud` and `exp`. */
export function verifyTestJwt(jwt: string | undefined, keys: (iss: string) => TestKeyPair | undefined, audience: string): JwtCheck {
  const parts = (jwt ?? '').split('.');
  if (parts.length !== 3) return { ok: false, error: 'malformed' };
  let header: Record<string, any>;
  let claims: Record<string, any>;
  try {
    header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, error: 'malformed' };
  }
  const key = keys(String(claims.iss));
  if (!key) return { ok: false, error: `untrusted issuer ${claims.iss}` };
  if (header.alg !== key.alg) return { ok: false, error: `alg ${header.alg}` };
  const valid = verify(hashOf(key.alg), Buffer.from(`${parts[0]}.${parts[1]}`), { key: key.publicKey, ...signatureOptions(key.alg) }, Buffer.from(parts[2]!, 'base64url'));
  if (!valid) return { ok: false, error: 'bad signature' };
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(audience)) return { ok: false, error: `aud ${JSON.stringify(claims.aud)}` };
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) return { ok: false, error: 'expired' };
  return { ok: true, header, claims };
}

// --- oidc-provider with the client credentials grant -------------------------------------------------------

export interface OidcGrantClient {
  clientId: string;
  /** client_secret_basic with this secret… */
  secret?: string;
  /** …or private_key_jwt with this key. */
  key?: TestKeyPair;
}

export interface OidcGrantRecord {
  outcome: 'success' | 'error';
  /** The request's OAuth parameters as oidc-provider parsed them (grant_type, resource, scope, client_assertion…). */
  params: Record<string, string | undefined>;
  authorization?: string;
  clientId?: string;
  authMethod?: string;
  error?: string;
}

export interface OidcGrantServer {
  issuer: string;
  /** For `startProtectedServer`: the access tokens issued, by value. */
  authServer: AuthServer;
  /** Every HTTP request (bodies are oidc-provider's to read: see `grants`). */
  requests: Recorded[];
  /** Token requests oidc-provider granted or refused: their parameters, the authenticated client and its method. */
  grants: OidcGrantRecord[];
  close(): Promise<void>;
}

/**
 * Starts oidc-provider for `resource` with the client credentials grant;
 * clients are pre-registered (no DCR) and get the resource scope `mcp:tools`.
 */
export async function startOidcGrantServer(options: { resource: () => string; clients: OidcGrantClient[] }): Promise<OidcGrantServer> {
  const http = createServer();
  const issuer = await listen(http);
  const tokens = new Map<string, IssuedToken>();
  const requests: Recorded[] = [];
  const grants: OidcGrantServer['grants'] = [];
  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: 'mcp:tools',
      ...(client.key
        ? { token_endpoint_auth_method: 'private_key_jwt', token_endpoint_auth_signing_alg: client.key.alg, jwks: { keys: [client.key.publicJwk] } }
        : { token_endpoint_auth_method: 'client_secret_basic', client_secret: client.secret }),
    })),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.resource(),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== options.resource()) throw new Provider.errors.InvalidTarget(`unknown resource ${indicator}`);
          return { scope: 'mcp:tools', audience: indicator, accessTokenTTL: 600, accessTokenFormat: 'opaque' };
        },
      },
    },
    enabledJWA: { clientAuthSigningAlgValues: ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'] },
    scopes: ['mcp:tools'],
  } as never);
  provider.proxy = false;
  const events = provider as unknown as { on(event: string, listener: (...args: any[]) => void): void };
  // Opaque access tokens are their jti.
  events.on('client_credentials.saved', (token: { jti: string; scope?: string; aud?: string; clientId: string; exp: number }) => {
    tokens.set(token.jti, { scopes: (token.scope ?? '').split(' ').filter(Boolean), resource: String(token.aud), clientId: token.clientId, expiresAt: token.exp * 1000 });
  });
  type GrantContext = { headers: Record<string, string | undefined>; oidc: { params?: Record<string, string | undefined>; client?: { clientId: string; clientAuthMethod: string } } };
  const record = (outcome: OidcGrantRecord['outcome'], ctx: GrantContext, error?: string) =>
    grants.push({
      outcome,
      params: { ...ctx.oidc.params },
      ...(ctx.headers.authorization ? { authorization: ctx.headers.authorization } : {}),
      ...(ctx.oidc.client ? { clientId: ctx.oidc.client.clientId, authMethod: ctx.oidc.client.clientAuthMethod } : {}),
      ...(error ? { error } : {}),
    });
  events.on('grant.success', (ctx: GrantContext) => record('success', ctx));
  events.on('grant.error', (ctx: GrantContext, error: { error?: string }) => record('error', ctx, error.error));
  const callback = provider.callback();
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    requests.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body: {} });
    callback(req, res);
  });
  const authServer = { origin: issuer, issuer, requests, tokens, refreshTokens: new Map(), revoked: [], options: {}, clients: new Map(), dropClient: () => {}, count: (p: string) => requests.filter((r) => r.path === p).length, close: () => close(http) } satisfies AuthServer;
  return { issuer, authServer, requests, grants, close: () => close(http) };
}

// --- JWT bearer grant: workload identity and enterprise-managed authorization ---------------------------------

/** The grant type of RFC 7523 §2.1. */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface JwtGrantServers {
  /** The MCP server's authorization server (JWT bearer grant only; no authorization endpoint). */
  as: AuthServer;
  /** The enterprise identity provider. */
  idp: { issuer: string; tokenEndpoint: string; requests: Recorded[]; clientId: string; clientSecret: string };
  /** The workload platform that issues workload JWTs. */
  workload: { issuer: string };
  /** The client registered at the authorization server for enterprise-managed authorization. */
  client: { clientId: string; clientSecret: string };
  /** A workload JWT signed by the platform (defaults: audience the authorization server, 5 minutes). */
  workloadJwt(claims?: Record<string, unknown>): string;
  /** An ID token the IdP issued to the client at sign-on. */
  idToken(claims?: Record<string, unknown>): string;
  close(): Promise<void>;
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

/**
 * Starts an authorization server that accepts the JWT bearer grant from two
 * trusted issuers, a workload platform (the JWT is the credential, no client
 * authentication) and an enterprise IdP (an ID-JAG, with the client's Basic
 * credentials), and that IdP, whose token endpoint exchanges ID tokens it
 * issued for ID-JAGs. Access tokens live `accessTokenTtl` seconds (default 600).
 */
export async function startJwtGrantServers(options: { accessTokenTtl?: number } = {}): Promise<JwtGrantServers> {
  const ttl = options.accessTokenTtl ?? 600;
  const asHttp = createServer();
  const idpHttp = createServer();
  const asOrigin = await listen(asHttp);
  const idpIssuer = await listen(idpHttp);
  const workloadIssuer = 'https://workloads.example.test';
  const workloadKey = testKeyPair('RS256');
  const idpKey = testKeyPair('ES256');
  const client = { clientId: 'chat-app', clientSecret: 'chat-app-secret' };
  const idpClient = { clientId: 'chat-app-at-idp', clientSecret: 'idp-secret' };
  const asRequests: Recorded[] = [];
  const idpRequests: Recorded[] = [];
  const tokens = new Map<string, IssuedToken>();
  let serial = 0;
  const now = () => Math.floor(Date.now() / 1000);
  const trusted = (iss: string) => (iss === workloadIssuer ? workloadKey : iss === idpIssuer ? idpKey : undefined);

  idpHttp.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', idpIssuer);
    const body = Object.fromEntries(new URLSearchParams(await readBody(req)));
    idpRequests.push({ method: req.method ?? '', path: url.pathname, query: {}, headers: req.headers, body });
    if (req.method !== 'POST' || url.pathname !== '/token') return json(res, 404, { error: 'not_found' });
    const caller = basicCredentials(req.headers.authorization);
    if (caller?.id !== idpClient.clientId || caller.secret !== idpClient.clientSecret) return json(res, 401, { error: 'invalid_client' });
    if (body.grant_type !== TOKEN_EXCHANGE) return json(res, 400, { error: 'unsupported_grant_type' });
    if (body.requested_token_type !== ID_JAG || body.subject_token_type !== ID_TOKEN || !body.audience || !body.resource) return json(res, 400, { error: 'invalid_request' });
    const subject = verifyTestJwt(body.subject_token, (iss) => (iss === idpIssuer ? idpKey : undefined), idpClient.clientId);
    if (!subject.ok) return json(res, 400, { error: 'invalid_grant', error_description: `ID token: ${subject.error}` });
    const jag = signTestJwt(
      idpKey,
      { iss: idpIssuer, sub: subject.claims.sub, aud: body.audience, resource: body.resource, client_id: client.clientId, jti: randomUUID(), iat: now(), exp: now() + 300, ...(body.scope ? { scope: body.scope } : {}) },
      { typ: 'oauth-id-jag+jwt' },
    );
    json(res, 200, { access_token: jag, issued_token_type: ID_JAG, token_type: 'N_A', expires_in: 300 });
  });

  asHttp.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', asOrigin);
    const body = Object.fromEntries(new URLSearchParams(await readBody(req)));
    asRequests.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body });
    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
      // A machine-only server: no authorization endpoint, no PKCE, no registration.
      return json(res, 200, {
        issuer: asOrigin,
        token_endpoint: `${asOrigin}/token`,
        grant_types_supported: [JWT_BEARER],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
      });
    }
    if (req.method !== 'POST' || url.pathname !== '/token') return json(res, 404, { error: 'not_found' });
    if (body.grant_type !== JWT_BEARER) return json(res, 400, { error: 'unsupported_grant_type' });
    const checked = verifyTestJwt(body.assertion, trusted, asOrigin);
    if (!checked.ok) return json(res, 400, { error: 'invalid_grant', error_description: checked.error });
    let subject = String(checked.claims.sub);
    if (checked.header.typ === 'oauth-id-jag+jwt') {
      // An ID-JAG is redeemed by the client it was issued to, for the resource it names.
      const caller = basicCredentials(req.headers.authorization);
      if (caller?.id !== client.clientId || caller.secret !== client.clientSecret) return json(res, 401, { error: 'invalid_client' });
      if (checked.claims.client_id !== caller.id || checked.claims.resource !== body.resource) return json(res, 400, { error: 'invalid_grant', error_description: 'ID-JAG client_id or resource' });
      subject = `${subject} via ${caller.id}`;
    }
    const accessToken = `at-${++serial}`;
    const scopes = (body.scope ?? '').split(' ').filter(Boolean);
    tokens.set(accessToken, { scopes, resource: body.resource ?? '', clientId: subject, expiresAt: Date.now() + ttl * 1000 });
    json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: ttl, ...(scopes.length ? { scope: scopes.join(' ') } : {}) });
  });

  const as = {
    origin: asOrigin,
    issuer: asOrigin,
    requests: asRequests,
    tokens,
    refreshTokens: new Map(),
    revoked: [],
    options: {},
    clients: new Map(),
    dropClient: () => {},
    count: (p: string) => asRequests.filter((r) => r.path === p).length,
    close: () => close(asHttp),
  } satisfies AuthServer;
  return {
    as,
    idp: { issuer: idpIssuer, tokenEndpoint: `${idpIssuer}/token`, requests: idpRequests, ...idpClient },
    workload: { issuer: workloadIssuer },
    client,
    workloadJwt: (claims = {}) =>
      signTestJwt(workloadKey, { iss: workloadIssuer, sub: 'spiffe://example.test/ns/ci/sa/report-bot', aud: asOrigin, jti: randomUUID(), iat: now(), exp: now() + 300, ...claims }, { typ: 'JWT' }),
    idToken: (claims = {}) => signTestJwt(idpKey, { iss: idpIssuer, sub: 'employee-4711', aud: idpClient.clientId, iat: now(), exp: now() + 3600, ...claims }),
    async close() {
      await Promise.all([close(asHttp), close(idpHttp)]);
    },
  };
}
