/**
 * The default era cache (IndexedDB) is a chunk loaded on first use. A load that
 * fails (offline for a moment) is a cache miss, not a failed connect, and it is
 * not kept: the next connect loads the chunk again. Found by the review of
 * issue 30's F1 fix (the same kind of fault as the SSE reader's). This file runs
 * in its own page: the chunk has not been loaded before.
 */
import { expect, inject, test } from 'vitest';
import { McpClient } from '../src/index.js';
import { offlineImport } from './test-support/lazy-imports.js';

const chunk = offlineImport(/era-idb/, true);

test('with the era cache\'s chunk offline a client still connects (a miss); back online, the next connect loads the chunk', async () => {
  const first = new McpClient(inject('hostileServerUrl'), { onWarning: () => {} });
  await first.connect();
  expect(first.status).toBe('connected');
  await first.close();
  const failed = chunk.attempts;
  expect(failed).toBeGreaterThanOrEqual(1);

  chunk.offline = false;
  const second = new McpClient(inject('hostileServerUrl'), { onWarning: () => {} });
  await second.connect();
  expect(second.status).toBe('connected');
  expect(chunk.attempts).toBe(failed + 1);
  await second.close();
});
