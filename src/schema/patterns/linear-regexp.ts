/**
 * A linear-time matcher for the regular expressions servers put in schemas
 * (`pattern`, `patternProperties` keys: ECMA-262 syntax, Unicode mode,
 * unanchored; spec: basic/index "JSON Schema Usage"). The browser's own engine
 * backtracks, so a pattern such as `^(a+)+$` or `a*a*b` can take minutes on a
 * value of a few dozen or a few thousand characters; this one simulates the
 * pattern's automaton over the text instead (Thompson's construction, every
 * alternative followed at once), so a check costs at most
 * `text length × program size` steps, whatever the pattern.
 *
 * The dialect is the browser's own, exactly: the pattern must first compile
 * natively with the same flags (so what the browser refuses is refused), the
 * structure (sequence, alternation, groups, quantifiers, `^ $ \b \B`, the
 * `i`/`m`/`s` modifier groups) is simulated here, and each single-character
 * item (a literal, `.`, a class such as `[^\p{L}\d]`, `\s`, `\w`) is decided
 * by the native engine for one character at a time, which cannot backtrack.
 * Look-arounds become position tables computed in one pass each (a look-ahead
 * runs its body backwards from the end, a look-behind forwards), so they stay
 * linear too. What cannot be matched exactly in linear time is refused, with
 * a reason, and the caller falls back: back-references (`\1`, `\k<name>`), the
 * `v` flag, and programs over {@link MAX_PROGRAM} instructions (a counted
 * repeat such as `(?:a{100}){100}` is expanded).
 *
 * The pattern is read by {@link ./regexp-syntax.ts}, whose tree the shape
 * check ({@link ./regex-safety.ts}) also judges; that check is re-exported
 * here, so the two load together: this module is loaded lazily, only for
 * schemas that have patterns, and a verdict needs the shape check only for a
 * pattern this engine refuses.
 *
 * @module
 */
import { RegExpParser, RegExpRefused, type RegExpNode } from './regexp-syntax.js';

export { backtrackingRisk } from './regex-safety.js';

/** The largest program (instructions, look-around bodies included) compiled; larger patterns are refused. */
export const MAX_PROGRAM = 10_000;

/** A pattern compiled for linear-time matching. */
export interface LinearRegExp {
  /** The pattern as given. */
  readonly source: string;
  /** The flags as given (`u`, with any of `i`, `m`, `s`). */
  readonly flags: string;
  /** Instructions in the program, look-around bodies included: a check costs at most `(text length + 1) × size` steps. */
  readonly size: number;
  /** Whether the pattern matches anywhere in `text` (like `RegExp.prototype.test`, without `lastIndex`). */
  test(text: string): boolean;
  /** `/source/flags`, as a RegExp prints (ajv keys its compiled patterns by it). */
  toString(): string;
}

/** Why a pattern is not compiled here (the caller falls back). */
export interface Unsupported {
  unsupported: string;
}

const NativeRegExp = RegExp;

const BACK_REFERENCE = 'it refers back to a group (a back-reference)';

/** One character class or single character, decided by the native engine one character at a time. */
interface Atom {
  regexp: RegExp;
  /** Answers for code points below 128: 0 not asked yet, 1 no, 2 yes. */
  ascii: Int8Array;
  other: Map<number, boolean>;
}

// --- program -----------------------------------------------------------------------------------

const CHAR = 0;
const SPLIT = 1;
const JUMP = 2;
const ASSERT = 3;
const LOOK = 4;
const MATCH = 5;

/** Instructions as parallel arrays: op, a, b (CHAR: atom; SPLIT: both targets; JUMP: target; ASSERT: kind; LOOK: table). */
interface Program {
  op: number[];
  a: number[];
  b: number[];
  /** Assertions in it read the neighbouring characters: line terminators (`^ $` with `m`), word characters (`\b \B`). */
  line: boolean;
  word: boolean;
}

/** An assertion: 0 `^`, 1 `$`, 2 `\b`, 3 `\B`; +4 when multiline (`^ $`) or case-insensitive (`\b \B`). */
function assertionCode(node: Extract<RegExpNode, { t: 'assert' }>): number {
  const kind = { '^': 0, $: 1, b: 2, B: 3 }[node.kind];
  const modified = kind < 2 ? node.flags.m : node.flags.i;
  return kind + (modified ? 4 : 0);
}

