/**
 * Server-sent regular expressions (`pattern`, `patternProperties` keys): the
 * linear-time engine that runs them (src/schema/patterns/linear-regexp.ts), and the shape
 * check that judges the few it cannot express (src/schema/patterns/regex-safety.ts) before the
 * browser's backtracking engine may run them.
 */
import { describe, expect, test } from 'vitest';
import { compileLinear, MAX_PROGRAM, type LinearRegExp } from '../src/schema/patterns/linear-regexp.js';
import { backtrackingRisk } from '../src/schema/patterns/regex-safety.js';

function linear(pattern: string, flags = 'u'): LinearRegExp {
  const compiled = compileLinear(pattern, flags);
  if ('unsupported' in compiled) throw new Error(`unsupported: ${compiled.unsupported}`);
  return compiled;
}

/** Deterministic pseudo-random texts over an alphabet that exercises classes, case, line ends and astral characters. */
function texts(count: number, seed: number): string[] {
  const alphabet = ['a', 'b', 'c', 'A', 'x', 'y', 'z', '=', '!', ',', ' ', '\t', '\n', '\r', '\u2028', '1', '2', '9', '-', '.', '@', 'P', 'T', 'Y', 'D', 'H', 'M', 'S', 'é', 'Ü', 'ſ', '\u212a', 'k', '😀', '\ud83d', '\u0000', '_', '/'];
  const out = ['', 'a', 'ab', 'aaab', 'P1Y2M', 'PT1H30M', 'P', 'PT', 'ab=cd', 'a==b,c', '12x', 'a=b', 'Abcdef12', 'x@y.z', '😀😀', 'ſK'];
  for (let n = 0; n < count; n++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    let text = '';
    for (let length = seed % 10; length > 0; length--) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      text += alphabet[seed % alphabet.length];
    }
    out.push(text);
  }
  return out;
}

