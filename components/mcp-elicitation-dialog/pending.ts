/**
 * Unanswered input rounds, kept so a call survives a reload — a URL-mode
 * detour often reloads the page. One record per call the dialog is asking the
 * user about: the latest interim result, the original request, enough to
 * resume, and what the user had typed so far in each request's form. Kept in
 * IndexedDB, or `sessionStorage`/memory where the browser refuses it (see
 * components/internal/store.ts), with a journal written on `pagehide`.
 *
 * While a page is still answering a call it holds a Web Lock named after the
 * record, so another open tab of the same app does not offer to resume a call
 * that is alive elsewhere (a second answer would run the tool twice). A reload
 * or a closed tab releases the lock.
 */
import type { InputRequiredResult, JsonObject } from '../../src/index.js';
import { RecordStore } from '../internal/store.js';
import type { FieldValue } from './elicitation-form.js';

/** What the user had typed in one request's form (or sampling reply) when the page went away. */
export interface SavedAnswer {
  /** Field values by key. */
  values: [string, FieldValue][];
  /** Number text that could not be sent yet, by key. */
  typed: [string, { text: string; message: string }][];
  /** A sampling reply being written. */
  reply?: string;
}

/** A call that was waiting for input. */
export interface PendingCall {
  /** Identifies the record (one per call). */
  id: string;
  /** The MCP endpoint. */
  url: string;
  /** `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** Tool or prompt name, or resource URI. */
  target: string | undefined;
  /** The original request params. */
  params: JsonObject;
  /** The interim result to answer (its inputRequests and requestState). */
  interim: InputRequiredResult;
  /** What the user had typed, by input request key. */
  answers?: Record<string, SavedAnswer>;
  /** When it was saved, in ms since the epoch. */
  savedAt: number;
}

/** Records older than this are not offered again (30 minutes). */
export const PENDING_MAX_AGE_MS = 30 * 60 * 1000;

const PREFIX = 'pending:';
const LOCK_PREFIX = 'mcp-elements-pending:';

// One object store per database: idb-keyval creates the store only when it creates the database.
const store = new RecordStore<PendingCall>('mcp-elements-pending', 'pending-input');

function locks(): LockManager | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.locks;
}

/**
 * Marks a record as alive in this page until the returned function is called.
 * Without Web Locks (old browsers) nothing is held and every record is offered.
 */
export function holdPending(id: string): () => void {
  const manager = locks();
  if (!manager) return () => {};
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  void manager.request(LOCK_PREFIX + id, () => held).catch(() => {});
  return release;
}

export async function savePending(record: PendingCall): Promise<void> {
  await store.update(PREFIX + record.id, () => record);
}

/** Writes a record to this tab's journal at once (from `pagehide`: a reload may come before the save ends). */
export function journalPending(record: PendingCall): void {
  store.journal(PREFIX + record.id, record);
}

/** Stored records and this tab's journal, the newer of each. */
async function allRecords(): Promise<Map<string, PendingCall>> {
  const found = new Map<string, PendingCall>();
  for (const [key, record] of [...(await store.entries(PREFIX)), ...store.journalEntries(PREFIX)]) {
    const known = found.get(key);
    if (!known || record.savedAt > known.savedAt) found.set(key, record);
  }
  return found;
}

/**
 * Every stored call for `url` that no live page is answering (with `includeAlive`,
 * those too), newest first. Expired records are deleted on the way.
 */
export async function loadAllPending(url: string, options: { includeAlive?: boolean } = {}): Promise<PendingCall[]> {
  const all = await allRecords();
  const held = new Set((await locks()?.query().catch(() => undefined))?.held?.map((lock) => lock.name) ?? []);
  const found: PendingCall[] = [];
  for (const [key, record] of all) {
    if (record?.url !== url) continue;
    if (Date.now() - record.savedAt > PENDING_MAX_AGE_MS) {
      await store.delete(key);
      continue;
    }
    if (options.includeAlive || !held.has(LOCK_PREFIX + record.id)) found.push(record);
  }
  return found.sort((a, b) => b.savedAt - a.savedAt);
}

/** The newest call for `url` that can be resumed here, if any. */
export async function loadPending(url: string): Promise<PendingCall | undefined> {
  return (await loadAllPending(url))[0];
}

export async function clearPending(id: string): Promise<void> {
  await store.delete(PREFIX + id);
}

/** Deletes every stored call for `url`, alive or not (tests, "forget everything"). */
export async function clearAllPending(url: string): Promise<void> {
  for (const [key, record] of await allRecords()) if (record?.url === url) await store.delete(key);
}
