/**
 * The ajv-backed implementation behind {@link ./schema.ts}. Loaded lazily.
 *
 * ajv compiles schemas to functions (`new Function`), so pages using validation
 * need a CSP that allows it; the README says so.
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
import { McpClientError } from './errors.js';
import { backtrackingRisk } from './regex-safety.js';
import { checkSchemaBounds, schemaDialect, type SchemaLimits, type ValidationIssue, type Validator } from './schema.js';

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
    path = `${path}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    message = 'is required';
  }
  return { path, message, keyword: error.keyword, params: error.params as Record<string, unknown> };
}

// Keywords whose values are data, not subschemas: a "pattern" inside them is just a value.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * The schema without the regular expressions that could backtrack for exponential
 * time (ReDoS): risky `pattern`s are dropped, and a risky `patternProperties` key
 * drops that entry and the `additionalProperties` / `unevaluatedProperties` beside
 * it, whose meaning depends on it. The input is not changed.
 */
function withoutRiskyPatterns(schema: object): { schema: object; skipped: string[] } {
  const found: { path: (string | number)[]; pattern: string; key: boolean; reason: string }[] = [];
  // Iterative: the schema is within the bounds already, but a stack is cheap insurance.
  const stack: [unknown, (string | number)[]][] = [[schema, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      node.forEach((value, i) => stack.push([value, [...path, i]]));
      continue;
    }
    const record = node as Record<string, unknown>;
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
    for (const [key, value] of Object.entries(record)) if (!DATA_KEYWORDS.has(key)) stack.push([value, [...path, key]]);
  }
  if (found.length === 0) return { schema, skipped: [] };
  const copy = structuredClone(schema) as Record<string, unknown>;
  const skipped: string[] = [];
  for (const { path, pattern, key, reason } of found) {
    let target: any = copy;
    for (const step of path) target = target[step];
    const where = `#/${path.join('/')}`;
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

const compiled = new WeakMap<object, Validator>();

/** See {@link ./schema.ts compileSchema}. */
export function compile(schema: unknown, limits: SchemaLimits): Validator {
  if (typeof schema === 'boolean') return schema ? () => ({ valid: true }) : () => ({ valid: false, issues: [{ path: '', message: 'no value is allowed', keyword: 'false', params: {} }] });
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new McpClientError('schema', 'The schema is not a JSON object');
  }
  const cached = compiled.get(schema);
  if (cached) return cached;
  const dialect = schemaDialect(schema);
  if (typeof dialect === 'object') {
    throw new McpClientError('schema', `JSON Schema dialect ${JSON.stringify(dialect.unsupported)} is not supported (supported: 2020-12, draft-07)`, { dialect: dialect.unsupported });
  }
  const overBound = checkSchemaBounds(schema, limits);
  if (overBound) throw new McpClientError('schema', `The schema is too complex to check safely: ${overBound}`, { limits });

  const safe = withoutRiskyPatterns(schema);
  // Schemas with `$id` register under that id, and two tools may reuse one id: give them their own instance.
  const ajv = hasId(schema) ? create(dialect) : (shared[dialect] ??= create(dialect));
  let check: ReturnType<AjvInstance['compile']>;
  try {
    check = ajv.compile(safe.schema);
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
  const run = (value: unknown): ReturnType<Validator> => {
    if (check(value)) return { valid: true };
    return { valid: false, issues: (check.errors ?? []).map(toIssue) };
  };
  const validator: Validator = safe.skipped.length > 0 ? Object.assign(run, { skipped: safe.skipped }) : run;
  compiled.set(schema, validator);
  return validator;
}
