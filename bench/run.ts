/**
 * `npm run bench`: measures mcp-web-elements against the official client and raw
 * fetch (issue 8) and writes one JSON per run to bench/results/, then
 * regenerates the results section of bench/README.md from the latest JSON.
 *
 * Options:
 * - `--quick`: fewer rounds and calls, a 1-minute session (for a smoke check).
 * - `--session-minutes N`: the long session's length (default 10; 1 with `--quick`).
 * - `--results <dir>`: write the run's JSON there (default bench/results; a scratch folder keeps
 *   trial runs out of the repository and leaves bench/README.md alone).
 * - `--only size,session,calls,list,huge,cold,sse,form,corpus,schema,hostile,bridge,connect`: run only these
 *   sections (`schema`: pattern engines and the validation cost of a `$ref` fan-out, about a
 *   minute; `corpus`: every tool of the corpus rendered as a form against native inputs;
 *   `bridge`: a call through the stdio bridge against the official stdio client, about a
 *   minute; `connect`: a new client to its tools listed, kit against official, under a minute).
 * - `--corpus <dir>`: the folder of `tools/list` dumps the form sections read
 *   (default `../shared/schemas`); absent, the corpus row is skipped with a line saying so.
 * - `--readme`: only regenerate the README from the latest JSON.
 *
 * Run it with `node --expose-gc` (the npm script does) so the big-list section
 * can measure retained heap. Never part of `npm test`: nothing here asserts a time.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { measureBridge, type BridgePlan } from './bridge.js';
import { COLD_PROFILE, measureCold, type ColdPlan } from './cold.js';
import { measureConnect, type ConnectPlan } from './connect.js';
import { measureCalls, type CallPlan, type CallsResult, CANDIDATES, type CandidateName, type LoopDriver } from './calls.js';
import { spawnServer } from './child.js';
import { chromiumCalls, chromiumForms, openBenchPage, type BenchBrowser } from './chromium.js';
import { measureHostile } from './hostile.js';
import type { Candidate, OpenCandidate } from './entries/candidate.js';
import { open as openKit } from './entries/kit.js';
import { open as openOfficial } from './entries/official.js';
import { open as openRaw } from './entries/raw.js';
import { measureHuge, type HugePlan } from './huge.js';
import { measureList, type ListPlan } from './list.js';
import { callLoop } from './loop.js';
import { evaluateTargets, renderSection, spliceReadme, type BundleName, type RunResult, type SizedBundle } from './report.js';
import { chromiumFormCorpus } from './form-corpus.js';
import { measureSchema } from './schema.js';
import { measureSession, type SessionResult } from './session.js';
import { COUNTS_PATH } from './servers.js';
import { buildAndMeasure, buildAndMeasureCdn, composition, withDynamicImport } from './size.js';
import { measureSse, type SsePlan } from './sse.js';
import { canCollect, collect, load, machine } from './stats.js';

const root = resolve(import.meta.dirname, '..');
const resultsArg = process.argv.indexOf('--results');
/** Where runs are written and read (`--results <dir>`, e.g. a scratch folder for trial runs). */
const resultsDir = resultsArg >= 0 && process.argv[resultsArg + 1] ? resolve(process.argv[resultsArg + 1]!) : join(root, 'bench/results');
const readmePath = join(root, 'bench/README.md');
const www = join(root, '.cache/bench/www');
const SECTIONS = ['size', 'session', 'calls', 'list', 'huge', 'cold', 'sse', 'form', 'corpus', 'schema', 'hostile', 'bridge', 'connect'] as const;
type Section = (typeof SECTIONS)[number];

