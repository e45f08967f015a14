/**
 * A {@link SchemaCompiler} built on
 * [`@cfworker/json-schema`](https://www.npmjs.com/package/@cfworker/json-schema),
 * published as `mcp-web-elements/cfworker` (`src/cfworker.ts`) for
 * `useSchemaCompiler` (a dependency of the kit, loaded only when used); the kit
 * also loads it by itself where the page forbids eval (`eval-policy.ts`).
 *
 * ```ts
 * import { useSchemaCompiler } from 'mcp-web-elements';
 * import { cfworkerCompiler } from 'mcp-web-elements/cfworker';
 * useSchemaCompiler(cfworkerCompiler);
 * ```
 *
 * Why: it interprets schemas instead of generating code, so it works under a
 * Content-Security-Policy without `'unsafe-eval'`, and it is about 6 KB gzip
 * where ajv is about 40 KB. What it does not do that ajv does: check the schema
 * itself against its dialect's meta-schema (`minLength: -1` is accepted
 * silently), `$dynamicRef`, and formats beyond its own list (date, time,
 * date-time, duration, email, hostname, ipv4, ipv6, uri, uri-reference, uuid,
 * regex, json-pointer…). It is slower on large values.
 *
 * Patterns: cfworker builds its own `new RegExp(pattern, 'u')` while checking
 * and has no option for another engine, so for a schema with patterns the
 * adapter lends it the kit's linear-time engine (`options.regExp`) as the
 * global `RegExp` for the duration of each check, which is synchronous, and
 * puts the original back afterwards, whatever happens. Nothing else runs in
 * between; regular-expression literals (cfworker's format checks) are not
 * affected.
 *
 * The issues it returns follow ajv's conventions, which the elements read:
 * ajv's keyword names and `params` (`limit`, `format`, `pattern`, `type`,
 * `allowedValue`, `missingProperty`, `additionalProperty`…), a missing required
 * member located at the member's own path, and only the failing keywords
 * themselves, not the "a subschema had errors" wrappers above them.
 *
 * Spec: basic/index "JSON Schema Usage" (2020-12 by default, draft-07 when
 * declared; `$ref` resolved inside the schema only).
 *
 * @module
 */
import { dereference, encodePointer, validate, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { McpClientError } from '../protocol/errors.js';
import { appliedSubschemas, escapeToken, forEachSchemaNode, percentDecoded, ROOT_URI, unescapeToken } from './schema-walk.js';
import type { SchemaCompiler, SchemaCompilerOptions, ValidationIssue } from './schema-base.js';

/** Keywords cfworker reports above the failing subschema's own errors; ajv reports only the latter. */
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'dependentSchemas',
  'allOf',
  '$ref',
  '$recursiveRef',
]);

/** A cfworker location (`#/a%20b/0`) as the kit writes paths: a JSON Pointer, without cfworker's percent-encoding on top. */
function pointer(location: string): string {
  return location.slice(1).split('/').map(percentDecoded).join('/');
}

/** The schema copy cfworker works on, and its index of every subschema by absolute URI. */
interface Document {
  root: Schema;
  lookup: Record<string, Schema | boolean>;
}

/**
 * The subschema a unit's `keywordLocation` points into, following references
 * on the way as cfworker resolved them (`__absolute_ref__`, which cfworker sets
 * on every node with a `$ref`: anchors and `$id`-relative references included).
 * The location's last segment is not trusted to be the keyword (cfworker writes
 * `dependantRequired`, and `contains` for `minContains`).
 */
