/**
 * Inspecting a URL-mode elicitation URL before asking for consent
 * (spec: client/elicitation "Safe URL Handling"): show the full URL, emphasise
 * the host, warn on punycode and plain HTTP, refuse other schemes. Nothing here
 * fetches the URL.
 */

/** What the dialog shows about a URL. */
export interface UrlReview {
  /** True when the URL may be opened (http or https). */
  ok: boolean;
  /** The full URL as parsed (what would be opened). */
  href: string;
  /** Text before the host, the host (ASCII, as the browser will use it), and the rest. */
  parts: { before: string; host: string; after: string };
  /** The host in Unicode when it is punycode-encoded (IDN), else undefined. */
  unicodeHost: string | undefined;
  /** Sentences to show as warnings. */
  warnings: string[];
  /** Why the URL is refused, when `ok` is false. */
  refusal: string | undefined;
}

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

function digit(code: number): number {
  if (code >= 48 && code <= 57) return code - 22; // 0-9 → 26-35
  if (code >= 65 && code <= 90) return code - 65; // A-Z
  if (code >= 97 && code <= 122) return code - 97; // a-z
  return BASE;
}

/** Decodes one punycode label (RFC 3492), without the `xn--` prefix. Returns undefined when invalid. */
export function decodePunycodeLabel(input: string): string | undefined {
  const output: number[] = [];
  const basic = input.lastIndexOf('-');
  for (let j = 0; j < Math.max(basic, 0); j++) {
    if (input.charCodeAt(j) >= 0x80) return undefined;
    output.push(input.charCodeAt(j));
  }
  let n = 128;
  let bias = 72;
  let i = 0;
  for (let index = basic > 0 ? basic + 1 : 0; index < input.length; ) {
    const oldi = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (index >= input.length) return undefined;
      const d = digit(input.charCodeAt(index++));
      if (d >= BASE) return undefined;
      i += d * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (d < t) break;
      w *= BASE - t;
      if (w > 0x7fffffff) return undefined;
    }
    bias = adapt(i - oldi, output.length + 1, oldi === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) return undefined;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

/** Decodes every `xn--` label of a host name. */
export function hostToUnicode(host: string): string {
  return host
    .split('.')
    .map((label) => (label.toLowerCase().startsWith('xn--') ? (decodePunycodeLabel(label.slice(4)) ?? label) : label))
    .join('.');
}

/** Reviews a URL from a server before the user is asked to open it. */
export function reviewUrl(raw: string): UrlReview {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, href: raw, parts: { before: raw, host: '', after: '' }, unicodeHost: undefined, warnings: [], refusal: 'This is not a valid URL.' };
  }
  const href = url.href;
  const hostIndex = url.host ? href.indexOf(url.host, url.protocol.length) : -1;
  const parts =
    hostIndex >= 0
      ? { before: href.slice(0, hostIndex), host: url.host, after: href.slice(hostIndex + url.host.length) }
      : { before: href, host: '', after: '' };
  const warnings: string[] = [];
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, href, parts, unicodeHost: undefined, warnings, refusal: `Links with the "${url.protocol.replace(':', '')}" scheme are never opened; only http and https are.` };
  }
  const unicodeHost = /(^|\.)xn--/i.test(url.hostname) ? hostToUnicode(url.hostname) : undefined;
  if (unicodeHost) warnings.push(`The host is written in punycode; it reads "${unicodeHost}". Internationalised names can imitate other sites — check it carefully.`);
  if (url.protocol === 'http:') warnings.push('This page is not encrypted (http).');
  if (url.username || url.password) warnings.push('The URL contains a user name or password before the host; the real host is the part after "@".');
  return { ok: true, href, parts, unicodeHost, warnings, refusal: undefined };
}
