/**
 * The OAuth 2.1 authorization flow of MCP (spec: basic/authorization, all pages):
 * discovery, client identity, the authorization request, the callback checks
 * and the token endpoint. Loaded on demand by {@link OAuth} the first time a
 * server asks for authorization or a token needs refreshing, so pages that never
 * meet a protected server do not download it.
 *
 * Every failure is an {@link McpAuthError} naming the URL involved.
 *
 * @module
 */
import { readBodyText } from '../transport/transport.js';
import { isRedirect, type FetchLike } from '../transport/fetch.js';
import { splitScopes, type AuthChallenge } from './challenge.js';
import { createDpopProof, dpopThumbprint, type DpopKeyPair } from './dpop.js';
import { isLoopback, isSecureOrLoopback, randomToken, sha256base64url } from './encoding.js';
import { McpAuthError, type McpAuthErrorReason } from './errors.js';
import { storageKeys } from './keys.js';
import type { AuthStorage } from './storage.js';
import { isObject } from '../protocol/types.js';

/** Cap on an OAuth JSON document, in bytes. */
const MAX_DOCUMENT_BYTES = 256 * 1024;
/** Cap on one OAuth HTTP exchange, in ms. */
const EXCHANGE_TIMEOUT_MS = 30_000;

/** Protected Resource Metadata (RFC 9728 §2), the fields the client reads. */
export interface ResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  dpop_signing_alg_values_supported?: string[];
  dpop_bound_access_tokens_required?: boolean;
  [key: string]: unknown;
}

/** Authorization server metadata (RFC 8414 §2 / OpenID Discovery), the fields the client reads. */
export interface AuthorizationServerMetadata {
  issuer: string;
  /** Present (and checked) whenever the authorization code flow is used; machine-to-machine grants do without. */
  authorization_endpoint?: string;
  token_endpoint: string;
  registration_endpoint?: string;
  revocation_endpoint?: string;
  scopes_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  token_endpoint_auth_signing_alg_values_supported?: string[];
  grant_types_supported?: string[];
  dpop_signing_alg_values_supported?: string[];
  authorization_response_iss_parameter_supported?: boolean;
  client_id_metadata_document_supported?: boolean;
}

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** A client identity at one authorization server. */
export interface ClientIdentity {
  clientId: string;
  clientSecret?: string;
  /** `private_key_jwt` only for the machine-to-machine grants (grants.ts), which sign each assertion. */
  authMethod: TokenEndpointAuthMethod | 'private_key_jwt';
  /** Where the identity came from. */
  source: 'pre-registered' | 'metadata-document' | 'dynamic-registration';
  /** The authorization server it belongs to (registrations are never used with another). */
  issuer?: string;
  /** The redirect URI a dynamic registration was made with (its storage key). */
  redirectUri?: string;
}

/** Tokens for one resource at one authorization server. */
export interface TokenSet {
  accessToken: string;
  tokenType: 'Bearer' | 'DPoP';
  refreshToken?: string;
  /** When the token was issued, in ms since the epoch. */
  issuedAt: number;
  /** Expiry time of the access token in ms since the epoch, when the server said. */
  expiresAt?: number;
  /** Scopes granted (as the token endpoint reported them, else as requested). */
  scopes: string[];
}

/** Everything needed to finish one authorization after the callback (kept under `pending:<state>`). */
export interface PendingAuthorization {
  state: string;
  codeVerifier: string;
  redirectUri: string;
  /** The validated issuer recorded before leaving (RFC 9207 check). */
  issuer: string;
  issParameterSupported: boolean;
  as: AuthorizationServerMetadata;
  client: ClientIdentity;
  /** The `resource` exactly as the Protected Resource Metadata publishes it. */
  resource: string;
  prmUrl: string;
  scopes: string[];
  dpop: boolean;
  /** ms since the epoch. */
  createdAt: number;
  /** The MCP endpoint this authorization is for. */
  resourceUrl: string;
  /** The client was registered for this very authorization (a refusal then is not a stale registration). */
  clientFresh?: boolean;
}

/** What the flow needs from the OAuth layer. */
export interface FlowContext {
  /** `fetch` without tokens (OAuth endpoints never get the MCP access token). */
  fetch: FetchLike;
  resourceUrl: URL;
  /** Absent with a machine-to-machine grant: nothing is registered or redirected then. */
  redirectUri?: string;
  storage: AuthStorage;
  /** DPoP nonces by origin (RFC 9449 §8, §9). */
  nonces: Map<string, string>;
  clientId?: string;
  clientSecret?: string;
  clientIssuer?: string;
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  clientMetadataUrl?: string;
  clientName: string;
  applicationType?: 'web' | 'native';
  signal?: AbortSignal;
  /** Register (and use) a redirect URI that names the issuer (default true; see {@link issuerRedirectUri}). */
  perIssuerRedirectUri?: boolean;
  /** Developer warnings about tolerated server faults (the OAuth layer's `onWarning`). */
  warn?: (code: string, message: string) => void;
}


// --- HTTP helpers -------------------------------------------------------------------------

interface Exchange {
  response: Response;
  status: number;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}


export function oauthErrorFields(json: unknown): { oauthError?: string; oauthErrorDescription?: string } {
  if (!isObject(json)) return {};
  return {
    ...(typeof json.error === 'string' ? { oauthError: json.error } : {}),
    ...(typeof json.error_description === 'string' ? { oauthErrorDescription: json.error_description.slice(0, 500) } : {}),
  };
}

