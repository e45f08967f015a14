/**
 * Tool definitions more than one element test uses (our own values).
 */
import type { Tool } from '../../src/index.js';

/** A delivery form whose street or store member depends on the chosen delivery (if/then/else). */
export function conditionalTool(): Tool {
  return {
    name: 'conditional',
    inputSchema: {
      type: 'object',
      properties: { delivery: { type: 'string', enum: ['post', 'pickup'], default: 'post' } },
      required: ['delivery'],
      if: { properties: { delivery: { const: 'post' } } },
      then: { properties: { street: { type: 'string', minLength: 1 } }, required: ['street'] },
      else: { properties: { store: { type: 'string', enum: ['north', 'south'] } }, required: ['store'] },
    },
  };
}

/**
 * A `$ref` fan-out (issue "Hardening…", item 3): each definition applies the
 * next one twice (`anyOf` or `allOf` of two references), `levels` deep, ending
 * in `leaf`. Validation work doubles with every level; 26 levels is under 2 KB.
 */
export function fanOutSchema(levels: number, keyword: 'anyOf' | 'allOf', leaf: Record<string, unknown> = { type: 'string', minLength: 2 }): Record<string, unknown> {
  const $defs: Record<string, unknown> = { [`n${levels}`]: leaf };
  for (let level = 0; level < levels; level++) $defs[`n${level}`] = { [keyword]: [{ $ref: `#/$defs/n${level + 1}` }, { $ref: `#/$defs/n${level + 1}` }] };
  return { $defs, $ref: '#/$defs/n0' };
}

/**
 * An input schema shaped like the tools generated from Microsoft Graph's
 * OpenAPI description (issue 30, "No real tool refused by a safety cap"):
 * about 88 KB, `definitions` shared definitions (`$defs`) reached through
 * `$ref` from many places: entity types that extend a base with `allOf`,
 * nullable complex types (`anyOf` of a reference and `null`) used by nearly
 * every entity, collections of references, and navigation members that lead
 * back to other entities (recursion through members). Generated here, with our
 * own names and words; deterministic. The tool's own members are `site-id`
 * (required), `select` (optional) and `body` (required: the entity to create,
 * with a required, non-empty `displayName`).
 */
export function graphLikeSchema(definitions = 200): Record<string, any> {
  const ref = (i: number) => ({ $ref: `#/$defs/graph.type${i}` });
  const text = (what: string) => ({ type: 'string', description: `The ${what}.` });
  const complexTypes = 24;
  const $defs: Record<string, unknown> = {
    'graph.type0': { title: 'entity', type: 'object', properties: { id: { type: 'string', description: 'The unique identifier for an entity. Read-only.' } } },
  };
  // A small pseudo-random sequence, so that the references fan out the same way every run.
  let seed = 7;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  for (let i = 1; i < complexTypes; i++) {
    const properties: Record<string, unknown> = { displayName: text(`display name ${i}`), kind: { type: 'string', enum: ['none', 'user', 'group', 'application', 'device', 'unknownFutureValue'] } };
    if (i > 2) properties.owner = { anyOf: [ref(1 + next(i - 1)), { type: 'null' }] };
    if (i > 3) properties.more = { type: 'array', items: ref(1 + next(i - 1)) };
    $defs[`graph.type${i}`] = { title: `complexType${i}`, type: 'object', properties, description: `Complex type ${i}, shared by many entities.` };
  }
  for (let i = complexTypes; i < definitions; i++) {
    const base = i % 6 === 0 ? 0 : complexTypes + next(Math.max(1, i - complexTypes));
    // Each entity declares members of its own (a derived type does not repeat its base's, as in Graph).
    const properties: Record<string, unknown> = {
      [`name${i}`]: text(`name ${i}`),
      [`created${i}`]: { type: 'string', format: 'date-time' },
      [`size${i}`]: { type: 'integer', format: 'int64' },
      [`hidden${i}`]: { type: ['boolean', 'null'] },
      [`createdBy${i}`]: { anyOf: [ref(1 + next(complexTypes - 1)), { type: 'null' }] },
      [`parent${i}`]: { anyOf: [ref(complexTypes + next(definitions - complexTypes)), { type: 'null' }] },
      [`children${i}`]: { type: 'array', items: ref(complexTypes + next(definitions - complexTypes)) },
    };
    $defs[`graph.type${i}`] = { allOf: [ref(base === i ? 0 : base), { title: `entity${i}`, type: 'object', properties }] };
  }
  const body = { allOf: [ref(definitions - 1), { type: 'object', properties: { displayName: { ...text('display name'), minLength: 1 } }, required: ['displayName'] }] };
  return {
    type: 'object',
    properties: { 'site-id': { type: 'string', description: 'The unique identifier of the site.' }, select: { type: 'array', items: { type: 'string' } }, body },
    required: ['site-id', 'body'],
    $defs,
  };
}
