/**
 * The ReDoS check applied to server-sent `pattern`s before any engine runs them.
 */
import { describe, expect, test } from 'vitest';
import { backtrackingRisk } from '../src/regex-safety.js';

describe('backtrackingRisk', () => {
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

  test('flags long chains of ambiguous alternations and high-degree polynomial shapes', () => {
    expect(backtrackingRisk('^' + '(?:z|z)'.repeat(20) + '$')).toMatch(/more than 8 alternations can start alike/);
    expect(backtrackingRisk('^\\d*\\d*\\d*\\d*x$')).toMatch(/three or more adjacent repeats/);
    // Two are fine (quadratic at worst), and so are disjoint neighbours.
    expect(backtrackingRisk('^\\d*\\d+x$')).toBeUndefined();
    expect(backtrackingRisk('^\\s*\\S+\\s*\\S*$')).toBeUndefined();
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
  ])('lets %s run', (pattern) => {
    expect(backtrackingRisk(pattern)).toBeUndefined();
  });

  test('patterns too long or too deep to analyze count as risky', () => {
    expect(backtrackingRisk('a'.repeat(5000))).toMatch(/longer than 4096/);
    expect(backtrackingRisk('('.repeat(100) + 'a' + ')'.repeat(100))).toMatch(/could not be analyzed \(too deeply nested\)/);
    expect(backtrackingRisk('(a')).toMatch(/could not be analyzed/);
  });
});
