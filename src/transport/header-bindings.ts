/**
 * The `x-mcp-header` tool annotation (spec: basic/transports/streamable-http
 * "Schema Extension", server/tools "x-mcp-header"): which arguments a tool mirrors
 * into `Mcp-Param-*` headers. Loaded lazily, only once a tool's `inputSchema`
 * mentions `x-mcp-header` (see {@link mentionsHeaderBindings}).
 *
 * @module
 */
import { McpClientError } from '../protocol/errors.js';
import { encodeHeaderValue, TOKEN } from './headers.js';
import { isObject, type JsonObject, type JsonSchema, type Tool } from '../protocol/types.js';


/** One valid `x-mcp-header` annotation of a tool. */
export interface HeaderBinding {
  /** Header name suffix: the request carries `Mcp-Param-{name}`. */
  name: string;
  /** Chain of `properties` keys from the schema root to the annotated property. */
  path: string[];
  /** Declared primitive type of the property. */
  type: 'string' | 'integer' | 'boolean';
}

/** Outcome of checking a tool's `x-mcp-header` annotations. */
export type HeaderBindingsCheck = { ok: true; bindings: HeaderBinding[] } | { ok: false; reason: string };

// Keywords whose value is a map of name → subschema.
const SCHEMA_MAPS = ['$defs', 'definitions', 'patternProperties', 'dependentSchemas'];
// Keywords whose value is a subschema (or, for `items` in draft-07, an array of them).
const SCHEMA_VALUES = [
  'items', 'additionalItems', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains',
  'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema',
];
// Keywords whose value is an array of subschemas.
const SCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];


function primitiveType(schema: JsonObject): HeaderBinding['type'] | undefined {
  let type = schema.type;
  // Policy for a nullable type array (spec gap): exactly one allowed primitive plus "null".
  if (Array.isArray(type)) {
    const rest = type.filter((t) => t !== 'null');
    if (rest.length !== 1 || type.length > 2) return undefined;
    type = rest[0];
  }
  return type === 'string' || type === 'integer' || type === 'boolean' ? type : undefined;
}

/**
 * Finds and checks every `x-mcp-header` annotation of an `inputSchema`
 * ("Schema Extension" constraints). An annotation is valid only when its value is a
 * non-empty RFC 9110 token, unique case-insensitively, placed on a `string`,
 * `integer` or `boolean` property, and reached from the root through `properties`
 * keys only. One invalid annotation makes the whole tool invalid.
 *
 * Work is bounded: at most `maxNodes` schema objects are visited.
 */
export function checkHeaderBindings(inputSchema: unknown, maxNodes = 10_000): HeaderBindingsCheck {
  const bindings: HeaderBinding[] = [];
  const seen = new Map<string, string>();
  // An explicit stack, not recursion: a hostile, deeply nested schema must not overflow the call stack.
  const stack: { schema: unknown; path: string[] | null; where: string }[] = [{ schema: inputSchema, path: [], where: '#' }];
  const pending: { schema: unknown; path: string[] | null; where: string }[] = [];
  let visited = 0;

  while (stack.length > 0) {
    const { schema, path, where } = stack.pop()!;
    if (!isObject(schema)) continue;
    if (++visited > maxNodes) return { ok: false, reason: `schema has more than ${maxNodes} subschemas` };
    if (Object.hasOwn(schema, 'x-mcp-header')) {
      const name = schema['x-mcp-header'];
      const label = path ? path.join('.') : where;
      if (path === null || path.length === 0) return { ok: false, reason: `x-mcp-header at ${where} is not on a property reachable through "properties" only` };
      if (typeof name !== 'string' || name === '') return { ok: false, reason: `x-mcp-header on "${label}" is empty or not a string` };
      if (!TOKEN.test(name)) return { ok: false, reason: `x-mcp-header ${JSON.stringify(name)} on "${label}" is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~ only)` };
      const type = primitiveType(schema);
      if (!type) return { ok: false, reason: `x-mcp-header ${JSON.stringify(name)} is on "${label}", whose type ${JSON.stringify(schema.type)} is not string, integer or boolean` };
      const key = name.toLowerCase();
      const other = seen.get(key);
      if (other !== undefined) return { ok: false, reason: `x-mcp-header ${JSON.stringify(name)} on "${label}" duplicates the one on "${other}" (names are case-insensitive)` };
      seen.set(key, label);
      bindings.push({ name, path, type });
    }
    // Children are visited in document order (pushed in reverse), so bindings keep schema order.
    pending.length = 0;
    if (isObject(schema.properties)) {
      for (const [key, sub] of Object.entries(schema.properties)) pending.push({ schema: sub, path: path ? [...path, key] : null, where: `${where}/properties/${key}` });
    }
    for (const keyword of SCHEMA_MAPS) {
      const map = schema[keyword];
      if (isObject(map)) for (const [key, sub] of Object.entries(map)) pending.push({ schema: sub, path: null, where: `${where}/${keyword}/${key}` });
    }
    for (const keyword of SCHEMA_VALUES) {
      const sub = schema[keyword];
      if (Array.isArray(sub)) sub.forEach((s, i) => pending.push({ schema: s, path: null, where: `${where}/${keyword}/${i}` }));
      else if (isObject(sub)) pending.push({ schema: sub, path: null, where: `${where}/${keyword}` }); // absent keywords cost nothing
    }
    for (const keyword of SCHEMA_ARRAYS) {
      const list = schema[keyword];
      if (Array.isArray(list)) list.forEach((s, i) => pending.push({ schema: s, path: null, where: `${where}/${keyword}/${i}` }));
    }
    for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]!);
  }
  return { ok: true, bindings };
}