export function describeOAuthError(json: unknown): string {
  const { oauthError, oauthErrorDescription } = oauthErrorFields(json);
  if (!oauthError) return '';
  return oauthErrorDescription ? ` (${oauthError}: ${oauthErrorDescription})` : ` (${oauthError})`;
}

/**
 * One HTTP exchange with an OAuth endpoint. A `fetch` rejection becomes
 * `network` naming the endpoint (in a browser that is most often CORS); an abort
 * keeps the caller's reason. Metadata `GET`s follow redirects (they carry
 * nothing secret, and the documents' `issuer`/`resource` are checked); any
 * other request carries credentials, and a redirect of it is refused as
 * `redirected` instead of followed: a `307`/`308` would re-send the body (the
 * code and its verifier, a client secret, a token to revoke) and the `DPoP`
 * proof to wherever it points (the concern of RFC 9700 §4.12).
 */
export async function exchange(ctx: FlowContext, url: string, endpoint: string, init: RequestInit): Promise<Exchange> {
  const timeout = AbortSignal.timeout(EXCHANGE_TIMEOUT_MS);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  const redirect = init.redirect ?? ((init.method ?? 'GET').toUpperCase() === 'GET' ? 'follow' : 'manual');
  let response: Response;
  try {
    response = await ctx.fetch(url, { ...init, signal, redirect });
  } catch (error) {
    if (ctx.signal?.aborted) throw abortReason(ctx.signal, url);
    if (timeout.aborted) throw new McpAuthError('timeout', `The ${endpoint} at ${url} did not answer within ${EXCHANGE_TIMEOUT_MS} ms`, { url, endpoint }, { cause: error });
    const detail = (error as { cause?: { code?: string }; message?: string })?.cause?.code ?? (error as Error)?.message ?? String(error);
    throw new McpAuthError(
      'network',
      `Could not reach the ${endpoint} at ${url} (${detail}). The server may be down, or — in a browser — it does not allow this page's origin through CORS.`,
      { url, endpoint, cause: detail },
      { cause: error },
    );
  }
  // A browser shows a refused redirect as an opaque response (status 0, no Location); Node shows the 3xx.
  if (redirect === 'manual' && isRedirect(response)) {
    void response.body?.cancel().catch(() => {});
    let location: string | undefined;
    try {
      const header = response.headers.get('location');
      location = header ? new URL(header, url).href : undefined;
    } catch {
      location = undefined;
    }
    throw new McpAuthError(
      'redirected',
      `The ${endpoint} at ${url} answered with a redirect${location ? ` to ${location}` : ''}; a request that carries credentials is not sent on to another URL, so authorization stopped. Configure the endpoint's final URL on the authorization server.`,
      { url, endpoint, ...(location ? { location } : {}) },
    );
  }
  const nonce = response.headers.get('dpop-nonce');
  if (nonce) ctx.nonces.set(new URL(url).origin, nonce);
  let json: unknown;
  try {
    const text = await readBodyText(response, MAX_DOCUMENT_BYTES, { url });
    json = text ? JSON.parse(text) : undefined;
  } catch (error) {
    if (ctx.signal?.aborted) throw abortReason(ctx.signal, url);
    json = undefined;
    if (McpAuthError.isInstance(error)) throw error;
  }
  return { response, status: response.status, json };
}

function abortReason(signal: AbortSignal, url: string): Error {
  const reason = signal.reason;
  if (McpAuthError.isInstance(reason)) return reason;
  return new McpAuthError('cancelled', `Authorization was cancelled while talking to ${url}`, { url }, { cause: reason });
}

function getJson(ctx: FlowContext, url: string, endpoint: string): Promise<Exchange> {
  return exchange(ctx, url, endpoint, { method: 'GET', headers: { Accept: 'application/json' } });
}

// --- discovery --------------------------------------------------------------------------------

/**
 * Whether a published resource identifier covers the MCP endpoint: same origin
 * (scheme and host compared case-insensitively, default port elided), and the
 * resource's path is the endpoint's path or one of its parents (RFC 9728 §3.3,
 * §7.3; a server publishing `https://host` protects `https://host/mcp`).
 */
export function resourceCovers(published: string, endpoint: URL): boolean {
  let resource: URL;
  try {
    resource = new URL(published);
  } catch {
    return false;
  }
  if (resource.hash || resource.origin !== endpoint.origin) return false;
  const base = resource.pathname.replace(/\/+$/, '');
  return base === '' || endpoint.pathname === base || endpoint.pathname.startsWith(`${base}/`);
}

/** What a walk over metadata URLs met: one note per URL skipped, and the network error if no URL could be reached at all. */
interface Attempts {
  tried: string[];
  unreachable?: McpAuthError;
}

/**
 * Fetches metadata URLs in order and yields each JSON object answered with a 2xx,
 * with its URL; the caller stops at the first it accepts. Unreachable URLs and
 * other answers are noted in `attempts.tried`.
 */
