/**
 * The tool form's field model: turns a tool's `inputSchema` into fields (what
 * control, label, constraints, variants…), one level at a time, so recursive
 * schemas expand only as far as the user goes. DOM-free; unit-tested in Node.
 *
 * Spec: server/tools "Tool" (`inputSchema`), basic/index "JSON Schema Usage".
 *
 * @module
 */
import { compileSchemaSync, checkSchemaBounds, type McpClientError, type Validator } from '../../src/index.js';
import { loadedPatternEngine, patternVerdict } from '../../src/schema/patterns/pattern-check.js';
import { isRecord, jsonEqual, jsonType, type JsonRecord, type JsonValue } from '../internal/json.js';
import { SEARCH_OVER } from '../internal/long-list.js';
import {
  conditionsOf,
  DEFAULT_ENGINE_LIMITS,
  merge,
  SchemaDocument,
  withoutConditions,
  type EngineLimits,
  type SchemaProblem,
} from './resolve.js';

export type { SchemaProblem } from './resolve.js';

/** What a field renders as. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'enum' | 'const' | 'object' | 'array' | 'union' | 'json';

interface FieldBase {
  kind: FieldKind;
  /** The schema after `$ref`, `allOf` and the live `if`/`then`/`else` were folded in. */
  schema: JsonRecord;
  /** Property name, when the field is an object member. */
  key?: string;
  /** `title`, else the property name. */
  label: string;
  description?: string;
  readOnly: boolean;
  deprecated: boolean;
  /** Whether `null` is allowed (`type: [X, "null"]`, `anyOf [X, {type: "null"}]`, `enum` with null). */
  nullable: boolean;
  /** The schema's `default`, when it fits the field (a `null` default is never pre-filled). */
  default?: { value: JsonValue };
  /** First `examples` entry, shown as a placeholder. */
  example?: JsonValue;
  /** `x-mcp-header` name: the value is also sent as the `Mcp-Param-{name}` HTTP header. */
  header?: string;
  /** Nesting level (0 = the arguments object). */
  depth: number;
  /** Reached through a `$ref` that an ancestor already followed (a recursive schema). */
  recursive: boolean;
  /** `$ref` targets followed so far, for recursion detection below this field. */
  ancestors: readonly object[];
}

export interface StringField extends FieldBase {
  kind: 'string';
  format?: string;
  /** The native control: an `<input type>` or a `<textarea>`. */
  input: 'text' | 'email' | 'url' | 'date' | 'datetime-local' | 'time' | 'textarea';
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** Whether `""` satisfies the field's own constraints (then a required string the user emptied may be sent as `""`). */
  acceptsEmpty: boolean;
}

export interface NumberField extends FieldBase {
  kind: 'number';
  integer: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
}

export interface BooleanField extends FieldBase {
  kind: 'boolean';
}

/** One choice of an enumeration. */
export interface EnumOption {
  value: JsonValue;
  label: string;
}

export interface EnumField extends FieldBase {
  kind: 'enum';
  options: EnumOption[];
  /**
   * A radio group for small sets, a select up to `SEARCH_OVER` options, and
   * above that a search: a text input checked against the enum, listing a few
   * matches (a million `<option>`s would freeze the page).
   */
  widget: 'select' | 'radio' | 'search';
}

export interface ConstField extends FieldBase {
  kind: 'const';
  value: JsonValue;
}

/** A declared member of an object field. Its schema is resolved when rendered. */
export interface PropertyEntry {
  key: string;
  required: boolean;
  schema: unknown;
}

export interface ObjectField extends FieldBase {
  kind: 'object';
  properties: PropertyEntry[];
  /** Schema of extra members, edited as key/value rows; undefined when there are none to add. */
  additional?: unknown;
  /** Whether `if`/`then`/`else` or `dependentSchemas` shaped this field from the live value. */
  conditional: boolean;
}

export interface ArrayField extends FieldBase {
  kind: 'array';
  /** Positional item schemas (`prefixItems`, draft-07 tuple `items`). */
  prefix: unknown[];
  /** Schema of the items after the prefix; undefined when no more items are allowed. */
  items?: unknown;
  minItems: number;
  maxItems?: number;
  uniqueItems: boolean;
  /**
   * Set for arrays of enumerated values with `uniqueItems` (at most
   * `SEARCH_OVER` of them): rendered as a group of checkboxes, as long as the
   * value has no repeats or unknown values (see `showsAsChoices`); otherwise
   * as an ordered list, so nothing is lost.
   */
  choices?: EnumOption[];
}