const args = process.argv.slice(2);
const corpusArg = args.indexOf('--corpus');
const corpus = resolve(root, corpusArg >= 0 && args[corpusArg + 1] ? args[corpusArg + 1]! : '../shared/schemas');
const quick = args.includes('--quick');
const sessionArg = args.indexOf('--session-minutes');
/** The long session's length (`--session-minutes N`): 10 in the standard run, 1 with --quick. */
const sessionMinutes = sessionArg >= 0 && args[sessionArg + 1] ? Number(args[sessionArg + 1]) : quick ? 1 : 10;
if (!(sessionMinutes > 0)) throw new Error('--session-minutes takes a positive number of minutes');
const onlyArg = args.find((a) => a.startsWith('--only'));
const onlyValue = onlyArg?.includes('=') ? onlyArg.split('=')[1] : onlyArg ? args[args.indexOf(onlyArg) + 1] : undefined;
const only = new Set<Section>(onlyValue ? (onlyValue.split(',') as Section[]) : SECTIONS);
for (const section of only) if (!SECTIONS.includes(section)) throw new Error(`Unknown section "${section}"; choose from ${SECTIONS.join(', ')}`);

const PLAN = quick
  ? {
      calls: {
        node: { rounds: 7, sequential: 50, concurrent: 160, concurrency: 16, warmup: 100 } satisfies CallPlan,
        chromium: { rounds: 5, sequential: 30, concurrent: 96, concurrency: 16, warmup: 20 } satisfies CallPlan,
      },
      list: { sizes: [1000, 2000], props: 20, rounds: 9, memoryRepeats: 1 } satisfies ListPlan,
      sse: { sizesMiB: [25, 50], rounds: 3 } satisfies SsePlan,
      formRepeats: 5,
      corpusRepeats: 3,
      hostileRepeats: 1,
      bridge: { rounds: 5, sequential: 40, concurrent: 128, concurrency: 16, warmup: 50 } satisfies BridgePlan,
      connect: { rounds: 3, connects: 3 } satisfies ConnectPlan,
      huge: { list: { sizes: [5000, 10000], props: 20, rounds: 3, memoryRepeats: 1 }, sidebarRepeats: 3 } satisfies HugePlan,
      cold: { rounds: 3 } satisfies ColdPlan,
    }
  : // The standard run fits 15 minutes on an idle two-core machine: the 10-minute session overlaps
    // the size section, and the timing sections share the remaining five (README "Standard run").
    // Rounds were cut from 25/15 (calls), 21 (list), 9 (sse), 11 (form), 5 (corpus), 3 (hostile),
    // 11 (bridge) and 9 (connect) when the issue-30 rows were added.
    {
      calls: {
        node: { rounds: 12, sequential: 80, concurrent: 240, concurrency: 16, warmup: 500 } satisfies CallPlan,
        chromium: { rounds: 7, sequential: 40, concurrent: 160, concurrency: 16, warmup: 100 } satisfies CallPlan,
      },
      list: { sizes: [1000, 2000], props: 20, rounds: 15, memoryRepeats: 3 } satisfies ListPlan,
      sse: { sizesMiB: [25, 50], rounds: 7 } satisfies SsePlan,
      formRepeats: 9,
      corpusRepeats: 3,
      hostileRepeats: 2,
      bridge: { rounds: 7, sequential: 60, concurrent: 192, concurrency: 16, warmup: 200 } satisfies BridgePlan,
      connect: { rounds: 6, connects: 5 } satisfies ConnectPlan,
      huge: { list: { sizes: [5000, 10000], props: 20, rounds: 5, memoryRepeats: 1 }, sidebarRepeats: 5 } satisfies HugePlan,
      cold: { rounds: 5 } satisfies ColdPlan,
    };

const log = (line: string) => process.stdout.write(`${line}\n`);

function logCalls(calls: CallsResult): void {
  for (const mode of ['sequential', 'concurrent'] as const) {
    const rates = CANDIDATES.map((n) => `${n} ${calls.candidates[n][mode].callsPerSecond}`).join(', ');
    log(`  ${mode}: calls/s ${rates}; (a)/(c) ${calls.ratios[mode].kitToRaw.median}, (a)/(b) ${calls.ratios[mode].kitToOfficial.median}`);
  }
}