/**
 * Builds the `Mcp-Param-*` headers of one `tools/call` ("Client Behavior").
 * A missing or `null` value omits its header.
 *
 * @throws McpClientError `invalid_arguments` when a value does not match the
 *   declared primitive type, or an integer is outside ±(2^53−1).
 */
export function paramHeaders(bindings: readonly HeaderBinding[], args: JsonObject | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const binding of bindings) {
    let value: unknown = args;
    // Own keys only: an argument named `__proto__` or `constructor` must not reach Object.prototype.
    for (const key of binding.path) value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
    const where = binding.path.join('.');
    let text: string;
    if (binding.type === 'boolean' && typeof value === 'boolean') text = value ? 'true' : 'false';
    else if (binding.type === 'integer' && typeof value === 'number' && Number.isInteger(value)) {
      if (!Number.isSafeInteger(value)) {
        throw new McpClientError('invalid_arguments', `Argument "${where}" (${value}) is outside ±(2^53−1) and cannot be mirrored into Mcp-Param-${binding.name}`, { argument: where });
      }
      text = String(value);
    } else if (binding.type === 'string' && typeof value === 'string') text = value;
    else {
      throw new McpClientError('invalid_arguments', `Argument "${where}" must be a ${binding.type} to be mirrored into Mcp-Param-${binding.name}; got ${typeof value}`, { argument: where });
    }
    headers[`Mcp-Param-${binding.name}`] = encodeHeaderValue(text);
  }
  return headers;
}

/** A tool dropped from `tools/list` because of an invalid `x-mcp-header`. */
export interface RejectedTool {
  name: string;
  reason: string;
}

/**
 * Splits a tool list into usable tools (with their header bindings) and tools
 * that must be excluded because an `x-mcp-header` annotation is invalid.
 * Only the tools in `flagged` (a subset of `tools`: those whose schema mentions
 * the annotation at all) are checked, each once; the others are kept as they are.
 *
 * @returns the kept tools in the order of `tools`, the bindings of the checked
 *   tools that have valid ones, and the excluded tools with the reason.
 */
export function screenTools(tools: readonly Tool[], flagged: readonly Tool[] = tools): { tools: Tool[]; bindings: Map<string, HeaderBinding[]>; rejected: RejectedTool[] } {
  const bindings = new Map<string, HeaderBinding[]>();
  const rejected: RejectedTool[] = [];
  const excluded = new Set<Tool>();
  for (const tool of flagged) {
    const check = checkHeaderBindings(tool.inputSchema as JsonSchema);
    if (check.ok) bindings.set(tool.name, check.bindings);
    else {
      rejected.push({ name: tool.name, reason: check.reason });
      excluded.add(tool);
    }
  }
  return { tools: tools.filter((tool) => !excluded.has(tool)), bindings, rejected };
}
