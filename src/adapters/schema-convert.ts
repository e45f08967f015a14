/**
 * A tool's `inputSchema` in the dialects chat APIs accept, and the way back
 * for the arguments a model writes.
 *
 * - OpenAI strict mode (Structured Outputs for function tools) takes a subset
 *   of JSON Schema: every object lists all its properties in `required` and
 *   says `additionalProperties: false`; an optional property becomes nullable
 *   (the model writes `null` for "left out"), and keywords outside the subset
 *   are moved into the node's `description` as text, so the model still reads
 *   them. {@link restoreArguments} turns such arguments back into what the
 *   tool's own schema expects (the `null`s for optional properties removed).
 * - Anthropic's `input_schema` and the AI SDK take JSON Schema as it is; the
 *   root must be an object, and Anthropic refuses `oneOf`, `allOf` and `anyOf`
 *   at the root.
 *
 * Each conversion says which keywords it moved into descriptions, and whether
 * it lost anything (a keyword moved is a check the API no longer enforces;
 * the kit still validates the restored arguments against the real schema
 * before calling the tool).
 *
 * @module
 */
import { isObject, type JsonObject, type JsonSchema } from '../protocol/types.js';

/** What a conversion gives: the schema for the API, what it moved into descriptions, and whether anything was lost. */
export interface SchemaConversion {
  schema: JsonObject;
  /** Keywords moved into descriptions (or otherwise not enforced by the API), sorted, each once. */
  moved: string[];
  /** True when the API enforces the same constraints as the tool's schema (after {@link restoreArguments} for strict). */
  lossless: boolean;
}

