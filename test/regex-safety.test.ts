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
  ])('flags %s', (pattern) => {
    expect(backtrackingRisk(pattern)).toMatch(/repeated group/);
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
  ])('lets %s run', (pattern) => {
    expect(backtrackingRisk(pattern)).toBeUndefined();
  });

  test('patterns too long or too deep to analyze count as risky', () => {
    expect(backtrackingRisk('a'.repeat(5000))).toMatch(/longer than 4096/);
    expect(backtrackingRisk('('.repeat(100) + 'a' + ')'.repeat(100))).toMatch(/could not be analyzed \(too deeply nested\)/);
    expect(backtrackingRisk('(a')).toMatch(/could not be analyzed/);
  });
});
