/**
 * `npm run corpus -- <dir>`: runs the tool-form engine over a corpus of real
 * tool definitions (every `tools[]` of every `*.json` in `<dir>`, e.g.
 * `../shared/schemas`) and reports:
 *
 * - how many tools needed a raw-JSON fallback anywhere, and for which keyword
 *   (fields that accept any JSON by design are counted apart);
 * - whether each model stayed within the work bounds;
 * - for every tool with required members: filling the form with sample values
 *   (required members only, then every member) yields arguments that the
 *   validator accepts against the tool's `inputSchema`;
 * - that every form renders in real Chromium without an exception or a console
 *   error (skip with `--no-browser`);
 * - how the `pattern`s and `patternProperties` keys are run: on the kit's
 *   linear-time engine, natively after the shape check, or not at all; and the
 *   most evaluations one value can take along the schema's references (the
 *   validator refuses more than `maxEvaluations`).
 * - per chat format (OpenAI strict mode, Anthropic, the AI SDK): how many tools
 *   convert without loss and which keywords were moved into descriptions, and
 *   the strict-mode round trip of the sample arguments (scripts/corpus-formats.ts).
 *
 * Options: `--json <file>` writes the full results; `--verbose` lists every
 * fallback and failure; `--validator cfworker` checks with `@cfworker/json-schema`
 * (`useSchemaCompiler`) instead of ajv, in Node and in Chromium;
 * `--validator ajv,cfworker` gives both reports, one after the other, from one
 * process (the corpus loaded, Vite started and Chromium launched once; CI's
 * way). Exits non-zero
 * only on a real failure: an exception, a bound exceeded without a clear
 * message, or built arguments the validator rejects.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve, basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cfworkerCompiler } from '../src/cfworker.js';
import { compileSchemaSync, ensureValidator, useSchemaCompiler, type ValidationIssue } from '../src/index.js';
import { DEFAULT_LIMITS } from '../src/schema/schema-guard.js';
import { loadedPatternEngine, patternVerdict } from '../src/schema/patterns/pattern-check.js';
import { schemaCost } from '../src/schema/schema-cost.js';
import { forEachSchemaNode } from '../src/schema/schema-walk.js';
import { FormModel, type Field } from '../components/mcp-tool-form/model.js';
import { buildArguments, itemField, memberField, rowField, variantField } from '../components/mcp-tool-form/draft.js';
import { hasRequired, sampleDraft } from '../components/mcp-tool-form/samples.js';
import { isRecord } from '../components/internal/json.js';
import type {} from './corpus-page.js';
import { formatsFailed, formatsReport, printFormats, type FormatsReport } from './corpus-formats.js';

interface ToolEntry {
  server: string;
  name: string;
  inputSchema: unknown;
}

interface Fallback {
  pointer: string;
  keyword: string;
  message: string;
}

interface ToolReport {
  server: string;
  tool: string;
  ms: number;
  steps: number;
  fields: number;
  fallbacks: Fallback[];
  free: string[];
  recursive: number;
  kinds: Record<string, number>;
  rootProblem?: string;
  required: boolean;
  fill: Record<'required' | 'all', { ok: boolean; arguments?: Record<string, unknown>; issues?: ValidationIssue[]; local?: string[] } | undefined>;
  /** How the schema's patterns run. */
  patterns: Record<'linear' | 'native' | 'skip' | 'invalid', number>;
  /** Evaluations one place of a value can take, counted along every path (see src/schema/schema-cost.ts). */
  evaluations: number;
  /** The schema in the chat formats (scripts/corpus-formats.ts). */
  formats?: FormatsReport;
  error?: string;
}

