/**
 * One client of the long session (bench/session.ts), in its own Node process (run with
 * `--expose-gc`): connects to the echo server at `<url>`, then starts an `echo` call every
 * 1000/`rate` ms for `minutes` (a fixed arrival rate: a slow answer does not delay the next call),
 * checks every answer, and samples the heap after a full collection at the start, at `points` even
 * intervals and at the end. Prints one JSON line ({@link SessionClientResult}) on stdout.
 *
 * Usage: `node --expose-gc --import tsx bench/session-client.ts <kit|official> <url> <rate> <minutes> <points>`
 */
import type { Candidate } from './entries/candidate.js';
import { open as openKit } from './entries/kit.js';
import { open as openOfficial } from './entries/official.js';
import { collect } from './stats.js';

export interface SessionClientResult {
  candidate: string;
  /** Calls started, answered correctly, and failed (a wrong answer or an error). */
  started: number;
  completed: number;
  failed: number;
  /** The first failure's message, if any. */
  firstError?: string;
  /** Latency of every completed call, in ms, in completion order. */
  latencies: number[];
  /** Heap used after a full collection, in bytes, at seconds since the session started. */
  heap: { atSeconds: number; bytes: number }[];
  elapsedSeconds: number;
}

const [name, url, rateText, minutesText, pointsText] = process.argv.slice(2);
const rate = Number(rateText);
const durationMs = Number(minutesText) * 60_000;
const points = Number(pointsText);
const candidate: Candidate = await (name === 'kit' ? openKit : openOfficial)(url!);
// Warm up (first calls compile and open the connection pool) before the first heap sample.
for (let i = 0; i < 50; i++) await candidate.call(`w${i}`);

const result: SessionClientResult = { candidate: name!, started: 0, completed: 0, failed: 0, latencies: [], heap: [], elapsedSeconds: 0 };
const start = performance.now();
const sample = () => {
  collect();
  result.heap.push({ atSeconds: Math.round((performance.now() - start) / 100) / 10, bytes: process.memoryUsage().heapUsed });
};
sample();
const inFlight = new Set<Promise<void>>();
const call = (i: number) => {
  const text = `s${i}`;
  const t = performance.now();
  const p = candidate.call(text).then(
    (answer) => {
      if (answer === text) {
        result.completed++;
        result.latencies.push(performance.now() - t);
      } else {
        result.failed++;
        result.firstError ??= `echo answered ${JSON.stringify(answer)} to ${text}`;
      }
    },
    (error: unknown) => {
      result.failed++;
      result.firstError ??= String(error);
    },
  );
  inFlight.add(p);
  void p.finally(() => inFlight.delete(p));
};
const interval = 1000 / rate;
let nextSample = 1;
// Each call is due at start + i × interval; the loop sleeps until the next one is due (never drifts).
for (let i = 0; ; i++) {
  const due = i * interval;
  if (due >= durationMs) break;
  const wait = due - (performance.now() - start);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  call(i);
  result.started++;
  if (nextSample <= points && performance.now() - start >= (nextSample * durationMs) / (points + 1)) {
    nextSample++;
    sample();
  }
}
await Promise.all(inFlight);
sample();
result.elapsedSeconds = Math.round((performance.now() - start) / 100) / 10;
await candidate.close();
// Exit once the line is written: a pipe may still be flushing it.
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