class Compiler {
  /** Look-around bodies, innermost first (a body's own look-arounds are computed before it). */
  readonly looks: { program: Program; ahead: boolean; negate: boolean }[] = [];
  readonly atoms: Atom[] = [];
  readonly #atomIndex = new Map<string, number>();
  size = 0;

  program(node: RegExpNode, reversed: boolean): Program {
    const program: Program = { op: [], a: [], b: [], line: false, word: false };
    this.#emit(program, node, reversed);
    this.#push(program, MATCH, 0, 0);
    return program;
  }

  #push(p: Program, op: number, a: number, b: number): number {
    if (++this.size > MAX_PROGRAM) throw new RegExpRefused(`it would need more than ${MAX_PROGRAM} steps per character`);
    p.op.push(op);
    p.a.push(a);
    p.b.push(b);
    return p.op.length - 1;
  }

  /** The atom for a character item: one per source text and modifiers, with the native matcher of that one character. */
  #atom(node: Extract<RegExpNode, { t: 'char' }>): number {
    const native = `u${node.flags.i ? 'i' : ''}${node.flags.s ? 's' : ''}`;
    const key = `${native}/${node.text}`;
    let atom = this.#atomIndex.get(key);
    if (atom === undefined) {
      atom = this.atoms.length;
      this.atoms.push({ regexp: new NativeRegExp(`^(?:${node.text})$`, native), ascii: new Int8Array(128), other: new Map() });
      this.#atomIndex.set(key, atom);
    }
    return atom;
  }

  #emit(p: Program, node: RegExpNode, reversed: boolean): void {
    switch (node.t) {
      case 'char':
        this.#push(p, CHAR, this.#atom(node), 0);
        return;
      case 'group':
        this.#emit(p, node.node, reversed);
        return;
      case 'backref':
        // compileLinear refuses these before compiling.
        throw new RegExpRefused(BACK_REFERENCE);
      case 'assert': {
        const code = assertionCode(node);
        if (code === 4 || code === 5) p.line = true;
        if ((code & 3) >= 2) p.word = true;
        this.#push(p, ASSERT, code, 0);
        return;
      }
      case 'look': {
        // A look-ahead is decided by running its body backwards from every end; a look-behind forwards.
        const body = this.program(node.node, node.ahead);
        this.looks.push({ program: body, ahead: node.ahead, negate: node.negate });
        this.#push(p, LOOK, this.looks.length - 1, 0);
        return;
      }
      case 'seq':
        for (const item of reversed ? [...node.items].reverse() : node.items) this.#emit(p, item, reversed);
        return;
      case 'alt': {
        const jumps: number[] = [];
        node.alternatives.forEach((alternative, index) => {
          const last = index === node.alternatives.length - 1;
          const split = last ? -1 : this.#push(p, SPLIT, 0, 0);
          if (split >= 0) p.a[split] = split + 1;
          this.#emit(p, alternative, reversed);
          if (!last) {
            jumps.push(this.#push(p, JUMP, 0, 0));
            p.b[split] = p.op.length;
          }
        });
        for (const jump of jumps) p.a[jump] = p.op.length;
        return;
      }
      case 'repeat': {
        for (let n = 0; n < node.min; n++) this.#emit(p, node.node, reversed);
        if (node.max === Infinity) {
          const split = this.#push(p, SPLIT, 0, 0);
          p.a[split] = split + 1;
          this.#emit(p, node.node, reversed);
          this.#push(p, JUMP, split, 0);
          p.b[split] = p.op.length;
          return;
        }
        // x{0,3} as (x(x(x)?)?)?: each optional copy may end the repeat.
        const splits: number[] = [];
        for (let n = node.min; n < node.max; n++) {
          const split = this.#push(p, SPLIT, 0, 0);
          p.a[split] = split + 1;
          splits.push(split);
          this.#emit(p, node.node, reversed);
        }
        for (const split of splits) p.b[split] = p.op.length;
        return;
      }
    }
  }
}

// --- matching ----------------------------------------------------------------------------------

const LINE_TERMINATORS = new Set([0x0a, 0x0d, 0x2028, 0x2029]);

