/**
 * Issue 30's table ("measure what users feel": measure, now, goal) and the README sections of the
 * rows it added: the long session, the cold page load, and the run's section durations.
 */
import type { Ratio } from './calls.js';
import type { RunResult } from './report.js';

/** Issue 30's goals. */
export const ISSUE30 = {
  renderP50: 2,
  renderP95: 3,
  keystrokeMedian: 2,
  keystrokeP95: 3,
  graphKeystroke: 2,
  /** Through the bridge ÷ direct stdio, in time. */
  bridgeTime: 1.3,
  kitToOfficial: 1.1,
  kitToRaw: 0.95,
  sseShare: 0.9,
} as const;

const range = (r: Pick<Ratio, 'median' | 'p25' | 'p75'>) => `${r.median} [${r.p25}–${r.p75}]`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

export interface IssueRow {
  measure: string;
  now: string;
  goal: string;
  met: boolean | null;
}

/** The issue's rows as one run measured them (met null: not measured, or no goal). */
export function issue30Rows(run: Omit<RunResult, 'targets'>): IssueRow[] {
  const rows: IssueRow[] = [];
  const corpus = run.formCorpus;
  rows.push({
    measure: `form first render ÷ native inputs, over every tool of the corpus${corpus ? ` (${corpus.tools} tools)` : ''}`,
    now: corpus ? `p50 ×${range(corpus.ratios)}, p95 ×${corpus.ratios.p95}` : 'not measured',
    goal: `p50 ≤ ${ISSUE30.renderP50}×, p95 ≤ ${ISSUE30.renderP95}×`,
    met: corpus ? corpus.ratios.median <= ISSUE30.renderP50 && corpus.ratios.p95 <= ISSUE30.renderP95 : null,
  });
  const key = run.forms?.keystroke;
  rows.push({
    measure: `one keystroke, ${key?.controls ?? 399}-control form ÷ native`,
    now: key ? `median ×${range(key.ratios)}, p95 ×${key.ratios.p95}` : 'not measured',
    goal: `median ≤ ${ISSUE30.keystrokeMedian}×, p95 ≤ ${ISSUE30.keystrokeP95}×`,
    met: key ? key.ratios.median <= ISSUE30.keystrokeMedian && key.ratios.p95 <= ISSUE30.keystrokeP95 : null,
  });
  const graph = run.forms?.graphKeystroke;
  rows.push({
    measure: `one keystroke in a Graph-like form${graph ? ` (${graph.controls} controls)` : ''} ÷ native`,
    now: graph ? `median ×${range(graph.ratios)}, p95 ×${graph.ratios.p95} (${graph.formMs} ms vs ${graph.baselineMs} ms)` : 'not measured',
    goal: `≤ ${ISSUE30.graphKeystroke}×`,
    met: graph ? graph.ratios.median <= ISSUE30.graphKeystroke : null,
  });
  for (const mode of ['sequential', 'concurrent'] as const) {
    const r = run.bridge?.ratios[mode];
    rows.push({
      measure: `a call through the bridge ÷ direct stdio (time), ${mode === 'sequential' ? 'sequential' : '16 in flight'}`,
      now: r ? `×${(1 / r.bridgeToDirect.median).toFixed(2)} (calls/s ratio ${range(r.bridgeToDirect)})` : 'not measured',
      goal: `≤ ${ISSUE30.bridgeTime}×`,
      met: r ? 1 / r.bridgeToDirect.median <= ISSUE30.bridgeTime : null,
    });
  }
  const callRatios: { where: string; official: Ratio; raw: Ratio }[] = [];
  for (const env of ['node', 'chromium'] as const) {
    for (const mode of ['sequential', 'concurrent'] as const) {
      const r = run.calls?.[env]?.ratios[mode];
      if (r) callRatios.push({ where: `${env} ${mode === 'sequential' ? 'sequential' : '16 in flight'}`, official: r.kitToOfficial, raw: r.kitToRaw });
    }
  }
  rows.push({
    measure: 'calls/s, kit ÷ official client, everywhere (Node and Chromium, sequential and 16 in flight)',
    now: callRatios.length ? callRatios.map((c) => `${c.where} ${range(c.official)}`).join('; ') : 'not measured',
    goal: `≥ ${ISSUE30.kitToOfficial} everywhere`,
    met: callRatios.length ? callRatios.every((c) => c.official.median >= ISSUE30.kitToOfficial) : null,
  });
  rows.push({
    measure: 'calls/s, kit ÷ raw fetch, everywhere',
    now: callRatios.length ? callRatios.map((c) => `${c.where} ${range(c.raw)}`).join('; ') : 'not measured',
    goal: `≥ ${ISSUE30.kitToRaw} everywhere`,
    met: callRatios.length ? callRatios.every((c) => c.raw.median >= ISSUE30.kitToRaw) : null,
  });
  const sse = run.sse?.sizes.filter((s) => s.transportShare) ?? [];
  rows.push({
    measure: 'SSE, whole transport ÷ eventsource-parser alone (throughput)',
    now: sse.length ? sse.map((s) => `${s.mib} MiB ${Math.round(s.transportShare!.median * 100)} % [${Math.round(s.transportShare!.p25 * 100)}–${Math.round(s.transportShare!.p75 * 100)} %]`).join('; ') : 'not measured',
    goal: `≥ ${ISSUE30.sseShare * 100} %`,
    met: sse.length ? sse.every((s) => s.transportShare!.median >= ISSUE30.sseShare) : null,
  });
  const huge = run.huge?.list.sizes.at(-1);
  rows.push({
    measure: '`tools/list` of 10,000 tools (Node): kit ÷ official client and ÷ raw fetch (time); retained heap',
    now: huge?.kitToOfficial && huge.kitToRaw
      ? `÷ official ${range(huge.kitToOfficial)}, ÷ raw ${range(huge.kitToRaw)}; heap kit ${huge.candidates.kit.retainedBytes === null ? '–' : kib(huge.candidates.kit.retainedBytes)}, official ${huge.candidates.official.retainedBytes === null ? '–' : kib(huge.candidates.official.retainedBytes)}`
      : 'not measured',
    goal: 'none stated',
    met: null,
  });
  const sidebar = run.huge?.sidebar;
  rows.push({
    measure: "the playground's sidebar tool list from a 10,000-tool listing to rendered (Chromium)",
    now: sidebar ? `${sidebar.renderMs.median} ms [${sidebar.renderMs.p25}–${sidebar.renderMs.p75}] (${sidebar.rows} rows rendered)` : 'not measured',
    goal: 'none stated',
    met: null,
  });
  const session = run.session;
  rows.push({
    measure: `long session, 50 calls/s${session ? ` for ${session.plan.minutes} min` : ''}: heap after GC start → end, kit and official; p50 / p99 kit ÷ official`,
    now: session
      ? `kit ${kib(session.candidates.kit.heap[0]!.bytes)} → ${kib(session.candidates.kit.heap.at(-1)!.bytes)}, official ${kib(session.candidates.official.heap[0]!.bytes)} → ${kib(session.candidates.official.heap.at(-1)!.bytes)}; p50 ×${session.ratios.p50}, p99 ×${session.ratios.p99}; failed ${session.candidates.kit.failed} / ${session.candidates.official.failed}`
      : 'not measured',
    goal: 'none stated (a leak shows as growth)',
    met: null,
  });
  const cold = run.cold;
  rows.push({
    measure: 'cold load of the one-form page to an enabled input, mid-range phone (CPU ×4, Slow 4G), kit ÷ native inputs',
    now: cold ? `×${range(cold.ratios)} (${cold.kitMs.median} ms vs ${cold.nativeMs.median} ms)` : 'not measured',
    goal: 'none stated',
    met: null,
  });
  return rows;
}

