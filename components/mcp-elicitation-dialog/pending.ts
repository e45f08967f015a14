/**
 * Unanswered input rounds kept in IndexedDB (idb-keyval), so a call survives a
 * reload — a URL-mode detour often reloads the page. One record per call the
 * dialog is asking the user about: the latest interim result and the original
 * request, enough to resume.
 *
 * While a page is still answering a call it holds a Web Lock named after the
 * record, so another open tab of the same app does not offer to resume a call
 * that is alive elsewhere (a second answer would run the tool twice). A reload
 * or a closed tab releases the lock.
 */
import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import type { InputRequiredResult, JsonObject } from '../../src/index.js';

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
  /** When it was saved, in ms since the epoch. */
  savedAt: number;
}

/** Records older than this are not offered again (30 minutes). */
export const PENDING_MAX_AGE_MS = 30 * 60 * 1000;

const PREFIX = 'pending:';
const LOCK_PREFIX = 'mcp-elements-pending:';

let store: UseStore | undefined;
function pendingStore(): UseStore | undefined {
  if (typeof indexedDB === 'undefined') return undefined;
  // One object store per database: idb-keyval creates the store only when it creates the database.
  store ??= createStore('mcp-elements-pending', 'pending-input');
  return store;
}

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
  const s = pendingStore();
  if (s) await set(PREFIX + record.id, record, s).catch(() => {});
}

/**
 * Every stored call for `url` that no live page is answering (with `includeAlive`,
 * those too), newest first. Expired records are deleted on the way.
 */
export async function loadAllPending(url: string, options: { includeAlive?: boolean } = {}): Promise<PendingCall[]> {
  const s = pendingStore();
  if (!s) return [];
  const all = await entries<string, PendingCall>(s).catch(() => [] as [string, PendingCall][]);
  const held = new Set((await locks()?.query().catch(() => undefined))?.held?.map((lock) => lock.name) ?? []);
  const found: PendingCall[] = [];
  for (const [key, record] of all) {
    if (typeof key !== 'string' || !key.startsWith(PREFIX) || record?.url !== url) continue;
    if (Date.now() - record.savedAt > PENDING_MAX_AGE_MS) {
      await del(key, s).catch(() => {});
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
  const s = pendingStore();
  if (s) await del(PREFIX + id, s).catch(() => {});
}

/** Deletes every stored call for `url`, alive or not (tests, "forget everything"). */
export async function clearAllPending(url: string): Promise<void> {
  const s = pendingStore();
  if (!s) return;
  const all = await entries<string, PendingCall>(s).catch(() => [] as [string, PendingCall][]);
  for (const [key, record] of all) if (typeof key === 'string' && key.startsWith(PREFIX) && record?.url === url) await del(key, s).catch(() => {});
}
