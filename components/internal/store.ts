/**
 * Where the elements keep what the user typed (tool-form drafts, half-typed
 * answers of the input dialog, calls waiting to be resumed): IndexedDB
 * (through `idb-keyval`) when the browser lets the page use it, else
 * `sessionStorage` (this tab only), else memory (gone on reload). A store
 * falls back by itself the first time IndexedDB fails — missing, blocked
 * (private windows, storage settings), a quota error — and the page is told
 * once ({@link takeStorageNotice}).
 *
 * Every store also has a *journal* in `sessionStorage`, written synchronously:
 * what is typed must survive a reload that comes before an asynchronous write
 * finished, so the elements write it from `pagehide` and `visibilitychange`.
 *
 * @module
 */
import { createStore, del, entries, get, update, type UseStore } from 'idb-keyval';
import { clearJournal, encodeRecord, journalKey, sessionStore, UNDEFINED, writeJournal } from './journal.js';

export { encodeRecord } from './journal.js';

/** A record as `encodeRecord` wrote it (with its `undefined` array items). */
export function decodeRecord<T>(text: string): T {
  const undefinedItems: [unknown[], number][] = [];
  const value = JSON.parse(text, function (this: unknown, key, item: unknown) {
    if (Array.isArray(this) && typeof item === 'object' && item !== null && Object.keys(item).length === 1 && (item as Record<string, unknown>)[UNDEFINED] === true) {
      undefinedItems.push([this, Number(key)]);
    }
    return item;
  }) as T;
  // A reviver returning undefined would delete the item and leave a hole: set them afterwards.
  for (const [array, index] of undefinedItems) array[index] = undefined;
  return value;
}

/** Reads a journal record of store `name` (see `writeJournal`). */
function readJournal<T>(name: string, key: string): T | undefined {
  try {
    const text = sessionStore()?.getItem(journalKey(name, key));
    return text ? decodeRecord<T>(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Where a store keeps its records now. */
export type StorageKind = 'indexeddb' | 'session' | 'memory';

/** A record of a store: anything structured-cloneable and JSON-encodable, stamped with when it was saved. */
export interface StoredRecord {
  /** When it was saved, in ms since the epoch. */
  savedAt: number;
}

/**
 * Until IndexedDB has answered once, an operation that takes longer than this
 * counts as failed: a database that never opens (blocked) must not hold the
 * input back. Once it has answered, slowness (a busy page) is only slowness.
 */
const IDB_TIMEOUT_MS = 5000;

let degradedTo: StorageKind | undefined;
let told = false;

/**
 * The sentence to tell the user, once per page, when drafts cannot be stored
 * durably: undefined when IndexedDB works, or when it was taken already.
 */
export function takeStorageNotice(): string | undefined {
  if (!degradedTo || told) return undefined;
  told = true;
  return degradedTo === 'session'
    ? "This browser does not let the page use IndexedDB: drafts and unanswered requests are kept in this tab only, and are lost when it is closed."
    : 'This browser does not let the page store data: drafts and unanswered requests are kept in memory only, and will not survive a reload.';
}

function noteDegraded(kind: StorageKind): void {
  // The worst seen on the page decides what the user is told.
  if (degradedTo === undefined || kind === 'memory') {
    if (degradedTo !== kind) told = false;
    degradedTo = kind;
  }
}

/** The more recently saved of two records. */
function newer<T extends StoredRecord>(a: T | undefined, b: T | undefined): T | undefined {
  if (!a || !b) return a ?? b;
  return b.savedAt > a.savedAt ? b : a;
}

function timeout<T>(promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`IndexedDB did not answer within ${IDB_TIMEOUT_MS} ms`)), IDB_TIMEOUT_MS);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}

/**
 * A key-value store with fallbacks. Keys are strings; values are records.
 * Methods never reject: storage trouble degrades the store and is told once.
 */
export class RecordStore<T extends StoredRecord> {
  readonly #name: string;
  readonly #storeName: string;
  #kind: StorageKind = 'indexeddb';
  #idb: UseStore | undefined;
  /** IndexedDB answered at least once on this page. */
  #answered = false;
  readonly #memory = new Map<string, string>();

  /**
   * `name` names the IndexedDB database (holding one object store, `storeName`)
   * and prefixes the `sessionStorage` keys.
   */
  constructor(name: string, storeName: string) {
    this.#name = name;
    this.#storeName = storeName;
  }

  /** Where the records are kept now. */
  get kind(): StorageKind {
    this.#select();
    return this.#kind;
  }

  #select(): void {
    if (this.#kind !== 'indexeddb' || this.#idb) return;
    try {
      if (typeof indexedDB === 'undefined') throw new Error('no IndexedDB');
      // A database of its own: idb-keyval creates its object store only when it creates the database.
      this.#idb = createStore(this.#name, this.#storeName);
    } catch {
      this.#degrade();
    }
  }

  #degrade(): void {
    this.#idb = undefined;
    this.#kind = sessionStore() ? 'session' : 'memory';
    noteDegraded(this.#kind);
  }

  async #idbOp<R>(run: (store: UseStore) => Promise<R>): Promise<{ ok: true; value: R } | { ok: false }> {
    this.#select();
    const store = this.#idb;
    if (this.#kind !== 'indexeddb' || !store) return { ok: false };
    try {
      const value = this.#answered ? await run(store) : await timeout(run(store));
      this.#answered = true;
      return { ok: true, value };
    } catch {
      // Missing, blocked, quota: from now on this page keeps the records elsewhere.
      if (this.#idb === store) this.#degrade();
      return { ok: false };
    }
  }

  #prefix(): string {
    return `${this.#name}:`;
  }

