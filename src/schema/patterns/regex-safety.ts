/**
 * A static check for regular expressions that can make a backtracking engine
 * (V8's, the browser's `pattern` attribute) run for exponential or high-degree
 * polynomial time — ReDoS.
 *
 * Schemas come from servers (spec: server/tools `inputSchema` / `outputSchema`,
 * client/elicitation `requestedSchema`), so a `pattern` like `^(a+)+$` checked
 * against 30 characters would freeze the page. The kit does not run such a
 * pattern: the check is skipped and reported instead.
 *
 * What counts as risky:
 * - a repeated group whose body has a variable part — a quantifier, an
 *   alternation of different lengths or with alternatives that can start alike,
 *   a back-reference — and no fixed, disjoint separator to split iterations
 *   (`(a+)+`, `(\w+\s?)*`, `(a{1,3})+`, `((a|aa))+`);
 * - a repeated group whose alternatives can start alike (`(a|ab)+`);
 * - more than {@link MAX_AMBIGUOUS} alternations whose alternatives can start
 *   alike (`(a|a)(a|a)…`: each one doubles the work on a failing input);
 * - three or more adjacent unbounded repeats that can match the same characters
 *   (`\d*\d*\d*x`: polynomial of that degree).
 * Safe look-alikes pass: `(\.\d+)+`, `(;\d+)*`, `(\d{3})+`, `(\d+(?:,|;))*`,
 * `[\p{L}]+(?:[ '-][\p{L}]+)*`. Character sets are exact for ASCII; case-insensitive
 * groups fold ASCII letters; Unicode letter/number properties are taken as "not
 * ASCII punctuation or space". A pattern too long or too deeply nested to analyze
 * counts as risky.
 *
 * The pattern is read by the engine's own reader ({@link ./regexp-syntax.ts}):
 * the check judges the syntax tree the linear-time engine compiles. It loads
 * with the engine (`linear-regexp.ts` re-exports it), since a verdict needs it
 * only for a pattern the engine refuses.
 *
 * @module
 */
import { ANY, NONE, normalize, RegExpParser, RegExpRefused, type Ranges, type RegExpNode } from './regexp-syntax.js';

const MAX_LENGTH = 4096;
const MAX_DEPTH = 48;
/** How many ambiguous alternations a pattern may have (2^8 = 256 times the work at worst). */
const MAX_AMBIGUOUS = 8;

// --- character sets ----------------------------------------------------------------------------

function union(a: Ranges, b: Ranges): Ranges {
  return a.length === 0 ? b : b.length === 0 ? a : normalize([...a, ...b]);
}

function overlaps(a: Ranges, b: Ranges): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [alo, ahi] = a[i]!;
    const [blo, bhi] = b[j]!;
    if (alo <= bhi && blo <= ahi) return true;
    if (ahi < bhi) i++;
    else j++;
  }
  return false;
}

/** Whether any two of the sets overlap (a sweep, not every pair: alternations can be long). */
function anyTwoOverlap(sets: Ranges[]): boolean {
  const all = sets.flatMap((ranges, owner) => ranges.map(([lo, hi]) => ({ lo, hi, owner })));
  all.sort((a, b) => a.lo - b.lo);
  // The two furthest-reaching ranges seen so far, from different owners.
  let first = { hi: -1, owner: -1 };
  let second = { hi: -1, owner: -1 };
  for (const { lo, hi, owner } of all) {
    const other = first.owner !== owner ? first : second;
    if (other.owner !== -1 && other.hi >= lo) return true;
    if (owner === first.owner) first = { hi: Math.max(first.hi, hi), owner };
    else if (hi > first.hi) [first, second] = [{ hi, owner }, first];
    else if (hi > second.hi) second = { hi, owner };
  }
  return false;
}

// --- items: the syntax tree as the analysis reads it -------------------------------------------

/**
 * An item of a sequence is a node of the syntax tree: a character, a group, an
 * assertion or look-around, a back-reference, or a `repeat` of one of the
 * quantifiable ones. What the analysis reads of it:
 */
type Item = RegExpNode;

/** The item without its quantifier. */
const term = (item: Item): RegExpNode => (item.t === 'repeat' ? item.node : item);
/** Quantifier bounds (1, 1 when there is none). */
const minOf = (item: Item): number => (item.t === 'repeat' ? item.min : 1);
const maxOf = (item: Item): number => (item.t === 'repeat' ? item.max : 1);
/** Zero width: an anchor, a word boundary, a look-around (what it contains can still backtrack). */
const isAssertion = (item: Item): boolean => item.t === 'assert' || item.t === 'look';

