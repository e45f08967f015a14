/**
 * The typed error of the OAuth layer. Every authorization failure is an
 * {@link McpAuthError}: an {@link McpClientError} with code `auth`, a precise
 * `reason`, and `data.url` naming the URL involved (the endpoint that failed, the
 * document that was refused, the callback that was rejected).
 *
 * @module
 */
import { McpClientError, type McpErrorData } from '../protocol/errors.js';

/** Why authorization failed. */
export type McpAuthErrorReason =
  /** The authorization page could not be opened without a user gesture (popup blocked): call `signIn()` from a click. */
  | 'needs_user_gesture'
  /** The user or the page cancelled the authorization (aborted, popup gave up). */
  | 'cancelled'
  /** The authorization did not complete in time. */
  | 'timeout'
  /** No usable Protected Resource Metadata or authorization server metadata was found. */
  | 'discovery_failed'
  /** The Protected Resource Metadata names a different resource than the MCP server (RFC 9728 §3.3). */
  | 'resource_mismatch'
  /** The authorization server metadata has another `issuer` than the one it was fetched for (RFC 8414 §3.3). */
  | 'issuer_mismatch'
  /** The authorization server does not offer PKCE with S256. */
  | 'pkce_unsupported'
  /** An authorization endpoint is neither https nor loopback. */
  | 'insecure_endpoint'
  /** No client identity: no pre-registered id, no usable Client ID Metadata Document, no registration endpoint. */
  | 'no_client'
  /** The pre-registered client belongs to another authorization server than the one the resource names now. */
  | 'client_mismatch'
  /** Dynamic Client Registration was refused. */
  | 'registration_failed'
  /** The callback's `state` does not match a pending authorization. */
  | 'state_mismatch'
  /** The callback's `iss` does not equal the recorded issuer, or is missing although promised (RFC 9207). */
  | 'iss_mismatch'
  /**
   * Strict mode (`requireIss`): the authorization server's metadata does not declare
   * `authorization_response_iss_parameter_supported: true` (RFC 9207 §3), so its
   * responses could not be told apart from another server's; no authorization was
   * started there (nothing registered, no page opened). `data.issuer` names it.
   */
  | 'iss_unsupported'
  /** The authorization server answered the authorization request with an error (e.g. `access_denied`). */
  | 'authorization_error'
  /** The token endpoint (or, for enterprise-managed authorization, the identity provider) refused the code, the grant or the credentials. */
  | 'token_failed'
  /** A machine-to-machine grant's own credentials are unusable: a private key that cannot be imported, an assertion source that failed or gave nothing. */
  | 'invalid_credentials'
  /** Refreshing the access token failed; a new sign-in is needed. */
  | 'refresh_failed'
  /** The server kept asking for more scope after the allowed number of authorizations. */
  | 'insufficient_scope'
  /** The server kept answering 401 after authorization. */
  | 'unauthorized'
  /** An OAuth endpoint could not be reached: down, or (in a browser) not allowing this origin through CORS. */
  | 'network'
  /** An OAuth endpoint answered with something that is not the expected JSON document. */
  | 'invalid_response'
  /**
   * An OAuth endpoint answered a request that carries credentials (token,
   * registration, revocation: a code and its verifier, a client secret or
   * assertion, a DPoP proof, a token) with a redirect; it is not followed, so
   * the credentials reach no other URL. `data.location` names the target.
   */
  | 'redirected'
  /** A DPoP proof could not be made or was refused. */
  | 'dpop_failed';

/** Facts attached to an {@link McpAuthError}. */
export interface McpAuthErrorData extends McpErrorData {
  /** The URL involved: the endpoint, document or callback at fault. */
  url: string;
  /** Which OAuth endpoint: `protected-resource-metadata`, `authorization-server-metadata`, `registration`, `authorization`, `token`… */
  endpoint?: string;
  /** The OAuth `error` code the server sent, if any. */
  oauthError?: string;
  /** The server's `error_description`, if any (shown as text only). */
  oauthErrorDescription?: string;
  /** Where a refused redirect pointed (`redirected`), resolved against `url`; absent when the browser hides it. */
  location?: string;
  /** Scopes that were asked for (step-up, sign-in needed). */
  scopes?: string[];
}

/**
 * An authorization failure. `code` is always `'auth'`; `reason` says what went
 * wrong; `data.url` names the URL involved.
 */
export class McpAuthError extends McpClientError {
  /** Why authorization failed; see {@link McpAuthErrorReason}. */
  readonly reason: McpAuthErrorReason;
  declare readonly data: McpAuthErrorData;

  constructor(reason: McpAuthErrorReason, message: string, data: McpAuthErrorData, options?: { cause?: unknown }) {
    super('auth', message, { ...data, reason }, options);
    this.name = 'McpAuthError';
    this.reason = reason;
  }

  /** True for an {@link McpAuthError}, also from another copy of the kit. */
  static override isInstance(value: unknown): value is McpAuthError {
    return McpClientError.isInstance(value) && value.code === 'auth' && typeof (value as { reason?: unknown }).reason === 'string';
  }
}