const table = (head: string[], rows: (string | number)[][]) =>
  [`| ${head.join(' | ')} |`, `| ${head.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const mark = (met: boolean | null) => (met === null ? '–' : met ? 'met' : '**missed**');

/** Issue 30's table, the new rows' sections and the section durations, for bench/README.md. */
export function renderIssue30(run: RunResult): string[] {
  const out: string[] = [
    '### Issue 30: what users feel',
    '',
    'The current goals. A ratio is the kit over the other (time, unless the row says calls/s); "native" is as many plain labelled inputs. "none stated": the issue asked for the measure, not for a value.',
    '',
  ];
  out.push(table(['Measure', 'Now: median [interquartile range]', 'Goal', 'Verdict'], issue30Rows(run).map((r) => [r.measure, r.now, r.goal, mark(r.met)])));
  if (run.session) {
    const s = run.session;
    out.push('', `### Long session (Node, ${s.plan.minutes} min at ${s.plan.rate} calls/s each)`, '');
    out.push(
      table(
        ['Candidate', 'calls completed / started (failed)', 'p50 ms', 'p99 ms', 'heap after full GC, KiB (at s)'],
        (['kit', 'official'] as const).map((name) => {
          const c = s.candidates[name];
          return [name === 'kit' ? 'mcp-web-elements core' : 'official client 2.4.0', `${c.completed} / ${c.started} (${c.failed})`, c.p50Ms, c.p99Ms, c.heap.map((h) => `${Math.round(h.bytes / 1024)} (${h.atSeconds})`).join(', ')];
        }),
      ),
    );
    const errors = (['kit', 'official'] as const).filter((n) => s.candidates[n].firstError).map((n) => `${n}: ${s.candidates[n].firstError}`);
    out.push('');
    out.push(
      `kit ÷ official: heap at the end ×${s.ratios.heapEnd}, p50 ×${s.ratios.p50}, p99 ×${s.ratios.p99}, calls completed ×${s.ratios.completed}. Each client in its own Node process (\`--expose-gc\`), both at once against one official-SDK server in a third (${s.server}); a call starts every ${1000 / s.plan.rate} ms whatever the answers (a fixed arrival rate), every answer checked; the heap is sampled after a full collection at the start, ${s.plan.points} times between and after the last answer. The session runs beside the size section, which measures bytes, not time.${errors.length ? ` First failures: ${errors.join('; ')}.` : ''}`,
    );
  }
  if (run.cold) {
    const c = run.cold;
    out.push('', `### Cold page load (headless Chromium, CPU ×${c.profile.cpuSlowdown}, ${c.profile.latencyMs} ms round trip, ${c.profile.downloadKbps} / ${c.profile.uploadKbps} kbps, no cache)`, '');
    out.push(
      table(
        ['Page', 'navigation start → first input enabled, ms: median [interquartile range]', 'p95 ms'],
        [
          [`the one-form page: the full kit, \`<mcp-connection>\` + \`<mcp-tool-form tool-name="echo">\` (${c.kitFiles} script files, ${(c.kitBytes / 1024).toFixed(1)} KiB gzip with the HTML)`, `${c.kitMs.median} [${c.kitMs.p25}–${c.kitMs.p75}]`, c.kitMs.p95],
          ['native inputs built from the same server\'s `tools/list` (an inline script)', `${c.nativeMs.median} [${c.nativeMs.p25}–${c.nativeMs.p75}]`, c.nativeMs.p95],
        ],
      ),
    );
    out.push('');
    out.push(
      `kit ÷ native per round ×${range(c.ratios)}. ${c.plan.rounds} rounds, the two pages back to back (which goes first alternates), each load in a new browser context with the cache disabled; files served gzipped (level 9); the MCP server is the official SDK on another loopback origin, so both pages pay the CORS preflight and the round trips. The end is the first animation frame in which the form's first input is in the DOM and enabled (a probe both pages run).`,
    );
  }
  if (run.sections) {
    out.push('');
    out.push(`Section durations (s): ${Object.entries(run.sections).map(([k, v]) => `${k} ${v}`).join(', ')}; total ${run.durationSeconds} s (the session overlapped the size section).`);
  }
  return out;
}