/** The alternatives of a disjunction, each a sequence of items. */
function alternativesOf(node: RegExpNode): Item[][] {
  return (node.t === 'alt' ? node.alternatives : [node]).map((alternative) => (alternative.t === 'seq' ? alternative.items : [alternative]));
}

/** The alternatives of a group or look-around item (undefined for other items). */
function alternatives(item: Item): Item[][] | undefined {
  const inner = term(item);
  return inner.t === 'group' || inner.t === 'look' ? alternativesOf(inner.node) : undefined;
}

// --- analysis ----------------------------------------------------------------------------------

/** Everything the checks need about an item, computed once. */
interface Facts {
  /** Shortest and longest text it can match. */
  lo: number;
  hi: number;
  /** Every character it can consume. */
  chars: Ranges;
  /** Characters it can start and end with. */
  first: Ranges;
  last: Ranges;
  /** Characters an unbounded repeat at its very start (head) or end (tail) can consume. */
  head: Ranges;
  tail: Ranges;
  /** A group whose alternatives can start alike. */
  ambiguous: boolean;
}

const times = (length: number, count: number) => (length === 0 || count === 0 ? 0 : length * count);

class Analysis {
  readonly #facts = new Map<Item, Facts>();
  ambiguous = 0;

  facts(item: Item): Facts {
    const known = this.#facts.get(item);
    if (known) return known;
    let facts: Facts;
    const inner = term(item);
    const [min, max] = [minOf(item), maxOf(item)];
    if (isAssertion(item)) {
      for (const alternative of alternatives(item) ?? []) this.sequence(alternative);
      facts = { lo: 0, hi: 0, chars: NONE, first: NONE, last: NONE, head: NONE, tail: NONE, ambiguous: false };
    } else if (inner.t === 'backref') {
      facts = { lo: 0, hi: Infinity, chars: ANY, first: ANY, last: ANY, head: ANY, tail: ANY, ambiguous: false };
    } else if (inner.t === 'char') {
      const unbounded = max === Infinity ? inner.set : NONE;
      facts = { lo: min, hi: max, chars: inner.set, first: inner.set, last: inner.set, head: unbounded, tail: unbounded, ambiguous: false };
    } else {
      const sequences = alternatives(item)!.map((alternative) => this.sequence(alternative));
      const lo = Math.min(...sequences.map((a) => a.lo));
      const hi = Math.max(...sequences.map((a) => a.hi));
      const ambiguous = sequences.length > 1 && anyTwoOverlap(sequences.map((a) => a.first));
      if (ambiguous) this.ambiguous++;
      const all = (key: 'chars' | 'first' | 'last' | 'head' | 'tail') => sequences.reduce<Ranges>((acc, a) => union(acc, a[key]), NONE);
      // An unbounded repeat of a group meets its neighbours with what an iteration starts and ends with.
      const repeated = max === Infinity;
      facts = {
        lo: times(lo, min),
        hi: times(hi, max),
        chars: all('chars'),
        first: all('first'),
        last: all('last'),
        head: repeated ? all('first') : all('head'),
        tail: repeated ? all('last') : all('tail'),
        ambiguous,
      };
    }
    this.#facts.set(item, facts);
    return facts;
  }

  /**
   * Facts of a sequence (an alternative): lengths add up; it starts with what
   * its leading nullable items and the first non-nullable one start with, and
   * ends likewise; its head and tail are those of the items up to the first
   * mandatory one from either end.
   */
  sequence(items: Item[]): Omit<Facts, 'ambiguous'> {
    let lo = 0;
    let hi = 0;
    let chars: Ranges = NONE;
    let first: Ranges = NONE;
    let head: Ranges = NONE;
    let open = true;
    const all = items.map((item) => this.facts(item));
    for (const facts of all) {
      lo += facts.lo;
      hi += facts.hi;
      chars = union(chars, facts.chars);
      if (open) {
        first = union(first, facts.first);
        head = union(head, facts.head);
      }
      if (facts.lo > 0) open = false;
    }
    let tail: Ranges = NONE;
    let last: Ranges = NONE;
    for (let i = all.length - 1; i >= 0; i--) {
      tail = union(tail, all[i]!.tail);
      last = union(last, all[i]!.last);
      if (all[i]!.lo > 0) break;
    }
    return { lo, hi, chars, first, last, head, tail };
  }
}

