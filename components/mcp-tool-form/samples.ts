/**
 * Fills a form model with plausible, schema-valid sample input, the way a user
 * would type it (number fields get text, pickers get one of their options…).
 * Used by the corpus report (`npm run corpus`) and the tests to check that
 * filling a form yields arguments the schema accepts. DOM-free; not part of the
 * public API.
 *
 * @module
 */
import { isRecord } from '../internal/json.js';
import { itemField, memberField, put, variantField, type Draft } from './draft.js';
import type { Field, FormModel, NumberField, StringField } from './model.js';
import { jsonType, patternMatches } from './value-checks.js';

export interface SampleOptions {
  /** Fill optional members too (default: only what is required). */
  all?: boolean;
  /**
   * Below this depth (recursive schemas) fill only what the schema requires:
   * required members, and arrays with their `minItems` items (none when it
   * allows an empty one), so that recursion stops where the schema lets it
   * and nowhere else. Default 8.
   */
  maxDepth?: number;
}

const FORMAT_SAMPLES: Record<string, string> = {
  date: '2026-03-14',
  'date-time': '2026-03-14T09:30:00Z',
  time: '09:30:00Z',
  email: 'someone@example.com',
  'idn-email': 'someone@example.com',
  uri: 'https://example.com/item',
  url: 'https://example.com/item',
  iri: 'https://example.com/item',
  'uri-reference': '/item',
  'iri-reference': '/item',
  'uri-template': 'https://example.com/{id}',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  'json-pointer': '/a',
  'relative-json-pointer': '0/a',
  regex: '^a$',
  duration: 'P1D',
};

/** Levels past `maxDepth` at which a sample gives up: required members that never end (no finite value exists). */
const ENDLESS = 64;

const CANDIDATES = ['sample', 'abc', 'a', 'A1', '1', 'owner/repo', 'example.com', '2026-03-14', 'https://example.com', '#336699', 'x', '0'];

/**
 * A string matching a regular expression, for the simple patterns real tool
 * schemas use (literals, classes, groups with alternatives, quantifiers).
 * @returns undefined when the pattern uses syntax this sampler does not know.
 */
export function sampleFromPattern(pattern: string): string | undefined {
  let i = 0;
  const take = () => pattern[i++];
  const classFirst = (): string => {
    // After "[": pick the first character the class allows.
    let negated = false;
    if (pattern[i] === '^') {
      negated = true;
      i++;
    }
    const members: string[] = [];
    let first = true;
    while (i < pattern.length && (pattern[i] !== ']' || first)) {
      first = false;
      let c = take()!;
      if (c === '\\') {
        const e = take()!;
        c = e === 'd' ? '0' : e === 'w' ? 'a' : e === 's' ? ' ' : e;
      }
      if (pattern[i] === '-' && pattern[i + 1] !== ']' && pattern[i + 1] !== undefined) {
        i++;
        let end = take()!;
        if (end === '\\') end = take()!;
        members.push(c);
        void end;
      } else members.push(c);
    }
    i++; // "]"
    if (!negated) return members[0] ?? 'a';
    return ['a', 'b', '0', 'x', 'Z'].find((c) => !members.includes(c)) ?? 'q';
  };
  const parseAlternatives = (): string => {
    const alternatives: string[] = [];
    let current = '';
    while (i < pattern.length) {
      const c = pattern[i]!;
      if (c === ')') break;
      if (c === '|') {
        i++;
        alternatives.push(current);
        current = '';
        continue;
      }
      let atom: string;
      if (c === '^' || c === '$') {
        i++;
        continue;
      } else if (c === '(') {
        i++;
        if (pattern[i] === '?') {
          i++;
          if (pattern[i] === ':') i++;
          else return (() => { throw new Error('lookaround'); })();
        }
        atom = parseAlternatives();
        if (pattern[i] !== ')') throw new Error('unbalanced');
        i++;
      } else if (c === '[') {
        i++;
        atom = classFirst();
      } else if (c === '\\') {
        i++;
        const e = take()!;
        atom = e === 'd' ? '1' : e === 'w' ? 'a' : e === 's' ? ' ' : e === 'D' ? 'a' : e === 'W' ? '-' : e === 'S' ? 'a' : /[bB]/.test(e) ? '' : e;
      } else if (c === '.') {
        i++;
        atom = 'a';
      } else {
        i++;
        atom = c;
      }
      // Quantifier.
      let times = 1;
      const q = pattern[i];
      if (q === '*' || q === '?') {
        times = 0;
        i++;
      } else if (q === '+') {
        i++;
      } else if (q === '{') {
        const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
        if (match) {
          times = Number(match[1]);
          i += match[0].length;
        }
      }
      if (pattern[i] === '?' && (q === '*' || q === '+' || q === '?' || q === '{')) i++;
      current += atom.repeat(times);
    }
    alternatives.push(current);
    return alternatives[0]!;
  };
  try {
    const sample = parseAlternatives();
    return patternMatches(pattern, sample) ? sample : undefined;
  } catch {
    return undefined;
  }
}

function fitsString(field: StringField, text: string): boolean {
  if (field.minLength !== undefined && [...text].length < field.minLength) return false;
  if (field.maxLength !== undefined && [...text].length > field.maxLength) return false;
  if (field.pattern !== undefined && !patternMatches(field.pattern, text)) return false;
  return true;
}

