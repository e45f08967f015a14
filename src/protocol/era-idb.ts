/**
 * The persistent era cache: verdicts kept in IndexedDB with `idb-keyval`
 * (basic/versioning: clients MAY persist the era across restarts, re-probing
 * when it fails). Loaded on first use by the default cache of `./era.ts`.
 *
 * @module
 */
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { EraCache } from './era-cache.js';

/** What {@link IdbEraCache} stores per key. */
interface StoredVerdict {
  era: 'modern' | 'legacy';
  /** Wall-clock time of the verdict, in ms since the epoch. */
  savedAt: number;
}

/** Options of {@link IdbEraCache}. */
export interface IdbEraCacheOptions {
  /** IndexedDB database name; default `mcp-web-elements-era` (one database per kit store: idb-keyval creates a single store per database). */
  database?: string;
  /** Object store name; default `verdicts`. */
  store?: string;
  /** How long a persisted verdict is trusted, in ms; default 7 days. */
  maxAgeMs?: number;
}

/**
 * {@link EraCache} persisted in IndexedDB with `idb-keyval`, behind an in-memory
 * layer. Storage failures (private mode, quota, blocked database) are
 * swallowed: the cache then behaves like {@link MemoryEraCache}, and a wrong or
 * missing verdict only costs a probe.
 */
export class IdbEraCache implements EraCache {
  readonly #memory = new Map<string, 'modern' | 'legacy'>();
  readonly #options: IdbEraCacheOptions;
  #store: UseStore | undefined;

  constructor(options: IdbEraCacheOptions = {}) {
    this.#options = options;
  }

  async get(key: string): Promise<'modern' | 'legacy' | undefined> {
    const hit = this.#memory.get(key);
    if (hit) return hit;
    try {
      const stored = await get<StoredVerdict>(key, this.#useStore());
      const maxAge = this.#options.maxAgeMs ?? 7 * 24 * 3600 * 1000;
      if (!stored || (stored.era !== 'modern' && stored.era !== 'legacy') || !(Date.now() - stored.savedAt < maxAge)) return undefined;
      this.#memory.set(key, stored.era);
      return stored.era;
    } catch {
      return undefined;
    }
  }

  async set(key: string, era: 'modern' | 'legacy'): Promise<void> {
    this.#memory.set(key, era);
    try {
      await set(key, { era, savedAt: Date.now() } satisfies StoredVerdict, this.#useStore());
    } catch {
      /* memory only */
    }
  }

  async delete(key: string): Promise<void> {
    this.#memory.delete(key);
    try {
      await del(key, this.#useStore());
    } catch {
      /* memory only */
    }
  }

  #useStore(): UseStore {
    this.#store ??= createStore(this.#options.database ?? 'mcp-web-elements-era', this.#options.store ?? 'verdicts');
    return this.#store;
  }
}
