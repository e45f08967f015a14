/**
 * Storage keys of the OAuth layer, in one namespace so a host-provided store
 * can be shared with other data. Tokens and DPoP keys are keyed by issuer and
 * resource; client registrations by issuer (and redirect URI); the binding of
 * an MCP endpoint says which issuer and resource it uses now.
 *
 * @module
 */
export const storageKeys = {
  binding: (resourceUrl: string) => `mcp-oauth:binding:${resourceUrl}`,
  tokens: (issuer: string, resource: string) => `mcp-oauth:tokens:${issuer} ${resource}`,
  dpopKey: (issuer: string, resource: string) => `mcp-oauth:dpop:${issuer} ${resource}`,
  client: (issuer: string, redirectUri: string) => `mcp-oauth:client:${issuer} ${redirectUri}`,
  pending: (state: string) => `mcp-oauth:pending:${state}`,
};
