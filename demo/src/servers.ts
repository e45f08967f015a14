/**
 * The playground's saved servers, in IndexedDB (`idb-keyval`, a database of
 * its own): name, URL, era, last use and settings of the servers used, newest
 * first. Custom headers and the bearer token are stored only for servers whose
 * user ticked "Remember", and removed again when it is unticked; they are never
 * put in the page's URL.
 */
import { createStore, get, set, type UseStore } from 'idb-keyval';
import type { ProtocolPreference } from '../../src/index.js';

/** One saved server. Times in ms. */
export interface SavedServer {
  url: string;
  /** The user's name for it, else the server's own. */
  name: string;
  /** The era chosen (`auto`, `modern`, `legacy`). */
  protocol: ProtocolPreference;
  /** What was detected the last time: `modern · 2026-07-28`. */
  detected?: string;
  lastUsed: number;
  requestTimeoutMs?: number;
  maxTotalTimeoutMs?: number;
  /** Whether the credentials below are kept. */
  remember: boolean;
  headers?: [string, string][];
  token?: string;
}

/** How many servers the history keeps. */
const MAX_SERVERS = 30;
const KEY = 'servers-v1';

let store: UseStore | undefined;
const serverStore = () => (store ??= createStore('mcp-web-elements-playground', 'servers'));

/** The saved servers, newest first (empty when storage is unavailable). */
export async function loadServers(): Promise<SavedServer[]> {
  try {
    const saved = (await get(KEY, serverStore())) as SavedServer[] | undefined;
    return Array.isArray(saved) ? saved.filter((s) => typeof s?.url === 'string') : [];
  } catch {
    return [];
  }
}

async function save(list: SavedServer[]): Promise<void> {
  try {
    await set(KEY, list.slice(0, MAX_SERVERS), serverStore());
  } catch {
    // A history that cannot be stored is a lost convenience, not an error.
  }
}

/** Records a use of a server: moved to the front; credentials kept only when `remember`. */
export async function rememberServer(entry: SavedServer): Promise<SavedServer[]> {
  const list = (await loadServers()).filter((s) => s.url !== entry.url);
  const { headers, token, ...rest } = entry;
  const record: SavedServer = entry.remember ? { ...rest, ...(headers?.length ? { headers } : {}), ...(token ? { token } : {}) } : rest;
  list.unshift(record);
  await save(list);
  return list;
}

/** Removes a server (and whatever was kept for it). */
export async function forgetServer(url: string): Promise<SavedServer[]> {
  const list = (await loadServers()).filter((s) => s.url !== url);
  await save(list);
  return list;
}
