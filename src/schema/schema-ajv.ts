/**
 * The ajv-backed implementation behind {@link ./schema.ts}. Loaded lazily.
 *
 * ajv compiles schemas to functions (`new Function`), so pages using validation
 * need a CSP that allows it; docs/validation.md says so. Pages that cannot allow it, or
 * want a smaller download, plug in another library with `useSchemaCompiler`
 * (`mcp-web-elements/cfworker`), and this module is then never loaded.
 *
 * Both dialects come from ajv's full entry points, meta-schemas included:
 * compiling checks the schema against its dialect's meta-schema, which is what
 * refuses an invalid schema (`minLength: -1`, `properties: { a: 5 }`, repeated
 * `required` names…). Measured for the bench (issue 8): `ajv/dist/core` plus the
 * vocabularies saves 7 B while the meta-schemas stay (ajv-formats imports
 * `ajv` itself), and without them (`meta: false`, `validateSchema: false`) the
 * chunk is about 2 KB gzip smaller but such schemas compile silently. fast-uri
 * is imported by ajv's runtime whatever the `uriResolver` option says.
 *
 * @module
 */
import * as Ajv2020Module from 'ajv/dist/2020.js';
import * as AjvModule from 'ajv';
import * as formatsModule from 'ajv-formats';
import type { ErrorObject } from 'ajv';
import { McpClientError } from '../protocol/errors.js';
import type { ValidationIssue } from './schema-base.js';
import { guarded, patternRegExp } from './schema-guard.js';
import { escapeToken } from './schema-walk.js';

type AjvInstance = {
  compile(schema: unknown): ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };
};
type AjvClass = new (options: Record<string, unknown>) => AjvInstance;

// CommonJS interop: the class is the default export, sometimes nested once more.
function unwrap<T>(module: unknown): T {
  let value = module as { default?: unknown };
  while (typeof value !== 'function' && value && 'default' in value) value = value.default as { default?: unknown };
  return value as T;
}

const Ajv2020 = unwrap<AjvClass>(Ajv2020Module);
const AjvDraft07 = unwrap<AjvClass>(AjvModule);
const addFormats = unwrap<(ajv: AjvInstance) => void>(formatsModule);

const OPTIONS = {
  // Real-world schemas carry non-standard keywords (x-mcp-header, enumNames…): tolerate them.
  strict: false,
  allErrors: true,
  // No `loadSchema`: remote references are never fetched (basic/index "$ref Resolution").
  validateFormats: true,
  // Members are the value's own: `required: ["constructor"]` is not met by Object.prototype's.
  ownProperties: true,
  // By default ajv copies the code of every referenced definition that has no `$ref` of its own into
  // each place that references it: a 100 KB schema with 200 references to one 4,000-property
  // definition compiled for minutes. The cost estimate counts a shared definition once per place of
  // a value, not once per reference, so only small definitions (a few keywords) are copied.
  inlineRefs: 8,
  // Failures reach the caller as McpClientError; ajv would also print them (under a CSP without
  // 'unsafe-eval', the whole generated code of every schema) to the console.
  logger: false,
  // `pattern` and `patternProperties` run on the kit's linear-time engine, never on the backtracking
  // RegExp (ajv calls this while compiling; `code` only names it in standalone code, unused here).
  code: { regExp: Object.assign((pattern: string, flags: string) => patternRegExp(pattern, flags), { code: 'mcpPatternRegExp' }) },
};

const shared: Partial<Record<'2020-12' | 'draft-07', AjvInstance>> = {};

function create(dialect: '2020-12' | 'draft-07'): AjvInstance {
  const ajv = new (dialect === '2020-12' ? Ajv2020 : AjvDraft07)(OPTIONS);
  addFormats(ajv);
  return ajv;
}

function hasId(schema: unknown, budget = { n: 2000 }): boolean {
  if (typeof schema !== 'object' || schema === null || --budget.n < 0) return false;
  if (!Array.isArray(schema) && typeof (schema as Record<string, unknown>).$id === 'string') return true;
  return Object.values(schema).some((value) => hasId(value, budget));
}

function toIssue(error: ErrorObject): ValidationIssue {
  let path = error.instancePath;
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty?: string }).missingProperty ?? '';
    path = `${path}/${escapeToken(missing)}`;
    message = 'is required';
  }
  return { path, message, keyword: error.keyword, params: error.params as Record<string, unknown> };
}

/** See {@link ./schema.ts compileSchema}; the shared checks are in {@link ./schema-guard.ts}. */
export const { compile, prepare, checkOutput } = guarded((schema, dialect, original) => {
  // Schemas with `$id` register under that id, and two tools may reuse one id: give them their own instance.
  const ajv = hasId(original) ? create(dialect) : (shared[dialect] ??= create(dialect));
  let check: ReturnType<AjvInstance['compile']>;
  try {
    check = ajv.compile(schema);
  } catch (error) {
    const text = (error as Error)?.message ?? String(error);
    const missingRef = (error as { missingRef?: string }).missingRef;
    // A Content-Security-Policy without 'unsafe-eval' forbids the compiled validator itself.
    const blocked = (error as Error)?.name === 'EvalError' || /unsafe-eval|Content Security Policy/i.test(text);
    throw new McpClientError(
      'schema',
      missingRef
        ? `The schema references ${JSON.stringify(missingRef)}, which is not inside the schema (network references are never fetched)`
        : blocked
          ? `The page's Content-Security-Policy does not allow compiling schema validators ('unsafe-eval' is needed); values cannot be checked against the schema`
          : `The schema is invalid: ${text}`,
      { dialect, missingRef },
      { cause: error },
    );
  }
  return (value) => (check(value) ? { valid: true } : { valid: false, issues: (check.errors ?? []).map(toIssue) });
});
