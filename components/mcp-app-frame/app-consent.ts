/**
 * The tools the user chose to "Always allow" for a server when an MCP App asked
 * to call them (`<mcp-app-frame>`'s question): kept in IndexedDB (through
 * `idb-keyval`, database `mcp-web-elements-app-consent`), in memory when the
 * browser refuses IndexedDB. Keyed by the server's endpoint URL and the tool's
 * name, the URL without its credentials (`?token=`, `key=`, `user:password@`)
 * and fragment: a token is never kept at rest, and a bridge restarted with a new
 * token is the same server; never applied to a tool annotated `destructiveHint: true` (those always
 * ask). The page lists and revokes them with {@link alwaysAllowedTools} and
 * {@link revokeAlwaysAllowedTool}.
 *
 * @module
 */
import type { UseStore } from 'idb-keyval';

// idb-keyval is imported when a grant is first read or written, not with this module: the
// elements entry re-exports the functions below, and a page without apps should not download it
// (test/architecture.test.ts).
type IdbKeyval = typeof import('idb-keyval');
let idbModule: Promise<IdbKeyval> | undefined;
import { publicUrl } from '../internal/url-secrets.js';

/** One tool the user always allows apps of a server to call. */
export interface AlwaysAllowedTool {
  /** The server's endpoint URL (`McpClient.url.href` without credentials or fragment). */
  server: string;
  /** The tool's name. */
  tool: string;
  /** When the user allowed it, in ms since the epoch. */
  savedAt: number;
}

let store: UseStore | undefined;
/** Where grants live when IndexedDB fails (blocked, private window): this page only. */
let memory: Map<string, AlwaysAllowedTool> | undefined;
const changes = new EventTarget();

/** The server as grants name it: its URL without credentials and fragment (text that is no URL, as it is). */
function serverOf(server: string): string {
  const url = publicUrl(server);
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

const keyOf = (server: string, tool: string) => JSON.stringify([serverOf(server), tool]);

async function withStore<T>(idb: (store: UseStore, kv: IdbKeyval) => Promise<T>, fallback: (memory: Map<string, AlwaysAllowedTool>) => T): Promise<T> {
  if (!memory) {
    try {
      const kv = await (idbModule ??= import('idb-keyval'));
      store ??= kv.createStore('mcp-web-elements-app-consent', 'grants');
      return await idb(store, kv);
    } catch {
      memory = new Map();
    }
  }
  return fallback(memory);
}

const isGrant = (value: unknown): value is AlwaysAllowedTool =>
  typeof value === 'object' && value !== null && typeof (value as AlwaysAllowedTool).server === 'string' && typeof (value as AlwaysAllowedTool).tool === 'string';

/** Whether the user always allows apps of `server` to call `tool`. */
export async function isToolAlwaysAllowed(server: string, tool: string): Promise<boolean> {
  const key = keyOf(server, tool);
  return withStore(async (s, kv) => isGrant(await kv.get(key, s)), (m) => m.has(key));
}

/** Remembers that the user always allows apps of `server` to call `tool`. */
export async function allowToolAlways(server: string, tool: string): Promise<void> {
  const grant: AlwaysAllowedTool = { server: serverOf(server), tool, savedAt: Date.now() };
  const key = keyOf(server, tool);
  await withStore((s, kv) => kv.set(key, grant, s), (m) => void m.set(key, grant));
  changes.dispatchEvent(new Event('change'));
}

/** Every tool the user always allows, oldest first. */
export async function alwaysAllowedTools(): Promise<AlwaysAllowedTool[]> {
  const all = await withStore(
    async (s, kv) => (await kv.entries(s)).map(([, value]) => value).filter(isGrant),
    (m) => [...m.values()],
  );
  return all.sort((a, b) => a.savedAt - b.savedAt);
}

/** Forgets an "Always allow": the next call of `tool` from an app of `server` asks again. */
export async function revokeAlwaysAllowedTool(server: string, tool: string): Promise<void> {
  const key = keyOf(server, tool);
  await withStore((s, kv) => kv.del(key, s), (m) => void m.delete(key));
  changes.dispatchEvent(new Event('change'));
}

/** Calls `listener` whenever a tool is always allowed or revoked in this page; returns the unsubscribe. */
export function onAlwaysAllowedChange(listener: () => void): () => void {
  changes.addEventListener('change', listener);
  return () => changes.removeEventListener('change', listener);
}
