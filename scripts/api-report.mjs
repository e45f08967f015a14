#!/usr/bin/env node
/**
 * `npm run api-report`: the public API of every package entry, one report per
 * entry in `api/`, so a change to what users can import shows up as a diff in
 * review, and a refactoring can show that it changed nothing.
 *
 * - Entries with declarations of their own (`.`, `./auth`, `./elements`…):
 *   API Extractor's report of the entry's generated `.d.ts`, built here with
 *   `tsc -p tsconfig.types.json`: every exported name with its signature, and
 *   the unexported types those signatures use, whatever file declares them (so
 *   moving a declaration to another file changes nothing in the report; doc
 *   comments are left out of it).
 * - The framework entries (`./react`, `./vue`…): their generated declaration
 *   files as they are (they augment JSX and framework modules, which a report
 *   does not show), built with `npm run manifest` and
 *   `scripts/framework-types.mjs`.
 *
 * Usage: `npm run api-report` rewrites `api/`; `npm run api-report -- --check`
 * fails, naming the entries, when the API differs from `api/`;
 * `--out <dir>` writes the reports to another folder; `--rollups` adds each
 * entry's declarations rolled into one file (`<entry>.rollup.d.ts`, with the
 * unexported types its signatures use), for comparing two checkouts whole.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const rollups = args.includes('--rollups');
const outArg = args.indexOf('--out');
const committed = join(root, 'api');
const out = check ? mkdtempSync(join(tmpdir(), 'api-report-')) : outArg >= 0 ? args[outArg + 1] : committed;
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const run = (command, commandArgs) => execFileSync(command, commandArgs, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const node = process.execPath;
const bin = (name) => join(root, 'node_modules', name);

// The declarations, as `npm run build:lib` makes them (without the bundles, which the API does not depend on).
// --noCheck: `npm run typecheck` (tsc -p tsconfig.json, which tsconfig.types.json extends) already
// type-checks every one of these files with the same options; checking them again here was two
// thirds of this tsc's time. The errors of declaration emit itself (a private member in an exported
// class expression…) are still reported, as are the API differences below.
run(node, [bin('typescript/bin/tsc'), '-p', 'tsconfig.types.json', '--noCheck']);
run(node, [bin('@custom-elements-manifest/analyzer/cem.js'), 'analyze', '--config', 'custom-elements-manifest.config.mjs', '--quiet']);
run(node, ['scripts/framework-types.mjs']);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const scratch = mkdtempSync(join(tmpdir(), 'api-extractor-'));
const typesRoot = join(root, 'dist/types');

/** `./auth/callback` → `auth-callback`; `.` → `index`. */
const reportName = (entry) => (entry === '.' ? 'index' : entry.slice(2).replace(/\//g, '-'));

for (const [entry, target] of Object.entries(packageJson.exports)) {
  if (typeof target !== 'object' || !target.types) continue;
  const types = join(root, target.types);
  const name = reportName(entry);
  if (!target.types.startsWith('./dist/types/')) {
    writeFileSync(join(out, `${name}.d.ts`), readFileSync(types, 'utf8'));
    continue;
  }
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: types,
      compiler: {
        overrideTsconfig: {
          compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', lib: ['es2023', 'dom', 'dom.iterable'], types: ['node'], skipLibCheck: true, experimentalDecorators: true },
          include: [join(typesRoot, '**/*.d.ts')],
        },
      },
      apiReport: { enabled: true, reportFolder: out, reportTempFolder: scratch, reportFileName: name },
      docModel: { enabled: false },
      // --rollups: also each entry's declarations rolled into one file, the types its signatures use included.
      dtsRollup: rollups ? { enabled: true, untrimmedFilePath: join(out, `${name}.rollup.d.ts`) } : { enabled: false },
      tsdocMetadata: { enabled: false },
      // The report is what is compared; the style warnings API Extractor would print are not this script's concern.
      messages: {
        compilerMessageReporting: { default: { logLevel: 'none' } },
        // A type a signature uses but the entry does not export is named in the report (its shape is not shown).
        extractorMessageReporting: { default: { logLevel: 'none' }, 'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true } },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(root, 'package.json'),
  });
  const result = Extractor.invoke(config, { localBuild: true, messageCallback: (message) => (message.handled = true) });
  const report = join(out, `${name}.api.md`);
  if (!result || !existsSync(report)) throw new Error(`API Extractor wrote no report for ${entry}`);
  // Warnings without a declaration of their own name the file and line they came from: not part of the API.
  writeFileSync(report, readFileSync(report, 'utf8').replace(/^\/\/ dist\/types\/\S+:\d+:\d+ - /gm, '// '));
}
rmSync(scratch, { recursive: true, force: true });

if (check) {
  const names = new Set([...readdirSync(out), ...(existsSync(committed) ? readdirSync(committed) : [])]);
  const changed = [...names].filter((name) => {
    const a = existsSync(join(out, name)) ? readFileSync(join(out, name), 'utf8') : undefined;
    const b = existsSync(join(committed, name)) ? readFileSync(join(committed, name), 'utf8') : undefined;
    return a !== b;
  });
  if (changed.length > 0) {
    console.error(`The public API differs from api/ in: ${changed.join(', ')}\nSee the difference with: npm run api-report -- --out /tmp/api && diff -ru api /tmp/api\nIf the change is meant, run npm run api-report and commit api/.`);
    process.exitCode = 1;
  } else console.log(`The public API matches api/ (${names.size} entries).`);
  rmSync(out, { recursive: true, force: true });
} else console.log(`Wrote the API of ${readdirSync(out).length} entries to ${out}`);
