#!/usr/bin/env node
/**
 * The framework samples against the package as npm would install it: packs
 * mcp-web-elements once (`npm pack`, whose prepack builds the library, its types
 * and the framework types), extracts the tarball into samples/node_modules,
 * type-checks each sample with its framework's checker (tsc for React,
 * vue-tsc with strict templates for Vue, svelte-check for Svelte), and builds
 * the three sample pages in one Vite build.
 *
 *   node scripts/samples.mjs [--out <dir>] [--serve <port>]
 *
 * The checkers' outcomes go to <dir>/typecheck.json (e2e/samples.spec.ts
 * asserts them, with their output); a failed pack or build exits non-zero.
 * With `--serve`, a static server on 127.0.0.1:<port> listens at once and
 * answers each request when the build is done (the end-to-end run starts its
 * other servers meanwhile, instead of after a minute of packing and checking);
 * a failed build is answered with its error. Commands run with an argument
 * vector, never a shell.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = resolve(root, outIndex >= 0 ? args[outIndex + 1] : '.cache/samples/default');
const serveIndex = args.indexOf('--serve');
const started = Date.now();

/** Runs a command; resolves with its exit code and combined output. */
function run(command, argv, options = {}) {
  return new Promise((resolveRun) => {
    const child = spawn(command, argv, { cwd: root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolveRun({ code: code ?? 1, output }));
  });
}

async function must(label, command, argv, options) {
  const result = await run(command, argv, options);
  if (result.code !== 0) {
    process.stderr.write(result.output);
    throw new Error(`${label} failed (exit ${result.code})`);
  }
  return result;
}

const bin = (path) => join(root, 'node_modules', path);

async function build() {
  mkdirSync(out, { recursive: true });

  // 1. Pack once (prepack: npm run build:lib).
  for (const name of readdirSync(out)) if (name.endsWith('.tgz')) rmSync(join(out, name));
  await must('npm pack', 'npm', ['pack', '--pack-destination', out]);
  const tarball = join(out, readdirSync(out).find((name) => name.endsWith('.tgz')));

  // 2. Install it as a consumer would see it: samples/node_modules/mcp-web-elements (its own dependencies resolve from the repository's node_modules).
  const target = join(root, 'samples/node_modules/mcp-web-elements');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  await must('extracting the tarball', 'tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);

  // 3. The three checkers, side by side.
  const checks = {
    react: ['tsc', process.execPath, [bin('typescript/bin/tsc'), '-p', 'samples/react/tsconfig.json', '--pretty', 'false']],
    vue: ['vue-tsc (strict templates)', process.execPath, [bin('vue-tsc/bin/vue-tsc.js'), '-p', 'samples/vue/tsconfig.json', '--pretty', 'false']],
    svelte: ['svelte-check', process.execPath, [bin('svelte-check/bin/svelte-check'), '--workspace', 'samples/svelte', '--tsconfig', join(root, 'samples/svelte/tsconfig.json'), '--fail-on-warnings', '--output', 'human']],
  };
  const results = Object.fromEntries(
    await Promise.all(
      Object.entries(checks).map(async ([name, [checker, command, argv]]) => {
        const { code, output } = await run(command, argv);
        return [name, { checker, code, output: output.trim() }];
      }),
    ),
  );
  writeFileSync(join(out, 'typecheck.json'), JSON.stringify({ tarball, results }, null, 2));

  // 4. The pages, in one build.
  await must('vite build of the samples', process.execPath, [bin('vite/bin/vite.js'), 'build', '--config', 'samples/vite.config.ts'], { env: { SAMPLES_OUT_DIR: join(out, 'site') } });

  const failed = Object.entries(results).filter(([, result]) => result.code !== 0).map(([name]) => name);
  console.log(`samples: packed ${tarball}, checked (${failed.length ? `failed: ${failed.join(', ')}` : 'all passed'}), built ${join(out, 'site')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return failed;
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.map': 'application/json' };

if (serveIndex >= 0) {
  const built = build();
  built.catch((error) => console.error(error.message));
  const site = join(out, 'site');
  const server = createServer(async (request, response) => {
    try {
      await built;
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`The samples could not be built: ${error.message}`);
      return;
    }
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    let file = path === '/typecheck.json' ? join(out, 'typecheck.json') : normalize(join(site, path));
    if (file !== join(out, 'typecheck.json') && !file.startsWith(site + sep)) {
      response.writeHead(404).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    } catch {
      response.writeHead(404).end();
    }
  });
  server.listen(Number(args[serveIndex + 1]), '127.0.0.1');
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
} else {
  build().then(
    (failed) => process.exit(failed.length ? 1 : 0),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
