/**
 * What every validator behind {@link ./schema.ts} shares, whichever library
 * compiles the schema (ajv, or a {@link SchemaCompiler} plugged in with
 * `useSchemaCompiler`): the schema is an object or a boolean, its dialect is one
 * the kit knows, it is within the work bounds, and a `pattern` that could
 * backtrack for exponential time is taken out before the library sees it
 * (spec: basic/index "JSON Schema Usage"). Loaded lazily, with the validator.
 *
 * @module
 */
import { McpClientError } from './errors.js';
import { backtrackingRisk } from './regex-safety.js';
import { checkSchemaBounds, schemaDialect, type SchemaCompiler, type SchemaDialect, type SchemaLimits, type ValidationIssue, type ValidationResult, type Validator } from './schema.js';
import { escapeToken, forEachSchemaNode, pointerTrouble, type Step } from './schema-walk.js';
import { isObject } from './types.js';

/** Compiles a schema that passed the checks; `original` is the schema as given (before risky patterns were taken out). */
type CompileChecked = (schema: Record<string, unknown>, dialect: SchemaDialect, original: object) => (value: unknown) => ValidationResult;

/** The implementation {@link ./schema.ts} loads: compile with the shared checks and a cache per schema object. */
export interface ValidatorImplementation {
  compile(schema: unknown, limits: SchemaLimits): Validator;
}

/**
 * A local `$ref` (`#/…`) must lead to a subschema: not to a member every object
 * inherits (`#/constructor`, `#/__proto__`…), which a library walking the
 * pointer with plain property access finds on Object.prototype and checks
 * nothing there (ajv does); and not into data (`#/default`, `#/enum/0`), which
 * a library would compile as a schema that the risky-pattern screening never
 * looked at. Pointers are read against their resource (the nearest enclosing
 * `$id`). A member that is simply missing is left to the library, which
 * refuses it when the reference is used.
 */
function checkLocalReference(record: Record<string, unknown>, resource: object): void {
  const ref = record.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return;
  const trouble = pointerTrouble(resource, ref);
  if (!trouble) return;
  const where = 'inherited' in trouble ? 'which is not inside the schema (network references are never fetched)' : `which points into the data of "${trouble.data}", not to a subschema`;
  throw new McpClientError('schema', `The schema references ${JSON.stringify(ref)}, ${where}`, { missingRef: ref });
}

/**
 * Screens a schema in one walk over every node that may act as a schema (a
 * member named `default` or `enum` included): refuses the local references
 * {@link checkLocalReference} describes, and returns the schema without the
 * regular expressions that could backtrack for exponential time (ReDoS). Risky
 * `pattern`s are dropped, and a risky `patternProperties` key drops that entry
 * and the `additionalProperties` / `unevaluatedProperties` beside it, whose
 * meaning depends on it. The input is not changed.
 */
function screened(schema: object): { schema: object; skipped: string[] } {
  const found: { path: Step[]; pattern: string; key: boolean; reason: string }[] = [];
  forEachSchemaNode(schema, (record, { path, resource }) => {
    checkLocalReference(record, resource);
    if (typeof record.pattern === 'string') {
      const reason = backtrackingRisk(record.pattern);
      if (reason) found.push({ path, pattern: record.pattern, key: false, reason });
    }
    const patternProperties = record.patternProperties;
    if (typeof patternProperties === 'object' && patternProperties !== null && !Array.isArray(patternProperties)) {
      for (const key of Object.keys(patternProperties)) {
        const reason = backtrackingRisk(key);
        if (reason) found.push({ path, pattern: key, key: true, reason });
      }
    }
  });
  if (found.length === 0) return { schema, skipped: [] };
  const copy = structuredClone(schema) as Record<string, unknown>;
  const skipped: string[] = [];
  for (const { path, pattern, key, reason } of found) {
    let target: any = copy;
    for (const step of path) target = target[step];
    const where = `#/${path.map(escapeToken).join('/')}`;
    if (key) {
      delete target.patternProperties[pattern];
      delete target.additionalProperties;
      delete target.unevaluatedProperties;
      skipped.push(`patternProperties ${JSON.stringify(pattern)} at ${where} is not checked: ${reason}`);
    } else {
      delete target.pattern;
      skipped.push(`pattern ${JSON.stringify(pattern)} at ${where} is not checked: ${reason}`);
    }
  }
  return { schema: copy, skipped };
}

