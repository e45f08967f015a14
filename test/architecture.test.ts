/**
 * Architecture guards: the core stays DOM-free and Lit-free, and bundles for
 * the browser with no Node built-ins within its size budget.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin, type Rollup } from 'vite';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** A page's own script that does nothing but `import 'mcp-web-elements/elements'` (resolved to the source). */
const PAGE_ENTRY = 'virtual:elements-page';
const pageEntry: Plugin = {
  name: 'elements-page',
  resolveId: (id) => (id === PAGE_ENTRY ? `\0${PAGE_ENTRY}` : undefined),
  load: (id) => (id === `\0${PAGE_ENTRY}` ? `import ${JSON.stringify(join(root, 'components/index.ts'))};` : undefined),
};

/** Builds `entry` minified; returns every chunk and the eager ones (the entry and what it imports statically). */
async function buildEntry(entry: string, appBuild: boolean, target?: string): Promise<{ chunks: Rollup.OutputChunk[]; eager: Rollup.OutputChunk[] }> {
  // Vitest runs with NODE_ENV=test, under which Vite resolves packages' `development` exports
  // (Lit's dev build); an app's production build does not.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    plugins: entry === PAGE_ENTRY ? [pageEntry] : [],
    // As an app build does (and bench/size.ts): libraries that check NODE_ENV see production.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      minify: true,
      ...(target ? { target } : {}),
      // Library mode, or a page's app build as bench/size.ts measures it: there the entry's
      // exports are kept but shared modules may join the entry chunk.
      ...(appBuild ? {} : { lib: { entry, formats: ['es'] as const, fileName: 'core' } }),
      rolldownOptions: appBuild ? { input: { core: entry }, preserveEntrySignatures: 'allow-extension' } : { external: [] },
    },
  }).finally(() => {
    process.env.NODE_ENV = nodeEnv;
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const chunks = [output].flat().flatMap((o) => o.output).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const eager = new Set<Rollup.OutputChunk>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (eager.has(chunk)) return;
    eager.add(chunk);
    for (const name of chunk.imports) visit(byName.get(name)!);
  };
  visit(chunks.find((c) => c.isEntry)!);
  return { chunks, eager: [...eager] };
}

const buildCore = (appBuild: boolean) => buildEntry(join(root, 'src/index.ts'), appBuild);

