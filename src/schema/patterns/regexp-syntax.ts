/**
 * The one reader of the regular expressions servers put in schemas
 * (`pattern`, `patternProperties` keys: ECMA-262 syntax, Unicode mode; spec:
 * basic/index "JSON Schema Usage"), shared by the linear-time engine
 * ({@link ./linear-regexp.ts}), which compiles the tree, and the shape check
 * ({@link ./regex-safety.ts}), which judges the patterns the engine refuses
 * from the same tree. So each node carries what either needs: a character
 * item its source text (the engine asks the browser's engine about one
 * character at a time with it) and the characters it can match as ranges (an
 * approximation the shape check compares); a group stays a node of its own, and
 * a back-reference is parsed into a node (the engine refuses to run it; the
 * shape check reasons about it).
 *
 * The engine reads only patterns that already compiled natively with their
 * flags; the shape check may be asked about any text, so what does not parse
 * is refused with a reason ({@link RegExpRefused}), never looped on.
 *
 * Loaded with the engine (lazily, only for schemas with patterns).
 *
 * @module
 */

/** Characters as sorted, disjoint, inclusive code point ranges. */
export type Ranges = readonly (readonly [number, number])[];

/** The `i`, `m` and `s` modifiers in effect (the pattern's flags, changed by `(?i:…)` groups). */
export interface Modifiers {
  i: boolean;
  m: boolean;
  s: boolean;
}

/**
 * A node of the syntax tree. A disjunction is an `alt` of its alternatives
 * (each a `seq`, or its only item); a group, capturing or not, is a `group`
 * around its disjunction; a quantified item is a `repeat` of it (lazy or
 * greedy alike: the same strings match).
 */
export type RegExpNode =
  /** One character: a literal, `.`, an escape, a class. `text` is its source; `set` what it can match (exact for ASCII; see {@link ./regex-safety.ts}). */
  | { t: 'char'; text: string; flags: Modifiers; set: Ranges }
  | { t: 'seq'; items: RegExpNode[] }
  | { t: 'alt'; alternatives: RegExpNode[] }
  | { t: 'group'; node: RegExpNode }
  | { t: 'repeat'; node: RegExpNode; min: number; max: number }
  | { t: 'assert'; kind: '^' | '$' | 'b' | 'B'; flags: Modifiers }
  | { t: 'look'; node: RegExpNode; ahead: boolean; negate: boolean }
  /** `\1`, `\k<name>`. */
  | { t: 'backref' };

/** A pattern this reader (or a compiler of its tree) does not take, with the reason. */
export class RegExpRefused extends Error {}

// --- character sets ----------------------------------------------------------------------------

export const TOP = 0x10ffff;
export const ANY: Ranges = [[0, TOP]];
export const NONE: Ranges = [];
const DIGIT: Ranges = [[48, 57]];
const WORD: Ranges = [[48, 57], [65, 90], [95, 95], [97, 122]];
const SPACE: Ranges = [[9, 13], [32, 32], [160, 160], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];
/** A superset of what a Unicode letter, number or mark property matches: anything but ASCII punctuation, space and controls. */
const UNICODE_WORDISH: Ranges = [[48, 57], [65, 90], [97, 122], [128, TOP]];
const WORDISH_PROPERTY = /^(?:L|Letter|Lu|Uppercase_Letter|Ll|Lowercase_Letter|Lt|Titlecase_Letter|Lm|Modifier_Letter|Lo|Other_Letter|LC|Cased_Letter|M|Mark|Mn|Mc|Me|N|Number|Nd|Decimal_Number|digit|Nl|No|Alphabetic|Alpha|Uppercase|Upper|Lowercase|Lower|(?:Script|sc|Script_Extensions|scx)=\w+)$/;
const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12, '0': 0 };

