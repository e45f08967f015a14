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
import { DRAFTS_DB, revisionOf, WRITER, type StoredDraft } from './draft-journal.js';
import { RecordStore } from './store.js';

// The form loads this module lazily (its synchronous side, draft-journal.ts, at once): what it needs of the store comes with it.
export { takeStorageNotice } from './store.js';
export { draftKey, journalDraft, revisionOf, WRITER, type StoredDraft } from './draft-journal.js';

/** What a save did. */
export type SaveOutcome<T> = { saved: true; rev: string } | { saved: false; conflict: StoredDraft<T> };

const store = new RecordStore<StoredDraft<unknown>>(DRAFTS_DB, 'drafts');

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

/** Where drafts are kept now. */
export function draftStorageKind(): RecordStore<StoredDraft<unknown>>['kind'] {
  return store.kind;
}
