/**
 * Where task handles are kept between page loads: the key of a record
 * (endpoint, authorization context, task id) and the store used where there
 * is no IndexedDB. The IndexedDB store (`./task-idb.ts`) uses the same key.
 *
 * @module
 */
import type { StoredTask, TaskStore } from './task-types.js';

/** Task handles in memory: the default where there is no IndexedDB (Node, some workers). */
export class MemoryTaskStore implements TaskStore {
  readonly #records = new Map<string, StoredTask>();
  async put(record: StoredTask): Promise<void> {
    this.#records.set(storeKey(record), structuredClone(record));
  }
  async delete(record: Pick<StoredTask, 'url' | 'auth' | 'taskId'>): Promise<void> {
    this.#records.delete(storeKey(record));
  }
  async list(url: string, auth: string | undefined): Promise<StoredTask[]> {
    return [...this.#records.values()].filter((r) => r.url === url && r.auth === auth).map((r) => structuredClone(r));
  }
}

/** The key of a record: endpoint, authorization context and task id. */
export function storeKey(record: Pick<StoredTask, 'url' | 'auth' | 'taskId'>): string {
  return JSON.stringify([record.url, record.auth ?? null, record.taskId]);
}
