/**
 * Turns one resolved part of a tool's `inputSchema` into the field it renders
 * as: which control (a text input, a number, a choice, a group of checkboxes,
 * an object, a list, a union of variants, raw JSON), its label, constraints,
 * options and default. The model (model.ts) resolves `$ref`, `allOf` and the
 * conditions first, and caches what this builds. DOM-free.
 *
 * @module
 */
import { isRecord, jsonEqual, type JsonRecord, type JsonValue } from '../internal/json.js';
import { SEARCH_OVER } from '../internal/long-list.js';
import type {
  ArrayField,
  EnumField,
  EnumOption,
  Field,
  FieldBase,
  FieldContext,
  FieldKind,
  JsonField,
  NumberField,
  ObjectField,
  PropertyEntry,
  StringField,
  UnionField,
  UnionVariant,
} from './field-kinds.js';
import { merge, type SchemaDocument, type SchemaProblem } from './resolve.js';
import { jsonType, patternMatches } from './value-checks.js';

/** Sets of enum options at most this large (and short) become radio groups. */
const RADIO_MAX_OPTIONS = 4;
const RADIO_MAX_LABEL = 24;

const FORMAT_INPUTS: Record<string, StringField['input']> = {
  date: 'date',
  'date-time': 'datetime-local',
  time: 'time',
  email: 'email',
  'idn-email': 'email',
  uri: 'url',
  url: 'url',
  iri: 'url',
};

/** Property names whose strings are usually long (code, messages…): a textarea fits better. */
const LONG_TEXT = /(^|[_-])(content|body|text|code|script|markdown|html|sql|prompt|instructions?|template|snippet)s?$|(Content|Body|Text|Code|Script|Markdown|Html|Sql|Prompt|Instructions|Template|Snippet)s?$/;

function typeList(type: unknown): string[] | undefined {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) return type as string[];
  return undefined;
}

