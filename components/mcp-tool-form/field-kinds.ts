/**
 * The fields of the tool form's model: what a part of a tool's `inputSchema`
 * renders as (a text input, a choice, an object of members, a list, a union of
 * variants, or raw JSON), with its label, constraints and default. The model
 * (model.ts) builds them on demand and classify.ts decides their kind; the
 * renderer (fields.ts) and the drafts (draft.ts) read them. Types only.
 *
 * @module
 */
import type { JsonRecord, JsonValue } from '../internal/json.js';
import type { SchemaProblem } from './resolve.js';

/** What a field renders as. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'enum' | 'const' | 'object' | 'array' | 'union' | 'json';

/** What every kind of field has. */
export interface FieldBase {
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
