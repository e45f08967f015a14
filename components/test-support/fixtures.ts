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
