/**
 * JSON Schema handling shared by the client (output validation), the tool form
 * and the elicitation dialog (spec: basic/index "JSON Schema Usage").
 *
 * - Dialect: 2020-12 when `$schema` is absent; draft-07 when declared; anything
 *   else is refused with a clear error.
 * - `$ref` to a network URI is never fetched; a schema whose reference cannot be
 *   resolved locally is rejected, not treated as permissive.
 * - Work is bounded before compiling: nesting depth and number of subschemas,
 *   and the evaluations one place of a value (the value, a member, an item)
 *   can take along every path through the schema's references; and before each check: the evaluations that value
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
import { notLoaded, type OutputValidation, type SchemaCompiler, type SchemaLimits, type Validator, type ValidatorImplementation } from './schema-base.js';

// What the loader and the validators share lives in schema-base.ts, which imports nothing: the
// validators import it rather than this module, so none of them imports the loader back.
export {
  checkSchemaBounds,
  DEFAULT_SCHEMA_LIMITS,
  schemaDialect,
  type OutputValidation,
  type SchemaCompiler,
  type SchemaCompilerOptions,
  type SchemaDialect,
  type SchemaLimits,
  type SkippedCheck,
  type ValidationIssue,
  type ValidationResult,
  type Validator,
} from './schema-base.js';

export interface CompileOptions {
  limits?: SchemaLimits;
}

let plugged: SchemaCompiler | undefined;
let loading: Promise<ValidatorImplementation> | undefined;
let loaded: ValidatorImplementation | undefined;

/**
 * Uses `compiler` instead of ajv for every schema the kit checks from now on:
 * tool output validation, the tool form and the elicitation dialog. ajv is then
 * never loaded, which suits pages whose Content-Security-Policy forbids
 * `unsafe-eval` (ajv compiles to functions) or that want a smaller download.
 * `mcp-web-elements/cfworker` provides one built on `@cfworker/json-schema`.
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
function loadValidatorModule(): Promise<ValidatorImplementation> {
  loading ??= Promise.resolve().then(async () => {
    const compiler = plugged;
    // Two separate import() calls: in one expression, Vite preloads both chunks (ajv too) whichever runs. Each
    // the module, not its names destructured: Vite wraps a destructuring import() in code that picks the names.
    let implementation: ValidatorImplementation;
    if (compiler) implementation = await import('./schema-guard.js').then((module) => module.pluggedIn(compiler));
    // ajv, or where the page forbids eval (which ajv needs) @cfworker/json-schema.
    else implementation = await import('./eval-policy.js').then((module) => module.defaultValidator(useSchemaCompiler));
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
  if (!loaded) throw notLoaded('The schema validator is not loaded yet; await ensureValidator() first');
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
