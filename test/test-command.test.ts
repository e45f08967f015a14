/**
 * `npm test` (scripts/test.mjs) refuses what it does not understand before it
 * installs or runs anything: `npm test unit` or a mistyped `--onyl` used to
 * run every suite (ten minutes and more on a two-core machine).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';

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

/** Every process below `root` (children, their children…), from ps. */
function descendants(root: number): number[] {
  const rows = spawnSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' }).stdout.trim().split('\n').map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  for (let frontier = [root]; frontier.length; ) {
    const next = rows.filter(([, parent]) => frontier.includes(parent)).map(([pid]) => pid);
    found.push(...next);
    frontier = next;
  }
  return found;
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('SIGHUP (a closed terminal) to npm test stops the running suite too: its own process group is not left under init', async () => {
  // typecheck: the longest of the one-check suites (two tsc runs), still running when the stop comes.
  const run = spawn(process.execPath, [script, '--only', 'typecheck'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  run.stdout.on('data', (chunk) => (out += chunk));
  const exited = new Promise<void>((resolve) => run.once('exit', () => resolve()));
  let suite: number[] = [];
  try {
    await vi.waitFor(() => {
      expect(out).toContain('━━ typecheck');
      suite = descendants(run.pid!);
      expect(suite.length).toBeGreaterThan(1); // npm and the tsc it started
    }, { timeout: 30_000, interval: 50 });
    run.kill('SIGHUP');
    await exited;
    // A stop handed on ends them at once; left alone, tsc would run on for many seconds.
    await vi.waitFor(() => expect(suite.filter(alive)).toEqual([]), { timeout: 5_000, interval: 50 });
  } finally {
    // The suite's npm leads its own group (which also holds what it starts later, such as typecheck's second tsc).
    for (const pid of suite) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Not a group leader, or gone.
      }
    }
    run.kill('SIGKILL');
  }
}, 60_000);

test('the summary names each failed test with the first line of its error (CI logs are read from the end)', async () => {
  const { vitestFailures, playwrightFailures } = await import('../scripts/test-failures.mjs');
  const vitest = {
    testResults: [
      { name: '/repo/components/a.test.ts', status: 'failed', assertionResults: [
        { fullName: 'a > passes', status: 'passed', failureMessages: [] },
        { fullName: 'a > fails', status: 'failed', failureMessages: ['\u001b[31mAssertionError: expected 1 to be 0\u001b[39m\n    at stack'] },
      ] },
      { name: '/repo/test/b.test.ts', status: 'failed', message: 'Failed to load url ./missing.js', assertionResults: [] },
      { name: '/repo/test/c.test.ts', status: 'passed', assertionResults: [{ fullName: 'c', status: 'passed', failureMessages: [] }] },
    ],
  };
  expect(vitestFailures(vitest, '/repo')).toEqual([
    'components/a.test.ts › a > fails: AssertionError: expected 1 to be 0',
    'test/b.test.ts: Failed to load url ./missing.js',
  ]);
  const playwright = {
    suites: [{
      title: 'chat.spec.ts', file: 'chat.spec.ts', specs: [],
      suites: [{ title: 'chat', file: 'chat.spec.ts', specs: [
        { title: 'streams', file: 'chat.spec.ts', tests: [{ status: 'unexpected', results: [{ error: { message: 'Error: timed out\n  at x' } }] }] },
        { title: 'ok', file: 'chat.spec.ts', tests: [{ status: 'expected', results: [{}] }] },
        { title: 'retried', file: 'chat.spec.ts', tests: [{ status: 'flaky', results: [{ error: { message: 'first try failed' } }, {}] }] },
      ] }],
    }],
  };
  expect(playwrightFailures(playwright)).toEqual([
    'chat.spec.ts › streams (unexpected): Error: timed out',
    'chat.spec.ts › retried (flaky): first try failed',
  ]);
});

test('the suites run in three phases: the static checks side by side, then unit alone, then e2e streaming with conformance beside it', async () => {
  const { plan } = await import('../scripts/test-plan.mjs');
  // The phases and leads as scripts/test.mjs declares them (read from the file: it runs when imported).
  const source = readFileSync(script, 'utf8');
  const declared = [...source.matchAll(/name: '([\w-]+)',\s*label: '[^']*',(?:\s*browser: true,)?\s*(?:phase: '(\w+)',)?\s*(lead: true,)?/g)].map(([, name, phase, lead]) => ({ name: name!, ...(phase ? { phase } : {}), ...(lead ? { lead: true } : {}) }));
  expect(declared.map((suite) => suite.name)).toEqual(['typecheck', 'lint', 'api-report', 'unit', 'e2e', 'conformance']);
  const phases = plan(declared).map((phase) => ({ suites: phase.suites.map((suite) => suite.name), streamed: phase.streamed?.name }));
  expect(phases).toEqual([
    { suites: ['typecheck', 'lint', 'api-report'], streamed: undefined },
    { suites: ['unit'], streamed: 'unit' },
    { suites: ['e2e', 'conformance'], streamed: 'e2e' },
  ]);
  // --only keeps the phases of what is left; a suite alone streams, as before.
  const only = (names: string[]) => plan(declared.filter((suite) => names.includes(suite.name))).map((phase) => [phase.suites.map((suite) => suite.name), phase.streamed?.name]);
  expect(only(['typecheck'])).toEqual([[['typecheck'], 'typecheck']]);
  expect(only(['conformance', 'lint'])).toEqual([[['lint'], 'lint'], [['conformance'], 'conformance']]);
  expect(only(['typecheck', 'unit', 'conformance'])).toEqual([[['typecheck'], 'typecheck'], [['unit'], 'unit'], [['conformance'], 'conformance']]);
});

test('a suite that ran beside another prints its output as one block, headed by its name, after the stream', async () => {
  const { outputBlock } = await import('../scripts/test-plan.mjs');
  expect(outputBlock('lint', 'a.ts\n  1:1  error  x\n')).toBe('\n━━ lint: output\na.ts\n  1:1  error  x\n');
  // A last line without its newline still ends the block, so the next output starts on a line of its own.
  expect(outputBlock('typecheck', 'src/a.ts(1,1): error TS2322')).toBe('\n━━ typecheck: output\nsrc/a.ts(1,1): error TS2322\n');
  expect(outputBlock('api-report', '')).toBe('\n━━ api-report: output\n');
});

test('SIGHUP while two suites run side by side stops both of them, each with its process group', async () => {
  const run = spawn(process.execPath, [script, '--only', 'typecheck,lint'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  run.stdout.on('data', (chunk) => (out += chunk));
  const exited = new Promise<void>((resolve) => run.once('exit', () => resolve()));
  let suites: number[] = [];
  try {
    await vi.waitFor(() => {
      expect(out).toContain('━━ typecheck: npm run typecheck (beside lint');
      expect(out).toContain('━━ lint: npm run lint (beside typecheck');
      // Two npm processes (one per suite) and what each started.
      const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(run.pid)], { encoding: 'utf8' }).stdout.trim().split(/\s+/).filter(Boolean);
      expect(children.length).toBe(2);
      suites = descendants(run.pid!);
      expect(suites.length).toBeGreaterThan(3);
    }, { timeout: 30_000, interval: 50 });
    run.kill('SIGHUP');
    await exited;
    await vi.waitFor(() => expect(suites.filter(alive)).toEqual([]), { timeout: 5_000, interval: 50 });
  } finally {
    for (const pid of suites) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Not a group leader, or gone.
      }
    }
    run.kill('SIGKILL');
  }
}, 60_000);
