/**
 * What the tool form's model asks of the kit's checks: whether a `pattern`
 * matches a text (on the linear-time engine, once loaded), whether an `if`
 * subschema holds for a value (with the validator, once loaded), a fragment of
 * the schema made compilable on its own with the document's references still
 * resolving, and the JSON type of a value as `type` sees it. DOM-free.
 *
 * @module
 */
import { compileSchemaSync, type McpClientError, type Validator } from '../../src/index.js';
import { loadedPatternEngine, patternVerdict } from '../../src/schema/patterns/pattern-check.js';
import { isRecord, type JsonRecord } from '../internal/json.js';
import type { SchemaDocument } from './resolve.js';

/** Evaluates an `if` subschema against a value; undefined when it cannot tell. */
export type ConditionEvaluator = (ifSchema: unknown, value: unknown) => boolean | undefined;

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

/**
 * The JSON type name of a value as JSON Schema's `type` keyword sees it
 * (`integer` for whole numbers, which also match `number`).
 */
export function jsonType(value: unknown): 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object' | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'string':
      return 'string';
    case 'object':
      return 'object';
    default:
      return 'undefined';
  }
}