/** Counts the patterns of a schema by how the kit runs them. */
function patternKinds(schema: unknown): ToolReport['patterns'] {
  const counts = { linear: 0, native: 0, skip: 0, invalid: 0 };
  const engine = loadedPatternEngine()!;
  const count = (pattern: string) => {
    try {
      counts[patternVerdict(engine, pattern).how]++;
    } catch {
      counts.invalid++;
    }
  };
  if (typeof schema === 'object' && schema !== null) {
    forEachSchemaNode(schema, (record) => {
      if (typeof record.pattern === 'string') count(record.pattern);
      if (isRecord(record.patternProperties)) Object.keys(record.patternProperties).forEach(count);
    });
  }
  return counts;
}

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const dir = args.find((arg, i) => !arg.startsWith('--') && !['--json', '--validator'].includes(args[i - 1] ?? ''));
if (!dir) {
  console.error('usage: npm run corpus -- <dir with *.json tool lists> [--no-browser] [--json out.json] [--verbose]');
  process.exit(2);
}

/** Walks every field reachable in the form (all members, items, variants), bounded. */
function survey(model: FormModel, root: Field): { fields: number; fallbacks: Fallback[]; free: string[]; recursive: number; kinds: Record<string, number> } {
  const fallbacks: Fallback[] = [];
  const free: string[] = [];
  const kinds: Record<string, number> = {};
  let fields = 0;
  let recursive = 0;
  const stack: [Field, string][] = [[root, '']];
  while (stack.length > 0 && fields < 20_000) {
    const [field, pointer] = stack.pop()!;
    fields++;
    const kind = field.kind === 'array' && field.choices ? 'array (checkboxes)' : field.kind === 'enum' ? `enum (${field.widget})` : field.kind === 'json' ? `json (${field.reason})` : field.kind;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    if (field.nullable) kinds['(nullable)'] = (kinds['(nullable)'] ?? 0) + 1;
    if (field.recursive && pointer !== '') {
      // Expanded on demand in the form; its first level was already counted.
      recursive++;
      continue;
    }
    switch (field.kind) {
      case 'json':
        if (field.reason === 'fallback') fallbacks.push({ pointer, keyword: field.problem?.keyword ?? '?', message: field.problem?.message ?? '' });
        else free.push(`${pointer || '(root)'}${field.expects ? ` (${field.expects})` : ''}`);
        break;
      case 'object':
        for (const entry of field.properties) stack.push([memberField(model, field, entry.key, entry.schema, undefined), `${pointer}/${entry.key}`]);
        if (field.additional !== undefined) stack.push([rowField(model, field, '*', undefined), `${pointer}/*`]);
        break;
      case 'array': {
        const count = Math.max(field.prefix.length, 1);
        for (let i = 0; i < count; i++) {
          const sub = itemField(model, field, i, undefined);
          if (sub) stack.push([sub, `${pointer}/${i}`]);
        }
        break;
      }
      case 'union':
        field.variants.forEach((_, i) => {
          const sub = variantField(model, field, i, undefined);
          if (sub) stack.push([sub, `${pointer}(${i})`]);
        });
        break;
      default:
        break;
    }
  }
  return { fields, fallbacks, free, recursive, kinds };
}

function loadCorpus(root: string): { tools: ToolEntry[]; elicitationSchemas: number; files: string[] } {
  const files = readdirSync(root).filter((file) => file.endsWith('.json')).sort();
  const tools: ToolEntry[] = [];
  let elicitationSchemas = 0;
  for (const file of files) {
    const data = JSON.parse(readFileSync(join(root, file), 'utf8')) as unknown;
    if (!isRecord(data)) continue;
    if (Array.isArray(data.tools)) {
      for (const tool of data.tools) {
        if (isRecord(tool) && typeof tool.name === 'string') tools.push({ server: basename(file, '.json'), name: tool.name, inputSchema: tool.inputSchema });
      }
    } else {
      // Elicitation schemas belong to the elicitation dialog: counted, not checked here.
      for (const list of Object.values(data)) if (Array.isArray(list)) elicitationSchemas += list.length;
    }
  }
  return { tools, elicitationSchemas, files };
}

function fill(model: FormModel, inputSchema: unknown, all: boolean): ToolReport['fill']['all'] {
  const root = model.root();
  const draft = sampleDraft(model, root, { all });
  const { arguments: built, issues: local } = buildArguments(model, draft);
  const validate = compileSchemaSync(inputSchema);
  const outcome = validate(built);
  if (outcome.valid && local.length === 0) return { ok: true, arguments: built };
  return { ok: false, ...(outcome.valid ? {} : { issues: outcome.issues }), local: local.map((issue) => `${issue.pointer}: ${issue.message}`) };
}

