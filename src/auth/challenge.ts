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
import { TOKEN } from '../transport/headers.js';

/** One challenge: the scheme as sent, parameters with lower-cased names, or a token68. */
export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
  token68?: string;
}

/** A `tchar`: the parser tests one character at a time, and a single character is a `tchar` exactly when it is a token. */
const TCHAR = TOKEN;
const TOKEN68 = /[A-Za-z0-9._~+/-]/;

/**
 * Parses a `WWW-Authenticate` value (several headers joined by `, ` are fine).
 * Parameter names are lower-cased; the first occurrence of a name wins.
 *
 * Beyond the grammar, it reads what sloppy servers send: values in single
 * quotes (`resource_metadata='https://…'`; an apostrophe inside a token such as
 * `it's` stays part of it), parameters separated by spaces instead of commas,
 * an unterminated quoted string. Each such deviation is reported to `onNote`
 * (for a developer warning); the result is the same with or without it.
 *
 * @param onNote - called with a short description of each deviation from RFC 9110 §11.2.
 * @example
 * ```ts
 * parseWwwAuthenticate('Bearer error="insufficient_scope", scope="a b", DPoP algs="ES256"');
 * // [{ scheme: 'Bearer', params: { error: 'insufficient_scope', scope: 'a b' } },
 * //  { scheme: 'DPoP', params: { algs: 'ES256' } }]
 * ```
 */
export function parseWwwAuthenticate(header: string | null | undefined, onNote?: (note: string) => void): AuthChallenge[] {
  const text = header ?? '';
  const challenges: AuthChallenge[] = [];
  const note = onNote ?? (() => {});
  let pos = 0;
  // Once a single quote found no closing partner, none later will: stop looking (keeps the parse linear).
  let singleQuotes = true;
  const peek = () => text[pos] ?? '';
  const skip = (chars: RegExp) => {
    while (pos < text.length && chars.test(text[pos]!)) pos++;
  };
  const readWhile = (chars: RegExp) => {
    const start = pos;
    while (pos < text.length && chars.test(text[pos]!)) pos++;
    return text.slice(start, pos);
  };
  const readQuoted = (name: string) => {
    // At the opening quote; backslash escapes any character (quoted-pair).
    pos++;
    let value = '';
    while (pos < text.length && text[pos] !== '"') {
      if (text[pos] === '\\' && pos + 1 < text.length) pos++;
      value += text[pos++];
    }
    if (pos >= text.length) note(`the quoted value of ${name} is unterminated`);
    pos++; // closing quote (or end of input for an unterminated string)
    return value;
  };
  /** A value in single quotes, closed by a quote before a delimiter; undefined (pos unchanged) when there is none. */
  const readSingleQuoted = (): string | undefined => {
    let value = '';
    for (let at = pos + 1; at < text.length; at++) {
      const char = text[at]!;
      if (char === '\\' && at + 1 < text.length) {
        value += text[++at];
      } else if (char === "'" && (at + 1 === text.length || /[\s,]/.test(text[at + 1]!))) {
        pos = at + 1;
        return value;
      } else value += char;
    }
    singleQuotes = false;
    return undefined;
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
    if (peek() === '"') return [name, readQuoted(name)];
    if (peek() === "'" && singleQuotes) {
      const value = readSingleQuoted();
      if (value !== undefined) {
        note(`the value of ${name} is in single quotes`);
        return [name, value];
      }
    }
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
    let read = 0;
    skip(/[ \t]/);
    // token68 right after the scheme (e.g. `Basic dXNlcg==`), unless it is a parameter.
    if (TOKEN68.test(peek())) {
      const param = readParam();
      if (param) {
        challenge.params[param[0].toLowerCase()] ??= param[1];
        read++;
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
      const separator = text.slice(before, pos);
      const param = readParam();
      if (!param) {
        pos = before;
        break;
      }
      if (read++ > 0 && !separator.includes(',')) note(`the parameter ${param[0]} is not separated from the one before by a comma`);
      challenge.params[param[0].toLowerCase()] ??= param[1];
    }
    if (pos < text.length && !/[\s,]/.test(peek()) && !TCHAR.test(peek())) pos++;
  }
  return challenges;
}

/**
 * The parameters of a 401/403 answer, each taken from the challenge that
 * carries it: servers spread them over several challenges (`DPoP algs="ES256",
 * Bearer scope="…", resource_metadata="…"`) or several headers. Only the OAuth
 * schemes (`Bearer`, `DPoP`; RFC 6750 §3, RFC 9449 §7.1) contribute; where both
 * carry a parameter, `prefer`'s wins, then DPoP's. The result's scheme is the
 * one that would win (DPoP when offered and nothing is preferred). Without any
 * OAuth challenge, the first challenge as it is.
 *
 * @param prefer - the scheme whose parameters win (e.g. the token type in use).
 */
export function challengeParams(challenges: readonly AuthChallenge[], prefer?: string): AuthChallenge | undefined {
  const rank = (c: AuthChallenge) => {
    const scheme = c.scheme.toLowerCase();
    return scheme === prefer?.toLowerCase() ? 0 : scheme === 'dpop' ? 1 : 2;
  };
  const oauth = challenges.filter((c) => /^(bearer|dpop)$/i.test(c.scheme)).sort((a, b) => rank(a) - rank(b));
  if (oauth.length === 0) return challenges[0];
  const params: Record<string, string> = {};
  for (const challenge of oauth) for (const [name, value] of Object.entries(challenge.params)) params[name] ??= value;
  return { scheme: oauth[0]!.scheme, params };
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
