/**
 * Protocol era detection for Streamable HTTP
 * (spec: basic/versioning "Backward Compatibility with Initialization-Based
 * Versions"; basic/transports/streamable-http "Backward Compatibility").
 *
 * The client sends a modern request first (`server/discover`). A recognised
 * modern error means the server is modern; any other 4xx (or a JSON-RPC error
 * that is not one of the modern ones) means legacy, so the client falls back to
 * `initialize`. Network failures, 5xx, timeouts, 401 and 403 say nothing about
 * the era and are reported as they are.
 *
 * A verdict is remembered per endpoint ({@link EraCache}): in memory in Node,
 * persisted with `idb-keyval` where IndexedDB exists (`./era-idb.ts`), so a page
 * that reloads skips the probe. The client re-probes whenever the remembered
 * era stops working.
 *
 * @module
 */
import { ErrorCode, McpClientError, McpRpcError } from './errors.js';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from './types.js';
import type { EraCache } from './era-cache.js';

// Declared in the leaf `./era-cache.ts`, which the lazily loaded `./era-idb.ts` shares; the client and the package entry take it from here.
export type { EraCache };

/** Error codes that only a modern server sends (the MCP-reserved range in use). */
const MODERN_CODES = new Set<number>([ErrorCode.HeaderMismatch, ErrorCode.MissingRequiredClientCapability, ErrorCode.UnsupportedProtocolVersion]);

/**
 * Classifies the failure of the modern probe.
 * @returns `modern` (stay modern and surface the error), `legacy` (fall back to
 *   `initialize`) or `unknown` (report the error; do not remember an era).
 */
export function classifyProbeFailure(error: unknown): 'modern' | 'legacy' | 'unknown' {
  if (McpRpcError.isInstance(error)) {
    const status = error.httpStatus ?? 200;
    if (error.code === ErrorCode.UnsupportedProtocolVersion) {
      // A modern server that only lists legacy versions: speak the legacy one it offers.
      const supported = (error.data as { supported?: unknown })?.supported;
      const list = Array.isArray(supported) ? supported : [];
      if (list.some((v) => MODERN_PROTOCOL_VERSIONS.includes(v as string))) return 'modern';
      return list.some((v) => LEGACY_PROTOCOL_VERSIONS.includes(v as string)) ? 'legacy' : 'modern';
    }
    if (MODERN_CODES.has(error.code)) return 'modern';
    if (error.code === ErrorCode.MethodNotFound && status === 404) return 'modern';
    if (status === 401 || status === 403 || status >= 500) return 'unknown';
    // Any other JSON-RPC error to a well-formed server/discover (e.g. -32000 "not initialized",
    // -32601 with 200 from a stateless legacy server, -32602) comes from a legacy server.
    return 'legacy';
  }
  if (McpClientError.isInstance(error)) {
    if (error.code === 'unsupported_version') {
      const supported = error.data.supported;
      return Array.isArray(supported) && supported.some((v) => LEGACY_PROTOCOL_VERSIONS.includes(v as string)) ? 'legacy' : 'unknown';
    }
    const status = error.data.status;
    if (error.code === 'http' && typeof status === 'number' && status >= 400 && status < 500 && status !== 401 && status !== 403) return 'legacy';
  }
  return 'unknown';
}

/**
 * Classifies a successful answer to the `server/discover` probe. A modern server
 * answers with a `DiscoverResult` whose `supportedVersions` names at least one
 * modern revision (server/discover); a legacy server that answers unknown
 * methods generically (e.g. `{}`, as some stateless ones do) does not, and gets
 * the `initialize` handshake instead (checklist §3, VER-7).
 */
export function classifyDiscoverResult(result: unknown): 'modern' | 'legacy' {
  const supported = (result as { supportedVersions?: unknown } | null)?.supportedVersions;
  if (!Array.isArray(supported)) return 'legacy';
  return supported.some((v) => typeof v === 'string' && !LEGACY_PROTOCOL_VERSIONS.includes(v)) ? 'modern' : 'legacy';
}

/**
 * The cache key: origin plus endpoint path. The spec keys by origin; two
 * endpoints on one origin may differ in era, so the path is part of the key
 * (checklist §7, gap 9). Query and fragment are not.
 */
export function eraCacheKey(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** In-memory {@link EraCache}. */
export class MemoryEraCache implements EraCache {
  readonly #map = new Map<string, 'modern' | 'legacy'>();
  /** The era remembered for an endpoint key, if any. */
  get(key: string) {
    return this.#map.get(key);
  }
  /** Remembers an endpoint's era. */
  set(key: string, era: 'modern' | 'legacy') {
    this.#map.set(key, era);
  }
  /** Forgets an endpoint's era (it answered like the other era). */
  delete(key: string) {
    this.#map.delete(key);
  }
}

/**
 * The default cache: persisted in IndexedDB where it exists (tabs, workers; see
 * `IdbEraCache` in `./era-idb.ts`, loaded on first use), in memory elsewhere (Node).
 */
export function defaultEraCache(): EraCache {
  if (typeof indexedDB === 'undefined') return new MemoryEraCache();
  let loaded: Promise<EraCache> | undefined;
  // The module, not its names destructured: Vite wraps a destructuring import() in code that picks the names, bytes in every page.
  // A chunk that could not be loaded is a miss this time, not for the page's life: the next use loads it again.
  const cache = () =>
    (loaded ??= import('./era-idb.js').then(
      (module) => new module.IdbEraCache(),
      () => ((loaded = undefined), new MemoryEraCache()),
    ));
  return {
    get: async (key) => (await cache()).get(key),
    set: async (key, era) => (await cache()).set(key, era),
    delete: async (key) => (await cache()).delete(key),
  };
}
