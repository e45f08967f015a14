/**
 * Which era an endpoint speaks (spec: basic/versioning "Backward
 * Compatibility"), decided when the client connects: the verdict remembered
 * for the endpoint, else a 2026-07-28 `server/discover` probe, falling back to
 * the legacy `initialize` handshake for servers that answer it as a legacy
 * server would (or whose CORS refuses the modern headers); the verdict is
 * remembered per endpoint.
 *
 * @module
 */
import { ErrorCode, McpClientError, McpRpcError } from '../protocol/errors.js';
import { classifyDiscoverResult, classifyProbeFailure, defaultEraCache, type EraCache } from '../protocol/era.js';
import type { JsonObject } from '../protocol/types.js';
import type { ModernSession, Session } from '../transport/session.js';
import type { McpClientOptions } from './options.js';

/** Era verdicts shared by the clients of this page/process, persisted where IndexedDB exists (spec: basic/versioning). */
const sharedEraCache: EraCache = defaultEraCache();

/** The era cache a client uses: its option, else the one shared by the page. */
export function eraCacheOf(options: Pick<McpClientOptions, 'eraCache'>): EraCache {
  return options.eraCache ?? sharedEraCache;
}

/** What era negotiation needs from its client. */
export interface NegotiationHost {
  url: string;
  /** The endpoint's key in the era cache (`eraCacheKey`). */
  eraKey: string;
  options: Pick<McpClientOptions, 'protocol' | 'eraCache'>;
  /** `signal` plus the connect timeout. */
  withTimeout(signal: AbortSignal | undefined): AbortSignal;
  /** A 2026-07-28 session, not yet described. */
  openModern(): ModernSession;
  /** Opens a legacy session (loaded on demand); `probeError` is why the modern probe failed, if it did. */
  openLegacy(signal: AbortSignal, probeError?: unknown): Promise<Session>;
  /** Takes the `server/discover` result for `session` (checked, adopted, cached). */
  adoptDiscover(session: ModernSession, result: JsonObject): Promise<void>;
  warn(code: string, message: string): void;
}

/**
 * Opens the session of the era the endpoint speaks (or the one
 * `options.protocol` pins).
 * @throws McpError when neither era can be spoken to (the error of the era that got further).
 */
export async function openSession(host: NegotiationHost, signal: AbortSignal | undefined): Promise<Session> {
  const preference = host.options.protocol ?? 'auto';
  const eraCache = eraCacheOf(host.options);
  const key = host.eraKey;
  const cached = preference === 'auto' ? await eraCache.get(key) : undefined;

  /** Why the remembered legacy verdict failed: when the probe says legacy again, that handshake is not run twice. */
  let legacyFailure: { error: unknown } | undefined;
  if (preference === 'legacy' || cached === 'legacy') {
    try {
      const session = await host.openLegacy(host.withTimeout(signal));
      if (preference === 'auto') await eraCache.set(key, 'legacy');
      return session;
    } catch (error) {
      // The remembered verdict may be stale (server upgraded): probe again.
      if (preference !== 'auto') throw error;
      legacyFailure = { error };
      await eraCache.delete(key);
    }
  }

  const modern = host.openModern();
  let result: JsonObject;
  try {
    result = (await modern.request('server/discover', {}, { signal: host.withTimeout(signal) })).result;
  } catch (error) {
    if (preference === 'modern') {
      // A modern server without server/discover (404/-32601) is non-conformant but usable.
      if (McpRpcError.isInstance(error) && error.code === ErrorCode.MethodNotFound) {
        host.warn('no-discover', `${host.url} does not implement server/discover; continuing without its description`);
        return modern;
      }
      throw error;
    }
    const verdict = classifyProbeFailure(error);
    if (verdict === 'modern') {
      if (McpRpcError.isInstance(error) && error.code === ErrorCode.MethodNotFound) {
        host.warn('no-discover', `${host.url} does not implement server/discover; continuing without its description`);
        await eraCache.set(key, 'modern');
        return modern;
      }
      throw error;
    }
    // From a page, a probe that failed before any response (data.cors) may be a refused preflight
    // of the modern headers (Mcp-Method, Mcp-Name…): the legacy handshake does not send them.
    const cors = McpClientError.isInstance(error) ? (error.data.cors as { requestHeaders: string[] } | undefined) : undefined;
    if (verdict !== 'legacy' && !cors) throw error;
    // The legacy handshake just failed here (every version it offers offered once): its error says why.
    if (legacyFailure && verdict === 'legacy') throw legacyFailure.error;
    // What follows loads with the legacy era (it is in the same chunk). When that chunk cannot load (offline, a
    // deploy replaced it), a refusal by CORS is still the error that explains most, as a failed legacy handshake is.
    const legacy = await import('../legacy/session.js').catch((loadError: unknown) => {
      throw cors ? error : loadError;
    });
    const session = await legacy.legacyAfterProbe(host, host.withTimeout(signal), error, cors);
    await eraCache.set(key, 'legacy');
    return session;
  }
  if (preference === 'auto' && classifyDiscoverResult(result) === 'legacy') {
    // A 200 without supportedVersions (e.g. `{}`) is a legacy server answering unknown methods generically.
    const session = await (await import('../legacy/session.js')).legacyAfterDiscover(host, host.withTimeout(signal));
    if (session) {
      await eraCache.set(key, 'legacy');
      return session;
    }
  }
  await host.adoptDiscover(modern, result);
  if (preference === 'auto') await eraCache.set(key, 'modern');
  return modern;
}
