/**
 * The Chromium sections: call overhead in a page, and `<mcp-tool-form>` render
 * time against a plain baseline. Headless Chromium through Playwright with the
 * project's launch options; the page and bundles come from a loopback static
 * server, the MCP server is another loopback origin (CORS, as in a real app).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { build } from 'vite';
import { chromiumLaunchOptions } from '../scripts/browser.js';
import { measureCalls, type CallPlan, type CallsResult, CANDIDATES } from './calls.js';
import { startStaticServer, wideSchema, type BenchServer } from './servers.js';
import { median, round, spread, type Spread } from './stats.js';
import { graphLikeSchema } from '../components/test-support/fixtures.js';

export interface BenchBrowser {
  browser: Browser;
  page: Page;
  /** The static server; its counts say which files the page loaded. */
  files: BenchServer;
  version: string;
  close(): Promise<void>;
}

/** Builds the page module into `www` and opens it in headless Chromium. */
export async function openBenchPage(root: string, www: string): Promise<BenchBrowser> {
  await build({
    configFile: false,
    root,
    logLevel: 'silent',
    build: { outDir: join(www, 'page'), emptyOutDir: true, minify: true, target: 'es2022', lib: { entry: join(root, 'bench/page.ts'), formats: ['es'], fileName: 'page' } },
  });
  writeFileSync(join(www, 'index.html'), '<!doctype html><html lang="en"><meta charset="utf-8"><title>mcp-web-elements bench</title><body><script type="module" src="/page/page.js"></script></body></html>\n');
  const files = await startStaticServer(www);
  const browser = await chromium.launch(chromiumLaunchOptions());
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(files.url);
  await page.waitForFunction(() => window.benchPage !== undefined, undefined, { timeout: 30_000 }).catch(() => {
    throw new Error(`the bench page did not start: ${errors.join('; ') || 'no error reported'}`);
  });
  return {
    browser,
    page,
    files,
    version: browser.version(),
    async close() {
      await browser.close();
      await files.close();
    },
  };
}

/** Call overhead in the page against the MCP server at `url` (whose counters `counts` reads). */
export async function chromiumCalls(bench: BenchBrowser, url: string, counts: () => Promise<Record<string, number>>, plan: CallPlan): Promise<CallsResult> {
  const { page } = bench;
  for (const name of CANDIDATES) await page.evaluate(([n, u]) => window.benchPage!.open(n, u), [name, url] as const);
  try {
    return await measureCalls('chromium', (name, n, concurrency) => page.evaluate(([a, b, c]) => window.benchPage!.loop(a, b, c), [name, n, concurrency] as const), counts, plan);
  } finally {
    await page.evaluate(() => window.benchPage!.close());
  }
}

export interface FormResult {
  schema: string;
  /** `generated` or the corpus file the schema came from. */
  source: string;
  properties: number;
  controls: number;
  /** Median render time of `<mcp-tool-form>`, in ms. */
  formMs: number;
  /** Median render time of as many plain labelled inputs, in ms. */
  baselineMs: number;
  /** formMs / baselineMs. */
  ratio: number;
  /** Median render time of the hand-written equivalent form (bench/handwritten-form.ts), in ms (absent from older runs). */
  handMs?: number;
  /** formMs / handMs of each render and its paired hand-written form: median, IQR, p95 (absent from older runs). */
  handRatios?: Spread;
  /** formMs / baselineMs of each render and its paired baseline: median, IQR, p95 (absent from older runs). */
  ratios?: Spread;
  repeats: number;
}

export interface KeystrokeResult {
  schema: string;
  controls: number;
  /** Median time of one keystroke in `<mcp-tool-form>` (input event → settled update → layout), in ms. */
  formMs: number;
  /** Median time of one keystroke in as many native inputs (mean of a batch), in ms. */
  baselineMs: number;
  /** Per-keystroke ratio to its paired native sample: median, IQR, p95. */
  ratios: Spread;
  count: number;
}

export interface FormsResult {
  results: FormResult[];
  /** One keystroke in a generated form of about 400 controls (absent from older runs). */
  keystroke?: KeystrokeResult;
  /**
   * One keystroke in a form built like Microsoft Graph's create-a-list tool (issue 30): the
   * generated schema of the tests (`graphLikeSchema`, 200 shared definitions reached through
   * `$ref` from many places), absent from older runs.
   */
  graphKeystroke?: KeystrokeResult;
  /**
   * Script files of the full kit the page had requested after rendering forms and before any
   * check (nothing typed, nothing submitted), and after the first keystrokes (absent from older runs).
   */
  requested?: { beforeCheck: string[]; afterCheck: string[] };
  /** Why the corpus schemas are missing, when they are. */
  note?: string;
}