type Validator = 'ajv' | 'cfworker';

/** `--validator`: one name, or several separated by commas (each gets its report, in that order). */
function validators(): Validator[] {
  const names = (option('--validator') ?? 'ajv').split(',').map((name) => name.trim());
  for (const name of names) if (name !== 'ajv' && name !== 'cfworker') throw new Error(`Unknown --validator ${name}: the choices are ajv (the default) and cfworker, or both as ajv,cfworker`);
  return [...new Set(names)] as Validator[];
}

async function main(): Promise<void> {
  const chosen = validators();
  const root = resolve(dir!);
  const corpus = loadCorpus(root);
  const chromium = flag('--no-browser') ? undefined : await startChromium(chosen);
  const runs: { validator: Validator; reports: ToolReport[]; browser: BrowserOutcome | undefined; failed: boolean }[] = [];
  try {
    for (const validator of chosen) {
      if (chosen.length > 1) console.log(`${runs.length > 0 ? '\n' : ''}━━ Validator: ${validator}${validator === 'ajv' ? '' : ' (useSchemaCompiler)'}\n`);
      runs.push(await check(validator, corpus, chromium));
    }
  } finally {
    await chromium?.close();
  }
  const out = option('--json');
  if (out) {
    mkdirSync(resolve(out, '..'), { recursive: true });
    // One validator: the results as they always were; several: one entry per validator.
    writeFileSync(out, JSON.stringify(runs.length === 1 ? { reports: runs[0]!.reports, browser: runs[0]!.browser } : { runs: runs.map(({ validator, reports, browser }) => ({ validator, reports, browser })) }, null, 2));
  }
  process.exitCode = runs.some((run) => run.failed) ? 1 : 0;
}

/** One validator's pass over the corpus, in Node and (when started) in Chromium; prints its report. */
async function check(validator: Validator, corpus: ReturnType<typeof loadCorpus>, chromium: ChromiumSession | undefined) {
  // undefined: back to the default (ajv), after a run with another.
  useSchemaCompiler(validator === 'cfworker' ? cfworkerCompiler : undefined);
  await ensureValidator();
  const { tools, elicitationSchemas, files } = corpus;
  const reports: ToolReport[] = [];
  const samples = new Map<string, Record<string, unknown>>();
  for (const tool of tools) {
    const started = performance.now();
    const report: ToolReport = {
      server: tool.server,
      tool: tool.name,
      ms: 0,
      steps: 0,
      fields: 0,
      fallbacks: [],
      free: [],
      recursive: 0,
      kinds: {},
      required: hasRequired(tool.inputSchema),
      fill: { required: undefined, all: undefined },
      patterns: { linear: 0, native: 0, skip: 0, invalid: 0 },
      evaluations: 0,
    };
    try {
      report.patterns = patternKinds(tool.inputSchema);
      if (isRecord(tool.inputSchema)) report.evaluations = schemaCost(tool.inputSchema, DEFAULT_LIMITS.maxEvaluations, () => 0).perValue;
      const model = new FormModel(tool.inputSchema);
      if (model.problem) report.rootProblem = `${model.problem.keyword}: ${model.problem.message}`;
      else if (model.notice) report.rootProblem = `${model.notice.keyword}: ${model.notice.message}`;
      const surveyed = survey(model, model.root());
      Object.assign(report, surveyed);
      report.steps = model.document.limits.maxSteps - model.document.steps;
      let validatorOk = true;
      try {
        compileSchemaSync(tool.inputSchema);
      } catch (error) {
        validatorOk = false;
        report.rootProblem ??= `validator: ${(error as Error).message}`;
      }
      if (validatorOk) {
        if (report.required) report.fill.required = fill(new FormModel(tool.inputSchema), tool.inputSchema, false);
        report.fill.all = fill(new FormModel(tool.inputSchema), tool.inputSchema, true);
        if (report.fill.all?.ok) samples.set(`${tool.server}/${tool.name}`, report.fill.all.arguments!);
        const accepted = [report.fill.required, report.fill.all].filter((outcome) => outcome?.ok).map((outcome) => outcome!.arguments!);
        report.formats = formatsReport(tool.inputSchema, accepted);
      }
    } catch (error) {
      report.error = (error as Error).stack ?? String(error);
    }
    report.ms = performance.now() - started;
    reports.push(report);
  }

  const browser = chromium ? await renderInChromium(chromium, validator, tools, samples) : undefined;

  print(reports, { files, elicitationSchemas, browser });
  const failed = reports.some((r) => r.error || r.fill.required?.ok === false || r.fill.all?.ok === false || formatsFailed(r.formats)) || (browser !== undefined && browser.failures.length > 0);
  return { validator, reports, browser, failed };
}

