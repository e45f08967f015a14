/**
 * What the schema loader ({@link ./schema.ts}) and the validators it loads
 * lazily (`schema-guard.ts`, `schema-ajv.ts`, `cfworker.ts`, `eval-policy.ts`)
 * share: the dialects, the work bounds and their check, the error for what
 * is not loaded yet, the shapes of results, of a compiled validator and of a
 * plugged-in library (spec: basic/index "JSON Schema Usage"). It imports
 * nothing of schema/, so every one of them can import it and none needs the
 * loader: the loader imports the validators (lazily), never the other way
 * round. Part of the core bundle (`schema.ts` re-exports it, and uses it).
 *
 * @module
 */
import { McpClientError } from '../protocol/errors.js';
/** Dialects the kit validates. */
export type SchemaDialect = '2020-12' | 'draft-07';

const DIALECTS: Record<string, SchemaDialect> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'https://json-schema.org/draft-07/schema': 'draft-07',
};

/** Work bounds for untrusted schemas. */
export interface SchemaLimits {
  /** Maximum nesting depth of subschemas; default 64. */
  maxDepth: number;
  /** Maximum number of subschema objects; default 5,000. */
  maxNodes: number;
  /**
   * Maximum evaluations of subschemas that one place of a value (the value,
   * or one member or item at any depth) can meet beyond evaluating each part
   * of the schema once, counted along every path through references and
   * applicators (a subschema reached two ways counts twice, a definition
   * shared by many members once per place): what an exponential `$ref`
   * fan-out adds; over it, the schema is refused as too costly. A big flat
   * schema (thousands of properties, a long `enum`) adds nothing: `maxNodes`
   * bounds it; nor does a large schema of shared definitions (a Microsoft Graph
   * tool's, about 90 KB). Default 10,000; how many places a value has is
   * bounded by `maxCheckSteps`.
   */
  maxEvaluations?: number;
  /**
   * Maximum evaluations one check of one value may take (its members and items
   * counted); over it, that value is not checked and the result says so
   * (`skipped`). Default 1,000,000.
   */
  maxCheckSteps?: number;
}

/**
 * The bounds used when none are given: 64 levels of nesting, 5,000 subschemas
 * (and, unless given, 10,000 evaluations per value and 1,000,000 steps per
 * check: see {@link SchemaLimits}).
 */
export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = { maxDepth: 64, maxNodes: 5000 };

/**
 * The dialect a schema declares.
 * @returns the dialect, or `{ unsupported: uri }` for an unknown `$schema`.
 */
export function schemaDialect(schema: unknown): SchemaDialect | { unsupported: string } {
  if (typeof schema !== 'object' || schema === null) return '2020-12';
  const declared = (schema as Record<string, unknown>).$schema;
  if (declared === undefined) return '2020-12';
  if (typeof declared !== 'string') return { unsupported: String(declared) };
  const normalized = declared.replace(/#$/, '');
  // Own keys only: "$schema": "constructor" must not find Object.prototype's.
  return Object.hasOwn(DIALECTS, normalized) ? DIALECTS[normalized]! : { unsupported: declared };
}

/**
 * The error for a check asked for before what it needs is loaded:
 * McpClientError `schema` with `data.loaded === false`, which the elements
 * answer by awaiting `ensureValidator()` and compiling again (a compile before
 * the validator is loaded, a schema with patterns before the pattern engine,
 * ajv being replaced where the page refuses eval).
 */
export function notLoaded(message: string, options?: { cause?: unknown }): McpClientError {
  return new McpClientError('schema', message, { loaded: false }, options);
}

/**
 * Measures a schema against the work bounds without recursion limits of its own
 * (iterative walk, so a hostile 10,000-deep schema cannot overflow the stack).
 * @returns undefined when within bounds, otherwise a sentence naming the bound.
 */
export function checkSchemaBounds(schema: unknown, limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS): string | undefined {
  const stack: [unknown, number][] = [[schema, 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limits.maxDepth) return `the schema nests deeper than ${limits.maxDepth} levels`;
    if (++nodes > limits.maxNodes) return `the schema has more than ${limits.maxNodes} parts`;
    for (const value of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof value === 'object' && value !== null) stack.push([value, depth + 1]);
    }
  }
  return undefined;
}

/** Outcome of checking `structuredContent` against the tool's `outputSchema`. */
export type OutputValidation =
  | { status: 'valid' }
  | { status: 'invalid'; issues: ValidationIssue[] }
  | { status: 'skipped'; reason: string };