function isAny(schema: unknown): boolean {
  return schema === undefined || schema === true || (isRecord(schema) && Object.keys(schema).length === 0);
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function isNullSchema(schema: JsonRecord): boolean {
  const types = typeList(schema.type);
  if (types && types.length === 1 && types[0] === 'null') return true;
  if ('const' in schema && schema.const === null) return true;
  return Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null;
}

/** `{const, title}` or a one-value `enum`: an option of a titled enum. */
function constOption(schema: JsonRecord): EnumOption | undefined {
  let value: unknown;
  if ('const' in schema) value = schema.const;
  else if (Array.isArray(schema.enum) && schema.enum.length === 1) value = schema.enum[0];
  else return undefined;
  const allowed = new Set(['const', 'enum', 'title', 'description', 'type', '$comment']);
  if (Object.keys(schema).some((key) => !allowed.has(key))) return undefined;
  if (value === null || value === undefined) return undefined;
  const label = typeof schema.title === 'string' ? schema.title : typeof value === 'string' ? value : JSON.stringify(value);
  return { value: value as JsonValue, label };
}

/** Builds the fields of one schema document (for `FormModel`, which keeps what it builds). */
export class FieldClassifier {
  readonly #document: SchemaDocument;
  /** The model's field for a subschema (an array's item, to offer its enum as checkboxes). */
  readonly #field: (node: unknown, context: FieldContext) => Field;
  /** Options per `enum` array: built once, not on every render (an enum may hold a million values). */
  readonly #enumOptions = new WeakMap<unknown[], { names: unknown; options: EnumOption[] }>();

  constructor(document: SchemaDocument, field: (node: unknown, context: FieldContext) => Field) {
    this.#document = document;
    this.#field = field;
  }

  #base(kind: FieldKind, schema: JsonRecord, context: FieldContext): FieldBase {
    const base: FieldBase = {
      kind,
      schema,
      label: typeof schema.title === 'string' && schema.title.trim() !== '' ? schema.title : (context.key ?? ''),
      readOnly: schema.readOnly === true,
      deprecated: schema.deprecated === true,
      nullable: false,
      depth: context.depth,
      recursive: false,
      ancestors: context.ancestors,
    };
    if (context.key !== undefined) base.key = context.key;
    if (typeof schema.description === 'string' && schema.description.trim() !== '') base.description = schema.description;
    if (Array.isArray(schema.examples) && schema.examples.length > 0) base.example = schema.examples[0] as JsonValue;
    if (typeof schema['x-mcp-header'] === 'string') base.header = schema['x-mcp-header'];
    return base;
  }

  /** A field edited as raw JSON, with why (`reason`, `problem`) and the JSON type it must have. */
  json(context: FieldContext, schema: JsonRecord, reason: JsonField['reason'], problem?: SchemaProblem, expects?: JsonField['expects']): JsonField {
    const field: JsonField = { ...this.#base('json', schema, context), kind: 'json', reason };
    if (problem) field.problem = problem;
    if (expects) field.expects = expects;
    return withDefault(field, schema);
  }

  /** The field a resolved schema (conditions already applied) renders as at `context`. */
  classify(schema: JsonRecord, context: FieldContext): Field {
    let types = typeList(schema.type);
    let nullable = false;
    if (types?.includes('null')) {
      nullable = true;
      types = types.filter((t) => t !== 'null');
    }
    if (schema.type !== undefined && types === undefined) {
      return this.json(context, schema, 'fallback', { keyword: 'type', message: `The "type" ${JSON.stringify(schema.type)} is not a JSON Schema type.` });
    }

    // Enumerations (with null → nullable).
    if (Array.isArray(schema.enum)) {
      let values = schema.enum as JsonValue[];
      if (values.includes(null)) {
        nullable = true;
        values = values.filter((v) => v !== null);
      }
      if (values.length === 0) {
        if (nullable) return nullableFlag({ ...this.#base('const', schema, context), kind: 'const', value: null }, false);
        return this.json(context, schema, 'fallback', { keyword: 'enum', message: 'The schema allows no value here (empty enum).' });
      }
      const names = Array.isArray(schema.enumNames) ? schema.enumNames : Array.isArray(schema['x-enumNames']) ? schema['x-enumNames'] : undefined;
      const cached = this.#enumOptions.get(schema.enum as unknown[]);
      const options =
        cached && cached.names === names
          ? cached.options
          : values.map((value, i) => ({
              value,
              label: typeof names?.[i] === 'string' ? (names[i] as string) : typeof value === 'string' ? value : JSON.stringify(value),
            }));
      if (!cached || cached.names !== names) this.#enumOptions.set(schema.enum as unknown[], { names, options });
      return withDefault(nullableFlag(this.#enumField(schema, context, options), nullable), schema);
    }
    if ('const' in schema) {
      return withDefault({ ...this.#base('const', schema, context), kind: 'const', value: schema.const as JsonValue }, schema);
    }

    // Alternatives.
    const oneOf = Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    const anyOf = Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
    if (oneOf || anyOf) {
      let alternatives = (oneOf ?? anyOf)!;
      if (oneOf && anyOf) {
        // Both present: a value satisfies one of each; pair them (bounded).
        alternatives = oneOf.length * anyOf.length <= 32 ? oneOf.flatMap((o) => anyOf.map((a) => ({ allOf: [o, a] }))) : oneOf;
      }
      return this.#alternatives(schema, context, alternatives, nullable);
    }

    // A list of types: each is a variant.
    if (types && types.length > 1) {
      const { type: _t, ...rest } = schema;
      const variants: UnionVariant[] = types.map((t) => ({ label: t, schema: { ...rest, type: t } }));
      const field: UnionField = { ...this.#base('union', schema, context), kind: 'union', variants };
      return withDefault(nullableFlag(field, nullable), schema);
    }

    const type = types?.[0] ?? inferType(schema);
    switch (type) {
      case 'string':
        return withDefault(nullableFlag(this.#stringField(schema, context), nullable), schema);
      case 'number':
      case 'integer':
        return withDefault(nullableFlag(this.#numberField(schema, context, type === 'integer'), nullable), schema);
      case 'boolean':
        return withDefault(nullableFlag({ ...this.#base('boolean', schema, context), kind: 'boolean' }, nullable), schema);
      case 'object':
        return withDefault(nullableFlag(this.#objectField(schema, context), nullable), schema);
      case 'array':
        return withDefault(nullableFlag(this.#arrayField(schema, context), nullable), schema);
      case 'null':
        return { ...this.#base('const', schema, context), kind: 'const', value: null };
      case undefined:
        return nullableFlag(this.json(context, schema, 'free'), nullable);
      default:
        return this.json(context, schema, 'fallback', { keyword: 'type', message: `The type ${JSON.stringify(type)} is not a JSON Schema type.` });
    }
  }

  #alternatives(schema: JsonRecord, context: FieldContext, alternatives: unknown[], nullable: boolean): Field {
    const { oneOf: _o, anyOf: _a, ...base } = schema;
    // Constraints of the outer schema apply to every alternative; its annotations label the field.
    const { title: _t, description: _d, default: _def, examples: _e, ...shared } = base;
    const variants: UnionVariant[] = [];
    for (const alternative of alternatives) {
      // Resolution is cached and counted against the budget there: re-rendering costs nothing.
      const resolved = this.#document.resolve(alternative);
      if (!resolved.problem && isNullSchema(resolved.schema)) {
        nullable = true;
        continue;
      }
      const variant: UnionVariant = { label: '', schema: merge(resolved.schema, shared), node: alternative };
      if (resolved.problem) variant.problem = resolved.problem;
      variants.push(variant);
    }
    if (variants.length === 0) return { ...this.#base('const', schema, context), kind: 'const', value: null };

    // A titled enum: every alternative is `{const, title}`.
    const options = variants.map((variant) => (variant.problem ? undefined : constOption(variant.schema)));
    if (options.every((option) => option !== undefined)) {
      return withDefault(nullableFlag(this.#enumField(schema, context, options as EnumOption[]), nullable), schema);
    }
    // A single alternative besides null: the nullable X of Zod `.nullish()` or Python `X | None`.
    if (variants.length === 1 && !variants[0]!.problem) {
      const merged = merge(base, variants[0]!.schema);
      const field = this.classify(merged, context);
      return withDefault(nullableFlag(field, nullable || field.nullable), base);
    }

    const field: UnionField = { ...this.#base('union', schema, context), kind: 'union', variants };
    const discriminator = findDiscriminator(this.#document, variants);
    variants.forEach((variant, i) => {
      if (discriminator) {
        const value = discriminatorValue(this.#document, variant.schema, discriminator);
        if (value !== undefined) variant.discriminatorValue = value;
      }
      variant.label =
        typeof variant.schema.title === 'string' && variant.schema.title.trim() !== ''
          ? variant.schema.title
          : variant.discriminatorValue !== undefined
            ? typeof variant.discriminatorValue === 'string'
              ? variant.discriminatorValue
              : JSON.stringify(variant.discriminatorValue)
            : describeShape(this.#document, variant.schema) || `Option ${i + 1}`;
    });
    // Identical labels would make the picker ambiguous: number them.
    const counts = new Map<string, number>();
    for (const variant of variants) counts.set(variant.label, (counts.get(variant.label) ?? 0) + 1);
    variants.forEach((variant, i) => {
      if ((counts.get(variant.label) ?? 0) > 1) variant.label = `${variant.label} (option ${i + 1})`;
    });
    if (discriminator) field.discriminator = discriminator;
    return withDefault(nullableFlag(field, nullable), schema);
  }

  #enumField(schema: JsonRecord, context: FieldContext, options: EnumOption[]): EnumField {
    const radio = options.length <= RADIO_MAX_OPTIONS && options.every((option) => option.label.length <= RADIO_MAX_LABEL);
    return { ...this.#base('enum', schema, context), kind: 'enum', options, widget: radio ? 'radio' : options.length > SEARCH_OVER ? 'search' : 'select' };
  }

  #stringField(schema: JsonRecord, context: FieldContext): StringField {
    const format = typeof schema.format === 'string' ? schema.format : undefined;
    const minLength = num(schema.minLength);
    const maxLength = num(schema.maxLength);
    const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
    let input: StringField['input'] = (format && FORMAT_INPUTS[format]) || 'text';
    if (input === 'text' && !format && (typeof schema.contentMediaType === 'string' || (maxLength ?? Infinity) > 200) && context.key !== undefined && LONG_TEXT.test(context.key)) {
      input = 'textarea';
    }
    // `""` is a valid value only if every constraint of the field allows it.
    const acceptsEmpty = (minLength ?? 0) === 0 && format === undefined && (pattern === undefined || patternMatches(pattern, ''));
    const field: StringField = { ...this.#base('string', schema, context), kind: 'string', input, acceptsEmpty };
    if (format) field.format = format;
    if (minLength !== undefined) field.minLength = minLength;
    if (maxLength !== undefined) field.maxLength = maxLength;
    if (pattern !== undefined) field.pattern = pattern;
    return field;
  }

  #numberField(schema: JsonRecord, context: FieldContext, integer: boolean): NumberField {
    const field: NumberField = { ...this.#base('number', schema, context), kind: 'number', integer };
    for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const) {
      const value = num(schema[key]);
      if (value !== undefined) field[key] = value;
    }
    return field;
  }

  #objectField(schema: JsonRecord, context: FieldContext): Field {
    const declared = isRecord(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : []);
    const patterns = isRecord(schema.patternProperties) ? Object.values(schema.patternProperties) : [];
    let additional: unknown = schema.additionalProperties;
    // Members matching `patternProperties` are edited as rows too (any value when several patterns differ).
    if (patterns.length === 1 && (isAny(additional) || additional === false)) additional = patterns[0];
    else if (patterns.length > 1 && (isAny(additional) || additional === false)) additional = {};

    if (Object.keys(declared).length === 0 && isAny(additional) && patterns.length < 2 && context.depth > 0) {
      // No members described: any object. JSON is the right editor for that.
      return this.json(context, schema, 'free', undefined, 'object');
    }
    const properties: PropertyEntry[] = Object.entries(declared).map(([key, sub]) => ({ key, required: required.has(key), schema: sub }));
    for (const key of required) {
      if (!Object.hasOwn(declared, key)) properties.push({ key, required: true, schema: isAny(additional) || additional === false ? {} : additional });
    }
    const field: ObjectField = { ...this.#base('object', schema, context), kind: 'object', properties, conditional: false };
    // Extra members are offered only when the schema describes them (a schema, or several patterns).
    if (additional !== undefined && additional !== false && additional !== true && !(isAny(additional) && patterns.length < 2)) field.additional = additional;
    return field;
  }

  #arrayField(schema: JsonRecord, context: FieldContext): Field {
    const draft07 = this.#document.dialect === 'draft-07';
    let prefix: unknown[] = [];
    let items: unknown;
    if (Array.isArray(schema.prefixItems) && !draft07) {
      prefix = schema.prefixItems;
      items = schema.items;
    } else if (Array.isArray(schema.items)) {
      prefix = schema.items;
      items = schema.additionalItems;
    } else {
      items = schema.items;
    }
    if (prefix.length === 0 && isAny(items)) return this.json(context, schema, 'free', undefined, 'array');
    // A list that starts with thousands of items (minItems, a tuple, a default) would render thousands of
    // controls at once: the JSON editor takes it instead, bounded.
    const start = Math.max(num(schema.minItems) ?? 0, prefix.length, Array.isArray(schema.default) ? schema.default.length : 0);
    if (start > MAX_LIST_ITEMS) {
      return this.json(context, schema, 'fallback', { keyword: 'minItems', message: `This list starts with ${start} items, too many to show as fields (at most ${MAX_LIST_ITEMS}); enter it as JSON.` }, 'array');
    }
    const field: ArrayField = {
      ...this.#base('array', schema, context),
      kind: 'array',
      prefix,
      minItems: num(schema.minItems) ?? 0,
      uniqueItems: schema.uniqueItems === true,
    };
    const maxItems = num(schema.maxItems);
    if (maxItems !== undefined) field.maxItems = maxItems;
    if (items !== undefined && items !== false) field.items = isAny(items) ? {} : items;
    if (prefix.length === 0 && items !== undefined && items !== false && field.uniqueItems) {
      // A set of enumerated values (no repeats: order carries no meaning) is a group of checkboxes.
      // Without uniqueItems, order and repeats may matter: an ordered list, one picker per item.
      const itemField = this.#field(items, { depth: context.depth + 1, ancestors: context.ancestors });
      // Beyond SEARCH_OVER values, checkboxes would be a wall: a list of searchable pickers instead.
      if (itemField.kind === 'enum' && !itemField.nullable && itemField.options.length <= SEARCH_OVER) field.choices = itemField.options;
    }
    return field;
  }
}

/** The most items a list may start with and still be shown as fields. */
export const MAX_LIST_ITEMS = 200;

function inferType(schema: JsonRecord): string | undefined {
  if (isRecord(schema.properties) || isRecord(schema.patternProperties) || schema.additionalProperties !== undefined || Array.isArray(schema.required)) return 'object';
  if (schema.items !== undefined || schema.prefixItems !== undefined || schema.minItems !== undefined || schema.maxItems !== undefined) return 'array';
  if (schema.minLength !== undefined || schema.maxLength !== undefined || schema.pattern !== undefined || schema.format !== undefined) return 'string';
  if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined || schema.exclusiveMinimum !== undefined || schema.exclusiveMaximum !== undefined) return 'number';
  return undefined;
}

function nullableFlag<T extends Field>(field: T, nullable: boolean): T {
  if (nullable) field.nullable = true;
  return field;
}

/** Whether `value` can pre-fill `field` (right kind; `null` never pre-fills). */
export function fits(field: Field, value: unknown): boolean {
  if (value === null || value === undefined) return false;
  switch (field.kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && (!field.integer || Number.isInteger(value));
    case 'boolean':
      return typeof value === 'boolean';
    case 'enum':
      return field.options.some((option) => jsonEqual(option.value, value));
    case 'const':
      return jsonEqual(field.value, value);
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'json':
      return field.expects === undefined || jsonType(value) === field.expects;
    case 'union':
      return true;
  }
}

function withDefault<T extends Field>(field: T, schema: JsonRecord): T {
  if ('default' in schema && fits(field, schema.default)) field.default = { value: schema.default as JsonValue };
  return field;
}

function discriminatorValue(document: SchemaDocument, schema: JsonRecord, property: string): JsonValue | undefined {
  if (!isRecord(schema.properties) || !(property in schema.properties)) return undefined;
  const resolved = document.resolve(schema.properties[property]);
  if (resolved.problem) return undefined;
  const s = resolved.schema;
  if ('const' in s) return s.const as JsonValue;
  if (Array.isArray(s.enum) && s.enum.length === 1) return s.enum[0] as JsonValue;
  return undefined;
}

/** A property every object variant fixes to a distinct constant (the discriminator), if any. */
function findDiscriminator(document: SchemaDocument, variants: UnionVariant[]): string | undefined {
  const first = variants[0]?.schema.properties;
  if (!isRecord(first)) return undefined;
  for (const property of Object.keys(first)) {
    const values: JsonValue[] = [];
    let ok = true;
    for (const variant of variants) {
      const value = variant.problem ? undefined : discriminatorValue(document, variant.schema, property);
      if (value === undefined || values.some((seen) => jsonEqual(seen, value))) {
        ok = false;
        break;
      }
      values.push(value);
    }
    if (ok) return property;
  }
  return undefined;
}

/** A short name for a variant without a title: `text`, `list of text`, `object`… */
function describeShape(document: SchemaDocument, schema: JsonRecord, depth = 0): string {
  const types = typeList(schema.type)?.filter((t) => t !== 'null');
  const type = types?.length === 1 ? types[0] : inferType(schema);
  switch (type) {
    case 'string':
      return typeof schema.format === 'string' ? schema.format : 'text';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'yes/no';
    case 'array': {
      if (depth > 2 || isAny(schema.items) || Array.isArray(schema.items)) return 'list';
      const item = document.resolve(schema.items);
      return `list of ${describeShape(document, item.schema, depth + 1) || 'values'}`;
    }
    case 'object': {
      const keys = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
      const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [];
      const shown = (required.length > 0 ? required : keys).slice(0, 3);
      return shown.length > 0 ? `object with ${shown.join(', ')}` : 'object';
    }
    default:
      return '';
  }
}