/** The ranges sorted and merged (overlapping or adjacent ones joined). */
export function normalize(ranges: (readonly [number, number])[]): Ranges {
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

/** Adds the other case of ASCII letters (a case-insensitive item). */
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

const single = (code: number): Ranges => [[code, code]];
const isSingle = (set: Ranges): boolean => set.length === 1 && set[0]![0] === set[0]![1];

// --- parsing -----------------------------------------------------------------------------------

/**
 * Reads one pattern into a {@link RegExpNode} tree (recursive descent, nesting
 * bounded by `maxDepth`, refused beyond it with the reason `tooDeep`).
 * {@link backReference} tells whether a back-reference was read, also when
 * reading stopped with a refusal after it.
 */
export class RegExpParser {
  #i = 0;
  /** Whether a back-reference has been read. */
  backReference = false;

  constructor(
    readonly source: string,
    readonly maxDepth: number,
    readonly tooDeep: string,
  ) {}

  /**
   * @throws RegExpRefused when the text is not a pattern this reader knows
   *   (unbalanced or unterminated parts, an unknown group) or nests deeper
   *   than `maxDepth`.
   */
  parse(flags: Modifiers): RegExpNode {
    const node = this.#disjunction(flags, 0);
    if (this.#i < this.source.length) throw new RegExpRefused('unbalanced parenthesis');
    return node;
  }

  #disjunction(flags: Modifiers, depth: number): RegExpNode {
    // Nesting is bounded by the source length; this keeps the recursion well within the stack.
    if (depth > this.maxDepth) throw new RegExpRefused(this.tooDeep);
    const alternatives: RegExpNode[] = [this.#alternative(flags, depth)];
    while (this.source[this.#i] === '|') {
      this.#i++;
      alternatives.push(this.#alternative(flags, depth));
    }
    return alternatives.length === 1 ? alternatives[0]! : { t: 'alt', alternatives };
  }

  #alternative(flags: Modifiers, depth: number): RegExpNode {
    const items: RegExpNode[] = [];
    for (let c = this.source[this.#i]; c !== undefined && c !== '|' && c !== ')'; c = this.source[this.#i]) {
      const term = this.#term(flags, depth);
      items.push(term.t === 'assert' || term.t === 'look' ? term : this.#quantified(term));
    }
    return items.length === 1 ? items[0]! : { t: 'seq', items };
  }

  #term(flags: Modifiers, depth: number): RegExpNode {
    const src = this.source;
    const start = this.#i;
    const c = src[this.#i]!;
    if (c === '^' || c === '$') {
      this.#i++;
      return { t: 'assert', kind: c, flags };
    }
    if (c === '(') return this.#group(flags, depth);
    if (c === '.') {
      this.#i++;
      return this.#char(start, ANY, flags);
    }
    if (c === '[') {
      this.#i++;
      return this.#char(start, this.#class(), flags);
    }
    if (c === '\\') {
      const e = src[this.#i + 1];
      if (e === 'b' || e === 'B') {
        this.#i += 2;
        return { t: 'assert', kind: e, flags };
      }
      const name = e === 'k' && src[this.#i + 2] === '<' ? src.indexOf('>', this.#i) : -1;
      if (name > 0 || (e !== undefined && e >= '1' && e <= '9')) {
        this.#i = name > 0 ? name + 1 : this.#i + 2;
        while (name < 0 && /\d/.test(src[this.#i] ?? '')) this.#i++;
        this.backReference = true;
        return { t: 'backref' };
      }
      this.#i++;
      return this.#char(start, this.#escape(), flags);
    }
    const code = src.codePointAt(this.#i)!;
    this.#i += code > 0xffff ? 2 : 1;
    return this.#char(start, single(code), flags);
  }

  #char(start: number, set: Ranges, flags: Modifiers): RegExpNode {
    return { t: 'char', text: this.source.slice(start, this.#i), flags, set: flags.i ? foldCase(set) : set };
  }

  #group(flags: Modifiers, depth: number): RegExpNode {
    const src = this.source;
    this.#i++;
    let inner = flags;
    let look: { ahead: boolean; negate: boolean } | undefined;
    if (src[this.#i] === '?') {
      const rest = src.slice(this.#i + 1, this.#i + 3);
      if (rest.startsWith('=') || rest.startsWith('!')) {
        look = { ahead: true, negate: rest[0] === '!' };
        this.#i += 2;
      } else if (rest === '<=' || rest === '<!') {
        look = { ahead: false, negate: rest[1] === '!' };
        this.#i += 3;
      } else if (rest.startsWith('<')) {
        const end = src.indexOf('>', this.#i);
        if (end < 0) throw new RegExpRefused('unterminated group name');
        this.#i = end + 1;
      } else {
        // (?:…) and modifier groups: (?i:…), (?-i:…), (?ims-s:…)
        const modifiers = /\?([ims]*)(?:-([ims]*))?:/y;
        modifiers.lastIndex = this.#i;
        const found = modifiers.exec(src);
        if (!found) throw new RegExpRefused('unknown group');
        inner = { ...flags };
        for (const f of found[1]!) inner[f as keyof Modifiers] = true;
        for (const f of found[2] ?? '') inner[f as keyof Modifiers] = false;
        this.#i = modifiers.lastIndex;
      }
    }
    const node = this.#disjunction(inner, depth + 1);
    if (src[this.#i] !== ')') throw new RegExpRefused('unterminated group');
    this.#i++;
    return look ? { t: 'look', node, ...look } : { t: 'group', node };
  }

  /** One escaped character or class escape, after the backslash: its characters. */
  #escape(): Ranges {
    const src = this.source;
    const c = src[this.#i++];
    if (c === undefined) throw new RegExpRefused('unterminated escape');
    if (c === 'p' || c === 'P') {
      let name = '';
      const end = src.indexOf('}', this.#i);
      if (src[this.#i] === '{' && end > 0) {
        name = src.slice(this.#i + 1, end);
        this.#i = end + 1;
      }
      return c === 'p' && WORDISH_PROPERTY.test(name) ? UNICODE_WORDISH : ANY;
    }
    if (c === 'u') {
      if (src[this.#i] === '{') {
        const end = src.indexOf('}', this.#i);
        const code = parseInt(src.slice(this.#i + 1, end), 16);
        if (end < 0 || Number.isNaN(code) || code > TOP) throw new RegExpRefused('bad \\u{}');
        this.#i = end + 1;
        return single(code);
      }
      const hex = src.slice(this.#i, this.#i + 4);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return single(117);
      this.#i += 4;
      const code = parseInt(hex, 16);
      // In Unicode mode an escaped surrogate pair is one character.
      const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(src.slice(this.#i, this.#i + 6));
      if (!low || code < 0xd800 || code > 0xdbff) return single(code);
      this.#i += 6;
      return single(0x10000 + ((code - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00));
    }
    if (c === 'x') {
      const hex = src.slice(this.#i, this.#i + 2);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return single(120);
      this.#i += 2;
      return single(parseInt(hex, 16));
    }
    if (c === 'c' && /[a-zA-Z]/.test(src[this.#i] ?? '')) return single(src.charCodeAt(this.#i++) % 32);
    if (c === 'd' || c === 'D') return c === 'd' ? DIGIT : complement(DIGIT);
    if (c === 'w' || c === 'W') return c === 'w' ? WORD : complement(WORD);
    if (c === 's' || c === 'S') return c === 's' ? SPACE : complement(SPACE);
    if (Object.hasOwn(ESCAPES, c)) return single(ESCAPES[c]!);
    const code = src.codePointAt(this.#i - 1)!;
    if (code > 0xffff) this.#i++;
    return single(code);
  }

  /** A class after its `[`, up to and with its `]` (Unicode mode: `[` inside is a character; `[]` matches nothing, `[^]` anything). */
  #class(): Ranges {
    const src = this.source;
    const negated = src[this.#i] === '^';
    if (negated) this.#i++;
    const ranges: (readonly [number, number])[] = [];
    let any = false;
    for (;;) {
      const c = src[this.#i];
      if (c === undefined) throw new RegExpRefused('unterminated class');
      if (c === ']') break;
      const lo = this.#classAtom();
      if (src[this.#i] === '-' && src[this.#i + 1] !== ']' && src[this.#i + 1] !== undefined && isSingle(lo)) {
        this.#i++;
        const hi = this.#classAtom();
        if (isSingle(hi)) ranges.push([lo[0]![0], hi[0]![1]]);
        else any = true;
        continue;
      }
      ranges.push(...lo);
    }
    this.#i++;
    if (any) return ANY;
    const set = normalize(ranges);
    return negated ? complement(set) : set;
  }

  #classAtom(): Ranges {
    const src = this.source;
    if (src[this.#i] !== '\\') {
      const code = src.codePointAt(this.#i)!;
      this.#i += code > 0xffff ? 2 : 1;
      return single(code);
    }
    this.#i++;
    if (src[this.#i] === 'b') {
      this.#i++;
      return single(8);
    }
    return this.#escape();
  }

  #quantified(node: RegExpNode): RegExpNode {
    const src = this.source;
    const c = src[this.#i];
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      // Sticky, over the whole source: a quantifier may have any number of digits.
      const brace = /\{(\d+)(,(\d*))?\}/y;
      brace.lastIndex = this.#i;
      const found = brace.exec(src);
      // Not a quantifier: a literal "{", which only a pattern the browser refuses in Unicode mode has.
      if (!found) return node;
      min = Number(found[1]);
      max = found[2] === undefined ? min : found[3] === '' ? Infinity : Number(found[3]);
      this.#i = brace.lastIndex - 1;
    } else return node;
    this.#i++;
    // Lazy or greedy: the same strings match.
    if (src[this.#i] === '?') this.#i++;
    return { t: 'repeat', node, min, max };
  }
}
