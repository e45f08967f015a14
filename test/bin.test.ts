/**
 * The `mcp-web-elements` command (bin/mcp-web-elements.js) in a clone that has not been
 * built: docs/bridge.md's `npx --no mcp-web-elements bridge` must work there too, so the
 * command runs the bridge's source through tsx when dist/ is missing.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..');
// Inside the repository, so that tsx resolves from its node_modules; a fresh folder per run.
mkdirSync(join(root, '.cache'), { recursive: true });
const unbuilt = mkdtempSync(join(root, '.cache', 'unbuilt-'));
afterAll(() => rmSync(unbuilt, { recursive: true, force: true }));

test('without dist/, `mcp-web-elements bridge --help` runs the source and prints the usage', { timeout: 60_000 }, async () => {
  mkdirSync(join(unbuilt, 'bin'));
  copyFileSync(join(root, 'bin', 'mcp-web-elements.js'), join(unbuilt, 'bin', 'mcp-web-elements.js'));
  symlinkSync(join(root, 'bridge'), join(unbuilt, 'bridge'), 'dir');
  const { stdout } = await promisify(execFile)(process.execPath, [join(unbuilt, 'bin', 'mcp-web-elements.js'), 'bridge', '--help'], { timeout: 50_000 });
  expect(stdout).toContain('mcp-web-elements bridge [options] -- <command>');
});
