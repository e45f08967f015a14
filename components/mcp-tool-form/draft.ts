/**
 * What the user typed (the *draft*) and the arguments built from it.
 *
 * A draft records intent, not just values: "typed 5", "cleared the field",
 * "chose null", "never touched" (undefined). The argument-building rules
 * (field cases C15 and C17) need exactly that distinction:
 *
 * - an untouched optional field is omitted; a cleared optional field is omitted
 *   too (never sent as `""`);
 * - an optional object or array the user did not fill is not invented
 *   (no `{}`, no `[]`, no `{a: ""}`);
 * - a required string the user left untouched is missing (flagged as required,
 *   like a native `required` input); one the user cleared may be sent as `""`
 *   (when `""` satisfies its schema), and so is a restored `""`;
 * - `null` is sent only when the user chose null;
 * - integers are sent as JSON numbers, and integer text outside ±(2^53−1) is
 *   refused rather than rounded;
 * - defaults pre-fill fields; they are sent when their object is sent.
 *
 * Drafts are plain data (structured-cloneable), so they persist in IndexedDB.
 * DOM-free.
 *
 * @module
 */
import { isRecord, jsonEqual, type JsonRecord, type JsonValue } from '../internal/json.js';
import type { ArrayField, Field, FormModel, ObjectField, UnionField } from './model.js';
import { jsonType } from './value-checks.js';

/** Escapes one reference token of a JSON Pointer (`~` → `~0`, `/` → `~1`). */
export function escapeToken(token: string | number): string {
  const text = String(token);
  // Most names have nothing to escape: no regular expression per field on each render.
  return text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text;
}

/** Appends a token to a JSON Pointer: `child('/a', 'b/c')` → `/a/b~1c`. */
export function child(pointer: string, token: string | number): string {
  return `${pointer}/${escapeToken(token)}`;
}

/** `d: true` marks a draft that came from a schema `default` rather than from the user. */
export type Draft =
  /** A value the user typed or picked (or a default, with `d`). */
  | { k: 'v'; v: JsonValue; d?: true }
  /** Number text as typed; `bad` when the browser could not read it as a number. */
  | { k: 'text'; text: string; bad?: true }
  /** Raw JSON text (free-form fields, fallbacks, "edit as JSON"). */
  | { k: 'json'; text: string; d?: true }
  /** The user emptied the field. */
  | { k: 'clear' }
  /** The user chose `null`. */
  | { k: 'null' }
  | ObjectDraft
  | ArrayDraft
  | UnionDraft;

export interface ObjectDraft {
  k: 'obj';
  /** Declared members by name. */
  p: Record<string, Draft>;
  /** Extra members (`additionalProperties`, `patternProperties`), as key/value rows. */
  rows?: MapRow[];
  d?: true;
  /** Came from a value that had this object (even `{}`): sent even when nothing in it is filled. */
  keep?: true;
}

export interface MapRow {
  key: string;
  value?: Draft;
}

export interface ArrayDraft {
  k: 'arr';
  /** `undefined` is an item the user added but did not fill yet. */
  items: (Draft | undefined)[];
  d?: true;
  /** Came from a value that had this array (even `[]`): sent even when empty. */
  keep?: true;
}

export interface UnionDraft {
  k: 'union';
  /** Index of the chosen variant. */
  choice: number;
  /** What was entered in each variant, kept when the user switches back and forth. */
  by: Record<string, Draft>;
}

/** A problem the validator cannot see (it is about the typed text, not a JSON value). */
export interface LocalIssue {
  /** JSON Pointer of the value in the arguments. */
  pointer: string;
  message: string;
}

