/**
 * Request metadata headers of the Streamable HTTP binding
 * (spec: basic/transports/streamable-http "Request Metadata"):
 * `Mcp-Name` / `Mcp-Param-*` value encoding. The `x-mcp-header` annotation
 * itself is checked in `header-bindings.ts`, loaded only for tools that use it.
 *
 * @module
 */

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

/**
 * Whether an `inputSchema` may carry an `x-mcp-header` annotation, without walking
 * it: the (lazily loaded) checker in `header-bindings.ts` is needed only then.
 * A schema too deep to serialize counts as "may".
 */
export function mentionsHeaderBindings(inputSchema: unknown): boolean {
  try {
    return JSON.stringify(inputSchema).includes('"x-mcp-header"');
  } catch {
    return true;
  }
}
