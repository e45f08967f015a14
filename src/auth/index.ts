/**
 * `mcp-web-elements/auth`: OAuth 2.1 for protected MCP servers (spec:
 * basic/authorization). A separate entry, so pages that talk only to open
 * servers never load it; the discovery and token code inside is loaded on
 * demand again, on the first 401 or refresh.
 *
 * @example
 * ```ts
 * import { McpClient } from 'mcp-web-elements';
 * import { createOAuth } from 'mcp-web-elements/auth';
 * import { popupAuthorization } from 'mcp-web-elements/elements';
 *
 * const auth = createOAuth({ resourceUrl, redirectUri, clientMetadataUrl, openAuthorizationUrl: popupAuthorization() });
 * const client = new McpClient(resourceUrl, { fetch: auth.fetch, authContext: auth.authContext });
 *
 * // Node or a backend, no user: a machine-to-machine grant.
 * const service = createOAuth({ resourceUrl, grant: { type: 'client_credentials', clientId, privateKey: pem } });
 * ```
 *
 * @module
 */
export { createOAuth, OAuth } from './oauth.js';
export type { OAuthOptions, OAuthStatus, OAuthSession, OAuthEvents } from './options.js';
export { McpAuthError, type McpAuthErrorReason, type McpAuthErrorData } from './errors.js';
export { followRedirects, type AuthorizationOpener, type AuthorizationRequestInfo } from './opener.js';
export { MemoryAuthStorage, IndexedDbAuthStorage, type AuthStorage } from './storage.js';
export { parseWwwAuthenticate, type AuthChallenge } from './challenge.js';
export type { TokenEndpointAuthMethod } from './types.js';
export type { OAuthGrant, ClientCredentialsGrant, JwtBearerGrant, EnterpriseManagedGrant, GrantClientCredentials, GrantTarget, TokenSource } from './grants.js';
export type { JwtSigningAlgorithm } from './jwt.js';
