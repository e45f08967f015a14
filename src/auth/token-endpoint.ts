/**
 * Requests that carry the client's credentials (RFC 6749 §2.3, RFC 7523 §2.2):
 * token requests — the authorization code, a refresh (spec: basic/authorization
 * "Refresh Tokens"), the machine-to-machine grants — with a DPoP proof when the
 * token is bound to a key (retried once with the server's nonce, RFC 9449 §8),
 * and the revocation at sign-out (RFC 7009).
 *
 * @module
 */
import { splitScopes } from './challenge.js';
import { createDpopProof, type DpopKeyPair } from './dpop.js';
import { McpAuthError, type McpAuthErrorReason } from './errors.js';
import { describeOAuthError, exchange, oauthErrorFields, type Exchange } from './exchange.js';
import type { AuthorizationServerMetadata, ClientIdentity, FlowContext, PendingAuthorization, TokenSet } from './types.js';
import { isObject } from '../protocol/types.js';

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