async function* metadataDocuments(ctx: FlowContext, urls: string[], what: string, attempts: Attempts): AsyncGenerator<{ url: string; doc: Record<string, unknown> }> {
  let networkError: McpAuthError | undefined;
  let reached = false;
  for (const url of urls) {
    let result: Exchange;
    try {
      result = await getJson(ctx, url, what);
    } catch (error) {
      if (McpAuthError.isInstance(error) && error.reason === 'network') {
        networkError ??= error;
        attempts.tried.push(`${url} (unreachable)`);
        continue;
      }
      throw error;
    }
    reached = true;
    const doc = result.json;
    if (result.status < 200 || result.status >= 300 || !isObject(doc)) {
      attempts.tried.push(`${url} (HTTP ${result.status})`);
      continue;
    }
    yield { url, doc };
  }
  if (!reached) attempts.unreachable = networkError;
}

/**
 * Finds the Protected Resource Metadata (spec: authorization-server-discovery
 * "Protected Resource Metadata Discovery Requirements"): the challenge's
 * `resource_metadata` first, then the path-based well-known URL, then the root
 * one. The first valid document decides; its `resource` must cover the MCP
 * endpoint, or authorization stops there.
 *
 * @throws McpAuthError `resource_mismatch`, `discovery_failed`, `network`.
 */
export async function discoverResource(ctx: FlowContext, resourceMetadata?: string): Promise<{ metadata: ResourceMetadata; url: string }> {
  const origin = ctx.resourceUrl.origin;
  const candidates: string[] = [];
  if (resourceMetadata) {
    try {
      const hinted = new URL(resourceMetadata, ctx.resourceUrl);
      if (!URL.canParse(resourceMetadata)) {
        ctx.warn?.('resource-metadata-relative', `The resource_metadata ${JSON.stringify(resourceMetadata)} in the challenge of ${ctx.resourceUrl.href} is not an absolute URL (RFC 9728 §5.1); resolved to ${hinted.href}`);
      }
      if (hinted.protocol === 'https:' || hinted.protocol === 'http:') candidates.push(hinted.href);
    } catch {
      /* unusable hint: fall back to the well-known URLs */
    }
  }
  const path = ctx.resourceUrl.pathname.replace(/\/+$/, '');
  if (path) candidates.push(`${origin}/.well-known/oauth-protected-resource${path}`);
  candidates.push(`${origin}/.well-known/oauth-protected-resource`);

  const attempts: Attempts = { tried: [] };
  const { tried } = attempts;
  for await (const { url, doc } of metadataDocuments(ctx, [...new Set(candidates)], 'protected resource metadata', attempts)) {
    const servers = doc.authorization_servers;
    if (typeof doc.resource !== 'string' || !Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === 'string')) {
      tried.push(`${url} (no resource or authorization_servers)`);
      continue;
    }
    if (!resourceCovers(doc.resource, ctx.resourceUrl)) {
      throw new McpAuthError(
        'resource_mismatch',
        `The protected resource metadata at ${url} is for ${JSON.stringify(doc.resource)}, not for ${ctx.resourceUrl.href}; refusing to authorize`,
        { url, endpoint: 'protected resource metadata', resource: doc.resource },
      );
    }
    return { metadata: doc as ResourceMetadata, url };
  }
  if (attempts.unreachable) throw attempts.unreachable;
  throw new McpAuthError('discovery_failed', `No protected resource metadata for ${ctx.resourceUrl.href}; tried ${tried.join(', ')}`, {
    url: candidates[0]!,
    endpoint: 'protected resource metadata',
    tried,
  });
}

/** Well-known metadata URLs of an issuer, in the order the spec requires. */
export function metadataUrls(issuer: URL): string[] {
  const path = issuer.pathname.replace(/\/+$/, '');
  const origin = issuer.origin;
  if (!path) return [`${origin}/.well-known/oauth-authorization-server`, `${origin}/.well-known/openid-configuration`];
  return [`${origin}/.well-known/oauth-authorization-server${path}`, `${origin}/.well-known/openid-configuration${path}`, `${origin}${path}/.well-known/openid-configuration`];
}

function checkEndpoint(doc: Record<string, unknown>, field: string, metadataUrl: string, required: boolean): void {
  const value = doc[field];
  if (value === undefined && !required) return;
  let url: URL;
  try {
    url = new URL(value as string);
  } catch {
    throw new McpAuthError('invalid_response', `The authorization server metadata at ${metadataUrl} has no usable ${field}`, { url: metadataUrl, endpoint: 'authorization server metadata' });
  }
  if (!isSecureOrLoopback(url)) {
    throw new McpAuthError('insecure_endpoint', `The ${field} ${url.href} (from ${metadataUrl}) is not https; authorization endpoints must be (basic/authorization/security-considerations "Communication Security")`, {
      url: url.href,
      endpoint: field,
    });
  }
}

/**
 * Fetches and validates the authorization server metadata (spec:
 * authorization-server-discovery "Authorization Server Metadata Discovery"):
 * OAuth and OpenID variants in the required order; the document's `issuer` must
 * equal `issuer` exactly; PKCE with `S256` must be offered (security-considerations
 * "Authorization Code Protection"). With `authorizationCode: false` (the
 * machine-to-machine grants, which never visit the authorization endpoint)
 * only the token endpoint is required.
 *
 * @throws McpAuthError `issuer_mismatch`, `pkce_unsupported`, `insecure_endpoint`,
 *   `discovery_failed`, `network`, `invalid_response`.
 */
