/**
 * Tool-form drafts are stored under the server's URL (IndexedDB and the
 * `sessionStorage` journal): a credential in that URL must not be written.
 */
import { expect, test } from 'vitest';
import { draftKey } from './draft-journal.js';

test('a draft key keeps no credential of the server URL; another token of the same server finds the same draft', () => {
  const key = draftKey('http://bob:pw-77@127.0.0.1:4111/mcp?token=tok-9f2c&tenant=blue', 'edit_note');
  for (const secret of ['tok-9f2c', 'pw-77', 'bob']) expect(key).not.toContain(secret);
  expect(key).toBe(JSON.stringify(['http://127.0.0.1:4111/mcp?tenant=blue', 'edit_note']));
  expect(draftKey('http://127.0.0.1:4111/mcp?tenant=blue&token=rotated', 'edit_note')).toBe(key);
  expect(draftKey('http://127.0.0.1:4111/mcp?tenant=red', 'edit_note')).not.toBe(key);
});
