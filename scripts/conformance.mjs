#!/usr/bin/env node
/**
 * Scores the kit's client against the official MCP conformance suite
 * (`@modelcontextprotocol/conformance`, a dev dependency).
 *
 *   npm run conformance                       # both requirement sets
 *   npm run conformance -- --set 2026-07-28   # one set
 *   npm run conformance -- --scenario tools_call --set 2026-07-28
 *
 * Every client scenario of each set (scored and not scored) runs on its own, a few
 * at a time; a scenario passes when none of its checks is a FAILURE. The run
 * fails when a scenario listed in conformance/expected.json fails; the others
 * are reported. The suite needs Node >= 22 (the project runs on Node 20): one is
 * taken from `CONFORMANCE_NODE`, the `node` on PATH if new enough, or installed
 * once from the npm registry (package node-linux-<arch>@22) into .cache/.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : fallback;
};
const sets = (option('--set', 'all') === 'all' ? ['2026-07-28', '2025-11-25'] : [option('--set')]);
const only = option('--scenario');
const jobs = Number(option('--jobs', process.env.CONFORMANCE_JOBS ?? Math.max(2, Math.min(4, cpus().length))));
const timeoutMs = Number(option('--timeout', process.env.CONFORMANCE_TIMEOUT_MS ?? 60000));
const verbose = args.includes('--verbose');
/** The client command the suite starts per scenario: `CONFORMANCE_CLIENT`, else clientCommand() below. */
const clientFromEnv = process.env.CONFORMANCE_CLIENT;

const suiteDir = join(root, 'node_modules/@modelcontextprotocol/conformance');
const suite = join(suiteDir, 'dist/index.js');
if (!existsSync(suite)) {
  console.error('conformance: @modelcontextprotocol/conformance is not installed (run npm ci)');
  process.exit(2);
}
const YAML = createRequire(join(suiteDir, 'package.json'))('yaml');
const expected = JSON.parse(readFileSync(join(root, 'conformance/expected.json'), 'utf8'));

function nodeMajor(binary) {
  const out = spawnSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return out.status === 0 ? Number(out.stdout.split('.')[0]) : 0;
}

/** A Node >= 22 for the suite itself. */
function findNode22() {
  for (const candidate of [process.env.CONFORMANCE_NODE, 'node'].filter(Boolean)) {
    if (nodeMajor(candidate) >= 22) return candidate;
  }
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch] ?? process.arch;
  const pkg = process.env.CONFORMANCE_NODE_PKG ?? `node-linux-${arch}@22`;
  const dir = join(root, '.cache/node22');
  const binary = join(dir, 'node_modules', pkg.replace(/@[^@/]*$/, ''), 'bin/node');
  if (!existsSync(binary) || nodeMajor(binary) < 22) {
    console.error(`conformance: installing ${pkg} (a Node 22 binary from the npm registry) into .cache/node22 for the suite`);
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', pkg], { cwd: dir, stdio: 'inherit' });
    if (install.status !== 0 || nodeMajor(binary) < 22) {
      console.error('conformance: could not obtain Node >= 22; set CONFORMANCE_NODE to one');
      process.exit(2);
    }
  }
  return binary;
}

function findChecks(dir) {
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === 'checks.json') return path;
    if (entry.isDirectory()) {
      const found = findChecks(path);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The adapter (conformance/client.ts, what `npm run conformance-client` runs) bundled once into
 * the run's folder, and run with plain Node: the suite starts it once per scenario (64 of them),
 * and npm plus tsx took about two seconds of CPU each time to start it, most of a scenario's cost.
 * The same sources, transpiled by the esbuild that tsx itself uses; its packages stay imports
 * from node_modules. `CONFORMANCE_CLIENT=<command>` runs another client instead.
 */
async function clientCommand(runDir) {
  if (clientFromEnv) return clientFromEnv;
  const { build } = createRequire(createRequire(join(root, 'package.json')).resolve('tsx/package.json'))('esbuild');
  const outfile = join(runDir, 'client.mjs');
  await build({ entryPoints: [join(root, 'conformance/client.ts')], bundle: true, platform: 'node', format: 'esm', target: `node${process.versions.node.split('.')[0]}`, packages: 'external', sourcemap: 'inline', outfile, logLevel: 'error' });
  return `${JSON.stringify(process.execPath)} --enable-source-maps ${JSON.stringify(outfile)}`;
}

function runScenario(node22, set, scenario, outDir, command) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  return new Promise((resolveRun) => {
    const started = Date.now();
    const child = spawn(
      node22,
      [suite, 'client', '--command', command, '--scenario', scenario, '--spec-version', set, '--force', '--timeout', String(timeoutMs), '-o', outDir],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: process.env.PATH } },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const guard = setTimeout(() => child.kill('SIGKILL'), timeoutMs + 30_000);
    child.on('close', () => {
      clearTimeout(guard);
      const file = findChecks(outDir);
      let checks = [];
      let error;
      if (!file) error = 'the suite wrote no checks.json';
      else {
        try {
          checks = JSON.parse(readFileSync(file, 'utf8'));
        } catch (e) {
          error = `unreadable checks.json: ${e}`;
        }
      }
      const count = (status) => checks.filter((c) => c.status === status).length;
      const failures = checks.filter((c) => c.status === 'FAILURE');
      const warnings = checks.filter((c) => c.status === 'WARNING');
      let clientStderr = '';
      if (file) {
        try {
          clientStderr = readFileSync(join(dirname(file), 'stderr.txt'), 'utf8');
        } catch {
          /* none */
        }
      }
      resolveRun({
        scenario,
        pass: !error && failures.length === 0,
        vacuous: !error && failures.length === 0 && count('SUCCESS') === 0,
        success: count('SUCCESS'),
        failure: failures.length,
        warning: count('WARNING'),
        failures: failures.map((c) => `${c.id}: ${(c.errorMessage ?? c.description ?? '').replace(/\s+/g, ' ').slice(0, 200)}`),
        warnings: warnings.map((c) => `${c.id}: ${(c.errorMessage ?? c.description ?? '').replace(/\s+/g, ' ').slice(0, 160)}`),
        error,
        seconds: (Date.now() - started) / 1000,
        output: error ? output.slice(-2000) : '',
        clientStderr: clientStderr.trim().split('\n').slice(-5).join('\n'),
      });
    });
  });
}

