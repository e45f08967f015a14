/**
 * The client identity at an authorization server (spec:
 * basic/authorization/client-registration): a pre-registered client, a Client
 * ID Metadata Document, a registration stored from before, or Dynamic Client
 * Registration (RFC 7591) with a per-issuer redirect URI; how the client
 * authenticates at the token endpoint ({@link authMethodFor}); and what to do
 * when the token endpoint refuses a client (`invalid_client`).
 *
 * @module
 */
import { isLoopback, sha256base64url } from './encoding.js';
import { McpAuthError } from './errors.js';
import { describeOAuthError, exchange, oauthErrorFields } from './exchange.js';
import { storageKeys } from './keys.js';
import type { AuthStorage } from './storage.js';
import type { AuthorizationServerMetadata, ClientIdentity, FlowContext, TokenEndpointAuthMethod } from './types.js';
import { isObject } from '../protocol/types.js';

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