  #readSync(key: string, kind: StorageKind = this.#kind): T | undefined {
    const text = kind === 'session' ? sessionStore()?.getItem(this.#prefix() + key) : this.#memory.get(key);
    if (text === null || text === undefined) return undefined;
    try {
      return decodeRecord<T>(text);
    } catch {
      return undefined;
    }
  }

  #writeSync(key: string, value: T | undefined): void {
    const text = value === undefined ? undefined : encodeRecord(value);
    if (this.#kind === 'session') {
      try {
        const storage = sessionStore();
        if (!storage) throw new Error('sessionStorage is gone');
        if (text === undefined) storage.removeItem(this.#prefix() + key);
        else storage.setItem(this.#prefix() + key, text);
        return;
      } catch {
        // Quota or blocked: memory, for the rest of the page's life.
        this.#kind = 'memory';
        noteDegraded('memory');
      }
    }
    if (text === undefined) this.#memory.delete(key);
    else this.#memory.set(key, text);
  }

  /** The stored record, if any. */
  async get(key: string): Promise<T | undefined> {
    const done = await this.#idbOp((store) => get<T>(key, store));
    if (!done.ok) return this.#readSync(key);
    // An earlier load of this tab may have fallen back to sessionStorage (a quota error then): the newer wins.
    return newer(done.value, this.#readSync(key, 'session'));
  }

  /**
   * Reads and writes one record atomically (one IndexedDB transaction, so two
   * tabs cannot interleave): `change` gets the stored record and returns the one
   * to store (`undefined` deletes it). Resolves with what is stored afterwards.
   */
  async update(key: string, change: (stored: T | undefined) => T | undefined): Promise<T | undefined> {
    let after: T | undefined;
    // The journal as it is now: what this write stores supersedes it, not a journal written while the write is under way.
    const journalBefore = this.#journalText(key);
    const done = await this.#idbOp((store) =>
      update<T | undefined>(
        key,
        (stored) => {
          after = change(stored);
          return after;
        },
        store,
      ).then(async () => {
        // idb-keyval stores `undefined` as a value: delete instead.
        if (after === undefined) await del(key, store);
      }),
    );
    if (!done.ok) {
      after = change(this.#readSync(key));
      this.#writeSync(key, after);
    } else {
      // A copy an earlier, degraded load of this tab left in sessionStorage is superseded.
      try {
        sessionStore()?.removeItem(this.#prefix() + key);
      } catch {
        // Nothing to remove where nothing could be written.
      }
    }
    // Input journalled during the write (typing, then the page leaving) is newer than what was written: it stays
    // until the write that carries it (else a reload right then lost it: the stored draft lacked the last field).
    if (this.#journalText(key) === journalBefore) this.clearJournal(key);
    return after;
  }

  #journalText(key: string): string | null | undefined {
    try {
      return sessionStore()?.getItem(journalKey(this.#name, key));
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    await this.update(key, () => undefined);
  }

  /** Every record whose key starts with `prefix`. */
  async entries(prefix = ''): Promise<[string, T][]> {
    const done = await this.#idbOp((store) => entries<string, T>(store));
    const found = new Map<string, T>();
    const add = (key: unknown, record: T | undefined) => {
      if (typeof key === 'string' && key.startsWith(prefix) && record) found.set(key, newer(found.get(key), record)!);
    };
    if (done.ok) for (const [key, record] of done.value) add(key, record);
    if (this.#kind === 'memory') for (const key of this.#memory.keys()) add(key, this.#readSync(key));
    else {
      // Records an earlier, degraded load of this tab kept in sessionStorage count too.
      try {
        const storage = sessionStore();
        for (let i = 0; storage && i < storage.length; i++) {
          const name = storage.key(i);
          if (name?.startsWith(this.#prefix())) add(name.slice(this.#prefix().length), this.#readSync(name.slice(this.#prefix().length), 'session'));
        }
      } catch {
        // sessionStorage went away: IndexedDB's records are all there is.
      }
    }
    return [...found];
  }

  // --- the journal ------------------------------------------------------------------------------

  /**
   * Writes `record` to this tab's journal, synchronously (from `pagehide` or
   * `visibilitychange`: the page may be gone before an IndexedDB write ends).
   * It is read back with {@link readJournal} and cleared by the next
   * {@link update} of the key.
   */
  journal(key: string, record: T): void {
    writeJournal(this.#name, key, record);
  }

  readJournal(key: string): T | undefined {
    return readJournal<T>(this.#name, key);
  }

  /** This tab's journal records whose key starts with `prefix`. */
  journalEntries(prefix = ''): [string, T][] {
    const found: [string, T][] = [];
    try {
      const storage = sessionStore();
      const start = journalKey(this.#name, prefix);
      for (let i = 0; storage && i < storage.length; i++) {
        const name = storage.key(i);
        if (!name?.startsWith(start)) continue;
        const record = this.readJournal(name.slice(journalKey(this.#name, '').length));
        if (record) found.push([name.slice(journalKey(this.#name, '').length), record]);
      }
    } catch {
      // No journal where sessionStorage is blocked.
    }
    return found;
  }

  clearJournal(key: string): void {
    clearJournal(this.#name, key);
  }
}
