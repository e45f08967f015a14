/**
 * Small JSON helpers shared by the kit's elements: JSON Pointer (RFC 6901)
 * encoding, structural equality and type names. DOM-free.
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

/** Escapes one reference token of a JSON Pointer (`~` → `~0`, `/` → `~1`). */
export function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Appends a token to a JSON Pointer: `child('/a', 'b/c')` → `/a/b~1c`. */
export function child(pointer: string, token: string | number): string {
  return `${pointer}/${escapeToken(token)}`;
}

/** Splits a JSON Pointer into unescaped tokens (`""` → `[]`). */
export function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The JSON type name of a value as JSON Schema's `type` keyword sees it
 * (`integer` for whole numbers, which also match `number`).
 */
export function jsonType(value: unknown): 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object' | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'string':
      return 'string';
    case 'object':
      return 'object';
    default:
      return 'undefined';
  }
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
 * `JSON.stringify` with indentation that never throws (cycles, BigInt) and
 * caps the output: long results end with `…` and say how much was cut, so a
 * 50 MB payload cannot freeze the page.
 *
 * @param maxChars - cap on the returned text, in UTF-16 code units; default 200,000.
 */
export function stringifyBounded(value: unknown, maxChars = 200_000): { text: string; truncated: boolean } {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch (error) {
    text = `(cannot be shown as JSON: ${(error as Error).message})`;
  }
  if (text.length <= maxChars) return { text, truncated: false };
  return { text: `${text.slice(0, maxChars)}\n… (${text.length - maxChars} more characters)`, truncated: true };
}
