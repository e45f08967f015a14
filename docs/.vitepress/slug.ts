/**
 * Heading anchors as GitHub makes them (github-slugger's rule: lower case, every
 * character that is not a letter, mark, digit, connector, space or hyphen
 * dropped, spaces to hyphens). The docs site uses this same function for its
 * heading ids, so a `page.md#anchor` link works both on GitHub, where most
 * people read README.md, and on the site; the link test checks anchors with it.
 */
export function slugify(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** A slugger for one page: a repeated heading gets `-1`, `-2`… as on GitHub. */
export function pageSlugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = slugify(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}