/** One validation problem, located by a JSON Pointer into the instance. */
export interface ValidationIssue {
  /** JSON Pointer of the failing value (`""` for the root, `/items/0/name`…). */
  path: string;
  /** Human-readable message. */
  message: string;
  /** The JSON Schema keyword that failed (`required`, `type`, `minimum`…). */
  keyword: string;
  /** Keyword parameters (e.g. `{ missingProperty: "name" }`). */
  params: Record<string, unknown>;
}

/**
 * What a {@link Validator} returns: valid, or the issues found (each with a
 * JSON Pointer into the value). `skipped`, when present, says (to users, one
 * sentence) that this value was not checked at all: checking it would have
 * taken more than `maxCheckSteps` evaluations.
 */
export type ValidationResult = { valid: true; skipped?: string } | { valid: false; issues: ValidationIssue[] };

/** A check left out of a compiled schema because running it was unsafe. */
export interface SkippedCheck {
  /** The keyword: `pattern`, or `patternProperties` (one entry, and the `additionalProperties` / `unevaluatedProperties` beside it). */
  keyword: 'pattern' | 'patternProperties';
  /** JSON Pointer of the subschema in the schema, as a URI fragment (`#/properties/code`). */
  at: string;
  /** The regular expression. */
  pattern: string;
  /** What is not checked and why, for developers (`pattern "^(a+)+\\1$" at #/properties/code is not checked: …`). */
  reason: string;
  /** The same for users: one sentence, without regular-expression terms. */
  notice: string;
}

/** A compiled validator: call it with a value. */
export type Validator = ((value: unknown) => ValidationResult) & {
  /**
   * Checks left out because running them was unsafe, one sentence each for
   * users (the `notice` of each of {@link skippedChecks}). Absent when nothing
   * was left out.
   */
  readonly skipped?: readonly string[];
  /**
   * The same checks with developer details: a regular expression the
   * linear-time engine cannot express (a back-reference) and whose shape could
   * backtrack for a long time is not run. Absent when nothing was left out.
   */
  readonly skippedChecks?: readonly SkippedCheck[];
};

/**
 * A JSON Schema library plugged in place of ajv with {@link useSchemaCompiler}.
 *
 * It receives a schema that already passed the kit's checks (an object, dialect
 * `2020-12` or `draft-07` as given, within the work bounds, with `pattern`s that
 * cannot be run safely taken out) and returns a check to run on values. When
 * the schema has patterns, `options.regExp` is the kit's linear-time engine in
 * the shape of `new RegExp(pattern, flags)` (an object with `test`): a library
 * that accepts a regular-expression engine should use it (the cfworker adapter
 * does), since its own `RegExp` backtracks. Issues locate values by JSON Pointer (`""` for the root); a missing
 * required member is reported at the member's own path, as the forms show it
 * there. Throwing while compiling means the schema is invalid. The result's
 * shape is {@link ValidationResult}; the kit reads ajv's keyword names and
 * `params` (`limit`, `format`, `missingProperty`…) for its messages (spec:
 * basic/index "JSON Schema Usage").
 */
export type SchemaCompiler = (schema: Record<string, unknown>, dialect: SchemaDialect, options?: SchemaCompilerOptions) => (value: unknown) => ValidationResult;

/** The third argument of a {@link SchemaCompiler}. */
export interface SchemaCompilerOptions {
  /** Compiles a pattern for linear-time matching (throws SyntaxError for an invalid one); present when the schema has patterns. */
  regExp?: (pattern: string, flags: string) => { test(text: string): boolean };
}

/**
 * What the loader gets from the validator module it loads
 * (`schema-guard.ts`'s `guarded`, for ajv or a plugged-in library): compile
 * with the shared checks and a cache per schema object.
 */
export interface ValidatorImplementation {
  /** Loads what compiling `schema` needs beyond this module: the pattern engine when it has patterns (any schema: `undefined`). */
  prepare(schema: unknown): Promise<void>;
  /** `limits` are merged over the defaults (`DEFAULT_LIMITS` in schema-guard.ts). */
  compile(schema: unknown, limits: SchemaLimits | undefined): Validator;
  /** See `checkOutput` in schema.ts. */
  checkOutput(name: string, schema: unknown, value: unknown, warn: (code: string, message: string) => void): Promise<OutputValidation>;
}
