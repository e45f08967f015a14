/**
 * Schema section (issue "Hardening…", items 3 and 4), in Node:
 *
 * - Patterns: checking a value against a server's `pattern` with the kit's
 *   linear-time engine (src/schema/patterns/linear-regexp.ts), against today's way before it
 *   (the browser's backtracking engine, after the shape check that skipped the
 *   patterns it judged risky) and against re2js (a maintained RE2 port, the
 *   alternative considered). Sizes: each engine minified and gzipped. Times:
 *   safe real-world patterns on short and 30,000-character values, and the
 *   catastrophic patterns of the issue, where the backtracking engine is timed
 *   on values short enough to finish (its time grows exponentially or
 *   polynomially with the length) and the linear engine on 30,000 characters.
 *   Long operations are the median of three runs, short ones of five rounds of
 *   at least 40 ms.
 * - Validation cost: the `$ref` fan-out schema (each definition an `anyOf` or
 *   `allOf` of two references to the next) checked by ajv and by
 *   @cfworker/json-schema directly, level by level (the time doubles per level;
 *   26 levels is extrapolated), against the kit, which refuses such a schema
 *   once one value could take more than `maxEvaluations` evaluations: the
 *   deepest fan-out it still checks is the worst case it can spend on one value.
 */
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { validate as cfValidate, dereference } from '@cfworker/json-schema';
import * as AjvModule from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';
import { build, type Rollup } from 'vite';
import { fanOutSchema } from '../components/test-support/fixtures.js';
import { cfworkerCompiler } from '../src/schema/cfworker.js';
import { compileSchema, useSchemaCompiler } from '../src/index.js';
import { DEFAULT_LIMITS } from '../src/schema/schema-guard.js';
import { compileLinear, type LinearRegExp } from '../src/schema/patterns/linear-regexp.js';

export interface PatternRow {
  pattern: string;
  kind: 'safe' | 'catastrophic';
  /** What the kit did before: ran it natively, or skipped it (unchecked) after the shape check. */
  before: 'native' | 'skipped';
  /** Per check, µs: the backtracking engine on `nativeLength` characters (undefined: not timed, it would not finish). */
  native?: { length: number; micros: number };
  /** Per check, µs, on `length` characters. */
  linear: { length: number; micros: number };
  re2js?: { length: number; micros: number } | 'unsupported';
}

export interface FanOutRow {
  keyword: 'anyOf' | 'allOf';
  levels: number;
  bytes: number;
  ajvMs: number;
  cfworkerMs: number;
  /** What the kit does with it: checks it (ms with ajv, with cfworker), or refuses it before compiling (ms to decide). */
  kit: { checked: true; ajvMs: number; cfworkerMs: number } | { checked: false; ms: number };
}

export interface SchemaResult {
  sizes: { linear: number; re2js: number; heuristic: number };
  patterns: PatternRow[];
  fanOut: FanOutRow[];
  /** Fan-out at 26 levels, extrapolated from the deepest measured level (the time doubles per level), seconds. */
  extrapolated26: { ajv: number; cfworker: number };
  maxEvaluations: number;
}

const Ajv = ((m: unknown) => {
  let value = m as { default?: unknown };
  while (typeof value !== 'function' && value && 'default' in value) value = value.default as { default?: unknown };
  return value as unknown as new (options: object) => { compile(schema: unknown): (value: unknown) => boolean };
})(AjvModule);

/** µs per call of `run`, median of 5 rounds of at least 40 ms each. */
function time(run: () => unknown): number {
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    let n = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      run();
      n++;
      elapsed = performance.now() - start;
    } while (elapsed < 40);
    rounds.push((elapsed * 1000) / n);
  }
  rounds.sort((a, b) => a - b);
  return Math.round(rounds[2]! * 100) / 100;
}

/** ms of something that takes long: the median of three runs. */
function once(run: () => unknown): number {
  const times = [0, 1, 2].map(() => {
    const start = performance.now();
    run();
    return performance.now() - start;
  });
  times.sort((a, b) => a - b);
  return Math.round(times[1]! * 10) / 10;
}

async function minifiedGzip(root: string, entry: string): Promise<number> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    root,
    build: { write: false, minify: true, lib: { entry: join(root, entry), formats: ['es'], fileName: 'entry' }, rolldownOptions: { external: [] } },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const chunks = [output].flat().flatMap((o) => o.output).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  return chunks.reduce((sum, chunk) => sum + gzipSync(chunk.code).length, 0);
}

const SAFE: [string, string, string, PatternRow['before']][] = [
  // pattern, a matching short value, a 30,000-character value, what the kit did before
  ['^\\d{4}-\\d{2}-\\d{2}$', '2026-11-30', '2'.repeat(30_000), 'native'],
  ['^[a-zA-Z0-9_.-]+\\.(png|svg|gif)$', 'chart_01.png', 'a'.repeat(30_000) + '.png', 'native'],
  ['^[a-z]+([=!,]{1,2}[a-z]+)+$', 'status!=done,owner=ana', 'ab=cd'.repeat(6_000), 'skipped'],
  ['^P(?!$)(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+S)?)?$', 'P1Y2M3DT4H5M6S', 'P' + '1'.repeat(29_998) + 'D', 'skipped'],
];

/**
 * The issue's patterns, with a value length at which the backtracking engine
 * still finishes in well under a second, and what the kit did with each before
 * the linear-time engine (the shape check of commit f88607c ran the first four
 * natively and skipped the last; safe patterns above were all run natively,
 * except the delimited repeat and the duration, which it skipped).
 */
