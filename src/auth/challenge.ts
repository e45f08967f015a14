/**
 * A tolerant parser for `WWW-Authenticate` (RFC 9110 §11.6.1, with the Bearer
 * parameters of RFC 6750 §3 and `resource_metadata` of RFC 9728 §5.1).
 *
 * The grammar is ambiguous on purpose (commas separate both challenges and
 * parameters), and servers bend it: unquoted values, spaces instead of commas
 * between parameters, several headers folded into one by `fetch`. The parser
 * reads what is there and never throws; garbage is skipped.
 *
 * @module
 */

/** One challenge: the scheme as sent, parameters with lower-cased names, or a token68. */
export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
  token68?: string;
}

const TCHAR = /[!#$%&'*+.^_`|~0-9A-Za-z-]/;
const TOKEN68 = /[A-Za-z0-9._~+/-]/;

/**
 * Parses a `WWW-Authenticate` value (several headers joined by `, ` are fine).
 * Parameter names are lower-cased; the first occurrence of a name wins.
 *
 * @example
 * ```ts
 * parseWwwAuthenticate('Bearer error="insufficient_scope", scope="a b", DPoP algs="ES256"');
 * // [{ scheme: 'Bearer', params: { error: 'insufficient_scope', scope: 'a b' } },
 * //  { scheme: 'DPoP', params: { algs: 'ES256' } }]
 * ```
 */
export function parseWwwAuthenticate(header: string | null | undefined): AuthChallenge[] {
  const text = header ?? '';
  const challenges: AuthChallenge[] = [];
  let pos = 0;
  const peek = () => text[pos] ?? '';
  const skip = (chars: RegExp) => {
    while (pos < text.length && chars.test(text[pos]!)) pos++;
  };
  const readWhile = (chars: RegExp) => {
    const start = pos;
    while (pos < text.length && chars.test(text[pos]!)) pos++;
    return text.slice(start, pos);
  };
  const readQuoted = () => {
    // At the opening quote; backslash escapes any character (quoted-pair).
    pos++;
    let value = '';
    while (pos < text.length && text[pos] !== '"') {
      if (text[pos] === '\\' && pos + 1 < text.length) pos++;
      value += text[pos++];
    }
    pos++; // closing quote (or end of input for an unterminated string)
    return value;
  };
  /** Reads `name = value` at pos; returns undefined (pos unchanged) when pos is not at a parameter. */
  const readParam = (): [string, string] | undefined => {
    const start = pos;
    const name = readWhile(TCHAR);
    skip(/[ \t]/);
    if (!name || peek() !== '=') {
      pos = start;
      return undefined;
    }
    pos++;
    skip(/[ \t]/);
    if (peek() === '"') return [name, readQuoted()];
    const value = readWhile(/[^,\s]/);
    if (value === '' || value.startsWith('=')) {
      // `name=` followed by nothing or more `=`: that was token68 padding, not a parameter.
      pos = start;
      return undefined;
    }
    return [name, value];
  };

  while (pos < text.length) {
    skip(/[\s,]/);
    if (pos >= text.length) break;
    const scheme = readWhile(TCHAR);
    if (!scheme) {
      pos++; // not a token: skip the stray character
      continue;
    }
    const challenge: AuthChallenge = { scheme, params: {} };
    challenges.push(challenge);
    skip(/[ \t]/);
    // token68 right after the scheme (e.g. `Basic dXNlcg==`), unless it is a parameter.
    if (TOKEN68.test(peek())) {
      const param = readParam();
      if (param) {
        challenge.params[param[0].toLowerCase()] ??= param[1];
      } else {
        const start = pos;
        readWhile(TOKEN68);
        readWhile(/=/);
        const candidate = text.slice(start, pos);
        skip(/[ \t]/);
        if (pos >= text.length || peek() === ',') challenge.token68 = candidate;
        else pos = start; // something else follows: read it as parameters below
      }
    }
    // Parameters, separated by commas (or, tolerated, by spaces), until the next scheme.
    for (;;) {
      const before = pos;
      skip(/[\s,]/);
      if (pos >= text.length) break;
      const param = readParam();
      if (!param) {
        pos = before;
        break;
      }
      challenge.params[param[0].toLowerCase()] ??= param[1];
    }
    if (pos < text.length && !/[\s,]/.test(peek()) && !TCHAR.test(peek())) pos++;
  }
  return challenges;
}

/** The first challenge with `scheme` (case-insensitive), if any. */
export function findChallenge(challenges: readonly AuthChallenge[], scheme: string): AuthChallenge | undefined {
  const wanted = scheme.toLowerCase();
  return challenges.find((c) => c.scheme.toLowerCase() === wanted);
}

/** Splits a space-separated OAuth scope string into unique scopes, in order. */
export function splitScopes(scope: string | undefined | null): string[] {
  return [...new Set((scope ?? '').split(/\s+/).filter(Boolean))];
}
