/**
 * The form-mode elicitation schema (spec: client/elicitation "Requested
 * Schema"): a flat object of primitive fields. This module turns it into field
 * descriptors and converts between input values and the `content` to send.
 * A property the kit cannot classify makes the whole request unanswerable — a
 * half-form is never shown.
 */
import { isRecord as isObject } from '../internal/json.js';
import { SEARCH_OVER } from '../internal/long-list.js';

interface FieldBase {
  key: string;
  label: string;
  description: string | undefined;
  required: boolean;
}

export type Field =
  | (FieldBase & { kind: 'text'; format: 'email' | 'uri' | 'date' | 'date-time' | undefined; minLength?: number; maxLength?: number; default?: string })
  | (FieldBase & { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'choice'; options: Option[]; default?: string })
  | (FieldBase & { kind: 'multi'; options: Option[]; minItems?: number; maxItems?: number; default?: string[] });

export interface Option {
  value: string;
  label: string;
}

/** A value in the form: what `content` may hold. */
export type FieldValue = string | number | boolean | string[];


function titledOptions(list: unknown): Option[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const options: Option[] = [];
  for (const entry of list) {
    if (!isObject(entry) || typeof entry.const !== 'string') return undefined;
    options.push({ value: entry.const, label: typeof entry.title === 'string' ? entry.title : entry.const });
  }
  return options;
}

function plainOptions(values: unknown, names?: unknown): Option[] | undefined {
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) return undefined;
  const labels = Array.isArray(names) && names.length === values.length && names.every((n) => typeof n === 'string') ? (names as string[]) : undefined;
  return (values as string[]).map((value, i) => ({ value, label: labels?.[i] ?? value }));
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * Classifies every property of a requested schema.
 * @returns the fields in schema order, or a sentence saying why the form cannot be shown.
 */
export function parseRequestedSchema(schema: unknown): { fields: Field[] } | { error: string } {
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) {
    return { error: 'The requested schema is not an object schema with properties.' };
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : []);
  const fields: Field[] = [];
  for (const [key, raw] of Object.entries(schema.properties)) {
    if (!isObject(raw)) return { error: `Field "${key}" has no schema.` };
    const base: FieldBase = {
      key,
      label: typeof raw.title === 'string' && raw.title ? raw.title : key,
      description: typeof raw.description === 'string' ? raw.description : undefined,
      required: required.has(key),
    };
    const type = raw.type;
    if (type === 'array') {
      const items = isObject(raw.items) ? raw.items : undefined;
      const options = items ? (titledOptions(items.anyOf) ?? titledOptions(items.oneOf) ?? plainOptions(items.enum)) : undefined;
      if (!options) return { error: `Field "${key}" is an array that is not a multiple choice, which form-mode elicitation does not allow.` };
      const def = Array.isArray(raw.default) && raw.default.every((v) => typeof v === 'string') ? (raw.default as string[]) : undefined;
      fields.push({ ...base, kind: 'multi', options, minItems: num(raw.minItems), maxItems: num(raw.maxItems), ...(def ? { default: def } : {}) });
    } else if (type === 'string' || (type === undefined && (Array.isArray(raw.enum) || Array.isArray(raw.oneOf) || Array.isArray(raw.anyOf)))) {
      const options = titledOptions(raw.oneOf) ?? titledOptions(raw.anyOf) ?? plainOptions(raw.enum, raw.enumNames);
      const def = typeof raw.default === 'string' ? raw.default : undefined;
      if (options) {
        fields.push({ ...base, kind: 'choice', options, ...(def !== undefined ? { default: def } : {}) });
      } else if (type === 'string') {
        const format = raw.format === 'email' || raw.format === 'uri' || raw.format === 'date' || raw.format === 'date-time' ? raw.format : undefined;
        fields.push({ ...base, kind: 'text', format, minLength: num(raw.minLength), maxLength: num(raw.maxLength), ...(def !== undefined ? { default: def } : {}) });
      } else {
        return { error: `Field "${key}" has choices the kit cannot read.` };
      }
    } else if (type === 'number' || type === 'integer') {
      const def = num(raw.default);
      fields.push({ ...base, kind: 'number', integer: type === 'integer', minimum: num(raw.minimum), maximum: num(raw.maximum), ...(def !== undefined ? { default: def } : {}) });
    } else if (type === 'boolean') {
      fields.push({ ...base, kind: 'boolean', ...(typeof raw.default === 'boolean' ? { default: raw.default } : {}) });
    } else {
      return { error: `Field "${key}" has type ${JSON.stringify(type)}, which form-mode elicitation does not allow.` };
    }
  }
  return { fields };
}

/**
 * Whether a requested schema may have a choice among more than SEARCH_OVER
 * options, which the dialog searches with a combobox (loaded on demand): a
 * property, or its `items`, with an `enum`, `oneOf` or `anyOf` that long. Every
 * field {@link parseRequestedSchema} makes such a choice has one; the check
 * builds no options (a list may hold a million).
 */
export function hasLongChoice(schema: unknown): boolean {
  if (!isObject(schema) || !isObject(schema.properties)) return false;
  return Object.values(schema.properties).some((raw) =>
    [raw, isObject(raw) ? raw.items : undefined].some((node) => isObject(node) && [node.enum, node.oneOf, node.anyOf].some((list) => Array.isArray(list) && list.length > SEARCH_OVER)),
  );
}

/** The starting values: every default, as the form will show and send it. */
export function initialValues(fields: Field[]): Map<string, FieldValue> {
  const values = new Map<string, FieldValue>();
  for (const field of fields) if (field.default !== undefined) values.set(field.key, field.default);
  return values;
}

/** `YYYY-MM-DDTHH:mm` in local time, for `<input type="datetime-local">`. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** RFC 3339 (UTC) from a `datetime-local` value; undefined when empty or invalid. */
export function fromLocalInput(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().replace(/\.000Z$/, 'Z');
}

/** Human-readable form of a value, for the review step. */
export function describeValue(field: Field, value: FieldValue | undefined): string {
  if (value === undefined) return '(not answered)';
  if (field.kind === 'boolean') return value ? 'Yes' : 'No';
  if (field.kind === 'choice') return field.options.find((o) => o.value === value)?.label ?? String(value);
  if (field.kind === 'multi') {
    const list = (value as string[]).map((v) => field.options.find((o) => o.value === v)?.label ?? v);
    return list.length ? list.join(', ') : '(none)';
  }
  return String(value);
}