function subschema(doc: Document, unit: OutputUnit): Record<string, unknown> | undefined {
  let node: unknown = doc.root;
  for (const segment of pointer(unit.keywordLocation).split('/').slice(1, -1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    const record = node as Record<string, unknown> & { __absolute_ref__?: string };
    node = segment === '$ref' ? doc.lookup[record.__absolute_ref__ ?? ''] : Object.hasOwn(record, unescapeToken(segment)) ? record[unescapeToken(segment)] : undefined;
  }
  return typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
}

function keywordValue(doc: Document, unit: OutputUnit): unknown {
  const parent = subschema(doc, unit);
  return parent && Object.hasOwn(parent, unit.keyword) ? parent[unit.keyword] : undefined;
}

/** The quoted names in one of cfworker's messages, matched against the whole message (names may contain quotes). */
function names(text: string, shape: RegExp): string[] {
  return text.match(shape)?.slice(1) ?? [];
}

/** One cfworker output unit in ajv's terms: keyword, params, message phrased to follow "This value …". */
/** Keywords whose message does not quote the keyword's value: it is not looked up for them (a fan-out of alternatives can fail thousands of times). */
const UNQUOTED = new Set(['required', 'uniqueItems', 'false', 'anyOf', 'oneOf', 'not', 'if', 'contains', 'minContains', 'maxContains']);

function toIssue(unit: OutputUnit, doc: Document): ValidationIssue {
  const path = pointer(unit.instanceLocation);
  const value = UNQUOTED.has(unit.keyword) ? undefined : keywordValue(doc, unit);
  const issue = (message: string, params: Record<string, unknown> = {}, at = path): ValidationIssue => ({ path: at, message, keyword: unit.keyword, params });
  switch (unit.keyword) {
    case 'required': {
      const missingProperty = names(unit.error, /^Instance does not have required property "(.*)"\.$/s)[0] ?? '';
      return issue('is required', { missingProperty }, `${path}/${escapeToken(missingProperty)}`);
    }
    case 'type': {
      return issue(`must be ${String(value)}`, { type: value });
    }
    case 'minLength':
    case 'maxLength':
      return issue(`must NOT have ${unit.keyword === 'minLength' ? 'fewer' : 'more'} than ${value} characters`, { limit: value });
    case 'minItems':
    case 'maxItems':
      return issue(`must NOT have ${unit.keyword === 'minItems' ? 'fewer' : 'more'} than ${value} items`, { limit: value });
    case 'minProperties':
    case 'maxProperties':
      return issue(`must NOT have ${unit.keyword === 'minProperties' ? 'fewer' : 'more'} than ${value} properties`, { limit: value });
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const comparison = { minimum: '>=', maximum: '<=', exclusiveMinimum: '>', exclusiveMaximum: '<' }[unit.keyword];
      return issue(`must be ${comparison} ${value}`, { comparison, limit: value });
    }
    case 'multipleOf':
      return issue(`must be multiple of ${value}`, { multipleOf: value });
    case 'pattern':
      return issue(`must match pattern "${value}"`, { pattern: value });
    case 'format':
      return issue(`must match format "${value}"`, { format: value });
    case 'enum':
      return issue('must be equal to one of the allowed values', { allowedValues: value });
    case 'const':
      return issue('must be equal to constant', { allowedValue: value });
    case 'uniqueItems': {
      const [j, i] = (unit.error.match(/\d+/g) ?? []).map(Number).sort((a, b) => a - b);
      return issue(`must NOT have duplicate items (items ## ${j} and ${i} are identical)`, { i, j });
    }
    case 'dependentRequired':
    case 'dependencies': {
      const [property = '', missingProperty] = names(unit.error, /^Instance has "(.*)" but does not have "(.*)"\.$/s);
      const declared = (value as Record<string, unknown> | undefined)?.[property];
      const list = Array.isArray(declared) ? declared : [];
      const deps = list.join(', ');
      return issue(`must have ${list.length === 1 ? 'property' : 'properties'} ${deps} when property ${property} is present`, { property, missingProperty, depsCount: list.length, deps });
    }
    case 'false':
      return { path, message: 'boolean schema is false', keyword: 'false schema', params: {} };
    case 'anyOf':
      return issue('must match a schema in anyOf');
    case 'oneOf':
      // ajv names the passing subschemas when several pass; cfworker only counts them.
      return issue('must match exactly one schema in oneOf', / \(0 matches\)/.test(unit.error) ? { passingSchemas: null } : {});
    case 'not':
      return issue('must NOT be valid');
    case 'if': {
      const failingKeyword = unit.error.includes('"else"') ? 'else' : 'then';
      return issue(`must match "${failingKeyword}" schema`, { failingKeyword });
    }
    case 'contains':
    case 'minContains':
    case 'maxContains': {
      const parent = subschema(doc, unit);
      const min = typeof parent?.minContains === 'number' ? parent.minContains : 1;
      const max = typeof parent?.maxContains === 'number' ? parent.maxContains : undefined;
      return {
        path,
        keyword: 'contains',
        message: max === undefined ? `must contain at least ${min} valid item(s)` : `must contain at least ${min} and no more than ${max} valid item(s)`,
        params: max === undefined ? { minContains: min } : { minContains: min, maxContains: max },
      };
    }
    default:
      return issue(unit.error.replace(/\.$/, '').replace(/^./, (first) => first.toLowerCase()));
  }
}

