/**
 * How much work checking a value against a schema can take, estimated from
 * the schema's graph before any library runs it (spec: basic/index "JSON
 * Schema Usage"; JSON Schema 2020-12 core "Applicators").
 *
 * The work bounds on the schema's own size (depth, parts) do not bound
 * validation: a 2 KB schema whose definitions each apply the next one twice
 * (`anyOf` or `allOf` of two `$ref`s, 26 levels deep) makes every library
 * evaluate 2^26 subschemas for one value. The unit here is one evaluation of
 * one subschema's keywords against one value (plus the per-item cost of
 * `enum`, `uniqueItems` and patterns), counted two ways:
 *
 * - {@link SchemaCost.perValue}, once per schema: the most subschemas that
 *   one place of a value (the value itself, or one member or item at any
 *   depth) can meet, counted along every path through references and
 *   applicators (a subschema reached by two paths counts twice). Places are
 *   told apart by what applies to them, so a definition shared by a hundred
 *   members is counted once, and recursion through members ends where a place
 *   repeats one already counted (issue 30: a large honest schema, hundreds of
 *   shared definitions, was refused when every path through members was
 *   summed). Exponential fan-out shows here wherever it sits, as the distance
 *   from {@link SchemaCost.size} (each part once): at one place (`anyOf` of two
 *   references to the next level) or compounding down (each branch applying the
 *   next level to the same member). A big but flat schema (thousands of
 *   properties, a long `enum`) stays within its size, which the schema's part
 *   count bounds already; how many places a value has is the value's own size.
 * - {@link SchemaCost.measure}, per value: the same walk over the value
 *   itself, member by member and item by item, stopped as soon as it passes
 *   the budget. A schema that is cheap per member can still be costly for a
 *   value with many members; this bounds that too. It over-counts (both `then`
 *   and `else`, every `patternProperties` entry for every member) so that it
 *   is never below what a library does.
 *
 * @module
 */
import { schemaIndex, type SchemaIndex } from './schema-refs.js';
import { forEachSchemaNode } from './schema-walk.js';
import { isObject } from '../protocol/types.js';

type Target = Record<string, unknown> | boolean;

/** What one subschema applies, resolved once. */
interface Node {
  /** Work of evaluating its own keywords once (the keyword count, plus enum values). */
  weight: number;
  /** Applied to the same value: `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`, references. */
  inPlace: Target[];
  properties: Map<string, Target>;
  patternProperties: Target[];
  additionalProperties?: Target;
  unevaluatedProperties?: Target;
  propertyNames?: Target;
  prefixItems: Target[];
  /** Applied to the items after {@link prefixItems}. */
  items?: Target;
  contains?: Target;
  unevaluatedItems?: Target;
  uniqueItems: boolean;
  /** Extra work per character of a string value (patterns, formats). */
  perCharacter: number;
  /** Extra work per character of each member name of an object value: every `patternProperties` key is matched against it. */
  perNameCharacter: number;
}

const IN_PLACE = ['allOf', 'anyOf', 'oneOf'];
const SINGLE_IN_PLACE = ['not', 'if', 'then', 'else'];
const REFERENCES = ['$ref', '$dynamicRef', '$recursiveRef'];
/** Evaluations counted over all the places of a value before the estimate gives up (and says: too costly). */
const EXPLORATION = 1_000_000;

/** The estimate for one schema (see the module comment). */
export interface SchemaCost {
  /** Whether the schema applies itself to the same value without end (a cycle of references and in-place applicators): no check can finish. */
  readonly circular: boolean;
  /** Evaluations of each reachable subschema once (the schema's own size in the same unit as {@link perValue}). */
  readonly size: number;
  /** Evaluations one place of a value (the value, or a member or item at any depth) can meet, counted along every path; at most `size + limit + 1` (counting stops there, or when telling the places apart takes more than a million evaluations). */
  readonly perValue: number;
  /** Evaluations checking `value` takes, counted until `budget` is passed (then `budget + 1`). */
  measure(value: unknown, budget: number): number;
}

/**
 * Builds the graph of `schema` and counts its cost per value up to `limit`
 * evaluations beyond its {@link SchemaCost.size}.
 * `$ref`, `$dynamicRef` and `$recursiveRef` are followed inside the document
 * (pointers, anchors, `$id`s) as `index` resolves them ({@link SchemaIndex}:
 * given by a caller that walked `schema` already, else built here); one that
 * does not resolve counts as nothing (the library refuses it).
 * `patternCost(pattern)` is the extra work per character of checking a string
 * against that pattern.
 */