/** Starts bench/echo-server.ts in its own Node process (a real server is not in the client's process). */
async function spawnEchoServer(): Promise<{ url: string; counts: () => Promise<Record<string, number>>; close(): Promise<void> }> {
  // The SDK announces what responseMode 'json' implies on every start; anything else is shown.
  const child = await spawnServer('echo-server.ts', [], (line) => {
    if (!line.startsWith("responseMode: 'json'")) process.stderr.write(`echo-server: ${line}\n`);
  });
  const url = child.urls[0]!;
  const countsUrl = new URL(COUNTS_PATH, url).href;
  return { url, counts: async () => (await (await fetch(countsUrl)).json()) as Record<string, number>, close: () => child.close() };
}

/** The JSON files in bench/results, newest run first. */
function runs(): { file: string; run: RunResult }[] {
  if (!existsSync(resultsDir)) return [];
  return readdirSync(resultsDir)
    .filter((f) => f.endsWith('.json'))
    .map((file) => ({ file, run: JSON.parse(readFileSync(join(resultsDir, file), 'utf8')) as RunResult }))
    .sort((a, b) => b.run.date.localeCompare(a.run.date));
}

function writeReadme(): void {
  // The newest full run (sizes and calls); the pattern and validation-cost section may come from a
  // newer `--only schema` run, and the adapters' sizes from a newer `--only size` run.
  const all = runs();
  const latest = all.find((r) => r.run.size && r.run.calls) ?? all.find((r) => r.run.size) ?? all[0];
  if (!latest) throw new Error('No results in bench/results yet: run `npm run bench` first');
  const validation = all.find((r) => r.run.validation);
  const adapters = all.find((r) => r.run.adapters);
  // The bridge's and the connect rows may come from a newer `--only bridge` / `--only connect` run too.
  const bridge = all.find((r) => r.run.bridge);
  const connect = all.find((r) => r.run.connect);
  const newer = (other: typeof latest | undefined) => other !== undefined && other !== latest && other.run.date > latest.run.date;
  const shown: RunResult = { ...latest.run };
  if (newer(bridge)) shown.bridge = { ...bridge!.run.bridge!, from: { file: bridge!.file, commit: bridge!.run.source?.commit ?? 'unrecorded', date: bridge!.run.date, load: bridge!.run.load.start } };
  if (newer(connect)) shown.connect = { ...connect!.run.connect!, from: connect!.file };
  // The form rows (both native baselines, issue 30) may come from a newer `--only form,corpus` run too.
  const forms = all.find((r) => r.run.forms);
  const formCorpus = all.find((r) => r.run.formCorpus);
  if (newer(forms)) shown.forms = forms!.run.forms;
  if (newer(formCorpus)) shown.formCorpus = formCorpus!.run.formCorpus;
  writeFileSync(readmePath, spliceReadme(readFileSync(readmePath, 'utf8'), renderSection(shown, latest.file, validation, adapters)));
  const others = [validation, adapters, bridge, connect, newer(forms) ? forms : undefined, newer(formCorpus) ? formCorpus : undefined].filter((r) => r && r !== latest).map((r) => r!.file);
  log(`bench/README.md regenerated from ${join(resultsDir, latest.file)}${others.length ? ` and ${[...new Set(others)].join(', ')}` : ''}`);
}

/** The commit measured, and the measured files that differ from it (the tree is shared and often mid-change). */
function source(): RunResult['source'] {
  // Not trimmed: a porcelain line starts with a status column that may be a space.
  const git = (...command: string[]) => execFileSync('git', command, { cwd: root, encoding: 'utf8' }).replace(/\n$/, '');
  try {
    const changed = git('status', '--porcelain', '--', 'src', 'components', 'bench/entries')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3));
    return { commit: git('rev-parse', '--short', 'HEAD'), uncommitted: changed };
  } catch {
    return { commit: 'unknown', uncommitted: [] };
  }
}