// What assertions read at a position: whether it is the start or the end, and whether the
// characters before (PREV) and at it (CUR) are line terminators and word characters (without and
// with case folding). A CUR bit shifted right once is the matching PREV bit.
const START = 1;
const END = 2;
const PREV_LINE = 4;
const CUR_LINE = 8;
const PREV_WORD = 16;
const CUR_WORD = 32;
const PREV_WORD_I = 64;
const CUR_WORD_I = 128;

/** DFA states kept at most (then the cache starts again). */
const MAX_STATES = 2000;

/** The transition taken when the pattern has matched. */
const MATCHED = Symbol('matched');

type Transitions = { ascii: (State | typeof MATCHED)[]; other: Map<number, State | typeof MATCHED> };

/** A DFA state: see `Matcher.#state`. */
interface State {
  threads: number[];
  previous: number;
  /** Transitions by the look-around answers at the position (0 without look-arounds), then by character. */
  byLooks: Map<number, Transitions>;
  /** Whether the text matches when it ends in this state, by look-around answers (computed on first use). */
  end: Map<number, boolean>;
}

/** The text as code points (Unicode mode: a surrogate pair is one character, a lone surrogate another). */
function codePoints(text: string): Int32Array {
  const out = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    out[n++] = code;
    if (code > 0xffff) i++;
  }
  return out.subarray(0, n);
}

class Matcher implements LinearRegExp {
  readonly #main: Program;
  readonly #looks: Compiler['looks'];
  readonly #atoms: Atom[];
  readonly #word: Atom[];
  // Which instructions the current closure has visited (marked with the generation), and its work stack.
  #seen = new Int32Array(0);
  #generation = 0;
  readonly #stack: number[] = [];
  readonly #states = new Map<string, State>();
  readonly #anchored: boolean;

  constructor(
    readonly source: string,
    readonly flags: string,
    readonly size: number,
    main: Program,
    looks: Compiler['looks'],
    atoms: Atom[],
  ) {
    this.#main = main;
    this.#looks = looks;
    this.#atoms = atoms;
    // \b and \B read word characters as the engine defines them (with `i`, a few more letters).
    this.#word = [false, true].map((i) => ({ regexp: new NativeRegExp('^\\w$', i ? 'ui' : 'u'), ascii: new Int8Array(128), other: new Map() }));
    this.#anchored = this.#anchoredAtStart();
    this.#seen = new Int32Array(Math.max(main.op.length, ...looks.map((look) => look.program.op.length)));
  }

  toString(): string {
    return `/${this.source}/${this.flags}`;
  }

  test(text: string): boolean {
    text = String(text);
    if (this.#looks.length === 0) return this.#search(text, undefined);
    // Each look-around becomes a table of its answer at every position, innermost first.
    const chars = codePoints(text);
    const tables: Uint8Array[] = [];
    for (const look of this.#looks) {
      const table = this.#table(look.program, chars, tables, look.ahead);
      if (look.negate) for (let i = 0; i < table.length; i++) table[i] = table[i] ? 0 : 1;
      tables.push(table);
    }
    return this.#search(text, tables);
  }

  #nextGeneration(): void {
    // Marks are compared with the current generation: start again before the counter leaves int32.
    if (++this.#generation > 0x3fffffff) {
      this.#seen.fill(0);
      this.#generation = 1;
    }
  }