export async function discoverAuthorizationServer(ctx: FlowContext, issuer: string, options: { authorizationCode?: boolean } = {}): Promise<AuthorizationServerMetadata> {
  const codeFlow = options.authorizationCode !== false;
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw new McpAuthError('discovery_failed', `The authorization server ${JSON.stringify(issuer)} named by the resource is not a URL`, { url: issuer });
  }
  if ((issuerUrl.protocol !== 'https:' && issuerUrl.protocol !== 'http:') || issuerUrl.search || issuerUrl.hash) {
    throw new McpAuthError('discovery_failed', `The authorization server identifier ${issuer} must be an http(s) URL without query or fragment`, { url: issuer });
  }
  if (!isSecureOrLoopback(issuerUrl)) {
    throw new McpAuthError('insecure_endpoint', `The authorization server ${issuer} is not https`, { url: issuer });
  }
  const attempts: Attempts = { tried: [] };
  const { tried } = attempts;
  let mismatch: { url: string; issuer: unknown } | undefined;
  for await (const { url, doc } of metadataDocuments(ctx, metadataUrls(issuerUrl), 'authorization server metadata', attempts)) {
    if (doc.issuer !== issuer) {
      // RFC 8414 §3.3: never use a document issued for someone else (mix-up defence).
      mismatch ??= { url, issuer: doc.issuer };
      tried.push(`${url} (issuer ${JSON.stringify(doc.issuer)})`);
      continue;
    }
    const methods = doc.code_challenge_methods_supported;
    if (codeFlow && (!Array.isArray(methods) || !methods.includes('S256'))) {
      throw new McpAuthError(
        'pkce_unsupported',
        `The authorization server ${issuer} does not list S256 in code_challenge_methods_supported (${url}); refusing to authorize without PKCE`,
        { url, endpoint: 'authorization server metadata' },
      );
    }
    checkEndpoint(doc, 'authorization_endpoint', url, codeFlow);
    checkEndpoint(doc, 'token_endpoint', url, true);
    checkEndpoint(doc, 'registration_endpoint', url, false);
    checkEndpoint(doc, 'revocation_endpoint', url, false);
    return doc as unknown as AuthorizationServerMetadata;
  }
  if (mismatch) {
    throw new McpAuthError(
      'issuer_mismatch',
      `The authorization server metadata at ${mismatch.url} claims issuer ${JSON.stringify(mismatch.issuer)}, not ${issuer}; it must not be used`,
      { url: mismatch.url, endpoint: 'authorization server metadata', issuer },
    );
  }
  if (attempts.unreachable) throw attempts.unreachable;
  throw new McpAuthError('discovery_failed', `No authorization server metadata for ${issuer}; tried ${tried.join(', ')}`, {
    url: metadataUrls(issuerUrl)[0]!,
    endpoint: 'authorization server metadata',
    tried,
  });
}

// --- client identity ----------------------------------------------------------------------------

/**
 * How a client authenticates at `as`'s token endpoint (RFC 6749 §2.3): the one
 * choice for every client, from the methods the server lists, which without a
 * list are `client_secret_basic` alone (RFC 8414 §2).
 *
 * @param secret - true: the client holds one (pre-registered, a grant's, or
 *   issued by a registration that named no method); it goes in HTTP Basic, or
 *   in the body where the server lists `client_secret_post` and not Basic. Basic
 *   also where it lists neither: a server MUST accept Basic from a client it
 *   gave a secret (RFC 6749 §2.3.1). false: a public client, `none`.
 *   `registering`: what a Dynamic Client Registration asks for (RFC 7591 §2): a
 *   public client where the server lists `none`, else the method for the secret
 *   it will issue — never a public client from a server that does not offer one.
 */
export function authMethodFor(as: AuthorizationServerMetadata, secret: boolean | 'registering'): TokenEndpointAuthMethod {
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (!secret || (secret === 'registering' && supported.includes('none'))) return 'none';
  return supported.includes('client_secret_post') && !supported.includes('client_secret_basic') ? 'client_secret_post' : 'client_secret_basic';
}

/**
 * The client identity to use at `as` (spec: client-registration, priority
 * order): the pre-registered id, else the Client ID Metadata Document URL when
 * the server supports it, else a registration made earlier with this very
 * server, else Dynamic Client Registration. Registrations are stored per issuer
 * and never used with another server ("Authorization Server Binding").
 *
 * @returns the identity, and whether it was registered just now (`fresh`).
 * @throws McpAuthError `client_mismatch`, `no_client`, `registration_failed`, `network`.
 */
