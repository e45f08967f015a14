/**
 * The page the profiling diagnostics (profile-form.ts, profile-keystroke.ts) run in:
 * the full kit built as the bench measures it, then rebuilt unminified over it so
 * that a CPU profile names functions, served to a bench page with the kit loaded.
 */
import { join } from 'node:path';
import { openBenchPage, type BenchBrowser } from './chromium.js';
import { buildAndMeasure } from './size.js';

/** Builds the kit (measured, then unminified over it) into `.cache/bench/profile-www` and opens a bench page with it loaded; the caller closes it. */
export async function openProfiledKit(root: string): Promise<BenchBrowser> {
  const www = join(root, '.cache/bench/profile-www');
  await buildAndMeasure(root, 'bench/entries/full-kit.ts', join(www, 'full-kit'), '/full-kit/');
  const { build } = await import('vite');
  await build({
    configFile: false,
    root,
    base: '/full-kit/',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: join(www, 'full-kit'),
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      rolldownOptions: { input: { 'full-kit': join(root, 'bench/entries/full-kit.ts') }, preserveEntrySignatures: 'allow-extension', output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' } },
    },
  });
  const bench = await openBenchPage(root, www);
  await bench.page.evaluate(() => window.benchPage!.loadKit());
  return bench;
}
