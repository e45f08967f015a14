/**
 * Machine-to-machine grants: tokens without a user at a browser, for Node and
 * backends (a page can keep neither a client secret nor a private key).
 *
 * - `client_credentials` (OAuth 2.1 §4.2; MCP extension
 *   io.modelcontextprotocol/oauth-client-credentials) with `client_secret_basic`
 *   (or `_post`) or `private_key_jwt` (RFC 7523 §2.2).
 * - `jwt_bearer` (RFC 7523 §2.1): a JWT the client already holds is the grant,
 *   e.g. a workload identity token (MCP extension workload identity federation).
 * - `enterprise_managed` (MCP extension
 *   io.modelcontextprotocol/enterprise-managed-authorization): the user's ID
 *   token is exchanged at the enterprise IdP for an ID-JAG (RFC 8693 token
 *   exchange, draft-ietf-oauth-identity-assertion-authz-grant §4.3), which is
 *   then the JWT bearer grant at the MCP server's authorization server (§4.4).
 *
 * Discovery (Protected Resource Metadata, authorization server metadata) is the
 * same as for the authorization code flow; `resource` is sent as published. A
 * refused grant is reported once and not retried (RFC 7523 §3.1 errors are
 * final for that assertion). Loaded on demand by {@link OAuth}.
 *
 * @module
 */
import { McpAuthError } from './errors.js';
import { isSecureOrLoopback } from './encoding.js';
// From the flow's entry, not its step modules: see ./flow.ts.
import { authenticateClient, authMethodFor, describeOAuthError, exchange, oauthErrorFields, tokenRequest } from './flow.js';
import type { AuthorizationServerMetadata, ClientIdentity, FlowContext, TokenSet } from './types.js';
import { clientAssertion, importSigningKey, type JwtSigningAlgorithm, type SigningKey } from './jwt.js';
import { isObject } from '../protocol/types.js';

/** `grant_type` of the JWT bearer grant (RFC 7523 §2.1). */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** Token type of an Identity Assertion JWT Authorization Grant. */
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

/** What a token source is asked for: where the grant goes, for which resource and scopes. */
export interface GrantTarget {
  /** The authorization server's issuer identifier (the `aud` a workload JWT needs). */
  issuer: string;
  tokenEndpoint: string;
  /** The MCP server's resource identifier, as its Protected Resource Metadata publishes it. */
  resource: string;
  scopes: string[];
  signal?: AbortSignal;
}

/**
 * A token given as is, or a function that returns a fresh one each time the
 * grant runs (workload tokens and ID tokens expire and rotate).
 */
export type TokenSource = string | ((target: GrantTarget) => string | Promise<string>);

/** How a client authenticates at the token endpoint (RFC 6749 §2.3; RFC 7523 §2.2). */
export interface GrantClientCredentials {
  /** The client id registered with the authorization server (these grants never register). */
  clientId: string;
  /** `client_secret_basic` (or `client_secret_post` when the server lists only that). */
  clientSecret?: string;
  /** `private_key_jwt`: a PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), a private JWK or a `CryptoKey` that can sign. */
  privateKey?: string | JsonWebKey | CryptoKey;
  /** Algorithm of the client assertion; default from the key (RSA: RS256, EC: by curve, Ed25519: EdDSA). */
  signingAlgorithm?: JwtSigningAlgorithm;
}

/** The client credentials grant: the client acts as itself. `clientSecret` or `privateKey` is required. */
export interface ClientCredentialsGrant extends GrantClientCredentials {
  type: 'client_credentials';
}

/**
 * The JWT bearer grant with a JWT the client holds (workload identity
 * federation: a platform-issued token whose `aud` is the authorization server).
 * Client authentication is optional: without `clientId` none is sent.
 */
export interface JwtBearerGrant extends Partial<GrantClientCredentials> {
  type: 'jwt_bearer';
  /** The JWT presented as `assertion`. */
  assertion: TokenSource;
}

/**
 * Enterprise-managed authorization: the user's identity assertion from single
 * sign-on is exchanged at the enterprise IdP for an ID-JAG for this MCP
 * server, then redeemed at its authorization server with this client's
 * credentials.
 */
export interface EnterpriseManagedGrant extends GrantClientCredentials {
  type: 'enterprise_managed';
  /** The enterprise identity provider's token endpoint and this client's credentials there. */
  idp: { tokenEndpoint: string; clientId: string; clientSecret?: string; authMethod?: 'client_secret_basic' | 'client_secret_post' };
  /** The identity assertion obtained at sign-on: an ID token unless `subjectTokenType` says otherwise. */
  subjectToken: TokenSource;
  /** RFC 8693 token type of `subjectToken`; default `urn:ietf:params:oauth:token-type:id_token`. */
  subjectTokenType?: string;
}