async function main(): Promise<void> {
  if (args.includes('--readme')) return writeReadme();
  const started = performance.now();
  const run: Omit<RunResult, 'targets' | 'durationSeconds'> & { durationSeconds?: number } = {
    schema: 'mcp-web-elements-bench/1',
    date: new Date().toISOString(),
    mode: quick ? 'quick' : 'standard',
    machine: machine(),
    source: source(),
    load: { start: load(), end: [] },
  };
  log(`mcp-web-elements bench (${run.mode}) on ${run.machine.cpu}, ${run.machine.cores} cores, Node ${run.machine.node}; load ${run.load.start.join(' ')}`);
  if (only.has('list') && !canCollect()) log('  (no --expose-gc: retained heap will not be measured; use `npm run bench`)');
  // Seconds each section took, in the order they ran (the Chromium start-up is counted with the first Chromium section).
  const sections: Record<string, number> = {};
  let lapStart = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    sections[name] = Math.round((now - lapStart) / 100) / 10;
    lapStart = now;
    log(`  (${name}: ${sections[name]} s)`);
  };
  // The long session measures heap and latency at a fixed 50 calls/s, kit against official, both
  // disturbed alike; it runs beside the size section only, which measures bytes, not time (README).
  const sessionStarted = performance.now();
  const session: Promise<SessionResult> | undefined = only.has('session') ? measureSession({ minutes: sessionMinutes, rate: 50, points: 4 }, log) : undefined;
  if (session) log(`session: kit and official client, 50 calls/s each for ${sessionMinutes} min, in the background beside the size section`);

  // Size: also builds the bundles the Chromium sections load.
  const needBundles = only.has('size') || only.has('calls') || only.has('form') || only.has('corpus') || only.has('hostile') || only.has('cold');
  // The pages of the form and hostile sections load the full kit alone.
  const fullKitOnly = !only.has('size') && !only.has('calls');
  const sizes = new Map<BundleName, Awaited<ReturnType<typeof buildAndMeasure>>>();
  if (needBundles) {
    log('size: building the minimal entries and the full kit with Vite');
    for (const [name, entry] of [
      ['kit', 'bench/entries/kit.ts'],
      ['official', 'bench/entries/official.ts'],
      ['raw', 'bench/entries/raw.ts'],
      ['fullKit', 'bench/entries/full-kit.ts'],
      ['fullKitCfworker', 'bench/entries/full-kit-cfworker.ts'],
    ] as const) {
      if (fullKitOnly && name !== 'fullKit') continue;
      const dir = entry.replace(/^.*\//, '').replace(/\.ts$/, '');
      const size = await buildAndMeasure(root, entry, join(www, dir), `/${dir}/`);
      sizes.set(name, size);
      log(`  ${name}: eager ${size.eager.raw} B raw, ${size.eager.gzip} B gzip, ${size.eager.brotli} B brotli; all chunks ${size.all.gzip} B gzip`);
    }
  }

  if (only.has('size')) {
    const cdn = await buildAndMeasureCdn(root, join(www, 'cdn'));
    // What a tool form's page loads by its first check: the form's parts, the validator (ajv: eval is allowed here) and its wording of issues.
    const form = withDynamicImport(cdn, 'chunks/form-parts-', 'chunks/eval-policy-', 'chunks/schema-ajv-', 'chunks/issues-');
    run.cdn = { ...cdn, formPage: { raw: form.reduce((s, c) => s + c.raw, 0), gzip: form.reduce((s, c) => s + c.gzip, 0), brotli: form.reduce((s, c) => s + c.brotli, 0), files: form.map((c) => c.file) } };
    log(`  dist/cdn/elements.js (no bundler): eager ${cdn.eager.gzip} B gzip (${cdn.chunks.filter((c) => c.eager).length} files); form page ${run.cdn.formPage.gzip} B gzip; all it can load ${cdn.all.gzip} B gzip (${cdn.chunks.length} files)`);
  }

  if (only.has('size')) {
    // The chat adapters: separate entries a page loads only when it uses them.
    run.adapters = {};
    for (const name of ['openai', 'anthropic', 'ai-sdk']) {
      const size = await buildAndMeasure(root, `src/adapters/${name}.ts`, join(www, `adapter-${name}`), `/adapter-${name}/`);
      run.adapters[name] = { entry: size.entry, eager: size.eager, all: size.all, eagerFiles: size.chunks.filter((c) => c.eager).length, allFiles: size.chunks.length };
      log(`  mcp-web-elements/${name}: eager ${size.eager.gzip} B gzip; with what it loads on demand ${size.all.gzip} B gzip`);
    }
  }

  if (needBundles) lap(only.has('size') ? 'size' : 'build');
  if (session) {
    run.session = await session;
    sections.session = Math.round((performance.now() - sessionStarted) / 100) / 10;
    lapStart = performance.now();
    log(`  (session: ${sections.session} s, overlapping the size section)`);
  }
  const fullKit = sizes.get('fullKit');
  if (fullKit) {
    // What a page adds once a tool with an MCP App is shown: the frame's lazily loaded chunk(s).
    const extra = withDynamicImport(fullKit, 'mcp-app-frame').filter((c) => !c.eager);
    run.appFrame = { raw: extra.reduce((s, c) => s + c.raw, 0), gzip: extra.reduce((s, c) => s + c.gzip, 0), brotli: extra.reduce((s, c) => s + c.brotli, 0), files: extra.map((c) => c.file) };
    log(`  <mcp-app-frame> on demand: ${run.appFrame.gzip} B gzip (${run.appFrame.files.join(', ')})`);
  }

  let browser: BenchBrowser | undefined;
  try {
    if (only.has('calls') || only.has('form') || only.has('corpus') || only.has('hostile') || only.has('huge') || only.has('cold')) {
      browser = await openBenchPage(root, www);
      run.machine.chromium = browser.version;
    }
    if (only.has('calls')) {
      const server = await spawnEchoServer();
      try {
        run.calls = { server: 'official SDK @modelcontextprotocol/server 2.4.0 in its own Node process: createMcpHandler, 2026-07-28 only, responseMode json, one echo tool' };
        const opens: Record<CandidateName, OpenCandidate> = { kit: openKit, official: openOfficial, raw: openRaw };
        const opened = new Map<CandidateName, Candidate>();
        for (const name of CANDIDATES) opened.set(name, await opens[name](server.url));
        log('calls: Node');
        const nodeLoop: LoopDriver = async (name, n, c) => {
          const cpu = process.cpuUsage();
          const result = await callLoop(opened.get(name)!, n, c);
          const used = process.cpuUsage(cpu);
          return { ...result, cpuMicros: used.user + used.system };
        };
        run.calls.node = await measureCalls('node', nodeLoop, server.counts, PLAN.calls.node);
        for (const candidate of opened.values()) await candidate.close();
        logCalls(run.calls.node);
        log('calls: Chromium');
        run.calls.chromium = await chromiumCalls(browser!, server.url, server.counts, PLAN.calls.chromium);
        logCalls(run.calls.chromium);
      } finally {
        await server.close();
      }
      lap('calls');
    }
    if (only.has('form')) {
      log('form: <mcp-tool-form> vs plain inputs');
      run.forms = await chromiumForms(browser!, corpus, PLAN.formRepeats, log);
      lap('form');
    }
    if (only.has('corpus')) {
      log(`corpus: every tool of ${corpus} as <mcp-tool-form> vs as many native inputs`);
      run.formCorpus = await chromiumFormCorpus(browser!, corpus, PLAN.corpusRepeats, log);
      lap('corpus');
    }
    if (only.has('hostile')) {
      log('hostile: what a hostile server can make the elements render (issue 19)');
      run.hostile = await measureHostile(browser!, PLAN.hostileRepeats, log);
      lap('hostile');
    }
    if (only.has('huge')) {
      log('huge: a 10,000-tool server (tools/list in Node; the playground sidebar in Chromium)');
      run.huge = await measureHuge(PLAN.huge, root, www, browser, log);
      lap('huge');
    }
    if (only.has('cold')) {
      log(`cold: the one-form page vs native inputs, first input enabled, CPU ×${COLD_PROFILE.cpuSlowdown}, Slow 4G, no cache`);
      run.cold = await measureCold(browser!.browser, www, PLAN.cold, log);
      lap('cold');
    }
  } finally {
    await browser?.close();
  }

  if (only.has('size')) {
    const requested = browser ? browser.files.counts : undefined;
    run.size = Object.fromEntries(
      [...sizes].map(([name, size]) => {
        const dir = size.entry.replace(/^.*\//, '').replace(/\.ts$/, '');
        // The cfworker variant is never loaded in the page (the elements are defined once there):
        // a form page loads its eager files, the form's parts (when the form connects) and the
        // validator chunk, read from the build.
        const files =
          name === 'fullKitCfworker' ? withDynamicImport(size, 'form-parts', 'schema-guard') : requested ? size.chunks.filter((c) => requested.has(`/${dir}/${c.file}`)) : [];
        const loaded: SizedBundle['loaded'] = files.length
          ? { raw: files.reduce((s, c) => s + c.raw, 0), gzip: files.reduce((s, c) => s + c.gzip, 0), brotli: files.reduce((s, c) => s + c.brotli, 0), files: files.map((c) => c.file) }
          : null;
        return [name, { ...size, loaded, composition: composition(files.length ? files : size.chunks.filter((c) => c.eager)) }];
      }),
    ) as Record<BundleName, SizedBundle>;
  }
  // The Node sections after the Chromium ones start from a collected heap: in the 2026-12-02 standard run,
  // after the 10,000-tool section, the SSE rows came out lower (53-59 %) than in runs of the section alone (60-87 %).
  if (only.has('list') || only.has('sse')) collect();
  if (only.has('list')) {
    log('list: tools/list of wide tools');
    run.list = await measureList(PLAN.list, log);
    lap('list');
  }
  if (only.has('sse')) {
    log('sse: 1 KiB events');
    run.sse = await measureSse(PLAN.sse, log);
    lap('sse');
  }
  if (only.has('bridge')) {
    log('bridge: a call through the stdio bridge ÷ the official stdio client direct');
    run.bridge = await measureBridge(PLAN.bridge, log);
    lap('bridge');
  }
  if (only.has('connect')) {
    log('connect: a new client to its tools listed, kit ÷ official, modern and legacy, without and with era caches');
    run.connect = await measureConnect(PLAN.connect, log);
    lap('connect');
  }
  if (only.has('schema')) {
    log('schema: pattern engines and the validation cost of a $ref fan-out');
    run.validation = await measureSchema(root, log);
    lap('schema');
  }

  run.load.end = load();
  const done: RunResult = { ...run, durationSeconds: Math.round((performance.now() - started) / 1000), sections, targets: [] };
  done.targets = evaluateTargets(done);
  mkdirSync(resultsDir, { recursive: true });
  const base = `${done.date.slice(0, 10)}-${done.machine.host}`;
  let file = `${base}.json`;
  for (let i = 2; existsSync(join(resultsDir, file)); i++) file = `${base}-${i}.json`;
  writeFileSync(join(resultsDir, file), `${JSON.stringify(done, null, 2)}\n`);
  log(`wrote ${join(resultsDir, file)} (${done.durationSeconds} s); load ${done.load.end.join(' ')}`);
  log(`sections (s): ${Object.entries(sections).map(([k, v]) => `${k} ${v}`).join(', ')}; total ${done.durationSeconds} s`);
  for (const target of done.targets) log(`  ${target.met === null ? '–' : target.met ? 'met   ' : 'MISSED'} ${target.description}: ${target.value}`);
  // A scratch run (--results elsewhere) leaves the committed README alone; `--readme` still regenerates it on purpose.
  if (resultsArg < 0) writeReadme();
}

await main();
