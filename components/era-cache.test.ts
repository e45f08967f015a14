/**
 * The persistent era cache in a real browser (Chromium's IndexedDB): a verdict
 * survives a "reload" (a new cache instance with an empty memory layer), can be
 * forgotten, and expires. The Node side (no IndexedDB) is in test/era.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { IdbEraCache } from '../src/protocol/era-idb.js';
import { defaultEraCache, MemoryEraCache } from '../src/protocol/era.js';

const key = 'https://legacy.example.test/mcp';

describe('IdbEraCache', () => {
  test('a verdict outlives the instance that stored it, and can be forgotten', async () => {
    const database = `era-test-${crypto.randomUUID()}`;
    await new IdbEraCache({ database }).set(key, 'legacy');
    expect(await new IdbEraCache({ database }).get(key)).toBe('legacy');
    await new IdbEraCache({ database }).delete(key);
    expect(await new IdbEraCache({ database }).get(key)).toBeUndefined();
  });

  test('a verdict older than maxAgeMs is not trusted', async () => {
    const database = `era-test-${crypto.randomUUID()}`;
    await new IdbEraCache({ database }).set(key, 'modern');
    await new Promise((r) => setTimeout(r, 20));
    expect(await new IdbEraCache({ database, maxAgeMs: 10 }).get(key)).toBeUndefined();
    expect(await new IdbEraCache({ database, maxAgeMs: 60_000 }).get(key)).toBe('modern');
  });

  test('the default cache of a page persists', async () => {
    const first = defaultEraCache();
    expect(first).not.toBeInstanceOf(MemoryEraCache);
    const unique = `${key}/${crypto.randomUUID()}`;
    await first.set(unique, 'legacy');
    expect(await defaultEraCache().get(unique)).toBe('legacy');
    await first.delete(unique);
  });
});
