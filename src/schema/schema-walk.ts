/**
 * Walking a JSON Schema by what its members are (spec: basic/index "JSON
 * Schema Usage"; JSON Schema 2020-12 core "Applicators"): which members hold
 * subschemas, which hold data, and which merely share a keyword's name
 * (`properties: { default: {…} }` declares a member called "default").
 * Shared by the schema checks and the cfworker adapter; following references
 * on this ground is in `schema-refs.ts` (the adapter needs none of it, and a
 * page that plugs the adapter in loads this module up front).
 *
 * @module
 */
import { isObject } from '../protocol/types.js';

/** A step from a schema to a node inside it: a member name or an array index. */
export type Step = string | number;

/** The JSON Pointer reference token for a member name or index (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function escapeToken(name: Step): string {
  return String(name).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The member name a JSON Pointer reference token stands for (RFC 6901). */
export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A token as written in a URI fragment (`#/a%20b`), percent-decoded; taken as written when it is not valid percent-encoding. */
export function percentDecoded(token: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
}

/** Keywords whose value is data, not a subschema: a `pattern` or `$ref` inside is just a value. */
export const DATA = new Set(['const', 'enum', 'default', 'examples']);
/** Keywords whose value maps names to subschemas: those names are not keywords. */
export const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
/** Keywords whose value is a subschema or an array of subschemas. */
export const APPLICATORS = new Set(['additionalProperties', 'unevaluatedProperties', 'items', 'prefixItems', 'additionalItems', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf']);

/** Where a visited node sits. */
export interface NodeContext {
  /** Steps from the root. */
  path: Step[];
  /** True when the node is a subschema by position; false inside unknown keywords (vendor data a `$ref` may still point into). */
  schema: boolean;
  /** The schema resource `#/…` pointers in this node are relative to: the root, or the nearest enclosing subschema with its own `$id`. */
  resource: object;
  /** That resource's absolute URI, without fragment: its `$id` resolved against the enclosing one ({@link ROOT_URI} for a root without `$id`). */
  base: string;
}

/**
 * The base URI of a schema without `$id`. Nothing names it by accident
 * (`.invalid` is reserved, RFC 2606; the last segment is random).
 */
export const ROOT_URI = 'https://schema.mcp-web-elements.invalid/6f1c1d9e-3c1b-4e55-9a57-1b8f0d6a2c4e';

/** `id` resolved against `base`, without fragment; `base` when it is not a URI reference. */
function resolvedBase(id: string, base: string): string {
  try {
    const url = new URL(id, base);
    url.hash = '';
    return url.href;
  } catch {
    return base;
  }
}

/**
 * A stack entry of {@link forEachSchemaNode}: an object, where it sits
 * (undefined inside data: met, not visited), its depth, and for a map of
 * named subschemas (`properties`…) its keyword: its members are subschemas
 * under `context.path`, the keyword and their names.
 */
type Entry = [node: object, context: NodeContext | undefined, depth: number, map?: string];

/**
 * Visits every object of a schema that may act as a schema, iteratively (the
 * caller has checked the work bounds, or gives `meet`). Skipped: the data
 * keywords of known subschemas (`const`, `enum`, `default`, `examples`), but
 * not members that only share those names. Objects under unknown keywords are
 * visited with all their members, since a `$ref` may point there.
 *
 * With `meet`, the same walk also meets every object of the schema, data and
 * the maps of named subschemas included, in the order `checkSchemaBounds`
 * (schema-base.ts) meets them: depth-first, last member first.
 * `meet(node, depth, count)` is called for each, with its depth (the root 0)
 * and the number of objects met so far with this one; the first sentence it
 * returns stops the walk and is returned. So one walk serves every check a
 * compile makes first (bounds, what must be loaded, references, patterns; see
 * `surveyed` in schema-guard.ts), and a hostile schema is not walked further
 * than its bounds allow.
 */
export function forEachSchemaNode(
  root: object,
  visit: (node: Record<string, unknown>, context: NodeContext) => void,
  meet?: (node: object, depth: number, count: number) => string | undefined,
): string | undefined {
  const rootBase = startsResource(root as Record<string, unknown>) ? resolvedBase((root as { $id: string }).$id, ROOT_URI) : ROOT_URI;
  const stack: Entry[] = [[root, { path: [], schema: true, resource: root, base: rootBase }, 0]];
  let count = 0;
  // Only objects are pushed (a schema within the work bounds may still hold a huge array of
  // numbers), and a context is made only for them.
  const isNode = (value: unknown): value is object => typeof value === 'object' && value !== null;
  while (stack.length > 0) {
    const [node, context, depth, map] = stack.pop()!;
    const stop = meet?.(node, depth, ++count);
    if (stop) return stop;
    if (!context) {
      for (const value of Object.values(node)) if (isNode(value)) stack.push([value, undefined, depth + 1]);
      continue;
    }
    if (map !== undefined) {
      for (const [name, child] of Object.entries(node)) if (isNode(child)) stack.push([child, { path: [...context.path, map, name], schema: true, resource: context.resource, base: context.base }, depth + 1]);
      continue;
    }
    if (Array.isArray(node)) {
      node.forEach((value, i) => isNode(value) && stack.push([value, { ...context, path: [...context.path, i] }, depth + 1]));
      continue;
    }
    const record = node as Record<string, unknown>;
    const here = context.schema && context.path.length > 0 && startsResource(record) ? { ...context, resource: record, base: resolvedBase(record.$id as string, context.base) } : context;
    visit(record, here);
    for (const [key, value] of Object.entries(record)) {
      if (!isNode(value)) continue;
      if (here.schema && DATA.has(key)) {
        if (meet) stack.push([value, undefined, depth + 1]);
      } else if (here.schema && MAPS.has(key) && !Array.isArray(value)) stack.push([value, here, depth + 1, key]);
      else stack.push([value, { path: [...here.path, key], schema: here.schema && APPLICATORS.has(key), resource: here.resource, base: here.base }, depth + 1]);
    }
  }
  return undefined;
}

/** Whether a subschema starts a resource of its own: an `$id` that is more than a fragment (`""` and `"#foo"` are not). */
function startsResource(record: Record<string, unknown>): boolean {
  return typeof record.$id === 'string' && record.$id !== '' && !record.$id.startsWith('#');
}

/**
 * The subschemas a validator applies to an instance directly from `node`: the
 * applicators and named-subschema maps, without `$defs` / `definitions` (those
 * are reached only through a `$ref`).
 */
export function appliedSubschemas(node: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === '$defs' || key === 'definitions') continue;
    if (MAPS.has(key) && isObject(value)) out.push(...Object.values(value));
    else if (APPLICATORS.has(key)) out.push(...(Array.isArray(value) ? value : [value]));
  }
  return out;
}
