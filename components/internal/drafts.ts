/**
 * Per-tool argument drafts, keyed by server URL and tool name, so a
 * half-filled form survives a reload (see `store.ts` for where they are kept
 * and the fallbacks when IndexedDB is not available).
 *
 * Two tabs editing the same tool never overwrite each other's draft silently:
 * every record carries a revision, a form remembers the revision its draft
 * started from, and a save finding another tab's newer revision stores nothing
 * and reports the conflict (the form asks the user which draft to keep).
 *
 * @module
 */
import { RecordStore, type StoredRecord } from './store.js';

/** What is stored for one tool. */
export interface StoredDraft<T> extends StoredRecord {
  /** Format version of the record (1: before revisions). */
  v: 1 | 2;
  draft: T;
  /** Identifies this version of the record. */
  rev?: string;
  /** The page (one load of one tab) that wrote it. */
  writer?: string;
  /** In a journal record: the revision the draft was based on (`''`: nothing was stored). */
  base?: string;
}

/** What a save did. */
export type SaveOutcome<T> = { saved: true; rev: string } | { saved: false; conflict: StoredDraft<T> };

/** This page: one load of one tab. */
export const WRITER = crypto.randomUUID();

const store = new RecordStore<StoredDraft<unknown>>('mcp-elements-tool-drafts', 'drafts');

/** The storage key of a tool's draft: the server's URL plus the tool name. */
export function draftKey(serverUrl: string, toolName: string): string {
  return JSON.stringify([serverUrl, toolName]);
}

/** The revision of a stored record (old records have none). */
export function revisionOf(record: StoredDraft<unknown> | undefined): string {
  return record ? (record.rev ?? `v1:${record.savedAt}`) : '';
}

/**
 * Reads a tool's draft: the stored one, and this tab's journal (input a reload
 * interrupted before it was stored), if any.
 */
export async function loadDraft<T>(key: string): Promise<{ stored?: StoredDraft<T>; journal?: StoredDraft<T> }> {
  const stored = (await store.get(key)) as StoredDraft<T> | undefined;
  const journal = store.readJournal(key) as StoredDraft<T> | undefined;
  return { ...(stored && (stored.v === 1 || stored.v === 2) ? { stored } : {}), ...(journal?.v === 2 ? { journal } : {}) };
}

/**
 * Saves a draft (`undefined` deletes it) made from revision `base` (`''`:
 * nothing was stored when the form started). Stores nothing when another page
 * stored a revision since; that revision is returned as the conflict. `force`
 * overwrites it (the user chose to keep this tab's draft).
 */
export async function saveDraft<T>(key: string, draft: T | undefined, base: string, force = false): Promise<SaveOutcome<T>> {
  const rev = crypto.randomUUID();
  let conflict: StoredDraft<T> | undefined;
  await store.update(key, (stored) => {
    if (!force && stored && revisionOf(stored) !== base && stored.writer !== WRITER) {
      conflict = stored as StoredDraft<T>;
      return stored;
    }
    if (draft === undefined) return undefined;
    return { v: 2, savedAt: Date.now(), rev, writer: WRITER, draft };
  });
  return conflict ? { saved: false, conflict } : { saved: true, rev };
}

/**
 * Writes a draft that is not stored yet to this tab's journal, synchronously
 * (from `pagehide`/`visibilitychange`): it survives a reload that comes before
 * the asynchronous save finished.
 */
export function journalDraft<T>(key: string, draft: T | undefined, base: string): void {
  if (draft === undefined) store.clearJournal(key);
  else store.journal(key, { v: 2, savedAt: Date.now(), writer: WRITER, base, draft });
}

/** Where drafts are kept now. */
export function draftStorageKind(): RecordStore<StoredDraft<unknown>>['kind'] {
  return store.kind;
}
