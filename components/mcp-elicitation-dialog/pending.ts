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
import { publicUrl } from '../internal/url-secrets.js';
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
  /** The MCP endpoint, stored without its credentials (`?token=`, `key=`, `user:password@`). */
  url: string;
  /** `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** Tool or prompt name, or resource URI. */
  target: string | undefined;
  /** The original request params. */
  params: JsonObject;
  /** The interim result to answer (its inputRequests and requestState). */
  interim: InputRequiredResult;
  /** What the user had typed, by input request key (stored apart: it changes on every keystroke, the rest once a round). */
  answers?: Record<string, SavedAnswer>;
  /** When it was saved, in ms since the epoch. */
  savedAt: number;
}

/** Records older than this are not offered again (30 minutes). */
export const PENDING_MAX_AGE_MS = 30 * 60 * 1000;

const PREFIX = 'pending:';
const ANSWERS = 'answers:';

/** The answers typed for one call, stored beside its record. */
interface StoredAnswers {
  id: string;
  answers: Record<string, SavedAnswer>;
  savedAt: number;
}
const LOCK_PREFIX = 'mcp-web-elements-pending:';

// One object store per database: idb-keyval creates the store only when it creates the database.
const store = new RecordStore<PendingCall | StoredAnswers>('mcp-web-elements-pending', 'pending-input');

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

/** The record as kept: a server URL's credentials are never written (a bridge's new token still finds its calls). */
const withPublicUrl = (record: PendingCall): PendingCall => ({ ...record, url: publicUrl(record.url) });

/** Stores a call's record (without its answers: see {@link saveAnswers}). */
export async function savePending(record: PendingCall): Promise<void> {
  const { answers, ...call } = withPublicUrl(record);
  await store.update(PREFIX + record.id, () => call);
  if (answers) await saveAnswers(record.id, answers);
}

/** Stores what the user typed for a call: small, written on every change. */
export async function saveAnswers(id: string, answers: Record<string, SavedAnswer>): Promise<void> {
  await store.update(ANSWERS + id, () => ({ id, answers, savedAt: Date.now() }));
}

/**
 * Writes a call's answers, and its record unless it is stored already (it may
 * be large; it is written when it fits), to this tab's journal at once (from
 * `pagehide`: a reload may come before the saves end).
 */
export function journalPending(record: PendingCall, withCall = true): void {
  const { answers, ...call } = withPublicUrl(record);
  if (answers) store.journal(ANSWERS + record.id, { id: record.id, answers, savedAt: Date.now() });
  if (withCall) store.journal(PREFIX + record.id, call);
}

/** Stored records and this tab's journal, the newer of each, keyed as stored. */
async function allRecords(prefix: string): Promise<Map<string, PendingCall | StoredAnswers>> {
  const found = new Map(await store.entries(prefix));
  // The journal was written last (on pagehide), so it wins a tie: two keystrokes may share a millisecond.
  for (const [key, record] of store.journalEntries(prefix)) {
    const known = found.get(key);
    if (!known || record.savedAt >= known.savedAt) found.set(key, record);
  }
  return found;
}

/** Every stored call with its answers, keyed as stored. */
async function allCalls(): Promise<Map<string, PendingCall>> {
  const calls = (await allRecords(PREFIX)) as Map<string, PendingCall>;
  const answers = (await allRecords(ANSWERS)) as Map<string, StoredAnswers>;
  for (const [key, call] of calls) {
    const typed = answers.get(ANSWERS + call.id);
    if (typed) calls.set(key, { ...call, answers: typed.answers });
  }
  return calls;
}

/**
 * Every stored call for `url` that no live page is answering (with `includeAlive`,
 * those too), newest first. Expired records are deleted on the way.
 */
export async function loadAllPending(url: string, options: { includeAlive?: boolean } = {}): Promise<PendingCall[]> {
  const all = await allCalls();
  url = publicUrl(url);
  const held = new Set((await locks()?.query().catch(() => undefined))?.held?.map((lock) => lock.name) ?? []);
  const found: PendingCall[] = [];
  for (const record of all.values()) {
    if (record?.url !== url) continue;
    if (Date.now() - record.savedAt > PENDING_MAX_AGE_MS) {
      await clearPending(record.id);
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
  await store.delete(ANSWERS + id);
}

/** Deletes every stored call for `url`, alive or not (tests, "forget everything"). */
export async function clearAllPending(url: string): Promise<void> {
  const server = publicUrl(url);
  for (const record of (await allCalls()).values()) if (record?.url === server) await clearPending(record.id);
}
