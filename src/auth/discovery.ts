/**
 * Discovery (spec: basic/authorization/authorization-server-discovery): the
 * Protected Resource Metadata of the MCP server (RFC 9728), which names its
 * authorization servers, and the metadata of the authorization server chosen
 * (RFC 8414, OpenID Discovery), each checked before anything is sent to the
 * endpoints it names: the resource must cover the MCP endpoint, the issuer must
 * match, PKCE with S256 must be offered, endpoints must be https.
 *
 * @module
 */
import { isSecureOrLoopback } from './encoding.js';
import { McpAuthError } from './errors.js';
import { exchange, type Exchange } from './exchange.js';
import type { AuthorizationServerMetadata, FlowContext, ResourceMetadata } from './types.js';
import { isObject } from '../protocol/types.js';

/** A metadata GET (it follows redirects: it carries nothing secret, and the document is checked). */
function getJson(ctx: FlowContext, url: string, endpoint: string): Promise<Exchange> {
  return exchange(ctx, url, endpoint, { method: 'GET', headers: { Accept: 'application/json' } });
}

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
