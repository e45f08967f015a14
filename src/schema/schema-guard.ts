/**
 * What every validator behind {@link ./schema.ts} shares, whichever library
 * compiles the schema (ajv, or a {@link SchemaCompiler} plugged in with
 * `useSchemaCompiler`): the schema is an object or a boolean, its dialect is one
 * the kit knows, it is within the work bounds, checking one value cannot take
 * more than a budget of evaluations (see `schema-cost.ts`), and its patterns
 * run on the linear-time engine, or are taken out before the library sees them
 * when they cannot run safely (see `pattern-check.ts`). Spec: basic/index
 * "JSON Schema Usage". Loaded lazily, with the validator.
 *
 * @module
 */
import { McpClientError } from '../protocol/errors.js';
import { patternEngineLoaded, patternVerdict, safeRegExp, type PatternEngine } from './patterns/pattern-check.js';
import { checkSchemaBounds, DEFAULT_SCHEMA_LIMITS, notLoaded, schemaDialect, type SchemaCompiler, type SchemaCompilerOptions, type SchemaDialect, type SchemaLimits, type SkippedCheck, type ValidationIssue, type ValidationResult, type Validator, type ValidatorImplementation } from './schema-base.js';
import { schemaCost } from './schema-cost.js';
import { pointerTrouble, schemaIndex, type SchemaIndex } from './schema-refs.js';
import { escapeToken, forEachSchemaNode, type Step } from './schema-walk.js';
import { isObject } from '../protocol/types.js';

/**
 * Compiles a schema that passed the checks; `original` is the schema as given
 * (before unsafe patterns were taken out); `options.regExp` is present when
 * the schema has patterns.
 */
type CompileChecked = (schema: Record<string, unknown>, dialect: SchemaDialect, original: object, options: SchemaCompilerOptions) => (value: unknown) => ValidationResult;

/** {@link DEFAULT_SCHEMA_LIMITS} and the defaults of the optional limits (the core keeps only the former, for its size). */
export const DEFAULT_LIMITS: Required<SchemaLimits> = { ...DEFAULT_SCHEMA_LIMITS, maxEvaluations: 10_000, maxCheckSteps: 1_000_000 };

/** The pattern engine, once loaded (it never changes afterwards). */
let patternEngine: PatternEngine | undefined;
let engineLoading: Promise<unknown> | undefined;

/** Whether one object of a schema may need the pattern engine: a member `pattern` that is a string or `patternProperties` that is an object. */
function hasPatterns(node: object): boolean {
  const record = node as Record<string, unknown>;
  return !Array.isArray(node) && (typeof record.pattern === 'string' || (typeof record.patternProperties === 'object' && record.patternProperties !== null));
}

/**
 * Whether a schema may need the pattern engine: {@link hasPatterns} for some
 * object, wherever it is (an over-approximation is harmless). Bounded: a
 * schema too large to look through is refused by the work bounds anyway.
 */