/** Defines an own property even for keys such as `__proto__` (plain assignment would change the prototype). */
export function put<T>(target: Record<string, T>, key: string, value: T): void {
  // Only `__proto__` is an accessor on a plain object: every other key can be assigned (faster).
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

const NUMBER_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER_TEXT = /^-?\d+$/;

/**
 * Reads number text strictly (JSON number grammar plus a leading `.`).
 * @returns the number, or a message saying why it cannot be sent.
 */
export function parseNumberText(text: string, integer: boolean): { value: number } | { message: string } {
  const trimmed = text.trim();
  if (!NUMBER_TEXT.test(trimmed)) return { message: 'Enter a number.' };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { message: 'This number is too large.' };
  if (INTEGER_TEXT.test(trimmed) && !Number.isSafeInteger(value)) {
    // Beyond 2^53−1 a double cannot hold every integer: the server would get a different number.
    return { message: `Whole numbers must be between −${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER} to be sent exactly.` };
  }
  if (integer && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return { message: `Whole numbers must be between −${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER} to be sent exactly.` };
  }
  return { value };
}

/** Parses raw JSON text; `""` means empty. */
export function parseJsonText(text: string): { empty: true } | { value: JsonValue } | { message: string } {
  if (text.trim() === '') return { empty: true };
  try {
    return { value: JSON.parse(text) as JsonValue };
  } catch (error) {
    return { message: `Not valid JSON: ${(error as Error).message}` };
  }
}

/**
 * A best-effort value of a draft without its schema (typed values, parsed
 * numbers and JSON), used to evaluate `if`/`then`/`else` and to pick a variant
 * while the user types.
 */
export function looseValue(draft: Draft | undefined): unknown {
  if (!draft) return undefined;
  switch (draft.k) {
    case 'v':
      return draft.v;
    case 'text': {
      const parsed = parseNumberText(draft.text, false);
      return 'value' in parsed ? parsed.value : undefined;
    }
    case 'json': {
      const parsed = parseJsonText(draft.text);
      return 'value' in parsed ? parsed.value : undefined;
    }
    case 'clear':
      return undefined;
    case 'null':
      return null;
    case 'obj': {
      const out: JsonRecord = {};
      for (const [key, sub] of Object.entries(draft.p)) {
        const value = looseValue(sub);
        if (value !== undefined) put(out, key, value);
      }
      for (const row of draft.rows ?? []) {
        const value = looseValue(row.value);
        if (row.key !== '' && value !== undefined) put(out, row.key, value);
      }
      return out;
    }
    case 'arr':
      return draft.items.map((item) => looseValue(item) ?? null);
    case 'union':
      return looseValue(own(draft.by, String(draft.choice)));
  }
}

/** Context for the child field of an object member. */
export function memberField(model: FormModel, parent: ObjectField, key: string, schema: unknown, draft: Draft | undefined): Field {
  // A member never typed into has no value to assemble.
  return model.member(parent, key, schema, draft === undefined ? undefined : () => looseValue(draft));
}

/** The field of the array item at `index`, or undefined when no item may be there. */
export function itemField(model: FormModel, parent: ArrayField, index: number, draft: Draft | undefined): Field | undefined {
  const schema = index < parent.prefix.length ? parent.prefix[index] : parent.items;
  if (schema === undefined) return undefined;
  return model.field(schema, { depth: parent.depth + 1, ancestors: parent.ancestors, value: looseValue(draft) });
}

/** The field of one union variant (its label stays the union's). */
export function variantField(model: FormModel, parent: UnionField, choice: number, draft: Draft | undefined): Field | undefined {
  const variant = parent.variants[choice];
  if (!variant) return undefined;
  const field = variant.problem
    ? model.field(false, { depth: parent.depth + 1, ancestors: parent.ancestors })
    : model.field(variant.schema, { ...(parent.key !== undefined ? { key: parent.key } : {}), depth: parent.depth + 1, ancestors: parent.ancestors, value: looseValue(draft) });
  if (variant.problem && field.kind === 'json') field.problem = variant.problem;
  return field;
}

/** The field of the value of a key/value row. */
export function rowField(model: FormModel, parent: ObjectField, key: string, draft: Draft | undefined): Field {
  return model.field(parent.additional ?? {}, { key, depth: parent.depth + 1, ancestors: parent.ancestors, value: looseValue(draft) });
}

/**
 * Which variant of a union a value belongs to: by discriminator; else among the
 * variants the value validates against (when `model` is given and its
 * validator can tell), the closest by JSON type and by how many of the
 * variant's properties it has.
 * @returns the index, or -1 for `undefined`.
 */
export function matchVariant(field: UnionField, value: unknown, model?: FormModel): number {
  if (value === undefined) return -1;
  if (field.discriminator && isRecord(value)) {
    const found = field.variants.findIndex((variant) => jsonEqual(variant.discriminatorValue, value[field.discriminator!]));
    if (found !== -1) return found;
  }
  // "next week" is a string like a date is, but only the text variant accepts it.
  const fitting = model ? field.variants.map((variant) => model.variantFits(variant, value) === true) : [];
  const narrowed = fitting.some(Boolean);
  const type = jsonType(value);
  let best = -1;
  let bestScore = -Infinity;
  field.variants.forEach((variant, index) => {
    if (narrowed && !fitting[index]) return;
    const schema = variant.schema;
    const declared = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : undefined;
    let score = 0;
    if (declared) {
      if (declared.includes(type) || (type === 'integer' && declared.includes('number'))) score += 10;
      else return;
    }
    if ('const' in schema) score += jsonEqual(schema.const, value) ? 20 : -100;
    if (Array.isArray(schema.enum)) score += schema.enum.some((option) => jsonEqual(option, value)) ? 20 : -100;
    if (isRecord(value) && isRecord(schema.properties)) {
      const properties = schema.properties;
      for (const key of Object.keys(value)) score += Object.hasOwn(properties, key) ? 2 : schema.additionalProperties === false ? -5 : 0;
      for (const key of Array.isArray(schema.required) ? schema.required : []) if (typeof key === 'string' && !Object.hasOwn(value, key)) score -= 3;
    }
    if (score > bestScore) {
      bestScore = score;
      best = index;
    }
  });
  return best;
}

/** The variant shown for a union draft: the chosen one, else the default's, else the first. */
export function currentChoice(field: UnionField, draft: Draft | undefined, model?: FormModel): number {
  if (draft?.k === 'union' && draft.choice >= 0 && draft.choice < field.variants.length) return draft.choice;
  const fromDefault = field.default ? matchVariant(field, field.default.value, model) : -1;
  return fromDefault === -1 ? 0 : fromDefault;
}

/**
 * Converts a JSON value into a draft for `field` (defaults, restored arguments,
 * "edit as form" after editing as JSON). A value the form cannot represent
 * becomes raw JSON for that subtree, so nothing is lost.
 */
export function valueToDraft(model: FormModel, field: Field, value: unknown, fromDefault = false): Draft {
  const mark = fromDefault ? { d: true as const } : {};
  // An object or array that is in the value stays in the arguments, even empty ({} or []).
  const container = fromDefault ? { d: true as const } : { keep: true as const };
  const raw = (): Draft => ({ k: 'json', text: JSON.stringify(value, null, 2) ?? '', ...mark });
  if (value === undefined) return { k: 'clear' };
  if (value === null) return field.nullable ? { k: 'null' } : field.kind === 'json' ? raw() : { k: 'v', v: null };
  switch (field.kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'enum':
    case 'const':
      return typeof value === 'object' ? raw() : { k: 'v', v: value as JsonValue, ...mark };
    case 'json':
      // The value itself, not its text: a default of a million items is sent as it is, never printed and parsed again.
      return { k: 'v', v: value as JsonValue, ...mark };
    case 'object': {
      if (!isRecord(value)) return raw();
      const draft: ObjectDraft = { k: 'obj', p: {}, ...container };
      const declared = new Set(field.properties.map((entry) => entry.key));
      for (const entry of field.properties) {
        if (!Object.hasOwn(value, entry.key)) continue;
        const sub = value[entry.key];
        put(draft.p, entry.key, valueToDraft(model, model.field(entry.schema, { key: entry.key, depth: field.depth + 1, ancestors: field.ancestors, value: sub }), sub, fromDefault));
      }
      for (const [key, sub] of Object.entries(value)) {
        if (declared.has(key)) continue;
        if (field.additional === undefined) return raw();
        (draft.rows ??= []).push({ key, value: valueToDraft(model, rowField(model, field, key, undefined), sub, fromDefault) });
      }
      return draft;
    }
    case 'array': {
      if (!Array.isArray(value)) return raw();
      const items: Draft[] = [];
      for (let i = 0; i < value.length; i++) {
        const sub = itemField(model, field, i, undefined);
        if (!sub) return raw();
        items.push(valueToDraft(model, sub, value[i], fromDefault));
      }
      return { k: 'arr', items, ...container };
    }
    case 'union': {
      const match = matchVariant(field, value, model);
      const choice = match === -1 ? 0 : match;
      const sub = variantField(model, field, choice, undefined);
      const by: Record<string, Draft> = {};
      if (sub) put(by, String(choice), valueToDraft(model, sub, value, fromDefault));
      return { k: 'union', choice, by };
    }
  }
}

/**
 * The draft a field starts from when the user has not touched it: its default,
 * or for a required array, `minItems` (or the tuple's length) empty items.
 */
export function effectiveDraft(model: FormModel, field: Field, draft: Draft | undefined, required: boolean): Draft | undefined {
  if (draft !== undefined) return draft;
  if (field.default) return valueToDraft(model, field, field.default.value, true);
  if (field.kind === 'array' && required && !field.choices) {
    const count = Math.max(field.minItems, field.prefix.length);
    if (count > 0) return { k: 'arr', items: Array.from({ length: count }, () => undefined), d: true };
  }
  return undefined;
}

/**
 * The draft of a folded object, list or union the user unfolds: present, and
 * empty (a list with its `minItems`), so it is built and shown one level
 * further, its own folded members included.
 */
export function unfoldDraft(model: FormModel, field: Field): Draft | undefined {
  switch (field.kind) {
    case 'object':
      return { k: 'obj', p: {} };
    case 'array':
      return { k: 'arr', items: Array.from({ length: Math.max(field.minItems, field.prefix.length) }, () => undefined) };
    case 'union':
      return { k: 'union', choice: currentChoice(field, undefined, model), by: {} };
    default:
      return undefined;
  }
}

interface Built {
  /** undefined: the member is omitted. */
  value?: JsonValue;
  /** Whether the user entered something here (so an optional parent object is sent). */
  filled: boolean;
}

/**
 * Builds the arguments object from the draft with the rules in this module's
 * header.
 *
 * @returns the arguments and the problems only the form can see (unreadable
 *   number text, invalid JSON text, unnamed map entries…). The arguments still
 *   need validating against the schema before they are sent.
 */
export function buildArguments(model: FormModel, draft: Draft | undefined, unions?: UnionChoice[]): { arguments: JsonRecord; issues: LocalIssue[] } {
  const issues: LocalIssue[] = [];
  const root = model.rootFor(() => looseValue(draft));
  const built = build(model, root, draft, true, '', issues, unions);
  let args: JsonRecord = {};
  if (isRecord(built.value)) args = built.value;
  else if (built.value !== undefined) issues.push({ pointer: '', message: 'The arguments must be a JSON object.' });
  return { arguments: args, issues };
}

/** A union met while building, with the variant in use (for variant-specific error messages). */
export interface UnionChoice {
  pointer: string;
  field: UnionField;
  choice: number;
  /** The built value of the union, when there is one. */
  value?: JsonValue;
}

/** Fields one build visits at most; past it, untouched containers are not descended into (see {@link untouchedAndFolded}). */
export const BUILD_BUDGET = 20_000;

/**
 * Whether an object, array or union the user has not touched is left folded:
 * reached again through its own `$ref` (a recursive schema: its required
 * children would expand to the depth limit, doubling at every level when
 * there are two), or past a budget of fields. Folded, it is not built beyond
 * what it is by itself (`{}` when required, `[]` for a required list), nor
 * rendered beyond a button that unfolds it; the user unfolds it level by level.
 */
export function untouchedAndFolded(field: Field, draft: Draft | undefined, overBudget: boolean): boolean {
  return draft === undefined && !field.default && (field.kind === 'object' || field.kind === 'array' || field.kind === 'union') && (field.recursive || overBudget);
}

/** Builds the value of one field (exported for the element's per-field preview and tests). */
export function build(
  model: FormModel,
  field: Field,
  draft: Draft | undefined,
  required: boolean,
  pointer: string,
  issues: LocalIssue[],
  unions?: UnionChoice[],
  budget: { left: number } = { left: BUILD_BUDGET },
): Built {
  budget.left--;
  if (pointer !== '' && untouchedAndFolded(field, draft, budget.left < 0)) {
    if (field.kind === 'object') return required ? { value: {}, filled: false } : { filled: false };
    if (field.kind === 'array') return required ? { value: [], filled: false } : { filled: false };
    return { filled: false };
  }
  if (draft?.k === 'null') {
    if (field.nullable || field.kind === 'json') return { value: null, filled: true };
    draft = undefined;
  }
  const effective = effectiveDraft(model, field, draft, required);
  const fromDefault = (effective as { d?: true } | undefined)?.d === true;

  // Any subtree may be edited as raw JSON.
  if (effective?.k === 'json') {
    const parsed = parseJsonText(effective.text);
    if ('empty' in parsed) return { filled: false };
    if ('message' in parsed) {
      issues.push({ pointer, message: parsed.message });
      return { filled: true };
    }
    return { value: parsed.value, filled: !fromDefault };
  }

  switch (field.kind) {
    case 'string': {
      if (effective?.k === 'v') return { value: effective.v, filled: !fromDefault };
      // Cleared on purpose: a required string goes as "" when "" is valid for it. Left untouched it
      // is missing, and the validator flags it as required, as a native `required` input would be.
      return effective?.k === 'clear' && required && field.acceptsEmpty ? { value: '', filled: false } : { filled: false };
    }
    case 'number': {
      if (effective?.k === 'v') return { value: effective.v, filled: !fromDefault };
      if (effective?.k === 'text') {
        if (effective.bad) {
          issues.push({ pointer, message: 'Enter a number.' });
          return { filled: true };
        }
        if (effective.text.trim() === '') return { filled: false };
        const parsed = parseNumberText(effective.text, field.integer);
        if ('message' in parsed) {
          issues.push({ pointer, message: parsed.message });
          return { filled: true };
        }
        return { value: parsed.value, filled: true };
      }
      return { filled: false };
    }
    case 'boolean':
      if (effective?.k === 'v') return { value: effective.v, filled: !fromDefault };
      if (effective?.k === 'clear') return { filled: false };
      return required ? { value: false, filled: false } : { filled: false };
    case 'enum':
      if (effective?.k === 'v') return { value: effective.v, filled: !fromDefault };
      if (effective?.k === 'text') {
        // Typed into the search of a long enum, and not one of its values.
        issues.push({ pointer, message: `“${effective.text.length > 60 ? `${effective.text.slice(0, 60)}…` : effective.text}” is not one of the allowed values; pick one from the list.` });
        return { filled: true };
      }
      if (required && field.options.length === 1 && effective?.k !== 'clear') return { value: field.options[0]!.value, filled: false };
      return { filled: false };
    case 'const':
      if (effective?.k === 'v') return { value: field.value, filled: !fromDefault };
      if (effective?.k === 'clear') return { filled: false };
      return required ? { value: field.value, filled: false } : { filled: false };
    case 'json':
      if (effective?.k === 'v') return { value: effective.v, filled: !fromDefault };
      return { filled: false };
    case 'object':
      return buildObject(model, field, effective?.k === 'obj' ? effective : undefined, required || pointer === '', pointer, issues, fromDefault, unions, budget);
    case 'array':
      return buildArray(model, field, effective?.k === 'arr' ? effective : undefined, required, pointer, issues, unions, budget);
    case 'union': {
      const choice = currentChoice(field, effective, model);
      const sub = effective?.k === 'union' ? own(effective.by, String(choice)) : undefined;
      const variant = variantField(model, field, choice, sub);
      if (!variant) return { filled: false };
      const trace: UnionChoice | undefined = unions ? { pointer, field, choice } : undefined;
      if (trace) unions!.push(trace);
      const built = build(model, variant, sub, required, pointer, issues, unions, budget);
      if (trace && built.value !== undefined) trace.value = built.value;
      return built;
    }
  }
}

function buildObject(
  model: FormModel,
  field: ObjectField,
  draft: ObjectDraft | undefined,
  present: boolean,
  pointer: string,
  issues: LocalIssue[],
  fromDefault: boolean,
  unions: UnionChoice[] | undefined,
  budget: { left: number },
): Built {
  const out: JsonRecord = {};
  let filled = false;
  for (const entry of field.properties) {
    const sub = own(draft?.p, entry.key);
    const member = memberField(model, field, entry.key, entry.schema, sub);
    const built = build(model, member, sub, entry.required, child(pointer, entry.key), issues, unions, budget);
    if (built.value !== undefined) put(out, entry.key, built.value);
    filled ||= built.filled;
  }
  const seen = new Set(field.properties.map((entry) => entry.key));
  (draft?.rows ?? []).forEach((row, index) => {
    const valueField = rowField(model, field, row.key, row.value);
    if (row.key === '') {
      const built = build(model, valueField, row.value, false, pointer, []);
      if (built.filled) {
        issues.push({ pointer, message: `Entry ${index + 1} needs a name.` });
        filled = true;
      }
      return;
    }
    filled = true;
    if (seen.has(row.key)) {
      issues.push({ pointer, message: `The name "${row.key}" is used twice.` });
      return;
    }
    seen.add(row.key);
    const built = build(model, valueField, row.value, true, child(pointer, row.key), issues, unions, budget);
    if (built.value === undefined) issues.push({ pointer: child(pointer, row.key), message: 'Enter a value.' });
    else put(out, row.key, built.value);
  });
  // An optional object with nothing filled in is not invented (C15); one that came from a default or a value is sent.
  if (draft?.keep) filled = true;
  if (present || filled || fromDefault) return { value: out as JsonValue, filled };
  return { filled: false };
}

function buildArray(
  model: FormModel,
  field: ArrayField,
  draft: ArrayDraft | undefined,
  required: boolean,
  pointer: string,
  issues: LocalIssue[],
  unions: UnionChoice[] | undefined,
  budget: { left: number },
): Built {
  if (!draft) return required ? { value: [], filled: false } : { filled: false };
  // Checkboxes or a list: the items in their order, repeats and all (what the user or a restored value gave).
  const values: JsonValue[] = [];
  draft.items.forEach((item, index) => {
    const sub = itemField(model, field, index, item);
    const at = child(pointer, index);
    if (!sub) {
      issues.push({ pointer: at, message: 'The schema allows no item here.' });
      values.push(null);
      return;
    }
    const built = build(model, sub, item, true, at, issues, unions, budget);
    if (built.value === undefined) {
      // A JSON array has no holes: keep the place, and block sending until it is filled.
      if (!issues.some((issue) => issue.pointer === at || issue.pointer.startsWith(`${at}/`))) issues.push({ pointer: at, message: 'Enter a value or remove this item.' });
      values.push(null);
    } else values.push(built.value);
  });
  // An optional array the user emptied again is omitted (C15), unless it is the schema's default or came from a value.
  if (values.length === 0 && !required && !draft.d && !draft.keep) return { filled: false };
  return { value: values, filled: draft.keep === true || (!draft.d && values.length > 0) };
}

// --- immutable draft edits -------------------------------------------------------------

/** A copy of an object draft with one member replaced (`undefined` removes it). */
export function withMember(draft: Draft | undefined, key: string, next: Draft | undefined): ObjectDraft {
  const base: ObjectDraft = draft?.k === 'obj' ? draft : { k: 'obj', p: {} };
  // Spread defines own properties (a `__proto__` member too); the other members keep their drafts.
  const p: Record<string, Draft> = { ...base.p };
  if (next === undefined) delete p[key];
  else put(p, key, next);
  return { k: 'obj', p, ...(base.rows ? { rows: base.rows } : {}) };
}

/** A copy of an object draft with new key/value rows. */
export function withRows(draft: Draft | undefined, rows: MapRow[]): ObjectDraft {
  const base: ObjectDraft = draft?.k === 'obj' ? draft : { k: 'obj', p: {} };
  return { k: 'obj', p: base.p, rows };
}

/**
 * Whether an array draft can be shown as checkboxes without losing anything:
 * every item one of the options, none twice. A value that cannot (a restored
 * repeat, an unknown value, an item being added) is shown as an ordered list.
 */
export function showsAsChoices(field: ArrayField, draft: Draft | undefined): boolean {
  if (!field.choices) return false;
  if (draft === undefined) return true;
  if (draft.k !== 'arr') return false;
  const seen: JsonValue[] = [];
  for (const item of draft.items) {
    if (item?.k !== 'v' || !field.choices.some((option) => jsonEqual(option.value, item.v)) || seen.some((value) => jsonEqual(value, item.v))) return false;
    seen.push(item.v);
  }
  return true;
}

/** A copy of an array draft with new items. */
export function withItems(items: (Draft | undefined)[]): ArrayDraft {
  return { k: 'arr', items };
}

/**
 * A copy of a union draft with variant `choice` chosen (what was typed in each
 * variant is kept). Members named in `shared` (declared by the union itself,
 * beside its alternatives: the same field in every variant) move along with
 * the user to the new variant.
 */
export function withChoice(draft: Draft | undefined, choice: number, shared: readonly string[] = []): UnionDraft {
  const base: UnionDraft = draft?.k === 'union' ? draft : { k: 'union', choice, by: {} };
  const from = own(base.by, String(base.choice));
  if (shared.length === 0 || base.choice === choice || from?.k !== 'obj') return { k: 'union', choice, by: base.by };
  let target: Draft | undefined = own(base.by, String(choice));
  for (const key of shared) if (Object.hasOwn(from.p, key)) target = withMember(target, key, from.p[key]);
  const by: Record<string, Draft> = {};
  for (const [name, value] of Object.entries(base.by)) put(by, name, value);
  if (target !== undefined) put(by, String(choice), target);
  return { k: 'union', choice, by };
}

/** Members a union declares beside its alternatives (shared by every variant), except its discriminator. */
export function sharedMembers(field: UnionField): string[] {
  const properties = field.schema.properties;
  if (!isRecord(properties)) return [];
  return Object.keys(properties).filter((key) => key !== field.discriminator);
}

/** A copy of a union draft with the draft of variant `choice` replaced (`undefined` removes it). */
export function withVariantDraft(draft: Draft | undefined, choice: number, next: Draft | undefined): UnionDraft {
  const base: UnionDraft = draft?.k === 'union' ? draft : { k: 'union', choice, by: {} };
  const by: Record<string, Draft> = {};
  for (const [name, value] of Object.entries(base.by)) if (name !== String(choice)) put(by, name, value);
  if (next !== undefined) put(by, String(choice), next);
  return { k: 'union', choice, by };
}
