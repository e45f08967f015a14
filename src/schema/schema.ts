/**
 * JSON Schema handling shared by the client (output validation), the tool form
 * and the elicitation dialog (spec: basic/index "JSON Schema Usage").
 *
 * - Dialect: 2020-12 when `$schema` is absent; draft-07 when declared; anything
 *   else is refused with a clear error.
 * - `$ref` to a network URI is never fetched; a schema whose reference cannot be
 *   resolved locally is rejected, not treated as permissive.
 * - Work is bounded before compiling: nesting depth and number of subschemas,
 *   and the evaluations one value can take along every path through the
 *   schema's references; and before each check: the evaluations that value
 *   takes (see `schema-cost.ts`).
 * - `pattern`s and `patternProperties` keys run on a linear-time engine
 *   (`linear-regexp.ts`), never on the backtracking one (see `pattern-check.ts`).
 *
 * The validator (ajv, or the library given to {@link useSchemaCompiler}) is
 * loaded lazily, so the core bundle stays small until a schema is actually
 * checked, and the pattern engine only for schemas that have patterns. Where the
 * page's Content-Security-Policy forbids eval, which ajv needs,
 * `@cfworker/json-schema` is loaded instead (`eval-policy.ts`).
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
   * Maximum evaluations of subschemas one value can meet beyond evaluating
   * each part of the schema once, counted along every path through references
   * and applicators (a subschema reached two ways counts twice): what an
   * exponential `$ref` fan-out adds; over it, the schema is refused as too
   * costly. A big flat schema (thousands of properties, a long `enum`) adds
   * nothing: `maxNodes` bounds it. Default 10,000 (the largest real tool
   * schema measured needs about 1,000).
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

export interface CompileOptions {
  limits?: SchemaLimits;
}

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

type Implementation = import('./schema-guard.js').ValidatorImplementation;
let plugged: SchemaCompiler | undefined;
let loading: Promise<Implementation> | undefined;
let loaded: Implementation | undefined;

/**
 * Uses `compiler` instead of ajv for every schema the kit checks from now on:
 * tool output validation, the tool form and the elicitation dialog. ajv is then
 * never loaded, which suits pages whose Content-Security-Policy forbids
 * `unsafe-eval` (ajv compiles to functions) or that want a smaller download.
 * `mcp-elements/cfworker` provides one built on `@cfworker/json-schema`.
 * Call it before the first schema is compiled (validators already compiled are
 * kept); `undefined` goes back to the default: ajv, or `@cfworker/json-schema`
 * where the page forbids eval (see `eval-policy.ts`). Spec: basic/index "JSON Schema Usage"
 * (2020-12 by default, draft-07 when declared), server/tools `inputSchema` /
 * `outputSchema`, client/elicitation `requestedSchema`.
 */
export function useSchemaCompiler(compiler: SchemaCompiler | undefined): void {
  plugged = compiler;
  loading = loaded = undefined;
}

/**
 * Loads the validator implementation (once); afterwards {@link compileSchemaSync}
 * works too. The choice between ajv and a plugged compiler is made a microtask
 * later: elements in the page's markup connect (and ask for the validator) while
 * the element modules are still being evaluated, before the page's own script
 * has had the chance to call {@link useSchemaCompiler}.
 */
function loadValidatorModule(): Promise<Implementation> {
  loading ??= Promise.resolve().then(async () => {
    const compiler = plugged;
    // Two separate import() calls: in one expression, Vite preloads both chunks (ajv too) whichever runs.
    let implementation: Implementation;
    if (compiler) implementation = (await import('./schema-guard.js')).pluggedIn(compiler);
    // ajv, or where the page forbids eval (which ajv needs) @cfworker/json-schema.
    else implementation = await (await import('./eval-policy.js')).defaultValidator();
    if (compiler === plugged) loaded = implementation;
    return implementation;
  });
  const attempt = loading;
  // A chunk that cannot load (offline): the next check tries again, not the failure of this one for good.
  attempt.catch(() => {
    if (loading === attempt) loading = undefined;
  });
  return attempt;
}

/**
 * Compiles a schema into a {@link Validator} (spec: basic/index "JSON Schema
 * Usage"; 2020-12 unless the schema declares draft-07), loading the validator
 * and, for a schema with patterns, the pattern engine first.
 *
 * @throws McpClientError `schema` when the dialect is unsupported, the schema is
 *   over the work bounds (`maxDepth`, `maxNodes`) or too costly to check
 *   (`maxEvaluations`: its references branch out, `data.evaluations`), is itself
 *   invalid (including references that apply it to the same value without end,
 *   `data.circular`), has a `$ref` that does not resolve inside the document
 *   (network references are never fetched), or points at an inherited member
 *   or into data (`#/default`).
 */
export async function compileSchema(schema: unknown, options: CompileOptions = {}): Promise<Validator> {
  const module = await loadValidatorModule();
  await module.prepare(schema);
  return module.compile(schema, options.limits);
}

/**
 * Checks a tool result's `structuredContent` against the tool's `outputSchema`
 * for `McpClient.callTool` (spec: server/tools "Output Schema"), with the
 * validator module (see `checkOutput` in schema-guard.ts); `warn` receives
 * developer warnings (`schema-check-skipped`). Never throws: a validator that
 * cannot be loaded makes the check skipped.
 */
export async function checkOutput(name: string, schema: unknown, value: unknown, warn: (code: string, message: string) => void): Promise<OutputValidation> {
  try {
    return await (await loadValidatorModule()).checkOutput(name, schema, value, warn);
  } catch (error) {
    return { status: 'skipped', reason: `the validator could not be loaded: ${(error as Error).message}` };
  }
}

/**
 * Synchronous variant for callers that already awaited
 * {@link ensureValidator} for this schema (the elements validate on every
 * keystroke).
 * @throws McpClientError `schema` (see {@link compileSchema}); also, with
 *   `data.loaded === false`, when the validator module, or for a schema with
 *   patterns the pattern engine, is not loaded yet.
 */
export function compileSchemaSync(schema: unknown, options: CompileOptions = {}): Validator {
  if (!loaded) throw new McpClientError('schema', 'The schema validator is not loaded yet; await ensureValidator() first', { loaded: false });
  return loaded.compile(schema, options.limits);
}

/**
 * Loads what {@link compileSchemaSync} needs (again, if
 * {@link useSchemaCompiler} switched libraries meanwhile): the validator, and
 * the pattern engine when `schema` has patterns. Without a schema, both (any
 * schema can then be compiled synchronously).
 * @throws what loading a module throws (a network error for a lazily loaded chunk).
 */
export async function ensureValidator(schema?: unknown): Promise<void> {
  while (!loaded) await loadValidatorModule();
  await loaded.prepare(schema);
}
