/**
 * The bridge's front door (spec 2025-11-25 basic/transports "Security Warning";
 * basic/security_best_practices "Local MCP Server Compromise"): every request is
 * checked for its `Host` (DNS rebinding), its `Origin` (an exact allow-list) and
 * the bridge's token (compared in constant time) before anything is spawned.
 *
 * @module
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { networkInterfaces } from 'node:os';

/** A fresh token: 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Compares a presented token with the bridge's in constant time: both are
 * hashed first, so neither the content nor the length of the secret leaks
 * through timing.
 */
export function tokenMatches(presented: string | undefined, token: string): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(digest(presented), digest(token));
}

/** The token a request presents: `Authorization: Bearer <token>`, else the URL's `token` parameter. */
export function presentedToken(headers: IncomingHttpHeaders, url: URL): string | undefined {
  const authorization = headers.authorization;
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  return bearer ?? url.searchParams.get('token') ?? undefined;
}

/** A host an origin can have: a DNS name (labels of letters, digits, `-`, `_`), an IPv4 address, or a bracketed IPv6 one. */
const ORIGIN_HOST = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*|\[[0-9a-f:.]+\])$/i;

/**
 * What the bridge says about the opaque origin `null` (file: pages, sandboxed frames, data:
 * URLs): it cannot be allowed. Every such page of every site sends the same `null`, so allowing
 * it would be a wildcard over all of them, which the allow-list has none of; such a page is
 * served over http(s) from an allowed origin instead (a sandboxed frame of an allowed page
 * gets `allow-same-origin`).
 */
export const OPAQUE_ORIGIN_HINT =
  'pages with an opaque origin ("null": file: pages, sandboxed frames) cannot be allowed, since every such page of every site sends the same "null"; serve the page over http(s) from an allowed origin (for example npx vite, or python3 -m http.server) and allow that origin with --allow-origin, or give a sandboxed frame allow-same-origin';

/**
 * An origin allow-list entry: an exact origin (`http://127.0.0.1:5173`) or one
 * with any port (`http://localhost:*`). Nothing else is a pattern: no `*` for
 * every origin, no wildcard hosts, no `null` ({@link OPAQUE_ORIGIN_HINT}): an
 * entry that could match no origin is an error, not a silent no-op.
 * @throws Error naming the entry when it is neither.
 */
export function parseOriginPattern(entry: string): { scheme: string; host: string; port: string | '*' } {
  const trimmed = entry.trim();
  if (trimmed.toLowerCase() === 'null') throw new Error(`--allow-origin null: ${OPAQUE_ORIGIN_HINT}`);
  const match = /^(https?):\/\/([^/:?#]+|\[[0-9a-fA-F:.]+\]):\*$/.exec(trimmed);
  if (match) {
    if (!ORIGIN_HOST.test(match[2]!)) throw new Error(noHost(entry, match[2]!));
    return { scheme: match[1]!, host: match[2]!.toLowerCase(), port: '*' };
  }
  let url: URL;
  try {
    url = new URL(entry.trim());
  } catch {
    throw new Error(`--allow-origin ${JSON.stringify(entry)} is not an origin (expected e.g. http://127.0.0.1:5173 or http://localhost:*)`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new Error(`--allow-origin ${JSON.stringify(entry)} is not an origin (scheme://host[:port], nothing after it)`);
  }
  // The URL parser takes hosts such as "*" that no page's origin ever has: such an entry would match nothing.
  if (!ORIGIN_HOST.test(url.hostname)) throw new Error(noHost(entry, url.hostname));
  return { scheme: url.protocol.slice(0, -1), host: url.hostname.toLowerCase(), port: url.port || (url.protocol === 'https:' ? '443' : '80') };
}

function noHost(entry: string, host: string): string {
  return `--allow-origin ${JSON.stringify(entry)} can match no origin: ${JSON.stringify(host)} is not a host name or address (wildcard hosts are not supported; give each origin, or http://<host>:* for any port of one host)`;
}

/** Checks `Origin` headers against the allow-list. */
export class OriginPolicy {
  readonly #patterns: ReturnType<typeof parseOriginPattern>[];

  constructor(readonly entries: readonly string[]) {
    this.#patterns = entries.map(parseOriginPattern);
  }

  allows(origin: string): boolean {
    // `null` (sandboxed frames, file: pages) and anything unparsable are refused.
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.origin !== origin) return false;
    const scheme = url.protocol.slice(0, -1);
    const host = url.hostname.toLowerCase();
    const port = url.port || (scheme === 'https' ? '443' : '80');
    return this.#patterns.some((p) => p.scheme === scheme && p.host === host && (p.port === '*' || p.port === port));
  }
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** Whether `host` (as given to `--host`) is a loopback address. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * The `Host` values the bridge answers to: the loopback names, the bound
 * address, and for a wildcard bind the machine's own interface addresses. A
 * DNS-rebinding page reaches the bridge under its own domain name, which is
 * none of these.
 */
export function allowedHosts(boundHost: string, port: number): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  const bare = boundHost.replace(/^\[|\]$/g, '');
  names.add(bare.includes(':') ? `[${bare}]` : bare);
  if (bare === '0.0.0.0' || bare === '::') {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(address.family === 'IPv6' ? `[${address.address}]` : address.address);
    }
  }
  const withPort = [...names].map((name) => `${name.toLowerCase()}:${port}`);
  // On the default port a browser sends the Host without it.
  return new Set(port === 80 ? [...withPort, ...[...names].map((name) => name.toLowerCase())] : withPort);
}

/** Request headers a page may send (CORS has no prefix wildcard, so `Mcp-Param-*` names are echoed as requested). */
export const ALLOWED_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'Last-Event-ID', 'Mcp-Method', 'Mcp-Name'];
/** Response headers a page may read. */
export const EXPOSED_RESPONSE_HEADERS = ['Mcp-Session-Id', 'MCP-Protocol-Version', 'WWW-Authenticate'];

/** CORS headers for an actual request from an allowed origin. */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (!origin) return {};
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_RESPONSE_HEADERS.join(', '), Vary: 'Origin' };
}

/** The answer to a preflight from an allowed origin. */
export function preflightHeaders(origin: string, headers: IncomingHttpHeaders): Record<string, string> {
  const requested = String(headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => /^mcp-param-[A-Za-z0-9-]+$/i.test(name));
  const answer: Record<string, string> = {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': [...ALLOWED_REQUEST_HEADERS, ...requested].join(', '),
    'Access-Control-Max-Age': '600',
    Vary: 'Origin, Access-Control-Request-Headers',
  };
  // Chromium asks before a public page reaches a loopback address; allowed origins may.
  if (headers['access-control-request-private-network'] === 'true') answer['Access-Control-Allow-Private-Network'] = 'true';
  return answer;
}
