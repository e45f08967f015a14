/**
 * The `WWW-Authenticate` parser (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1):
 * a table of header values as servers really send them, and what must come out.
 */
import { describe, expect, test } from 'vitest';
import { findChallenge, parseWwwAuthenticate, splitScopes } from '../src/auth/challenge.js';

const META = 'https://mcp.example.test/.well-known/oauth-protected-resource/mcp';

const table: [string, string | null | undefined, ReturnType<typeof parseWwwAuthenticate>][] = [
  ['empty', '', []],
  ['absent', null, []],
  ['bare scheme', 'Bearer', [{ scheme: 'Bearer', params: {} }]],
  ['quoted values', `Bearer resource_metadata="${META}", scope="files:read"`, [{ scheme: 'Bearer', params: { resource_metadata: META, scope: 'files:read' } }]],
  ['unquoted values', `Bearer error=invalid_token, resource_metadata=${META}`, [{ scheme: 'Bearer', params: { error: 'invalid_token', resource_metadata: META } }]],
  ['spaces around = and commas', `Bearer  realm = "mcp" ,scope= "a b"  ,  error =insufficient_scope`, [{ scheme: 'Bearer', params: { realm: 'mcp', scope: 'a b', error: 'insufficient_scope' } }]],
  ['parameters separated by spaces only', `Bearer realm="mcp" scope="a" error="insufficient_scope"`, [{ scheme: 'Bearer', params: { realm: 'mcp', scope: 'a', error: 'insufficient_scope' } }]],
  ['parameter names are case-insensitive', `Bearer Resource_Metadata="${META}", SCOPE="x"`, [{ scheme: 'Bearer', params: { resource_metadata: META, scope: 'x' } }]],
  ['scheme keeps its case', 'bearer scope="x"', [{ scheme: 'bearer', params: { scope: 'x' } }]],
  ['escaped quotes and commas inside a quoted value', String.raw`Bearer error_description="a \"quoted\", comma-ed text", scope="s"`, [{ scheme: 'Bearer', params: { error_description: 'a "quoted", comma-ed text', scope: 's' } }]],
  ['a comma and a space inside the URL', `Bearer resource_metadata="https://x.test/a,b c"`, [{ scheme: 'Bearer', params: { resource_metadata: 'https://x.test/a,b c' } }]],
  ['two challenges in one header', 'Basic realm="legacy", Bearer scope="mcp:read"', [{ scheme: 'Basic', params: { realm: 'legacy' } }, { scheme: 'Bearer', params: { scope: 'mcp:read' } }]],
  ['two headers folded by fetch', 'Bearer realm="a", DPoP algs="ES256 PS256", error="use_dpop_nonce"', [{ scheme: 'Bearer', params: { realm: 'a' } }, { scheme: 'DPoP', params: { algs: 'ES256 PS256', error: 'use_dpop_nonce' } }]],
  ['bare scheme followed by another challenge', 'Negotiate, Bearer scope="x"', [{ scheme: 'Negotiate', params: {} }, { scheme: 'Bearer', params: { scope: 'x' } }]],
  ['token68 with padding', 'Basic dXNlcjpwYXNz==, Bearer', [{ scheme: 'Basic', params: {}, token68: 'dXNlcjpwYXNz==' }, { scheme: 'Bearer', params: {} }]],
  ['token68 without padding', 'Negotiate YIIB/gYGKwYB', [{ scheme: 'Negotiate', params: {}, token68: 'YIIB/gYGKwYB' }]],
  ['duplicate parameter: the first wins', 'Bearer scope="first", scope="second"', [{ scheme: 'Bearer', params: { scope: 'first' } }]],
  ['empty quoted value', 'Bearer scope=""', [{ scheme: 'Bearer', params: { scope: '' } }]],
  ['unterminated quoted string', 'Bearer scope="a b', [{ scheme: 'Bearer', params: { scope: 'a b' } }]],
  ['trailing commas and whitespace', ' , Bearer scope="x" ,, ', [{ scheme: 'Bearer', params: { scope: 'x' } }]],
  ['stray characters are skipped', '"junk" Bearer scope=x', [{ scheme: 'junk', params: {} }, { scheme: 'Bearer', params: { scope: 'x' } }]],
];

describe('parseWwwAuthenticate', () => {
  test.each(table)('%s', (_name, header, expected) => {
    expect(parseWwwAuthenticate(header)).toEqual(expected);
  });

  test('a hostile header is parsed in linear time and never throws', () => {
    const huge = `Bearer ${'a="'.repeat(20_000)}`;
    const challenges = parseWwwAuthenticate(huge);
    expect(challenges[0]?.scheme).toBe('Bearer');
    expect(() => parseWwwAuthenticate('=,=,"\\')).not.toThrow();
  });

  test('findChallenge matches the scheme case-insensitively and takes the first', () => {
    const challenges = parseWwwAuthenticate('Basic realm="x", bearer scope="a", Bearer scope="b"');
    expect(findChallenge(challenges, 'Bearer')?.params.scope).toBe('a');
    expect(findChallenge(challenges, 'DPoP')).toBeUndefined();
  });

  test('splitScopes splits on any whitespace and drops duplicates', () => {
    expect(splitScopes(' a  b\tc a ')).toEqual(['a', 'b', 'c']);
    expect(splitScopes(undefined)).toEqual([]);
  });
});
