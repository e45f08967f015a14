/**
 * "Always allow" grants for MCP Apps' tool calls, as kept in IndexedDB: a
 * server URL's credentials (a bridge's `?token=`, `key=`, `user:password@`)
 * are never written, and the grant belongs to the server, not to one token.
 */
import { afterEach, expect, test } from 'vitest';
import { createStore, entries } from 'idb-keyval';
import { allowToolAlways, alwaysAllowedTools, isToolAlwaysAllowed, revokeAlwaysAllowedTool } from './app-consent.js';

const server = 'http://alice:pw-51b@127.0.0.1:4111/mcp?token=tok-9f2c&tenant=blue#frag';

afterEach(async () => {
  for (const grant of await alwaysAllowedTools()) await revokeAlwaysAllowedTool(grant.server, grant.tool);
});

test('a grant keeps no credential of the server URL, in its key or its record', async () => {
  await allowToolAlways(server, 'edit_note');
  const stored = JSON.stringify(await entries(createStore('mcp-web-elements-app-consent', 'grants')));
  expect(stored).toContain('edit_note');
  for (const secret of ['tok-9f2c', 'pw-51b', 'alice', 'frag']) expect(stored).not.toContain(secret);
  expect((await alwaysAllowedTools()).map((g) => g.server)).toEqual(['http://127.0.0.1:4111/mcp?tenant=blue']);
});

test('the grant is the server\'s: another token of the same endpoint finds it and revokes it; another endpoint or tenant does not', async () => {
  await allowToolAlways(server, 'edit_note');
  expect(await isToolAlwaysAllowed('http://127.0.0.1:4111/mcp?tenant=blue&token=rotated', 'edit_note')).toBe(true);
  expect(await isToolAlwaysAllowed('http://127.0.0.1:4111/mcp?tenant=red&token=tok-9f2c', 'edit_note')).toBe(false);
  expect(await isToolAlwaysAllowed('http://127.0.0.1:4112/mcp?tenant=blue', 'edit_note')).toBe(false);
  expect(await isToolAlwaysAllowed('http://127.0.0.1:4111/mcp?tenant=blue', 'Edit_note')).toBe(false);
  await revokeAlwaysAllowedTool('http://127.0.0.1:4111/mcp?token=other&tenant=blue', 'edit_note');
  expect(await isToolAlwaysAllowed(server, 'edit_note')).toBe(false);
});
