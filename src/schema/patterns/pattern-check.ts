/**
 * How the kit runs a regular expression a server sent (a schema `pattern`, a
 * `patternProperties` key): with the linear-time engine of
 * {@link ./linear-regexp.ts} whenever it can express the pattern; otherwise
 * (back-references, very large counted repeats) the browser's engine runs it
 * only if {@link backtrackingRisk} finds no shape that can backtrack for long,
 * and else it is not run at all. Spec: basic/index "JSON Schema Usage"
 * (patterns are ECMA-262 regular expressions, Unicode mode, unanchored).
 *
 * @module
 */
import type * as LinearModule from './linear-regexp.js';
import type { backtrackingRisk } from './regex-safety.js';

/** The lazily loaded engine module. */
export type PatternEngine = typeof LinearModule;

/** What ajv's `code.regExp` option and the kit's checks call: an object with `test`. */
export interface RegExpLike {
  test(text: string): boolean;
  toString(): string;
}

/**
 * How a pattern is run: `linear` (the kit's engine), `native` (the browser's
 * engine, for a pattern the linear engine cannot express and the shape check
 * finds safe), or `skip` with the reason (in developer terms).
 */
export type PatternVerdict = { how: 'linear' | 'native'; matcher: RegExpLike; size: number } | { how: 'skip'; reason: string };

let loaded: PatternEngine | undefined;
/**
 * The shape check, handed over with the engine by the validator module
 * (schema-guard.ts; the engine's module re-exports it, so it loads with the
 * engine): a verdict needs it only once the engine is there, so a page does
 * not load it before its first check of a pattern (issue 18).
 */
let shapeRisk: typeof backtrackingRisk | undefined;

/**
 * The linear-time engine once the validator module has loaded it (for a
 * schema with patterns, or `ensureValidator()` without a schema), else
 * undefined. The tool form checks its fields' patterns with it.
 */
export function loadedPatternEngine(): PatternEngine | undefined {
  return loaded;
}

/** Called by the validator module when it has loaded the engine, with the shape check. */
export function patternEngineLoaded(engine: PatternEngine, risk: typeof backtrackingRisk): void {
  loaded = engine;
  shapeRisk = risk;
}

const verdicts = new Map<string, PatternVerdict>();

/**
 * The verdict for `pattern` with `flags` (cached).
 * @throws SyntaxError when the pattern is not a valid regular expression with
 *   these flags, as `new RegExp` does.
 */
export function patternVerdict(engine: PatternEngine, pattern: string, flags = 'u'): PatternVerdict {
  const key = `${flags}/${pattern}`;
  const known = verdicts.get(key);
  if (known) return known;
  const compiled = engine.compileLinear(pattern, flags);
  let verdict: PatternVerdict;
  if (!('unsupported' in compiled)) verdict = { how: 'linear', matcher: compiled, size: compiled.size };
  else {
    // Without the shape check (an engine given by hand, not through patternEngineLoaded), nothing runs natively.
    const risk = shapeRisk ? shapeRisk(pattern) : 'the shape check is not loaded';
    verdict = risk
      ? { how: 'skip', reason: `the linear-time engine cannot run it (${compiled.unsupported}) and ${risk}` }
      : { how: 'native', matcher: new RegExp(pattern, flags), size: pattern.length };
  }
  if (verdicts.size >= 2000) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

/**
 * A `RegExp` stand-in for libraries that construct their own (ajv's
 * `code.regExp`, cfworker's `new RegExp`): the verdict's matcher, or one that
 * lets everything pass for a pattern that must not run (the kit takes those
 * out of the schema first, and reports them).
 * @throws SyntaxError for an invalid pattern, as `new RegExp` does.
 */
export function safeRegExp(engine: PatternEngine, pattern: string, flags = 'u'): RegExpLike {
  const verdict = patternVerdict(engine, String(pattern), flags);
  // ajv keys compiled patterns by their text: this one prints as its own.
  return verdict.how === 'skip' ? { test: () => true, toString: () => `/${pattern}/${flags} (not run)` } : verdict.matcher;
}
