/**
 * Unanswered input rounds kept in IndexedDB (idb-keyval), so a call survives a
 * reload — a URL-mode detour often reloads the page. One record per server URL:
 * the latest interim result and the original request, enough to resume.
 */
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { InputRequiredResult, JsonObject } from '../../src/index.js';

/** A call that was waiting for input. */
export interface PendingCall {
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

let store: UseStore | undefined;
function pendingStore(): UseStore | undefined {
  if (typeof indexedDB === 'undefined') return undefined;
  // One object store per database: idb-keyval creates the store only when it creates the database.
  store ??= createStore('mcp-elements-pending', 'pending-input');
  return store;
}

const key = (url: string) => `pending:${url}`;

export async function savePending(record: PendingCall): Promise<void> {
  const s = pendingStore();
  if (s) await set(key(record.url), record, s).catch(() => {});
}

export async function loadPending(url: string): Promise<PendingCall | undefined> {
  const s = pendingStore();
  if (!s) return undefined;
  const record = (await get<PendingCall>(key(url), s).catch(() => undefined)) ?? undefined;
  if (!record) return undefined;
  if (Date.now() - record.savedAt > PENDING_MAX_AGE_MS) {
    await clearPending(url);
    return undefined;
  }
  return record;
}

export async function clearPending(url: string): Promise<void> {
  const s = pendingStore();
  if (s) await del(key(url), s).catch(() => {});
}
