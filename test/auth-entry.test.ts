/**
 * The OAuth layer is a separate entry (`mcp-web-elements/auth`): the core bundle
 * never contains it, and inside it the discovery/token flow, DPoP and
 * idb-keyval are loaded only when needed.
 */
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..');

async function bundle(entry: string): Promise<{ eager: Rollup.OutputChunk[]; all: Rollup.OutputChunk[] }> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: true, lib: { entry: join(root, entry), formats: ['es'], fileName: 'bundle' } },
  })) as Rollup.RollupOutput[];
  const all = output.flatMap((o) => o.output).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  const byName = new Map(all.map((c) => [c.fileName, c]));
  const eager = new Set<Rollup.OutputChunk>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (eager.has(chunk)) return;
    eager.add(chunk);
    for (const name of chunk.imports) visit(byName.get(name)!);
  };
  visit(all.find((c) => c.isEntry)!);
  return { eager: [...eager], all };
}

const modules = (chunks: Rollup.OutputChunk[]) => chunks.flatMap((c) => Object.keys(c.modules));

test('the core entry contains no OAuth code', async () => {
  const { all } = await bundle('src/index.ts');
  expect(modules(all).filter((id) => id.includes('/src/auth/'))).toEqual([]);
});

test('the auth entry loads the flow, DPoP, the machine-to-machine grants and IndexedDB code on demand, and stays small', async () => {
  const { eager, all } = await bundle('src/auth/index.ts');
  const lazy = modules(all).filter((id) => !modules(eager).includes(id));
  expect(lazy.some((id) => id.endsWith('/src/auth/flow.ts'))).toBe(true);
  expect(lazy.some((id) => id.endsWith('/src/auth/dpop.ts'))).toBe(true);
  expect(lazy.some((id) => id.endsWith('/src/auth/grants.ts'))).toBe(true);
  expect(lazy.some((id) => id.endsWith('/src/auth/jwt.ts'))).toBe(true);
  expect(lazy.some((id) => id.includes('idb-keyval'))).toBe(true);
  const code = eager.map((c) => c.code).join('\n');
  expect(code).not.toMatch(/from\s*["']node:/);
  const gzip = gzipSync(code).length;
  console.log(`auth entry (eager chunks): ${code.length} bytes minified, ${gzip} bytes gzip`);
  // 8 KB until issue 29's strict mode (requireIss, checked before any registration or page): 8,304 B then.
  expect(gzip).toBeLessThanOrEqual(8.5 * 1024);
});