async function pool(items, limit, worker) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await worker(items[index]);
      }
    }),
  );
  return results;
}

const node22 = findNode22();
// Each run writes under its own folder (two runs in one checkout must not collide); the
// folders of runs that have ended are removed.
const runsDir = join(root, '.cache/conformance');
mkdirSync(runsDir, { recursive: true });
for (const entry of readdirSync(runsDir)) {
  const pid = /^run-(\d+)$/.exec(entry)?.[1];
  if (!pid || Number(pid) === process.pid) continue;
  let alive = true;
  try { process.kill(Number(pid), 0); } catch { alive = false; }
  if (!alive) rmSync(join(runsDir, entry), { recursive: true, force: true });
}
const runDir = join(runsDir, `run-${process.pid}`);
let failedExpected = 0;
const started = Date.now();
mkdirSync(runDir, { recursive: true });
const command = await clientCommand(runDir);
// Every scenario of every set in one pool (no set waits for the last scenario of the one before),
// then each set's report in turn.
const plans = sets.map((set) => {
  const requirements = YAML.parse(readFileSync(join(suiteDir, 'requirements', `${set}.yaml`), 'utf8'));
  const scored = requirements.client ?? [];
  const unscored = (requirements.not_scored ?? []).filter((e) => e.leg === 'client').map((e) => e.scenario);
  let scenarios = [...new Set([...scored, ...unscored])];
  if (only) scenarios = scenarios.filter((s) => s === only);
  return { set, scored, scenarios, outRoot: join(runDir, set) };
});
const runs = plans.flatMap(({ set, scenarios, outRoot }) => scenarios.map((scenario) => ({ set, scenario, outRoot })));
const outcomes = await pool(runs, jobs, ({ set, scenario, outRoot }) => runScenario(node22, set, scenario, join(outRoot, scenario.replace(/\//g, '__')), command));
for (const { set, scored, outRoot } of plans) {
  const results = outcomes.filter((_, i) => runs[i].set === set);
  const mustPass = new Set(expected[set] ?? []);
  console.log(`\n# conformance ${set} (suite ${JSON.parse(readFileSync(join(suiteDir, 'package.json'), 'utf8')).version}; results in ${relative(root, outRoot)})`);
  for (const r of results) {
    const tag = r.pass ? (r.vacuous ? 'PASS*' : 'PASS ') : 'FAIL ';
    const kind = scored.includes(r.scenario) ? 'scored' : 'not scored';
    const must = mustPass.has(r.scenario) ? ' [expected]' : '';
    console.log(`${tag} ${r.scenario.padEnd(42)} ${String(r.success).padStart(3)} ok ${String(r.failure).padStart(2)} fail ${String(r.warning).padStart(2)} warn  ${kind}${must}  ${r.seconds.toFixed(1)}s`);
    if (!r.pass || verbose) {
      for (const f of r.failures) console.log(`        - ${f}`);
      if (r.error) console.log(`        - ${r.error}\n${r.output.replace(/^/gm, '          ')}`);
      if (r.clientStderr && (!r.pass || verbose)) console.log(r.clientStderr.replace(/^/gm, '        | '));
    }
    if (verbose) for (const w of r.warnings) console.log(`        ~ ${w}`);
    if (!r.pass && mustPass.has(r.scenario)) failedExpected++;
  }
  const scoredResults = results.filter((r) => scored.includes(r.scenario));
  const passed = scoredResults.filter((r) => r.pass).length;
  const checksOk = scoredResults.reduce((n, r) => n + r.success, 0);
  const checksAll = scoredResults.reduce((n, r) => n + r.success + r.failure, 0);
  const extra = results.filter((r) => !scored.includes(r.scenario));
  console.log(`conformance ${set}: ${passed}/${scoredResults.length} scored scenarios passed, ${checksOk}/${checksAll} checks passed; not scored: ${extra.filter((r) => r.pass).length}/${extra.length} passed`);
  mkdirSync(outRoot, { recursive: true });
  writeFileSync(join(outRoot, 'summary.json'), JSON.stringify({ set, passed, total: scoredResults.length, checksOk, checksAll, results }, null, 2));
}
console.log(`\nconformance: ${((Date.now() - started) / 1000).toFixed(0)} s; ${failedExpected === 0 ? 'every expected scenario passed' : `${failedExpected} expected scenario(s) FAILED`}`);
process.exit(failedExpected === 0 ? 0 : 1);
