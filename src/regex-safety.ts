/**
 * A static check for regular expressions that can make a backtracking engine
 * (V8's, the browser's `pattern` attribute) run for exponential time — ReDoS.
 *
 * Schemas come from servers (spec: server/tools `inputSchema` / `outputSchema`,
 * client/elicitation `requestedSchema`), so a `pattern` like `^(a+)+$` checked
 * against 30 characters would freeze the page. The kit does not run such a
 * pattern: the check is skipped and reported instead.
 *
 * The check looks for the shapes behind exponential backtracking:
 * - a repeated group whose body has a variable-length part and no fixed,
 *   disjoint separator to split iterations (`(a+)+`, `(\w+\s?)*`, `(a{1,3})+`);
 * - a repeated group whose alternatives can start with the same character
 *   (`(a|ab)+`, `(\w|\d)*`).
 * Safe look-alikes pass: `(\.\d+)+`, `(;\d+)*`, `(\d{3})+`, `([a-z]+-)*`.
 * Polynomial (not exponential) backtracking, such as `\d+\d+$`, is not reported.
 * A pattern too long or too deeply nested to analyze counts as risky.
 *
 * @module
 */

/** Characters one atom can match: code point ranges, possibly negated, or anything. */
type CharSet = { ranges: [number, number][]; negated: boolean } | 'any';

interface Item {
  kind: 'atom' | 'group' | 'assertion' | 'backref';
  set?: CharSet;
  /** Alternatives of a group, each a sequence. */
  alternatives?: Item[][];
  min: number;
  max: number;
}

const MAX_LENGTH = 4096;
const MAX_DEPTH = 48;

const DIGIT: [number, number][] = [[48, 57]];
const WORD: [number, number][] = [[48, 57], [65, 90], [95, 95], [97, 122]];
const SPACE: [number, number][] = [[9, 13], [32, 32], [160, 160], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];
const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12, '0': 0 };

class Unanalyzable extends Error {}

function single(code: number): CharSet {
  return { ranges: [[code, code]], negated: false };
}

function overlaps(a: CharSet, b: CharSet): boolean {
  if (a === 'any' || b === 'any') return true;
  if (a.negated && b.negated) return true;
  if (a.negated || b.negated) {
    // A positive set overlaps a negated one unless every one of its ranges lies inside the negated ranges.
    const [positive, negative] = a.negated ? [b, a] : [a, b];
    return !positive.ranges.every(([lo, hi]) => negative.ranges.some(([nlo, nhi]) => nlo <= lo && hi <= nhi));
  }
  return a.ranges.some(([lo, hi]) => b.ranges.some(([blo, bhi]) => lo <= bhi && blo <= hi));
}

function union(a: CharSet | undefined, b: CharSet): CharSet {
  if (!a) return b;
  if (a === 'any' || b === 'any' || a.negated || b.negated) return 'any';
  return { ranges: [...a.ranges, ...b.ranges], negated: false };
}

/** A recursive-descent reader of JavaScript regular expression syntax (u and v modes included, approximately). */
class Parser {
  #i = 0;
  constructor(readonly source: string) {}

