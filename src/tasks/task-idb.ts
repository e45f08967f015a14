/**
 * Task handles in IndexedDB (`idb-keyval`), so a reloaded or crashed page can
 * pick up the result of a long-running call (Tasks extension "Task Polling":
 * clients should persist task ids). One record per server URL, authorization
 * context and task id. Loaded by `./tasks.ts` in browsers.
 *
 * @module
 */
import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import { storeKey } from './store.js';
import type { StoredTask, TaskStore } from './task-types.js';

/**
 * {@link TaskStore} in IndexedDB. Storage failures (private mode, quota, a
 * blocked database) are swallowed: a handle that cannot be kept only loses the
 * pick-up after a reload.
 */
export class IdbTaskStore implements TaskStore {
  #store: UseStore | undefined;

  /** @param database - IndexedDB database name; default `mcp-web-elements-tasks` (idb-keyval creates one object store per database). */
  constructor(readonly database = 'mcp-web-elements-tasks') {}

  #use(): UseStore {
    this.#store ??= createStore(this.database, 'tasks');
    return this.#store;
  }

  async put(record: StoredTask): Promise<void> {
    await set(storeKey(record), { v: 1, ...record }, this.#use()).catch(() => {});
  }

  async delete(record: Pick<StoredTask, 'url' | 'auth' | 'taskId'>): Promise<void> {
    await del(storeKey(record), this.#use()).catch(() => {});
  }

  async list(url: string, auth: string | undefined): Promise<StoredTask[]> {
    const all = await entries<string, StoredTask & { v?: number }>(this.#use()).catch(() => [] as [string, StoredTask & { v?: number }][]);
    return all
      .map(([, record]) => record)
      .filter((record) => record?.v === 1 && record.url === url && record.auth === auth && typeof record.taskId === 'string')
      .map(({ v: _version, ...record }) => record);
  }
}
