/**
 * A small non-cryptographic hash for map keys (FNV-1a, 32 bits, plus the
 * text's length), so credentials are not kept verbatim as keys.
 *
 * @module
 */
/** Small FNV-1a hash, so credentials are not kept verbatim as map keys. */
export function hashKey(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36) + ':' + text.length.toString(36);
}
