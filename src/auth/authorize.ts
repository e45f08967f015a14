/**
 * The authorization request and its response (spec: basic/authorization
 * "Authorization Code Protection", "Scope Selection Strategy", "Authorization
 * Response Validation"): the scopes to ask for, the URL the user is sent to
 * (PKCE S256, `state`, `resource`, `dpop_jkt`) with the pending authorization
 * to keep until the return, and the checks of the callback before its code is
 * redeemed (state, redirect URI, `iss`; RFC 9207, RFC 9700 §4.4).
 *
 * @module
 */
import { splitScopes, type AuthChallenge } from './challenge.js';
import { ISSUER_REDIRECT_PARAM } from './client-identity.js';
import { dpopThumbprint, type DpopKeyPair } from './dpop.js';
import { randomToken, sha256base64url } from './encoding.js';
import { McpAuthError } from './errors.js';
import type { AuthorizationServerMetadata, ClientIdentity, PendingAuthorization, ResourceMetadata } from './types.js';

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
 * is refused when the server promised it or `options.requireIss` (strict mode)
 * is on — all before any `error` in the response is looked at or shown.
 *
 * @throws McpAuthError `state_mismatch`, `iss_mismatch`, `authorization_error`, `invalid_response`.
 */
export function checkCallback(pending: PendingAuthorization, callbackUrl: string | URL, options: { requireIss?: boolean } = {}): string {
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
  if (iss === null && (pending.issParameterSupported || options.requireIss)) {
    const why = pending.issParameterSupported ? `although ${pending.issuer} promises one` : 'and requireIss is on';
    throw new McpAuthError('iss_mismatch', `The authorization response has no iss ${why}; it was discarded (RFC 9207)`, {
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
