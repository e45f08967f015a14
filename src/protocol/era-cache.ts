/**
 * The contract of an era cache: where a verdict on an endpoint's protocol era
 * is remembered (basic/versioning: cache the verdict, re-probe when it fails).
 * A leaf, so that `./era.ts`, which loads the persistent cache on demand, and
 * that cache, `./era-idb.ts`, both name it without importing each other.
 *
 * @module
 */

/** Remembers the era of an endpoint (basic/versioning: cache the verdict, re-probe when it fails). */
export interface EraCache {
  get(key: string): Promise<'modern' | 'legacy' | undefined> | 'modern' | 'legacy' | undefined;
  set(key: string, era: 'modern' | 'legacy'): Promise<void> | void;
  delete(key: string): Promise<void> | void;
}
