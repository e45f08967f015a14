/**
 * The searched list of the tool form's long choices (internal/combobox.ts),
 * loaded only for a tool whose input schema may have one: an `enum`, `oneOf`
 * or `anyOf` of more than SEARCH_OVER values, which the classifier
 * (classify.ts) makes a searched field. Long enums are rare, and the
 * combobox's chunk is shared with the input dialog's body: loaded with the
 * form's parts, it would cost every form page its 1.3 KB gzip.
 *
 * The form sets up a tool with a long choice once the combobox is there
 * ({@link fieldsReady}), as it waits for its parts. Offline (the chunk cannot
 * load) the form shows that tool anyway, each searched field a plain text
 * input still checked against the values (choice-fields.ts); the next form or
 * tool that needs the combobox tries again. Loaded once per page, for every form.
 *
 * Here too, the state of each searched list (open, and its active match),
 * kept per form model: a new tool starts with every list closed.
 *
 * @module
 */
import type { ReactiveControllerHost } from 'lit';
import type { ComboboxState } from '../internal/combobox.js';
import { SEARCH_OVER } from '../internal/long-list.js';
import type { FieldScope } from './field-scope.js';
import type { FormModel } from './model.js';

type Combobox = typeof import('../internal/combobox.js');

/**
 * Objects {@link mayHaveLongChoice} looks at before it answers "may" (a cyclic
 * caller-made schema ends there). The form shows no fields for a schema of more
 * than 5,000 (`checkSchemaBounds`): past this many, a combobox is rarely loaded in vain.
 */
const WALK_BUDGET = 10_000;

/** The answer of the walk per schema: a form asks on each tool it sets up. */
const walked = new WeakMap<object, boolean>();

/**
 * Whether `schema` may have a choice the form searches: whether any object in
 * it has an `enum`, `oneOf` or `anyOf` array of more than SEARCH_OVER
 * items. The classifier's options always come from one such array (an `enum`,
 * or the alternatives of a titled `oneOf`/`anyOf`, of the schema or reached by
 * `$ref` inside it; `allOf` only narrows an enum, and pairs alternatives up to
 * 32), so a schema it makes a searched field of always answers true; one that
 * answers true without such a field (the array is a `default`'s, or mostly
 * `null`s) loads a combobox it does not use, which is harmless. One pass over
 * the schema's values with a stack, as `checkSchemaBounds` (no recursion, no
 * serialization); a schema with more than {@link WALK_BUDGET} objects (a
 * cyclic one) answers true. Cached per schema object.
 */
export function mayHaveLongChoice(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  let answer = walked.get(schema);
  if (answer === undefined) walked.set(schema, (answer = walk(schema)));
  return answer;
}

function walk(schema: object): boolean {
  const stack = [schema];
  let objects = 1;
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { enum: values, oneOf, anyOf } = node as Record<string, unknown>;
    if ([values, oneOf, anyOf].some((list) => Array.isArray(list) && list.length > SEARCH_OVER)) return true;
    for (const value of Array.isArray(node) ? (node as unknown[]) : Object.values(node)) {
      if (typeof value !== 'object' || value === null) continue;
      // Counted as they are stacked, which also bounds the stack of a wide cyclic value.
      if (++objects > WALK_BUDGET) return true;
      stack.push(value);
    }
  }
  return false;
}

/** combobox.ts, once loaded. */
let combobox: Combobox | undefined;
/**
 * The load of the combobox under way, if any: it settles after the forms
 * waiting for it were told, and never rejects. `<mcp-tool-form>`'s
 * `updateComplete` waits for it.
 */
export let comboboxLoading: Promise<void> | undefined;
/** The forms waiting for the combobox, each with the schema it waits to show. */
const waiting = new Map<ReactiveControllerHost, object>();
/** The schema each form shows without the combobox (its load failed): that form does not ask again for it. */
const fellBack = new WeakMap<ReactiveControllerHost, object>();

/**
 * Whether `form` may set up the fields of `schema` (a tool's `inputSchema`)
 * now: true when the schema has no long choice, the combobox is loaded, or its
 * load failed for this form and schema (then the searched fields are plain
 * inputs). Otherwise the combobox loads (again, after a failure for another
 * form or schema) and `form` is updated when the load has settled, whichever
 * way.
 */
export function fieldsReady(schema: object, form: ReactiveControllerHost): boolean {
  if (combobox || fellBack.get(form) === schema || !mayHaveLongChoice(schema)) return true;
  waiting.set(form, schema);
  comboboxLoading ??= import('../internal/combobox.js').then(settle, () => settle(undefined));
  return false;
}

function settle(module: Combobox | undefined): void {
  combobox = module;
  comboboxLoading = undefined;
  for (const [form, schema] of waiting) {
    if (!module) fellBack.set(form, schema);
    form.requestUpdate();
  }
  waiting.clear();
}

/** The combobox each model's searched fields render with (undefined: plain inputs). */
const shownWith = new WeakMap<FormModel, Combobox | undefined>();

/**
 * The combobox the searched fields of `model` render with: the one loaded when
 * the first of them rendered, or undefined (its load failed: plain inputs).
 * Kept for the model, so that a field never turns into another control while
 * the user types in it (a later load, another form's, serves the next tool).
 */
export function comboboxOf(model: FormModel): Combobox | undefined {
  if (!shownWith.has(model)) shownWith.set(model, combobox);
  return shownWith.get(model);
}

/** The searched lists of each model (by pointer): replaced, never changed, when one changes. */
const searches = new WeakMap<FormModel, ReadonlyMap<string, ComboboxState>>();
const CLOSED: ComboboxState = { open: false, active: 0 };

/** The searched lists of `model` as they are now: when they differ from the last render's, no field is skipped (see FieldRenderer.begin). */
export const searchesOf = (model: FormModel): ReadonlyMap<string, ComboboxState> | undefined => searches.get(model);

/** The state of the searched list at `pointer`: whether its matches are listed, and which is active. */
export const searchAt = (f: FieldScope, pointer: string): ComboboxState => searches.get(f.model)?.get(pointer) ?? CLOSED;

/** Sets the state of the searched list at `pointer`, and renders the form again when it changed. */
export function setSearchAt(f: FieldScope, pointer: string, state: ComboboxState): void {
  const now = searchAt(f, pointer);
  if (now.open === state.open && now.active === state.active) return;
  searches.set(f.model, new Map(searches.get(f.model)).set(pointer, state));
  f.host.update();
}
