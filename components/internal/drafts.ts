/**
 * Per-tool argument drafts in IndexedDB (through `idb-keyval`), keyed by
 * server URL and tool name, so a half-filled form survives a reload.
 *
 * Storage failures (private mode, quota, IndexedDB disabled) are not errors
 * for the user: drafts are a convenience, so every function resolves anyway.
 *
 * @module
 */
import { createStore, del, get, set, type UseStore } from 'idb-keyval';

/** What is stored for one tool. */
export interface StoredDraft<T> {
  /** Format version of the record. */
  v: 1;
  /** When it was saved (ms since the epoch). */
  savedAt: number;
  draft: T;
}

let store: UseStore | undefined;

function draftStore(): UseStore | undefined {
  if (typeof indexedDB === 'undefined') return undefined;
  // A database of its own: idb-keyval creates its object store only when it creates the database,
  // so two stores cannot share one database name.
  store ??= createStore('mcp-elements-tool-drafts', 'drafts');
  return store;
}

/** The storage key of a tool's draft: the server's URL plus the tool name. */
export function draftKey(serverUrl: string, toolName: string): string {
  return JSON.stringify([serverUrl, toolName]);
}

/** Reads a draft; undefined when there is none or storage is unavailable. */
export async function loadDraft<T>(key: string): Promise<T | undefined> {
  const where = draftStore();
  if (!where) return undefined;
  try {
    const record = (await get(key, where)) as StoredDraft<T> | undefined;
    return record?.v === 1 ? record.draft : undefined;
  } catch {
    return undefined;
  }
}

/** Saves a draft (`undefined` deletes it). */
export async function saveDraft<T>(key: string, draft: T | undefined): Promise<void> {
  const where = draftStore();
  if (!where) return;
  try {
    if (draft === undefined) await del(key, where);
    else await set(key, { v: 1, savedAt: Date.now(), draft } satisfies StoredDraft<T>, where);
  } catch {
    // A draft that cannot be stored is only a lost convenience.
  }
}
