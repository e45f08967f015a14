/**
 * The source layout (docs/architecture.md): no import circles in `src/`,
 * `components/` and `bridge/` (type imports and `import()` included), the
 * folders of `src/` depend on each other one way, and no source file is over
 * 800 lines. Imports are read with TypeScript's own pre-processor, the same
 * reading the compiler does, so a multi-line or type-position `import('./x.js')`
 * counts as well.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..');
const FOLDERS = ['src', 'components', 'bridge'];
/** Tests, their support and declaration files are not part of the design being checked. */
const LEFT_OUT = /(\.test\.ts$|\.spec\.ts$|\/test-support\/|\.d\.ts$)/;
const MAX_LINES = 800;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return /\.(ts|mts)$/.test(name) && !LEFT_OUT.test(path) ? [path] : [];
  });
}

const files = FOLDERS.flatMap((folder) => sources(join(root, folder))).map((path) => relative(root, path));
const known = new Set(files);

/** A relative specifier from `file` to the source file it names, if it is one of ours. */
function resolve(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = join(dirname(file), specifier);
  const stem = base.replace(/\.(js|mjs|ts)$/, '');
  return [`${stem}.ts`, `${stem}.mts`, base, join(base, 'index.ts')].find((candidate) => known.has(candidate));
}

/** Every file's imports among our sources: static, type-only, re-exports and `import()`. */
const graph = new Map(
  files.map((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets = new Set(importedFiles.map((entry) => resolve(file, entry.fileName)).filter((target): target is string => target !== undefined && target !== file));
    return [file, targets] as const;
  }),
);

/** Strongly connected components of more than one node (Tarjan), each sorted. */
function circles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the source layout', () => {
  test('reads the imports it checks (a guard against a reading that finds nothing)', () => {
    expect(files.length).toBeGreaterThan(100);
    // A type-only import, a dynamic import and a re-export, each seen.
    expect(graph.get('src/index.ts')).toContain('src/client.ts');
    expect([...graph.values()].reduce((sum, targets) => sum + targets.size, 0)).toBeGreaterThan(300);
  });

  test('has no import circle in src/, components/ or bridge/ (type imports and import() included)', () => {
    expect(circles(graph)).toEqual([]);
  });

  test('the folders of src/ import only the layers below them (docs/architecture.md)', () => {
    // The picture in docs/architecture.md, bottom up: a folder (or a file directly in src/) may
    // import only what is in a lower layer. auth/ is an entry of its own beside the stack.
    const layers = [['util/', 'protocol/'], ['transport/', 'schema/'], ['rounds/'], ['tasks/', 'legacy/'], ['client/'], ['client.ts'], ['host/'], ['adapters/'], ['index.ts', 'cfworker.ts']];
    const auth = { folder: 'auth/', may: new Set(['transport/', 'protocol/', 'util/']) };
    const node = (file: string) => {
      const parts = file.split('/');
      return parts.length > 2 ? `${parts[1]}/` : parts[1]!;
    };
    const layerOf = (name: string) => layers.findIndex((layer) => layer.includes(name));
    const wrong: string[] = [];
    const nodes = new Set<string>();
    for (const [file, targets] of graph) {
      if (!file.startsWith('src/')) continue;
      const from = node(file);
      nodes.add(from);
      for (const target of targets) {
        const to = node(target);
        if (to === from) continue;
        const allowed = from === auth.folder ? auth.may.has(to) : to !== auth.folder && layerOf(to) >= 0 && layerOf(to) < layerOf(from);
        if (!allowed) wrong.push(`${file} → ${target}`);
      }
    }
    // Every folder has its place in the picture (a new folder is drawn there first).
    expect([...nodes].filter((name) => name !== auth.folder && layerOf(name) < 0)).toEqual([]);
    expect(wrong).toEqual([]);
  });

  test(`has no source file over ${MAX_LINES} lines (tests and declarations left out)`, () => {
    const long = files
      .map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }))
      .map(({ file, text }) => ({ file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines}`);
    expect(long).toEqual([]);
  });
});