/** Keywords OpenAI's strict mode accepts, apart from the ones handled one by one. */
const STRICT_KEPT = new Set(['type', 'description', 'title', 'enum', 'const', 'pattern', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems']);
/** The `format`s strict mode knows. */
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
/** Keywords that say nothing a model needs and constrain nothing: dropped without a note. */
const SILENT = new Set(['$schema', '$id', '$comment', '$anchor', '$dynamicAnchor', 'readOnly', 'writeOnly', 'deprecated']);
/** Keywords outside strict mode's subset that only inform: moved into descriptions without a loss. */
const ANNOTATIONS = new Set(['default', 'examples']);
/** Longest text one moved keyword adds to a description. */
const MAX_NOTE = 200;
/** Deepest schema walked (the kit's schema bounds are far below; this only stops a cycle of objects). */
const MAX_DEPTH = 64;

const note = (keyword: string, value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return `${keyword}: ${text.length > MAX_NOTE ? `${text.slice(0, MAX_NOTE)}…` : text}`;
};
const withNotes = (node: JsonObject, notes: string[]) => {
  if (!notes.length) return node;
  const before = typeof node.description === 'string' && node.description ? `${node.description} ` : '';
  return { ...node, description: `${before}(${notes.join('; ')})` };
};
const typesOf = (schema: JsonObject): string[] => (Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : typeof schema.type === 'string' ? [schema.type] : []);
const isObjectSchema = (schema: JsonObject) => typesOf(schema).includes('object') || (!('type' in schema) && (isObject(schema.properties) || 'required' in schema));

/** Whether `schema` accepts `null` (as far as its type, enum and const say). */
function allowsNull(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isObject(schema)) return false;
  if (typesOf(schema).includes('null')) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if ('const' in schema && schema.const === null) return true;
  for (const key of ['anyOf', 'oneOf'] as const) if (Array.isArray(schema[key]) && schema[key].some(allowsNull)) return true;
  return false;
}

/** `schema` that also accepts `null`, in the forms strict mode accepts. */
function nullable(schema: JsonObject): JsonObject {
  if (allowsNull(schema)) return schema;
  const types = typesOf(schema);
  if (types.length && !('anyOf' in schema)) {
    const out: JsonObject = { ...schema, type: [...types, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  const { description, ...rest } = schema;
  return { ...(typeof description === 'string' ? { description } : {}), anyOf: [rest, { type: 'null' }] };
}

/**
 * The tool's schema in OpenAI's strict mode (function tools with `strict: true`).
 * Never throws: what strict mode cannot say is moved into descriptions and reported.
 */
export function toStrictSchema(inputSchema: JsonSchema | JsonObject): SchemaConversion {
  const moved = new Set<string>();
  let lossless = true;
  const lose = (keyword: string) => {
    moved.add(keyword);
    lossless = false;
  };

  const convert = (node: unknown, depth: number): JsonObject => {
    if (node === true || (isObject(node) && Object.keys(node).every((key) => SILENT.has(key) || key === 'description' || key === 'title'))) {
      // Any value: strict mode needs a type; the closest is every scalar type (objects and arrays lost).
      lose('{} (any value)');
      return { ...(isObject(node) ? pick(node, ['description', 'title']) : {}), type: ['string', 'number', 'boolean', 'null'] };
    }
    if (!isObject(node) || depth > MAX_DEPTH) {
      lose('false');
      return { type: 'null' };
    }
    const out: JsonObject = {};
    const notes: string[] = [];
    const moveOut = (key: string, value: unknown) => {
      // Annotations constrain nothing: in the description they lose nothing (but are still reported as moved).
      if (ANNOTATIONS.has(key)) moved.add(key);
      else lose(key);
      notes.push(note(key, value));
    };
    for (const [key, value] of Object.entries(node)) {
      if (SILENT.has(key) || key.startsWith('x-')) continue;
      if (STRICT_KEPT.has(key)) out[key] = value as JsonObject[string];
      else if (key === 'format') {
        if (typeof value === 'string' && STRICT_FORMATS.has(value)) out.format = value;
        else moveOut(key, value);
      } else if (key === '$ref') out.$ref = value as string;
      else if (key === '$defs' || key === 'definitions') {
        if (isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, convert(sub, depth + 1)]));
      } else if (key === 'anyOf' || key === 'oneOf') {
        // oneOf as anyOf: the branches the model may choose are the same; that only one matches is no longer enforced.
        if (key === 'oneOf') lose('oneOf');
        if (Array.isArray(value)) out.anyOf = [...((out.anyOf as JsonObject[] | undefined) ?? []), ...value.map((sub) => convert(sub, depth + 1))];
      } else if (key === 'items') {
        if (isObject(value) || typeof value === 'boolean') out.items = convert(value, depth + 1);
        else moveOut(key, value);
      } else if (key === 'properties' || key === 'required' || key === 'additionalProperties') continue;
      else moveOut(key, value);
    }
    if (isObjectSchema(node)) {
      const properties = isObject(node.properties) ? node.properties : {};
      const required = new Set(Array.isArray(node.required) ? node.required.filter((name): name is string => typeof name === 'string') : []);
      const converted: JsonObject = {};
      for (const [name, sub] of Object.entries(properties)) {
        const schema = convert(sub, depth + 1);
        // An optional property that may also be null: the model's null can no longer say "left out"
        // apart from "null" (restoreArguments keeps it, as the tool allows it).
        if (!required.has(name) && allowsNull(schema)) lose('optional null');
        converted[name] = required.has(name) ? schema : nullable(schema);
      }
      out.type = 'object';
      out.properties = converted;
      out.required = Object.keys(converted);
      out.additionalProperties = false;
      // Extra properties the tool accepts (a map, or `additionalProperties` allowed on purpose) cannot be written in strict mode.
      const extra = node.additionalProperties;
      if (extra !== undefined && extra !== false) moveOut('additionalProperties', extra);
      else if (extra === undefined && !Object.keys(properties).length) moveOut('additionalProperties', 'any (free-form object)');
    }
    return withNotes(out, notes);
  };

  const root = isObject(inputSchema) ? inputSchema : {};
  let schema = convert(isObjectSchema(root) ? root : { ...root, type: 'object' }, 0);
  if ('anyOf' in schema) {
    // The root must be a plain object schema: its alternatives go to the description.
    const { anyOf, ...rest } = schema;
    lose('anyOf (root)');
    schema = withNotes(rest, [note('anyOf', anyOf)]);
  }
  return { schema, moved: [...moved].sort(), lossless };
}

/**
 * The tool's schema for Anthropic's `input_schema`: as it is, with `type:
 * "object"` at the root, and root-level `oneOf` / `allOf` / `anyOf` (which the
 * API refuses there) moved into the description.
 */
export function toAnthropicSchema(inputSchema: JsonSchema | JsonObject): SchemaConversion {
  const root: JsonObject = isObject(inputSchema) ? { ...inputSchema } : {};
  const moved: string[] = [];
  const notes: string[] = [];
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    if (key in root) {
      moved.push(key);
      notes.push(note(key, root[key]));
      delete root[key];
    }
  }
  const typed = typesOf(root);
  if (typed.length && !typed.includes('object')) moved.push('type');
  root.type = 'object';
  return { schema: withNotes(root, notes), moved, lossless: moved.length === 0 };
}

/**
 * The tool's schema for the AI SDK (`jsonSchema()`): as it is, with `type:
 * "object"` at the root (the SDK hands it to the provider, which converts it).
 */
export function toAiSdkSchema(inputSchema: JsonSchema | JsonObject): SchemaConversion {
  const root: JsonObject = isObject(inputSchema) ? { ...inputSchema } : {};
  const typed = typesOf(root);
  const lost = typed.length > 0 && !typed.includes('object');
  root.type = 'object';
  return { schema: root, moved: lost ? ['type'] : [], lossless: !lost };
}

function pick(node: JsonObject, keys: string[]): JsonObject {
  return Object.fromEntries(keys.filter((key) => key in node).map((key) => [key, node[key]!]));
}

/**
 * The arguments a model wrote against {@link toStrictSchema}'s schema, turned
 * back into what the tool's own schema expects: a `null` for a property the
 * tool's schema makes optional and does not allow to be `null` is removed
 * (strict mode's "left out"), through nested objects, arrays and local `$ref`s.
 * Returns a new value; `value` is not changed.
 */
export function restoreArguments(value: unknown, inputSchema: JsonSchema | JsonObject): unknown {
  const root = inputSchema;
  const resolve = (schema: unknown, depth: number): unknown => {
    let node = schema;
    for (let hops = 0; isObject(node) && typeof node.$ref === 'string' && hops < 16; hops++) {
      const ref = node.$ref as string;
      if (!ref.startsWith('#/')) break;
      let target: unknown = root;
      for (const part of ref.slice(2).split('/')) target = isObject(target) ? target[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
      node = target;
    }
    return depth > MAX_DEPTH ? undefined : node;
  };
  const walk = (current: unknown, schema: unknown, depth: number): unknown => {
    const node = resolve(schema, depth);
    if (!isObject(node)) return current;
    if (Array.isArray(current)) return isObject(node.items) ? current.map((item) => walk(item, node.items, depth + 1)) : current;
    if (!isObject(current)) return current;
    // The branch of an anyOf / oneOf that describes an object with these properties.
    const branches = [...(Array.isArray(node.anyOf) ? node.anyOf : []), ...(Array.isArray(node.oneOf) ? node.oneOf : [])];
    const branch = branches.map((sub) => resolve(sub, depth + 1)).find((sub): sub is JsonObject => isObject(sub) && isObject(sub.properties) && Object.keys(current).every((key) => Object.hasOwn(sub.properties as JsonObject, key)));
    const target = isObject(node.properties) ? node : branch;
    if (!target || !isObject(target.properties)) return current;
    const properties = target.properties;
    const required = new Set(Array.isArray(target.required) ? target.required : []);
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(current)) {
      // Own properties only, read and written: a model's `__proto__` or `constructor` is an argument like any other.
      const sub = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (item === null && !required.has(key) && sub !== undefined && !allowsNull(resolve(sub, depth + 1))) continue;
      Object.defineProperty(out, key, { enumerable: true, configurable: true, writable: true, value: sub === undefined ? item : walk(item, sub, depth + 1) });
    }
    return out;
  };
  return walk(value, root, 0);
}
