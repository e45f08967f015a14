/**
 * Budgets for what a server may make the elements render, and the search that
 * stands in for a list too long to render: an `enum` of a million values is
 * a text input checked against the enum with the matching values listed, a
 * page at a time — never a million `<option>`s (the input and its keys:
 * combobox.ts). DOM-free.
 *
 * @module
 */

/** Enumerations with more values than this are searched (a text input and a short list of matches) instead of listed. */
export const SEARCH_OVER = 100;
/** Matches listed at once under a search input. */
export const MATCHES_SHOWN = 50;
/** Labels (titles, names, enum labels) are shown up to this many characters. */
export const LABEL_CHARS = 200;
/** Descriptions and hints are shown up to this many characters, with "Show all". */
export const DESCRIPTION_CHARS = 2_000;
/** Values (defaults, constants, JSON) longer than this are previewed, with "Show all", instead of put in a control. */
export const VALUE_CHARS = 20_000;

const labelCache = new WeakMap<readonly { label: string }[], string[]>();

/** The labels of a list of options, once per options array (they are searched on every keystroke). */
export function labelsOf(options: readonly { label: string }[]): string[] {
  let labels = labelCache.get(options);
  if (!labels) labelCache.set(options, (labels = options.map((option) => option.label)));
  return labels;
}

const lowered = new WeakMap<readonly string[], string[]>();

/**
 * The options whose label contains `query` (case-insensitive), in order: the
 * first `limit` indices, and how many match in all. An empty query matches
 * every option. Lower-cased labels are cached per `labels` array, so a search
 * over a million values costs one pass per keystroke.
 */
export function searchLabels(labels: readonly string[], query: string, limit = MATCHES_SHOWN): { indices: number[]; total: number } {
  let lower = lowered.get(labels);
  if (!lower) lowered.set(labels, (lower = labels.map((label) => label.toLowerCase())));
  const needle = query.trim().toLowerCase();
  const indices: number[] = [];
  let total = 0;
  for (let i = 0; i < lower.length; i++) {
    if (needle !== '' && !lower[i]!.includes(needle)) continue;
    total++;
    if (indices.length < limit) indices.push(i);
  }
  return { indices, total };
}

/**
 * The option a typed text names: the one whose label is exactly the text, else
 * the only one whose label equals it ignoring case and surrounding spaces.
 * @returns its index, or -1.
 */
export function optionNamed(labels: readonly string[], text: string): number {
  const exact = labels.indexOf(text);
  if (exact !== -1) return exact;
  const wanted = text.trim().toLowerCase();
  let found = -1;
  for (let i = 0; i < labels.length; i++) {
    if (labels[i]!.trim().toLowerCase() !== wanted) continue;
    if (found !== -1) return -1;
    found = i;
  }
  return found;
}
