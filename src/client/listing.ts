/**
 * Following a listing through its pages (spec: server/utilities/pagination),
 * bounded: what `listTools`, `listResources`, `listPrompts`… and `listTasks`
 * share.
 *
 * @module
 */
import { McpClientError } from '../protocol/errors.js';
import { resultChars, type ResultBase } from '../protocol/types.js';
import type { RequestOptions } from '../rounds/options.js';
import { DEFAULT_MAX_CURSOR_BYTES, DEFAULT_MAX_LIST_BYTES, DEFAULT_MAX_LIST_ITEMS, DEFAULT_MAX_PAGES, type McpClientOptions } from './options.js';

/** What a listing needs from its client. */
export interface ListingHost {
  /** The endpoint, for errors. */
  url: string;
  options: Pick<McpClientOptions, 'maxPages' | 'maxListItems' | 'maxCursorBytes' | 'maxListBytes'>;
  /** Fetches one page (from the cache while fresh). */
  page(method: string, params: { cursor?: string }, options: RequestOptions): Promise<ResultBase>;
  warn(code: string, message: string): void;
}

/**
 * A page's JSON length (UTF-16 code units): that of the text it arrived in, which every
 * transport notes as it parses (`resultChars`); a page that came another way is serialised.
 */
const pageLength = (page: object): number => resultChars.get(page) ?? JSON.stringify(page).length;

/** The UTF-8 length of `text`, or some number over `limit` when it is surely longer. */
function utf8Length(text: string, limit: number): number {
  // A UTF-16 code unit is 1 to 3 UTF-8 bytes: only a string near the limit is encoded.
  if (text.length > limit) return text.length;
  if (text.length * 3 <= limit) return text.length;
  return new TextEncoder().encode(text).length;
}

/**
 * Follows `nextCursor` through every page of a list method (spec: server/utilities/pagination).
 * Bounded: stops when a cursor repeats (warning `pagination-stuck`), after
 * `maxListItems` items (the first ones are returned, warning `list-truncated`)
 * and throws `pagination` after `maxPages` pages, `too_large` on a cursor over
 * `maxCursorBytes` or when the pages together pass `maxListBytes` (before the
 * next page is asked for). Repeated items are dropped (one
 * `duplicate-list-item` warning per listing).
 * @param key - the member holding the page's items (`tools`, `resources`…).
 * @param identity - what makes two items the same one (a tool's name, a resource's URI).
 * @param pages - receives every page as it arrives (the tool listing screens them).
 * @throws McpClientError `pagination`, `too_large` (`data.option` names the limit), `protocol` (no `key` array, a non-string cursor).
 */
export async function listAll<T>(host: ListingHost, method: string, key: string, options: RequestOptions, identity: (item: T) => string, pages: object[] = []): Promise<T[]> {
  const maxPages = host.options.maxPages ?? DEFAULT_MAX_PAGES;
  const maxItems = host.options.maxListItems ?? DEFAULT_MAX_LIST_ITEMS;
  const maxCursor = host.options.maxCursorBytes ?? DEFAULT_MAX_CURSOR_BYTES;
  const maxBytes = host.options.maxListBytes ?? DEFAULT_MAX_LIST_BYTES;
  let bytes = 0;
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
    bytes += pageLength(result);
    if (bytes > maxBytes) {
      throw new McpClientError('too_large', `${method} sent more than ${maxBytes} bytes of JSON in ${page + 1} page(s) (see maxListBytes); stopped following it`, {
        url: host.url,
        method,
        limit: maxBytes,
        option: 'maxListBytes',
      });
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
    if (utf8Length(next, maxCursor) > maxCursor) {
      throw new McpClientError('too_large', `nextCursor of ${method} is over ${maxCursor} bytes (${next.length.toLocaleString('en')} characters; see maxCursorBytes); not followed`, {
        url: host.url,
        method,
        limit: maxCursor,
        option: 'maxCursorBytes',
      });
    }
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