/** A machine-to-machine grant for {@link createOAuth}'s `grant` option. */
export type OAuthGrant = ClientCredentialsGrant | JwtBearerGrant | EnterpriseManagedGrant;

/**
 * Refuses a grant that can never work, before anything is sent.
 * @throws McpAuthError `invalid_credentials`.
 */
function checkGrant(grant: OAuthGrant, url: string): void {
  const problem = (() => {
    const type = (grant as { type?: unknown }).type;
    if (type !== 'client_credentials' && type !== 'jwt_bearer' && type !== 'enterprise_managed') return `unknown grant type ${JSON.stringify(type)}`;
    const hasSecret = grant.clientSecret !== undefined;
    const hasKey = grant.privateKey !== undefined;
    if (hasSecret && hasKey) return 'give clientSecret or privateKey, not both';
    if ((hasSecret || hasKey || type !== 'jwt_bearer') && !grant.clientId) return `a ${type} grant with client credentials needs clientId`;
    if (type !== 'jwt_bearer' && !hasSecret && !hasKey) return `a ${type} grant needs clientSecret or privateKey`;
    if (grant.type === 'jwt_bearer' && !grant.assertion) return 'a jwt_bearer grant needs an assertion';
    if (grant.type === 'enterprise_managed' && (!grant.idp?.tokenEndpoint || !grant.idp.clientId || !grant.subjectToken)) return 'an enterprise_managed grant needs idp.tokenEndpoint, idp.clientId and subjectToken';
    return undefined;
  })();
  if (problem) throw new McpAuthError('invalid_credentials', `The grant option is incomplete: ${problem}`, { url });
}

function failureMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function resolveToken(source: TokenSource, target: GrantTarget, what: string, url: string): Promise<string> {
  let value: unknown;
  try {
    value = typeof source === 'function' ? await source(target) : source;
  } catch (error) {
    throw new McpAuthError('invalid_credentials', `The ${what} for ${target.issuer} could not be obtained: ${failureMessage(error)}`, { url }, { cause: error });
  }
  if (typeof value !== 'string' || value === '') throw new McpAuthError('invalid_credentials', `The ${what} for ${target.issuer} is empty`, { url });
  return value;
}

/** The client's identity at `as`, and its signing key for `private_key_jwt`. */
async function grantClient(grant: OAuthGrant, as: AuthorizationServerMetadata): Promise<{ client?: ClientIdentity; signing?: SigningKey }> {
  const { clientId, clientSecret, privateKey } = grant;
  if (!clientId) return {};
  const base = { clientId, source: 'pre-registered' as const, issuer: as.issuer };
  if (privateKey !== undefined) {
    try {
      const signing = await importSigningKey(privateKey, grant.signingAlgorithm, as.token_endpoint_auth_signing_alg_values_supported);
      return { client: { ...base, authMethod: 'private_key_jwt' }, signing };
    } catch (error) {
      throw new McpAuthError('invalid_credentials', `The private key of client ${clientId} cannot sign a client assertion: ${failureMessage(error)}`, { url: as.token_endpoint, endpoint: 'token endpoint' }, { cause: error });
    }
  }
  return { client: { ...base, ...(clientSecret !== undefined ? { clientSecret } : {}), authMethod: authMethodFor(as, clientSecret !== undefined) } };
}

/**
 * Exchanges the user's identity assertion for an ID-JAG at the enterprise IdP
 * (RFC 8693; enterprise-managed-authorization §4): `audience` is the
 * authorization server's issuer and `resource` the MCP server's identifier.
 *
 * @throws McpAuthError `token_failed` (the IdP refused), `invalid_response`, `insecure_endpoint`, `network`.
 */