export async function resolveClient(ctx: FlowContext, as: AuthorizationServerMetadata): Promise<{ client: ClientIdentity; fresh: boolean }> {
  if (ctx.clientId) {
    if (ctx.clientIssuer !== undefined && ctx.clientIssuer !== as.issuer) {
      throw new McpAuthError(
        'client_mismatch',
        `The pre-registered client ${ctx.clientId} belongs to ${ctx.clientIssuer}, but ${ctx.resourceUrl.href} now names the authorization server ${as.issuer}`,
        { url: as.issuer, clientIssuer: ctx.clientIssuer },
      );
    }
    const client: ClientIdentity = {
      clientId: ctx.clientId,
      ...(ctx.clientSecret !== undefined ? { clientSecret: ctx.clientSecret } : {}),
      authMethod: ctx.tokenEndpointAuthMethod ?? authMethodFor(as, ctx.clientSecret !== undefined),
      source: 'pre-registered',
      issuer: as.issuer,
    };
    return { client, fresh: false };
  }
  if (ctx.clientMetadataUrl && as.client_id_metadata_document_supported === true) {
    // CIMD ids are portable across authorization servers: nothing to store.
    return { client: { clientId: ctx.clientMetadataUrl, authMethod: 'none', source: 'metadata-document' }, fresh: false };
  }
  if (!ctx.redirectUri) throw new McpAuthError('no_client', `No redirect URI is configured, so no client can be registered at ${as.issuer}; configure a redirectUri or a grant`, { url: as.issuer });
  const redirectUri = ctx.perIssuerRedirectUri === false ? ctx.redirectUri : await issuerRedirectUri(ctx.redirectUri, as.issuer);
  const key = storageKeys.client(as.issuer, redirectUri);
  const stored = (await ctx.storage.get(key)) as (ClientIdentity & { secretExpiresAt?: number }) | undefined;
  if (stored && stored.issuer === as.issuer && typeof stored.clientId === 'string' && !(stored.secretExpiresAt && stored.secretExpiresAt < Date.now())) {
    return { client: stored, fresh: false };
  }
  if (!as.registration_endpoint) {
    throw new McpAuthError(
      'no_client',
      `The authorization server ${as.issuer} offers no dynamic registration${as.client_id_metadata_document_supported ? '' : ' and no Client ID Metadata Documents'}; configure a pre-registered clientId${ctx.clientMetadataUrl ? '' : ' or a clientMetadataUrl'}`,
      { url: as.issuer },
    );
  }
  const identity = await register(ctx, as, redirectUri);
  await ctx.storage.set(key, identity);
  return { client: identity, fresh: true };
}

/** The query parameter that names the issuer in a per-issuer redirect URI. */
export const ISSUER_REDIRECT_PARAM = 'mcp_as';

/**
 * The redirect URI for flows with `issuer` (RFC 9700 §4.4.2, per-issuer
 * redirect URIs): the configured one plus `mcp_as=<tag>`, the tag being the
 * first 16 characters of the base64url SHA-256 of the issuer. Registered with
 * that issuer only, so a response it sends can only arrive where its own flows
 * expect it; {@link checkCallback} refuses a response at another issuer's URI
 * even when it carries no `iss`. Query parameters the configured URI already
 * has are kept as they are (RFC 6749 §3.1.2).
 */
export async function issuerRedirectUri(redirectUri: string, issuer: string): Promise<string> {
  const url = new URL(redirectUri);
  const tag = `${ISSUER_REDIRECT_PARAM}=${(await sha256base64url(issuer)).slice(0, 16)}`;
  url.search = url.search ? `${url.search}&${tag}` : `?${tag}`;
  return url.href;
}

/** Forgets a stored dynamic registration (the server refused it), so the next authorization registers anew. */
export async function forgetRegistration(storage: AuthStorage, client: ClientIdentity, redirectUri?: string): Promise<void> {
  const registeredWith = client.redirectUri ?? redirectUri;
  if (client.source === 'dynamic-registration' && client.issuer && registeredWith) await storage.delete(storageKeys.client(client.issuer, registeredWith));
}

/**
 * Whether a token endpoint failure says the client itself was refused
 * (RFC 6749 §5.2 `invalid_client`, or a bare 401), not the grant.
 */
export function isInvalidClient(error: unknown): error is McpAuthError {
  if (!McpAuthError.isInstance(error) || (error.reason !== 'token_failed' && error.reason !== 'refresh_failed')) return false;
  return error.data.oauthError === 'invalid_client' || (error.data.status === 401 && error.data.oauthError === undefined);
}

