/**
 * The corpus row of the form section (issue 30): every tool of a corpus folder
 * of `tools/list` dumps (`../shared/schemas`, or `--corpus <dir>`) rendered as
 * `<mcp-tool-form>` and as the same number of plain native inputs in the same
 * page, alternated; the ratio of each tool is the median of its paired
 * renders, and the row reports the median, interquartile range and p95 of
 * those ratios over every tool, with the five worst tools. The corpus is read
 * where it lies and never copied into the project; the results name tools and
 * files only.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchBrowser } from './chromium.js';
import { round, spread, type Spread } from './stats.js';

export interface CorpusTool {
  /** The tool's `name`. */
  schema: string;
  /** The corpus file it came from. */
  source: string;
  /** The tool's `title` and `description`, when strings: both the form and the hand-written baseline show them. */
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface CorpusToolResult {
  schema: string;
  source: string;
  controls: number;
  /** Median render of `<mcp-tool-form>`, ms. */
  formMs: number;
  /** Median render of as many plain labelled inputs (at least one), ms (mean of a batch of 5). */
  baselineMs: number;
  /** Median of the tool's paired per-render ratios. */
  ratio: number;
  /** Median render of the hand-written equivalent form (bench/handwritten-form.ts), ms (mean of a batch of 5; absent from older runs). */
  handMs?: number;
  /** Median of the tool's paired per-render ratios to the hand-written form (absent from older runs). */
  handRatio?: number;
}

export interface FormCorpusResult {
  /** The folder measured (as given). */
  corpus: string;
  files: number;
  tools: number;
  /** Renders per tool. */
  repeats: number;
  /** The per-tool ratios to the bare baseline (as many labelled text inputs) over every tool: median, interquartile range, p95 (`values` dropped: one per tool). */
  ratios: Omit<Spread, 'values'>;
  /** The per-tool ratios to the hand-written equivalent form over every tool (absent from older runs). */
  handRatios?: Omit<Spread, 'values'>;
  /** Median over every tool of the hand-written form's render, ms (absent from older runs). */
  handMs?: number;
  /** Median over every tool of the form's render, ms, and of the baseline's. */
  formMs: number;
  baselineMs: number;
  /** The five tools with the highest ratio. */
  worst: CorpusToolResult[];
}

/** Every tool with an object `inputSchema` in the corpus folder's `*.json` `tools/list` dumps, in file order. */
export function corpusTools(dir: string): { files: number; tools: CorpusTool[] } {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const tools: CorpusTool[] = [];
  for (const file of files) {
    let data: { tools?: { name?: unknown; title?: unknown; description?: unknown; inputSchema?: unknown }[] };
    try {
      data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as typeof data;
    } catch {
      continue; // not a tools/list dump
    }
    for (const tool of Array.isArray(data.tools) ? data.tools : []) {
      if (typeof tool?.name !== 'string' || typeof tool.inputSchema !== 'object' || tool.inputSchema === null) continue;
      tools.push({
        schema: tool.name,
        source: file,
        ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
        ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
        inputSchema: tool.inputSchema as Record<string, unknown>,
      });
    }
  }
  return { files: files.length, tools };
}

/** What the page renders for a corpus tool: its name, title, description and input schema. */
export const benchTool = (t: CorpusTool) => ({ name: t.schema, ...(t.title !== undefined ? { title: t.title } : {}), ...(t.description !== undefined ? { description: t.description } : {}), inputSchema: t.inputSchema });

/** Tools sent to the page per evaluation (keeps each round trip's payload small). */
const BATCH = 25;

/**
 * Renders every tool of `dir` (see the module); undefined, with a line saying
 * so, when the folder is not there.
 */
export async function chromiumFormCorpus(bench: BenchBrowser, dir: string, repeats: number, log: (line: string) => void): Promise<FormCorpusResult | undefined> {
  if (!existsSync(dir)) {
    log(`  skipped: the corpus ${dir} is not present (pass --corpus <dir> with tools/list dumps)`);
    return undefined;
  }
  const { files, tools } = corpusTools(dir);
  if (tools.length === 0) {
    log(`  skipped: no tools in ${dir}`);
    return undefined;
  }
  const { page } = bench;
  await page.evaluate(() => window.benchPage!.loadKit());
  // Warm-up: the first forms load the form's parts and adopt the styles.
  await page.evaluate((list) => window.benchPage!.renderCorpus(list, 2), tools.slice(0, 5).map(benchTool));
  const results: CorpusToolResult[] = [];
  for (let i = 0; i < tools.length; i += BATCH) {
    const batch = tools.slice(i, i + BATCH);
    const samples = await page.evaluate(([list, n]) => window.benchPage!.renderCorpus(list, n), [batch.map(benchTool), repeats] as const);
    samples.forEach((s, k) =>
      results.push({
        schema: batch[k]!.schema,
        source: batch[k]!.source,
        controls: s.controls,
        formMs: round(s.formMs, 2),
        baselineMs: round(s.baselineMs, 3),
        ratio: round(s.ratio, 2),
        handMs: round(s.handMs, 3),
        handRatio: round(s.handRatio, 2),
      }),
    );
    if ((i / BATCH) % 8 === 7) log(`  ${results.length} of ${tools.length} tools`);
  }
  const { values: _values, ...ratios } = spread(
    results.map((r) => r.ratio),
    2,
  );
  const { values: _handValues, ...handRatios } = spread(
    results.map((r) => r.handRatio!),
    2,
  );
  const result: FormCorpusResult = {
    corpus: dir,
    files,
    tools: results.length,
    repeats,
    ratios,
    handRatios,
    handMs: spread(results.map((r) => r.handMs!), 3).median,
    formMs: spread(results.map((r) => r.formMs), 2).median,
    baselineMs: spread(results.map((r) => r.baselineMs), 3).median,
    worst: [...results].sort((a, b) => b.ratio - a.ratio).slice(0, 5),
  };
  log(
    `  ${result.tools} tools of ${files} files: ÷ bare inputs p50 ×${ratios.median} [${ratios.p25}–${ratios.p75}], p95 ×${ratios.p95}; ÷ hand-written equivalent p50 ×${handRatios.median} [${handRatios.p25}–${handRatios.p75}], p95 ×${handRatios.p95}; form ${result.formMs} ms, bare ${result.baselineMs} ms, hand-written ${result.handMs} ms (medians)`,
  );
  log(`  worst: ${result.worst.map((w) => `${w.schema} (${w.source}, ${w.controls} controls) ×${w.ratio} (hand-written ×${w.handRatio})`).join('; ')}`);
  return result;
}