  #is(atom: Atom, code: number): boolean {
    if (code < 128) {
      const known = atom.ascii[code]!;
      if (known !== 0) return known === 2;
      const answer = atom.regexp.test(String.fromCharCode(code));
      atom.ascii[code] = answer ? 2 : 1;
      return answer;
    }
    let answer = atom.other.get(code);
    if (answer === undefined) {
      answer = atom.regexp.test(String.fromCodePoint(code));
      if (atom.other.size < 4096) atom.other.set(code, answer);
    }
    return answer;
  }

  /** The context bits a character sets for the position before it (it is the current character there). */
  #before(p: Program, code: number): number {
    let bits = 0;
    if (p.line && LINE_TERMINATORS.has(code)) bits |= CUR_LINE;
    if (p.word) bits |= (this.#is(this.#word[0]!, code) ? CUR_WORD : 0) | (this.#is(this.#word[1]!, code) ? CUR_WORD_I : 0);
    return bits;
  }

  /** What the assertions of `p` can read at position `at` (see {@link START}…). */
  #context(p: Program, chars: Int32Array, at: number): number {
    return (at === 0 ? START : this.#before(p, chars[at - 1]!) >> 1) | (at === chars.length ? END : this.#before(p, chars[at]!));
  }

  #holds(kind: number, context: number): boolean {
    switch (kind) {
      case 0:
        return (context & START) !== 0;
      case 4:
        return (context & (START | PREV_LINE)) !== 0;
      case 1:
        return (context & END) !== 0;
      case 5:
        return (context & (END | CUR_LINE)) !== 0;
      default: {
        const [before, after] = kind >= 4 ? [PREV_WORD_I, CUR_WORD_I] : [PREV_WORD, CUR_WORD];
        return ((context & before) !== 0) !== ((context & after) !== 0) === ((kind & 3) === 2);
      }
    }
  }

  /**
   * Follows empty steps from the instructions on the work stack in `context`,
   * with `looks` the look-around answers at this position (bit i for table i);
   * char instructions reached join `out`. True when MATCH is reached. Marks
   * instructions with the current generation.
   */
  #closure(p: Program, context: number, looks: number, out: number[]): boolean {
    const seen = this.#seen;
    const stack = this.#stack;
    const generation = this.#generation;
    let matched = false;
    while (stack.length > 0) {
      const k = stack.pop()!;
      if (seen[k] === generation) continue;
      seen[k] = generation;
      switch (p.op[k]) {
        case CHAR:
          out.push(k);
          break;
        case SPLIT:
          stack.push(p.b[k]!, p.a[k]!);
          break;
        case JUMP:
          stack.push(p.a[k]!);
          break;
        case ASSERT:
          if (this.#holds(p.a[k]!, context)) stack.push(k + 1);
          break;
        case LOOK:
          if (looks & (1 << p.a[k]!)) stack.push(k + 1);
          break;
        default:
          matched = true;
      }
    }
    return matched;
  }

  /** Whether every way into the main program passes `^` (without `m`) first: no match can start after position 0. */
  #anchoredAtStart(): boolean {
    const p = this.#main;
    const seen = new Set<number>();
    const stack = [0];
    while (stack.length > 0) {
      const k = stack.pop()!;
      if (seen.has(k)) continue;
      seen.add(k);
      const op = p.op[k];
      if (op === ASSERT && p.a[k] === 0) continue;
      if (op === SPLIT) stack.push(p.a[k]!, p.b[k]!);
      else if (op === JUMP) stack.push(p.a[k]!);
      else if (op === ASSERT) stack.push(k + 1);
      else return false;
    }
    return true;
  }

  // --- the main pattern: a lazily built DFA --------------------------------------------------
  // A state is the set of threads waiting before a position (not yet followed through empty
  // steps, since assertions there depend on the next character) and what the previous character
  // was; its transitions, by the look-around answers at the position and the next character, are
  // computed on first use and cached. Computing one costs what one NFA step costs, so the bound
  // stays (length + 1) × size; a repeated one costs a lookup.

  #state(threads: number[], previous: number): State {
    const key = `${previous}:${threads.join(',')}`;
    let state = this.#states.get(key);
    if (!state) {
      if (this.#states.size >= MAX_STATES) this.#states.clear();
      state = { threads, previous, byLooks: new Map(), end: new Map() };
      this.#states.set(key, state);
    }
    return state;
  }

  #transition(state: State, looks: number, code: number, cache: Transitions): State | typeof MATCHED {
    const p = this.#main;
    this.#nextGeneration();
    const reached: number[] = [];
    this.#stack.push(...state.threads);
    let next: State | typeof MATCHED = MATCHED;
    if (!this.#closure(p, state.previous | this.#before(p, code), looks, reached)) {
      const threads = new Set<number>([0]);
      for (const k of reached) if (this.#is(this.#atoms[p.a[k]!]!, code)) threads.add(k + 1);
      next = this.#state([...threads].sort((a, b) => a - b), this.#before(p, code) >> 1);
    }
    if (code < 128) cache.ascii[code] = next;
    else if (cache.other.size < 4096) cache.other.set(code, next);
    return next;
  }

  /** The look-around answers at position `at`, one bit per table. */
  #looksAt(tables: Uint8Array[] | undefined, at: number): number {
    let bits = 0;
    if (tables) for (let i = 0; i < tables.length; i++) if (tables[i]![at]) bits |= 1 << i;
    return bits;
  }

  #search(text: string, tables: Uint8Array[] | undefined): boolean {
    let state = this.#state([0], START);
    let at = 0;
    for (let i = 0; i < text.length; at++) {
      // Anchored at the start and no thread left: nothing can match any more.
      if (this.#anchored && at > 0 && state.threads.length === 1) return false;
      const code = text.codePointAt(i)!;
      i += code > 0xffff ? 2 : 1;
      const looks = this.#looksAt(tables, at);
      let cache = state.byLooks.get(looks);
      if (!cache) state.byLooks.set(looks, (cache = { ascii: [], other: new Map() }));
      const next = (code < 128 ? cache.ascii[code] : cache.other.get(code)) ?? this.#transition(state, looks, code, cache);
      if (next === MATCHED) return true;
      state = next;
    }
    const looks = this.#looksAt(tables, at);
    let end = state.end.get(looks);
    if (end === undefined) {
      this.#nextGeneration();
      this.#stack.push(...state.threads);
      end = this.#closure(this.#main, state.previous | END, looks, []);
      state.end.set(looks, end);
    }
    return end;
  }

  // --- look-around bodies: one NFA pass each -------------------------------------------------

  /**
   * Runs a look-around body over the text, starting a thread at every
   * position: backwards for a look-ahead (its program is reversed), so a match
   * reached at a position started there; forwards for a look-behind, so a
   * match reached at a position ended there. Returns that answer for every
   * position. The body's own look-arounds are in `tables` already.
   */
  #table(p: Program, chars: Int32Array, tables: Uint8Array[], ahead: boolean): Uint8Array {
    const n = chars.length;
    const step = ahead ? -1 : 1;
    const out = new Uint8Array(n + 1);
    let current: number[] = [];
    let next: number[] = [];
    let at = ahead ? n : 0;
    this.#nextGeneration();
    for (;;) {
      // Threads carried over were added under this generation already; the new start joins them.
      this.#stack.push(0);
      if (this.#closure(p, this.#context(p, chars, at), this.#looksAt(tables, at), current)) out[at] = 1;
      if (ahead ? at === 0 : at === n) break;
      const code = chars[ahead ? at - 1 : at]!;
      at += step;
      this.#nextGeneration();
      next.length = 0;
      for (const k of current) if (this.#is(this.#atoms[p.a[k]!]!, code)) this.#stack.push(k + 1);
      if (this.#closure(p, this.#context(p, chars, at), this.#looksAt(tables, at), next)) out[at] = 1;
      [current, next] = [next, current];
    }
    return out;
  }
}

/**
 * Compiles `source` for linear-time matching with `flags` (`u`, as JSON Schema
 * patterns are; `i`, `m` and `s` are honoured too).
 *
 * @returns the compiled pattern, or `{ unsupported }` with a short reason when
 *   it cannot be matched exactly in linear time (back-references, the `v` flag,
 *   a program over {@link MAX_PROGRAM} instructions).
 * @throws SyntaxError when the pattern is not a valid regular expression for
 *   these flags (as `new RegExp` throws).
 */
export function compileLinear(source: string, flags = 'u'): LinearRegExp | Unsupported {
  // The native engine only compiles it here (never runs it): what it refuses is a syntax error.
  new NativeRegExp(source, flags);
  if (!flags.includes('u') || /[^imsu]/.test(flags)) return { unsupported: `the flags "${flags}" are not supported` };
  const parser = new RegExpParser(source, 400, 'nested too deeply');
  try {
    const node = parser.parse({ i: flags.includes('i'), m: flags.includes('m'), s: flags.includes('s') });
    // The first thing refused in reading order is the reason: a back-reference before anything else.
    if (parser.backReference) return { unsupported: BACK_REFERENCE };
    const compiler = new Compiler();
    const main = compiler.program(node, false);
    return new Matcher(source, flags, compiler.size, main, compiler.looks, compiler.atoms);
  } catch (error) {
    if (error instanceof RegExpRefused) return { unsupported: parser.backReference ? BACK_REFERENCE : error.message };
    throw error;
  }
}
