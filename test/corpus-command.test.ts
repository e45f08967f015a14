/**
 * `npm run corpus` (scripts/corpus.ts) with one validator or several: CI asks for
 * `--validator ajv,cfworker` and gets both reports from one process, each as the
 * one-validator run prints it. Node only (`--no-browser`): the Chromium half is
 * what the corpus run itself exercises.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..');
const corpus = mkdtempSync(join(tmpdir(), 'corpus-command-'));
afterAll(() => rmSync(corpus, { recursive: true, force: true }));
writeFileSync(join(corpus, 'tiny.json'), JSON.stringify({
  tools: [
    { name: 'weather', inputSchema: { type: 'object', properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1, maximum: 7 } }, required: ['city'] } },
    { name: 'tagged', inputSchema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } } } } },
  ],
}));

const corpusRun = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/corpus.ts', corpus, '--no-browser', ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
/** The report without its timings (ms columns and "slowest model" change from run to run). */
const steady = (report: string) => report.replace(/\s+\d+\s*$/gm, '').replace(/slowest model \d+ ms/, 'slowest model … ms');

test('--validator ajv,cfworker prints each validator\'s report, the second the same as a run with that validator alone', () => {
  const both = corpusRun('--validator', 'ajv,cfworker', '--json', join(corpus, 'out', 'both.json'));
  expect(both.stderr).not.toMatch(/Error/);
  expect(both.status).toBe(0);
  const [before, ajvPart, cfworkerPart] = both.stdout.split(/^━━ Validator: .*$/m);
  expect(before!.trim()).toBe('');
  expect(both.stdout.match(/^━━ Validator: .*$/gm)).toEqual(['━━ Validator: ajv', '━━ Validator: cfworker (useSchemaCompiler)']);
  // The second report, after the switch from ajv, is what cfworker alone says (one run fewer: the first
  // is the default state, the path every run without --validator takes).
  const cfworker = corpusRun('--validator', 'cfworker');
  expect(cfworker.status).toBe(0);
  expect(steady(cfworkerPart!.trim())).toBe(steady(cfworker.stdout.trim()));
  for (const part of [ajvPart!, cfworkerPart!]) {
    expect(part).toContain('Corpus: 2 tools from 1 servers');
    expect(part).toContain('Fill every member with samples → validator accepts: 2/2');
  }
  // --json: one entry per validator.
  const written = JSON.parse(readFileSync(join(corpus, 'out', 'both.json'), 'utf8')) as { runs: { validator: string; reports: unknown[] }[] };
  expect(written.runs.map((run) => [run.validator, run.reports.length])).toEqual([['ajv', 2], ['cfworker', 2]]);
}, 300_000);

test('an unknown validator in the list is refused before any work, naming the choices', () => {
  const run = corpusRun('--validator', 'ajv,zod');
  expect(run.status).not.toBe(0);
  expect(run.stderr).toContain('Unknown --validator zod: the choices are ajv (the default) and cfworker, or both as ajv,cfworker');
  expect(run.stdout).not.toContain('Corpus:');
});
