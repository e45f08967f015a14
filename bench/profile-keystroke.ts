/**
 * Where a keystroke in `<mcp-tool-form>` goes (issue 30): `node --import tsx
 * bench/profile-keystroke.ts [graph|wide] [function]` builds the full kit unminified, types
 * into the Graph-like form (or the 399-control one) many times under a CPU
 * profile, and prints the hottest functions, inclusive and self, per keystroke.
 * The profile also holds the form's set-up (its first render and schema
 * compile), spread over the keystrokes. A diagnostic, not part of `npm run bench`.
 */
import { resolve } from 'node:path';
import { openProfiledKit } from './profile-kit.js';
import { graphLikeSchema } from '../components/test-support/fixtures.js';
import { wideSchema } from './servers.js';

const root = resolve(import.meta.dirname, '..');
const which = process.argv[2] ?? 'graph';
/** Only samples with this function on their stack (e.g. `dispatchEvent`, `performUpdate`): where one part of a keystroke goes. */
const under = process.argv[3];
const KEYS = 400;

const bench = await openProfiledKit(root);
const { page } = bench;
const schema = which === 'graph' ? graphLikeSchema() : wideSchema(0, 296);
const warm = await page.evaluate(([s]) => window.benchPage!.keystrokes(s, 60), [schema] as const);
const med = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
console.log(`${which}: ${warm.controls} controls; form ${med(warm.samples.map((s) => s.formMs)).toFixed(3)} ms, native ${med(warm.samples.map((s) => s.baselineMs)).toFixed(3)} ms`);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
await cdp.send('Profiler.start');
const run = await page.evaluate(([s, n]) => window.benchPage!.keystrokes(s, n), [schema, KEYS] as const);
const profile = (await cdp.send('Profiler.stop')).profile as { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[]; samples: number[]; timeDeltas: number[] };
console.log(`profiled: form ${med(run.samples.map((s) => s.formMs)).toFixed(3)} ms, native ${med(run.samples.map((s) => s.baselineMs)).toFixed(3)} ms`);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const keyOf = (f: { functionName: string; url: string; lineNumber: number }) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}`;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const stackHas = (id: number, name: string) => {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (byId.get(at)!.callFrame.functionName === name) return true;
  return false;
};
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  if (under && !stackHas(id, under)) return;
  const k = keyOf(byId.get(id)!.callFrame);
  self.set(k, (self.get(k) ?? 0) + dt);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const key = keyOf(byId.get(at)!.callFrame);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
  }
});
console.log('inclusive µs per keystroke:');
for (const [k, v] of [...inclusive].filter(([k]) => !k.startsWith('(')).sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log(`  ${(v / KEYS).toFixed(1).padStart(7)}  ${k}`);
console.log('self µs per keystroke:');
for (const [k, v] of [...self].filter(([k]) => k !== '(idle) :0').sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${(v / KEYS).toFixed(1).padStart(7)}  ${k}`);
await bench.close();