export function schemaCost(schema: Target, limit: number, patternCost: (pattern: string) => number, index?: SchemaIndex): SchemaCost {
  if (!index) {
    index = schemaIndex();
    if (typeof schema === 'object') forEachSchemaNode(schema, index.add);
  }
  const { resolve, base: baseOf } = index;

  const nodes = new Map<object, Node>();
  const nodeOf = (record: Record<string, unknown>): Node => {
    let node = nodes.get(record);
    if (node) return node;
    const target = (value: unknown): Target | undefined => (typeof value === 'boolean' || isObject(value) ? (value as Target) : undefined);
    const targets = (value: unknown): Target[] => (Array.isArray(value) ? value.map(target).filter((t): t is Target => t !== undefined) : []);
    const map = (value: unknown): [string, Target][] =>
      isObject(value) ? Object.entries(value).flatMap(([key, child]) => (target(child) === undefined ? [] : [[key, child as Target] as [string, Target]])) : [];
    const base = baseOf(record);
    const inPlace: Target[] = [];
    for (const key of IN_PLACE) inPlace.push(...targets(record[key]));
    for (const key of SINGLE_IN_PLACE) {
      const child = target(record[key]);
      if (child !== undefined) inPlace.push(child);
    }
    inPlace.push(...map(record.dependentSchemas).map(([, child]) => child));
    inPlace.push(...map(record.dependencies).map(([, child]) => child));
    for (const key of REFERENCES) {
      const ref = record[key];
      const resolved = typeof ref === 'string' ? resolve(ref, base) : undefined;
      if (resolved !== undefined) inPlace.push(resolved);
    }
    const tuple = Array.isArray(record.items);
    const patterns = isObject(record.patternProperties) ? Object.keys(record.patternProperties) : [];
    let perCharacter = typeof record.format === 'string' ? 1 / 32 : 0;
    const perNameCharacter = patterns.reduce((sum, pattern) => sum + patternCost(pattern), 0);
    if (typeof record.pattern === 'string') perCharacter += patternCost(record.pattern);
    node = {
      weight: 1 + Object.keys(record).length + (Array.isArray(record.enum) ? record.enum.length : 0),
      inPlace,
      properties: new Map(map(record.properties)),
      patternProperties: map(record.patternProperties).map(([, child]) => child),
      additionalProperties: target(record.additionalProperties),
      unevaluatedProperties: target(record.unevaluatedProperties),
      propertyNames: target(record.propertyNames),
      prefixItems: tuple ? targets(record.items) : targets(record.prefixItems),
      items: tuple ? target(record.additionalItems) : target(record.items),
      contains: target(record.contains),
      unevaluatedItems: target(record.unevaluatedItems),
      uniqueItems: record.uniqueItems === true,
      perCharacter: perCharacter + perNameCharacter / 8,
      perNameCharacter,
    };
    nodes.set(record, node);
    return node;
  };

  /** What applies to a member, an item or a member name rather than to the value itself (listed once per node). */
  const memberLists = new Map<Node, Target[]>();
  const members = (node: Node): Target[] => {
    let out = memberLists.get(node);
    if (out) return out;
    out = [...node.properties.values(), ...node.patternProperties, ...node.prefixItems];
    for (const child of [node.additionalProperties, node.unevaluatedProperties, node.propertyNames, node.items, node.contains, node.unevaluatedItems]) if (child !== undefined) out.push(child);
    memberLists.set(node, out);
    return out;
  };
  const children = (node: Node): Target[] => [...node.inPlace, ...members(node)];

  // Every subschema reachable from the root (by references too), each once: the schema's own size.
  const reachable: object[] = typeof schema === 'object' ? [schema] : [];
  const listed = new Set<object>(reachable);
  for (let i = 0; i < reachable.length; i++) {
    for (const child of children(nodeOf(reachable[i] as Record<string, unknown>))) {
      if (typeof child === 'object' && !listed.has(child)) {
        listed.add(child);
        reachable.push(child);
      }
    }
  }
  const size = reachable.reduce((sum, record) => sum + nodeOf(record as Record<string, unknown>).weight, 0);
  const cap = size + limit;

  // Work at one place of a value: what applies there in place (the subschema, and what its
  // `allOf`, `anyOf`, references… apply to the same value), along every path, memoized per
  // subschema, iterative (reference chains can be long). A reference back to a subschema still
  // being counted is a cycle that never moves into a member (refused as `circular`): it adds nothing.
  const here = new Map<object, number>();
  const active = new Set<object>();
  const inPlaceWork = (root: Target): number => {
    if (typeof root === 'boolean') return 1;
    if (here.has(root)) return here.get(root)!;
    const stack: { record: Record<string, unknown>; pending: Target[]; sum: number }[] = [];
    const enter = (record: Record<string, unknown>) => {
      active.add(record);
      const node = nodeOf(record);
      stack.push({ record, pending: [...node.inPlace], sum: node.weight });
    };
    enter(root);
    let result = 0;
    while (stack.length > 0) {
      const frame = stack.at(-1)!;
      if (frame.sum > cap) frame.pending.length = 0;
      const child = frame.pending.pop();
      if (child === undefined) {
        stack.pop();
        active.delete(frame.record);
        const total = Math.min(frame.sum, cap + 1);
        here.set(frame.record, total);
        if (stack.length === 0) result = total;
        else stack.at(-1)!.sum += total;
      } else if (typeof child === 'boolean') frame.sum += 1;
      else if (here.has(child)) frame.sum += here.get(child)!;
      else if (!active.has(child)) enter(child);
    }
    return result;
  };

  // The subschemas applied in place from `entries` (with repeats: one reached two ways is evaluated twice).
  const applied = (entries: Target[]): Record<string, unknown>[] => {
    const out: Record<string, unknown>[] = [];
    const stack: { record: Record<string, unknown>; next: number }[] = [];
    const onPath = new Set<object>();
    for (const entry of entries) {
      if (typeof entry === 'boolean') continue;
      stack.push({ record: entry, next: 0 });
      onPath.add(entry);
      out.push(entry);
      while (stack.length > 0) {
        const frame = stack.at(-1)!;
        const child = nodeOf(frame.record).inPlace[frame.next++];
        if (child === undefined) {
          stack.pop();
          onPath.delete(frame.record);
        } else if (typeof child === 'object' && !onPath.has(child)) {
          stack.push({ record: child, next: 0 });
          onPath.add(child);
          out.push(child);
        }
      }
    }
    return out;
  };

  // What applies to each member and item of a value that `nodes` apply to: per member name the
  // schema declares (and one for any other name), per position of `prefixItems` and for the items
  // after them, and for member names (`propertyNames`). Over-counting, never under: every
  // `patternProperties` entry is taken to match every name, and `additionalProperties` to apply to
  // every name. Undefined when building them would pass `budget` entries.
  const placesBelow = (nodes: Node[], budget: number): Target[][] | undefined => {
    // Each node's members are listed once per path that applies it (with repeats): counted before
    // they are read, so a node with 40,000 members applied 3,000 times is refused, not read 3,000 times.
    let entries = 0;
    for (const node of nodes) entries += members(node).length + 1;
    if (entries > budget) return undefined;
    if (!nodes.some((node) => members(node).length > 0)) return [];
    const declared = new Map<string, Target[]>();
    const anyName: Target[] = [];
    const anyItem: Target[] = [];
    const rest: Target[] = [];
    const names: Target[] = [];
    let positions = 0;
    for (const node of nodes) {
      for (const [name, child] of node.properties) {
        const list = declared.get(name);
        if (list) list.push(child);
        else declared.set(name, [child]);
      }
      anyName.push(...node.patternProperties);
      for (const child of [node.additionalProperties, node.unevaluatedProperties]) if (child !== undefined) anyName.push(child);
      for (const child of [node.contains, node.unevaluatedItems]) if (child !== undefined) anyItem.push(child);
      if (node.items !== undefined) rest.push(node.items);
      if (node.propertyNames !== undefined) names.push(node.propertyNames);
      positions = Math.max(positions, node.prefixItems.length);
    }
    const size = entries + (declared.size + 1) * (anyName.length + 1) + (positions + 1) * (rest.length + anyItem.length + 1);
    if (size > budget) return undefined;
    const places: Target[][] = [];
    for (const list of declared.values()) places.push([...list, ...anyName]);
    places.push(anyName);
    for (let position = 0; position < positions; position++) {
      places.push([...nodes.flatMap((node) => (position < node.prefixItems.length ? [node.prefixItems[position]!] : [])), ...rest, ...anyItem]);
    }
    places.push([...rest, ...anyItem]);
    places.push(names);
    return places.filter((place) => place.length > 0);
  };

  // Evaluations per value: the most that any one place of a value (the value, or a member or item at
  // any depth) can meet. Places are told apart by what applies to them, so a definition shared by a
  // hundred members is counted once, and recursion through members ends where a place repeats one
  // already counted; how many places a value has is the value's own size, which `measure` counts.
  // Fan-out shows here wherever it is: two branches applying the same definition to a member make
  // that member meet it twice, and so on down.
  const ids = new Map<object, number>();
  const idOf = (target: Target) => (typeof target === 'boolean' ? (target ? 't' : 'f') : (ids.get(target) ?? (ids.set(target, ids.size), ids.size - 1)));
  const perValue = (root: Target): number => {
    const seen = new Set<string>();
    const queue: Target[][] = [];
    const visit = (entries: Target[]) => {
      const key = entries.length === 1 ? String(idOf(entries[0]!)) : entries.map(idOf).sort().join(',');
      if (seen.has(key)) return;
      seen.add(key);
      queue.push(entries);
    };
    visit([root]);
    let most = 0;
    let steps = 0;
    while (queue.length > 0) {
      const entries = queue.pop()!;
      let work = 0;
      for (const entry of entries) work += inPlaceWork(entry);
      most = Math.max(most, work);
      steps += work;
      // Over the limit, or a schema whose places take too long to tell apart: counting stops here.
      if (most > cap || steps > EXPLORATION) return cap + 1;
      const places = placesBelow(applied(entries).map(nodeOf), EXPLORATION - steps);
      if (places === undefined) return cap + 1;
      for (const place of places) {
        steps += place.length;
        visit(place);
      }
    }
    return Math.min(most, cap + 1);
  };

  // A cycle of in-place edges (`{ "$ref": "#" }`, or definitions that `allOf` each other) applies
  // the schema to the same value without end: every library recurses until the stack overflows.
  const circular = (): boolean => {
    const done = new Set<object>();
    const onPath = new Set<object>();
    for (const start of reachable) {
      if (done.has(start)) continue;
      const stack: { record: object; pending: Target[] }[] = [{ record: start, pending: [...nodeOf(start as Record<string, unknown>).inPlace] }];
      onPath.add(start);
      while (stack.length > 0) {
        const frame = stack.at(-1)!;
        const next = frame.pending.pop();
        if (next === undefined) {
          stack.pop();
          onPath.delete(frame.record);
          done.add(frame.record);
        } else if (typeof next === 'object' && !done.has(next)) {
          if (onPath.has(next)) return true;
          onPath.add(next);
          stack.push({ record: next, pending: [...nodeOf(next as Record<string, unknown>).inPlace] });
        }
      }
    }
    return false;
  };

  return {
    circular: circular(),
    size,
    perValue: perValue(schema),
    measure(value, budget) {
      let count = 0;
      const stack: [Target, unknown][] = [[schema, value]];
      while (stack.length > 0) {
        if (count > budget) return budget + 1;
        const [target, instance] = stack.pop()!;
        count++;
        if (typeof target === 'boolean') continue;
        const node = nodeOf(target);
        count += node.weight;
        for (const child of node.inPlace) stack.push([child, instance]);
        if (typeof instance === 'string') count += Math.ceil(instance.length * node.perCharacter);
        else if (Array.isArray(instance)) {
          instance.forEach((item, index) => {
            const positional = index < node.prefixItems.length ? node.prefixItems[index] : node.items;
            if (positional !== undefined) stack.push([positional, item]);
            if (node.contains !== undefined) stack.push([node.contains, item]);
            if (node.unevaluatedItems !== undefined) stack.push([node.unevaluatedItems, item]);
          });
          // Libraries compare items pairwise when they are not all primitive (cfworker always does),
          // and a comparison walks the items as deep as they go: 1,000 arrays of 1,000 numbers took
          // @cfworker/json-schema 10 s when pairs alone were counted (issue 30).
          if (node.uniqueItems && instance.length > 1) {
            const average = Math.max(1, valueNodes(instance, budget - count) / instance.length);
            count += Math.ceil((instance.length * (instance.length - 1) * average) / 64);
          }
        } else if (isObject(instance)) {
          for (const [key, member] of Object.entries(instance)) {
            if (node.perNameCharacter > 0) count += Math.ceil(key.length * node.perNameCharacter);
            const declared = node.properties.get(key);
            if (declared !== undefined) stack.push([declared, member]);
            for (const child of node.patternProperties) stack.push([child, member]);
            if (declared === undefined && node.additionalProperties !== undefined) stack.push([node.additionalProperties, member]);
            if (node.unevaluatedProperties !== undefined) stack.push([node.unevaluatedProperties, member]);
            if (node.propertyNames !== undefined) stack.push([node.propertyNames, key]);
          }
        }
      }
      return count;
    },
  };
}

/** The values in `value` (itself, and every member and item at any depth), counted up to `limit`. */
function valueNodes(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const next = stack.pop();
    count++;
    if (Array.isArray(next)) stack.push(...next);
    else if (isObject(next)) stack.push(...Object.values(next));
  }
  return count;
}
