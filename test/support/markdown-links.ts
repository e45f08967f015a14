/**
 * Checks the relative links of Markdown files the way a reader meets them on
 * GitHub and on the docs site: the file a link names exists, and its `#anchor`
 * is a heading of that file (or an explicit `<a id>`). Plain text parsing, no
 * network: external links are not fetched (their availability is not this
 * repository's to test).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { pageSlugger } from '../../docs/.vitepress/slug.js';

/** A line's text with code spans removed, or undefined inside a fenced block. */
function* proseLines(markdown: string): Generator<{ line: string; number: number }> {
  let fence: string | undefined;
  for (const [index, line] of markdown.split('\n').entries()) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || marker.startsWith(fence))) {
      fence = fence ? undefined : marker;
      continue;
    }
    if (!fence) yield { line, number: index + 1 };
  }
}

/** The heading text as it renders: code spans keep their text, links their label. */
function headingText(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim();
}

/** Every anchor a Markdown file defines: its headings' slugs and its `<a id="…">`s. */
export function anchorsOf(markdown: string): Set<string> {
  const slug = pageSlugger();
  const anchors = new Set<string>();
  for (const { line } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(slug(headingText(heading[1]!)));
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]!);
  }
  return anchors;
}

/** The link targets of a Markdown file (inline links and images), with their line numbers. */
export function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  for (const { line, number } of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/!?\[(?:[^\]]|\][^(])*?\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: match[1]!, line: number });
    for (const match of prose.matchAll(/<a\s[^>]*href="([^"]+)"/g)) links.push({ target: match[1]!, line: number });
  }
  return links;
}

/** The broken relative links of `files` (paths), as `file:line → target: why`. */
export function brokenLinks(files: string[], root: string): string[] {
  const problems: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (file: string) => {
    let anchors = anchorCache.get(file);
    if (!anchors) anchorCache.set(file, (anchors = anchorsOf(readFileSync(file, 'utf8'))));
    return anchors;
  };
  for (const file of files) {
    for (const { target, line } of linksOf(readFileSync(file, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not this test's business
      const where = `${relative(root, file)}:${line} → ${target}`;
      const [path = '', anchor] = target.split('#', 2);
      const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!existsSync(resolved)) {
        problems.push(`${where}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) {
        problems.push(`${where}: an anchor into a file that is not Markdown`);
        continue;
      }
      if (!anchorsIn(resolved).has(decodeURIComponent(anchor))) problems.push(`${where}: no such heading in ${relative(root, resolved)}`);
    }
  }
  return problems;
}
