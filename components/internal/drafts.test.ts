/**
 * Draft storage in a real browser (IndexedDB, sessionStorage): input that
 * reaches the tab's journal while an earlier draft is being written (typing,
 * then the page leaving) is not cleared by that write, which carries less.
 */
import { expect, test } from 'vitest';
import { journalDraft, loadDraft, saveDraft } from './drafts.js';

test('a journal written while an older draft is being stored survives that write; the next write clears it', async () => {
  const key = `journal-race-${crypto.randomUUID()}`;
  const writing = saveDraft(key, { title: 'half done' }, '');
  // The page leaves before the write is done: the newer input goes to the journal synchronously.
  journalDraft(key, { title: 'half done', n: 7 }, '');
  const first = await writing;
  expect(first.saved).toBe(true);
  const read = await loadDraft<{ title: string; n?: number }>(key);
  expect(read.stored?.draft).toEqual({ title: 'half done' });
  expect(read.journal?.draft).toEqual({ title: 'half done', n: 7 });
  // The write that carries it supersedes the journal.
  await saveDraft(key, { title: 'half done', n: 7 }, first.saved ? first.rev : '');
  const after = await loadDraft<{ title: string; n?: number }>(key);
  expect(after.stored?.draft).toEqual({ title: 'half done', n: 7 });
  expect(after.journal).toBeUndefined();
});
