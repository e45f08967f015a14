/**
 * `npm test` (scripts/test.mjs) refuses what it does not understand before it
 * installs or runs anything: `npm test unit` or a mistyped `--onyl` used to
 * run every suite (ten minutes and more on a two-core machine).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const script = join(import.meta.dirname, '..', 'scripts', 'test.mjs');
const runWith = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', timeout: 30_000 });

test.each([[['unit']], [['--onyl', 'unit']], [['--only', 'unit', 'e2e']]])('npm test %j exits 2 with the usage, running no suite', (args) => {
  const run = runWith(...args);
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/unknown argument.*--only <suites>/);
  expect(run.stdout).not.toContain('━━');
});

test('an unknown suite name after --only exits 2 and lists the names', () => {
  const run = runWith('--only', 'unit,e2ee');
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/unknown: e2ee/);
  expect(run.stderr).toContain('typecheck, lint, api-report, unit, e2e, conformance');
});
