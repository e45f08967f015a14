#!/usr/bin/env node
/**
 * `npm test`: every suite of the project, each run even when an earlier one
 * failed (a type error should not hide what the browser tests would say), then
 * one table: suite, status, tests passed and failed, time. Exits non-zero when
 * any suite failed. Some suites run side by side (scripts/test-plan.mjs says
 * which and why): one of them streams its output as it comes, the others print
 * theirs as one block when they end.
 *
 * On a fresh clone it first installs the dependencies (`npm ci`, or
 * `npm install` without a lock file) and finds a Chromium for the browser
 * tests: `CHROMIUM_PATH`, else the system's /usr/bin/chromium (what
 * scripts/browser.ts hands the test configs), else Playwright's own, downloaded
 * with `npx playwright install chromium` when it is missing and the network
 * allows; else one line says how to get one, and the suites run anyway.
 *
 *   npm test                        # everything
 *   npm test -- --only unit,e2e     # some suites (names as in the table)
 *
 * Only Node built-ins are imported at the top: this runs before node_modules exists.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { playwrightFailures, vitestFailures } from './test-failures.mjs';
import { outputBlock, plan } from './test-plan.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const scratch = mkdtempSync(join(tmpdir(), 'mcp-web-elements-test-'));

/** Counts from a run's exit code alone: a suite that is one check. */
const oneCheck = (code) => ({ passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 });

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The suites of `npm test`, in the order of the table (the order they ran in as one `&&` chain);
 * `phase` and `lead`: which run side by side, and which of those streams (scripts/test-plan.mjs).
 */
const suites = [
  { name: 'typecheck', label: 'npm run typecheck', phase: 'static', args: ['run', '-s', 'typecheck'], counts: oneCheck },
  { name: 'lint', label: 'npm run lint', phase: 'static', args: ['run', '-s', 'lint'], counts: oneCheck },
  { name: 'api-report', label: 'npm run api-report -- --check', phase: 'static', args: ['run', '-s', 'api-report', '--', '--check'], counts: oneCheck },
  {
    name: 'unit',
    label: 'npm run test:unit',
    browser: true,
    // The default reporter streams; the JSON one, to a file, gives the counts.
    args: ['run', '-s', 'test:unit', '--', '--reporter=default', '--reporter=json', `--outputFile.json=${join(scratch, 'vitest.json')}`],
    counts: (code) => {
      const report = readJson(join(scratch, 'vitest.json'));
      if (!report) return oneCheck(code);
      return { passed: report.numPassedTests, failed: report.numFailedTests + filesFailedWithoutATest(report), names: vitestFailures(report, root) };
    },
  },
  {
    name: 'e2e',
    label: 'npm run test:e2e',
    browser: true,
    phase: 'browser',
    lead: true,
    args: ['run', '-s', 'test:e2e', '--', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: join(scratch, 'playwright.json') },
    counts: (code) => {
      const report = readJson(join(scratch, 'playwright.json'));
      const stats = report?.stats;
      if (!stats) return oneCheck(code);
      // A test that failed, then passed on a retry, counts as failed (the config has no retries).
      return { passed: stats.expected, failed: stats.unexpected + stats.flaky, names: playwrightFailures(report) };
    },
  },
  {
    name: 'conformance',
    label: 'npm run conformance',
    phase: 'browser',
    args: ['run', '-s', 'conformance'],
    // Its counts come from its output, streamed or not.
    capture: true,
    // Scenarios, from each requirement set's summary line; the suite fails only on expected ones.
    counts: (code, output) => {
      const sets = [...output.matchAll(/^conformance \S+: (\d+)\/(\d+) scored scenarios passed/gm)];
      if (sets.length === 0) return oneCheck(code);
      const passed = sets.reduce((sum, m) => sum + Number(m[1]), 0);
      return { passed, failed: sets.reduce((sum, m) => sum + Number(m[2]), 0) - passed };
    },
  },
];

/** Test files that failed with no test failing (one that did not load, a failing hook): one each. */
function filesFailedWithoutATest(report) {
  return (report.testResults ?? []).filter((file) => file.status === 'failed' && !file.assertionResults?.some((test) => test.status === 'failed')).length;
}

