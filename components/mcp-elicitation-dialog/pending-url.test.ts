/**
 * Calls waiting for input are kept (IndexedDB, the sessionStorage journal) under
 * the server's URL: a credential in that URL must not be written.
 */
import { afterEach, expect, test } from 'vitest';
import { clearAllPending, journalPending, loadAllPending, savePending, type PendingCall } from './pending.js';

const server = 'http://carol:pw-31@127.0.0.1:4111/mcp?token=tok-9f2c&tenant=blue';
const record = (id: string): PendingCall => ({
  id,
  url: server,
  method: 'tools/call',
  target: 'ask',
  params: { name: 'ask' },
  interim: { resultType: 'input_required' } as PendingCall['interim'],
  answers: { q: { values: [], typed: [] } },
  savedAt: Date.now(),
});

afterEach(() => clearAllPending(server));

test('a saved and a journalled call keep no credential of the server URL; another token of the same server finds them', async () => {
  await savePending(record('saved-1'));
  journalPending(record('journal-1'));
  const journal = JSON.stringify(Object.entries(sessionStorage));
  expect(journal).toContain('journal-1');
  const found = await loadAllPending('http://127.0.0.1:4111/mcp?tenant=blue&token=rotated', { includeAlive: true });
  expect(found.map((call) => call.id).sort()).toEqual(['journal-1', 'saved-1']);
  const kept = JSON.stringify(found) + journal;
  for (const secret of ['tok-9f2c', 'pw-31', 'carol']) expect(kept).not.toContain(secret);
  expect(await loadAllPending('http://127.0.0.1:4111/mcp?tenant=red', { includeAlive: true })).toEqual([]);
});
