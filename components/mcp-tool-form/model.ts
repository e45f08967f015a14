/**
 * The tool form's field model: turns a tool's `inputSchema` into fields (what
 * control, label, constraints, variants…), one level at a time, so recursive
 * schemas expand only as far as the user goes. DOM-free; unit-tested in Node.
 * Here: the model of one schema, which resolves each part, applies its
 * conditions to the live value and keeps the fields built; which field a
 * resolved part is, is classify.ts's to say; the fields are in field-kinds.ts.
 *
 * Spec: server/tools "Tool" (`inputSchema`), basic/index "JSON Schema Usage".
 *
 * @module
 */
import { compileSchemaSync, checkSchemaBounds, type McpClientError, type Validator } from '../../src/index.js';
import { isRecord, type JsonRecord } from '../internal/json.js';
import { FieldClassifier } from './classify.js';
import type { Field, FieldContext, ObjectField, UnionVariant } from './field-kinds.js';
import {
  conditionsOf,
  DEFAULT_ENGINE_LIMITS,
  merge,
  SchemaDocument,
  withoutConditions,
  type EngineLimits,
  type SchemaProblem,
} from './resolve.js';
import { conditionEvaluator, wrapForCompile, type ConditionEvaluator } from './value-checks.js';

export type { SchemaProblem } from './resolve.js';
export type {
  ArrayField,
  BooleanField,
  ConstField,
  EnumField,
  EnumOption,
  Field,
  FieldContext,
  FieldKind,
  JsonField,
  NumberField,
  ObjectField,
  PropertyEntry,
  StringField,
  UnionField,
  UnionVariant,
} from './field-kinds.js';

export interface FormModelOptions {
  limits?: EngineLimits;
  /** Custom `if` evaluation; default: the validator of `src/schema/schema.ts` (must be loaded). */
  evaluate?: ConditionEvaluator;
}

/** Loops of `if`/`then`/`else` applied to one field (a `then` may carry another `if`). */
const MAX_CONDITION_ROUNDS = 8;

/** The ancestors of the root: one shared array, so the fields below it are cached (see `FormModel.field`). */
const NO_ANCESTORS: readonly object[] = [];
/** The cache place of the root field (see `FormModel.field`). */
const ROOT_PLACE = '0\u0000\u0000';

/**
 * The form model of one `inputSchema`. Fields are built on demand with
 * {@link FormModel.field}: the form renders one level, then asks for the next.
 *
 * Work is bounded: the document must pass `checkSchemaBounds` (depth, node
 * count), nesting deeper than `limits.maxDepth` and resolution beyond
 * `limits.maxSteps` turn the rest into raw-JSON fields with the reason.
 */

export class FormModel {
  readonly inputSchema: unknown;
  readonly document: SchemaDocument;
  /** Why the whole schema cannot be used as a form (then the root is a JSON field). */
  readonly problem: SchemaProblem | undefined;
  readonly #evaluate: ConditionEvaluator;
  readonly #validators = new WeakMap<object, Validator | null>();
  /** Turns each resolved subschema into its field. */
  readonly #classifier: FieldClassifier;
  /**
   * True once building fields asked for the validator before it was loaded (an
   * `if` to evaluate, a union variant to place): the form then loads it at once
   * instead of on the first check.
   */
  validatorMissed = false;

  constructor(inputSchema: unknown, options: FormModelOptions = {}) {
    this.inputSchema = inputSchema;
    const overBound = checkSchemaBounds(inputSchema);
    this.document = new SchemaDocument(overBound ? {} : inputSchema, options.limits ?? DEFAULT_ENGINE_LIMITS);
    const dialect = this.document.dialect;
    if (overBound) {
      this.problem = { keyword: 'bounds', message: `The input schema is too large to turn into a form safely (${overBound}); edit the arguments as JSON.` };
    } else if (typeof dialect === 'object') {
      this.problem = {
        keyword: '$schema',
        message: `The input schema declares the JSON Schema dialect ${JSON.stringify(dialect.unsupported)}, which is not supported (supported: 2020-12, draft-07); edit the arguments as JSON.`,
      };
    } else if (!isRecord(inputSchema)) {
      this.problem = { keyword: 'type', message: 'The input schema is not a JSON object; edit the arguments as JSON.' };
    }
    this.#evaluate = options.evaluate ?? conditionEvaluator(this.document, () => (this.validatorMissed = true));
    this.#classifier = new FieldClassifier(this.document, (node, context) => this.field(node, context));
  }

