/**
 * Request metadata headers of the Streamable HTTP binding
 * (spec: basic/transports/streamable-http "Request Metadata"):
 * `Mcp-Name` / `Mcp-Param-*` value encoding, and the check of the caller's own
 * headers. The `x-mcp-header` annotation itself is checked in
 * `header-bindings.ts`, loaded only for tools that use it.
 *
 * @module
 */
import { McpClientError, type McpErrorData } from '../protocol/errors.js';

const SENTINEL = /^=\?base64\?.*\?=$/s;

function base64Utf8(value: string): string {
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Encodes a header value per "Value Encoding": printable ASCII without leading or
 * trailing whitespace goes as is; anything else — non-ASCII, control characters
 * (tab included), surrounding spaces, the empty string, or a value that itself
 * looks like the sentinel — becomes `=?base64?<base64 of UTF-8>?=`.
 *
 * Encoding happens before the value reaches `Headers`, because `fetch` trims
 * whitespace, rejects CR/LF and sends Latin-1 bytes instead of UTF-8.
 */
export function encodeHeaderValue(value: string): string {
  const plain = value.length > 0 && /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !SENTINEL.test(value);
  return plain ? value : `=?base64?${base64Utf8(value)}?=`;
}

/** Objects {@link mentionsHeaderBindings} looks at before it answers "may" (a cyclic caller-made schema ends there). */
const MENTION_BUDGET = 1_000_000;
/** Nesting beyond which it answers "may": the bounded checker then decides (and refuses a hostile depth). */
const MENTION_DEPTH = 1000;

// Called as hasOwnProperty.call inside for-in, which V8 answers from the loop's own key cache.
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Whether an `inputSchema` may carry an `x-mcp-header` annotation: whether any
 * object in it has that own key. Only then is the (lazily loaded) checker in
 * `header-bindings.ts` needed. One pass over the schema's objects, a level at a
 * time (no serialization, no recursion); a value nested deeper than
 * {@link MENTION_DEPTH} levels or with more than {@link MENTION_BUDGET} objects
 * (a cyclic one) counts as "may".
 *
 * @param queue - scratch space for the walk, overwritten from the start: a caller that
 *   checks many schemas in a row (a big `tools/list`) passes one array for all of them, so
 *   that the walk leaves no garbage behind (it would be collected while the list it just
 *   parsed is still young, which copies the whole list).
 */
export function mentionsHeaderBindings(inputSchema: unknown, queue: unknown[] = []): boolean {
  if (typeof inputSchema !== 'object' || inputSchema === null) return false;
  // Breadth first: `end` closes the current level, so the level number is the depth with no
  // bookkeeping per object; objects are counted as they are queued, which also bounds the queue
  // of a wide cyclic value.
  queue[0] = inputSchema;
  let head = 0;
  let tail = 1;
  let end = 1;
  let depth = 1;
  while (head < tail) {
    if (head === end) {
      if (++depth > MENTION_DEPTH) return true;
      end = tail;
    }
    const value = queue[head++] as object;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === 'object' && item !== null) {
          if (tail === MENTION_BUDGET) return true;
          queue[tail++] = item;
        }
      }
      continue;
    }
    if (hasOwn.call(value, 'x-mcp-header')) return true;
    // Own keys only: a polluted prototype's enumerable key is no annotation (and is not read).
    for (const key in value) {
      if (!hasOwn.call(value, key)) continue;
      const item: unknown = (value as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) {
        if (tail === MENTION_BUDGET) return true;
        queue[tail++] = item;
      }
    }
  }
  return false;
}

/**
 * An HTTP token (RFC 9110 §5.6.2): one or more `tchar`. Header names are tokens
 * (here and in `header-bindings.ts`), and so are the schemes and parameter names
 * of `WWW-Authenticate` (`../auth/challenge.ts`).
 */
export const TOKEN = /^[!#$%&'*+.^_`|~\w-]+$/;

/**
 * Checks the caller's header values before they reach `fetch`, which sends a
 * header value as bytes: it refuses a character above U+00FF, NUL, CR or LF
 * with a bare `TypeError` — indistinguishable from a network or CORS failure —
 * sends U+0080…U+00FF as single ISO-8859-1 bytes (which a server reading UTF-8
 * misreads), and trims surrounding spaces. Field case C27.
 *
 * @param warn - told about values `fetch` sends altered (Latin-1 bytes, trimmed spaces).
 * @throws McpClientError `invalid_header` naming the header and the first character that cannot be sent.
 */
export function checkHeaders(headers: Record<string, string>, context: McpErrorData, warn: (code: string, message: string) => void): void {
  for (const [header, value] of Object.entries(headers)) {
    const fail = (why: string) => {
      throw new McpClientError('invalid_header', `The request header "${header}" cannot be sent: ${why}. Encode it (percent-encoding or base64) first.`, { ...context, header });
    };
    if (!TOKEN.test(header)) fail('its name is not a valid HTTP header name');
    const text = String(value);
    for (const char of text) {
      const code = char.codePointAt(0)!;
      if (code > 0xff || code === 0 || code === 10 || code === 13) {
        const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
        fail(`its value has ${code === 10 || code === 13 ? `a line break (${name})` : `${JSON.stringify(char)} (${name})`}, which an HTTP header value cannot carry (only ISO-8859-1 characters, no NUL, CR or LF)`);
      }
    }
    if (/[\x80-\xff]/.test(text)) {
      warn('header-latin1', `The request header "${header}" has non-ASCII characters; fetch sends each as one ISO-8859-1 (Latin-1) byte, which a server reading UTF-8 misreads. Encode the value if the server expects UTF-8.`);
    }
    if (text !== text.trim()) warn('header-trimmed', `The value of the request header "${header}" starts or ends with whitespace, which fetch removes.`);
  }
}
