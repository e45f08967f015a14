/**
 * The long session (issue 30): the kit and the official client each make 50 `echo` calls a second
 * for `minutes` against the same official-SDK server (bench/echo-server.ts, its own process), each
 * client in its own Node process (bench/session-client.ts) and both at once, so the row costs the
 * session's length once. What it is about: heap after a full collection at the start, during and at
 * the end (a leak grows it), calls completed, and latency at a fixed arrival rate.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spawnServer } from './child.js';
import type { SessionClientResult } from './session-client.js';
import { median, percentile, round } from './stats.js';

export interface SessionPlan {
  /** Length of the session, in minutes. */
  minutes: number;
  /** Calls started per second, per client. */
  rate: number;
  /** Heap samples between the first and the last. */
  points: number;
}

export interface SessionCandidate {
  started: number;
  completed: number;
  failed: number;
  firstError?: string;
  p50Ms: number;
  p99Ms: number;
  /** Heap used after a full collection, in bytes, at seconds since the start. */
  heap: { atSeconds: number; bytes: number }[];
  /** Last heap sample minus the first, in bytes. */
  growthBytes: number;
  elapsedSeconds: number;
}

export interface SessionResult {
  plan: SessionPlan;
  server: string;
  candidates: { kit: SessionCandidate; official: SessionCandidate };
  /** kit ÷ official: heap at the end, p50 and p99 latency, calls completed. */
  ratios: { heapEnd: number; p50: number; p99: number; completed: number };
}

function runClient(name: 'kit' | 'official', url: string, plan: SessionPlan): Promise<SessionClientResult> {
  const path = fileURLToPath(new URL('session-client.ts', import.meta.url));
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', path, name, url, String(plan.rate), String(plan.minutes), String(plan.points)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
  return new Promise((resolve, reject) => {
    // 'close', not 'exit': the child may have exited before its stdout (one long JSON line) is all read.
    child.once('close', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code === 0 && line) resolve(JSON.parse(line) as SessionClientResult);
      else reject(new Error(`the ${name} session client exited with ${code}: ${err.trim().slice(-2000)}`));
    });
  });
}

function summary(r: SessionClientResult): SessionCandidate {
  return {
    started: r.started,
    completed: r.completed,
    failed: r.failed,
    ...(r.firstError ? { firstError: r.firstError } : {}),
    p50Ms: round(median(r.latencies), 3),
    p99Ms: round(percentile(r.latencies, 99), 3),
    heap: r.heap,
    growthBytes: r.heap.at(-1)!.bytes - r.heap[0]!.bytes,
    elapsedSeconds: r.elapsedSeconds,
  };
}

/** Runs the session (run.ts starts it and awaits it after the size section, which measures no time). */
export async function measureSession(plan: SessionPlan, log: (line: string) => void): Promise<SessionResult> {
  const server = await spawnServer('echo-server.ts', [], (line) => {
    if (!line.startsWith("responseMode: 'json'")) process.stderr.write(`echo-server: ${line}\n`);
  });
  try {
    const [kit, official] = await Promise.all([runClient('kit', server.urls[0]!, plan), runClient('official', server.urls[0]!, plan)]);
    const candidates = { kit: summary(kit), official: summary(official) };
    const ratio = (a: number, b: number) => round(a / b, 3);
    const result: SessionResult = {
      plan,
      server: 'official SDK @modelcontextprotocol/server 2.4.0 in its own Node process: createMcpHandler, 2026-07-28 only, responseMode json, one echo tool',
      candidates,
      ratios: {
        heapEnd: ratio(candidates.kit.heap.at(-1)!.bytes, candidates.official.heap.at(-1)!.bytes),
        p50: ratio(candidates.kit.p50Ms, candidates.official.p50Ms),
        p99: ratio(candidates.kit.p99Ms, candidates.official.p99Ms),
        completed: ratio(candidates.kit.completed, candidates.official.completed),
      },
    };
    for (const name of ['kit', 'official'] as const) {
      const c = candidates[name];
      log(`  ${name}: ${c.completed}/${c.started} calls (${c.failed} failed), p50 ${c.p50Ms} ms, p99 ${c.p99Ms} ms; heap ${c.heap.map((h) => `${Math.round(h.bytes / 1024)} KiB @${h.atSeconds}s`).join(', ')}`);
    }
    return result;
  } finally {
    await server.close();
  }
}