interface BrowserOutcome {
  rendered: number;
  failures: { tool: string; error: string }[];
  fallbackFields: number;
  ms: number;
  /** Slowest single tool (render, fill, submit), in ms. */
  slowestMs: number;
}

interface ChromiumSession {
  /** The page's URL for a validator (its own page, which plugs that validator in before anything runs). */
  url(validator: Validator): string;
  browser: import('playwright').Browser;
  /** Seconds spent starting Vite and Chromium, counted in the first report's time. */
  startMs: number;
  close(): Promise<void>;
}

/** Vite serving the element's sources and one Chromium, started once for every validator of the run. */
async function startChromium(chosen: Validator[]): Promise<ChromiumSession> {
  const started = performance.now();
  const { createServer } = await import('vite');
  const { chromium } = await import('playwright');
  const { chromiumLaunchOptions } = await import('./browser.js');
  const projectRoot = resolve(import.meta.dirname, '..');
  const pageDir = join(projectRoot, '.cache', 'corpus');
  mkdirSync(pageDir, { recursive: true });
  for (const validator of chosen) {
    writeFileSync(
      join(pageDir, `${validator}.html`),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>corpus</title><link rel="icon" href="data:,"></head><body><main></main>
<script type="module">
${validator === 'cfworker' ? "import { useSchemaCompiler } from '/src/index.ts'; import { cfworkerCompiler } from '/src/cfworker.ts'; useSchemaCompiler(cfworkerCompiler);" : ''}
import '/scripts/corpus-page.ts'; window.__ready = true;</script></body></html>`,
    );
  }
  const server = await createServer({
    configFile: false,
    root: projectRoot,
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
    // Pre-bundle up front so the optimizer never reloads the page mid-run.
    optimizeDeps: { include: ['lit', 'lit/decorators.js', 'lit/directives/if-defined.js', '@lit/context', 'idb-keyval', 'ajv', 'ajv/dist/2020.js', 'ajv-formats', '@cfworker/json-schema'] },
  });
  await server.listen();
  const address = server.httpServer?.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let browser: import('playwright').Browser;
  try {
    browser = await chromium.launch(chromiumLaunchOptions());
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    url: (validator) => `http://127.0.0.1:${port}/.cache/corpus/${validator}.html`,
    browser,
    startMs: performance.now() - started,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Renders every tool's form in real Chromium (Vite serves the element's
 * sources, Playwright drives the page): first untouched, then filled with the
 * tool's sample arguments through `.arguments`; the form's own submit path
 * must then produce exactly those arguments. Any exception, console error or
 * refused submit is a failure. A fresh page per validator: each plugs its
 * validator in before the elements load.
 */
async function renderInChromium(session: ChromiumSession, validator: Validator, tools: ToolEntry[], samples: Map<string, Record<string, unknown>>): Promise<BrowserOutcome> {
  const started = performance.now() - session.startMs;
  // Only the first report counts the start-up (as when each validator had a process of its own).
  session.startMs = 0;
  const failures: BrowserOutcome['failures'] = [];
  let rendered = 0;
  let fallbackFields = 0;
  let slowestMs = 0;
  const page = await session.browser.newPage();
  try {
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(session.url(validator));
    await page.waitForFunction(() => (window as { __ready?: boolean }).__ready === true, undefined, { timeout: 60_000 });
    const batchSize = 25;
    for (let at = 0; at < tools.length; at += batchSize) {
      const batch = tools.slice(at, at + batchSize).map((tool) => ({ ...tool, sample: samples.get(`${tool.server}/${tool.name}`) ?? null }));
      const outcomes = await page.evaluate((entries) => window.corpusCheck!(entries), batch);
      for (const outcome of outcomes) {
        const logged = consoleErrors.splice(0);
        if (outcome.error || logged.length > 0) failures.push({ tool: outcome.tool, error: outcome.error ?? `console: ${logged.join(' | ')}` });
        else rendered++;
        fallbackFields += outcome.fallbacks;
        slowestMs = Math.max(slowestMs, outcome.ms);
      }
    }
  } finally {
    await page.close();
  }
  return { rendered, failures, fallbackFields, ms: performance.now() - started, slowestMs };
}

function pad(text: string | number, width: number): string {
  const s = String(text);
  return s.length >= width ? s : s + ' '.repeat(width - s.length);
}

function print(reports: ToolReport[], extra: { files: string[]; elicitationSchemas: number; browser: BrowserOutcome | undefined }): void {
  const servers = [...new Set(reports.map((r) => r.server))];
  const lines: string[] = [];
  lines.push(`Corpus: ${reports.length} tools from ${servers.length} servers (${extra.files.length} files; ${extra.elicitationSchemas} elicitation schemas skipped: they belong to the elicitation dialog)`);
  lines.push('');
  lines.push(`${pad('server', 22)} ${pad('tools', 6)} ${pad('fallback', 9)} ${pad('free-JSON', 10)} ${pad('required', 9)} ${pad('fill-req ok', 12)} ${pad('fill-all ok', 12)} ${pad('max ms', 7)}`);
  for (const server of servers) {
    const rs = reports.filter((r) => r.server === server);
    lines.push(
      `${pad(server, 22)} ${pad(rs.length, 6)} ${pad(rs.filter((r) => r.fallbacks.length > 0 || r.rootProblem).length, 9)} ${pad(rs.filter((r) => r.free.length > 0).length, 10)} ${pad(rs.filter((r) => r.required).length, 9)} ${pad(`${rs.filter((r) => r.fill.required?.ok).length}/${rs.filter((r) => r.fill.required).length}`, 12)} ${pad(`${rs.filter((r) => r.fill.all?.ok).length}/${rs.filter((r) => r.fill.all).length}`, 12)} ${pad(Math.ceil(Math.max(...rs.map((r) => r.ms))), 7)}`,
    );
  }
  // A schema that is itself broken (not an object schema, unsupported dialect, over the bounds) is counted apart.
  const broken = reports.filter((r) => r.rootProblem);
  const withFallback = reports.filter((r) => r.fallbacks.length > 0 && !r.rootProblem);
  const byKeyword = new Map<string, number>();
  for (const r of withFallback) for (const keyword of new Set(r.fallbacks.map((f) => f.keyword))) byKeyword.set(keyword, (byKeyword.get(keyword) ?? 0) + 1);
  lines.push('');
  lines.push(`Tools with a raw-JSON fallback anywhere (schemas that are not broken): ${withFallback.length} of ${reports.length - broken.length}`);
  for (const [keyword, count] of byKeyword) lines.push(`  ${keyword}: ${count} tool(s)`);
  for (const r of withFallback) lines.push(`  - ${r.server}/${r.tool}: ${r.fallbacks.map((f) => `${f.pointer || '(root)'} [${f.keyword}] ${f.message}`).join('; ')}`);
  const brokenKinds = new Map<string, string[]>();
  for (const r of broken) brokenKinds.set(r.rootProblem!, [...(brokenKinds.get(r.rootProblem!) ?? []), `${r.server}/${r.tool}`]);
  lines.push(`Broken input schemas (edited as JSON, with the reason shown): ${broken.length}`);
  for (const [reason, names] of brokenKinds) lines.push(`  ${names.length}× ${reason}\n    ${names.join(', ')}`);
  const free = reports.filter((r) => r.free.length > 0);
  lines.push(`Tools with a free-JSON field (the schema accepts any value/object there): ${free.length}; fields: ${free.reduce((n, r) => n + r.free.length, 0)}`);
  if (flag('--verbose')) for (const r of free) lines.push(`  - ${r.server}/${r.tool}: ${r.free.join(', ')}`);
  lines.push(`Recursive subtrees (expanded on demand): ${reports.reduce((n, r) => n + r.recursive, 0)}`);
  const kinds: Record<string, number> = {};
  for (const r of reports) for (const [kind, count] of Object.entries(r.kinds)) kinds[kind] = (kinds[kind] ?? 0) + count;
  lines.push(`Fields surveyed: ${reports.reduce((n, r) => n + r.fields, 0)} (every member, item and variant) — ${Object.entries(kinds).sort((a, b) => b[1] - a[1]).map(([kind, count]) => `${kind} ${count}`).join(', ')}`);
  lines.push(`Work: slowest model ${Math.ceil(Math.max(...reports.map((r) => r.ms)))} ms (incl. validation), most resolution steps ${Math.max(...reports.map((r) => r.steps))}`);
  const most = reports.reduce((top, r) => (r.evaluations > top.evaluations ? r : top), reports[0]!);
  lines.push(`Validation cost: at most ${most.evaluations} evaluations per place of a value along every path (${most.server}/${most.tool}; the validator refuses over ${DEFAULT_LIMITS.maxEvaluations})`);
  const patterns = { linear: 0, native: 0, skip: 0, invalid: 0 };
  for (const r of reports) for (const key of Object.keys(patterns) as (keyof typeof patterns)[]) patterns[key] += r.patterns[key];
  const withPatterns = reports.filter((r) => Object.values(r.patterns).some((n) => n > 0)).length;
  lines.push(
    `Patterns: ${patterns.linear + patterns.native + patterns.skip + patterns.invalid} in ${withPatterns} tools — checked on the linear-time engine ${patterns.linear}, natively after the shape check ${patterns.native}, not checked ${patterns.skip}, invalid ${patterns.invalid}`,
  );
  const req = reports.filter((r) => r.fill.required);
  lines.push(`Fill required members with samples → validator accepts: ${req.filter((r) => r.fill.required!.ok).length}/${req.length}`);
  const all = reports.filter((r) => r.fill.all);
  lines.push(`Fill every member with samples → validator accepts: ${all.filter((r) => r.fill.all!.ok).length}/${all.length}`);
  for (const r of reports) {
    for (const mode of ['required', 'all'] as const) {
      const outcome = r.fill[mode];
      if (outcome && !outcome.ok) {
        lines.push(`  ✗ ${r.server}/${r.tool} (${mode}): ${[...(outcome.issues ?? []).map((i) => `${i.path} ${i.message}`), ...(outcome.local ?? [])].slice(0, 4).join('; ')}`);
      }
    }
  }
  const errors = reports.filter((r) => r.error);
  lines.push(`Exceptions: ${errors.length}`);
  for (const r of errors) lines.push(`  ✗ ${r.server}/${r.tool}: ${r.error}`);
  lines.push(...printFormats(reports, flag('--verbose')));
  if (extra.browser) {
    lines.push(
      `Chromium: ${extra.browser.rendered}/${reports.length} forms rendered, filled with their sample arguments and submitted back unchanged, without an exception or console error (${Math.ceil(extra.browser.ms / 1000)} s in all, slowest tool ${Math.ceil(extra.browser.slowestMs)} ms); raw-JSON fallback fields in the DOM: ${extra.browser.fallbackFields}`,
    );
    for (const f of extra.browser.failures) lines.push(`  ✗ ${f.tool}: ${f.error}`);
  } else {
    lines.push('Chromium: not run (--no-browser)');
  }
  console.log(lines.join('\n'));
}

await main();