describe('the linear-time engine (src/schema/patterns/linear-regexp.ts)', () => {
  const PATTERNS = [
    'abc',
    '^abc$',
    'a|b|c',
    '^(a|ab)(c|bcd)(d*)$',
    '^[a-z]+([=!,]{1,2}[a-z]+)+$',
    '^P(?!$)(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+S)?)?$',
    'a*a*b',
    '\\d+\\d+x',
    '.*.*=.*',
    '^(\\s*a\\s*)+$',
    '^(a+)+$',
    'x{2,4}y',
    '^x{2,}$',
    '^(?:ab){0,3}$',
    '\\bk\\b',
    '\\Bb\\B',
    '^$',
    '',
    '[^]',
    '[]',
    '(?:)',
    '^(?:a|)+$',
    '(a*)*b',
    '(?=a)',
    '(?!a)b',
    '(?<=a)b',
    '(?<!a)b',
    '^(?=.*[A-Z])(?=.*\\d).{8,}$',
    'a(?=b(?=c))',
    '(?<=(?<!x)a)b',
    '\\p{Lu}\\p{Ll}+',
    '^\\P{L}+$',
    '\\u{1F600}+',
    '\\uD83D\\uDE00',
    '^.$',
    '^..$',
    '^\\s+$',
    '\\S\\S',
    '\\w+@\\w+\\.\\w+',
    '(^|,)x(,|$)',
    '\\x41\\u0042\\cC\\0',
    '[\\b]',
    '\\/',
    '[^\\p{L}\\d]',
    '^I?\\d+[:|-]\\d+(?:;\\d+[:|-]\\d+)*$',
  ];

  test('matches exactly what the browser\'s engine matches (Unicode mode, unanchored): classes, escapes, anchors, word boundaries, look-arounds', () => {
    const disagreements: string[] = [];
    let compared = 0;
    for (const pattern of PATTERNS) {
      const native = new RegExp(pattern, 'u');
      const compiled = linear(pattern);
      for (const text of texts(300, pattern.length + 7)) {
        compared++;
        if (compiled.test(text) !== native.test(text)) disagreements.push(`${pattern} on ${JSON.stringify(text)}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBe(PATTERNS.length * 316);
  });

  test('the i, m and s flags are honoured (\\w and \\b fold ſ and K like the browser)', () => {
    for (const [pattern, flags] of [['^k\\b', 'iu'], ['^a$', 'mu'], ['a.b', 'su'], ['^\\w+$', 'iu'], ['[a-z]+', 'iu']] as const) {
      const native = new RegExp(pattern, flags);
      const compiled = linear(pattern, flags);
      for (const text of texts(200, 3)) expect({ pattern, text, match: compiled.test(text) }).toEqual({ pattern, text, match: native.test(text) });
    }
  });

  test('catastrophic patterns from hostile servers are checked on long values: a*a*b, \\d+\\d+x, .*.*=.*, ^(\\s*a\\s*)+$, ^(a+)+$', () => {
    // Minutes or more each on a backtracking engine; here at most (length + 1) × size steps.
    const cases: [string, string, boolean][] = [
      ['a*a*b', 'a'.repeat(30_000), false],
      ['a*a*b', 'a'.repeat(30_000) + 'b', true],
      ['\\d+\\d+x', '1'.repeat(30_000), false],
      ['.*.*=.*', 'x'.repeat(30_000), false],
      ['.*.*=.*', 'x'.repeat(30_000) + '=', true],
      ['^(\\s*a\\s*)+$', ' a'.repeat(15_000) + '!', false],
      ['^(\\s*a\\s*)+$', ' a'.repeat(15_000), true],
      ['^(a+)+$', 'a'.repeat(30_000) + '!', false],
    ];
    for (const [pattern, text, expected] of cases) {
      const compiled = linear(pattern);
      expect(compiled.size).toBeLessThan(25);
      expect({ pattern, match: compiled.test(text) }).toEqual({ pattern, match: expected });
    }
  });

  test('safe real-world patterns are checked: repeats split by a disjoint delimiter, ISO 8601 durations', () => {
    const delimited = linear('^[a-z]+([=!,]{1,2}[a-z]+)+$');
    expect(['ab=cd', 'a==b,c', 'x!=y'].map((t) => delimited.test(t))).toEqual([true, true, true]);
    expect(['ab', 'ab=', 'a===b', 'A=b'].map((t) => delimited.test(t))).toEqual([false, false, false, false]);
    const duration = linear('^P(?!$)(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+S)?)?$');
    expect(['P1Y', 'P2M10D', 'PT1H30M', 'P1Y2M3DT4H5M6S'].map((t) => duration.test(t))).toEqual([true, true, true, true]);
    expect(['P', 'PT', 'P1H', '1Y', 'P1Y2'].map((t) => duration.test(t))).toEqual([false, false, false, false, false]);
  });

  test('refuses, with a reason, what it cannot match exactly in linear time; an invalid pattern is a SyntaxError, as for new RegExp', () => {
    expect(compileLinear('^(a+)\\1$')).toEqual({ unsupported: 'it refers back to a group (a back-reference)' });
    expect(compileLinear('^(?<w>a)\\k<w>$')).toEqual({ unsupported: 'it refers back to a group (a back-reference)' });
    expect(compileLinear('(?:a{100}){101}')).toEqual({ unsupported: `it would need more than ${MAX_PROGRAM} steps per character` });
    expect(compileLinear('[a]', 'v')).toEqual({ unsupported: 'the flags "v" are not supported' });
    expect(() => compileLinear('(a')).toThrow(SyntaxError);
    expect(() => compileLinear('\\-')).toThrow(SyntaxError);
    // A large counted repeat within the bound is expanded and checked.
    expect(linear('^a{1,3000}$').test('a'.repeat(3000))).toBe(true);
    expect(linear('^a{1,3000}$').test('a'.repeat(3001))).toBe(false);
  });

  test('prints as a RegExp does (ajv keys compiled patterns by it)', () => {
    expect(String(linear('^a+$'))).toBe('/^a+$/u');
  });
});

describe('backtrackingRisk: the shape check for patterns the engine cannot express (src/schema/patterns/regex-safety.ts)', () => {
  test.each([
    '^(a+)+$',
    '(\\w+\\s?)*$',
    '^(a{1,3})+$',
    '^(\\d+)*$',
    '(a|ab)+',
    '(\\w|\\d)*x',
    '(.*a){12}',
    '^([a-z-]+-)+$',
    '^(([a-z])+.)+[A-Z]([a-z])+$',
    // Inside a look-ahead it backtracks just the same.
    '(?=(a+)+b)',
    // Lazy quantifiers do not help.
    '^(a+?)+?$',
    '^(?<word>\\w+\\s?)+$',
    // Quantifiers with many digits are still quantifiers.
    '^(?:x{00000000000000000000000001,})+$',
    '^(x{1,99999999999999999999999})+$',
    // Variable or ambiguous alternations nested in a group that is not itself quantified.
    '^((x|x))+$',
    '^(?:(?:x|xx))+$',
    // Alternatives that can start alike once a leading optional part is skipped.
    '^(?:(?:y?)x|x)+$',
    '^(?:(?:)x|x)+$',
    // Case-insensitive groups fold letters.
    '^(?i:(?:q|Q)+)$',
  ])('flags %s', (pattern) => {
    expect(backtrackingRisk(pattern)).toMatch(/repeated group/);
  });

  test('flags long chains of ambiguous alternations and polynomial shapes: two adjacent repeats that take the same characters', () => {
    expect(backtrackingRisk('^' + '(?:z|z)'.repeat(20) + '$')).toMatch(/more than 8 alternations can start alike/);
    // Quadratic is enough to freeze a page on a 30,000-character value; under search semantics, cubic.
    for (const pattern of ['a*a*b', '\\d+\\d+x', '.*.*=.*', '^\\d*\\d*\\d*\\d*x$', '^\\d*\\d+x$', '^\\s*\\S+\\s*\\S*$', '(\\d+)?(\\d+)?x']) {
      expect({ pattern, risk: backtrackingRisk(pattern) }).toEqual({ pattern, risk: expect.stringMatching(/two adjacent repeats can match the same text/) });
    }
    // Disjoint neighbours, and repeats whose iterations start or end with something the neighbour cannot take, are fine.
    for (const pattern of ['^\\s*\\S+$', '^\\d+x\\d+$', '^[a-z]+(?:-[a-z]+)*$', '^(\\d+Y)?(\\d+M)?$']) expect({ pattern, risk: backtrackingRisk(pattern) }).toEqual({ pattern, risk: undefined });
  });

  test('flags repeated groups whose last variable part meets the next iteration\'s first: ^(\\s*a\\s*)+$', () => {
    expect(backtrackingRisk('^(\\s*a\\s*)+$')).toMatch(/repeated group contains a variable-length part/);
    expect(backtrackingRisk('^(?:\\d+,?)+$')).toMatch(/repeated group contains a variable-length part/);
    // A mandatory part on each side of the wrap-around keeps iterations apart.
    expect(backtrackingRisk('^(?:x\\d+y\\d*)+$')).toBeUndefined();
  });

  test('a repeated 2,000-way alternation of distinct characters is safe; one repeated character among them is not', () => {
    const distinct = Array.from({ length: 2000 }, (_, i) => String.fromCharCode(0x4e00 + i));
    expect(backtrackingRisk('(?:' + distinct.join('|') + ')+')).toBeUndefined();
    expect(backtrackingRisk('(?:' + [...distinct, distinct[1234]].join('|') + ')+')).toMatch(/alternatives that can start alike/);
  });

  test.each([
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^[\\w.+-]+@[\\w-]+(\\.[\\w-]+)+$',
    '(\\d+\\.){3}\\d+',
    '^[a-z0-9]+(?:-[a-z0-9]+)*$',
    '^([a-z]+-)*[a-z]+$',
    '^[^/]+(/[^/]+)*$',
    '^(\\d{3})+$',
    '^P?\\d+[:/]\\d+(?:,\\d+[:/]\\d+)*$',
    '^#[0-9a-f]{3}([0-9a-f]{3})?$',
    '^(?=.*[A-Z])(?=.*\\d).{8,}$',
    '^\\p{Lu}\\p{Ll}+$',
    '^(?:Z|[+-]\\d\\d:\\d\\d)$',
    '^[\\[\\]{}]+$',
    '\\u{1F600}+',
    "^[\\p{L}]+(?:[ '-][\\p{L}]+)*$",
    '^\\p{Lu}\\p{Ll}+(?: \\p{Lu}\\p{Ll}+)*$',
    '^(?:\\d+(?:,|;))*$',
    // Repeats separated by a disjoint delimiter, even a variable-length one (issue "Interop…", item 20).
    '^[a-z]+([=!,]{1,2}[a-z]+)+$',
    // ISO 8601 durations.
    '^P(?!$)(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+S)?)?$',
    '^-?P(\\d+([.,]\\d+)?Y)?(\\d+([.,]\\d+)?M)?(\\d+([.,]\\d+)?W)?(\\d+([.,]\\d+)?D)?(T(\\d+([.,]\\d+)?H)?(\\d+([.,]\\d+)?M)?(\\d+([.,]\\d+)?S)?)?$',
  ])('lets %s run', (pattern) => {
    expect(backtrackingRisk(pattern)).toBeUndefined();
  });

  test('patterns too long or too deep to analyze count as risky', () => {
    expect(backtrackingRisk('a'.repeat(5000))).toMatch(/longer than 4096/);
    expect(backtrackingRisk('('.repeat(100) + 'a' + ')'.repeat(100))).toMatch(/could not be analyzed \(too deeply nested\)/);
    expect(backtrackingRisk('(a')).toMatch(/could not be analyzed/);
  });
});
