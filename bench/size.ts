/**
 * Size: each candidate's minimal entry (and the full kit) built with Vite as an
 * app would (ES modules, minified, browser conditions), written to disk so the
 * Chromium sections load the very bundles that were measured.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { build, type Rollup } from 'vite';

export interface Bytes {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface ChunkSize extends Bytes {
  file: string;
  /** Loaded with the entry (statically imported), as opposed to `import()`ed on demand. */
  eager: boolean;
  /** Pre-minification code length per origin (package, core file, element folder). */
  origins: Record<string, number>;
  /** Files this chunk imports statically. */
  imports: string[];
}

export interface BundleSize {
  /** The entry module path the bundle was built from. */
  entry: string;
  /** Entry file inside `dir`. */
  file: string;
  /** Entry and its static imports: what a page downloads before it can run. Each chunk compressed on its own, as served. */
  eager: Bytes;
  /** The eager chunks concatenated and gzipped as one file (what test/architecture.test.ts budgets). */
  eagerGzipConcatenated: number;
  /** Every chunk, including those loaded on demand (ajv, the legacy session…). */
  all: Bytes;
  chunks: ChunkSize[];
}

/** Share of the pre-minification code per origin in `chunks`, largest first (origins under 0.5 % left out). */
export function composition(chunks: readonly ChunkSize[]): { origin: string; share: number }[] {
  const totals = new Map<string, number>();
  let total = 0;
  for (const chunk of chunks) {
    for (const [origin, length] of Object.entries(chunk.origins)) {
      totals.set(origin, (totals.get(origin) ?? 0) + length);
      total += length;
    }
  }
  return [...totals]
    .map(([origin, length]) => ({ origin, share: Math.round((length / total) * 1000) / 10 }))
    .filter((c) => c.share >= 0.5)
    .sort((a, b) => b.share - a.share);
}

/**
 * The eager chunks plus the lazily loaded chunks whose file names start with
 * `prefixes` and what they import statically: what a page loads once those
 * `import()`s have run.
 */
export function withDynamicImport(bundle: BundleSize, ...prefixes: string[]): ChunkSize[] {
  const byFile = new Map(bundle.chunks.map((c) => [c.file, c]));
  const out = new Set(bundle.chunks.filter((c) => c.eager));
  const visit = (chunk: ChunkSize | undefined) => {
    if (!chunk || out.has(chunk)) return;
    out.add(chunk);
    for (const file of chunk.imports) visit(byFile.get(file));
  };
  for (const prefix of prefixes) visit(bundle.chunks.find((c) => c.file.startsWith(prefix)));
  return [...out];
}

function measure(code: string): Bytes {
  const buffer = Buffer.from(code);
  return {
    raw: buffer.length,
    gzip: gzipSync(buffer, { level: 9 }).length,
    brotli: brotliCompressSync(buffer, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

function sum(list: Bytes[]): Bytes {
  return list.reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }), { raw: 0, gzip: 0, brotli: 0 });
}

function origin(id: string, root: string): string {
  // Bundler-generated modules (`\0vite/preload-helper.js`, `\0rolldown/runtime.js`).
  if (id.startsWith('\0')) return id.slice(1).replace(/\.js$/, '');
  const modules = id.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = id.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  // Project code by file for the core, by element folder for the components.
  const relative = id.startsWith(root) ? id.slice(root.length + 1) : id;
  if (relative.startsWith('src/')) return relative;
  return relative.split('/').slice(0, relative.startsWith('components/') ? 2 : 1).join('/');
}