function parseOnly(argv) {
  const index = argv.findIndex((arg) => arg === '--only' || arg.startsWith('--only='));
  if (index < 0) return undefined;
  const value = argv[index].includes('=') ? argv[index].slice('--only='.length) : argv[index + 1];
  const names = (value ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !suites.some((suite) => suite.name === name));
  if (names.length === 0 || unknown.length > 0) {
    console.error(`test: --only takes suite names, comma-separated: ${suites.map((suite) => suite.name).join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
    process.exit(2);
  }
  return names;
}

const args = process.argv.slice(2);
// Anything but --only is a mistake (a typo, or `npm test unit` meant as --only): say so rather than run every suite for ten minutes.
const stray = args.filter((arg, i) => !(arg === '--only' || arg.startsWith('--only=') || (args[i - 1] === '--only' && !arg.startsWith('--only'))));
if (stray.length > 0) {
  console.error(`test: unknown argument${stray.length > 1 ? 's' : ''} ${stray.join(' ')}; the one option is --only <suites> (npm test -- --only unit,e2e; the -- is needed, or npm keeps the option): ${suites.map((suite) => suite.name).join(', ')}`);
  process.exit(2);
}
const only = parseOnly(args);
const selected = only ? suites.filter((suite) => only.includes(suite.name)) : suites;

/** Installs the dependencies when the checkout has none (or lacks a tool the suites run). */
function ensureDependencies() {
  const tools = ['tsc', 'eslint', 'vitest', 'playwright', 'tsx'];
  if (tools.every((tool) => existsSync(join(root, 'node_modules', '.bin', tool)))) return;
  // npm ci starts from an empty node_modules: right for a fresh clone, and what CI did before.
  const command = existsSync(join(root, 'package-lock.json')) && !existsSync(join(root, 'node_modules')) ? ['ci'] : ['install'];
  console.log(`test: installing dependencies (npm ${command[0]})…`);
  const install = spawnSync(npm, [...command, '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (install.status !== 0) {
    console.error(`test: npm ${command[0]} failed (exit ${install.status}); nothing was tested.`);
    process.exit(install.status || 1);
  }
}

/** Whether Playwright's own Chromium launches (headless, as the configs launch it). */
function playwrightChromiumLaunches() {
  const probe = spawnSync(process.execPath, ['--input-type=module', '-e', `
    import { chromium } from 'playwright';
    const browser = await chromium.launch({ headless: true, args: ['--no-sandbox'] });
    await browser.close();
  `], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return probe.status === 0;
}

/**
 * The Chromium the browser suites will use, as scripts/browser.ts picks it; Playwright's own is
 * downloaded when nothing else is there. Returns a line for the summary when none was found.
 */
function ensureChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return undefined;
    return `CHROMIUM_PATH is ${fromEnv}, which does not exist: point it at a Chromium, or unset it and run npx playwright install chromium`;
  }
  if (existsSync('/usr/bin/chromium')) return undefined;
  if (playwrightChromiumLaunches()) return undefined;
  console.log('test: no system Chromium (/usr/bin/chromium, CHROMIUM_PATH); downloading Playwright\'s (npx playwright install chromium)…');
  const install = spawnSync(npx, ['--no', 'playwright', 'install', 'chromium'], { cwd: root, stdio: 'inherit' });
  if (install.status === 0 && playwrightChromiumLaunches()) return undefined;
  return 'No Chromium for the browser tests: install one with `npx playwright install chromium` (or the system\'s chromium package, or set CHROMIUM_PATH)';
}

/**
 * Runs one suite. Streamed: its output goes out as it comes. Kept (it runs beside a streamed
 * one): stdout and stderr are kept, in the order they came, and printed as one block at its end.
 */
function run(suite, streamed) {
  return new Promise((resolveRun) => {
    const started = Date.now();
    let output = '';
    let kept = '';
    const child = spawn(npm, suite.args, {
      cwd: root,
      env: { ...process.env, ...suite.env },
      stdio: ['ignore', streamed && !suite.capture ? 'inherit' : 'pipe', streamed ? 'inherit' : 'pipe'],
      // Its own process group, so that a stop reaches the tools npm started, not npm alone.
      detached: process.platform !== 'win32',
    });
    current.add(child);
    // Decoded as a stream: a character split between two chunks (✓, ✖) would otherwise print as U+FFFD.
    child.stdout?.setEncoding('utf8');
    child.stderr?.setEncoding('utf8');
    child.stdout?.on('data', (chunk) => {
      if (streamed) process.stdout.write(chunk);
      else kept += chunk;
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      kept += chunk;
    });
    child.on('error', (error) => {
      console.error(`test: could not start ${suite.name}: ${error.message}`);
    });
    child.on('close', (code, signal) => {
      current.delete(child);
      const exit = code ?? (signal ? 1 : 0);
      if (!streamed) process.stdout.write(outputBlock(suite.name, kept));
      resolveRun({ suite, code: exit, seconds: (Date.now() - started) / 1000, ...suite.counts(exit, output) });
    });
  });
}

/** The suites running now (several in a phase that runs side by side). */
const current = new Set();
let interrupted = false;
/** Passes a stop to each running suite's whole process group (each has its own: see run()). */
function stopCurrent(signal) {
  for (const child of current) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      if (process.platform === 'win32') child.kill(signal);
      else process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}
// SIGHUP (the terminal closed, ssh dropped) and SIGQUIT (Ctrl+\\) too: the suite is in a group of its own, which the
// terminal's signals no longer reach, so whatever stops npm test must be handed on, or the suite runs on under init.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']) {
  process.on(signal, () => {
    interrupted = true;
    stopCurrent(signal);
  });
}
// And whatever way this process ends (an uncaught error included), the running suite goes with it.
process.on('exit', () => stopCurrent('SIGTERM'));

ensureDependencies();
const browserNote = selected.some((suite) => suite.browser) ? ensureChromium() : undefined;
if (browserNote) console.error(`test: ${browserNote}`);

const results = [];
const startedAll = Date.now();
for (const phase of plan(selected)) {
  if (interrupted) break;
  for (const suite of phase.suites) {
    const beside = phase.suites.filter((other) => other !== suite).map((other) => other.name);
    const note = beside.length === 0 ? '' : ` (beside ${beside.join(', ')}${suite === phase.streamed ? '' : '; its output follows as one block when it ends'})`;
    console.log(`\n━━ ${suite.name}: ${suite.label}${note}`);
  }
  results.push(...(await Promise.all(phase.suites.map((suite) => run(suite, suite === phase.streamed)))));
}
rmSync(scratch, { recursive: true, force: true });
// The table keeps the suites' order, whatever order they ended in.
results.sort((a, b) => selected.indexOf(a.suite) - selected.indexOf(b.suite));

const rows = [
  ['suite', 'status', 'passed', 'failed', 'time'],
  ...results.map((r) => [r.suite.name, r.code === 0 ? 'ok' : 'FAILED', String(r.passed), String(r.failed), `${r.seconds.toFixed(1)} s`]),
];
const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
const line = (row) => row.map((cell, column) => (column >= 2 ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ');
console.log(`\n${line(rows[0])}\n${widths.map((width) => '─'.repeat(width)).join('  ')}`);
for (const row of rows.slice(1)) console.log(line(row));
const failed = results.filter((r) => r.code !== 0).map((r) => r.suite.name);
const skipped = selected.filter((suite) => !results.some((r) => r.suite === suite)).map((suite) => suite.name);
console.log(failed.length ? `\nFAILED: ${failed.join(', ')}` : `\nAll ${results.length} suites passed.`);
console.log(`Wall time: ${((Date.now() - startedAll) / 1000).toFixed(1)} s (suites of one phase ran side by side; see scripts/test-plan.mjs).`);
for (const r of results) {
  const names = r.names ?? [];
  for (const name of names.slice(0, 20)) console.log(`  ✗ ${r.suite.name}: ${name}`);
  if (names.length > 20) console.log(`  … and ${names.length - 20} more in ${r.suite.name}`);
}
if (skipped.length) console.log(`Interrupted before: ${skipped.join(', ')}`);
if (browserNote && failed.some((name) => selected.find((suite) => suite.name === name)?.browser)) console.log(browserNote);
process.exit(failed.length || skipped.length ? 1 : 0);
