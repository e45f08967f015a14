/**
 * Where a small form's first render goes (issue 30): `node --import tsx
 * bench/profile-form.ts [corpus] [controls…]` builds the full kit unminified,
 * picks one corpus tool per requested number of top-level properties (default
 * 0, 1, 2 and 5), renders each as in the corpus row (append → settled → layout)
 * many times under a Chromium trace and a CPU profile, and prints the time per
 * render by trace event (style recalc, layout, script…) and the hottest
 * functions by self time. A diagnostic, not part of `npm run bench`.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CDPSession } from 'playwright';
import { benchTool, corpusTools } from './form-corpus.js';
import { openProfiledKit } from './profile-kit.js';

const root = resolve(import.meta.dirname, '..');
const corpus = resolve(process.argv[2] ?? join(root, '../shared/schemas'));
const wanted = process.argv.length > 3 ? process.argv.slice(3).map(Number) : [0, 1, 2, 5];
const RENDERS = 150;

if (!existsSync(corpus)) throw new Error(`no corpus at ${corpus}`);
const { tools } = corpusTools(corpus);
const bench = await openProfiledKit(root);
const { page } = bench;

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tid: number;
  ts: number;
  args?: { data?: { url?: string } };
}

async function trace(cdp: CDPSession, run: () => Promise<unknown>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,blink,v8', transferMode: 'ReportEvents' } as never);
  await run();
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.end');
  await done;
  return events;
}

const cdp = await page.context().newCDPSession(page);
for (const count of wanted) {
  const tool = tools.find((t) => Object.keys((t.inputSchema.properties as object | undefined) ?? {}).length === count && !JSON.stringify(t.inputSchema).includes('"$ref"'));
  if (!tool) {
    console.log(`no tool with ${count} properties`);
    continue;
  }
  const bt = benchTool(tool);
  // Warm-up (parts loaded, styles adopted).
  await page.evaluate((t) => window.benchPage!.renderCorpus([t], 10), bt);
  const samples = await page.evaluate((t) => window.benchPage!.renderCorpus([t], 31), bt);
  console.log(`\n${count} properties: ${tool.schema} (${tool.source}), ${samples[0]!.controls} controls: form ${samples[0]!.formMs.toFixed(3)} ms, bare ${samples[0]!.baselineMs.toFixed(3)} ms ×${samples[0]!.ratio.toFixed(1)}, hand-written ${samples[0]!.handMs.toFixed(3)} ms ×${samples[0]!.handRatio.toFixed(1)}`);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  let profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[]; samples: number[]; timeDeltas: number[] } | undefined;
  const events = await trace(cdp, async () => {
    await cdp.send('Profiler.start');
    await page.evaluate(([t, n]) => window.benchPage!.renderForms(t, n), [bt, RENDERS] as const);
    profile = (await cdp.send('Profiler.stop')).profile as never;
  });
  // Top-level event time per render, by name (renderer main thread: the thread with most FunctionCall time).
  const byTid = new Map<number, number>();
  for (const e of events) if (e.name === 'FunctionCall' && e.dur) byTid.set(e.tid, (byTid.get(e.tid) ?? 0) + e.dur);
  const main = [...byTid].sort((a, b) => b[1] - a[1])[0]?.[0];
  const sums = new Map<string, number>();
  for (const e of events) {
    if (e.tid !== main || e.ph !== 'X' || !e.dur) continue;
    if (['UpdateLayoutTree', 'Layout', 'ParseAuthorStyleSheet', 'RecalculateStyles', 'UpdateLayerTree', 'Paint', 'PrePaint', 'MinorGC', 'MajorGC', 'V8.GC_SCAVENGER', 'HitTest', 'IntersectionObserverController::computeIntersections', 'UpdateLayoutTree::StyleRecalc'].includes(e.name))
      sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur);
  }
  const counts = new Map<string, number>();
  const elements: number[] = [];
  for (const e of events) {
    if (e.tid !== main || e.ph !== 'X' || !e.dur) continue;
    if (e.name === 'UpdateLayoutTree' || e.name === 'Layout') counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
    const count = (e.args as { elementCount?: number } | undefined)?.elementCount;
    if (e.name === 'UpdateLayoutTree' && count !== undefined) elements.push(count);
  }
  console.log(`  per render: ${[...counts].map(([n, c]) => `${n} ×${(c / RENDERS).toFixed(2)}`).join(', ')}; elements per style recalc (median) ${elements.sort((a, b) => a - b)[elements.length >> 1]}`);
  console.log(`  trace, µs per render: ${[...sums].sort((a, b) => b[1] - a[1]).map(([n, d]) => `${n} ${(d / RENDERS).toFixed(0)}`).join(', ')}`);
  if (profile) {
    const self = new Map<string, number>();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    let total = 0;
    profile.samples.forEach((id, i) => {
      const node = byId.get(id)!;
      const f = node.callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}`;
      const dt = profile!.timeDeltas[i] ?? 0;
      self.set(key, (self.get(key) ?? 0) + dt);
      total += dt;
    });
    const idle = self.get('(idle) :0') ?? 0;
    console.log(`  CPU profile, self µs per render (of ${((total - idle) / RENDERS).toFixed(0)} busy):`);
    // Inclusive time: each sample counts once for every distinct function on its stack.
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const inclusive = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const f = byId.get(at)!.callFrame;
        const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}`;
        if (seen.has(key)) continue;
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + (profile!.timeDeltas[i] ?? 0));
      }
    });
    console.log('  inclusive µs per render:');
    for (const [k, v] of [...inclusive].filter(([k]) => !k.startsWith('(')).sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(`    ${(v / RENDERS).toFixed(1).padStart(7)}  ${k}`);
    for (const [k, v] of [...self].filter(([k]) => k !== '(idle) :0').sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`    ${(v / RENDERS).toFixed(1).padStart(7)}  ${k}`);
  }
}
await bench.close();
