/**
 * Architecture guards: the core stays DOM-free and Lit-free, and bundles for
 * the browser with no Node built-ins within its size budget.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

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

  test('bundles for the browser with no Node built-ins, within 15 KB gzip (without the lazily loaded parts)', async () => {
    const output = (await build({
      configFile: false,
      logLevel: 'silent',
      build: {
        write: false,
        minify: true,
        lib: { entry: join(root, 'src/index.ts'), formats: ['es'], fileName: 'core' },
        rollupOptions: { external: [] },
      },
    })) as Rollup.RollupOutput[];
    const chunks = output.flatMap((o) => o.output).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
    const entry = chunks.find((c) => c.isEntry)!;
    for (const chunk of chunks) {
      expect(chunk.code).not.toMatch(/from\s*["']node:|require\(["']node:/);
    }
    // ajv and the legacy session are separate chunks, loaded only when needed.
    expect(chunks.length).toBeGreaterThan(1);
    // Everything loaded up front: the entry and the chunks it imports statically.
    const byName = new Map(chunks.map((c) => [c.fileName, c]));
    const eager = new Set<Rollup.OutputChunk>();
    const visit = (chunk: Rollup.OutputChunk) => {
      if (eager.has(chunk)) return;
      eager.add(chunk);
      for (const name of chunk.imports) visit(byName.get(name)!);
    };
    visit(entry);
    const eagerModules = [...eager].flatMap((c) => Object.keys(c.modules));
    expect(eagerModules.filter((id) => /node_modules\/ajv|schema-ajv|\/legacy\//.test(id))).toEqual([]);
    const code = [...eager].map((c) => c.code).join('\n');
    const gzip = gzipSync(code).length;
    console.log(`core (eager chunks): ${code.length} bytes minified, ${gzip} bytes gzip`);
    expect(gzip).toBeLessThanOrEqual(15 * 1024);
  });
});