/** Dynamic Client Registration (RFC 7591; spec: client-registration "Dynamic Client Registration"). */
async function register(ctx: FlowContext, as: AuthorizationServerMetadata, redirectUri: string): Promise<ClientIdentity & { secretExpiresAt?: number }> {
  const url = as.registration_endpoint!;
  const requested = authMethodFor(as, 'registering');
  // "native" for apps served from localhost, "web" for hosted ones (OpenID Registration; SEP-837).
  const applicationType = ctx.applicationType ?? (isLoopback(new URL(redirectUri)) ? 'native' : 'web');
  const body = {
    client_name: ctx.clientName,
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: requested,
    application_type: applicationType,
  };
  const result = await exchange(ctx, url, 'registration endpoint', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const doc = result.json;
  if (result.status < 200 || result.status >= 300 || !isObject(doc) || typeof doc.client_id !== 'string' || doc.client_id === '') {
    throw new McpAuthError(
      'registration_failed',
      `Dynamic client registration at ${url} failed with HTTP ${result.status}${describeOAuthError(doc)}; registered redirect URI ${redirectUri} as application_type ${applicationType}`,
      { url, endpoint: 'registration endpoint', status: result.status, ...oauthErrorFields(doc) },
    );
  }
  const clientId = doc.client_id;
  const secret = typeof doc.client_secret === 'string' && doc.client_secret !== '' ? doc.client_secret : undefined;
  const refuse = (why: string) =>
    new McpAuthError('registration_failed', `Dynamic client registration at ${url} ${why}; no client can be used with ${as.issuer}`, {
      url,
      endpoint: 'registration endpoint',
      status: result.status,
      clientId,
    });
  // RFC 7591 §3.2.1: the response states what was registered. Omitted, the method is
  // client_secret_basic (§2) — or, with no secret issued at all, a public client.
  let method = doc.token_endpoint_auth_method;
  if (method === undefined) {
    // The same choice as for any client with a secret: post only where the server lists post and not basic.
    method = authMethodFor(as, secret !== undefined);
    if (secret !== undefined) {
      ctx.warn?.(
        'registration-method-missing',
        `The registration at ${url} issued a client_secret without token_endpoint_auth_method (RFC 7591 §3.2.1); the secret is sent with ${method as string}${method === 'client_secret_basic' ? ', the RFC 7591 default' : ', the only secret method the server lists'}`,
      );
    }
  }
  if (method !== 'none' && method !== 'client_secret_basic' && method !== 'client_secret_post') {
    throw refuse(`registered the client ${clientId} with token_endpoint_auth_method ${JSON.stringify(method)}, which this client cannot use (it can use none, client_secret_basic and client_secret_post)`);
  }
  if (method !== 'none' && secret === undefined) throw refuse(`registered the client ${clientId} for ${method} but issued no client_secret`);
  if (method === 'none' && secret !== undefined) {
    ctx.warn?.('registration-stray-secret', `The registration at ${url} made ${clientId} a public client (token_endpoint_auth_method none) but also issued a client_secret; the secret is not used`);
  }
  const expires = typeof doc.client_secret_expires_at === 'number' && doc.client_secret_expires_at > 0 ? doc.client_secret_expires_at * 1000 : undefined;
  return {
    clientId,
    ...(method !== 'none' ? { clientSecret: secret } : {}),
    authMethod: method,
    source: 'dynamic-registration',
    issuer: as.issuer,
    redirectUri,
    ...(expires ? { secretExpiresAt: expires } : {}),
  };
}

// --- authorization request and callback ---------------------------------------------------------------

/**
 * Scopes for a new authorization (spec: basic/authorization "Scope Selection
 * Strategy", "Step-Up Authorization Flow", "Refresh Tokens"): the challenge's
 * `scope`, else the resource's `scopes_supported`, else none; united with the
 * scopes requested before and the host's extra scopes; plus `offline_access`
 * when the authorization server lists it and some scope is requested at all.
 */
export function selectScopes(input: {
  challenge?: AuthChallenge;
  resource: ResourceMetadata;
  as: AuthorizationServerMetadata;
  previous?: string[];
  extra?: string[];
  offlineAccess: boolean;
}): string[] {
  const challenged = splitScopes(input.challenge?.params.scope);
  const base = challenged.length > 0 ? challenged : (input.resource.scopes_supported ?? []).filter((s) => typeof s === 'string');
  const scopes = [...new Set([...(input.previous ?? []), ...base, ...(input.extra ?? [])])];
  if (input.offlineAccess && scopes.length > 0 && input.as.scopes_supported?.includes('offline_access') && !scopes.includes('offline_access')) scopes.push('offline_access');
  return scopes;
}

/**
 * Builds the authorization request: PKCE S256 verifier and challenge, a random
 * `state`, `resource` exactly as published, `scope` when there is any, and
 * `dpop_jkt` when the token will be DPoP-bound (RFC 9449 §10).
 */
export async function prepareAuthorization(input: {
  resourceUrl: URL;
  redirectUri: string;
  as: AuthorizationServerMetadata;
  client: ClientIdentity;
  resource: string;
  prmUrl: string;
  scopes: string[];
  dpopKey?: DpopKeyPair;
}): Promise<{ url: URL; pending: PendingAuthorization }> {
  // A dynamic registration brings its own (per-issuer) redirect URI; other clients use the configured one.
  const redirectUri = input.client.redirectUri ?? input.redirectUri;
  const state = randomToken(24);
  const codeVerifier = randomToken(32);
  const url = new URL(input.as.authorization_endpoint!);
  const params = url.searchParams;
  params.set('response_type', 'code');
  params.set('client_id', input.client.clientId);
  params.set('redirect_uri', redirectUri);
  params.set('code_challenge', await sha256base64url(codeVerifier));
  params.set('code_challenge_method', 'S256');
  params.set('state', state);
  params.set('resource', input.resource);
  if (input.scopes.length > 0) params.set('scope', input.scopes.join(' '));
  if (input.dpopKey) params.set('dpop_jkt', await dpopThumbprint(input.dpopKey));
  return {
    url,
    pending: {
      state,
      codeVerifier,
      redirectUri,
      issuer: input.as.issuer,
      issParameterSupported: input.as.authorization_response_iss_parameter_supported === true,
      as: input.as,
      client: input.client,
      resource: input.resource,
      prmUrl: input.prmUrl,
      scopes: input.scopes,
      dpop: input.dpopKey !== undefined,
      createdAt: Date.now(),
      resourceUrl: input.resourceUrl.href,
    },
  };
}

/** The callback's parameters (query, or fragment when the query has none). */
export function callbackParams(callback: URL): URLSearchParams {
  if (callback.searchParams.has('state') || callback.searchParams.has('code') || callback.searchParams.has('error')) return callback.searchParams;
  return new URLSearchParams(callback.hash.replace(/^#/, ''));
}

/**
 * Checks the authorization response and returns its code (spec: basic/authorization
 * "Authorization Response Validation"): `state` must match; the response must
 * have arrived at the redirect URI of this flow, per-issuer tag included
 * (RFC 9700 §4.4.2: mix-up defence that works without `iss`); a present `iss`
 * must equal the recorded issuer by plain string comparison, and an absent one
 * is refused when the server promised it — all before any `error` in the
 * response is looked at or shown.
 *
 * @throws McpAuthError `state_mismatch`, `iss_mismatch`, `authorization_error`, `invalid_response`.
 */
export function checkCallback(pending: PendingAuthorization, callbackUrl: string | URL): string {
  const callback = new URL(callbackUrl, pending.redirectUri);
  // Errors name the callback without its query: it carries the one-time code.
  const where = `${callback.origin}${callback.pathname}`;
  const params = callbackParams(callback);
  if (params.get('state') !== pending.state) {
    throw new McpAuthError('state_mismatch', `The authorization response at ${where} does not belong to the pending authorization (state differs); it was discarded`, {
      url: where,
      endpoint: 'authorization',
    });
  }
  const expected = new URL(pending.redirectUri);
  let arrived = callback.origin === expected.origin && callback.pathname === expected.pathname && callback.searchParams.get(ISSUER_REDIRECT_PARAM) === expected.searchParams.get(ISSUER_REDIRECT_PARAM);
  expected.searchParams.forEach((value, name) => {
    arrived &&= callback.searchParams.getAll(name).includes(value);
  });
  if (!arrived) {
    throw new McpAuthError(
      'iss_mismatch',
      `The authorization response arrived at ${where}${callback.searchParams.has(ISSUER_REDIRECT_PARAM) ? ` (${ISSUER_REDIRECT_PARAM}=${callback.searchParams.get(ISSUER_REDIRECT_PARAM)})` : ''}, not at the redirect URI of this flow with ${pending.issuer}: it comes from another authorization server (mix-up, RFC 9700 §4.4) and was discarded`,
      { url: where, endpoint: 'authorization', issuer: pending.issuer },
    );
  }
  const iss = params.get('iss');
  if (iss !== null && iss !== pending.issuer) {
    throw new McpAuthError('iss_mismatch', `The authorization response names issuer ${JSON.stringify(iss)}, but the request went to ${pending.issuer}; it was discarded (RFC 9207)`, {
      url: where,
      endpoint: 'authorization',
      issuer: pending.issuer,
    });
  }
  if (iss === null && pending.issParameterSupported) {
    throw new McpAuthError('iss_mismatch', `The authorization response has no iss although ${pending.issuer} promises one; it was discarded (RFC 9207)`, {
      url: where,
      endpoint: 'authorization',
      issuer: pending.issuer,
    });
  }
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description')?.slice(0, 500);
    throw new McpAuthError('authorization_error', `The authorization server ${pending.issuer} refused the authorization: ${error}${description ? ` (${description})` : ''}`, {
      url: pending.as.authorization_endpoint ?? pending.issuer,
      endpoint: 'authorization',
      oauthError: error,
      ...(description ? { oauthErrorDescription: description } : {}),
    });
  }
  const code = params.get('code');
  if (!code) throw new McpAuthError('invalid_response', `The authorization response at ${where} has neither a code nor an error`, { url: where, endpoint: 'authorization' });
  return code;
}

// --- token endpoint -----------------------------------------------------------------------------------

/** `client_secret_basic` credentials: each part form-encoded, then base64 (RFC 6749 §2.3.1). */
function basicCredentials(id: string, secret: string): string {
  const form = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  const bytes = new TextEncoder().encode(`${form(id)}:${form(secret)}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** `client_assertion_type` of `private_key_jwt` (RFC 7523 §2.2). */
const JWT_CLIENT_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * Adds client authentication to a token endpoint request (RFC 6749 §2.3,
 * RFC 7523 §2.2): Basic, the secret in the body, a signed assertion (made by
 * `assertion`, fresh for every request), or the bare `client_id`. Without a
 * client nothing is added (workload identity: the grant's assertion is all).
 */
export async function authenticateClient(
  client: ClientIdentity | undefined,
  body: URLSearchParams,
  headers: Record<string, string>,
  assertion?: () => Promise<string>,
): Promise<void> {
  if (!client) return;
  if (client.authMethod === 'client_secret_basic' && client.clientSecret !== undefined) {
    headers.Authorization = basicCredentials(client.clientId, client.clientSecret);
  } else if (client.authMethod === 'private_key_jwt' && assertion) {
    // The assertion's sub identifies the client; client_id is left out (RFC 7521 §4.2).
    body.set('client_assertion_type', JWT_CLIENT_ASSERTION);
    body.set('client_assertion', await assertion());
  } else {
    body.set('client_id', client.clientId);
    if (client.authMethod === 'client_secret_post' && client.clientSecret !== undefined) body.set('client_secret', client.clientSecret);
  }
}

/** What a token request asks for, in words (error messages). */
function grantLabel(grantType: string | undefined): string {
  switch (grantType) {
    case 'authorization_code':
      return 'authorization code';
    case 'refresh_token':
      return 'refresh';
    case 'client_credentials':
      return 'client credentials grant';
    case 'urn:ietf:params:oauth:grant-type:jwt-bearer':
      return 'JWT bearer grant';
    default:
      return `${grantType ?? 'token'} request`;
  }
}

/**
 * One token endpoint request (authorization code, refresh or a
 * machine-to-machine grant), with client authentication and, for DPoP, a proof
 * (retried once with the server's nonce on `use_dpop_nonce`, RFC 9449 §8).
 *
 * @param input.client - how the client authenticates; undefined: not at all.
 * @param input.clientAssertion - makes a `private_key_jwt` assertion (one per request sent).
 * @throws McpAuthError `token_failed` / `refresh_failed` (with the OAuth error), `network`, `invalid_response`.
 */
export async function tokenRequest(
  ctx: FlowContext,
  input: {
    as: AuthorizationServerMetadata;
    client: ClientIdentity | undefined;
    params: Record<string, string>;
    requestedScopes: string[];
    dpopKey?: DpopKeyPair;
    clientAssertion?: () => Promise<string>;
  },
): Promise<TokenSet> {
  const url = input.as.token_endpoint;
  const refresh = input.params.grant_type === 'refresh_token';
  const failure: McpAuthErrorReason = refresh ? 'refresh_failed' : 'token_failed';
  const origin = new URL(url).origin;
  let result: Exchange | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    // Built per attempt: a signed client assertion is single-use (its jti).
    const body = new URLSearchParams(input.params);
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
    await authenticateClient(input.client, body, headers, input.clientAssertion);
    if (input.dpopKey) {
      try {
        headers.DPoP = await createDpopProof(input.dpopKey, { method: 'POST', url, nonce: ctx.nonces.get(origin) });
      } catch (error) {
        throw new McpAuthError('dpop_failed', `Could not sign a DPoP proof for ${url}: ${(error as Error).message}`, { url, endpoint: 'token endpoint' }, { cause: error });
      }
    }
    result = await exchange(ctx, url, 'token endpoint', { method: 'POST', headers, body: body.toString() });
    const retryWithNonce = input.dpopKey && attempt === 0 && result.status === 400 && isObject(result.json) && result.json.error === 'use_dpop_nonce' && result.response.headers.has('dpop-nonce');
    if (!retryWithNonce) break;
  }
  const doc = result!.json;
  if (result!.status < 200 || result!.status >= 300) {
    throw new McpAuthError(failure, `The token endpoint ${url} refused the ${grantLabel(input.params.grant_type)} with HTTP ${result!.status}${describeOAuthError(doc)}`, {
      url,
      endpoint: 'token endpoint',
      status: result!.status,
      ...oauthErrorFields(doc),
    });
  }
  if (!isObject(doc) || typeof doc.access_token !== 'string' || doc.access_token === '') {
    throw new McpAuthError('invalid_response', `The token endpoint ${url} answered without an access_token`, { url, endpoint: 'token endpoint' });
  }
  const type = typeof doc.token_type === 'string' ? doc.token_type.toLowerCase() : 'bearer';
  if (type !== 'bearer' && type !== 'dpop') {
    throw new McpAuthError('invalid_response', `The token endpoint ${url} issued an unsupported token_type ${JSON.stringify(doc.token_type)}`, { url, endpoint: 'token endpoint' });
  }
  if (type === 'dpop' && !input.dpopKey) {
    throw new McpAuthError('invalid_response', `The token endpoint ${url} issued a DPoP-bound token without a DPoP proof`, { url, endpoint: 'token endpoint' });
  }
  const expiresIn = typeof doc.expires_in === 'number' ? doc.expires_in : typeof doc.expires_in === 'string' ? Number(doc.expires_in) : NaN;
  const scope = typeof doc.scope === 'string' ? splitScopes(doc.scope) : input.requestedScopes;
  const refreshToken = typeof doc.refresh_token === 'string' && doc.refresh_token ? doc.refresh_token : refresh ? input.params.refresh_token : undefined;
  const now = Date.now();
  return {
    accessToken: doc.access_token,
    issuedAt: now,
    // A server that ignores the proof issues a plain bearer token: present it as such.
    tokenType: type === 'dpop' ? 'DPoP' : 'Bearer',
    ...(refreshToken ? { refreshToken } : {}),
    ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expiresAt: now + expiresIn * 1000 } : {}),
    scopes: scope,
  };
}

/** Redeems an authorization code (after {@link checkCallback}). */
export function redeemCode(ctx: FlowContext, pending: PendingAuthorization, code: string, dpopKey?: DpopKeyPair): Promise<TokenSet> {
  return tokenRequest(ctx, {
    as: pending.as,
    client: pending.client,
    params: { grant_type: 'authorization_code', code, redirect_uri: pending.redirectUri, code_verifier: pending.codeVerifier, resource: pending.resource },
    requestedScopes: pending.scopes,
    dpopKey,
  });
}

/** Uses a refresh token (spec: basic/authorization "Refresh Tokens"); `resource` is sent again (RFC 8707 §2.2). */
export function refreshTokens(
  ctx: FlowContext,
  input: { as: AuthorizationServerMetadata; client: ClientIdentity; resource: string; tokens: TokenSet; dpopKey?: DpopKeyPair },
): Promise<TokenSet> {
  return tokenRequest(ctx, {
    as: input.as,
    client: input.client,
    params: { grant_type: 'refresh_token', refresh_token: input.tokens.refreshToken!, resource: input.resource },
    requestedScopes: input.tokens.scopes,
    dpopKey: input.dpopKey,
  });
}

/** Best-effort token revocation at sign-out (RFC 7009); failures are ignored. */
export async function revokeToken(ctx: FlowContext, input: { as: AuthorizationServerMetadata; client: ClientIdentity; token: string; hint: 'refresh_token' | 'access_token' }): Promise<void> {
  const url = input.as.revocation_endpoint;
  if (!url) return;
  const body = new URLSearchParams({ token: input.token, token_type_hint: input.hint });
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  await authenticateClient(input.client, body, headers);
  try {
    await exchange(ctx, url, 'revocation endpoint', { method: 'POST', headers, body: body.toString() });
  } catch {
    /* revocation is a courtesy; the local tokens are gone either way */
  }
}