async function exchangeForIdJag(ctx: FlowContext, grant: EnterpriseManagedGrant, target: GrantTarget): Promise<string> {
  const { idp } = grant;
  const url = idp.tokenEndpoint;
  const endpoint = 'identity provider token endpoint';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new McpAuthError('invalid_credentials', `The identity provider token endpoint ${JSON.stringify(url)} is not a URL`, { url, endpoint });
  }
  // The ID token and the client secret travel to it.
  if (!isSecureOrLoopback(parsed)) throw new McpAuthError('insecure_endpoint', `The identity provider token endpoint ${url} is not https`, { url, endpoint });
  const subjectToken = await resolveToken(grant.subjectToken, target, 'identity assertion (subject token)', url);
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    requested_token_type: ID_JAG,
    audience: target.issuer,
    resource: target.resource,
    subject_token: subjectToken,
    subject_token_type: grant.subjectTokenType ?? ID_TOKEN,
  });
  if (target.scopes.length > 0) body.set('scope', target.scopes.join(' '));
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
  const authMethod = idp.clientSecret === undefined ? 'none' : (idp.authMethod ?? 'client_secret_basic');
  await authenticateClient({ clientId: idp.clientId, ...(idp.clientSecret !== undefined ? { clientSecret: idp.clientSecret } : {}), authMethod, source: 'pre-registered' }, body, headers);
  const result = await exchange(ctx, url, endpoint, { method: 'POST', headers, body: body.toString() });
  const doc = result.json;
  if (result.status < 200 || result.status >= 300) {
    throw new McpAuthError('token_failed', `The identity provider ${url} refused to exchange the identity assertion for an ID-JAG for ${target.issuer} with HTTP ${result.status}${describeOAuthError(doc)}`, {
      url,
      endpoint,
      status: result.status,
      ...oauthErrorFields(doc),
    });
  }
  if (!isObject(doc) || typeof doc.access_token !== 'string' || doc.access_token === '') {
    throw new McpAuthError('invalid_response', `The identity provider ${url} answered the token exchange without a token`, { url, endpoint });
  }
  if (doc.issued_token_type !== ID_JAG) {
    throw new McpAuthError('invalid_response', `The identity provider ${url} issued ${JSON.stringify(doc.issued_token_type)} instead of an ID-JAG (${ID_JAG})`, { url, endpoint });
  }
  return doc.access_token;
}

/**
 * Runs a machine-to-machine grant at `as` for `resource`.
 *
 * @param input.clientIssuer - the authorization server the client's credentials
 *   belong to; with another one nothing is sent (`client_mismatch`).
 * @returns the tokens (without a refresh token: the grant is run again instead,
 *   so no credential is stored) and the client identity without its secret.
 * @throws McpAuthError `client_mismatch`, `invalid_credentials`, `token_failed`,
 *   `invalid_response`, `insecure_endpoint`, `network`.
 */
export async function requestGrant(
  ctx: FlowContext,
  input: { grant: OAuthGrant; as: AuthorizationServerMetadata; resource: string; scopes: string[]; clientIssuer?: string | undefined },
): Promise<{ tokens: TokenSet; client: ClientIdentity | undefined }> {
  const { grant, as } = input;
  checkGrant(grant, as.token_endpoint);
  if (input.clientIssuer !== undefined && input.clientIssuer !== as.issuer) {
    // A resource naming another authorization server must not receive this client's secret or assertions.
    throw new McpAuthError(
      'client_mismatch',
      `The client ${grant.clientId ?? '(workload)'} belongs to ${input.clientIssuer}, but ${ctx.resourceUrl.href} names the authorization server ${as.issuer}; no credentials were sent`,
      { url: as.issuer, clientIssuer: input.clientIssuer },
    );
  }
  const target: GrantTarget = { issuer: as.issuer, tokenEndpoint: as.token_endpoint, resource: input.resource, scopes: input.scopes, ...(ctx.signal ? { signal: ctx.signal } : {}) };
  const { client, signing } = await grantClient(grant, as);
  const params: Record<string, string> =
    grant.type === 'client_credentials'
      ? { grant_type: 'client_credentials' }
      : {
          grant_type: JWT_BEARER_GRANT,
          assertion: grant.type === 'jwt_bearer' ? await resolveToken(grant.assertion, target, 'JWT bearer assertion', as.token_endpoint) : await exchangeForIdJag(ctx, grant, target),
        };
  // The MCP spec requires resource on every token request (basic/authorization "Resource Parameter Implementation").
  params.resource = input.resource;
  if (input.scopes.length > 0) params.scope = input.scopes.join(' ');
  const tokens = await tokenRequest(ctx, {
    as,
    client,
    params,
    requestedScopes: input.scopes,
    ...(signing && client ? { clientAssertion: () => clientAssertion(signing, { clientId: client.clientId, audience: as.issuer }) } : {}),
  });
  const { refreshToken: _unused, ...kept } = tokens;
  return { tokens: kept, client: client && { clientId: client.clientId, authMethod: client.authMethod, source: client.source, issuer: as.issuer } };
}
