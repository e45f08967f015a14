/**
 * Call overhead: `tools/call` of `echo` against one official-SDK server on
 * loopback, sequentially and with 16 calls in flight, for the three candidates
 * alternated round by round. The same loop runs in Node and in Chromium.
 *
 * The machine is shared, so load drifts during a run. Each round runs the three
 * candidates back to back, and the ratios are the median of the per-round
 * ratios (a paired comparison): drift between rounds cancels out.
 */
import { median, percentile, rotation, round } from './stats.js';
import type { LoopResult } from './loop.js';

export const CANDIDATES = ['kit', 'official', 'raw'] as const;
export type CandidateName = (typeof CANDIDATES)[number];

/** Runs a batch of calls for one candidate, wherever it lives (Node or a page). */
export type LoopDriver = (name: CandidateName, n: number, concurrency: number) => Promise<LoopResult>;

export interface CallPlan {
  rounds: number;
  /** Calls per sequential batch. */
  sequential: number;
  /** Calls per concurrent batch. */
  concurrent: number;
  /** Calls in flight in a concurrent batch. */
  concurrency: number;
  /** Unmeasured calls per candidate before the first round. */
  warmup: number;
}

export interface ModeStats {
  /** Median over rounds of calls / elapsed time. */
  callsPerSecond: number;
  roundsCallsPerSecond: number[];
  /** Latency percentiles over every measured call of every round, in ms. */
  p50Ms: number;
  p99Ms: number;
  /** HTTP requests the server received per measured call (1 means no extra traffic). */
  requestsPerCall: number;
  /** Median over rounds of the client process's CPU time per call, in µs (Node only). */
  cpuMicrosPerCall?: number;
}

export interface Ratio {
  /** Median of the per-round ratios. */
  median: number;
  /** Interquartile range of the per-round ratios: how much the machine's noise moved them. */
  p25: number;
  p75: number;
  rounds: number[];
}

export interface CallsResult {
  environment: 'node' | 'chromium';
  plan: CallPlan;
  candidates: Record<CandidateName, { sequential: ModeStats; concurrent: ModeStats }>;
  /** calls/s ratios: (a) kit over (c) raw fetch and over (b) the official client. */
  ratios: Record<'sequential' | 'concurrent', { kitToRaw: Ratio; kitToOfficial: Ratio }>;
  /** CORS preflights the server answered during the measured rounds (Chromium only). */
  preflights?: number;
}

function total(counts: Record<string, number>): number {
  let sum = 0;
  for (const [key, value] of Object.entries(counts)) if (key !== 'OPTIONS') sum += value;
  return sum;
}

/**
 * Measures every candidate with `drive`, alternating their order per round.
 * @param counts - reads the server's request counters (to check requests per call).
 */
export async function measureCalls(
  environment: CallsResult['environment'],
  drive: LoopDriver,
  counts: () => Promise<Record<string, number>>,
  plan: CallPlan,
): Promise<CallsResult> {
  for (const name of CANDIDATES) {
    await drive(name, plan.warmup, 1);
    await drive(name, plan.warmup, plan.concurrency);
  }
  type Acc = { rates: number[]; latencies: number[]; calls: number; requests: number; cpu: number[] };
  const acc = new Map<string, Acc>();
  const add = (key: string, result: LoopResult, requests: number) => {
    const entry = acc.get(key) ?? { rates: [], latencies: [], calls: 0, requests: 0, cpu: [] };
    entry.rates.push((result.latencies.length / result.elapsedMs) * 1000);
    if (result.cpuMicros !== undefined) entry.cpu.push(result.cpuMicros / result.latencies.length);
    for (const latency of result.latencies) entry.latencies.push(latency);
    entry.calls += result.latencies.length;
    entry.requests += requests;
    acc.set(key, entry);
  };
  const preflightsBefore = (await counts()).OPTIONS ?? 0;
  for (let r = 0; r < plan.rounds; r++) {
    for (const [mode, n, concurrency] of [
      ['sequential', plan.sequential, 1],
      ['concurrent', plan.concurrent, plan.concurrency],
    ] as const) {
      for (const name of rotation(CANDIDATES, r)) {
        const before = total(await counts());
        const result = await drive(name, n, concurrency);
        add(`${name} ${mode}`, result, total(await counts()) - before);
      }
    }
  }
  const stats = (key: string): ModeStats => {
    const entry = acc.get(key)!;
    return {
      callsPerSecond: round(median(entry.rates), 1),
      roundsCallsPerSecond: entry.rates.map((v) => round(v, 1)),
      p50Ms: round(percentile(entry.latencies, 50)),
      p99Ms: round(percentile(entry.latencies, 99)),
      requestsPerCall: round(entry.requests / entry.calls, 3),
      ...(entry.cpu.length ? { cpuMicrosPerCall: Math.round(median(entry.cpu)) } : {}),
    };
  };
  const candidates = Object.fromEntries(CANDIDATES.map((name) => [name, { sequential: stats(`${name} sequential`), concurrent: stats(`${name} concurrent`) }])) as CallsResult['candidates'];
  const paired = (mode: 'sequential' | 'concurrent', other: CandidateName): Ratio => {
    const kit = acc.get(`kit ${mode}`)!.rates;
    const them = acc.get(`${other} ${mode}`)!.rates;
    const rounds = kit.map((rate, i) => rate / them[i]!);
    return { median: round(median(rounds)), p25: round(percentile(rounds, 25)), p75: round(percentile(rounds, 75)), rounds: rounds.map((v) => round(v)) };
  };
  const ratio = (mode: 'sequential' | 'concurrent') => ({ kitToRaw: paired(mode, 'raw'), kitToOfficial: paired(mode, 'official') });
  const preflights = ((await counts()).OPTIONS ?? 0) - preflightsBefore;
  return {
    environment,
    plan,
    candidates,
    ratios: { sequential: ratio('sequential'), concurrent: ratio('concurrent') },
    ...(environment === 'chromium' ? { preflights } : {}),
  };
}