  parse(): Item[][] {
    const alternatives = this.#alternation(0);
    if (this.#i < this.source.length) throw new Unanalyzable('unbalanced )');
    return alternatives;
  }

  #peek(offset = 0): string | undefined {
    return this.source[this.#i + offset];
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
    if (c === '.') return { kind: 'atom', set: 'any', min: 1, max: 1 };
    if (c === '[') return { kind: 'atom', set: this.#class(), min: 1, max: 1 };
    if (c === '(') {
      let kind: Item['kind'] = 'group';
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
          // (?:…) and modifier groups such as (?i:…)
          const colon = this.source.indexOf(':', this.#i);
          if (colon < 0) throw new Unanalyzable('unknown group');
          this.#i = colon + 1;
        }
      }
      const alternatives = this.#alternation(depth + 1);
      if (this.source[this.#i++] !== ')') throw new Unanalyzable('unterminated group');
      // A look-around is zero width, but what it contains can still backtrack.
      return { kind, alternatives, min: 1, max: 1 };
    }
    if (c === '\\') return this.#escape();
    return { kind: 'atom', set: single(c.codePointAt(0)!), min: 1, max: 1 };
  }

  #escape(): Item {
    const c = this.source[this.#i++];
    if (c === undefined) throw new Unanalyzable('trailing backslash');
    const atom = (set: CharSet): Item => ({ kind: 'atom', set, min: 1, max: 1 });
    switch (c) {
      case 'b':
      case 'B':
        return { kind: 'assertion', min: 1, max: 1 };
      case 'd':
        return atom({ ranges: DIGIT, negated: false });
      case 'D':
        return atom({ ranges: DIGIT, negated: true });
      case 'w':
        return atom({ ranges: WORD, negated: false });
      case 'W':
        return atom({ ranges: WORD, negated: true });
      case 's':
        return atom({ ranges: SPACE, negated: false });
      case 'S':
        return atom({ ranges: SPACE, negated: true });
      case 'k': {
        const end = this.source.indexOf('>', this.#i);
        if (this.#peek() === '<' && end > 0) {
          this.#i = end + 1;
          return { kind: 'backref', set: 'any', min: 0, max: Infinity };
        }
        return atom(single(107));
      }
      default: {
        if (c >= '1' && c <= '9') {
          while (/\d/.test(this.#peek() ?? '')) this.#i++;
          return { kind: 'backref', set: 'any', min: 0, max: Infinity };
        }
        this.#i--;
        return atom(this.#escapedChar());
      }
    }
  }

  /** One escaped character after a backslash (the backslash already read): its set. */
  #escapedChar(): CharSet {
    const c = this.source[this.#i++]!;
    if (c === 'p' || c === 'P') {
      const end = this.source.indexOf('}', this.#i);
      if (this.#peek() === '{' && end > 0) this.#i = end + 1;
      return 'any';
    }
    if (c === 'u') {
      if (this.#peek() === '{') {
        const end = this.source.indexOf('}', this.#i);
        const code = parseInt(this.source.slice(this.#i + 1, end), 16);
        if (end < 0 || Number.isNaN(code)) throw new Unanalyzable('bad \\u{}');
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
    if (c === 'd' || c === 'D') return { ranges: DIGIT, negated: c === 'D' };
    if (c === 'w' || c === 'W') return { ranges: WORD, negated: c === 'W' };
    if (c === 's' || c === 'S') return { ranges: SPACE, negated: c === 'S' };
    if (Object.hasOwn(ESCAPES, c)) return single(ESCAPES[c]!);
    return single(c.codePointAt(0)!);
  }

  #class(): CharSet {
    let negated = false;
    if (this.#peek() === '^') {
      negated = true;
      this.#i++;
    }
    const ranges: [number, number][] = [];
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
      if (this.#peek() === '-' && this.#peek(1) !== ']' && this.#peek(1) !== undefined && lo !== 'any' && !lo.negated && lo.ranges.length === 1) {
        this.#i++;
        const hi = this.#classChar();
        if (hi === 'any' || hi.negated || hi.ranges.length !== 1) {
          any = true;
          continue;
        }
        ranges.push([lo.ranges[0]![0], hi.ranges[0]![1]]);
        continue;
      }
      if (lo === 'any' || lo.negated) any = true;
      else ranges.push(...lo.ranges);
    }
    this.#i++; // ]
    return any ? 'any' : { ranges, negated };
  }

  #classChar(): CharSet {
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
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.#i, this.#i + 24));
      if (!match) return; // a literal "{" (non-u mode)
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      this.#i += match[0].length - 1;
    } else return;
    this.#i++;
    if (this.#peek() === '?') this.#i++; // lazy: backtracks just the same
    item.min *= min;
    item.max *= max;
  }
}

/** Every character an item can consume. */
function charsOf(item: Item): CharSet | undefined {
  if (item.kind === 'atom' || item.kind === 'backref') return item.set;
  let set: CharSet | undefined;
  for (const sequence of item.alternatives ?? []) for (const inner of sequence) {
    const chars = charsOf(inner);
    if (chars) set = union(set, chars);
  }
  return set;
}

/** The items inside a sequence (at any depth) whose length can vary. */
function variableParts(sequence: Item[], out: Item[] = []): Item[] {
  for (const item of sequence) {
    if (item.kind === 'backref' || (item.max > item.min && item.kind !== 'assertion')) out.push(item);
    for (const inner of item.alternatives ?? []) variableParts(inner, out);
  }
  return out;
}

/** Characters that can start a sequence. */
function firstChars(sequence: Item[]): CharSet | undefined {
  let set: CharSet | undefined;
  for (const item of sequence) {
    if (item.kind === 'assertion') continue;
    const chars = item.kind === 'group' ? (item.alternatives ?? []).reduce<CharSet | undefined>((acc, alt) => {
      const first = firstChars(alt);
      return first ? union(acc, first) : acc;
    }, undefined) : item.set;
    if (chars) set = union(set, chars);
    if (item.min > 0) break;
  }
  return set;
}

function riskIn(sequence: Item[]): string | undefined {
  for (const item of sequence) {
    if (!item.alternatives) continue;
    if (item.max > 1 && item.kind === 'group') {
      for (const alternative of item.alternatives) {
        // Fixed, mandatory atoms split iterations when no variable part can match them.
        const separators = alternative.filter((part) => part.kind === 'atom' && part.min >= 1 && part.min === part.max).map((part) => part.set!);
        for (const part of variableParts(alternative)) {
          const chars = charsOf(part);
          if (!chars || !separators.some((separator) => !overlaps(separator, chars))) return 'a repeated group contains a variable-length part with nothing to separate its iterations (like (a+)+)';
        }
      }
      const starts = item.alternatives.map(firstChars);
      for (let a = 0; a < starts.length; a++) {
        for (let b = a + 1; b < starts.length; b++) {
          if (starts[a] && starts[b] && overlaps(starts[a]!, starts[b]!)) return 'a repeated group has alternatives that can start alike (like (a|ab)+)';
        }
      }
    }
    for (const alternative of item.alternatives) {
      const inner = riskIn(alternative);
      if (inner) return inner;
    }
  }
  return undefined;
}

/**
 * Whether checking a string against `pattern` can take exponential time in a
 * backtracking engine.
 *
 * @returns a short reason when the pattern is risky (or could not be analyzed),
 *   undefined when it is safe to run.
 */
export function backtrackingRisk(pattern: string): string | undefined {
  if (pattern.length > MAX_LENGTH) return `the pattern is longer than ${MAX_LENGTH} characters`;
  let alternatives: Item[][];
  try {
    alternatives = new Parser(pattern).parse();
  } catch (error) {
    return error instanceof Unanalyzable ? `the pattern could not be analyzed (${error.message})` : 'the pattern could not be analyzed';
  }
  // The whole pattern behaves like one group that is not repeated.
  return riskIn([{ kind: 'group', alternatives, min: 1, max: 1 }]);
}