  /**
   * A validator for one subschema of the document on its own (e.g. the chosen
   * variant of a union, for precise error messages). Cached; undefined when the
   * validator is not loaded or the subschema does not compile.
   */
  validatorFor(node: unknown): Validator | undefined {
    if (!isRecord(node)) return undefined;
    let validator = this.#validators.get(node);
    if (validator === undefined) {
      validator = null;
      try {
        validator = compileSchemaSync(wrapForCompile(this.document, node));
      } catch (error) {
        // Not loaded yet, or not compilable: the caller falls back to the whole schema.
        if ((error as McpClientError).data?.loaded === false) this.validatorMissed = true;
      }
      if (validator) this.#validators.set(node, validator);
    }
    return validator ?? undefined;
  }

  /**
   * The schemas a union variant stands for, as the validator meets them: a
   * variant the form made by pairing alternatives (`oneOf` × `anyOf`, or two
   * `allOf` branches that each carry alternatives) is an `allOf` of document
   * nodes, which the validator checks one by one.
   */
  variantParts(variant: UnionVariant): unknown[] {
    const parts: unknown[] = [];
    const visit = (node: unknown, depth: number) => {
      const paired = isRecord(node) && this.document.pointerOf(node) === undefined && Array.isArray(node.allOf) && Object.keys(node).length === 1;
      if (paired && depth < 8) for (const sub of node.allOf as unknown[]) visit(sub, depth + 1);
      else parts.push(node);
    };
    visit(variant.node, 0);
    return parts;
  }

  /**
   * Whether `value` satisfies a union variant (each schema it stands for, on
   * its own), as the validator says; undefined when it cannot tell (not loaded
   * yet, a variant that does not compile alone, a variant of a `type` list).
   */
  variantFits(variant: UnionVariant, value: unknown): boolean | undefined {
    if (variant.node === undefined) return undefined;
    let fits = true;
    for (const part of this.variantParts(variant)) {
      if (part === true || part === false) {
        fits &&= part;
        continue;
      }
      const validate = this.validatorFor(part);
      if (!validate) return undefined;
      if (!validate(value).valid) fits = false;
    }
    return fits;
  }

  /**
   * A non-fatal remark about the root schema (it does not declare
   * `"type": "object"`, as server/tools "Tool" requires); the form still works.
   */
  get notice(): SchemaProblem | undefined {
    if (this.problem || !isRecord(this.inputSchema)) return undefined;
    const root = this.field(this.inputSchema, { depth: 0, ancestors: NO_ANCESTORS });
    if (root.kind === 'json' && root.reason === 'free') {
      return { keyword: 'type', message: 'The input schema does not describe an object (MCP requires "type": "object"), so no arguments are declared; add any as JSON.' };
    }
    return undefined;
  }

  /**
   * The root field for a draft whose value `value()` gives, asked only when the
   * root depends on it (a keystroke need not assemble the whole value otherwise).
   */
  rootFor(value: () => unknown): Field {
    if (!this.problem && isRecord(this.inputSchema)) {
      const cached = this.#fields.get(this.inputSchema)?.get(NO_ANCESTORS)?.get(ROOT_PLACE);
      if (cached && !(cached.kind === 'json' && cached.reason === 'free')) return cached;
    }
    return this.root(value());
  }

  /** The field for the whole arguments object, shaped by the current `value`. */
  root(value?: unknown): Field {
    if (this.problem) return this.#classifier.json({ depth: 0, ancestors: [] }, {}, 'fallback', this.problem, 'object');
    const field = this.field(this.inputSchema, { depth: 0, ancestors: NO_ANCESTORS, value });
    if (field.kind === 'json' && field.reason === 'free') {
      // Arguments are always an object: a schema that says nothing more declares no arguments.
      const { reason: _r, expects: _e, ...rest } = field;
      return { ...rest, kind: 'object', properties: [], conditional: false };
    }
    return field;
  }

  /**
   * Fields that do not depend on the value (no `if`/`then`/`else` or
   * `dependentSchemas` where they are): built once per place in the schema, not
   * on every render. Keyed by the schema node, then the ancestors array (shared
   * by every child of a cached field) and the key and depth. A member whose
   * schema is not an object (`true`, `false`) is keyed by its parent field
   * instead (see {@link member}).
   */
  readonly #fields = new WeakMap<object, WeakMap<readonly object[], Map<string, Field>>>();

  /** The field for a subschema at `context`. */
  field(node: unknown, context: FieldContext): Field {
    if (typeof node !== 'object' || node === null) return this.#buildField(node, context);
    return this.#cached(node, context, () => this.#buildField(node, context));
  }