function usesPatterns(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  for (let seen = 0; stack.length > 0; seen++) {
    if (seen > USES_PATTERNS_LOOKS) return true;
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (hasPatterns(node)) return true;
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
  return false;
}

/** Objects {@link usesPatterns} looks through before it answers yes anyway. */
const USES_PATTERNS_LOOKS = 100_000;

/** Loads the linear-time pattern engine (once; again after a failed load) when `schema` may need it. */
async function prepare(schema: unknown): Promise<void> {
  if (patternEngine || (schema !== undefined && !usesPatterns(schema))) return;
  engineLoading ??= import('./patterns/linear-regexp.js').then(
    (module) => {
      patternEngine = module;
      patternEngineLoaded(module, module.backtrackingRisk);
    },
    (error: unknown) => {
      engineLoading = undefined;
      throw error;
    },
  );
  await engineLoading;
}

/**
 * `new RegExp(pattern, flags)` for the validator libraries, on the linear-time
 * engine (ajv's `code.regExp` option; the third argument of a plugged compiler).
 * Before the engine is loaded, only the library's own meta-schemas can reach
 * here (a schema with patterns is compiled after the engine is loaded: see
 * `guarded`), and those run natively.
 * @throws SyntaxError for an invalid pattern, as `new RegExp` does.
 */
export function patternRegExp(pattern: string, flags: string): { test(text: string): boolean } {
  return patternEngine ? safeRegExp(patternEngine, pattern, flags) : new RegExp(pattern, flags);
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

/** The member a subschema describes, for a notice: the last property name on its path. */
function fieldName(path: Step[]): string | undefined {
  for (let i = path.length - 2; i >= 0; i--) if (path[i] === 'properties' || path[i] === 'patternProperties') return String(path[i + 1]);
  return undefined;
}

/** What the one walk of a compile ({@link surveyed}) collects for the checks after it. */
interface Surveyed {
  /** The first work bound the schema passes, as checkSchemaBounds words it (the walk stopped there). */
  overBound?: string;
  /** What {@link usesPatterns} answers for it (found only while the pattern engine is not loaded: only then is it asked). */
  usesPatterns: boolean;
  /** The nodes with a local `$ref` (`#/…`) and their resources, in the walk's order (see {@link checkLocalReference}). */
  references: [Record<string, unknown>, object][];
  /** Every `pattern` (`key` false) and `patternProperties` key (`key` true) with the path of its subschema, in the walk's order. */
  expressions: { path: Step[]; pattern: string; key: boolean }[];
  /** The schema's references, for the cost estimate. */
  index: SchemaIndex;
}

/**
 * Walks a schema once for every check a compile makes before the library
 * sees it (`forEachSchemaNode` in schema-walk.ts, with `meet`): its work
 * bounds and whether it may need the pattern engine (every object met), and
 * over every node that may act as a schema (a member named `default` or
 * `enum` included) its local references, its patterns and where its
 * references lead. The checks then run on what was collected, in the order
 * they always ran, so each fails with the same error as when each walked the
 * schema by itself. Only a schema over its bounds is walked again, by
 * checkSchemaBounds, for the sentence (it stops at the same object).
 */
function surveyed(schema: object, limits: SchemaLimits): Surveyed {
  const found: Surveyed = { usesPatterns: false, references: [], expressions: [], index: schemaIndex() };
  found.overBound = forEachSchemaNode(
    schema,
    (record, context) => {
      found.index.add(record, context);
      if (typeof record.$ref === 'string' && record.$ref.startsWith('#/')) found.references.push([record, context.resource]);
      if (typeof record.pattern === 'string') found.expressions.push({ path: context.path, pattern: record.pattern, key: false });
      const patternProperties = record.patternProperties;
      if (isObject(patternProperties)) for (const key of Object.keys(patternProperties)) found.expressions.push({ path: context.path, pattern: key, key: true });
    },
    (node, depth, count) => {
      // As usesPatterns (what it would look through, then yes anyway); asked only before the engine is loaded.
      if (!patternEngine && (hasPatterns(node) || count > USES_PATTERNS_LOOKS + 1)) found.usesPatterns = true;
      return depth > limits.maxDepth || count > limits.maxNodes ? 'over' : undefined;
    },
  );
  // The walk stopped where checkSchemaBounds stops (the same objects in the same order): its sentence.
  if (found.overBound) found.overBound = checkSchemaBounds(schema, limits);
  return found;
}

/**
 * Returns the schema without the regular expressions found by
 * {@link surveyed} that cannot run safely (see `pattern-check.ts`: with the
 * engine loaded, only those it cannot express and whose shape could backtrack
 * for long). Such a `pattern` is dropped; such a `patternProperties` key drops
 * that entry and the `additionalProperties` / `unevaluatedProperties` beside
 * it, whose meaning depends on it. Invalid patterns are left for the library
 * to refuse. The input is not changed.
 */
function screened(schema: object, engine: PatternEngine | undefined, candidates: Surveyed['expressions']): { schema: object; skipped: SkippedCheck[]; patterns: Set<string> } {
  const found: { path: Step[]; pattern: string; key: boolean; reason: string }[] = [];
  const patterns = new Set<string>();
  for (const { path, pattern, key } of candidates) {
    patterns.add(pattern);
    if (!engine) continue;
    let verdict;
    try {
      verdict = patternVerdict(engine, pattern);
    } catch {
      continue;
    }
    if (verdict.how === 'skip') found.push({ path, pattern, key, reason: verdict.reason });
  }
  if (found.length === 0) return { schema, skipped: [], patterns };
  const copy = structuredClone(schema) as Record<string, unknown>;
  const skipped: SkippedCheck[] = [];
  for (const { path, pattern, key, reason } of found) {
    let target: any = copy;
    for (const step of path) target = target[step];
    const at = `#/${path.map(escapeToken).join('/')}`;
    const name = fieldName(path);
    if (key) {
      delete target.patternProperties[pattern];
      delete target.additionalProperties;
      delete target.unevaluatedProperties;
      const notice = `The names allowed for the entries of ${name === undefined ? 'this value' : JSON.stringify(name)} cannot be checked safely on this page, so they are not checked here.`;
      skipped.push({ keyword: 'patternProperties', at, pattern, reason: `patternProperties ${JSON.stringify(pattern)} at ${at} is not checked: ${reason}`, notice });
    } else {
      delete target.pattern;
      const notice = `The format required for ${name === undefined ? 'this value' : JSON.stringify(name)} cannot be checked safely on this page, so it is not checked here.`;
      skipped.push({ keyword: 'pattern', at, pattern, reason: `pattern ${JSON.stringify(pattern)} at ${at} is not checked: ${reason}`, notice });
    }
  }
  return { schema: copy, skipped, patterns };
}

/** Extra work per character of checking a string against `pattern` (one evaluation per 32 engine steps). */
function patternCost(pattern: string): number {
  if (!patternEngine) return 1;
  try {
    const verdict = patternVerdict(patternEngine, pattern);
    return verdict.how === 'skip' ? 0 : verdict.size / 32;
  } catch {
    return 0;
  }
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
 * Before each check, the value's own cost is counted (`schema-cost.ts`): over
 * `maxCheckSteps`, the value is not checked and the result is valid with
 * `skipped` saying so.
 *
 * @throws McpClientError `schema` from `compile` when the schema is not an
 *   object, declares an unsupported dialect, is over the work bounds (depth,
 *   parts, `maxEvaluations` along its references), or has a local `$ref` that
 *   reaches an inherited member or data; `data.loaded === false` when it has
 *   patterns and no engine was given; errors `compileChecked` throws pass
 *   through.
 */
export function guarded(compileChecked: CompileChecked): ValidatorImplementation {
  const compiled = new WeakMap<object, { limits: Required<SchemaLimits>; validator: Validator }>();
  const implementation: ValidatorImplementation = {
    prepare,
    /**
     * A tool result's `structuredContent` against the tool's `outputSchema`:
     * valid, invalid with the issues, or skipped with the reason (the schema
     * cannot be used, or the value is over the check budget), with a warning
     * for each check left out.
     */
    async checkOutput(name, schema, value, warn) {
      let reason: string;
      try {
        await prepare(schema);
        const validate = implementation.compile(schema, undefined);
        for (const check of validate.skippedChecks ?? []) warn('schema-check-skipped', `outputSchema of ${name}: ${check.reason}`);
        const outcome = validate(value);
        if (!outcome.valid) return { status: 'invalid', issues: outcome.issues };
        if (!outcome.skipped) return { status: 'valid' };
        reason = outcome.skipped;
      } catch (error) {
        reason = `the outputSchema cannot be used: ${(error as Error).message}`;
      }
      warn('schema-check-skipped', `structuredContent of ${name} is not checked: ${reason}`);
      return { status: 'skipped', reason };
    },
    compile(schema, given) {
      const limits = { ...DEFAULT_LIMITS, ...given };
      if (typeof schema === 'boolean') return schema ? acceptAll : rejectAll;
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
        throw new McpClientError('schema', 'The schema is not a JSON object');
      }
      const cached = compiled.get(schema);
      const sameLimits = cached && (Object.keys(limits) as (keyof SchemaLimits)[]).every((key) => cached.limits[key] === limits[key]);
      if (cached && sameLimits) return cached.validator;
      const dialect = schemaDialect(schema);
      if (typeof dialect === 'object') {
        throw new McpClientError('schema', `JSON Schema dialect ${JSON.stringify(dialect.unsupported)} is not supported (supported: 2020-12, draft-07)`, { dialect: dialect.unsupported });
      }
      const survey = surveyed(schema, limits);
      if (survey.overBound) throw new McpClientError('schema', `The schema is too complex to check safely: ${survey.overBound}`, { limits });
      if (!patternEngine && survey.usesPatterns) throw notLoaded('The pattern engine is not loaded yet; await ensureValidator(schema) first');
      for (const [record, resource] of survey.references) checkLocalReference(record, resource);
      const safe = screened(schema, patternEngine, survey.expressions);
      // Before compiling: a schema whose references branch out is refused here, not frozen on later.
      // Its references as the walk found them, unless unsafe patterns were taken out of a copy.
      const cost = schemaCost(safe.schema as Record<string, unknown>, limits.maxEvaluations, patternCost, safe.schema === schema ? survey.index : undefined);
      if (cost.circular) {
        throw new McpClientError('schema', 'The schema is invalid: it applies itself to the same value without end (its references form a cycle that never moves into a member or item), so no value can be checked against it', { circular: true });
      }
      // Counted beyond the schema's own size: a big flat schema (bounded by maxNodes already) is not a fan-out.
      const excess = cost.perValue - cost.size;
      if (excess > limits.maxEvaluations) {
        throw new McpClientError('schema', `The schema is too costly to check safely: checking one value could take more than ${limits.maxEvaluations} evaluations of its parts (its references branch out)`, {
          limits,
          evaluations: excess,
        });
      }
      const check = compileChecked(safe.schema as Record<string, unknown>, dialect, schema, safe.patterns.size > 0 ? { regExp: patternRegExp } : {});
      const run: Validator = (value) => {
        if (cost.measure(value, limits.maxCheckSteps) > limits.maxCheckSteps) {
          return { valid: true, skipped: `This value is too large to check against its schema on this page (more than ${limits.maxCheckSteps} steps), so it was not checked.` };
        }
        try {
          return check(value);
        } catch (error) {
          return problem(`could not be checked: ${describe(error)}`);
        }
      };
      const validator: Validator =
        safe.skipped.length > 0 ? Object.assign(run, { skipped: safe.skipped.map((check) => check.notice), skippedChecks: safe.skipped }) : run;
      compiled.set(schema, { limits: { ...limits }, validator });
      return validator;
    },
  };
  return implementation;
}

/**
 * The implementation for a {@link SchemaCompiler} plugged in with
 * `useSchemaCompiler`. The compiler's mistakes are contained: a throw while
 * compiling becomes McpClientError `schema`; a throw while checking a value, or
 * an answer that is not a {@link ValidationResult}, becomes one issue at the root.
 */
export function pluggedIn(compiler: SchemaCompiler): ValidatorImplementation {
  return guarded((schema, dialect, _original, options) => {
    let check: ReturnType<SchemaCompiler>;
    try {
      check = compiler(schema, dialect, options);
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
