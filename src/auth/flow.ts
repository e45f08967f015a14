/**
 * The OAuth 2.1 authorization flow of MCP (spec: basic/authorization, all pages),
 * as {@link OAuth} loads it: on demand, the first time a server asks for
 * authorization or a token needs refreshing, so pages that never meet a
 * protected server do not download it. This module only gathers the steps, so
 * that one import brings them all: discovery (`./discovery.ts`), the client
 * identity (`./client-identity.ts`), the authorization request and its callback
 * (`./authorize.ts`) and the token endpoint (`./token-endpoint.ts`), which talk
 * HTTP through `./exchange.ts`.
 *
 * The machine-to-machine grants (`./grants.ts`, loaded on demand after the
 * discovery) take what they share with the flow from here too, not from the
 * step modules: bundlers then keep the flow in one chunk, which the grants'
 * chunk imports, instead of moving the shared steps into a chunk of their own
 * (one more request, and more bytes, for every authorization).
 *
 * Every failure is an {@link McpAuthError} naming the URL involved.
 *
 * @module
 */
export { discoverAuthorizationServer, discoverResource } from './discovery.js';
export { authMethodFor, forgetRegistration, isInvalidClient, resolveClient } from './client-identity.js';
export { checkCallback, prepareAuthorization, selectScopes } from './authorize.js';
export { authenticateClient, redeemCode, refreshTokens, revokeToken, tokenRequest } from './token-endpoint.js';
export { describeOAuthError, exchange, oauthErrorFields } from './exchange.js';
