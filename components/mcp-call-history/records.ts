/**
 * What `<mcp-call-history>` keeps: one record per call, prompt get and
 * resource read, stored per server (IndexedDB through the kit's
 * `RecordStore`, with its fallbacks) and capped, newest first.
 *
 * @module
 */
import { stringifyBounded } from '../internal/json.js';
import { RecordStore, type StoredRecord } from '../internal/store.js';
import type { CallRecord } from './types.js';

export type { CallKind, CallOutcome, CallRecord } from './types.js';

/** The stored list of one server. */
interface ServerHistory extends StoredRecord {
  calls: CallRecord[];
}

/** The JSON text of a result kept at most (a 50 MB resource read is listed, not stored). */
export const RESULT_CHARS = 200_000;

/** `result` as a record keeps it: itself, or omitted when its JSON is longer than RESULT_CHARS. */
export function keptResult(result: unknown): Pick<CallRecord, 'result' | 'resultOmitted'> {
  const { truncated } = stringifyBounded(result, RESULT_CHARS);
  return truncated ? { resultOmitted: true } : { result };
}

let store: RecordStore<ServerHistory> | undefined;
const historyStore = () => (store ??= new RecordStore<ServerHistory>('mcp-web-elements-history', 'calls'));

/** The records of `server`, newest first (empty when nothing is stored or storage is unavailable). */
export async function loadCalls(server: string): Promise<CallRecord[]> {
  const stored = await historyStore().get(server);
  return Array.isArray(stored?.calls) ? stored.calls.filter((c) => typeof c?.id === 'string' && typeof c.name === 'string') : [];
}

/**
 * Adds `record` (or replaces the one with its id) at the front of `server`'s
 * list, keeping the newest `limit`. Resolves with the stored list.
 */
export async function saveCall(server: string, record: CallRecord, limit: number): Promise<CallRecord[]> {
  const after = await historyStore().update(server, (stored) => {
    const calls = (stored?.calls ?? []).filter((c) => c.id !== record.id);
    const at = stored?.calls.findIndex((c) => c.id === record.id) ?? -1;
    // A finished call stays where it started; a new one goes first.
    if (at >= 0) calls.splice(at, 0, record);
    else calls.unshift(record);
    return { savedAt: Date.now(), calls: calls.slice(0, Math.max(1, limit)) };
  });
  return after?.calls ?? [];
}

/** Forgets `server`'s history. */
export async function clearCalls(server: string): Promise<void> {
  await historyStore().delete(server);
}

/** A one-line summary of arguments: `city: "Lisbon", days: 3`, cut at `max` characters. */
export function summarize(args: Record<string, unknown>, max = 120): string {
  const parts: string[] = [];
  let length = 0;
  for (const [key, value] of Object.entries(args)) {
    const text = `${key}: ${stringifyBounded(value, max).text.replace(/\n\s*/g, " ")}`;
    parts.push(text);
    length += text.length + 2;
    if (length > max) break;
  }
  const line = parts.join(', ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
