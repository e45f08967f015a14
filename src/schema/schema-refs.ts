/**
 * Following references inside a JSON Schema, on the ground `schema-walk.ts`
 * lays (which members are subschemas, which are data; each node's resource
 * and base URI): what a `$ref` names in the document ({@link SchemaIndex}, for
 * the cost estimate) and where a local pointer leads ({@link pointerTrouble},
 * for the checks before compiling). Nothing is fetched (spec: basic/index
 * "JSON Schema Usage"; JSON Schema 2020-12 core "Schema References"). Loaded
 * with the validator.
 *
 * @module
 */
import { isObject } from '../protocol/types.js';
import { APPLICATORS, DATA, MAPS, percentDecoded, unescapeToken, type NodeContext } from './schema-walk.js';

/**
 * Where a document's subschemas are, by URI, for following its references
 * inside it (spec: JSON Schema 2020-12 core "Schema References"): each
 * resource by its base URI (`$id` resolved against the enclosing one), each
 * `$anchor` and `$dynamicAnchor`, and draft-07's fragment-only `$id`.
 * Nothing is fetched.
 */
export interface SchemaIndex {
  /** Notes one node, with its context (give it every node `forEachSchemaNode` visits). */
  add(node: Record<string, unknown>, context: NodeContext): void;
  /** The base URI of a node noted ("" for any other). */
  base(node: object): string;
  /**
   * `ref` resolved against `base`: the subschema or boolean schema it names
   * in the document (a pointer followed through own members only,
   * percent-decoded, `~0`/`~1` unescaped; an anchor), or undefined when it
   * names none.
   */
  resolve(ref: string, base: string): Record<string, unknown> | boolean | undefined;
}

/** An empty {@link SchemaIndex}: fill it with `add` during a walk. */
export function schemaIndex(): SchemaIndex {
  const uris = new Map<string, object>();
  const bases = new Map<object, string>();
  return {
    add(record, { schema, base, resource }) {
      bases.set(record, base);
      if (record === resource && !uris.has(base)) uris.set(base, record);
      if (!schema) return;
      for (const anchor of [record.$anchor, record.$dynamicAnchor]) if (typeof anchor === 'string') uris.set(`${base}#${anchor}`, record);
      // draft-07 names anchors with a fragment-only $id.
      if (typeof record.$id === 'string' && record.$id.startsWith('#') && record.$id.length > 1) uris.set(`${base}${record.$id}`, record);
    },
    base: (record) => bases.get(record) ?? '',
    resolve(ref, base) {
      let url: URL;
      try {
        url = new URL(ref, base);
      } catch {
        return undefined;
      }
      const fragment = percentDecoded(url.hash.slice(1));
      url.hash = '';
      if (fragment !== '' && !fragment.startsWith('/')) {
        const anchored = uris.get(`${url.href}#${fragment}`);
        return isObject(anchored) ? anchored : undefined;
      }
      let node: unknown = uris.get(url.href);
      if (fragment !== '') {
        for (const token of fragment.slice(1).split('/')) {
          const key = unescapeToken(token);
          if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
          node = (node as Record<string, unknown>)[key];
        }
      }
      return typeof node === 'boolean' || isObject(node) ? (node as Record<string, unknown> | boolean) : undefined;
    },
  };
}

/** What following a `#/…` pointer from its resource meets, when it is not a plain subschema. */
export type PointerTrouble = { inherited: string } | { data: string };

/**
 * Follows the JSON Pointer of a local reference (`#/a/b`, percent-decoded,
 * `~0`/`~1` unescaped) from `resource` and says what is wrong with where it
 * leads: a member every object inherits rather than one the schema has
 * (`#/constructor`), or the inside of data (`#/default`, `#/enum/0`), which a
 * library would compile as a schema without the kit's checks. Undefined when
 * the pointer stays in the schema, or leads nowhere (the library refuses that).
 */
export function pointerTrouble(resource: object, pointer: string): PointerTrouble | undefined {
  let node: unknown = resource;
  let schema = true;
  let map = false;
  for (const raw of pointer.slice(2).split('/')) {
    const segment = unescapeToken(percentDecoded(raw));
    if (typeof node !== 'object' || node === null || !(segment in node)) return undefined;
    if (!Object.hasOwn(node, segment)) return { inherited: segment };
    if (schema && !map && !Array.isArray(node) && DATA.has(segment)) return { data: segment };
    // The step's position: a name under a map is a subschema; a keyword is one if it is an applicator.
    const intoSchema: boolean = Array.isArray(node) ? schema : map || (schema && APPLICATORS.has(segment));
    map = schema && !map && !Array.isArray(node) && MAPS.has(segment);
    schema = intoSchema || map;
    node = (node as Record<string, unknown>)[segment];
  }
  return undefined;
}
