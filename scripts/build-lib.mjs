#!/usr/bin/env node
/**
 * `npm run build:lib` (and `prepack`): everything the package ships under dist/.
 *
 * - dist/lib: the library build (vite.lib.config.ts);
 * - dist/cdn: the self-contained build for pages without a bundler (vite.cdn.config.ts);
 * - dist/types: the declarations (`tsc -p tsconfig.types.json --noCheck`);
 * - dist/custom-elements.json (`npm run manifest`), then dist/frameworks from it
 *   (scripts/framework-types.mjs).
 *
 * Fast because (measured on a shared two-core machine, see the commit):
 * - the three lanes run side by side: the two Vite builds, the declarations,
 *   the manifest and the framework types after it;
 * - the declarations are emitted without type checking (`--noCheck`, the same
 *   files byte for byte): `npm run typecheck` checks the same sources
 *   (tsconfig.json includes them), and checking was most of tsc's time;
 * - nothing runs when nothing changed: the inputs (the sources, the build's
 *   configs and scripts, package.json, the installed dependency tree) are
 *   hashed, and when the hash and every output file are as the last build left
 *   them, the build is skipped. `--force` builds anyway.
 *
 *   node scripts/build-lib.mjs [--force]
 *
 * Commands run with an argument vector, never a shell.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
/** Not under an entry of package.json `files`: never packed. */
const stampFile = join(dist, '.build-lib.json');
const force = process.argv.includes('--force');
const started = Date.now();

/** What the outputs are made from. Test files are among them (cheaper than telling them apart); a change there only costs a build. */
const INPUT_DIRS = ['src', 'components', 'bridge', 'e2e/helpers'];
const INPUT_FILES = [
  'package.json',
  'tsconfig.json',
  'tsconfig.types.json',
  'vite.config.ts',
  'vite.lib.config.ts',
  'vite.cdn.config.ts',
  'custom-elements-manifest.config.mjs',
  'scripts/build-lib.mjs',
  'scripts/framework-types.mjs',
  // npm's record of the installed tree (node_modules may be shared, or a symlink): a changed dependency rebuilds.
  'node_modules/.package-lock.json',
];
const OUTPUTS = ['lib', 'cdn', 'types', 'frameworks', 'custom-elements.json'];

function walk(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => walk(join(path, name)));
}

/** One hash over the files' paths and contents. */
function digest(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(relative(root, file).split(sep).join('/'));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const inputsDigest = () => digest([...INPUT_DIRS.flatMap((dir) => walk(join(root, dir))), ...INPUT_FILES.map((file) => join(root, file)).filter(existsSync)]);
const outputsDigest = () => digest(OUTPUTS.flatMap((name) => walk(join(dist, name))));

function upToDate(inputs) {
  if (force || !existsSync(stampFile)) return false;
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    return stamp.inputs === inputs && OUTPUTS.every((name) => existsSync(join(dist, name))) && stamp.outputs === outputsDigest();
  } catch {
    return false;
  }
}

/** The steps running now: a failed step, or a stop of this script, stops the others (they would go on writing into dist/). */
const running = new Set();
const stopAll = () => {
  for (const child of running) child.kill('SIGTERM');
};
process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopAll();
    process.exit(128 + constants.signals[signal]);
  });
}

/** Runs one step; rejects with its output when it fails. Progress goes to stderr: `npm pack --json` prints this script's stdout before its JSON. */
function run(label, argv) {
  return new Promise((resolveRun, rejectRun) => {
    const begun = Date.now();
    const child = spawn(process.execPath, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    child.on('close', () => running.delete(child));
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', rejectRun);
    child.on('close', (code) => {
      const seconds = ((Date.now() - begun) / 1000).toFixed(1);
      if (code === 0) {
        // Vite's warnings (not its file table) are worth seeing.
        const warnings = output.split('\n').filter((line) => /warn|error/i.test(line));
        if (warnings.length) process.stderr.write(`${warnings.join('\n')}\n`);
        console.error(`build:lib: ${label} ${seconds} s`);
        resolveRun();
      } else {
        process.stderr.write(output);
        rejectRun(new Error(`${label} failed (exit ${code}) after ${seconds} s`));
      }
    });
  });
}

const bin = (path) => join(root, 'node_modules', path);
const vite = bin('vite/bin/vite.js');

const inputs = inputsDigest();
if (upToDate(inputs)) {
  console.error('build:lib: dist/ is up to date with the sources (node scripts/build-lib.mjs --force builds anyway)');
} else {
  rmSync(stampFile, { force: true });
  // tsc and the framework types write into their folders without emptying them: a removed source's files would stay.
  for (const name of ['types', 'frameworks']) rmSync(join(dist, name), { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  await Promise.all([
    run('vite (dist/lib)', [vite, 'build', '--config', 'vite.lib.config.ts', '--logLevel', 'warn']).then(() =>
      run('vite (dist/cdn)', [vite, 'build', '--config', 'vite.cdn.config.ts', '--logLevel', 'warn']),
    ),
    run('tsc (dist/types)', [bin('typescript/bin/tsc'), '-p', 'tsconfig.types.json', '--noCheck']),
    run('manifest (dist/custom-elements.json)', [bin('@custom-elements-manifest/analyzer/cem.js'), 'analyze', '--config', 'custom-elements-manifest.config.mjs', '--quiet']).then(() =>
      run('framework types (dist/frameworks)', [join(root, 'scripts/framework-types.mjs')]),
    ),
  ]).catch((error) => {
    console.error(`build:lib: ${error.message}`);
    // process.exit runs the exit hook above: the steps still running are stopped.
    process.exit(1);
  });
  // The sources may have changed while building: stamp the inputs the build began with (a later run sees the change).
  writeFileSync(stampFile, `${JSON.stringify({ inputs, outputs: outputsDigest() }, null, 2)}\n`);
  console.error(`build:lib: built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
