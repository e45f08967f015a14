/**
 * Where the OAuth layer keeps what must survive a reload: tokens (keyed by
 * issuer and resource), client registrations (keyed by issuer), DPoP key pairs
 * and pending authorizations. See docs/oauth.md for the threat model.
 *
 * - {@link MemoryAuthStorage}: this page or process only (the default in Node).
 * - {@link IndexedDbAuthStorage}: IndexedDB through idb-keyval (the default in
 *   browsers). Values are stored by structured clone, so a non-extractable
 *   DPoP `CryptoKey` is kept without its private key ever being exported.
 * - Anything implementing {@link AuthStorage} (the host's own vault, a BFF…).
 *
 * @module
 */

/** Asynchronous key-value storage for the OAuth layer. Values are plain data or `CryptoKey`s. */
export interface AuthStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Keeps everything in memory: gone with the page or process. */
export class MemoryAuthStorage implements AuthStorage {
  readonly #map = new Map<string, unknown>();
  /** The stored value, or undefined. */
  async get(key: string): Promise<unknown> {
    // A copy, so callers cannot mutate what is stored (IndexedDB behaves the same).
    const value = this.#map.get(key);
    return value === undefined ? undefined : structuredClone(value);
  }
  /** Stores a structured-cloneable value. */
  async set(key: string, value: unknown): Promise<void> {
    this.#map.set(key, structuredClone(value));
  }
  /** Removes a value. */
  async delete(key: string): Promise<void> {
    this.#map.delete(key);
  }
}

/**
 * IndexedDB storage through idb-keyval, in the database `mcp-web-elements-oauth`
 * (object store `kv`). idb-keyval is loaded on first use.
 */
export class IndexedDbAuthStorage implements AuthStorage {
  readonly #database: string;
  #store: Promise<{ api: typeof import('idb-keyval'); store: import('idb-keyval').UseStore }> | undefined;

  /** @param database - IndexedDB database name; default `mcp-web-elements-oauth`. */
  constructor(database = 'mcp-web-elements-oauth') {
    this.#database = database;
  }

  #open() {
    // A failed load (offline for a moment) is forgotten: this call fails, the next one loads it again.
    this.#store ??= import('idb-keyval').then(
      (api) => ({ api, store: api.createStore(this.#database, 'kv') }),
      (error: unknown) => {
        this.#store = undefined;
        throw error;
      },
    );
    return this.#store;
  }
  /** The stored value, or undefined. */
  async get(key: string): Promise<unknown> {
    const { api, store } = await this.#open();
    return api.get(key, store);
  }
  /** Stores a structured-cloneable value. */
  async set(key: string, value: unknown): Promise<void> {
    const { api, store } = await this.#open();
    await api.set(key, value, store);
  }
  /** Removes a value. */
  async delete(key: string): Promise<void> {
    const { api, store } = await this.#open();
    await api.del(key, store);
  }
}

/** The default: IndexedDB where it exists (browsers, workers), memory elsewhere (Node). */
export function defaultAuthStorage(): AuthStorage {
  return typeof indexedDB === 'undefined' ? new MemoryAuthStorage() : new IndexedDbAuthStorage();
}
