/**
 * How the OAuth layer uses the tokens it holds, decided apart from its state:
 * whether a request refused with a challenge can be sent again with new tokens,
 * when tokens are due for a refresh, whether a new authorization binds them to
 * a DPoP key (RFC 9449), and the lock that keeps a refresh to one tab at a time.
 *
 * @module
 */
import { splitScopes, type AuthChallenge } from './challenge.js';
import type { OAuthOptions } from './options.js';
import type { AuthorizationServerMetadata, ResourceMetadata, TokenSet } from './types.js';

/** Whether a request body can be sent again (after a 401 or 403, with new tokens): not a one-time stream. */
export function isReplayable(body: unknown): boolean {
  return body === undefined || body === null || typeof body === 'string' || body instanceof URLSearchParams || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || body instanceof Blob || body instanceof FormData;
}

/** Whether `tokens` are inside their refresh window (`refreshBeforeExpiryMs` before expiry, at most half their lifetime). */
export function dueForRefresh(tokens: TokenSet, options: Pick<OAuthOptions, 'refreshBeforeExpiryMs'>): boolean {
  if (tokens.expiresAt === undefined) return false;
  const window = Math.min(options.refreshBeforeExpiryMs ?? 60_000, (tokens.expiresAt - (tokens.issuedAt ?? 0)) / 2);
  return tokens.expiresAt - window <= Date.now();
}

/** Runs `task` holding the Web Lock `name` (one tab at a time), or right away where there are no Web Locks (Node). */
export async function withLock<T>(name: string, task: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks) return task();
  return locks.request(name, task) as Promise<T>;
}

/** DPoP when asked for (the `dpop` option, the resource's challenge or metadata) and the authorization server signs ES256 proofs. */
export function wantsDpop(options: Pick<OAuthOptions, 'dpop'>, challenge: AuthChallenge | undefined, prm: ResourceMetadata, as: AuthorizationServerMetadata): boolean {
  const setting = options.dpop ?? 'auto';
  if (setting === false || !as.dpop_signing_alg_values_supported?.includes('ES256')) return false;
  if (setting === true) return true;
  // A resource that lists its DPoP algorithms without ES256 would refuse our proofs (RFC 9449 §7.1).
  const algs = challenge?.params.algs;
  if (algs !== undefined && !splitScopes(algs).includes('ES256') && prm.dpop_bound_access_tokens_required !== true) return false;
  return (
    challenge?.scheme.toLowerCase() === 'dpop' ||
    prm.dpop_bound_access_tokens_required === true ||
    (Array.isArray(prm.dpop_signing_alg_values_supported) && prm.dpop_signing_alg_values_supported.includes('ES256'))
  );
}
