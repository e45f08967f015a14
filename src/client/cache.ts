/**
 * Result cache honouring `ttlMs` and `cacheScope` (spec: server/utilities/caching).
 *
 * - The key is the method plus the parameters that affect the result (cursor,
 *   uri); a `private` entry is also keyed by the authorization context, so it is
 *   never served to a request made with other credentials.
 * - An entry is fresh while `now < receivedAt + ttlMs`; a missing, zero or
 *   negative `ttlMs` means stale at once (the entry is not stored).
 * - Results of MRTR retries and `input_required` results are never stored
 *   (the caller decides; see {@link ResultCache.set}).
 *
 * @module
 */
import type { CacheableResult } from '../protocol/types.js';
import { hashKey } from '../util/hash.js';
import type { McpClientOptions } from './options.js';

/** Methods whose complete results carry caching hints. */
export const CACHEABLE_METHODS = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

interface Entry {
  result: CacheableResult;
  expiresAt: number;
  /** The entry's method and, for `resources/read`, its URI: what the invalidations match on (the key's text holds the auth context, which may contain anything). */
  method: string;
  uri?: unknown;
}


export class ResultCache {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  /** Upper bound on entries; the oldest is evicted first. */
  readonly maxEntries: number;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.#now = options.now ?? (() => Date.now());
    this.maxEntries = options.maxEntries ?? 500;
  }

  static key(method: string, params: Record<string, unknown>, scope: 'public' | 'private', authContext: string | undefined): string {
    const affecting = method === 'resources/read' ? { uri: params.uri } : { cursor: params.cursor };
    return `${scope === 'private' ? `private:${authContext ?? ''}` : 'public'}|${method}|${JSON.stringify(affecting)}`;
  }

  /** A fresh result for the request, or undefined. Private entries match only the same auth context. */
  get(method: string, params: Record<string, unknown>, authContext: string | undefined): CacheableResult | undefined {
    const now = this.#now();
    for (const scope of ['private', 'public'] as const) {
      const key = ResultCache.key(method, params, scope, authContext);
      const entry = this.#entries.get(key);
      if (!entry) continue;
      if (now < entry.expiresAt) return entry.result;
      this.#entries.delete(key);
    }
    return undefined;
  }

  /** Stores a complete result if its `ttlMs` makes it cacheable. */
  set(method: string, params: Record<string, unknown>, result: CacheableResult, authContext: string | undefined): void {
    const ttl = typeof result.ttlMs === 'number' && Number.isFinite(result.ttlMs) ? result.ttlMs : 0;
    if (ttl <= 0) return;
    const scope = result.cacheScope === 'public' ? 'public' : 'private';
    const key = ResultCache.key(method, params, scope, authContext);
    this.#entries.delete(key);
    this.#entries.set(key, { result, expiresAt: this.#now() + ttl, method, ...(method === 'resources/read' ? { uri: params.uri } : {}) });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  /** Makes every entry of the given methods stale (a list-changed notification). */
  invalidate(...methods: string[]): void {
    for (const [key, entry] of [...this.#entries]) if (methods.includes(entry.method)) this.#entries.delete(key);
  }

  /** Drops entries of `resources/read` for one URI (a resources/updated notification). */
  invalidateResource(uri: string): void {
    for (const [key, entry] of [...this.#entries]) if (entry.method === 'resources/read' && entry.uri === uri) this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/**
 * Identifies the authorization context of the next request, for private cache
 * entries and stored tasks: the `authContext` option, else a hash of the
 * credential headers the request will carry (static or from the `headers`
 * function): `Authorization` and any whose name says key, token, secret,
 * auth, pass, signature, cookie or session (`X-Api-Key`…), so two API keys on
 * one URL never share entries, while other headers (request ids) do not split them.
 */
export async function authContextOf(options: Pick<McpClientOptions, 'authContext' | 'headers'>): Promise<string | undefined> {
  if (options.authContext) return options.authContext();
  const headers = options.headers;
  if (!headers) return undefined;
  const current = typeof headers === 'function' ? await headers() : headers;
  // Narrower than the protocol log's masking on purpose: a DPoP proof changes on every request and would split every entry.
  const credentials = Object.entries(current)
    .filter(([name]) => /authorization|key|token|secret|auth|pass|signature|cookie|session/i.test(name))
    .map(([name, value]) => `${name.toLowerCase()}:${value}`)
    .sort();
  return credentials.length > 0 ? hashKey(credentials.join('\n')) : undefined;
}