/**
 * Keywords cfworker reports as a wrapper unit followed by the units of the
 * subschema it applied, where ajv reports one error of its own:
 * - `additionalProperties` / `unevaluatedProperties: false`: one issue per
 *   unknown member, at the parent (`additionalProperty`), not a `false` schema at
 *   the member;
 * - `items` / `additionalItems` / `unevaluatedItems: false`: one issue for the
 *   array, "must NOT have more than N items";
 * - `propertyNames`: the name's own errors at the object, plus "property name
 *   must be valid".
 * Returns the issues and how many units they stand for, or undefined.
 */
function compound(units: readonly OutputUnit[], index: number, doc: Document, seen: Set<string>): { issues: ValidationIssue[]; count: number } | undefined {
  const unit = units[index]!;
  const member = units[index + 1];
  if (unit.keyword !== 'propertyNames' && member?.keyword !== 'false') return undefined;
  const path = pointer(unit.instanceLocation);
  if (unit.keyword === 'propertyNames') {
    // The name's own units follow, all located at the member (cfworker checks the name there).
    const propertyName = names(unit.error, /^Property name "(.*)" does not match schema\.$/s)[0] ?? '';
    const at = `${unit.instanceLocation}/${encodePointer(propertyName)}`;
    const issues: ValidationIssue[] = [];
    let next = index + 1;
    for (; units[next]?.instanceLocation === at; next++) if (!WRAPPERS.has(units[next]!.keyword)) issues.push({ ...toIssue(units[next]!, doc), path });
    issues.push({ path, message: 'property name must be valid', keyword: 'propertyNames', params: { propertyName } });
    return { issues, count: next - index };
  }
  if (member?.keyword !== 'false' || keywordValue(doc, unit) !== false) return undefined;
  const at = unescapeToken(pointer(member.instanceLocation).split('/').pop()!);
  if (unit.keyword === 'additionalProperties' || unit.keyword === 'unevaluatedProperties') {
    const additional = unit.keyword === 'additionalProperties';
    return {
      issues: [{ path, message: `must NOT have ${additional ? 'additional' : 'unevaluated'} properties`, keyword: unit.keyword, params: { [additional ? 'additionalProperty' : 'unevaluatedProperty']: at } }],
      count: 2,
    };
  }
  if (unit.keyword === 'items' || unit.keyword === 'additionalItems' || unit.keyword === 'unevaluatedItems') {
    // One issue per array and keyword, at the first item too many; the rest are the same fact.
    const key = `${path}\u0000${unit.keyword}`;
    const first = !seen.has(key);
    seen.add(key);
    return { issues: first ? [{ path, message: `must NOT have more than ${at} items`, keyword: unit.keyword, params: { limit: Number(at) } }] : [], count: 2 };
  }
  return undefined;
}

/**
 * Prepares the copy cfworker reads: an empty `$ref` (the current resource, as
 * `#`) is written as `#`, which cfworker resolves and `""` it skips. Values of
 * `const`, `enum`, `default` and `examples` are data and stay as they are.
 */
function normalizeReferences(schema: object): void {
  forEachSchemaNode(schema, (record) => {
    if (record.$ref === '') record.$ref = '#';
  });
}

/**
 * Every `$ref` a check can reach must name a subschema of this document: nothing
 * is fetched, and a reference that would fail while checking values is refused
 * now. As with ajv, references only in unused definitions or in unknown keywords
 * are not followed, so they do not count.
 */
function checkReferences(root: Schema, lookup: Record<string, unknown>): void {
  const seen = new Set<unknown>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || Array.isArray(node) || seen.has(node)) continue;
    seen.add(node);
    const record = node as Record<string, unknown> & { __absolute_ref__?: string };
    const ref = record.__absolute_ref__;
    if (ref !== undefined) {
      if (!Object.hasOwn(lookup, ref)) {
        const missingRef = String(record.$ref);
        throw new McpClientError('schema', `The schema references ${JSON.stringify(missingRef)}, which is not inside the schema (network references are never fetched)`, { missingRef });
      }
      stack.push(lookup[ref]);
    }
    stack.push(...appliedSubschemas(record));
  }
}

