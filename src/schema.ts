/**
 * JSON Schema handling shared by the client (output validation), the tool form
 * and the elicitation dialog (spec: basic/index "JSON Schema Usage").
 *
 * - Dialect: 2020-12 when `$schema` is absent; draft-07 when declared; anything
 *   else is refused with a clear error.
 * - `$ref` to a network URI is never fetched; a schema whose reference cannot be
 *   resolved locally is rejected, not treated as permissive.
 * - Work is bounded before compiling: nesting depth and number of subschemas.
 *
 * The validator (ajv, or the library given to {@link useSchemaCompiler}) is
 * loaded lazily, so the core bundle stays small until a schema is actually
 * checked. Where the page's Content-Security-Policy forbids eval, which ajv
 * needs, `@cfworker/json-schema` is loaded instead (`eval-policy.ts`).
 *
 * @module
 */
import { McpClientError } from './errors.js';

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
}

/** The bounds used when none are given: 64 levels of nesting, 5,000 subschemas. */
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

/** What a {@link Validator} returns: valid, or the issues found (each with a JSON Pointer into the value). */
export type ValidationResult = { valid: true } | { valid: false; issues: ValidationIssue[] };

/** A compiled validator: call it with a value. */
export type Validator = ((value: unknown) => ValidationResult) & {
  /**
   * Checks left out because running them was unsafe, one sentence each: a
   * `pattern` (or `patternProperties` key) that could backtrack for exponential
   * time is not run (see `regex-safety.ts`). Absent when nothing was left out.
   */
  readonly skipped?: readonly string[];
};

export interface CompileOptions {
  limits?: SchemaLimits;
}

/**
 * A JSON Schema library plugged in place of ajv with {@link useSchemaCompiler}.
 *
 * It receives a schema that already passed the kit's checks (an object, dialect
 * `2020-12` or `draft-07` as given, within the work bounds, with `pattern`s that
 * could backtrack for exponential time taken out) and returns a check to run on
 * values. Issues locate values by JSON Pointer (`""` for the root); a missing
 * required member is reported at the member's own path, as the forms show it
 * there. Throwing while compiling means the schema is invalid. The result's
 * shape is {@link ValidationResult}; the kit reads ajv's keyword names and
 * `params` (`limit`, `format`, `missingProperty`…) for its messages (spec:
 * basic/index "JSON Schema Usage").
 */
export type SchemaCompiler = (schema: Record<string, unknown>, dialect: SchemaDialect) => (value: unknown) => ValidationResult;

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
  return loading;
}

/**
 * Compiles a schema into a {@link Validator}.
 *
 * @throws McpClientError `schema` when the dialect is unsupported, the schema is
 *   over the work bounds, is itself invalid, or has a `$ref` that does not
 *   resolve inside the document (network references are never fetched).
 */
export async function compileSchema(schema: unknown, options: CompileOptions = {}): Promise<Validator> {
  const module = await loadValidatorModule();
  return module.compile(schema, options.limits ?? DEFAULT_SCHEMA_LIMITS);
}

/**
 * Synchronous variant for callers that already awaited {@link ensureValidator}
 * (the elements validate on every keystroke).
 * @throws McpClientError `schema` (see {@link compileSchema}); also when the
 *   validator module is not loaded yet.
 */
export function compileSchemaSync(schema: unknown, options: CompileOptions = {}): Validator {
  if (!loaded) throw new McpClientError('schema', 'The schema validator is not loaded yet; await ensureValidator() first', { loaded: false });
  return loaded.compile(schema, options.limits ?? DEFAULT_SCHEMA_LIMITS);
}

/**
 * Loads the validator so that {@link compileSchemaSync} can be used (again, if
 * {@link useSchemaCompiler} switched libraries meanwhile).
 * @throws what loading the module throws (a network error for a lazily loaded chunk).
 */
export async function ensureValidator(): Promise<void> {
  while (!loaded) await loadValidatorModule();
}
