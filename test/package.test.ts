/**
 * The package as npm packs it: every `exports` target and its types, the bin,
 * the self-contained browser build (dist/cdn) and the changelog are in the
 * tarball's file list, and nothing that only the repository needs (tests,
 * sources) is.
 *
 * The list is `npm pack --dry-run --json --ignore-scripts` over a built dist/:
 * the test first runs `npm run build:lib` (scripts/build-lib.mjs), which
 * returns at once when dist/ is up to date with the sources and builds it (a
 * minute or so on a busy machine) when not.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { beforeAll, expect, test } from 'vitest';
import { browserEntries } from '../vite.lib.config.js';

const root = join(import.meta.dirname, '..');
const run = promisify(execFile);

interface PackageJson {
  exports: Record<string, string | { types: string; default: string }>;
  types: string;
  bin: Record<string, string>;
  files: string[];
  unpkg: string;
  jsdelivr: string;
  sideEffects: string[];
}
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
let packed: Set<string>;

beforeAll(async () => {
  await run(process.execPath, [join(root, 'scripts/build-lib.mjs')], { cwd: root, timeout: 280_000 });
  // --ignore-scripts: prepack would build again; the build above is the one packed.
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, timeout: 60_000 });
  const [report] = JSON.parse(stdout) as [{ files: { path: string }[] }];
  packed = new Set(report.files.map((file) => file.path));
}, 300_000);

const strip = (path: string) => path.replace(/^\.\//, '');

test('every exports target, its types and the top-level types are in the tarball', () => {
  const targets = Object.values(packageJson.exports).flatMap((target) => (typeof target === 'string' ? [target] : [target.types, target.default]));
  expect(targets.length).toBeGreaterThan(40);
  expect(targets.map(strip).filter((path) => !packed.has(path))).toEqual([]);
  // Each entry (but package.json) has declarations.
  expect(Object.entries(packageJson.exports).filter(([, target]) => typeof target !== 'string' && !target.types.endsWith('.d.ts')).map(([entry]) => entry)).toEqual([]);
  expect(packed.has(strip(packageJson.types))).toBe(true);
});

test('the bin, the changelog, the licence, the manifest and the CDN entries are in the tarball', () => {
  for (const bin of Object.values(packageJson.bin)) expect(packed, bin).toContain(strip(bin));
  for (const file of ['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json', 'dist/custom-elements.json', packageJson.unpkg, packageJson.jsdelivr]) expect(packed, file).toContain(file);
  // One self-contained module per browser entry of `exports` (vite.lib.config.ts lists them; its
  // library build has the same names), none for the Node-only ones.
  const browserTargets = Object.values(packageJson.exports)
    .flatMap((target) => (typeof target === 'string' ? [] : [strip(target.default)]))
    .filter((path) => path.startsWith('dist/lib/') && !/\/(bridge|playwright)\.js$/.test(path));
  expect(browserTargets.map((path) => path.replace('dist/lib/', '')).sort()).toEqual(Object.keys(browserEntries).map((name) => `${name}.js`).sort());
  expect(browserTargets.map((path) => path.replace('dist/lib/', 'dist/cdn/')).filter((path) => !packed.has(path))).toEqual([]);
  expect([...packed].filter((path) => /^dist\/cdn\/(bridge|playwright)\.js$/.test(path))).toEqual([]);
  // The lazily loaded parts ship too: chunks the entries import.
  expect([...packed].filter((path) => path.startsWith('dist/cdn/chunks/')).length).toBeGreaterThan(20);
});

test('ships neither tests nor sources nor build leftovers', () => {
  const unwanted = [...packed].filter((path) => /\.test\.|(^|\/)(test|test-support|e2e\/(?!helpers))\/|^(src|components|bridge|demo|scripts|bench)\/|\.ts$(?<!\.d\.ts)|tsbuildinfo|\.build-lib\.json/.test(path));
  expect(unwanted).toEqual([]);
});

test('npm publish --dry-run is clean: no warning but the one about not being logged in (no credentials here)', async () => {
  // --offline: the dry run needs no registry; --ignore-scripts: the build above is the one published; --loglevel:
  // under `npm run -s` (npm test runs its suites so) npm_config_loglevel=silent reaches this npm and would hide every warning.
  const { stdout, stderr } = await run('npm', ['publish', '--dry-run', '--ignore-scripts', '--offline', '--loglevel', 'notice'], { cwd: root, timeout: 120_000 });
  const warnings = `${stdout}\n${stderr}`.split('\n').filter((line) => /\b(warn|ERR!?)\b/i.test(line) && !/requires you to be logged in/.test(line));
  expect(warnings).toEqual([]);
  expect(stderr).toMatch(/mcp-web-elements@0\.\d+\.\d+/);
}, 150_000);

/** The top-level statements that do something when `file` (or a module it imports, re-exports included) is loaded. */
function topLevelEffects(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const effects: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExpressionStatement(statement)) effects.push(statement.getText());
    const from = (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) || (ts.isExportDeclaration(statement) && !statement.isTypeOnly) ? statement.moduleSpecifier : undefined;
    if (!from || !ts.isStringLiteral(from) || !from.text.startsWith('.')) continue;
    const target = resolve(dirname(file), from.text).replace(/\.js$/, '.ts');
    if (existsSync(target)) effects.push(...topLevelEffects(target, seen));
  }
  return effects;
}

test('every entry that does something when imported (defines elements, starts the sandbox proxy) is in sideEffects, so a bundler keeps a bare import of it', () => {
  const declared = new Set(packageJson.sideEffects);
  const withEffects = Object.entries(browserEntries).filter(([, file]) => topLevelEffects(file).length > 0).map(([name]) => name);
  // The reading finds them: the elements' entries and the sandbox proxy's, not the core's.
  expect(withEffects).toEqual(expect.arrayContaining(['elements', 'app-sandbox', 'inspector']));
  expect(withEffects).not.toContain('index');
  expect(withEffects.filter((name) => !declared.has(`./dist/lib/${name}.js`))).toEqual([]);
});
