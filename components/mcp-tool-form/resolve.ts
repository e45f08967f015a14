/**
 * Schema resolution for the tool form: indexes one `inputSchema` document,
 * resolves local `$ref`s, and folds `allOf` into a single schema the form can
 * lay out. DOM-free.
 *
 * What this module decides is only the *shape of the form*. Whether arguments
 * are acceptable is always decided by the validator on the original schema
 * (`src/schema/schema.ts`), so an approximation here can make a form less precise but
 * never lets invalid arguments through.
 *
 * Spec: basic/index "JSON Schema Usage" (dialects, "$ref Resolution": network
 * references are never fetched, "Composition-Keyword Resource Use": bounded work).
 *
 * @module
 */
import { isRecord, jsonEqual, tokens, type JsonRecord } from '../internal/json.js';

/** Dialects the form understands (the same as the validator). */
export type Dialect = '2020-12' | 'draft-07';

/** Why part of a schema cannot become form controls; shown to the user. */
export interface SchemaProblem {
  /** The keyword responsible (`$ref`, `allOf`, `false`, `depth`, `budget`…). */
  keyword: string;
  /** A sentence for the user. */
  message: string;
}

/** A schema after `$ref` and `allOf` are folded in. Never contains `$ref` or `allOf` at the top. */
export interface Resolved {
  schema: JsonRecord;
  /** Targets of the `$ref`s followed to get here (identity), for recursion detection. */
  refTargets: object[];
  problem?: SchemaProblem;
}

/**
 * Conditionals collected from a schema and from every `allOf` branch merged into
 * it, evaluated later against the live value. A symbol, so it can never clash
 * with a real keyword.
 */
export const CONDITIONS = Symbol('mcp-form.conditions');

/** One `if`/`then`/`else` triple. */
export interface Condition {
  if: unknown;
  then?: unknown;
  else?: unknown;
}

const DIALECT_URIS: Record<string, Dialect> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'https://json-schema.org/draft-07/schema': 'draft-07',
};

