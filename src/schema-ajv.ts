/**
 * The ajv-backed implementation behind {@link ./schema.ts}. Loaded lazily.
 *
 * ajv compiles schemas to functions (`new Function`), so pages using validation
 * need a CSP that allows it; the README says so.
 *
 * @module
 */
import * as Ajv2020Module from 'ajv/dist/2020.js';
import * as AjvModule from 'ajv';
import * as formatsModule from 'ajv-formats';
import type { ErrorObject } from 'ajv';
import { McpClientError } from './errors.js';
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

  // Schemas with `$id` register under that id, and two tools may reuse one id: give them their own instance.
  const ajv = hasId(schema) ? create(dialect) : (shared[dialect] ??= create(dialect));
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
  const validator: Validator = (value) => {
    if (check(value)) return { valid: true };
    return { valid: false, issues: (check.errors ?? []).map(toIssue) };
  };
  compiled.set(schema, validator);
  return validator;
}
