/**
 * Links from docs/ to the rest of the repository (`../bench/README.md`,
 * `../../components/…`) work on GitHub, where the docs are read in place, but
 * the site has no such pages. On the site they become the file's path as text
 * (a `<span>` titled with it), not a dead link; the link test (test/docs.test.ts)
 * still checks that each file exists.
 */
import type { MarkdownRenderer } from 'vitepress';
import { isAbsolute, normalize, posix } from 'node:path';

type Token = { type: string; tag: string; attrGet(name: string): string | null; attrs: [string, string][] | null; nesting: number; content: string; children: Token[] | null };

/** The repository path a link from `page` (a path under docs/) points at, if it leaves docs/. */
export function outsideDocs(page: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:|^#|^\//i.test(href) || isAbsolute(href)) return undefined;
  const target = normalize(posix.join('docs', posix.dirname(page), href.split('#')[0]!)).replace(/\\/g, '/');
  return target.startsWith('docs/') ? undefined : target;
}

export function repoLinks(md: MarkdownRenderer): void {
  md.core.ruler.push('repo-links', (state) => {
    const page = (state.env as { relativePath?: string }).relativePath ?? '';
    for (const block of state.tokens as unknown as Token[]) {
      const open: boolean[] = [];
      for (const token of block.children ?? []) {
        if (token.type === 'link_open') {
          const path = outsideDocs(page, token.attrGet('href') ?? '');
          open.push(path !== undefined);
          if (path !== undefined) {
            token.tag = 'span';
            token.attrs = [['class', 'repo-path'], ['title', `${path} in the repository`]];
          }
        } else if (token.type === 'link_close' && open.pop()) {
          token.tag = 'span';
        }
      }
    }
  });
}
