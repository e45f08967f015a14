/**
 * The synchronous side of tool-form drafts (see `drafts.ts`): the record's
 * key and shape, and this tab's journal, written from `pagehide` and
 * `visibilitychange`. A form imports this at once and `drafts.ts` (IndexedDB
 * through idb-keyval) when it connects: input typed before that has arrived
 * still survives a reload.
 *
 * @module
 */
import type { StoredRecord } from './store.js';
import { clearJournal, writeJournal } from './journal.js';
import { publicUrl } from './url-secrets.js';

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

/** The IndexedDB database of drafts (and the prefix of their `sessionStorage` keys). */
export const DRAFTS_DB = 'mcp-web-elements-tool-drafts';

/** This page: one load of one tab. */
export const WRITER = crypto.randomUUID();

/**
 * The storage key of a tool's draft: the server's URL without its credentials
 * (`?token=`, `key=`, `user:password@`: the key is written to IndexedDB and
 * `sessionStorage`, and a bridge restarted with a new token is the same server)
 * plus the tool name.
 */
export function draftKey(serverUrl: string, toolName: string): string {
  return JSON.stringify([publicUrl(serverUrl), toolName]);
}

/** The revision of a stored record (old records have none). */
export function revisionOf(record: StoredDraft<unknown> | undefined): string {
  return record ? (record.rev ?? `v1:${record.savedAt}`) : '';
}

/**
 * Writes a draft that is not stored yet to this tab's journal, synchronously
 * (from `pagehide`/`visibilitychange`): it survives a reload that comes before
 * the asynchronous save finished.
 */
export function journalDraft<T>(key: string, draft: T | undefined, base: string): void {
  if (draft === undefined) clearJournal(DRAFTS_DB, key);
  else writeJournal(DRAFTS_DB, key, { v: 2, savedAt: Date.now(), writer: WRITER, base, draft });
}
