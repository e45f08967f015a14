/**
 * Small statistics and machine facts shared by the benchmark sections.
 */
import { cpus, hostname, loadavg, totalmem } from 'node:os';

/** The median of `values` (NaN when empty). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** The `p`th percentile (0–100) of `values`, nearest-rank on the sorted copy (NaN when empty). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Rounds to `digits` decimals (keeps JSON results readable). */
export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * The orders in which candidates run in round `r`: a rotation, so each one
 * runs first, in the middle and last equally often across rounds.
 */
export function rotation<T>(items: readonly T[], r: number): T[] {
  const k = r % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

export interface Machine {
  host: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  chromium?: string;
}

export function machine(): Machine {
  const list = cpus();
  return {
    host: hostname().split('.')[0] ?? 'host',
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: round(totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** 1, 5 and 15 minute load averages. */
export function load(): number[] {
  return loadavg().map((v) => round(v, 2));
}

/** Forces full garbage collection (needs `node --expose-gc`); a no-op otherwise. */
export function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
}

export const canCollect = (): boolean => typeof (globalThis as { gc?: unknown }).gc === 'function';

/** Median, interquartile range and the values of a set of paired per-round ratios. */
export interface Spread {
  median: number;
  p25: number;
  p75: number;
  /** 95th percentile (nearest rank). */
  p95: number;
  values: number[];
}

/** The {@link Spread} of `values`, rounded to `digits` decimals. */
export function spread(values: readonly number[], digits = 3): Spread {
  return {
    median: round(median(values), digits),
    p25: round(percentile(values, 25), digits),
    p75: round(percentile(values, 75), digits),
    p95: round(percentile(values, 95), digits),
    values: values.map((v) => round(v, digits)),
  };
}
