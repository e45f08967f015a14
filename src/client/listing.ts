/**
 * Following a listing through its pages (spec: server/utilities/pagination),
 * bounded: what `listTools`, `listResources`, `listPrompts`… and `listTasks`
 * share.
 *
 * @module
 */
import { McpClientError } from '../protocol/errors.js';
import type { ResultBase } from '../protocol/types.js';
import type { RequestOptions } from '../rounds/options.js';
import { DEFAULT_MAX_LIST_ITEMS, DEFAULT_MAX_PAGES, type McpClientOptions } from './options.js';

/** What a listing needs from its client. */
export interface ListingHost {
  /** The endpoint, for errors. */
  url: string;
  options: Pick<McpClientOptions, 'maxPages' | 'maxListItems'>;
  /** Fetches one page (from the cache while fresh). */
  page(method: string, params: { cursor?: string }, options: RequestOptions): Promise<ResultBase>;
  warn(code: string, message: string): void;
}

/**
 * Follows `nextCursor` through every page of a list method (spec: server/utilities/pagination).
 * Bounded: stops when a cursor repeats (warning `pagination-stuck`), after
 * `maxListItems` items (the first ones are returned, warning `list-truncated`)
 * and throws `pagination` after `maxPages` pages. Repeated items are dropped
 * (one `duplicate-list-item` warning per listing).
 * @param key - the member holding the page's items (`tools`, `resources`…).
 * @param identity - what makes two items the same one (a tool's name, a resource's URI).
 * @param pages - receives every page as it arrives (the tool listing screens them).
 * @throws McpClientError `pagination`, `protocol` (no `key` array, a non-string cursor).
 */
export async function listAll<T>(host: ListingHost, method: string, key: string, options: RequestOptions, identity: (item: T) => string, pages: object[] = []): Promise<T[]> {
  const maxPages = host.options.maxPages ?? DEFAULT_MAX_PAGES;
  const maxItems = host.options.maxListItems ?? DEFAULT_MAX_LIST_ITEMS;
  const items: T[] = [];
  const seenItems = new Set<string>();
  const seenCursors = new Set<string>();
  let repeats = 0;
  let first = '';
  let cursor: string | undefined;
  const done = (truncated?: boolean) => {
    if (truncated) host.warn('list-truncated', `${method} listed over ${maxItems} items; kept the first ${maxItems} (see maxListItems)`);
    // One warning per listing: a server repeating an item a million times must not print a million lines.
    if (repeats) host.warn('duplicate-list-item', `${method} repeated items ${repeats} time(s) (first ${JSON.stringify(first)}); kept the first of each`);
    return items;
  };
  for (let page = 0; page < maxPages; page++) {
    const result = await host.page(method, cursor === undefined ? {} : { cursor }, options);
    pages.push(result);
    const list = result[key];
    if (!Array.isArray(list)) {
      throw new McpClientError('protocol', `The ${method} result has no "${key}" array`, { url: host.url, method });
    }
    for (const item of list as T[]) {
      const id = identity(item);
      if (seenItems.has(id)) {
        if (!repeats++) first = id;
      } else if (items.length === maxItems) return done(true);
      else {
        seenItems.add(id);
        items.push(item);
      }
    }
    const next = result.nextCursor;
    if (next === undefined || next === null) return done();
    if (typeof next !== 'string') throw new McpClientError('protocol', `nextCursor of ${method} is not a string`, { url: host.url, method });
    // Cursors are opaque ("" included); only a repeat tells us the server is stuck.
    if (next === cursor || seenCursors.has(next)) {
      host.warn('pagination-stuck', `${method} returned cursor ${JSON.stringify(next)} again; stopped following it`);
      return done();
    }
    if (items.length === maxItems) return done(true);
    seenCursors.add(next);
    cursor = next;
  }
  throw new McpClientError('pagination', `${method} did not finish within ${maxPages} pages`, { url: host.url, method, maxPages });
}