/** A part of a repeated group's iteration that can match in more than one way or length. */
function isVariable(item: Item, facts: Facts): boolean {
  return term(item).t === 'backref' || (!isAssertion(item) && (facts.lo !== facts.hi || facts.ambiguous));
}

/**
 * Whether the iterations of a repeated group whose body is `items` can split
 * one text in many ways: going around the body as the iterations do (the end
 * of one iteration meets the start of the next), every variable part must be
 * followed, before the next variable part that can take the same characters
 * (itself, one iteration later), by a mandatory part that takes none of them.
 * `([=!,]{1,2}[a-z]+)+` and `(\.\d+)+` pass; `(a+)+`, `(\w+\s?)*` and
 * `(\s*a\s*)+` (the last `\s*` meets the next iteration's first) do not.
 */
function iterationsSplit(analysis: Analysis, items: Item[]): boolean {
  const parts = items.map((item) => ({ item, facts: analysis.facts(item) }));
  for (let i = 0; i < parts.length; i++) {
    const v = parts[i]!;
    if (!isVariable(v.item, v.facts)) continue;
    const separators: Ranges[] = [];
    for (let step = 1; step <= parts.length; step++) {
      const w = parts[(i + step) % parts.length]!;
      if (isVariable(w.item, w.facts) && overlaps(w.facts.chars, v.facts.chars)) {
        const taken = union(v.facts.chars, w.facts.chars);
        if (!separators.some((separator) => !overlaps(separator, taken))) return true;
        break;
      }
      if (!isAssertion(w.item) && w.facts.lo > 0 && !w.facts.ambiguous) separators.push(w.facts.chars);
    }
  }
  return false;
}

function riskIn(analysis: Analysis, items: Item[]): string | undefined {
  // Two unbounded repeats that meet (nothing mandatory between them) and take the same characters
  // split a run of them in quadratically many ways (a*a*b); more of them, in higher powers.
  let open: Ranges = NONE;
  for (const item of items) {
    const facts = analysis.facts(item);
    if (overlaps(open, facts.head)) return 'two adjacent repeats can match the same text (like a*a*b)';
    open = facts.lo === 0 ? union(open, facts.tail) : facts.tail;
  }
  for (const item of items) {
    const inside = alternatives(item);
    if (!inside) continue;
    const facts = analysis.facts(item);
    if (term(item).t === 'group' && maxOf(item) > 1) {
      if (facts.ambiguous) return 'a repeated group has alternatives that can start alike (like (a|ab)+)';
      for (const alternative of inside) {
        if (iterationsSplit(analysis, alternative)) return 'a repeated group contains a variable-length part with nothing to separate its iterations (like (a+)+)';
      }
    }
    for (const alternative of inside) {
      const inner = riskIn(analysis, alternative);
      if (inner) return inner;
    }
  }
  return undefined;
}

const verdicts = new Map<string, string | undefined>();

/**
 * Whether checking a string against `pattern` can take exponential (or
 * high-degree polynomial) time in a backtracking engine. Results are cached.
 *
 * @returns a short reason when the pattern is risky (or could not be analyzed),
 *   undefined when it is safe to run.
 */
export function backtrackingRisk(pattern: string): string | undefined {
  if (verdicts.has(pattern)) return verdicts.get(pattern);
  const verdict = analyze(pattern);
  if (verdicts.size >= 1000) verdicts.clear();
  verdicts.set(pattern, verdict);
  return verdict;
}

function analyze(pattern: string): string | undefined {
  if (pattern.length > MAX_LENGTH) return `the pattern is longer than ${MAX_LENGTH} characters`;
  let node: RegExpNode;
  try {
    // Flags are not known here: only `(?i:…)` groups fold case.
    node = new RegExpParser(pattern, MAX_DEPTH, 'too deeply nested').parse({ i: false, m: false, s: false });
  } catch (error) {
    return error instanceof RegExpRefused ? `the pattern could not be analyzed (${error.message})` : 'the pattern could not be analyzed';
  }
  const analysis = new Analysis();
  // The whole pattern behaves like one group that is not repeated.
  const root: Item = { t: 'group', node };
  analysis.facts(root);
  const risk = riskIn(analysis, [root]);
  if (risk) return risk;
  if (analysis.ambiguous > MAX_AMBIGUOUS) return `more than ${MAX_AMBIGUOUS} alternations can start alike (like (a|a)(a|a)…): each doubles the work`;
  return undefined;
}