/** A sample string for a string field, or undefined when none is found. */
export function sampleString(field: StringField): string | undefined {
  const candidates: string[] = [];
  if (typeof field.example === 'string') candidates.push(field.example);
  if (field.format && FORMAT_SAMPLES[field.format]) candidates.push(FORMAT_SAMPLES[field.format]!);
  if (field.pattern) {
    const fromPattern = sampleFromPattern(field.pattern);
    if (fromPattern !== undefined) candidates.push(fromPattern);
  }
  candidates.push(...CANDIDATES);
  for (const candidate of candidates) {
    if (fitsString(field, candidate)) return candidate;
    // Pad or cut to the length bounds.
    if (field.minLength !== undefined && [...candidate].length < field.minLength) {
      const padded = candidate + 'a'.repeat(field.minLength - [...candidate].length);
      if (fitsString(field, padded)) return padded;
    }
    if (field.maxLength !== undefined && [...candidate].length > field.maxLength) {
      const cut = [...candidate].slice(0, field.maxLength).join('');
      if (fitsString(field, cut)) return cut;
    }
  }
  return undefined;
}

/** A sample number inside the field's bounds, as the text a user would type. */
export function sampleNumber(field: NumberField): string {
  let low = field.minimum ?? -Infinity;
  let high = field.maximum ?? Infinity;
  if (field.exclusiveMinimum !== undefined) low = Math.max(low, field.exclusiveMinimum + (field.integer ? 1 : 0.5));
  if (field.exclusiveMaximum !== undefined) high = Math.min(high, field.exclusiveMaximum - (field.integer ? 1 : 0.5));
  let value = Number.isFinite(low) ? low : Number.isFinite(high) ? Math.min(high, 1) : 1;
  if (!Number.isFinite(low) && value > high) value = high;
  if (field.integer) value = Math.ceil(value);
  if (field.multipleOf !== undefined && field.multipleOf > 0) value = Math.ceil(value / field.multipleOf) * field.multipleOf;
  if (value > high && Number.isFinite(low)) value = low;
  return String(value);
}

/** Fields one sample may fill before it gives up: required members that branch (two required members each the whole schema again) double at every level. */
const MAX_SAMPLE_FIELDS = 10_000;

/**
 * Sample input for a field: what a user could type so that the field is valid.
 * @returns undefined to leave the field untouched (also when the sample would
 *   fill more than 10,000 fields).
 */
export function sampleDraft(model: FormModel, field: Field, options: SampleOptions = {}, salt = 0): Draft | undefined {
  const budget = { fields: MAX_SAMPLE_FIELDS };
  const draft = fill(model, field, options, salt, budget);
  return budget.fields < 0 ? undefined : draft;
}

function fill(model: FormModel, field: Field, options: SampleOptions, salt: number, budget: { fields: number }): Draft | undefined {
  if (--budget.fields < 0) return undefined;
  const maxDepth = options.maxDepth ?? 8;
  // Past maxDepth only what is required; past this, a schema whose required members never end.
  const deep = field.depth > maxDepth;
  if (field.depth > maxDepth + ENDLESS) return undefined;
  if (field.default) return undefined; // The default pre-fills the field already.
  switch (field.kind) {
    case 'string': {
      const text = sampleString(field);
      if (text === undefined) return undefined;
      // uniqueItems: make siblings differ where the pattern allows.
      const salted = salt > 0 && fitsString(field, `${text}${salt}`) ? `${text}${salt}` : text;
      return { k: 'v', v: salted };
    }
    case 'number': {
      const text = sampleNumber(field);
      return { k: 'text', text: salt > 0 ? String(Number(text) + salt * (field.multipleOf ?? 1)) : text };
    }
    case 'boolean':
      return { k: 'v', v: salt % 2 === 0 };
    case 'enum': {
      const option = field.options[salt % field.options.length];
      return option ? { k: 'v', v: option.value } : undefined;
    }
    case 'const':
      return { k: 'v', v: field.value };
    case 'json': {
      const example = field.example ?? (field.expects === 'object' ? {} : field.expects === 'array' ? [] : field.reason === 'free' ? 'sample' : undefined);
      if (example === undefined) return undefined;
      if (field.expects && jsonType(example) !== field.expects) return undefined;
      return { k: 'json', text: JSON.stringify(example) };
    }
    case 'object': {
      const p: Record<string, Draft> = {};
      for (const entry of field.properties) {
        if (!entry.required && (!options.all || deep)) continue;
        const member = memberField(model, field, entry.key, entry.schema, undefined);
        const sub = fill(model, member, options, 0, budget);
        if (sub !== undefined) put(p, entry.key, sub);
      }
      return { k: 'obj', p };
    }
    case 'array': {
      if (field.choices) {
        const count = Math.max(field.minItems, options.all && !deep ? 1 : 0);
        return { k: 'arr', items: field.choices.slice(0, count).map((option) => ({ k: 'v', v: option.value })) };
      }
      const count = Math.max(field.minItems, field.prefix.length, options.all && !deep && field.items !== undefined ? 1 : 0);
      const items: (Draft | undefined)[] = [];
      for (let i = 0; i < count; i++) {
        const sub = itemField(model, field, i, undefined);
        items.push(sub ? fill(model, sub, options, field.uniqueItems ? i + salt : salt, budget) : undefined);
      }
      return { k: 'arr', items };
    }
    case 'union': {
      // The first variant that yields a sample.
      for (let choice = 0; choice < field.variants.length; choice++) {
        const variant = variantField(model, field, choice, undefined);
        if (!variant || (variant.kind === 'json' && variant.reason === 'fallback')) continue;
        const sub = fill(model, variant, options, salt, budget);
        const by: Record<string, Draft> = {};
        if (sub !== undefined) put(by, String(choice), sub);
        return { k: 'union', choice, by };
      }
      return undefined;
    }
  }
}

/** Whether a schema (root of a tool's `inputSchema`) lists required members. */
export function hasRequired(schema: unknown): boolean {
  return isRecord(schema) && Array.isArray(schema.required) && schema.required.length > 0;
}