/** One alternative of a `oneOf`/`anyOf` (or of a `type` list). */
export interface UnionVariant {
  label: string;
  schema: JsonRecord;
  /** The alternative as written in the document (to validate against it alone). */
  node?: unknown;
  /** Value of the discriminator property in this variant. */
  discriminatorValue?: JsonValue;
  problem?: SchemaProblem;
}

export interface UnionField extends FieldBase {
  kind: 'union';
  variants: UnionVariant[];
  /** Property whose `const` tells the variants apart, when there is one. */
  discriminator?: string;
}

export interface JsonField extends FieldBase {
  kind: 'json';
  /**
   * `free`: the schema accepts any value (or any object/array), so JSON is the
   * right editor. `fallback`: the schema could not be turned into controls; see `problem`.
   */
  reason: 'free' | 'fallback';
  problem?: SchemaProblem;
  /** The JSON type the value must have, when the schema says. */
  expects?: 'object' | 'array';
}

export type Field = StringField | NumberField | BooleanField | EnumField | ConstField | ObjectField | ArrayField | UnionField | JsonField;

/** Where a field sits: its property name, nesting depth, followed refs and the live value. */
export interface FieldContext {
  key?: string;
  depth: number;
  ancestors: readonly object[];
  /** The current value at this place (for `if`/`then`/`else` and `dependentSchemas`). */
  value?: unknown;
}

/** Evaluates an `if` subschema against a value; undefined when it cannot tell. */
export type ConditionEvaluator = (ifSchema: unknown, value: unknown) => boolean | undefined;

export interface FormModelOptions {
  limits?: EngineLimits;
  /** Custom `if` evaluation; default: the validator of `src/schema/schema.ts` (must be loaded). */
  evaluate?: ConditionEvaluator;
}

/** Sets of enum options at most this large (and short) become radio groups. */
const RADIO_MAX_OPTIONS = 4;
const RADIO_MAX_LABEL = 24;
/** Loops of `if`/`then`/`else` applied to one field (a `then` may carry another `if`). */
const MAX_CONDITION_ROUNDS = 8;

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

/**
 * Whether a schema `pattern` (ECMA-262, Unicode mode, unanchored) matches
 * `text`, on the kit's linear-time engine (see `src/schema/patterns/pattern-check.ts`).
 * @returns undefined when it cannot be decided safely: the engine is not
 *   loaded yet (it loads with the validator for schemas with patterns), or the
 *   pattern is one the kit does not run (the validator reports it); false when
 *   the pattern does not compile.
 */
export function patternCheck(pattern: string, text: string): boolean | undefined {
  const engine = loadedPatternEngine();
  if (!engine) return undefined;
  try {
    const verdict = patternVerdict(engine, pattern);
    return verdict.how === 'skip' ? undefined : verdict.matcher.test(text);
  } catch {
    return false;
  }
}

/**
 * {@link patternCheck}, counting what cannot be decided as matching. Before the
 * engine has loaded (the shape check loads with it: issue 18), the browser's
 * engine runs it only on the empty text, which cannot take long.
 */
