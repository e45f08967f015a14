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
 * @module
 */

/** Characters as sorted, disjoint, inclusive code point ranges. */
type Ranges = readonly (readonly [number, number])[];

interface Item {
  kind: 'atom' | 'group' | 'assertion' | 'backref';
  /** Characters an atom matches. */
  set?: Ranges;
  /** Alternatives of a group or look-around, each a sequence. */
  alternatives?: Item[][];
  /** Quantifier bounds (1, 1 when there is none). */
  min: number;
  max: number;
}

const MAX_LENGTH = 4096;
const MAX_DEPTH = 48;
/** How many ambiguous alternations a pattern may have (2^8 = 256 times the work at worst). */
const MAX_AMBIGUOUS = 8;
const TOP = 0x10ffff;

const ANY: Ranges = [[0, TOP]];
const NONE: Ranges = [];
const DIGIT: Ranges = [[48, 57]];
const WORD: Ranges = [[48, 57], [65, 90], [95, 95], [97, 122]];
const SPACE: Ranges = [[9, 13], [32, 32], [160, 160], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];
/** A superset of what a Unicode letter, number or mark property matches: anything but ASCII punctuation, space and controls. */
const UNICODE_WORDISH: Ranges = [[48, 57], [65, 90], [97, 122], [128, TOP]];
const WORDISH_PROPERTY = /^(?:L|Letter|Lu|Uppercase_Letter|Ll|Lowercase_Letter|Lt|Titlecase_Letter|Lm|Modifier_Letter|Lo|Other_Letter|LC|Cased_Letter|M|Mark|Mn|Mc|Me|N|Number|Nd|Decimal_Number|digit|Nl|No|Alphabetic|Alpha|Uppercase|Upper|Lowercase|Lower|(?:Script|sc|Script_Extensions|scx)=\w+)$/;
const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12, '0': 0 };

class Unanalyzable extends Error {}

// --- character sets ----------------------------------------------------------------------------

function normalize(ranges: (readonly [number, number])[]): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= TOP) out.push([next, TOP]);
  return out;
}

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

