/**
 * Small JSON helpers shared by the kit's elements: JSON Pointer (RFC 6901)
 * tokens, structural equality, bounded stringifying and clipping. DOM-free.
 * (Building pointers and naming JSON types live with their only user, the
 * tool form's parts, which load on demand.)
 *
 * @module
 */

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object with unknown members (server-sent data is never trusted to have a shape). */
export type JsonRecord = { [key: string]: unknown };

/** Whether `value` is a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Splits a JSON Pointer into unescaped tokens (`""` → `[]`). */
export function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Structural equality of JSON values (object key order ignored), as `enum`/`const` compare. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const left = a as JsonRecord;
  const right = b as JsonRecord;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
}

/**
 * `JSON.stringify(value, null, 2)` that never throws (cycles, BigInt) and is
 * bounded in work, not only in output: it stops writing once `maxChars` are
 * out, so showing a 50 MB payload costs what showing its first 200 KB costs.
 * Cut text ends with a line saying so.
 *
 * @param maxChars - cap on the returned text, in UTF-16 code units; default 200,000.
 */
export function stringifyBounded(value: unknown, maxChars = 200_000): { text: string; truncated: boolean } {
  const out: string[] = [];
  let length = 0;
  const full = () => length > maxChars;
  const write = (text: string) => {
    out.push(text);
    length += text.length;
  };
  const seen = new Set<object>();
  const visit = (item: unknown, indent: string): boolean => {
    if (full()) return false;
    if (item === null || typeof item === 'boolean') write(String(item));
    else if (typeof item === 'number') write(Number.isFinite(item) ? String(item) : 'null');
    else if (typeof item === 'string') {
      // Only as much of a long string as can still be shown is escaped.
      write(JSON.stringify(item.length > maxChars - length ? item.slice(0, maxChars - length + 1) : item));
    } else if (typeof item === 'object') {
      if (seen.has(item)) throw new TypeError('Converting circular structure to JSON');
      seen.add(item);
      const inner = `${indent}  `;
      const array = Array.isArray(item);
      let count = 0;
      const member = (key: string | undefined, element: unknown): boolean => {
        write(`${count++ === 0 ? (array ? '[' : '{') : ','}\n${inner}${key === undefined ? '' : `${JSON.stringify(key)}: `}`);
        return visit(element, inner);
      };
      // Lazily, member by member: a million-item array is not walked to show its first lines.
      if (array) {
        for (let i = 0; i < (item as unknown[]).length; i++) {
          const element = (item as unknown[])[i];
          if (!member(undefined, element === undefined || typeof element === 'function' || typeof element === 'symbol' ? null : element)) break;
        }
      } else {
        for (const key in item) {
          if (!Object.hasOwn(item, key)) continue;
          const element = (item as Record<string, unknown>)[key];
          if (element === undefined || typeof element === 'function' || typeof element === 'symbol') continue;
          if (!member(key, element)) break;
        }
      }
      if (count === 0) write(array ? '[]' : '{}');
      else if (!full()) write(`\n${indent}${array ? ']' : '}'}`);
      seen.delete(item);
    } else if (typeof item === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    else write('null');
    return !full();
  };
  try {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return { text: String(value), truncated: false };
    visit(value, '');
  } catch (error) {
    return { text: `(cannot be shown as JSON: ${(error as Error).message})`, truncated: false };
  }
  const text = out.join('');
  if (text.length <= maxChars) return { text, truncated: false };
  return { text: `${text.slice(0, maxChars)}\n… (cut at ${maxChars.toLocaleString('en')} characters)`, truncated: true };
}

/** Text cut to `max` characters for display (with `…`); the value itself is never changed. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
