/**
 * The contract between the tool form's field renderer (fields.ts) and the
 * renderers of each kind of field (scalar-fields.ts, choice-fields.ts,
 * container-fields.ts): what the element lends the renderer (RenderHost), the
 * place of one field in the form (Slot) and the state kept for it across
 * renders (Cell), and the renderer as the kinds use it (FieldScope). Types and
 * the render budgets only.
 *
 * @module
 */
import type { nothing, TemplateResult } from 'lit';
import type { DirectiveResult } from 'lit/directive.js';
import type { Draft } from './draft.js';
import type { Field, FormModel, ObjectField, PropertyEntry, StringField } from './model.js';

/** What the renderer needs from the element. */
export interface RenderHost {
  readonly model: FormModel;
  /** Messages to show at exactly this pointer, or at pointers below it that no rendered field claims. */
  errorsAt(pointer: string, claimsBelow: 'all' | ((token: string) => boolean) | 'none'): string[];
  /** Whether a collapsed optional/recursive object (or a long text shown in full: `pointer` + a `#` suffix) was opened by the user. */
  isExpanded(pointer: string): boolean;
  setExpanded(pointer: string, open: boolean): void;
  /** How many declared members of the object at `pointer` are shown (a page at a time). */
  shownMembers(pointer: string): number;
  setShownMembers(pointer: string, count: number): void;
  /** Renders the form again: state the fields keep themselves changed (the search of a long choice, long-choices.ts). */
  update(): void;
  /** Suggestions for a string field (a combobox), once the form's completion support has loaded. */
  completion?(field: StringField, id: string, pick: (value: string) => void): FieldCompletion | undefined;
}

/** What a string field needs to be a combobox (see `completions.ts`, loaded on demand). */
export interface FieldCompletion {
  aria: { role: string | undefined; expanded: string | undefined; controls: string | undefined; active: string | undefined; autocomplete: string | undefined };
  input(value: string): void;
  keydown(event: KeyboardEvent): void;
  close(): void;
  listbox(): TemplateResult | typeof nothing;
}

/** Declared members of an object shown at first, and added by each "Show more". */
export const MEMBERS_PER_PAGE = 100;
/** Fields one render shows at most before untouched objects, lists and unions stay folded. */
export const RENDER_BUDGET = 1_500;

/** Replaces a field's draft; `final` is true for committed changes (a `change` event). */
export type Setter = (next: Draft | undefined, final: boolean) => void;

/** What one field renders to: its template, behind `keep` so an unchanged field is skipped. */
export type Rendered = TemplateResult | DirectiveResult;

export interface Slot {
  field: Field;
  draft: Draft | undefined;
  required: boolean;
  pointer: string;
  set: Setter;
  /** A label to use instead of the field's (array items, union values). */
  label?: string;
  /** Words of the label only screen readers need (" of Stops" after "Item 1"). */
  labelSuffix?: string;
  /** An array item: always present, so no "required" mark. */
  item?: boolean;
  /** An object rendered inline (the root, a union variant): no fieldset of its own. */
  inline?: boolean;
  /** The content of a union's chosen variant: same pointer as the union, so it gets its own ids and no `data-pointer`. */
  variant?: boolean;
  /**
   * Where the field sits among the rendered fields, when that is not `pointer`
   * (a union's variant shares its pointer, two map rows may share a name): the
   * key of its memo and setter cell.
   */
  key?: string;
  /** The field's cell (set by `render`, which every field goes through). */
  cell?: Cell;
}

/**
 * One rendered place of the form, kept across renders: the setter its
 * template's listeners call, and the last render with what it was made from.
 */
export interface Cell {
  /** The setter the parent gave in its latest render. */
  set: Setter;
  /** What the field's listeners call: always the latest `set` (a skipped field's listeners are its earlier render's). */
  readonly stable: Setter;
  /**
   * A container's latest draft, which its members' (items', rows', variant's) setters apply their
   * edits to; each edit updates it at once, so edits made before the next render (a browser
   * autofilling several fields in one task) add up instead of replacing each other.
   */
  draft?: Draft | undefined;
  /** The draft as the container's last render had it: what `draft` goes back to when a render skips the container (an edit the form did not take). */
  base?: Draft | undefined;
  /** An object's member setters by name, made once (they read `draft` when called). */
  setters?: Map<string, Setter>;
}

/** The renderer as the renderers of each kind of field use it (see `FieldRenderer` in fields.ts). */
export interface FieldScope {
  readonly model: FormModel;
  readonly host: RenderHost;
  /** Whether every error is shown (after the first submit), or only JSON parse errors. */
  readonly showErrors: boolean;
  /** Fields rendered so far in this render (see RENDER_BUDGET). */
  readonly rendered: number;
  /** The field of `slot`: its last render when nothing it is made from changed, else a new one. */
  render(slot: Slot): Rendered;
  /** The fields of an object's `shown` members, in runs skipped while none of their members changed. */
  members(slot: Slot, field: ObjectField, shown: readonly PropertyEntry[], draft: (Draft & { k: 'obj' }) | undefined, setMember: (key: string) => Setter): Rendered[];
  /** Says that a field rendered now depends on state outside its inputs (a combobox's suggestions): it and the fields above it are rendered each time. */
  volatile(): void;
}