/** Adds the other case of ASCII letters (a case-insensitive group). */
function foldCase(ranges: Ranges): Ranges {
  const extra: [number, number][] = [];
  for (const [lo, hi] of ranges) {
    const upper: [number, number] = [Math.max(lo, 65), Math.min(hi, 90)];
    const lower: [number, number] = [Math.max(lo, 97), Math.min(hi, 122)];
    if (upper[0] <= upper[1]) extra.push([upper[0] + 32, upper[1] + 32]);
    if (lower[0] <= lower[1]) extra.push([lower[0] - 32, lower[1] - 32]);
  }
  return extra.length ? normalize([...ranges, ...extra]) : ranges;
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

const single = (code: number): Ranges => [[code, code]];

// --- parsing -----------------------------------------------------------------------------------

/** A recursive-descent reader of JavaScript regular expression syntax (u and v modes included, approximately). */
class Parser {
  #i = 0;
  #ignoreCase = false;
  constructor(readonly source: string) {}

  parse(): Item[][] {
    const alternatives = this.#alternation(0);
    if (this.#i < this.source.length) throw new Unanalyzable('unbalanced )');
    return alternatives;
  }

  #peek(offset = 0): string | undefined {
    return this.source[this.#i + offset];
  }

  #chars(ranges: Ranges): Ranges {
    return this.#ignoreCase ? foldCase(ranges) : ranges;
  }

  #alternation(depth: number): Item[][] {
    if (depth > MAX_DEPTH) throw new Unanalyzable('too deeply nested');
    const alternatives: Item[][] = [[]];
    while (this.#i < this.source.length && this.#peek() !== ')') {
      if (this.#peek() === '|') {
        this.#i++;
        alternatives.push([]);
        continue;
      }
      const item = this.#atom(depth);
      this.#quantifier(item);
      alternatives.at(-1)!.push(item);
    }
    return alternatives;
  }

  #atom(depth: number): Item {
    const c = this.source[this.#i++]!;
    if (c === '^' || c === '$') return { kind: 'assertion', min: 1, max: 1 };
    if (c === '.') return { kind: 'atom', set: ANY, min: 1, max: 1 };
    if (c === '[') return { kind: 'atom', set: this.#chars(this.#class()), min: 1, max: 1 };
    if (c === '(') return this.#group(depth);
    if (c === '\\') return this.#escape();
    return { kind: 'atom', set: this.#chars(single(c.codePointAt(0)!)), min: 1, max: 1 };
  }

  #group(depth: number): Item {
    let kind: Item['kind'] = 'group';
    const outerCase = this.#ignoreCase;
    if (this.#peek() === '?') {
      const next = this.#peek(1);
      if (next === '=' || next === '!') {
        this.#i += 2;
        kind = 'assertion';
      } else if (next === '<' && (this.#peek(2) === '=' || this.#peek(2) === '!')) {
        this.#i += 3;
        kind = 'assertion';
      } else if (next === '<') {
        const end = this.source.indexOf('>', this.#i);
        if (end < 0) throw new Unanalyzable('unterminated group name');
        this.#i = end + 1;
      } else {
        // (?:…) and modifier groups: (?i:…), (?-i:…), (?ims-s:…)
        const match = /\?([a-z]*)(?:-([a-z]*))?:/y;
        match.lastIndex = this.#i;
        const found = match.exec(this.source);
        if (!found) throw new Unanalyzable('unknown group');
        if (found[1]!.includes('i')) this.#ignoreCase = true;
        if (found[2]?.includes('i')) this.#ignoreCase = false;
        this.#i = match.lastIndex;
      }
    }
    const alternatives = this.#alternation(depth + 1);
    this.#ignoreCase = outerCase;
    if (this.source[this.#i++] !== ')') throw new Unanalyzable('unterminated group');
    // A look-around is zero width, but what it contains can still backtrack.
    return { kind, alternatives, min: 1, max: 1 };
  }

  #escape(): Item {
    const c = this.source[this.#i];
    if (c === undefined) throw new Unanalyzable('trailing backslash');
    if (c === 'b' || c === 'B') {
      this.#i++;
      return { kind: 'assertion', min: 1, max: 1 };
    }
    if (c === 'k' && this.#peek(1) === '<') {
      const end = this.source.indexOf('>', this.#i);
      if (end > 0) {
        this.#i = end + 1;
        return { kind: 'backref', min: 1, max: 1 };
      }
    }
    if (c >= '1' && c <= '9') {
      while (/\d/.test(this.#peek() ?? '')) this.#i++;
      return { kind: 'backref', min: 1, max: 1 };
    }
    return { kind: 'atom', set: this.#chars(this.#escapedChar()), min: 1, max: 1 };
  }

  /** One escaped character or class escape (after the backslash): its characters. */
  #escapedChar(): Ranges {
    const c = this.source[this.#i++]!;
    if (c === 'p' || c === 'P') {
      let name = '';
      const end = this.source.indexOf('}', this.#i);
      if (this.#peek() === '{' && end > 0) {
        name = this.source.slice(this.#i + 1, end);
        this.#i = end + 1;
      }
      return c === 'p' && WORDISH_PROPERTY.test(name) ? UNICODE_WORDISH : ANY;
    }
    if (c === 'u') {
      if (this.#peek() === '{') {
        const end = this.source.indexOf('}', this.#i);
        const code = parseInt(this.source.slice(this.#i + 1, end), 16);
        if (end < 0 || Number.isNaN(code) || code > TOP) throw new Unanalyzable('bad \\u{}');
        this.#i = end + 1;
        return single(code);
      }
      const hex = this.source.slice(this.#i, this.#i + 4);
      if (/^[0-9a-fA-F]{4}$/.test(hex)) {
        this.#i += 4;
        return single(parseInt(hex, 16));
      }
      return single(117);
    }
    if (c === 'x') {
      const hex = this.source.slice(this.#i, this.#i + 2);
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        this.#i += 2;
        return single(parseInt(hex, 16));
      }
      return single(120);
    }
    if (c === 'c' && /[a-zA-Z]/.test(this.#peek() ?? '')) return single(this.source.charCodeAt(this.#i++) % 32);
    if (c === 'd' || c === 'D') return c === 'd' ? DIGIT : complement(DIGIT);
    if (c === 'w' || c === 'W') return c === 'w' ? WORD : complement(WORD);
    if (c === 's' || c === 'S') return c === 's' ? SPACE : complement(SPACE);
    if (Object.hasOwn(ESCAPES, c)) return single(ESCAPES[c]!);
    return single(c.codePointAt(0)!);
  }

  #class(): Ranges {
    let negated = false;
    if (this.#peek() === '^') {
      negated = true;
      this.#i++;
    }
    const ranges: (readonly [number, number])[] = [];
    let any = false;
    let first = true;
    for (;;) {
      const c = this.#peek();
      if (c === undefined) throw new Unanalyzable('unterminated class');
      if (c === ']' && !first) break;
      first = false;
      // v-mode nested classes and set operations: too rich to model; treat as anything.
      if (c === '[' || (c === '&' && this.#peek(1) === '&') || (c === '-' && this.#peek(1) === '-')) {
        any = true;
        this.#skipNested();
        continue;
      }
      const lo = this.#classChar();
      if (this.#peek() === '-' && this.#peek(1) !== ']' && this.#peek(1) !== undefined && lo.length === 1 && lo[0]![0] === lo[0]![1]) {
        this.#i++;
        const hi = this.#classChar();
        if (hi.length !== 1 || hi[0]![0] !== hi[0]![1]) {
          any = true;
          continue;
        }
        ranges.push([lo[0]![0], hi[0]![1]]);
        continue;
      }
      ranges.push(...lo);
    }
    this.#i++; // ]
    if (any) return ANY;
    const set = normalize(ranges);
    return negated ? complement(set) : set;
  }

  #classChar(): Ranges {
    const c = this.source[this.#i++]!;
    if (c !== '\\') return single(c.codePointAt(0)!);
    if (this.#peek() === 'b') {
      this.#i++;
      return single(8);
    }
    return this.#escapedChar();
  }

  /** Skips to the `]` that closes the current class, across nested classes. */
  #skipNested(): void {
    let depth = 0;
    while (this.#i < this.source.length) {
      const c = this.source[this.#i];
      if (c === '\\') this.#i += 2;
      else if (c === '[') {
        depth++;
        this.#i++;
      } else if (c === ']') {
        if (depth === 0) return;
        depth--;
        this.#i++;
      } else this.#i++;
    }
  }

  #quantifier(item: Item): void {
    const c = this.#peek();
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      // Sticky, over the whole source: a quantifier may have any number of digits.
      const brace = /\{(\d+)(,(\d*))?\}/y;
      brace.lastIndex = this.#i;
      const match = brace.exec(this.source);
      if (!match) return; // a literal "{" (non-u mode)
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      this.#i = brace.lastIndex - 1;
    } else return;
    this.#i++;
    if (this.#peek() === '?') this.#i++; // lazy: backtracks just the same
    item.min = min;
    item.max = max;
  }
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
    if (item.kind === 'assertion') {
      for (const alternative of item.alternatives ?? []) this.sequence(alternative);
      facts = { lo: 0, hi: 0, chars: NONE, first: NONE, last: NONE, head: NONE, tail: NONE, ambiguous: false };
    } else if (item.kind === 'backref') {
      facts = { lo: 0, hi: Infinity, chars: ANY, first: ANY, last: ANY, head: ANY, tail: ANY, ambiguous: false };
    } else if (item.kind === 'atom') {
      const unbounded = item.max === Infinity ? item.set! : NONE;
      facts = { lo: item.min, hi: item.max, chars: item.set!, first: item.set!, last: item.set!, head: unbounded, tail: unbounded, ambiguous: false };
    } else {
      const alternatives = item.alternatives!.map((alternative) => this.sequence(alternative));
      const lo = Math.min(...alternatives.map((a) => a.lo));
      const hi = Math.max(...alternatives.map((a) => a.hi));
      const ambiguous = alternatives.length > 1 && anyTwoOverlap(alternatives.map((a) => a.first));
      if (ambiguous) this.ambiguous++;
      const all = (key: 'chars' | 'first' | 'last' | 'head' | 'tail') => alternatives.reduce<Ranges>((acc, a) => union(acc, a[key]), NONE);
      // An unbounded repeat of a group meets its neighbours with what an iteration starts and ends with.
      const repeated = item.max === Infinity;
      facts = {
        lo: times(lo, item.min),
        hi: times(hi, item.max),
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
  return item.kind === 'backref' || (item.kind !== 'assertion' && (facts.lo !== facts.hi || facts.ambiguous));
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
      if (w.item.kind !== 'assertion' && w.facts.lo > 0 && !w.facts.ambiguous) separators.push(w.facts.chars);
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
    if (!item.alternatives) continue;
    const facts = analysis.facts(item);
    if (item.kind === 'group' && item.max > 1) {
      if (facts.ambiguous) return 'a repeated group has alternatives that can start alike (like (a|ab)+)';
      for (const alternative of item.alternatives) {
        if (iterationsSplit(analysis, alternative)) return 'a repeated group contains a variable-length part with nothing to separate its iterations (like (a+)+)';
      }
    }
    for (const alternative of item.alternatives) {
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
  let alternatives: Item[][];
  try {
    alternatives = new Parser(pattern).parse();
  } catch (error) {
    return error instanceof Unanalyzable ? `the pattern could not be analyzed (${error.message})` : 'the pattern could not be analyzed';
  }
  const analysis = new Analysis();
  // The whole pattern behaves like one group that is not repeated.
  const root: Item = { kind: 'group', alternatives, min: 1, max: 1 };
  analysis.facts(root);
  const risk = riskIn(analysis, [root]);
  if (risk) return risk;
  if (analysis.ambiguous > MAX_AMBIGUOUS) return `more than ${MAX_AMBIGUOUS} alternations can start alike (like (a|a)(a|a)…): each doubles the work`;
  return undefined;
}
