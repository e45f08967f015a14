/**
 * README.md stays short (issue 31: at most 200 lines; the rest lives in docs/),
 * and every relative link and anchor in README.md and docs/ resolves, so
 * moving a section or renaming a heading cannot leave a dead link behind.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { anchorsOf, brokenLinks, linksOf } from './support/markdown-links.js';

const root = resolve(import.meta.dirname, '..');

/** README.md and every page of docs/ (the site's own folder, .vitepress, excluded). */
function markdownFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md') && !path.startsWith('.vitepress'))
    .map((path) => join(root, 'docs', path));
  return [join(root, 'README.md'), ...docs];
}

describe('README and docs', () => {
  test('README.md has at most 200 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(200);
  });

  test('every relative link and #anchor in README.md and docs/ resolves', () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(20); // the README, the topic pages and the element pages
    expect(brokenLinks(files, root)).toEqual([]);
  });

  test('the README links every topic page of docs/', () => {
    const linked = new Set(linksOf(readFileSync(join(root, 'README.md'), 'utf8')).map(({ target }) => target.split('#')[0]));
    const topics = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md') && name !== 'index.md' && name !== 'corpus-report.md');
    expect(topics.filter((name) => !linked.has(`docs/${name}`))).toEqual([]);
  });

  test('the checker finds a missing file, a missing heading and a file anchor, and takes GitHub\'s anchors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-links-'));
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'b.md'), '# B\n\n## Schema validation: ajv, or `eval`\n\n## A host\'s own UI\n\n## Twice\n\n## Twice\n\n```md\n# Not a heading\n```\n');
    writeFileSync(join(dir, 'a.md'), [
      '[ok](docs/b.md#schema-validation-ajv-or-eval) [ok](docs/b.md#a-hosts-own-ui) [ok](docs/b.md#twice-1) [ok](#local)',
      '<a id="local"></a>',
      '[gone](docs/missing.md) [bad anchor](docs/b.md#not-a-heading) [file anchor](docs#x)',
      '`[in code](docs/missing.md)` [web](https://example.com/x.md)',
      '```',
      '[in a fence](docs/missing.md)',
      '```',
    ].join('\n'));
    expect(anchorsOf(readFileSync(join(dir, 'docs', 'b.md'), 'utf8'))).toEqual(new Set(['b', 'schema-validation-ajv-or-eval', 'a-hosts-own-ui', 'twice', 'twice-1']));
    expect(brokenLinks([join(dir, 'a.md')], dir)).toEqual([
      'a.md:3 → docs/missing.md: no such file',
      'a.md:3 → docs/b.md#not-a-heading: no such heading in docs/b.md',
      'a.md:3 → docs#x: an anchor into a file that is not Markdown',
    ]);
  });
});