describe('the core (src/)', () => {
  test('imports neither Lit nor the elements', () => {
    const offenders: string[] = [];
    for (const file of files(join(root, 'src'))) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        const target = match[1] ?? match[2]!;
        if (/^(lit|@lit\/)/.test(target) || target.includes('components/')) offenders.push(`${file}: ${target}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  test('bundles for the browser with no Node built-ins, within 16 KB gzip as one file (without the lazily loaded parts)', async () => {
    const { chunks, eager } = await buildCore(false);
    for (const chunk of chunks) {
      expect(chunk.code).not.toMatch(/from\s*["']node:|require\(["']node:/);
    }
    // ajv and the legacy session are separate chunks, loaded only when needed.
    expect(chunks.length).toBeGreaterThan(1);
    const eagerModules = eager.flatMap((c) => Object.keys(c.modules));
    expect(eagerModules.filter((id) => /node_modules\/ajv|schema-ajv|\/legacy\//.test(id))).toEqual([]);
    // Everything loaded up front, gzipped as one file.
    const code = eager.map((c) => c.code).join('\n');
    const gzip = gzipSync(code).length;
    console.log(`core (eager chunks): ${code.length} bytes minified, ${gzip} bytes gzip`);
    // 15 KB until issue 29: the bounds a hostile or sloppy server needed (each task poll's deadline
    // and its retry on an outage, the task's session, the one resend after a reset, a listing's
    // cursor and byte bounds, the -32601 memory) took the joined file to 16,026 B, while the files
    // a page is served (the next test) stay within 15 KB.
    expect(gzip).toBeLessThanOrEqual(16 * 1024);
  });

  test('served as a page\'s app build chunks it (bench/size.ts): the eager files, each gzipped, within 15 KB too', async () => {
    const { eager } = await buildCore(true);
    expect(eager.flatMap((c) => Object.keys(c.modules)).filter((id) => /node_modules\/ajv|schema-ajv|\/legacy\//.test(id))).toEqual([]);
    const served = eager.reduce((sum, c) => sum + gzipSync(c.code).length, 0);
    console.log(`core (app build, as served): ${eager.length} file(s), ${served} bytes gzip`);
    expect(served).toBeLessThanOrEqual(15 * 1024);
  });
});

describe('the elements entry (mcp-web-elements/elements)', () => {
  test('loads OAuth, ajv and the legacy era only on demand', async () => {
    // A value imported from a barrel (src/auth/index.ts) by a side-effectful element module once
    // made every page load OAuth's 20 KB; the README's `import 'mcp-web-elements/elements'` is built here.
    const { eager } = await buildEntry(join(root, 'components/index.ts'), true);
    const modules = eager.flatMap((c) => Object.keys(c.modules)).map((id) => id.replace(`${root}/`, ''));
    expect(modules.filter((id) => /^src\/auth\/(?!errors\.ts$)|node_modules\/ajv|schema-ajv|\/legacy\//.test(id))).toEqual([]);
    expect(modules).toContain('components/mcp-tool-form/mcp-tool-form.ts');
  });

  test('a page\'s eager files (core, Lit, the elements) stay within 44 KB gzip as served, with no validator module among them (issue 18)', async () => {
    // What `import 'mcp-web-elements/elements'` makes a page download before it runs, each file gzipped on
    // its own as a server sends it (bench/size.ts measures the same, also for es2022): 41,935 B when a
    // 41.5 KB budget was set (80,308 B before the elements loaded their code on first use); 42,478 B after
    // the fixes at the lazy seams (switching tools or servers mid-load, retrying a failed load), so 42 KB
    // then; 43,683 B after issues 29 and 33 (the core's new bounds, strict OAuth on <mcp-connection>,
    // masked URLs, the dialog's one-step accept), so 44 KB, still under issues 18's and 30's 45 KB. The validator (42 KB
    // with ajv) is not in it: the tool form asks for it on the first check (components/pay-for-use.test.ts);
    // nor are the parts listed in the test above.
    const { eager } = await buildEntry(PAGE_ENTRY, true, 'es2022');
    const served = eager.reduce((sum, c) => sum + gzipSync(c.code).length, 0);
    console.log(`elements entry (app build, as served): ${eager.length} file(s), ${served} bytes gzip`);
    // Nor the x-mcp-header checker: the form loads it for a schema that mentions the annotation.
    expect(eager.flatMap((c) => Object.keys(c.modules)).filter((id) => /schema-ajv|eval-policy|schema-guard|cfworker|node_modules\/ajv|header-bindings/.test(id))).toEqual([]);
    expect(served).toBeLessThanOrEqual(44 * 1024);
  });

  test('loads what a page may never use on demand: the dialog\'s body, the result renderer, the form\'s parts, draft storage, the wording of validator issues, the pattern shape check, the CORS doctor (issue 18)', async () => {
    const { chunks, eager } = await buildEntry(join(root, 'components/index.ts'), true);
    const relative = (c: Rollup.OutputChunk) => Object.keys(c.modules).map((id) => id.replace(`${root}/`, ''));
    const onDemand = [
      // <mcp-elicitation-dialog>: defined at import, its body loads with the first input request.
      'components/mcp-elicitation-dialog/dialog-body.ts',
      'components/mcp-elicitation-dialog/elicitation-form.ts',
      'components/mcp-elicitation-dialog/url.ts',
      'components/mcp-elicitation-dialog/pending.ts',
      'components/mcp-elicitation-dialog/mcp-elicitation-dialog.styles.ts',
      // <mcp-tool-result>: its renderer loads with the first result.
      'components/mcp-tool-result/result-body.ts',
      'components/mcp-tool-result/mcp-tool-result.styles.ts',
      // <mcp-tool-form>: what renders a form when a form connects (in parallel with its connection's handshake);
      // stored drafts when a form with drafts connects; the issue wording with the validator; the pattern shape check with the pattern engine.
      'components/mcp-tool-form/form-parts.ts',
      'components/mcp-tool-form/model.ts',
      'components/mcp-tool-form/resolve.ts',
      'components/mcp-tool-form/draft.ts',
      'components/mcp-tool-form/fields.ts',
      'components/mcp-tool-form/preview.ts',
      'components/internal/drafts.ts',
      'components/internal/store.ts',
      'node_modules/idb-keyval/dist/index.js',
      'components/mcp-tool-form/issues.ts',
      'src/schema/patterns/regex-safety.ts',
      // The searched list of a long choice (more than SEARCH_OVER values), for the form or the dialog that shows one.
      'components/internal/combobox.ts',
      // <mcp-connection>: the CORS doctor when a connection fails.
      'components/mcp-connection/cors-doctor.ts',
    ];
    const eagerModules = new Set(eager.flatMap(relative));
    expect(onDemand.filter((id) => eagerModules.has(id))).toEqual([]);
    // Each one is in a chunk of its own kind, loaded on demand (not left out of the build, which would pass the check above).
    const lazyModules = new Set(chunks.filter((c) => !eager.includes(c)).flatMap(relative));
    expect(onDemand.filter((id) => !lazyModules.has(id))).toEqual([]);
  });

  test('loads the searched list of long choices (combobox.ts) only for a form or request that has one, not with the form\'s parts or the dialog\'s body', async () => {
    const { chunks } = await buildEntry(join(root, 'components/index.ts'), true);
    const byName = new Map(chunks.map((c) => [c.fileName, c]));
    const has = (c: Rollup.OutputChunk, id: string) => Object.keys(c.modules).some((module) => module === join(root, id));
    /** The chunk and every chunk it imports statically: what loads with it. */
    const withImports = (chunk: Rollup.OutputChunk, seen = new Set<Rollup.OutputChunk>()): Set<Rollup.OutputChunk> => {
      if (seen.has(chunk)) return seen;
      seen.add(chunk);
      for (const name of chunk.imports) withImports(byName.get(name)!, seen);
      return seen;
    };
    const combobox = chunks.filter((c) => has(c, 'components/internal/combobox.ts'));
    expect(combobox).toHaveLength(1);
    for (const user of ['components/mcp-tool-form/form-parts.ts', 'components/mcp-elicitation-dialog/dialog-body.ts']) {
      const chunk = chunks.find((c) => has(c, user))!;
      // Asked for with import() by the chunk that uses it…
      expect(chunk.dynamicImports).toContain(combobox[0]!.fileName);
      // …and not among what loads with that chunk.
      expect([...withImports(chunk)].filter((c) => has(c, 'components/internal/combobox.ts'))).toEqual([]);
    }
  });

  test('loads <mcp-app-frame> only on demand: a page without apps never downloads it', async () => {
    const { chunks, eager } = await buildEntry(join(root, 'components/index.ts'), true);
    const relative = (c: Rollup.OutputChunk) => Object.keys(c.modules).map((id) => id.replace(`${root}/`, ''));
    const frameModules = /^components\/mcp-app-frame\/(mcp-app-frame|channel|csp|mcp-app-frame\.styles)\.ts$/;
    expect(eager.flatMap(relative).filter((id) => frameModules.test(id))).toEqual([]);
    const lazy = chunks.filter((c) => !eager.includes(c) && relative(c).includes('components/mcp-app-frame/mcp-app-frame.ts'));
    expect(lazy).toHaveLength(1);
    const gzip = gzipSync(lazy[0]!.code).length;
    console.log(`<mcp-app-frame> chunk (loaded on demand): ${lazy[0]!.code.length} bytes minified, ${gzip} bytes gzip`);
    // 12 KB until issue 27 (consent choices, teardown before removal, the full style variable set,
    // the flood budget, ui/download-file): 12,400 B then, so 13 KB. It loads only with a page's first app.
    expect(gzip).toBeLessThanOrEqual(13 * 1024);
  });

  test('leaves the inspector elements and <mcp-host> (with McpHost) to their own entries, and loads the tool form\'s completions only on demand', async () => {
    const { chunks, eager } = await buildEntry(join(root, 'components/index.ts'), true);
    const relative = (c: Rollup.OutputChunk) => Object.keys(c.modules).map((id) => id.replace(`${root}/`, ''));
    const all = chunks.flatMap(relative);
    // Not even as a lazy chunk: a page that only calls tools never downloads them.
    expect(all.filter((id) => /^components\/(mcp-prompt-form|mcp-resource-list|mcp-protocol-log|mcp-roots-editor|mcp-call-history|mcp-host)\/|^src\/host\//.test(id))).toEqual([]);
    expect(eager.flatMap(relative).filter((id) => /^components\/mcp-tool-form\/completions\.ts$|^components\/internal\/(completion|uri-template)\.ts$/.test(id))).toEqual([]);
    expect(chunks.filter((c) => !eager.includes(c) && relative(c).includes('components/mcp-tool-form/completions.ts'))).toHaveLength(1);
  });
});

describe('the bridge (mcp-web-elements/bridge, Node only)', () => {
  test('is its own entry: neither the core nor the elements import it, and it imports neither', () => {
    const offenders: string[] = [];
    const imports = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]!);
    for (const file of [...files(join(root, 'src')), ...files(join(root, 'components'))]) {
      for (const target of imports(file)) if (target.includes('bridge/')) offenders.push(`${file}: ${target}`);
    }
    for (const file of files(join(root, 'bridge'))) {
      for (const target of imports(file)) if (target.startsWith('.') && !target.startsWith('./')) offenders.push(`${file}: ${target}`);
    }
    expect(offenders).toEqual([]);
  });
});