interface SchemaCase {
  schema: string;
  source: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** The `count` largest tool `inputSchema`s (by serialized length) in a corpus folder of `tools/list` dumps. */
export function largestSchemas(dir: string, count: number): SchemaCase[] {
  const found: (SchemaCase & { size: number })[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { tools?: { name?: unknown; title?: unknown; description?: unknown; inputSchema?: unknown }[] };
    for (const tool of Array.isArray(data.tools) ? data.tools : []) {
      if (typeof tool?.name !== 'string' || typeof tool.inputSchema !== 'object' || tool.inputSchema === null) continue;
      found.push({
        schema: tool.name,
        source: file,
        ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
        ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
        inputSchema: tool.inputSchema as Record<string, unknown>,
        size: JSON.stringify(tool.inputSchema).length,
      });
    }
  }
  return found
    .sort((a, b) => b.size - a.size)
    .slice(0, count)
    .map(({ size: _size, ...entry }) => entry);
}

/** Renders each schema's form and the plain baseline `repeats` times; medians per schema. */
export async function chromiumForms(bench: BenchBrowser, corpus: string, repeats: number, log: (line: string) => void): Promise<FormsResult> {
  const { page } = bench;
  await page.evaluate(() => window.benchPage!.loadKit());
  const cases: SchemaCase[] = [{ schema: 'wide_200', source: 'generated', inputSchema: wideSchema(0, 200) }];
  let note: string | undefined;
  if (existsSync(corpus)) cases.push(...largestSchemas(corpus, 3));
  else note = `${corpus} is not present: only the generated 200-property schema was measured`;
  // Warm-up: the first form loads the validator chunk and adopts the styles.
  const toolOf = (entry: SchemaCase) => ({ name: entry.schema, ...(entry.title !== undefined ? { title: entry.title } : {}), ...(entry.description !== undefined ? { description: entry.description } : {}), inputSchema: entry.inputSchema });
  await page.evaluate((tool) => window.benchPage!.renderForm(tool, 2), toolOf(cases[0]!));
  const results: FormResult[] = [];
  for (const entry of cases) {
    const samples = await page.evaluate(([tool, n]) => window.benchPage!.renderForm(tool, n), [toolOf(entry), repeats] as const);
    const formMs = median(samples.map((s) => s.formMs));
    const baselineMs = median(samples.map((s) => s.baselineMs));
    const handMs = median(samples.map((s) => s.handMs));
    const properties = Object.keys((entry.inputSchema.properties as Record<string, unknown> | undefined) ?? {}).length;
    const result: FormResult = {
      schema: entry.schema,
      source: entry.source,
      properties,
      controls: samples[0]!.controls,
      formMs: round(formMs, 2),
      baselineMs: round(baselineMs, 2),
      ratio: round(formMs / baselineMs, 1),
      ratios: spread(samples.map((s) => s.formMs / s.baselineMs), 2),
      handMs: round(handMs, 2),
      handRatios: spread(samples.map((s) => s.formMs / s.handMs), 2),
      repeats,
    };
    log(
      `  ${entry.schema}: ${result.controls} controls, form ${result.formMs} ms; ÷ bare inputs ${result.baselineMs} ms ×${result.ratios!.median} [${result.ratios!.p25}–${result.ratios!.p75}]; ÷ hand-written ${result.handMs} ms ×${result.handRatios!.median} [${result.handRatios!.p25}–${result.handRatios!.p75}]`,
    );
    results.push(result);
  }
  // What the static server served (the page's Resource Timing buffer is full after the calls section).
  const kitFiles = () => [...bench.files.counts.keys()].filter((p) => p.startsWith('/full-kit/')).map((p) => p.slice('/full-kit/'.length)).sort();
  const beforeCheck = kitFiles();
  const keystroke = await chromiumKeystrokes(bench, Math.max(15, repeats * 4), log);
  const graphKeystroke = await chromiumKeystrokes(bench, Math.max(15, repeats * 4), log, { name: 'graph-like (200 definitions)', schema: graphLikeSchema() });
  // The first check asks for the validator; its chunks arrive one import after another (on a busy
  // machine after the keystrokes are done): wait for the library's chunk, at most 10 s.
  for (const start = Date.now(); !kitFiles().some((f) => /^(schema-ajv|cfworker)-/.test(f)) && Date.now() - start < 10_000; ) await new Promise((resolve) => setTimeout(resolve, 50));
  const afterCheck = kitFiles();
  log(`  chunks before the first check: ${beforeCheck.join(', ')}; after: ${afterCheck.filter((f) => !beforeCheck.includes(f)).join(', ') || 'none more'}`);
  return { results, keystroke, graphKeystroke, requested: { beforeCheck, afterCheck }, ...(note ? { note } : {}) };
}

/** Properties of the generated keystroke schema: about 400 controls with wideSchema's mix. */
export const KEYSTROKE_PROPS = 296;

/** Keystrokes in a form (by default a generated one of about 400 controls) against as many native inputs. */
export async function chromiumKeystrokes(
  bench: BenchBrowser,
  count: number,
  log: (line: string) => void,
  form: { name: string; schema: Record<string, unknown> } = { name: `wide_${KEYSTROKE_PROPS}`, schema: wideSchema(0, KEYSTROKE_PROPS) },
): Promise<KeystrokeResult> {
  const { controls, samples } = await bench.page.evaluate(([schema, n]) => window.benchPage!.keystrokes(schema, n), [form.schema, count] as const);
  const result: KeystrokeResult = {
    schema: form.name,
    controls,
    formMs: round(median(samples.map((s) => s.formMs)), 2),
    baselineMs: round(median(samples.map((s) => s.baselineMs)), 3),
    ratios: spread(samples.map((s) => s.formMs / s.baselineMs), 1),
    count,
  };
  log(`  keystroke, ${form.name}, ${controls} controls: form ${result.formMs} ms, native ${result.baselineMs} ms; ratio median ×${result.ratios.median}, p95 ×${result.ratios.p95}`);
  return result;
}