const rejectAll: Validator = () => ({ valid: false, issues: [{ path: '', message: 'no value is allowed', keyword: 'false', params: {} }] });
const acceptAll: Validator = () => ({ valid: true });

function problem(message: string): ValidationResult {
  return { valid: false, issues: [{ path: '', message, keyword: 'schema', params: {} }] };
}

function describe(error: unknown): string {
  try {
    return String((error as Error)?.message ?? error);
  } catch {
    return 'an unreadable error';
  }
}

/**
 * Wraps a library's compile step with the shared checks and a cache keyed by the
 * schema object and the limits (a tool's schema is compiled once however often
 * it is checked). Whatever the library throws while checking a value becomes
 * one issue at the root, so a form that validates on every keystroke keeps
 * working (ajv recurses without end on `{ "$ref": "#" }`).
 *
 * @throws McpClientError `schema` from `compile` when the schema is not an
 *   object, declares an unsupported dialect, is over the work bounds, or has a
 *   local `$ref` that reaches an inherited member or data; errors
 *   `compileChecked` throws pass through.
 */
export function guarded(compileChecked: CompileChecked): ValidatorImplementation {
  const compiled = new WeakMap<object, { limits: SchemaLimits; validator: Validator }>();
  return {
    compile(schema, limits) {
      if (typeof schema === 'boolean') return schema ? acceptAll : rejectAll;
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
        throw new McpClientError('schema', 'The schema is not a JSON object');
      }
      const cached = compiled.get(schema);
      if (cached && cached.limits.maxDepth === limits.maxDepth && cached.limits.maxNodes === limits.maxNodes) return cached.validator;
      const dialect = schemaDialect(schema);
      if (typeof dialect === 'object') {
        throw new McpClientError('schema', `JSON Schema dialect ${JSON.stringify(dialect.unsupported)} is not supported (supported: 2020-12, draft-07)`, { dialect: dialect.unsupported });
      }
      const overBound = checkSchemaBounds(schema, limits);
      if (overBound) throw new McpClientError('schema', `The schema is too complex to check safely: ${overBound}`, { limits });
      const safe = screened(schema);
      const check = compileChecked(safe.schema as Record<string, unknown>, dialect, schema);
      const run: Validator = (value) => {
        try {
          return check(value);
        } catch (error) {
          return problem(`could not be checked: ${describe(error)}`);
        }
      };
      const validator: Validator = safe.skipped.length > 0 ? Object.assign(run, { skipped: safe.skipped }) : run;
      compiled.set(schema, { limits: { ...limits }, validator });
      return validator;
    },
  };
}

/**
 * The implementation for a {@link SchemaCompiler} plugged in with
 * `useSchemaCompiler`. The compiler's mistakes are contained: a throw while
 * compiling becomes McpClientError `schema`; a throw while checking a value, or
 * an answer that is not a {@link ValidationResult}, becomes one issue at the root.
 */
export function pluggedIn(compiler: SchemaCompiler): ValidatorImplementation {
  return guarded((schema, dialect) => {
    let check: ReturnType<SchemaCompiler>;
    try {
      check = compiler(schema, dialect);
    } catch (error) {
      if (error instanceof McpClientError) throw error;
      throw new McpClientError('schema', `The schema is invalid: ${describe(error)}`, { dialect }, { cause: error });
    }
    if (typeof check !== 'function') throw new McpClientError('schema', 'The schema compiler did not return a function', { dialect });
    return (value) => {
      const result = check(value);
      if (result?.valid === true) return { valid: true };
      const issues = (result as { issues?: unknown })?.issues;
      if (!Array.isArray(issues) || issues.length === 0) return problem('is invalid');
      // The elements index errors by path and show the message: keep those usable whatever came back.
      return {
        valid: false,
        issues: issues.map((issue: Partial<ValidationIssue> | null) => ({
          path: typeof issue?.path === 'string' ? issue.path : '',
          message: typeof issue?.message === 'string' ? issue.message : 'is invalid',
          keyword: typeof issue?.keyword === 'string' ? issue.keyword : '',
          params: isObject(issue?.params) ? { ...issue.params } : {},
        })),
      };
    };
  });
}