export function patternMatches(pattern: string, text: string): boolean {
  const checked = patternCheck(pattern, text);
  if (checked !== undefined || loadedPatternEngine()) return checked ?? true;
  if (text !== '') return true;
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

/** The ancestors of the root: one shared array, so the fields below it are cached (see `FormModel.field`). */
const NO_ANCESTORS: readonly object[] = [];
/** The cache place of the root field (see `FormModel.field`). */
const ROOT_PLACE = '0\u0000\u0000';

/**
 * The form model of one `inputSchema`. Fields are built on demand with
 * {@link FormModel.field}: the form renders one level, then asks for the next.
 *
 * Work is bounded: the document must pass `checkSchemaBounds` (depth, node
 * count), nesting deeper than `limits.maxDepth` and resolution beyond
 * `limits.maxSteps` turn the rest into raw-JSON fields with the reason.
 */

export class FormModel {
  readonly inputSchema: unknown;
  readonly document: SchemaDocument;
  /** Why the whole schema cannot be used as a form (then the root is a JSON field). */
  readonly problem: SchemaProblem | undefined;
  readonly #evaluate: ConditionEvaluator;
  readonly #validators = new WeakMap<object, Validator | null>();
  /** Options per `enum` array: built once, not on every render (an enum may hold a million values). */
  readonly #enumOptions = new WeakMap<unknown[], { names: unknown; options: EnumOption[] }>();
  /**
   * True once building fields asked for the validator before it was loaded (an
   * `if` to evaluate, a union variant to place): the form then loads it at once
   * instead of on the first check.
   */
  validatorMissed = false;

  constructor(inputSchema: unknown, options: FormModelOptions = {}) {
    this.inputSchema = inputSchema;
    const overBound = checkSchemaBounds(inputSchema);
    this.document = new SchemaDocument(overBound ? {} : inputSchema, options.limits ?? DEFAULT_ENGINE_LIMITS);
    const dialect = this.document.dialect;
    if (overBound) {
      this.problem = { keyword: 'bounds', message: `The input schema is too large to turn into a form safely (${overBound}); edit the arguments as JSON.` };
    } else if (typeof dialect === 'object') {
      this.problem = {
        keyword: '$schema',
        message: `The input schema declares the JSON Schema dialect ${JSON.stringify(dialect.unsupported)}, which is not supported (supported: 2020-12, draft-07); edit the arguments as JSON.`,
      };
    } else if (!isRecord(inputSchema)) {
      this.problem = { keyword: 'type', message: 'The input schema is not a JSON object; edit the arguments as JSON.' };
    }
    this.#evaluate = options.evaluate ?? conditionEvaluator(this.document, () => (this.validatorMissed = true));
  }

  /**
   * A validator for one subschema of the document on its own (e.g. the chosen
   * variant of a union, for precise error messages). Cached; undefined when the
   * validator is not loaded or the subschema does not compile.
   */
  validatorFor(node: unknown): Validator | undefined {
    if (!isRecord(node)) return undefined;
    let validator = this.#validators.get(node);
    if (validator === undefined) {
      validator = null;
      try {
        validator = compileSchemaSync(wrapForCompile(this.document, node));
      } catch (error) {
        // Not loaded yet, or not compilable: the caller falls back to the whole schema.
        if ((error as McpClientError).data?.loaded === false) this.validatorMissed = true;
      }
      if (validator) this.#validators.set(node, validator);
    }
    return validator ?? undefined;
  }

  /**
   * The schemas a union variant stands for, as the validator meets them: a
   * variant the form made by pairing alternatives (`oneOf` × `anyOf`, or two
   * `allOf` branches that each carry alternatives) is an `allOf` of document
   * nodes, which the validator checks one by one.
   */
  variantParts(variant: UnionVariant): unknown[] {
    const parts: unknown[] = [];
    const visit = (node: unknown, depth: number) => {
      const paired = isRecord(node) && this.document.pointerOf(node) === undefined && Array.isArray(node.allOf) && Object.keys(node).length === 1;
      if (paired && depth < 8) for (const sub of node.allOf as unknown[]) visit(sub, depth + 1);
      else parts.push(node);
    };
    visit(variant.node, 0);
    return parts;
  }

  /**
   * Whether `value` satisfies a union variant (each schema it stands for, on
   * its own), as the validator says; undefined when it cannot tell (not loaded
   * yet, a variant that does not compile alone, a variant of a `type` list).
   */
  variantFits(variant: UnionVariant, value: unknown): boolean | undefined {
    if (variant.node === undefined) return undefined;
    let fits = true;
    for (const part of this.variantParts(variant)) {
      if (part === true || part === false) {
        fits &&= part;
        continue;
      }
      const validate = this.validatorFor(part);
      if (!validate) return undefined;
      if (!validate(value).valid) fits = false;
    }
    return fits;
  }

  /**
   * A non-fatal remark about the root schema (it does not declare
   * `"type": "object"`, as server/tools "Tool" requires); the form still works.
   */
  get notice(): SchemaProblem | undefined {
    if (this.problem || !isRecord(this.inputSchema)) return undefined;
    const root = this.field(this.inputSchema, { depth: 0, ancestors: NO_ANCESTORS });
    if (root.kind === 'json' && root.reason === 'free') {
      return { keyword: 'type', message: 'The input schema does not describe an object (MCP requires "type": "object"), so no arguments are declared; add any as JSON.' };
    }
    return undefined;
  }

  /**
   * The root field for a draft whose value `value()` gives, asked only when the
   * root depends on it (a keystroke need not assemble the whole value otherwise).
   */
  rootFor(value: () => unknown): Field {
    if (!this.problem && isRecord(this.inputSchema)) {
      const cached = this.#fields.get(this.inputSchema)?.get(NO_ANCESTORS)?.get(ROOT_PLACE);
      if (cached && !(cached.kind === 'json' && cached.reason === 'free')) return cached;
    }
    return this.root(value());
  }

  /** The field for the whole arguments object, shaped by the current `value`. */
  root(value?: unknown): Field {
    if (this.problem) return this.#json({ depth: 0, ancestors: [] }, {}, 'fallback', this.problem, 'object');
    const field = this.field(this.inputSchema, { depth: 0, ancestors: NO_ANCESTORS, value });
    if (field.kind === 'json' && field.reason === 'free') {
      // Arguments are always an object: a schema that says nothing more declares no arguments.
      const { reason: _r, expects: _e, ...rest } = field;
      return { ...rest, kind: 'object', properties: [], conditional: false };
    }
    return field;
  }

  /**
   * Fields that do not depend on the value (no `if`/`then`/`else` or
   * `dependentSchemas` where they are): built once per place in the schema, not
   * on every render. Keyed by the schema node, then the ancestors array (shared
   * by every child of a cached field) and the key and depth. A member whose
   * schema is not an object (`true`, `false`) is keyed by its parent field
   * instead (see {@link member}).
   */
  readonly #fields = new WeakMap<object, WeakMap<readonly object[], Map<string, Field>>>();

  /** The field for a subschema at `context`. */
  field(node: unknown, context: FieldContext): Field {
    if (typeof node !== 'object' || node === null) return this.#buildField(node, context);
    return this.#cached(node, context, () => this.#buildField(node, context));
  }

  /** The field cached for `node` at the place `context` gives (see `#fields`), else `build()`'s, kept unless it depends on the value. */
  #cached(node: object, context: FieldContext, build: () => Field): Field {
    let byAncestors = this.#fields.get(node);
    const place = `${context.depth}\u0000${context.key ?? '\u0000'}`;
    const cached = byAncestors?.get(context.ancestors)?.get(place);
    if (cached) return cached;
    const field = build();
    if (!this.#valueDependent.has(field)) {
      if (!byAncestors) this.#fields.set(node, (byAncestors = new WeakMap()));
      let places = byAncestors.get(context.ancestors);
      if (!places) byAncestors.set(context.ancestors, (places = new Map()));
      places.set(place, field);
    }
    return field;
  }

  /** Fields built from a schema whose conditions were applied to a value: never cached. */
  readonly #valueDependent = new WeakSet<Field>();

  /**
   * The field of member `key` of `parent` (what `field` gives for its schema
   * one level down): forms re-render and rebuild every member of an object on
   * each keystroke. `value` (the member's value, or a function giving it) is
   * asked only for a member not cached, which may depend on its value
   * (`if`/`then`/`else`, `dependentSchemas`). A member whose schema is not an
   * object (`true`, `false`) is cached too, under its parent: only objects key the cache.
   */
  member(parent: ObjectField, key: string, schema: unknown, value: unknown): Field {
    const context: FieldContext = { key, depth: parent.depth + 1, ancestors: parent.ancestors };
    const node = typeof schema === 'object' && schema !== null ? schema : parent;
    return this.#cached(node, context, () => this.#buildField(schema, { ...context, value: typeof value === 'function' ? value() : value }));
  }

  #buildField(node: unknown, context: FieldContext): Field {
    if (context.depth > this.document.limits.maxDepth) {
      return this.#json(context, {}, 'fallback', {
        keyword: 'depth',
        message: `Nested deeper than ${this.document.limits.maxDepth} levels; edit this part as JSON.`,
      });
    }
    const resolved = this.document.resolve(node);
    const recursive = resolved.refTargets.some((target) => context.ancestors.includes(target));
    const ancestors = resolved.refTargets.length > 0 ? [...context.ancestors, ...resolved.refTargets] : context.ancestors;
    const here: FieldContext = { ...context, ancestors };
    if (resolved.problem) return this.#json(here, resolved.schema, 'fallback', resolved.problem);
    const value = conditionsOf(resolved.schema).length > 0 ? this.#withPropertyDefaults(resolved.schema, context.value) : context.value;
    const { schema, conditional } = this.#applyConditions(resolved.schema, value);
    const field = this.#classify(schema, here);
    if (recursive) field.recursive = true;
    if (field.kind === 'object' && conditional) field.conditional = true;
    // Shaped by the value (or by whether the validator was there to evaluate an `if`): built anew each time.
    if (conditional || isRecord(resolved.schema.dependentSchemas)) this.#valueDependent.add(field);
    return field;
  }

  /**
   * The value conditions are evaluated against: what the user entered, plus the
   * defaults of members left untouched (the form shows and sends those too).
   */
  #withPropertyDefaults(schema: JsonRecord, value: unknown): unknown {
    if (!isRecord(schema.properties) || (value !== undefined && !isRecord(value))) return value;
    const out: JsonRecord = {};
    for (const [key, sub] of Object.entries(schema.properties)) {
      const resolved = this.document.resolve(sub);
      const fallback = resolved.schema.default;
      if (fallback !== undefined && fallback !== null) Object.defineProperty(out, key, { value: fallback, enumerable: true, writable: true, configurable: true });
    }
    for (const [key, sub] of Object.entries(value ?? {})) Object.defineProperty(out, key, { value: sub, enumerable: true, writable: true, configurable: true });
    return out;
  }

  /** Folds the `if`/`then`/`else` and `dependentSchemas` that apply to `value` into `schema`. */
  #applyConditions(schema: JsonRecord, value: unknown): { schema: JsonRecord; conditional: boolean } {
    let conditional = false;
    for (let round = 0; round < MAX_CONDITION_ROUNDS; round++) {
      const conditions = conditionsOf(schema);
      if (conditions.length === 0) break;
      conditional = true;
      let next = withoutConditions(schema);
      for (const condition of conditions) {
        const holds = this.#evaluate(condition.if, value);
        const branch = holds === true ? condition.then : holds === false ? condition.else : undefined;
        if (branch === undefined) continue;
        const resolved = this.document.resolve(branch);
        if (!resolved.problem) next = merge(next, resolved.schema);
      }
      schema = next;
    }
    if (isRecord(schema.dependentSchemas) && isRecord(value)) {
      conditional = true;
      let next: JsonRecord = { ...schema };
      for (const [key, sub] of Object.entries(schema.dependentSchemas)) {
        if (!Object.hasOwn(value, key)) continue;
        const resolved = this.document.resolve(sub);
        if (!resolved.problem) next = merge(next, resolved.schema);
      }
      schema = next;
    }
    return { schema, conditional };
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

  #json(context: FieldContext, schema: JsonRecord, reason: JsonField['reason'], problem?: SchemaProblem, expects?: JsonField['expects']): JsonField {
    const field: JsonField = { ...this.#base('json', schema, context), kind: 'json', reason };
    if (problem) field.problem = problem;
    if (expects) field.expects = expects;
    return withDefault(field, schema);
  }

  #classify(schema: JsonRecord, context: FieldContext): Field {
    let types = typeList(schema.type);
    let nullable = false;
    if (types?.includes('null')) {
      nullable = true;
      types = types.filter((t) => t !== 'null');
    }
    if (schema.type !== undefined && types === undefined) {
      return this.#json(context, schema, 'fallback', { keyword: 'type', message: `The "type" ${JSON.stringify(schema.type)} is not a JSON Schema type.` });
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
        return this.#json(context, schema, 'fallback', { keyword: 'enum', message: 'The schema allows no value here (empty enum).' });
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
        return nullableFlag(this.#json(context, schema, 'free'), nullable);
      default:
        return this.#json(context, schema, 'fallback', { keyword: 'type', message: `The type ${JSON.stringify(type)} is not a JSON Schema type.` });
    }
  }

  #alternatives(schema: JsonRecord, context: FieldContext, alternatives: unknown[], nullable: boolean): Field {
    const { oneOf: _o, anyOf: _a, ...base } = schema;
    // Constraints of the outer schema apply to every alternative; its annotations label the field.
    const { title: _t, description: _d, default: _def, examples: _e, ...shared } = base;
    const variants: UnionVariant[] = [];
    for (const alternative of alternatives) {
      // Resolution is cached and counted against the budget there: re-rendering costs nothing.
      const resolved = this.document.resolve(alternative);
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
      const field = this.#classify(merged, context);
      return withDefault(nullableFlag(field, nullable || field.nullable), base);
    }

    const field: UnionField = { ...this.#base('union', schema, context), kind: 'union', variants };
    const discriminator = findDiscriminator(this.document, variants);
    variants.forEach((variant, i) => {
      if (discriminator) {
        const value = discriminatorValue(this.document, variant.schema, discriminator);
        if (value !== undefined) variant.discriminatorValue = value;
      }
      variant.label =
        typeof variant.schema.title === 'string' && variant.schema.title.trim() !== ''
          ? variant.schema.title
          : variant.discriminatorValue !== undefined
            ? typeof variant.discriminatorValue === 'string'
              ? variant.discriminatorValue
              : JSON.stringify(variant.discriminatorValue)
            : describeShape(this.document, variant.schema) || `Option ${i + 1}`;
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
      return this.#json(context, schema, 'free', undefined, 'object');
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
    const draft07 = this.document.dialect === 'draft-07';
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
    if (prefix.length === 0 && isAny(items)) return this.#json(context, schema, 'free', undefined, 'array');
    // A list that starts with thousands of items (minItems, a tuple, a default) would render thousands of
    // controls at once: the JSON editor takes it instead, bounded.
    const start = Math.max(num(schema.minItems) ?? 0, prefix.length, Array.isArray(schema.default) ? schema.default.length : 0);
    if (start > MAX_LIST_ITEMS) {
      return this.#json(context, schema, 'fallback', { keyword: 'minItems', message: `This list starts with ${start} items, too many to show as fields (at most ${MAX_LIST_ITEMS}); enter it as JSON.` }, 'array');
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
      const itemField = this.field(items, { depth: context.depth + 1, ancestors: context.ancestors });
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

/**
 * The default `if` evaluator: compiles the `if` subschema with the kit's
 * validator. A subschema with references is compiled inside a copy of the
 * whole document (so `#/…` pointers still resolve); results are cached.
 */
export function conditionEvaluator(document: SchemaDocument, onNotLoaded?: () => void): ConditionEvaluator {
  const cache = new WeakMap<object, Validator | null>();
  return (ifSchema, value) => {
    if (typeof ifSchema === 'boolean') return ifSchema;
    if (!isRecord(ifSchema)) return undefined;
    let validator = cache.get(ifSchema);
    if (validator === undefined) {
      validator = null;
      try {
        validator = compileSchemaSync(wrapForCompile(document, ifSchema));
      } catch (error) {
        // Not loaded yet: undecided for now, asked again on the next render (the form re-renders
        // when the validator is ready). A fragment that does not compile stays undecided.
        if ((error as McpClientError).data?.loaded === false) {
          onNotLoaded?.();
          return undefined;
        }
      }
      cache.set(ifSchema, validator);
    }
    return validator ? validator(value).valid : undefined;
  };
}

function hasReference(node: unknown, budget = { n: 2000 }): boolean {
  if (typeof node !== 'object' || node === null || --budget.n < 0) return false;
  if (!Array.isArray(node) && (typeof (node as JsonRecord).$ref === 'string' || typeof (node as JsonRecord).$dynamicRef === 'string')) return true;
  return Object.values(node).some((value) => hasReference(value, budget));
}

/**
 * A schema that validates against `fragment` alone but still resolves the
 * document's references (the fragment is addressed inside a copy of the document).
 */
export function wrapForCompile(document: SchemaDocument, fragment: JsonRecord): JsonRecord {
  const dialect = document.dialect === 'draft-07' ? 'http://json-schema.org/draft-07/schema#' : 'https://json-schema.org/draft/2020-12/schema';
  const pointer = document.pointerOf(fragment);
  if (!hasReference(fragment) || pointer === undefined || !isRecord(document.root)) return { ...fragment, $schema: dialect };
  const { $schema: _s, ...root } = document.root;
  const id = document.rootBase;
  const holder = document.dialect === 'draft-07' ? 'definitions' : '$defs';
  return { $schema: dialect, [holder]: { document: { ...root, $id: id } }, $ref: `${id}#${pointer}` };
}
