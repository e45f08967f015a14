/**
 * Hostile inputs (issue 19, item 2), Node side: starts the raw server that
 * sends megabytes of names (test/support/hostile-server.ts) and has
 * the bench page render each input; reports the page's longest main-thread
 * block per input, beside a page that renders nothing.
 */
import { startHostileServer } from '../test/support/hostile-server.js';
import type { BenchBrowser } from './chromium.js';
import type { HostileSample } from './hostile-page.js';
import { median, round } from './stats.js';

export interface HostileCase extends HostileSample {
  input: string;
}

export interface HostileResult {
  /** Medians over `repeats` runs of each input (the first input is the page that renders nothing). */
  cases: HostileCase[];
  repeats: number;
}

export async function measureHostile(bench: BenchBrowser, repeats: number, log: (line: string) => void): Promise<HostileResult> {
  const server = await startHostileServer();
  try {
    await bench.page.evaluate(() => window.benchPage!.loadKit());
    const inputs = await bench.page.evaluate(() => window.benchPage!.hostile.inputs());
    const cases: HostileCase[] = [];
    for (const input of inputs) {
      const samples: HostileSample[] = [];
      for (let i = 0; i < repeats; i++) {
        samples.push(await bench.page.evaluate(([name, url]) => window.benchPage!.hostile.run(name, url), [input, server.hugeUrl] as const));
      }
      const pick = (key: keyof HostileSample) => round(median(samples.map((s) => s[key])), 1);
      const result: HostileCase = { input, longestBlockMs: pick('longestBlockMs'), longestTaskMs: pick('longestTaskMs'), totalMs: pick('totalMs'), nodes: samples[0]!.nodes };
      log(`  ${input}: longest block ${result.longestBlockMs} ms, longest task ${result.longestTaskMs} ms, settled in ${result.totalMs} ms, ${result.nodes} nodes`);
      cases.push(result);
    }
    return { cases, repeats };
  } finally {
    await server.close();
  }
}