const CATASTROPHIC: [string, (n: number) => string, number, PatternRow['before']][] = [
  ['a*a*b', (n) => 'a'.repeat(n), 1_000, 'native'],
  ['\\d+\\d+x', (n) => '1'.repeat(n), 1_000, 'native'],
  ['.*.*=.*', (n) => 'x'.repeat(n), 1_000, 'native'],
  ['^(\\s*a\\s*)+$', (n) => ' a'.repeat(n / 2) + '!', 40, 'native'],
  ['^(a+)+$', (n) => 'a'.repeat(n) + '!', 22, 'skipped'],
];

export async function measureSchema(root: string, log: (line: string) => void): Promise<SchemaResult> {
  log('  sizes: the linear-time engine, re2js, the shape check');
  const sizes = {
    linear: await minifiedGzip(root, 'src/schema/patterns/linear-regexp.ts'),
    re2js: await minifiedGzip(root, 'node_modules/re2js/build/index.js'),
    heuristic: await minifiedGzip(root, 'src/schema/patterns/regex-safety.ts'),
  };
  const re2 = (pattern: string) => {
    try {
      return RE2JS.compile(pattern);
    } catch {
      return undefined;
    }
  };
  const patterns: PatternRow[] = [];
  for (const [pattern, short, long, before] of SAFE) {
    const native = new RegExp(pattern, 'u');
    const linear = compileLinear(pattern) as LinearRegExp;
    const r2 = re2(pattern);
    for (const text of [short, long]) {
      patterns.push({
        pattern,
        kind: 'safe',
        before,
        native: { length: text.length, micros: time(() => native.test(text)) },
        linear: { length: text.length, micros: time(() => linear.test(text)) },
        re2js: r2 ? { length: text.length, micros: time(() => r2.test(text)) } : 'unsupported',
      });
    }
    log(`  ${pattern}: done`);
  }
  for (const [pattern, value, nativeLength, before] of CATASTROPHIC) {
    const native = new RegExp(pattern, 'u');
    const linear = compileLinear(pattern) as LinearRegExp;
    const r2 = re2(pattern);
    const text = value(nativeLength);
    const long = value(30_000);
    patterns.push({
      pattern,
      kind: 'catastrophic',
      before,
      native: { length: text.length, micros: Math.round(once(() => native.test(text)) * 1000) },
      linear: { length: long.length, micros: time(() => linear.test(long)) },
      re2js: r2 ? { length: long.length, micros: time(() => r2.test(long)) } : 'unsupported',
    });
    log(`  ${pattern}: native ${patterns.at(-1)!.native!.micros} µs at ${text.length}, linear ${patterns.at(-1)!.linear.micros} µs at ${long.length}`);
  }

  log('  fan-out: ajv and cfworker directly, and the kit');
  const fanOut: FanOutRow[] = [];
  const deepest = { ajv: 0, cfworker: 0, levels: 0 };
  for (const keyword of ['anyOf', 'allOf'] as const) {
    for (const levels of [8, 10, 12, 14, 26]) {
      const schema = fanOutSchema(levels, keyword);
      const bytes = JSON.stringify(schema).length;
      let ajvMs = NaN;
      let cfworkerMs = NaN;
      if (levels <= 14) {
        const ajvCheck = new Ajv({ strict: false, allErrors: true }).compile(structuredClone(schema));
        ajvMs = once(() => ajvCheck('a'));
        const copy = structuredClone(schema);
        const lookup = dereference(copy);
        cfworkerMs = once(() => cfValidate('a', copy, '2020-12', lookup, false));
        if (levels >= deepest.levels) Object.assign(deepest, { ajv: ajvMs, cfworker: cfworkerMs, levels });
      }
      let kit: FanOutRow['kit'];
      useSchemaCompiler(undefined);
      const compiled = await compileSchema(structuredClone(schema)).catch(() => undefined);
      if (compiled) {
        const kitAjv = once(() => compiled('a'));
        useSchemaCompiler(cfworkerCompiler);
        const withCfworker = await compileSchema(structuredClone(schema));
        kit = { checked: true, ajvMs: kitAjv, cfworkerMs: once(() => withCfworker('a')) };
      } else {
        // Deciding to refuse: the median of five fresh compiles (each a new schema object, so none is cached).
        const times: number[] = [];
        for (let n = 0; n < 5; n++) {
          const started = performance.now();
          await compileSchema(structuredClone(schema)).catch(() => undefined);
          times.push(performance.now() - started);
        }
        times.sort((a, b) => a - b);
        kit = { checked: false, ms: Math.round(times[2]! * 10) / 10 };
      }
      useSchemaCompiler(undefined);
      fanOut.push({ keyword, levels, bytes, ajvMs, cfworkerMs, kit });
      log(`  ${keyword} × ${levels}: ajv ${ajvMs} ms, cfworker ${cfworkerMs} ms; kit ${kit.checked ? `checks it (${kit.ajvMs} / ${kit.cfworkerMs} ms)` : `refuses it (${kit.ms} ms)`}`);
    }
  }
  const factor = 2 ** (26 - deepest.levels);
  return {
    sizes,
    patterns,
    fanOut,
    extrapolated26: { ajv: Math.round((deepest.ajv * factor) / 100) / 10, cfworker: Math.round((deepest.cfworker * factor) / 100) / 10 },
    maxEvaluations: DEFAULT_LIMITS.maxEvaluations,
  };
}