/**
 * Builds `entry` into `outDir` the way a page's app build does, and measures it.
 *
 * An app build, not library mode. Library mode keeps every entry's export
 * signature strict, so Rolldown may not merge modules the entry shares with
 * lazily loaded chunks into the entry chunk: they become small files of their
 * own (8 eager files for the core instead of 1); it also leaves the whitespace
 * of ES output for the consumer's bundler to remove. A consumer's app build
 * does neither: its entry is the page's script, whose exports nobody imports,
 * so shared modules join it. Here the entry's `open` export must survive (the
 * bench page imports it), hence `preserveEntrySignatures: 'allow-extension'`:
 * exports kept, merging allowed. (`false`, an app's default, would drop the
 * unused exports and with them the whole entry.) Checked against a real HTML
 * app build of the core entry: the same chunks, plus Vite's modulepreload
 * polyfill (about 270 B gzip) in the HTML entry, which is not counted here.
 *
 * @param root - the project root (module ids are reported relative to it).
 * @param base - the URL path the files are served from (for the preload helper
 *   Vite adds to dynamic imports, as in any app build).
 */
export async function buildAndMeasure(root: string, entry: string, outDir: string, base = '/'): Promise<BundleSize> {
  const name = entry.replace(/^.*\//, '').replace(/\.ts$/, '');
  const output = (await build({
    configFile: false,
    root,
    base,
    logLevel: 'silent',
    // An app build replaces NODE_ENV; libraries that check it must see production.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir,
      emptyOutDir: true,
      minify: true,
      target: 'es2022',
      // Stable names: the bench page imports `/<name>/<name>.js`.
      rolldownOptions: {
        input: { [name]: join(root, entry) },
        preserveEntrySignatures: 'allow-extension',
        output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  return measureOutput(root, entry, output, (c) => c.isEntry);
}

/**
 * Sizes of the chunks `main` may load (it, its static imports, counted as
 * eager, and what they `import()`, transitively): a build of several entries
 * also has chunks only the others load.
 */
function measureOutput(root: string, entry: string, output: Rollup.RollupOutput | Rollup.RollupOutput[], isMain: (chunk: Rollup.OutputChunk) => boolean): BundleSize {
  const built = [output].flat().flatMap((o) => o.output).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  const byName = new Map(built.map((c) => [c.fileName, c]));
  const main = built.find(isMain)!;
  const reachable = new Set<Rollup.OutputChunk>();
  const reach = (chunk: Rollup.OutputChunk) => {
    if (reachable.has(chunk)) return;
    reachable.add(chunk);
    for (const file of [...chunk.imports, ...chunk.dynamicImports]) reach(byName.get(file)!);
  };
  reach(main);
  const chunks = [...reachable];
  const eager = new Set<Rollup.OutputChunk>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (eager.has(chunk)) return;
    eager.add(chunk);
    for (const file of chunk.imports) visit(byName.get(file)!);
  };
  visit(main);
  const sizes: ChunkSize[] = chunks.map((c) => {
    const origins: Record<string, number> = {};
    for (const [id, info] of Object.entries(c.modules)) {
      const key = origin(id, root);
      origins[key] = (origins[key] ?? 0) + info.renderedLength;
    }
    return { file: c.fileName, eager: eager.has(c), ...measure(c.code), origins, imports: c.imports };
  });
  return {
    entry,
    file: main.fileName,
    eager: sum(sizes.filter((s) => s.eager)),
    eagerGzipConcatenated: gzipSync([...eager].map((c) => c.code).join('\n'), { level: 9 }).length,
    all: sum(sizes),
    chunks: sizes.sort((a, b) => b.gzip - a.gzip),
  };
}

/**
 * The no-bundler build (dist/cdn, vite.cdn.config.ts: Lit and every dependency
 * inlined, the way a page loads `dist/cdn/elements.js` from an npm CDN), built
 * into `outDir` with the package's own config, and measured from its
 * elements entry: eager is elements.js and the chunks it imports statically.
 */
export async function buildAndMeasureCdn(root: string, outDir: string): Promise<BundleSize> {
  const output = (await build({
    configFile: join(root, 'vite.cdn.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  return measureOutput(root, 'dist/cdn/elements.js', output, (c) => c.isEntry && c.fileName === 'elements.js');
}
