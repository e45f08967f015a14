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