  /** The field cached for `node` at the place `context` gives (see `#fields`), else `build()`'s, kept unless it depends on the value. */
  #cached(node: object, context: FieldContext, build: () => Field): Field {
    let byAncestors = this.#fields.get(node);
    const place = `${context.depth}\u0000${context.key ?? '\u0000'}`;
    const cached = byAncestors?.get(context.ancestors)?.get(place);
    if (cached) return cached;
    const field = build();
    if (!this.#valueDependent.has(field)) {
      if (!byAncestors) this.#fields.set(node, (byAncestors = new WeakMap()));
      let places = byAncestors.get(context.ancestors);
      if (!places) byAncestors.set(context.ancestors, (places = new Map()));
      places.set(place, field);
    }
    return field;
  }

  /** Fields built from a schema whose conditions were applied to a value: never cached. */
  readonly #valueDependent = new WeakSet<Field>();

  /**
   * The field of member `key` of `parent` (what `field` gives for its schema
   * one level down): forms re-render and rebuild every member of an object on
   * each keystroke. `value` (the member's value, or a function giving it) is
   * asked only for a member not cached, which may depend on its value
   * (`if`/`then`/`else`, `dependentSchemas`). A member whose schema is not an
   * object (`true`, `false`) is cached too, under its parent: only objects key the cache.
   */
  member(parent: ObjectField, key: string, schema: unknown, value: unknown): Field {
    const context: FieldContext = { key, depth: parent.depth + 1, ancestors: parent.ancestors };
    const node = typeof schema === 'object' && schema !== null ? schema : parent;
    return this.#cached(node, context, () => this.#buildField(schema, { ...context, value: typeof value === 'function' ? value() : value }));
  }

  #buildField(node: unknown, context: FieldContext): Field {
    if (context.depth > this.document.limits.maxDepth) {
      return this.#classifier.json(context, {}, 'fallback', {
        keyword: 'depth',
        message: `Nested deeper than ${this.document.limits.maxDepth} levels; edit this part as JSON.`,
      });
    }
    const resolved = this.document.resolve(node);
    const recursive = resolved.refTargets.some((target) => context.ancestors.includes(target));
    const ancestors = resolved.refTargets.length > 0 ? [...context.ancestors, ...resolved.refTargets] : context.ancestors;
    const here: FieldContext = { ...context, ancestors };
    if (resolved.problem) return this.#classifier.json(here, resolved.schema, 'fallback', resolved.problem);
    const value = conditionsOf(resolved.schema).length > 0 ? this.#withPropertyDefaults(resolved.schema, context.value) : context.value;
    const { schema, conditional } = this.#applyConditions(resolved.schema, value);
    const field = this.#classifier.classify(schema, here);
    if (recursive) field.recursive = true;
    if (field.kind === 'object' && conditional) field.conditional = true;
    // Shaped by the value (or by whether the validator was there to evaluate an `if`): built anew each time.
    if (conditional || isRecord(resolved.schema.dependentSchemas)) this.#valueDependent.add(field);
    return field;
  }

  /**
   * The value conditions are evaluated against: what the user entered, plus the
   * defaults of members left untouched (the form shows and sends those too).
   */
  #withPropertyDefaults(schema: JsonRecord, value: unknown): unknown {
    if (!isRecord(schema.properties) || (value !== undefined && !isRecord(value))) return value;
    const out: JsonRecord = {};
    for (const [key, sub] of Object.entries(schema.properties)) {
      const resolved = this.document.resolve(sub);
      const fallback = resolved.schema.default;
      if (fallback !== undefined && fallback !== null) Object.defineProperty(out, key, { value: fallback, enumerable: true, writable: true, configurable: true });
    }
    for (const [key, sub] of Object.entries(value ?? {})) Object.defineProperty(out, key, { value: sub, enumerable: true, writable: true, configurable: true });
    return out;
  }

  /** Folds the `if`/`then`/`else` and `dependentSchemas` that apply to `value` into `schema`. */
  #applyConditions(schema: JsonRecord, value: unknown): { schema: JsonRecord; conditional: boolean } {
    let conditional = false;
    for (let round = 0; round < MAX_CONDITION_ROUNDS; round++) {
      const conditions = conditionsOf(schema);
      if (conditions.length === 0) break;
      conditional = true;
      let next = withoutConditions(schema);
      for (const condition of conditions) {
        const holds = this.#evaluate(condition.if, value);
        const branch = holds === true ? condition.then : holds === false ? condition.else : undefined;
        if (branch === undefined) continue;
        const resolved = this.document.resolve(branch);
        if (!resolved.problem) next = merge(next, resolved.schema);
      }
      schema = next;
    }
    if (isRecord(schema.dependentSchemas) && isRecord(value)) {
      conditional = true;
      let next: JsonRecord = { ...schema };
      for (const [key, sub] of Object.entries(schema.dependentSchemas)) {
        if (!Object.hasOwn(value, key)) continue;
        const resolved = this.document.resolve(sub);
        if (!resolved.problem) next = merge(next, resolved.schema);
      }
      schema = next;
    }
    return { schema, conditional };
  }
}

