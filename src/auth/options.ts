/**
 * The public shapes of the OAuth layer: the options of {@link createOAuth}, the
 * status of an {@link OAuth}, what it tells about the current authorization
 * (no token values) and the events it emits. Types only, so that they can be
 * read (and imported) apart from the class that implements them.
 *
 * @module
 */
import type { FetchLike } from '../transport/fetch.js';
import type { McpWarning } from '../protocol/errors.js';
import type { McpAuthError } from './errors.js';
import type { OAuthGrant } from './grants.js';
import type { AuthorizationOpener, AuthorizationRequestInfo } from './opener.js';
import type { AuthStorage } from './storage.js';
import type { TokenEndpointAuthMethod } from './types.js';

/** Authorization state of one MCP server. */
export type OAuthStatus =
  /** No tokens. */
  | 'signed_out'
  /** An authorization is in progress (the user is at the authorization server). */
  | 'authorizing'
  /** Tokens are available (possibly to be refreshed). */
  | 'signed_in'
  /** The server needs authorization that cannot start without the user: show a Sign in button that calls `signIn()`. */
  | 'needs_sign_in';

/** Options of {@link createOAuth}. Times are in milliseconds. */
export interface OAuthOptions {
  /** The MCP endpoint to authorize for (the same URL the client uses). */
  resourceUrl: string | URL;
  /** The registered redirect URI: the callback page (popup) or the app page (redirect mode). Required unless `grant` is set. */
  redirectUri?: string | URL;
  /**
   * A machine-to-machine grant instead of the user's authorization code flow
   * (Node and backends only: it needs a client secret, a private key or a
   * workload token, which a page cannot keep). `client_credentials`,
   * `jwt_bearer` (workload identity) or `enterprise_managed` (ID-JAG); see
   * {@link OAuthGrant}. The grant runs on the first 401, again when its token
   * expires or is refused, never with a user; the authorization code options
   * (`redirectUri`, `openAuthorizationUrl`, `clientMetadataUrl`, DPoP…) are
   * not used, nor is `autoSignIn`. `clientIssuer` pins the credentials to
   * their authorization server.
   */
  grant?: OAuthGrant;
  /** A pre-registered client id (spec: client-registration "Pre-registration"); tried first. */
  clientId?: string;
  /** Secret of a confidential pre-registered client. Only where it can be kept secret (Node, a backend), never in a page. */
  clientSecret?: string;
  /** The issuer the pre-registered client (or the grant's client) belongs to; with another issuer, authorization fails (`client_mismatch`) before any credential is sent. */
  clientIssuer?: string;
  /** Token endpoint auth method of the pre-registered client; default from the secret and the server's metadata. */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** URL of the app's Client ID Metadata Document (https, with a path); used when the server supports CIMD. */
  clientMetadataUrl?: string;
  /** `client_name` for Dynamic Client Registration; default `mcp-web-elements`. */
  clientName?: string;
  /**
   * Mix-up defence without `iss` (RFC 9700 §4.4.2): a dynamic registration
   * registers, and its flows use, the redirect URI plus `mcp_as=<hash of the
   * issuer>`, so a response can only complete a flow with the server it came
   * from. The callback page needs nothing for it (the query is kept). Default
   * true; `false` registers `redirectUri` as it is (for a server that refuses
   * redirect URIs with a query). Pre-registered and CIMD clients always use
   * `redirectUri` as configured.
   */
  perIssuerRedirectUri?: boolean;
  /**
   * Strict mix-up defence (RFC 9207, RFC 9700 §4.4): authorize only with
   * authorization servers whose metadata declares
   * `authorization_response_iss_parameter_supported: true`, and accept only
   * responses whose `iss` names the server the request went to. Another server
   * is refused with `McpAuthError` `iss_unsupported` before anything is sent to
   * it beyond its metadata request (no registration, no authorization page).
   * Default false (the MCP authorization spec does not require `iss`). Turn it on
   * when the app lets users add servers they do not control: without `iss`, a
   * malicious server's authorization server can relay the user to an honest one
   * with open dynamic registration and receive the honest code with its PKCE
   * verifier (see docs/oauth.md, "Strict mode"). Authorization code flow only;
   * machine-to-machine grants have no authorization response.
   */
  requireIss?: boolean;
  /** DCR `application_type`; default `native` for a loopback redirect URI, else `web`. */
  applicationType?: 'web' | 'native';
  /** Scopes to request in addition to the ones the server asks for. */
  scopes?: string[];
  /** Request `offline_access` when the authorization server lists it (for a refresh token); default true. */
  offlineAccess?: boolean;
  /**
   * DPoP-bound tokens (RFC 9449) with a non-extractable ES256 key: `'auto'`
   * (default) when the resource asks for DPoP and the authorization server
   * supports ES256; `true` whenever the authorization server supports ES256;
   * `false` never.
   */
  dpop?: boolean | 'auto';
  /** Token storage: default IndexedDB in browsers and workers, memory in Node. */
  storage?: AuthStorage | 'memory' | 'indexeddb';
  /** How the user is sent to the authorization server (popup, redirect, headless). */
  openAuthorizationUrl?: AuthorizationOpener | ((url: URL, request: AuthorizationRequestInfo) => Promise<string | URL>);
  /** Whether a request that meets a 401/403 may start the authorization by itself; default true. When false, only `signIn()` does. */
  autoSignIn?: boolean;
  /** The `fetch` under the wrapper; default the global one, looked up per call. */
  fetch?: FetchLike;
  /** Refresh this long before the access token expires (at most half its lifetime); default 60,000 ms. */
  refreshBeforeExpiryMs?: number;
  /** Authorizations allowed while serving one request (initial plus step-ups); default 3. */
  maxAuthorizations?: number;
  /** How long the user may take at the authorization server; default 600,000 ms. */
  authorizationTimeoutMs?: number;
  /**
   * Developer warnings about servers that bend the OAuth rules and were
   * tolerated (a sloppy `WWW-Authenticate`, a registration without its auth
   * method…): `{ code, message }`, once per message. Default `console.warn`.
   */
  onWarning?: (warning: McpWarning) => void;
}

/** What is known about the current authorization (no token values). */
export interface OAuthSession {
  issuer: string;
  /** The resource identifier tokens are requested for (as the server publishes it). */
  resource: string;
  scopes: string[];
  tokenType: 'Bearer' | 'DPoP';
  /** Access token expiry in ms since the epoch, if known. */
  expiresAt?: number;
  /** Whether a refresh token is held. */
  refreshable: boolean;
}

/** Events of {@link OAuth}. */
export interface OAuthEvents {
  /** The status changed, or an authorization failed (`error`). */
  status: { status: OAuthStatus; error?: McpAuthError };
  /** Tokens were obtained (`authorized`) or refreshed. */
  token: { kind: 'authorized' | 'refreshed'; session: OAuthSession };
}
