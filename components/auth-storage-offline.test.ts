/**
 * OAuth's default storage loads idb-keyval on first use. A load that fails
 * (offline for a moment) fails that call only: the next one loads it again.
 * Found by the review of issue 30's F1 fix (the same kind of fault as the SSE
 * reader's). This file runs in its own page: idb-keyval has not been loaded before.
 */
import { expect, test } from 'vitest';
import { IndexedDbAuthStorage } from '../src/auth/storage.js';
import { offlineImport } from './test-support/lazy-imports.js';

const chunk = offlineImport(/idb-keyval/, true);

test('a read while idb-keyval cannot be loaded fails; back online, the same storage loads it and reads and writes', async () => {
  const storage = new IndexedDbAuthStorage(`auth-offline-${crypto.randomUUID()}`);
  await expect(storage.get('tokens')).rejects.toThrow('Failed to fetch dynamically imported module (test: offline)');
  const failed = chunk.attempts;
  expect(failed).toBe(1);

  chunk.offline = false;
  expect(await storage.get('tokens')).toBeUndefined();
  await storage.set('tokens', { access: 'a1' });
  expect(await storage.get('tokens')).toEqual({ access: 'a1' });
  expect(chunk.attempts).toBe(failed + 1);
});
