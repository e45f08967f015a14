/**
 * The synchronous side of the elements' storage (components/internal/store.ts):
 * `sessionStorage`, the JSON encoding of records, and each store's *journal*,
 * written from `pagehide`/`visibilitychange` where an asynchronous write may
 * not finish. Apart from the store so that a page can journal what was typed
 * before the IndexedDB side (idb-keyval), which loads on demand, has arrived;
 * reading records back (decoding them, reading the journal) is the store's.
 *
 * @module
 */

/** Marks `undefined` inside arrays in the JSON encoding (drafts keep empty list items as `undefined`). */
export const UNDEFINED = '\u0000undefined';

/** JSON that keeps `undefined` array items (`JSON.stringify` would turn them into `null`). */
export function encodeRecord(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, _key, item: unknown) {
    return item === undefined && Array.isArray(this) ? { [UNDEFINED]: true } : item;
  });
}

/** `window.sessionStorage`, or undefined where the page may not use it (blocked storage throws on access). */
export function sessionStore(): Storage | undefined {
  try {
    const storage = globalThis.sessionStorage;
    if (!storage) return undefined;
    const probe = '\u0000mcp-web-elements-probe';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return undefined;
  }
}

/** The `sessionStorage` key of store `name`'s journal record for `key`. */
export function journalKey(name: string, key: string): string {
  return `${name}-journal:${key}`;
}

/** Writes a journal record of store `name`, synchronously; where nothing can be written, the asynchronous write is all there is. */
export function writeJournal(name: string, key: string, record: unknown): void {
  try {
    sessionStore()?.setItem(journalKey(name, key), encodeRecord(record));
  } catch {
    // Nowhere synchronous to write.
  }
}

export function clearJournal(name: string, key: string): void {
  try {
    sessionStore()?.removeItem(journalKey(name, key));
  } catch {
    // Nothing to clear where nothing could be written.
  }
}

/** What runs when the page may be going away (see {@link onPageLeave}), and whether the page is listened to. */
const leaving = new Set<() => void>();
let listening = false;

/**
 * Runs `flush` when the page may be going away: on `pagehide` (a reload or a
 * closed tab may come before an asynchronous write ends) and when it is hidden
 * (a hidden tab may be discarded without a `pagehide`). One pair of page
 * listeners for every element, added once: an element that connects adds
 * itself to a set, not listeners to the window.
 * @returns what stops it (on disconnect).
 */
export function onPageLeave(flush: () => void): () => void {
  if (!listening) {
    listening = true;
    const all = () => leaving.forEach((run) => run());
    window.addEventListener('pagehide', all);
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && all());
  }
  leaving.add(flush);
  return () => leaving.delete(flush);
}