/** The dialect a root schema declares: 2020-12 when absent (basic/index "Schema Dialect"). */
export function dialectOf(root: unknown): Dialect | { unsupported: string } {
  if (!isRecord(root) || root.$schema === undefined) return '2020-12';
  if (typeof root.$schema !== 'string') return { unsupported: JSON.stringify(root.$schema) };
  return DIALECT_URIS[root.$schema.replace(/#$/, '')] ?? { unsupported: root.$schema };
}

// Keywords whose value is a map of name → subschema.
const SCHEMA_MAPS = ['$defs', 'definitions', 'properties', 'patternProperties', 'dependentSchemas'];
// Keywords whose value is one subschema (draft-07 `items` may also be an array).
const SCHEMA_VALUES = [
  'items', 'additionalItems', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains',
  'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema',
];
// Keywords whose value is an array of subschemas.
const SCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

const ROOT_BASE = 'mcp-form:///input-schema';

function stripFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash === -1 ? uri : uri.slice(0, hash);
}

function resolveUri(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

/** Work bounds of the form engine. */
export interface EngineLimits {
  /** Nesting depth of form fields; deeper subtrees become a raw-JSON field. Default 32. */
  maxDepth: number;
  /**
   * Resolution steps (each `$ref` followed, each `allOf` branch) per form model.
   * Results are cached, so re-rendering costs none. Default 20,000.
   */
  maxSteps: number;
  /** Time spent resolving, in ms, per form model. Default 500 ms. */
  maxMs: number;
}

export const DEFAULT_ENGINE_LIMITS: EngineLimits = { maxDepth: 32, maxSteps: 20_000, maxMs: 500 };

/**
 * One `inputSchema` document: where every `$id`, `$anchor` and subschema is,
 * so that references resolve without the network.
 */
export class SchemaDocument {
  readonly root: unknown;
  readonly dialect: Dialect | { unsupported: string };
  readonly limits: EngineLimits;
  /** Resolution steps left; when it reaches 0 the rest of the form becomes raw JSON. */
  steps: number;
  /** Milliseconds spent resolving so far. */
  elapsedMs = 0;
  #running: number | undefined;
  #outOfTime = false;
  readonly #resources = new Map<string, unknown>();
  readonly #anchors = new Map<string, unknown>();
  readonly #base = new WeakMap<object, string>();
  readonly #pointer = new WeakMap<object, string>();
  readonly #cache = new WeakMap<object, Resolved>();

  constructor(root: unknown, limits: EngineLimits = DEFAULT_ENGINE_LIMITS) {
    this.root = root;
    this.dialect = dialectOf(root);
    this.limits = limits;
    this.steps = limits.maxSteps;
    this.#index();
  }

  /** Base URI a subschema's relative references resolve against. */
  baseOf(node: object): string {
    return this.#base.get(node) ?? ROOT_BASE;
  }

  /** JSON Pointer of a subschema inside the root document, if it is one of its nodes. */
  pointerOf(node: object): string | undefined {
    return this.#pointer.get(node);
  }

  /** The root's base URI (its `$id`, or an internal placeholder). */
  get rootBase(): string {
    return isRecord(this.root) ? this.baseOf(this.root) : ROOT_BASE;
  }

  // Iterative walk (no recursion: a hostile schema cannot overflow the stack).
  // The caller has already checked the document against the node bound.
  #index(): void {
    const stack: [unknown, string, string][] = [[this.root, ROOT_BASE, '']];
    while (stack.length > 0) {
      const [node, parentBase, pointer] = stack.pop()!;
      if (!isRecord(node) || this.#base.has(node)) continue;
      let base = parentBase;
      const id = node.$id;
      if (typeof id === 'string') {
        if (id.startsWith('#') && this.dialect === 'draft-07') {
          // draft-07 spells anchors as `$id: "#name"`.
          this.#anchors.set(`${stripFragment(parentBase)}#${id.slice(1)}`, node);
        } else {
          const absolute = resolveUri(id, parentBase);
          if (absolute) {
            base = stripFragment(absolute);
            this.#resources.set(base, node);
          }
        }
      }
      if (pointer === '') this.#resources.set(base, node);
      for (const keyword of ['$anchor', '$dynamicAnchor']) {
        const anchor = node[keyword];
        if (typeof anchor === 'string') this.#anchors.set(`${base}#${anchor}`, node);
      }
      this.#base.set(node, base);
      this.#pointer.set(node, pointer);
      for (const keyword of SCHEMA_MAPS) {
        const map = node[keyword];
        if (isRecord(map)) for (const [key, sub] of Object.entries(map)) stack.push([sub, base, `${pointer}/${keyword}/${esc(key)}`]);
      }
      for (const keyword of SCHEMA_VALUES) {
        const sub = node[keyword];
        if (Array.isArray(sub)) sub.forEach((s, i) => stack.push([s, base, `${pointer}/${keyword}/${i}`]));
        else stack.push([sub, base, `${pointer}/${keyword}`]);
      }
      for (const keyword of SCHEMA_ARRAYS) {
        const list = node[keyword];
        if (Array.isArray(list)) list.forEach((s, i) => stack.push([s, base, `${pointer}/${keyword}/${i}`]));
      }
      // draft-07 `dependencies`: values are subschemas or arrays of names.
      if (isRecord(node.dependencies)) {
        for (const [key, sub] of Object.entries(node.dependencies)) if (isRecord(sub)) stack.push([sub, base, `${pointer}/dependencies/${esc(key)}`]);
      }
    }
  }

  /**
   * Finds the target of a `$ref` inside this document.
   * @returns undefined when the reference points outside the document (never fetched).
   */
  lookup(reference: string, from: object): unknown {
    const absolute = resolveUri(reference, this.baseOf(from));
    if (!absolute) return undefined;
    const hash = absolute.indexOf('#');
    const document = hash === -1 ? absolute : absolute.slice(0, hash);
    const fragment = hash === -1 ? '' : decodeURIComponent(absolute.slice(hash + 1));
    const resource = this.#resources.get(document);
    if (resource === undefined) return undefined;
    if (fragment === '') return resource;
    if (!fragment.startsWith('/')) return this.#anchors.get(`${document}#${fragment}`);
    let node: unknown = resource;
    for (const token of tokens(fragment)) {
      if (Array.isArray(node)) node = node[Number(token)];
      else if (isRecord(node)) node = Object.hasOwn(node, token) ? node[token] : undefined;
      else return undefined;
    }
    return node;
  }

  /** Spends one resolution step; false when the step or time budget is gone. */
  spend(count = 1): boolean {
    this.steps -= count;
    // Reading the clock every step would cost more than the step itself.
    if (this.#running !== undefined && this.steps % 32 === 0 && this.elapsedMs + (performance.now() - this.#running) > this.limits.maxMs) this.#outOfTime = true;
    return this.steps >= 0 && !this.#outOfTime;
  }

  /**
   * Folds `$ref` (with its siblings) and `allOf` into one schema. Results are
   * cached per subschema (they do not depend on the value being edited).
   */
  resolve(node: unknown): Resolved {
    if (node === true || (isRecord(node) && Object.keys(node).length === 0)) return { schema: {}, refTargets: [] };
    if (node === false) return { schema: {}, refTargets: [], problem: { keyword: 'false', message: 'The schema allows no value here.' } };
    if (!isRecord(node)) return { schema: {}, refTargets: [], problem: { keyword: 'type', message: 'This part of the schema is not a JSON Schema object.' } };
    const cached = this.#cache.get(node);
    if (cached) return cached;
    // Only uncached work is timed (nested calls run inside the outermost one).
    const outermost = this.#running === undefined;
    if (outermost) this.#running = performance.now();
    try {
      const result = this.#resolve(node, []);
      this.#cache.set(node, result);
      return result;
    } finally {
      if (outermost) {
        this.elapsedMs += performance.now() - this.#running!;
        this.#running = undefined;
      }
    }
  }

  #resolve(node: JsonRecord, chain: object[]): Resolved {
    if (!this.spend()) return { schema: {}, refTargets: [], problem: budgetProblem(this.limits) };
    let schema: JsonRecord = node;
    const refTargets: object[] = [];
    let problem: SchemaProblem | undefined;

    const reference = typeof node.$ref === 'string' ? node.$ref : typeof node.$dynamicRef === 'string' ? node.$dynamicRef : undefined;
    if (reference !== undefined) {
      const keyword = typeof node.$ref === 'string' ? '$ref' : '$dynamicRef';
      const target = this.lookup(reference, node);
      const { $ref: _r, $dynamicRef: _d, ...siblings } = node;
      if (target === undefined) {
        return {
          schema: siblings,
          refTargets,
          problem: { keyword, message: `${keyword} ${JSON.stringify(reference)} points outside this schema; network references are never fetched.` },
        };
      }
      if (isRecord(target) && chain.includes(target)) {
        return { schema: siblings, refTargets, problem: { keyword, message: `${keyword} ${JSON.stringify(reference)} refers to itself without ever nesting.` } };
      }
      const inner = target === true || target === false ? this.resolve(target) : isRecord(target) ? this.#resolve(target, [...chain, target]) : this.resolve(target);
      if (isRecord(target)) refTargets.push(target);
      refTargets.push(...inner.refTargets);
      problem = inner.problem;
      // The reference's own siblings (a local `description`, `default`…) win over the target's annotations.
      const own = this.#withoutAllOf(siblings, chain);
      problem ??= own.problem;
      schema = merge(own.schema, inner.schema);
    } else {
      const own = this.#withoutAllOf(node, chain);
      schema = own.schema;
      problem = own.problem;
    }
    return { schema, refTargets, ...(problem ? { problem } : {}) };
  }

  #withoutAllOf(node: JsonRecord, chain: object[]): { schema: JsonRecord; problem?: SchemaProblem } {
    const { allOf, if: ifSchema, then: thenSchema, else: elseSchema, ...rest } = node;
    let schema: JsonRecord = rest;
    if (ifSchema !== undefined) {
      const own: Condition = { if: ifSchema, ...(thenSchema !== undefined ? { then: thenSchema } : {}), ...(elseSchema !== undefined ? { else: elseSchema } : {}) };
      schema = { ...schema, [CONDITIONS]: [own] };
    }
    if (!Array.isArray(allOf)) return { schema };
    let problem: SchemaProblem | undefined;
    for (const branch of allOf) {
      const resolved = isRecord(branch) ? this.#resolve(branch, chain) : this.resolve(branch);
      problem ??= resolved.problem;
      schema = merge(schema, resolved.schema);
    }
    return { schema, ...(problem ? { problem } : {}) };
  }
}

function esc(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function budgetProblem(limits: EngineLimits): SchemaProblem {
  return { keyword: 'budget', message: `The schema needs more than ${limits.maxSteps} resolution steps or ${limits.maxMs} ms to turn into a form; this part is edited as JSON.` };
}

// --- merging ---------------------------------------------------------------------------

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
const SUBSCHEMA_KEYWORDS = [
  'items', 'additionalItems', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'contains', 'contentSchema',
];
const MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
/** Cap on the variants produced when two branches both carry `anyOf`/`oneOf`. */
const MAX_CROSS_VARIANTS = 32;

function typeList(type: unknown): string[] | undefined {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) return type as string[];
  return undefined;
}

function intersectTypes(a: unknown, b: unknown): unknown {
  const left = typeList(a);
  const right = typeList(b);
  if (!left || !right) return a;
  const out: string[] = [];
  for (const t of left) {
    if (right.includes(t)) out.push(t);
    else if (t === 'number' && right.includes('integer')) out.push('integer');
    else if (t === 'integer' && right.includes('number')) out.push('integer');
  }
  const unique = [...new Set(out)];
  return unique.length === 1 ? unique[0] : unique;
}

function both(a: unknown, b: unknown): unknown {
  if (a === false || b === false) return false;
  if (a === true || (isRecord(a) && Object.keys(a).length === 0)) return b;
  if (b === true || (isRecord(b) && Object.keys(b).length === 0)) return a;
  return { allOf: [a, b] };
}

/**
 * Merges two resolved schemas into one that a value must satisfy both of, for
 * layout purposes: properties are united (a property in both becomes an
 * `allOf` of its two schemas, resolved lazily), `required` is united, bounds
 * tighten, `type`/`enum` intersect. Annotations (`title`, `description`,
 * `default`…) come from `a` first.
 */
export function merge(a: JsonRecord, b: JsonRecord): JsonRecord {
  const out: JsonRecord & { [CONDITIONS]?: Condition[] } = { ...a };
  for (const [key, right] of Object.entries(b)) {
    if (!(key in out)) {
      out[key] = right;
      continue;
    }
    const left = out[key];
    if (MAP_KEYWORDS.includes(key) && isRecord(left) && isRecord(right)) {
      const map: JsonRecord = { ...left };
      for (const [name, sub] of Object.entries(right)) map[name] = name in map ? both(map[name], sub) : sub;
      out[key] = map;
    } else if (key === 'required' && Array.isArray(left) && Array.isArray(right)) {
      out[key] = [...new Set([...left, ...right])];
    } else if (key === 'type') {
      out[key] = intersectTypes(left, right);
    } else if (key === 'enum' && Array.isArray(left) && Array.isArray(right)) {
      out[key] = left.filter((value) => right.some((other) => jsonEqual(value, other)));
    } else if (LOWER_BOUNDS.includes(key) && typeof left === 'number' && typeof right === 'number') {
      out[key] = Math.max(left, right);
    } else if (UPPER_BOUNDS.includes(key) && typeof left === 'number' && typeof right === 'number') {
      out[key] = Math.min(left, right);
    } else if (SUBSCHEMA_KEYWORDS.includes(key) && !Array.isArray(left) && !Array.isArray(right)) {
      out[key] = both(left, right);
    } else if (key === 'prefixItems' && Array.isArray(left) && Array.isArray(right)) {
      const length = Math.max(left.length, right.length);
      out[key] = Array.from({ length }, (_, i) => (i < left.length && i < right.length ? both(left[i], right[i]) : (left[i] ?? right[i])));
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(left) && Array.isArray(right)) {
      // Both sides offer alternatives: every pairing is an alternative (bounded).
      if (left.length * right.length <= MAX_CROSS_VARIANTS) out[key] = left.flatMap((l) => right.map((r) => both(l, r)));
    } else if (key === 'dependentRequired' && isRecord(left) && isRecord(right)) {
      const map: JsonRecord = { ...left };
      for (const [name, list] of Object.entries(right)) {
        map[name] = Array.isArray(map[name]) && Array.isArray(list) ? [...new Set([...(map[name] as unknown[]), ...list])] : list;
      }
      out[key] = map;
    } else if (key === 'uniqueItems' || key === 'readOnly' || key === 'writeOnly' || key === 'deprecated') {
      out[key] = left === true || right === true;
    }
    // Anything else (annotations, `format`, `pattern`, `const`…): the first one wins;
    // the validator still checks the original schema.
  }
  const conditions = [...((a as { [CONDITIONS]?: Condition[] })[CONDITIONS] ?? []), ...((b as { [CONDITIONS]?: Condition[] })[CONDITIONS] ?? [])];
  if (conditions.length > 0) out[CONDITIONS] = conditions;
  // `const` on both sides that disagree: no value can satisfy the schema.
  if ('const' in a && 'const' in b && !jsonEqual(a.const, b.const)) out.enum = [];
  return out;
}

/** The `if`/`then`/`else` triples carried by a resolved schema. */
export function conditionsOf(schema: JsonRecord): Condition[] {
  return (schema as { [CONDITIONS]?: Condition[] })[CONDITIONS] ?? [];
}

/** A copy of `schema` without its conditionals (after they were applied). */
export function withoutConditions(schema: JsonRecord): JsonRecord {
  const { [CONDITIONS]: _c, ...rest } = schema as JsonRecord & { [CONDITIONS]?: Condition[] };
  return rest;
}
