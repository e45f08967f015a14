/**
 * URL-mode elicitation review (spec: client/elicitation "Safe URL Handling"):
 * the host is emphasised, punycode is shown decoded with a warning, plain HTTP
 * warns, and other schemes are refused. Pure functions, tested in Node.
 */
import { describe, expect, test } from 'vitest';
import { decodePunycodeLabel, hostToUnicode, reviewUrl } from '../components/mcp-elicitation-dialog/url.js';

describe('punycode (RFC 3492)', () => {
  test.each([
    ['mnchen-3ya', 'münchen'],
    ['bcher-kva', 'bücher'],
    ['e1afmkfd', 'пример'],
    ['fsqu00a', '例子'],
    ['abc-', 'abc'],
  ])('%s → %s', (input, output) => {
    expect(decodePunycodeLabel(input)).toBe(output);
  });

  test('invalid input is refused, not guessed', () => {
    expect(decodePunycodeLabel('a!b')).toBeUndefined();
    expect(decodePunycodeLabel('zzzzzzzzzzzzzzzzzzzzzzzz')).toBeUndefined();
  });

  test('every xn-- label of a host is decoded', () => {
    expect(hostToUnicode('xn--e1afmkfd.xn--p1ai')).toBe('пример.рф');
    expect(hostToUnicode('login.example.com')).toBe('login.example.com');
  });
});

describe('reviewUrl', () => {
  test('splits the full URL around its host', () => {
    expect(reviewUrl('https://auth.example.com:8443/approve?x=1#y')).toMatchObject({
      ok: true,
      href: 'https://auth.example.com:8443/approve?x=1#y',
      parts: { before: 'https://', host: 'auth.example.com:8443', after: '/approve?x=1#y' },
      warnings: [],
    });
  });

  test('an internationalised host is shown decoded, with a warning', () => {
    const review = reviewUrl('https://аpple.com/login'); // Cyrillic "а"
    expect(review.ok).toBe(true);
    expect(review.parts.host).toMatch(/^xn--/);
    expect(review.unicodeHost).toBe('аpple.com');
    expect(review.warnings.join(' ')).toMatch(/punycode; it reads "аpple.com"/);
  });

  test('plain HTTP and user info are warned about', () => {
    expect(reviewUrl('http://example.com/').warnings).toEqual(['This page is not encrypted (http).']);
    const tricky = reviewUrl('https://bank.example.com@evil.example.net/');
    expect(tricky.parts.host).toBe('evil.example.net');
    expect(tricky.warnings.join(' ')).toMatch(/the real host is the part after "@"/);
  });

  test.each(['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd', 'ftp://example.com/x', 'not a url'])('%s is refused', (url) => {
    const review = reviewUrl(url);
    expect(review.ok).toBe(false);
    expect(review.refusal).toBeTruthy();
  });
});
