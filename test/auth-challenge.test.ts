/**
 * The `WWW-Authenticate` parser (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1):
 * a table of header values as servers really send them, and what must come out.
 */
import { describe, expect, test } from 'vitest';
import { challengeParams, findChallenge, parseWwwAuthenticate, splitScopes } from '../src/auth/challenge.js';

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
  // Sloppy quoting seen in the field: single quotes are read as quotes (with a warning, see below).
  ['single-quoted value', `Bearer realm="mcp", resource_metadata='${META}'`, [{ scheme: 'Bearer', params: { realm: 'mcp', resource_metadata: META } }]],
  ['single-quoted values with spaces, commas and an escape', String.raw`Bearer scope = 'a b', error_description='it's, here'`, [{ scheme: 'Bearer', params: { scope: 'a b', error_description: "it's, here" } }]],
  ['an apostrophe inside a token is part of it', `Bearer realm=it's, scope='x'`, [{ scheme: 'Bearer', params: { realm: "it's", scope: 'x' } }]],
  ['an unclosed single quote stays a token', `Bearer realm='open, scope="s"`, [{ scheme: 'Bearer', params: { realm: "'open", scope: 's' } }]],
  ['token68 after a challenge with parameters, then more', 'Bearer scope="a", Basic YWxhZGRpbjpvcGVu, DPoP algs="ES256"', [{ scheme: 'Bearer', params: { scope: 'a' } }, { scheme: 'Basic', params: {}, token68: 'YWxhZGRpbjpvcGVu' }, { scheme: 'DPoP', params: { algs: 'ES256' } }]],
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

  test('sloppy syntax is read and reported: single quotes, a missing comma, an unterminated string', () => {
    const notes: string[] = [];
    parseWwwAuthenticate(`Bearer resource_metadata='${META}' scope="a`, (note) => notes.push(note));
    expect(notes.join(' | ')).toMatch(/resource_metadata is in single quotes/);
    expect(notes.join(' | ')).toMatch(/comma/);
    expect(notes.join(' | ')).toMatch(/unterminated/);
    notes.length = 0;
    parseWwwAuthenticate(`Bearer realm="mcp", scope="x", DPoP algs="ES256"`, (note) => notes.push(note));
    expect(notes).toEqual([]);
  });

  test('splitScopes splits on any whitespace and drops duplicates', () => {
    expect(splitScopes(' a  b\tc a ')).toEqual(['a', 'b', 'c']);
    expect(splitScopes(undefined)).toEqual([]);
  });
});

/**
 * WWW-Authenticate parameters spread over several challenges (regression: the
 * kit read only the first challenge it preferred and lost the metadata URL and
 * the scope carried by another one).
 */
describe('challengeParams: each parameter from the challenge carrying it', () => {
  test('DPoP algs in one challenge, scope and resource_metadata in the Bearer one', () => {
    const merged = challengeParams(parseWwwAuthenticate(`DPoP algs="ES256", Bearer scope="files:read", resource_metadata="${META}"`));
    expect(merged).toEqual({ scheme: 'DPoP', params: { algs: 'ES256', scope: 'files:read', resource_metadata: META } });
  });

  test('two headers folded by fetch: the error of the preferred scheme wins, the rest fills in', () => {
    const challenges = parseWwwAuthenticate(`Bearer error="invalid_token", resource_metadata="${META}", DPoP error="use_dpop_nonce", algs="ES256"`);
    expect(challengeParams(challenges, 'DPoP')?.params).toEqual({ error: 'use_dpop_nonce', algs: 'ES256', resource_metadata: META });
    expect(challengeParams(challenges, 'Bearer')).toEqual({ scheme: 'Bearer', params: { error: 'invalid_token', resource_metadata: META, algs: 'ES256' } });
  });

  test('other schemes lend nothing when a Bearer or DPoP challenge is present; alone, they are used as they are', () => {
    expect(challengeParams(parseWwwAuthenticate('Basic realm="x", scope="admin", Bearer realm="mcp"'))).toEqual({ scheme: 'Bearer', params: { realm: 'mcp' } });
    expect(challengeParams(parseWwwAuthenticate('Negotiate'))).toEqual({ scheme: 'Negotiate', params: {} });
    expect(challengeParams([])).toBeUndefined();
  });
});