/**
 * The base URI of a schema without `$id`. cfworker's default is the page's own
 * URL, so a `$ref` naming the page would resolve to the schema (ajv refuses it),
 * and its messages would quote the page's query string. Relative references
 * such as `.`, `/` or `other.json` resolve elsewhere and are refused as not
 * inside the schema, as ajv refuses them, while relative `$id`s still work.
 */
const BASE = new URL(ROOT_URI);

/**
 * Runs `check` with `regExp` standing in for the global `RegExp` constructor
 * (`new RegExp(pattern, flags)` then returns the engine's matcher), and puts
 * the original back before returning or throwing.
 */
function withRegExp<T>(regExp: NonNullable<SchemaCompilerOptions['regExp']>, check: () => T): T {
  const original = globalThis.RegExp;
  const lent = function RegExp(pattern: unknown, flags?: unknown) {
    return regExp(String(pattern), flags === undefined ? '' : String(flags));
  };
  globalThis.RegExp = lent as unknown as RegExpConstructor;
  try {
    return check();
  } finally {
    globalThis.RegExp = original;
  }
}

/** Keywords that only say "an alternative failed": ajv lists them after the precise issues, and the dialog shows the first one. */
const UMBRELLAS = new Set(['anyOf', 'oneOf', 'if', 'not']);

/**
 * Compiles with `@cfworker/json-schema`: checks every error, not only the
 * first (like ajv's `allErrors`). The schema is copied first, because the library
 * marks the objects it reads.
 *
 * Values are checked as JSON, which is what reaches the server: a value
 * cfworker cannot take (`undefined` members, functions) is checked again after
 * a JSON round trip, so `{ a: undefined }` is `{}` as ajv sees it too.
 *
 * @throws McpClientError `schema` when a `$ref` does not resolve inside the
 *   schema; other errors from the library (a repeated `$id`) are wrapped by the
 *   kit as invalid-schema errors.
 */
export const cfworkerCompiler: SchemaCompiler = (schema, dialect, options) => {
  const copy = structuredClone(schema) as Schema;
  normalizeReferences(copy);
  const draft = dialect === 'draft-07' ? '7' : '2020-12';
  let lookup: Record<string, Schema | boolean>;
  try {
    lookup = dereference(copy, Object.create(null), BASE);
  } catch (error) {
    // An `$id` or `$ref` that is not a URI reference at all.
    if (error instanceof TypeError) throw new McpClientError('schema', `The schema has an $id or $ref that is not a valid URI: ${error.message}`, { dialect }, { cause: error });
    throw error;
  }
  checkReferences(copy, lookup);
  const doc: Document = { root: copy, lookup };
  const regExp = options?.regExp;
  const run = (value: unknown) => {
    try {
      return regExp ? withRegExp(regExp, () => validate(value, copy, draft, lookup, false)) : validate(value, copy, draft, lookup, false);
    } catch (error) {
      // A reference cycle the library cannot follow, or a value it cannot take: say so without
      // its list of known schemas.
      throw new Error(String((error as Error)?.message ?? error).split('\n')[0]);
    }
  };
  return (value) => {
    let result: ReturnType<typeof validate>;
    try {
      result = run(value);
    } catch (error) {
      const json = JSON.stringify(value);
      if (json === undefined) throw error;
      result = run(JSON.parse(json));
    }
    if (result.valid) return { valid: true };
    const issues: ValidationIssue[] = [];
    const units = result.errors;
    const seen = new Set<string>();
    for (let index = 0; index < units.length; ) {
      const unit = units[index]!;
      const replaced = compound(units, index, doc, seen);
      if (replaced) {
        issues.push(...replaced.issues);
        index += replaced.count;
        continue;
      }
      if (!WRAPPERS.has(unit.keyword) && !(unit.keyword === 'dependencies' && unit.error.includes('dependant schema'))) issues.push(toIssue(unit, doc));
      index++;
    }
    return { valid: false, issues: [...issues.filter((i) => !UMBRELLAS.has(i.keyword)), ...issues.filter((i) => UMBRELLAS.has(i.keyword))] };
  };
};
