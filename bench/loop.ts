/**
 * The call loop shared by Node (bench/calls.ts) and Chromium (bench/page.ts).
 */
import type { Candidate } from './entries/candidate.js';

export interface LoopResult {
  elapsedMs: number;
  /** Per-call latency in ms, in call order. */
  latencies: number[];
  /** CPU time the client's process spent (user + system), in µs; Node only, where the server runs in another process. */
  cpuMicros?: number;
}

/**
 * Calls `echo` `n` times with `concurrency` calls in flight and checks every answer.
 */
export async function callLoop(candidate: Candidate, n: number, concurrency: number, tag = 'm'): Promise<LoopResult> {
  const latencies = new Array<number>(n).fill(0);
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const text = `${tag}${i}`;
      const t = performance.now();
      const answer = await candidate.call(text);
      latencies[i] = performance.now() - t;
      if (answer !== text) throw new Error(`echo answered ${JSON.stringify(answer)} to ${JSON.stringify(text)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { elapsedMs: performance.now() - start, latencies };
}

