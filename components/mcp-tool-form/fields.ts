/**
 * Renders the field model of `<mcp-tool-form>` as native controls. Every label,
 * control, hint and error of a field share the form's shadow root, so `for`
 * and `aria-describedby` resolve. Everything the server wrote (titles,
 * descriptions, enum labels) is rendered as text.
 *
 * Each field's wrapper carries stable hooks for host tests:
 * `data-pointer` (JSON Pointer of the value), `data-path` (dotted),
 * `data-kind`, and `data-invalid` while it shows an error.
 *
 * @module
 */
import { html, noChange, nothing, type TemplateResult } from 'lit';
import { Directive, directive, type DirectiveResult, type ElementPart, type Part } from 'lit/directive.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { searchCombobox } from '../internal/combobox.js';
import { child, clip, jsonEqual, stringifyBounded, type JsonValue } from '../internal/json.js';
import { dottedPath, idFor } from '../internal/dom.js';
import { DESCRIPTION_CHARS, LABEL_CHARS, labelsOf, optionNamed, VALUE_CHARS } from '../internal/long-list.js';
import {
  build,
  currentChoice,
  effectiveDraft,
  itemField,
  looseValue,
  memberField,
  parseJsonText,
  rowField,
  sharedMembers,
  showsAsChoices,
  unfoldDraft,
  untouchedAndFolded,
  valueToDraft,
  variantField,
  withChoice,
  withItems,
  withMember,
  withRows,
  withVariantDraft,
  type Draft,
  type MapRow,
} from './draft.js';
import type { ArrayField, BooleanField, ConstField, EnumField, Field, FormModel, JsonField, NumberField, ObjectField, PropertyEntry, StringField, UnionField } from './model.js';
import { patternCheck } from './value-checks.js';

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
  /** The state of the search of a long enum at `pointer`: whether its matches are listed, and which is active. */
  search(pointer: string): SearchState;
  setSearch(pointer: string, state: SearchState): void;
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

/** The list of matches under a long enum's search input. */
export interface SearchState {
  open: boolean;
  /** Index (among the matches listed) of the active one. */
  active: number;
}

/** Declared members of an object shown at first, and added by each "Show more". */
export const MEMBERS_PER_PAGE = 100;
/** Fields one render shows at most before untouched objects, lists and unions stay folded. */
export const RENDER_BUDGET = 1_500;

/** Replaces a field's draft; `final` is true for committed changes (a `change` event). */
export type Setter = (next: Draft | undefined, final: boolean) => void;

/** What one field renders to: its template, behind `keep` so an unchanged field is skipped. */
export type Rendered = TemplateResult | DirectiveResult;

interface Slot {
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
interface Cell {
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

/**
 * Members of a wide object are rendered in runs of this many, each skipped
 * as a whole while none of its members changed: a keystroke then visits the
 * run it is in, not each of hundreds of members.
 */
const CHUNK = 12;

/** A place's last render and what it was made from. */
interface Memo {
  deps: unknown[];
  /** Fields it rendered (counted against RENDER_BUDGET when skipped too). */
  count: number;
  result: DirectiveResult;
}

const NULL_OPTION = '\u0000null';


/**
 * Optional objects nested deeper than this (a top-level property is at depth 1)
 * start collapsed behind an "Add …" button while they hold no value: a wide
 * API schema (hundreds of controls) then renders its first level only, and
 * each nested object costs once the user opens it. A value (a draft, arguments
 * set, a default) keeps the object open.
 */
const COLLAPSE_DEPTH = 1;

/** A sentence of constraints for a hint: "3–80 characters", "whole number from 1 to 40"… */
export function constraintText(field: Field): string {
  const parts: string[] = [];
  const range = (low: number | undefined, high: number | undefined, unit: string) => {
    const units = (n: number) => (n === 1 ? unit.replace(/s$/, '') : unit);
    if (low !== undefined && high !== undefined) parts.push(low === high ? `exactly ${low} ${units(low)}` : `${low}–${high} ${unit}`);
    else if (low !== undefined && low > 0) parts.push(`at least ${low} ${units(low)}`);
    else if (high !== undefined) parts.push(`up to ${high} ${units(high)}`);
  };
  switch (field.kind) {
    case 'string':
      range(field.minLength, field.maxLength, 'characters');
      if (field.format && !['date', 'date-time', 'time', 'email', 'uri', 'url'].includes(field.format)) parts.push(`format: ${field.format}`);
      if (field.pattern) parts.push(`pattern: ${field.pattern}`);
      break;
    case 'number': {
      const bounds: string[] = [];
      if (field.minimum !== undefined && field.maximum !== undefined) bounds.push(`from ${field.minimum} to ${field.maximum}`);
      else {
        if (field.minimum !== undefined) bounds.push(`≥ ${field.minimum}`);
        if (field.maximum !== undefined) bounds.push(`≤ ${field.maximum}`);
      }
      if (field.exclusiveMinimum !== undefined) bounds.push(`> ${field.exclusiveMinimum}`);
      if (field.exclusiveMaximum !== undefined) bounds.push(`< ${field.exclusiveMaximum}`);
      if (field.integer) parts.push(bounds.length > 0 ? `whole number ${bounds.join(', ')}` : 'whole number');
      else if (bounds.length > 0) parts.push(bounds.join(', '));
      if (field.multipleOf !== undefined) parts.push(`multiple of ${field.multipleOf}`);
      break;
    }
    case 'array':
      range(field.minItems || undefined, field.maxItems, 'items');
      if (field.uniqueItems) parts.push('no duplicates');
      break;
    default:
      break;
  }
  return parts.join('; ');
}

/** `HH:MM` (or with seconds) from a time input → RFC 3339 `full-time` with the local offset. */
function timeToRfc(value: string): string {
  const withSeconds = value.length === 5 ? `${value}:00` : value;
  return `${withSeconds}${offset(new Date())}`;
}

/** A `datetime-local` value → RFC 3339 `date-time` with the offset in force at that local time. */
function dateTimeToRfc(value: string): string {
  const withSeconds = /T\d{2}:\d{2}$/.test(value) ? `${value}:00` : value;
  const local = new Date(withSeconds);
  return `${withSeconds}${Number.isNaN(local.getTime()) ? 'Z' : offset(local)}`;
}

function offset(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  if (minutes === 0) return 'Z';
  const sign = minutes > 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** What a date/time input shows for a stored RFC 3339 value (its wall-clock part). */
function toInputValue(field: StringField, value: string): string {
  if (field.input === 'datetime-local') return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?/.exec(value)?.[0] ?? '';
  if (field.input === 'time') return /^\d{2}:\d{2}(:\d{2})?/.exec(value)?.[0] ?? '';
  if (field.input === 'date') return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '';
  return value;
}

/** The message a control shows (`validationMessage`) when its text does not match the field's pattern. */
export const PATTERN_MISMATCH = 'Match the requested format.';

/**
 * A field's `pattern` as the control's native constraint: `setCustomValidity`
 * with {@link PATTERN_MISMATCH} when the value does not match, so
 * `checkValidity()`, `validity.customError` and `:invalid` work for hosts.
 * Not the HTML `pattern` attribute: the browser runs that on its backtracking
 * engine on every keystroke, where a server's pattern such as `^(a+)+$` or
 * `a*a*b` can freeze the page; here the kit's linear-time engine decides
 * ({@link patternCheck}). An empty value, and a pattern the kit does not run,
 * set no constraint (as the attribute sets none on an empty value).
 */
class PatternValidity extends Directive {
  render(_pattern: string | undefined, _value: string): typeof nothing {
    return nothing;
  }

  override update(part: ElementPart, [pattern, value]: [string | undefined, string]): typeof noChange {
    const control = part.element as HTMLInputElement | HTMLTextAreaElement;
    const mismatch = pattern !== undefined && value !== '' && patternCheck(pattern, value) === false;
    const message = mismatch ? PATTERN_MISMATCH : '';
    if (control.validationMessage !== message || control.validity.customError !== mismatch) control.setCustomValidity(message);
    return noChange;
  }
}
const patternValidity = directive(PatternValidity);

/**
 * Renders a template, or tells Lit nothing changed (`noChange`) when it is the
 * very template object this place showed last: a field skipped by the
 * renderer hands back its last template, and Lit then leaves its DOM alone.
 * (Lit's `guard` does the same with a dependency list; this is the one-value
 * case without the list.)
 */
class Keep extends Directive {
  #last: unknown = nothing;

  render(template: TemplateResult): TemplateResult {
    return template;
  }

  override update(_part: Part, [template]: [TemplateResult]): TemplateResult | typeof noChange {
    if (template === this.#last) return noChange;
    this.#last = template;
    return template;
  }
}
const keep = directive(Keep);

/** Input types whose box does not change size as text is typed into them. */
const TEXT_INPUTS = new Set(['text', 'search', 'email', 'url', 'number', 'tel', 'password', 'date', 'datetime-local', 'time']);

/** What each held input was measured as (its type and parts), see {@link recheckSize}. */
const heldAs = new WeakMap<HTMLInputElement, string>();
const heldKey = (input: HTMLInputElement) => `${input.type} ${input.getAttribute('part') ?? ''}`;

/**
 * While a text input has focus, its box is held at the size it has (size and
 * layout containment): each keystroke then lays out the input alone instead
 * of the whole form up to the page (a form of hundreds of fields). Measured
 * once, when focus arrives (not on a keystroke); released when it leaves.
 * Not for textareas, which the user may resize.
 */
export function holdSize(target: EventTarget | null): void {
  if (!(target instanceof HTMLInputElement) || !TEXT_INPUTS.has(target.type)) return;
  const height = target.getBoundingClientRect().height;
  if (height <= 0) return;
  heldAs.set(target, heldKey(target));
  target.style.blockSize = `${height}px`;
  target.style.contain = 'size layout';
}

/** Lets the input size itself again when focus leaves (see {@link holdSize}). */
export function releaseSize(target: EventTarget | null): void {
  if (!(target instanceof HTMLInputElement) || target.style.contain === '') return;
  heldAs.delete(target);
  target.style.removeProperty('block-size');
  target.style.removeProperty('contain');
}

/**
 * After a render: a held input that the render reused for another kind of
 * control (Lit keeps the focused `<input>` of a switched tool or variant and
 * changes its type, say text to date) is measured again, or let go when it is
 * no longer a text input. A render that leaves it as it was costs a lookup.
 */
export function recheckSize(target: Element | null): void {
  if (!(target instanceof HTMLInputElement)) return;
  const as = heldAs.get(target);
  if (as === undefined || as === heldKey(target)) return;
  releaseSize(target);
  holdSize(target);
}

function display(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The renderer of one form model, kept across renders: a field whose inputs
 * (its field, draft, place, the problems shown in it, the form's open/shown
 * state) did not change since the last render is not rendered again, and Lit
 * skips it (`keep`), so a keystroke re-renders only the path from the root
 * to the edited field. Drafts are immutable and share unchanged branches
 * (`withMember`…), so an unchanged branch keeps its draft object. A skipped
 * field's listeners still call its parent's latest setter (see {@link Cell}).
 */
export class FieldRenderer {
  #host!: RenderHost;
  readonly #model: FormModel;
  /** Whether every error is shown (after the first submit), or only JSON parse errors. */
  #showErrors = false;
  /** Cells by place (see `Slot.key`). */
  readonly #cells = new Map<string, Cell>();
  /** The last render of each place: fields by `Slot.key`, runs of members (see `#members`). */
  readonly #memos = new Map<string, Memo>();
  /** Bumped when state every field may read changes (what is expanded, shown, searched; whether errors show). */
  #epoch = 0;
  #epochOf: readonly unknown[] = [];
  /** The problems under each pointer (its own and its descendants'), as one string, while errors are shown. */
  #errorKeys = new Map<string, string>();
  /** Fields rendered whose output depends on state outside their inputs (a combobox's suggestions): never skipped. */
  #volatile = 0;

  constructor(model: FormModel) {
    this.#model = model;
  }

  /**
   * Starts a render.
   * @param state - every value besides the drafts and problems that fields read
   *   (expanded set, shown members, searches…): when one differs from the last
   *   render's (by identity), no field is skipped.
   * @param issues - the problems shown when `showErrors`.
   */
  begin(host: RenderHost, showErrors: boolean, state: readonly unknown[], issues: readonly { pointer: string; message: string }[]): void {
    this.#host = host;
    this.#showErrors = showErrors;
    this.#rendered = 0;
    if (state.length !== this.#epochOf.length || state.some((value, i) => value !== this.#epochOf[i])) {
      this.#epoch++;
      this.#epochOf = state;
    }
    this.#errorKeys = new Map();
    if (!showErrors) return;
    for (const issue of issues) {
      // The issue belongs to its own pointer and to every pointer above it.
      let at = issue.pointer;
      for (;;) {
        const before = this.#errorKeys.get(at);
        this.#errorKeys.set(at, before === undefined ? `${issue.pointer}\u0000${issue.message}` : `${before}\u0001${issue.pointer}\u0000${issue.message}`);
        if (at === '') break;
        at = at.slice(0, at.lastIndexOf('/'));
      }
    }
  }

  /** The whole arguments object. */
  root(draft: Draft | undefined, set: Setter): Rendered {
    const field = this.#model.rootFor(() => looseValue(draft));
    return this.render({ field, draft, required: true, pointer: '', set, inline: true });
  }

  /** Fields rendered so far in this render (see RENDER_BUDGET). */
  #rendered = 0;

  /** The field of `slot`: its last render when nothing it is made from changed, else a new one. */
  render(slot: Slot): Rendered {
    const key = slot.key ?? slot.pointer;
    let cell = this.#cells.get(key);
    if (!cell) {
      const created: Cell = { set: slot.set, stable: (next, final) => created.set(next, final) };
      this.#cells.set(key, (cell = created));
    }
    cell.set = slot.set;
    cell.draft = cell.base;
    const errors = this.#showErrors ? (this.#errorKeys.get(slot.pointer) ?? '') : '';
    const deps = [slot.field, slot.draft, slot.required, slot.pointer, slot.label, slot.labelSuffix, slot.item, slot.inline, slot.variant, errors, this.#epoch];
    return this.#memo(key, deps, () => {
      // Only the setters of the member runs `#members` skips are kept: an object's `draft` is set again as it renders.
      cell.draft = cell.base = undefined;
      return this.#render({ ...slot, set: cell.stable, cell });
    });
  }

  /**
   * The last render at `place` when it was made from the same `deps` (by
   * identity), else `make()`'s, kept for the next render. Not kept when the
   * budget could fold something differently, or a volatile field is inside.
   */
  #memo(place: string, deps: unknown[], make: () => TemplateResult): Rendered {
    const start = this.#rendered;
    const memo = this.#memos.get(place);
    if (memo && start + memo.count <= RENDER_BUDGET && memo.deps.length === deps.length && memo.deps.every((dep, i) => dep === deps[i])) {
      this.#rendered += memo.count;
      return memo.result;
    }
    const volatile = this.#volatile;
    const template = make();
    const count = this.#rendered - start;
    if (this.#volatile !== volatile || start + count > RENDER_BUDGET) {
      this.#memos.delete(place);
      return template;
    }
    // The same template object as last time: `keep` tells Lit there is nothing to update.
    const result = keep(template);
    this.#memos.set(place, { deps, count, result });
    return result;
  }

  #render(slot: Slot): TemplateResult {
    const { field, draft } = slot;
    this.#rendered++;
    // Any subtree in "edit as JSON" mode, and fields that are JSON by nature.
    if (draft?.k === 'json' || field.kind === 'json') return this.#json(slot);
    switch (field.kind) {
      case 'string':
        return this.#string(slot, field);
      case 'number':
        return this.#number(slot, field);
      case 'boolean':
        return this.#boolean(slot, field);
      case 'enum':
        return field.widget === 'radio' ? this.#radios(slot, field) : field.widget === 'search' ? this.#search(slot, field) : this.#select(slot, field);
      case 'const':
        return this.#const(slot, field);
      case 'object':
        return this.#object(slot, field);
      case 'array':
        return showsAsChoices(field, effectiveDraft(this.#model, field, slot.draft, slot.required)) ? this.#choices(slot, field) : this.#array(slot, field);
      case 'union':
        return this.#union(slot, field);
    }
  }

  // --- shared pieces -----------------------------------------------------------------------

  #id(slot: Slot): string {
    return idFor(slot.variant ? 'v' : 'f', slot.pointer);
  }

  /** `data-pointer` of a field's wrapper (a variant's content leaves it to its union). */
  #pointerHook(slot: Slot): string | undefined {
    return slot.variant ? undefined : slot.pointer;
  }

  #pathHook(slot: Slot): string | undefined {
    return slot.variant ? undefined : dottedPath(slot.pointer);
  }

  #errors(slot: Slot, claims: 'all' | ((token: string) => boolean) | 'none', local: string[] = []): string[] {
    const shown = this.#showErrors ? this.#host.errorsAt(slot.pointer, claims) : [];
    return [...new Set([...local, ...shown])];
  }

  /** The description as shown: cut past DESCRIPTION_CHARS until the user asks for all of it. */
  #description(slot: Slot): string | undefined {
    const text = slot.field.description;
    return text && text.length > DESCRIPTION_CHARS && !this.#host.isExpanded(`${slot.pointer}#description`) ? clip(text, DESCRIPTION_CHARS) : text;
  }

  #hintText(slot: Slot): string {
    const { field } = slot;
    return [this.#description(slot), clip(constraintText(field), DESCRIPTION_CHARS)].filter((part) => part).join(' · ');
  }

  /** "Show all" for a description cut for display. */
  #showAllDescription(slot: Slot | undefined): TemplateResult | typeof nothing {
    const text = slot?.field.description;
    if (!slot || !text || text.length <= DESCRIPTION_CHARS) return nothing;
    const key = `${slot.pointer}#description`;
    const open = this.#host.isExpanded(key);
    return html`<button type="button" part="show-all-button" class="small" aria-expanded=${open ? 'true' : 'false'} @click=${() => this.#host.setExpanded(key, !open)}>
      ${open ? 'Show less' : `Show all ${text.length.toLocaleString('en')} characters`}
    </button>`;
  }

  #describedBy(id: string, hint: string, errors: string[]): string | undefined {
    const ids = [hint ? `${id}-hint` : '', errors.length > 0 ? `${id}-error` : ''].filter(Boolean);
    return ids.length > 0 ? ids.join(' ') : undefined;
  }

  #badges(field: Field): TemplateResult | typeof nothing {
    const badges: TemplateResult[] = [];
    if (field.header) badges.push(html`<span part="badge header-badge" title="Also sent as an HTTP header, visible to proxies on the way">sent as HTTP header Mcp-Param-${field.header}</span>`);
    if (field.readOnly) badges.push(html`<span part="badge">read-only</span>`);
    if (field.deprecated) badges.push(html`<span part="badge">deprecated</span>`);
    return badges.length > 0 ? html`${badges}` : nothing;
  }

  /** The label as text (for aria-labels of buttons). */
  #label(slot: Slot): string {
    return `${clip(slot.label ?? (slot.field.label || 'Value'), LABEL_CHARS)}${slot.labelSuffix ?? ''}`;
  }

  /** The label as shown: the screen-reader-only part is visually hidden (plain text without one: no template per label). */
  #labelContent(slot: Slot): TemplateResult | string {
    const visible = clip(slot.label ?? (slot.field.label || 'Value'), LABEL_CHARS);
    return slot.labelSuffix ? html`${visible}<span class="visually-hidden">${slot.labelSuffix}</span>` : visible;
  }

  /** Whether the field shows the required mark (members the schema requires; not the root, not array items). */
  #marked(slot: Slot): boolean {
    return slot.required && !slot.item && slot.pointer !== '';
  }

  /**
   * The `*` is for the eye; screen readers get `aria-required` on the control
   * ({@link #ariaRequired}), or for a group, which cannot carry it, the word.
   */
  #requiredMark(slot: Slot, group = false): TemplateResult | typeof nothing {
    if (!this.#marked(slot)) return nothing;
    return html`<span part="required-mark" aria-hidden="true">*</span>${group ? html`<span class="visually-hidden"> (required)</span>` : nothing}`;
  }

  /** `aria-required` for a control or radio group: `"true"` exactly where the `*` is shown. */
  #ariaRequired(slot: Slot): 'true' | undefined {
    return this.#marked(slot) ? 'true' : undefined;
  }

  #hintAndError(id: string, hint: string, errors: string[], slot?: Slot): TemplateResult | typeof nothing {
    // One template for what is there (most fields have a hint and no error): no nested template per part.
    const error = errors.length > 0 ? clip(errors.join(' '), DESCRIPTION_CHARS) : undefined;
    if (hint && error === undefined) return html`<div part="hint" id="${id}-hint">${hint}</div>${this.#showAllDescription(slot)}`;
    if (hint) return html`<div part="hint" id="${id}-hint">${hint}</div>${this.#showAllDescription(slot)}<div part="error" id="${id}-error">${error}</div>`;
    return error === undefined ? nothing : html`<div part="error" id="${id}-error">${error}</div>`;
  }

  /**
   * A value too long to put in a control (a 5 MiB default): its start, and a
   * button (the field's labelled control) that shows the whole value to edit.
   * The value itself is kept and sent as it is.
   */
  #longValue(slot: Slot, kind: string, preview: string, action: string, errors: string[]): TemplateResult {
    const id = this.#id(slot);
    const hint = this.#hintText(slot);
    return this.#wrap(
      slot,
      kind,
      html`<pre part="long-value" class="long-value" id="${id}-value">${clip(preview, 2_000)}</pre>
        <button
          type="button"
          part="show-all-button"
          id=${id}
          aria-describedby=${[`${id}-value`, ...(this.#describedBy(id, hint, errors) ?? '').split(' ')].filter(Boolean).join(' ')}
          @click=${() => this.#host.setExpanded(`${slot.pointer}#value`, true)}
        >
          ${action}
        </button>`,
      errors,
    );
  }

  /** The wrapper of a single-control field. */
  #wrap(slot: Slot, kind: string, body: TemplateResult, errors: string[], extra: TemplateResult | typeof nothing = nothing): TemplateResult {
    const id = this.#id(slot);
    const hint = this.#hintText(slot);
    return html`<div
      part="field field-${kind}"
      class="field"
      data-pointer=${ifDefined(this.#pointerHook(slot))}
      data-path=${ifDefined(this.#pathHook(slot))}
      data-kind=${kind}
      ?data-invalid=${errors.length > 0}
    >
      <div part="label-row" class="label-row">
        <label part="label" for=${id}>${this.#labelContent(slot)}${this.#requiredMark(slot)}</label>
        ${this.#badges(slot.field)}${extra}
      </div>
      ${body} ${this.#hintAndError(id, hint, errors, slot)}
    </div>`;
  }

  /** "null" toggle for nullable fields. */
  #nullToggle(slot: Slot): TemplateResult | typeof nothing {
    if (!slot.field.nullable || slot.field.readOnly) return nothing;
    const isNull = slot.draft?.k === 'null';
    return html`<button
      type="button"
      part="null-button"
      class="small"
      aria-pressed=${isNull ? 'true' : 'false'}
      aria-label="${this.#label(slot)}: send null"
      @click=${() => slot.set(isNull ? { k: 'clear' } : { k: 'null' }, true)}
    >
      null
    </button>`;
  }

  // --- leaves -----------------------------------------------------------------------------

  #string(slot: Slot, field: StringField): TemplateResult {
    const id = this.#id(slot);
    const effective = effectiveDraft(this.#model, field, slot.draft, slot.required);
    const isNull = slot.draft?.k === 'null';
    const text = effective?.k === 'v' ? toInputValue(field, display(effective.v)) : effective?.k === 'text' ? effective.text : '';
    // The pattern applies to what is sent (an RFC 3339 date-time, not the input's local text).
    const sent = effective?.k === 'v' && typeof effective.v === 'string' ? effective.v : text;
    const local = effective?.k === 'text' && effective.bad ? ['Complete this value.'] : [];
    const errors = this.#errors(slot, 'all', local);
    // A long default is previewed, not put in a control, until the user asks for it.
    if (slot.draft === undefined && text.length > VALUE_CHARS && !this.#host.isExpanded(`${slot.pointer}#value`)) return this.#longValue(slot, 'string', text, `Show and edit all ${text.length.toLocaleString('en')} characters`, errors);
    const hint = this.#hintText(slot);
    const describedBy = this.#describedBy(id, hint, errors);
    const placeholder = isNull ? 'null' : typeof field.example === 'string' ? clip(field.example, LABEL_CHARS) : undefined;
    const onInput = (event: Event, final: boolean) => {
      const input = event.target as HTMLInputElement | HTMLTextAreaElement;
      // Only dates, times and e-mail addresses can hold text the browser cannot read: a plain
      // text input is not asked on every keystroke.
      if (field.input !== 'text' && field.input !== 'url' && field.input !== 'textarea' && input.validity.badInput) {
        // A date or time being typed: keep the last value in the draft, mark it incomplete.
        slot.set({ k: 'text', text, bad: true }, final);
        return;
      }
      const value = input.value;
      if (value === '') slot.set({ k: 'clear' }, final);
      else if (field.input === 'datetime-local') slot.set({ k: 'v', v: dateTimeToRfc(value) }, final);
      else if (field.input === 'time') slot.set({ k: 'v', v: timeToRfc(value) }, final);
      else slot.set({ k: 'v', v: value }, final);
    };
    // Like the arguments: only an explicitly cleared field may stay empty (when "" is valid for it).
    const required = slot.required && !(field.acceptsEmpty && effective?.k === 'clear');
    const common = {
      id,
      describedBy,
      invalid: errors.length > 0 ? 'true' : undefined,
    };
    const combo = field.input === 'textarea' || isNull ? undefined : this.#host.completion?.(field, id, (value) => slot.set({ k: 'v', v: value }, true));
    // Its suggestions change without the draft changing: rendered each time, with the fields above it.
    if (combo) this.#volatile++;
    const aria = combo?.aria;
    const control =
      field.input === 'textarea'
        ? html`<textarea
            part="control"
            id=${common.id}
            rows="4"
            .value=${text}
            ?disabled=${isNull}
            ?readonly=${field.readOnly}
            ?required=${required}
            aria-required=${ifDefined(this.#ariaRequired(slot))}
            minlength=${ifDefined(field.minLength)}
            maxlength=${ifDefined(field.maxLength)}
            placeholder=${ifDefined(placeholder)}
            aria-describedby=${ifDefined(common.describedBy)}
            aria-invalid=${ifDefined(common.invalid)}
            ${patternValidity(field.pattern, sent)}
            @input=${(e: Event) => onInput(e, false)}
            @change=${(e: Event) => onInput(e, true)}
          ></textarea>`
        : html`<input
            part="control"
            id=${common.id}
            type=${field.input}
            step=${ifDefined(field.input === 'datetime-local' || field.input === 'time' ? '1' : undefined)}
            .value=${text}
            ?disabled=${isNull}
            ?readonly=${field.readOnly}
            ?required=${required}
            aria-required=${ifDefined(this.#ariaRequired(slot))}
            minlength=${ifDefined(field.minLength)}
            maxlength=${ifDefined(field.maxLength)}
            ${patternValidity(field.pattern, sent)}
            placeholder=${ifDefined(placeholder)}
            autocomplete="off"
            role=${ifDefined(aria?.role)}
            aria-autocomplete=${ifDefined(aria?.autocomplete)}
            aria-expanded=${ifDefined(aria?.expanded)}
            aria-controls=${ifDefined(aria?.controls)}
            aria-activedescendant=${ifDefined(aria?.active)}
            aria-describedby=${ifDefined(common.describedBy)}
            aria-invalid=${ifDefined(common.invalid)}
            @input=${(e: Event) => (onInput(e, false), combo?.input((e.target as HTMLInputElement).value))}
            @change=${(e: Event) => onInput(e, true)}
            @keydown=${combo ? (e: KeyboardEvent) => combo.keydown(e) : undefined}
            @blur=${combo ? () => combo.close() : undefined}
          />`;
    return this.#wrap(slot, 'string', combo ? html`<span class="mcp-combobox">${control}${combo.listbox()}</span>` : control, errors, this.#nullToggle(slot));
  }

  #number(slot: Slot, field: NumberField): TemplateResult {
    const id = this.#id(slot);
    const effective = effectiveDraft(this.#model, field, slot.draft, slot.required);
    const isNull = slot.draft?.k === 'null';
    const text = effective?.k === 'text' ? effective.text : effective?.k === 'v' ? display(effective.v) : '';
    const errors = this.#errors(slot, 'all');
    const hint = this.#hintText(slot);
    const onInput = (event: Event, final: boolean) => {
      const input = event.target as HTMLInputElement;
      // While the browser cannot read the text as a number, keep the last text so the input is not rewritten under the user.
      if (input.validity.badInput) slot.set({ k: 'text', text, bad: true }, final);
      else if (input.value === '') slot.set({ k: 'clear' }, final);
      else slot.set({ k: 'text', text: input.value }, final);
    };
    const min = field.minimum ?? field.exclusiveMinimum;
    const max = field.maximum ?? field.exclusiveMaximum;
    const control = html`<input
      part="control"
      id=${id}
      type="number"
      inputmode=${field.integer ? 'numeric' : 'decimal'}
      step=${field.integer ? String(field.multipleOf ?? 1) : field.multipleOf !== undefined ? String(field.multipleOf) : 'any'}
      min=${ifDefined(min)}
      max=${ifDefined(max)}
      .value=${text}
      ?disabled=${isNull}
      ?readonly=${field.readOnly}
      ?required=${slot.required}
      aria-required=${ifDefined(this.#ariaRequired(slot))}
      placeholder=${ifDefined(isNull ? 'null' : typeof field.example === 'number' ? String(field.example) : undefined)}
      autocomplete="off"
      aria-describedby=${ifDefined(this.#describedBy(id, hint, errors))}
      aria-invalid=${ifDefined(errors.length > 0 ? 'true' : undefined)}
      @input=${(e: Event) => onInput(e, false)}
      @change=${(e: Event) => onInput(e, true)}
    />`;
    return this.#wrap(slot, 'number', control, errors, this.#nullToggle(slot));
  }

  #boolean(slot: Slot, field: BooleanField): TemplateResult {
    const id = this.#id(slot);
    const effective = effectiveDraft(this.#model, field, slot.draft, slot.required);
    const isNull = slot.draft?.k === 'null';
    const checked = effective?.k === 'v' && effective.v === true;
    // An optional yes/no nobody answered yet is "mixed": it is not sent at all.
    const unset = !slot.required && (effective === undefined || effective.k === 'clear') && !isNull;
    const errors = this.#errors(slot, 'all');
    const hint = this.#hintText(slot);
    const clear =
      !slot.required && !unset && !isNull && !field.readOnly && !field.default
        ? html`<button type="button" part="clear-button" class="small" aria-label="${this.#label(slot)}: leave unset" @click=${() => slot.set({ k: 'clear' }, true)}>
            unset
          </button>`
        : nothing;
    return html`<div
      part="field field-boolean"
      class="field checkbox"
      data-pointer=${ifDefined(this.#pointerHook(slot))}
      data-path=${ifDefined(this.#pathHook(slot))}
      data-kind="boolean"
      ?data-invalid=${errors.length > 0}
    >
      <div part="label-row" class="label-row">
        <input
          part="control"
          id=${id}
          type="checkbox"
          .checked=${checked}
          .indeterminate=${unset}
          ?disabled=${isNull || field.readOnly}
          aria-required=${ifDefined(this.#ariaRequired(slot))}
          aria-describedby=${ifDefined(this.#describedBy(id, hint, errors))}
          aria-invalid=${ifDefined(errors.length > 0 ? 'true' : undefined)}
          @change=${(e: Event) => slot.set({ k: 'v', v: (e.target as HTMLInputElement).checked }, true)}
        />
        <label part="label" for=${id}>${this.#labelContent(slot)}${this.#requiredMark(slot)}</label>
        ${unset ? html`<span part="badge">not set</span>` : nothing} ${this.#badges(field)} ${clear} ${this.#nullToggle(slot)}
      </div>
      ${this.#hintAndError(id, hint, errors, slot)}
    </div>`;
  }

  #selectedIndex(field: EnumField, effective: Draft | undefined): number {
    return effective?.k === 'v' ? field.options.findIndex((option) => jsonEqual(option.value, effective.v)) : -1;
  }

  #select(slot: Slot, field: EnumField): TemplateResult {
    const id = this.#id(slot);
    const effective = effectiveDraft(this.#model, field, slot.draft, slot.required);
    const selected = this.#selectedIndex(field, effective);
    const isNull = slot.draft?.k === 'null';
    const autoSingle = slot.required && field.options.length === 1 && effective?.k !== 'clear';
    const errors = this.#errors(slot, 'all');
    const hint = this.#hintText(slot);
    const value = isNull ? NULL_OPTION : selected >= 0 ? String(selected) : autoSingle ? '0' : '';
    const onChange = (event: Event) => {
      const chosen = (event.target as HTMLSelectElement).value;
      if (chosen === '') slot.set({ k: 'clear' }, true);
      else if (chosen === NULL_OPTION) slot.set({ k: 'null' }, true);
      else slot.set({ k: 'v', v: field.options[Number(chosen)]!.value }, true);
    };
    const control = html`<select
      part="control"
      id=${id}
      .value=${value}
      ?disabled=${field.readOnly}
      ?required=${slot.required}
      aria-required=${ifDefined(this.#ariaRequired(slot))}
      aria-describedby=${ifDefined(this.#describedBy(id, hint, errors))}
      aria-invalid=${ifDefined(errors.length > 0 ? 'true' : undefined)}
      @change=${onChange}
    >
      <option value="" ?selected=${value === ''}>${slot.required ? '— choose —' : '— not set —'}</option>
      ${field.nullable ? html`<option value=${NULL_OPTION} ?selected=${value === NULL_OPTION}>null</option>` : nothing}
      ${field.options.map((option, i) => html`<option value=${String(i)} ?selected=${value === String(i)}>${clip(option.label, LABEL_CHARS)}</option>`)}
    </select>`;
    return this.#wrap(slot, 'enum', control, errors);
  }

  /**
   * A long enum (more than SEARCH_OVER values): a text input checked against the
   * enum, listing at most MATCHES_SHOWN values that contain what is typed (ARIA
   * combobox, see `searchCombobox`). Typed text that names no value is kept and flagged, never sent.
   */
  #search(slot: Slot, field: EnumField): TemplateResult {
    const id = this.#id(slot);
    const effective = effectiveDraft(this.#model, field, slot.draft, slot.required);
    const labels = labelsOf(field.options);
    const typed = effective?.k === 'text' ? effective.text : undefined;
    const errors = this.#errors(slot, 'all');
    const hint = this.#hintText(slot);
    const setState = (next: SearchState) => this.#host.setSearch(slot.pointer, next);
    const control = searchCombobox({
      id,
      labels,
      selected: this.#selectedIndex(field, effective),
      typed,
      query: typed ?? '',
      state: this.#host.search(slot.pointer),
      setState,
      pick: (index) => {
        slot.set({ k: 'v', v: field.options[index]!.value }, true);
        setState({ open: false, active: 0 });
      },
      input: (value) => {
        slot.set(value === '' ? { k: 'clear' } : { k: 'text', text: value }, false);
        setState({ open: true, active: 0 });
      },
      change: (value) => {
        if (value === '') return slot.set(slot.required ? { k: 'clear' } : undefined, true);
        const named = optionNamed(labels, value);
        if (named !== -1) slot.set({ k: 'v', v: field.options[named]!.value }, true);
        else slot.set({ k: 'text', text: value }, true);
      },
      describedBy: this.#describedBy(id, hint, errors),
      invalid: errors.length > 0 ? 'true' : undefined,
      required: slot.required,
      disabled: slot.draft?.k === 'null',
      readOnly: field.readOnly,
      listLabel: `Values of ${this.#label(slot)}`,
      part: 'control search',
      spellcheck: 'false',
      listClass: 'matches',
      markChosen: true,
      noMatch: 'No allowed value contains what is typed.',
    });
    return this.#wrap(slot, 'enum', control, errors, this.#nullToggle(slot));
  }

  #radios(slot: Slot, field: EnumField): TemplateResult {
    const id = this.#id(slot);
    const effective = effectiveDraft(this.#model, field, slot.draft, slot.required);
    const selected = this.#selectedIndex(field, effective);
    const isNull = slot.draft?.k === 'null';
    const errors = this.#errors(slot, 'all');
    const hint = this.#hintText(slot);
    const describedBy = this.#describedBy(id, hint, errors);
    const choices: { key: string; label: string; checked: boolean; draft: Draft }[] = field.options.map((option, i) => ({
      key: String(i),
      label: option.label,
      checked: !isNull && selected === i,
      draft: { k: 'v', v: option.value },
    }));
    if (!slot.required) choices.push({ key: 'unset', label: 'not set', checked: !isNull && selected === -1, draft: { k: 'clear' } });
    if (field.nullable) choices.push({ key: 'null', label: 'null', checked: isNull, draft: { k: 'null' } });
    return html`<fieldset
      part="field field-enum fieldset"
      class="field radios"
      data-pointer=${ifDefined(this.#pointerHook(slot))}
      data-path=${ifDefined(this.#pathHook(slot))}
      data-kind="enum"
      ?data-invalid=${errors.length > 0}
      role="radiogroup"
      aria-required=${ifDefined(this.#ariaRequired(slot))}
      aria-describedby=${ifDefined(describedBy)}
      ?disabled=${field.readOnly}
    >
      <legend part="legend">${this.#labelContent(slot)}${this.#requiredMark(slot)} ${this.#badges(field)}</legend>
      <div part="options" class="options">
        ${choices.map(
          (choice, i) => html`<label part="option" class="option"
            ><input
              part="control radio"
              type="radio"
              id=${i === 0 ? id : `${id}-${choice.key}`}
              name=${id}
              .checked=${choice.checked}
              ?required=${slot.required}
              aria-invalid=${ifDefined(errors.length > 0 ? 'true' : undefined)}
              @change=${() => slot.set(choice.draft, true)}
            />${clip(choice.label, LABEL_CHARS)}</label
          >`,
        )}
      </div>
      ${this.#hintAndError(id, hint, errors, slot)}
    </fieldset>`;
  }

  #const(slot: Slot, field: ConstField): TemplateResult {
    const id = this.#id(slot);
    const errors = this.#errors(slot, 'all');
    const hint = this.#hintText(slot);
    if (!slot.required) {
      // An optional constant: the only choice is whether to send it.
      const included = slot.draft?.k === 'v';
      return html`<div part="field field-const" class="field checkbox" data-pointer=${ifDefined(this.#pointerHook(slot))} data-path=${ifDefined(this.#pathHook(slot))} data-kind="const" ?data-invalid=${errors.length > 0}>
        <div part="label-row" class="label-row">
          <input
            part="control"
            id=${id}
            type="checkbox"
            .checked=${included}
            aria-describedby=${ifDefined(this.#describedBy(id, hint, errors))}
            @change=${(e: Event) => slot.set((e.target as HTMLInputElement).checked ? { k: 'v', v: field.value } : { k: 'clear' }, true)}
          />
          <label part="label" for=${id}>${this.#label(slot)}: send <code>${clip(display(field.value), LABEL_CHARS)}</code></label>
        </div>
        ${this.#hintAndError(id, hint, errors, slot)}
      </div>`;
    }
    // Shown cut when long; the constant itself is what is sent.
    const control = html`<input part="control" id=${id} type="text" readonly .value=${clip(display(field.value), VALUE_CHARS)} aria-required=${ifDefined(this.#ariaRequired(slot))} aria-describedby=${ifDefined(this.#describedBy(id, hint, errors))} />`;
    return this.#wrap(slot, 'const', control, errors);
  }

  #json(slot: Slot): TemplateResult {
    const { field, draft } = slot;
    const id = this.#id(slot);
    const effective = field.kind === 'json' ? effectiveDraft(this.#model, field, draft, slot.required) : draft;
    if (draft === undefined && effective?.k === 'v' && !this.#host.isExpanded(`${slot.pointer}#value`)) {
      // A default of a million items: printed only as far as it is shown, sent as it is.
      const preview = stringifyBounded(effective.v, VALUE_CHARS);
      if (preview.truncated) return this.#longValue(slot, 'json', preview.text, 'Show and edit the whole value', this.#errors(slot, 'all'));
    }
    const text = effective?.k === 'json' ? effective.text : effective?.k === 'v' ? JSON.stringify(effective.v, null, 2) : '';
    const parsed = parseJsonText(text);
    // Parse errors are about what the user is typing: shown at once, not only after submit.
    const local = 'message' in parsed ? [parsed.message] : [];
    const errors = this.#errors(slot, 'all', local);
    const jsonField = field.kind === 'json' ? (field as JsonField) : undefined;
    const why =
      jsonField?.reason === 'fallback'
        ? `Edited as JSON: ${jsonField.problem?.message ?? 'this part of the schema cannot be shown as a form.'}`
        : jsonField?.expects === 'object'
          ? 'Any JSON object.'
          : jsonField?.expects === 'array'
            ? 'Any JSON array.'
            : jsonField
              ? 'Any JSON value.'
              : '';
    const hint = [this.#description(slot), clip(why, DESCRIPTION_CHARS)].filter(Boolean).join(' · ');
    const describedBy = [hint ? `${id}-hint` : '', errors.length > 0 ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
    // A subtree the user switched to JSON can switch back once its text parses.
    const back =
      field.kind !== 'json'
        ? html`<button
            type="button"
            part="raw-toggle"
            class="small"
            aria-pressed="true"
            ?disabled=${'message' in parsed}
            @click=${() => {
              if ('value' in parsed) slot.set(valueToDraft(this.#model, field, parsed.value), true);
              else slot.set(undefined, true);
            }}
          >
            Edit as form
          </button>`
        : nothing;
    const kind = field.kind === 'json' ? 'json' : `${field.kind}`;
    return html`<div
      part="field field-json"
      class="field"
      data-pointer=${ifDefined(this.#pointerHook(slot))}
      data-path=${ifDefined(this.#pathHook(slot))}
      data-kind=${kind}
      data-json=${jsonField ? jsonField.reason : 'raw'}
      ?data-invalid=${errors.length > 0}
    >
      <div part="label-row" class="label-row">
        <label part="label" for=${id}>${this.#labelContent(slot)}${this.#requiredMark(slot)}</label>
        <span part="badge">JSON</span> ${this.#badges(field)} ${back} ${field.kind === 'json' ? this.#nullToggle(slot) : nothing}
      </div>
      <textarea
        part="control json"
        id=${id}
        rows=${Math.min(12, Math.max(3, text.split('\n').length))}
        spellcheck="false"
        autocomplete="off"
        .value=${text}
        ?readonly=${field.readOnly}
        ?disabled=${draft?.k === 'null'}
        aria-required=${ifDefined(this.#ariaRequired(slot))}
        placeholder=${draft?.k === 'null' ? 'null' : jsonField?.expects === 'array' ? '[ ]' : jsonField?.expects === 'object' ? '{ }' : ''}
        aria-describedby=${ifDefined(describedBy)}
        aria-invalid=${ifDefined(errors.length > 0 ? 'true' : undefined)}
        @input=${(e: Event) => slot.set({ k: 'json', text: (e.target as HTMLTextAreaElement).value }, false)}
        @change=${(e: Event) => slot.set({ k: 'json', text: (e.target as HTMLTextAreaElement).value }, true)}
      ></textarea>
      ${this.#hintAndError(id, hint, errors, slot)}
    </div>`;
  }

  // --- containers -------------------------------------------------------------------------

  /** "Edit as JSON" for a container: seeds the text with what the subtree would send. */
  #rawToggle(slot: Slot): TemplateResult {
    return html`<button
      type="button"
      part="raw-toggle"
      class="small"
      aria-pressed="false"
      aria-label="Edit ${this.#label(slot)} as JSON"
      @click=${() => {
        const built = build(this.#model, slot.field, slot.draft, slot.required, slot.pointer, []);
        slot.set({ k: 'json', text: built.value === undefined ? '' : JSON.stringify(built.value, null, 2) }, true);
      }}
    >
      Edit as JSON
    </button>`;
  }

  #fieldset(slot: Slot, kind: string, body: TemplateResult | (Rendered | typeof nothing)[], errors: string[], tools: TemplateResult | typeof nothing = nothing): TemplateResult {
    const id = this.#id(slot);
    const hint = this.#hintText(slot);
    return html`<fieldset
      part="field field-${kind} fieldset"
      class="field group"
      data-pointer=${ifDefined(this.#pointerHook(slot))}
      data-path=${ifDefined(this.#pathHook(slot))}
      data-kind=${kind}
      ?data-invalid=${errors.length > 0}
      aria-describedby=${ifDefined(this.#describedBy(id, hint, errors))}
    >
      <legend part="legend">${this.#labelContent(slot)}${this.#requiredMark(slot, true)}</legend>
      <div part="group-tools" class="group-tools">${this.#badges(slot.field)} ${this.#nullToggle(slot)} ${tools}</div>
      ${this.#hintAndError(id, hint, errors, slot)} ${body}
    </fieldset>`;
  }

  #object(slot: Slot, field: ObjectField): TemplateResult {
    const effective = effectiveDraft(this.#model, field, slot.draft, slot.required);
    const draft = effective?.k === 'obj' ? effective : undefined;
    const isNull = slot.draft?.k === 'null';
    const rows = draft?.rows ?? [];
    // Problems below the object that none of its members or rows claim are its own. The names are
    // gathered when problems are shown, not on each render (a keystroke in an object of hundreds).
    let claimed: Set<string> | undefined;
    const errors = this.#errors(slot, (token) => !(claimed ??= new Set([...field.properties.map((entry) => entry.key), ...rows.map((row) => row.key)])).has(token));
    // The member drafts live inside the object draft: editing one materialises the object.
    const cell = slot.cell!;
    cell.draft = cell.base = draft;
    // A member's setter applies its edit to the object's latest draft: a run of members skipped by
    // a render keeps the setters of the render that made it.
    const setMember = (key: string): Setter => {
      let setter = cell.setters?.get(key);
      if (!setter) {
        setter = (next, final) => cell.stable((cell.draft = withMember(cell.draft, key, next)), final);
        (cell.setters ??= new Map()).set(key, setter);
      }
      return setter;
    };
    const folded = this.#folded(slot, 'object');
    if (folded) return folded;
    // A page of members at a time (4,900 properties are not 4,900 fields at once); what is filled in or wrong always shows.
    const limit = this.#host.shownMembers(slot.pointer);
    const shown =
      field.properties.length <= limit
        ? field.properties
        : field.properties.filter(
            (entry, i) =>
              i < limit ||
              (draft?.p !== undefined && Object.hasOwn(draft.p, entry.key)) ||
              (this.#showErrors && this.#host.errorsAt(child(slot.pointer, entry.key), 'all').length > 0),
          );
    const hidden = field.properties.length - shown.length;
    const members: Rendered[] = isNull
      ? [html`<p part="null-note" class="note">Sent as <code>null</code>.</p>`]
      : this.#members(slot, field, shown, draft, setMember);
    if (!isNull && hidden > 0) {
      members.push(
        html`<button type="button" part="show-more-button" @click=${() => this.#host.setShownMembers(slot.pointer, limit + MEMBERS_PER_PAGE)}>
          Show ${Math.min(hidden, MEMBERS_PER_PAGE)} more fields of ${this.#label(slot)} (${hidden.toLocaleString('en')} not shown yet)
        </button>`,
      );
    }
    const extra = !isNull && field.additional !== undefined ? this.#rows(slot, field, rows, draft) : nothing;
    const empty = !isNull && field.properties.length === 0 && field.additional === undefined ? html`<p part="empty-note" class="note">No arguments.</p>` : nothing;
    const optionalNote =
      !slot.inline && !slot.required && !isNull && field.properties.length > 0 ? html`<p part="note" class="note">Optional: sent only when something in it is filled in.</p>` : nothing;
    if (slot.inline) {
      return html`<div part="fields-group" class="inline-group" data-pointer=${ifDefined(this.#pointerHook(slot))} data-path=${ifDefined(this.#pathHook(slot))} data-kind="object" ?data-invalid=${errors.length > 0}>
        ${errors.length > 0 ? html`<div part="error" id="${this.#id(slot)}-error">${errors.join(' ')}</div>` : nothing} ${empty} ${members} ${extra}
      </div>`;
    }
    return this.#fieldset(slot, 'object', [optionalNote, ...members, extra, empty], errors, this.#rawToggle(slot));
  }

  /** The fields of an object's `shown` members, in runs of CHUNK skipped while none of their members changed. */
  #members(slot: Slot, field: ObjectField, shown: readonly PropertyEntry[], draft: (Draft & { k: 'obj' }) | undefined, setMember: (key: string) => Setter): Rendered[] {
    const member = (entry: PropertyEntry, sub: Draft | undefined) =>
      this.render({
        field: memberField(this.#model, field, entry.key, entry.schema, sub),
        draft: sub,
        required: entry.required,
        pointer: child(slot.pointer, entry.key),
        key: slot.key === undefined ? undefined : child(slot.key, entry.key),
        set: setMember(entry.key),
      });
    const subOf = (entry: PropertyEntry) => (draft?.p && Object.hasOwn(draft.p, entry.key) ? draft.p[entry.key] : undefined);
    if (shown.length <= CHUNK) return shown.map((entry) => member(entry, subOf(entry)));
    const errors = this.#showErrors ? (this.#errorKeys.get(slot.pointer) ?? '') : '';
    const out: Rendered[] = [];
    for (let from = 0; from < shown.length; from += CHUNK) {
      const entries = shown.slice(from, from + CHUNK);
      const drafts = entries.map(subOf);
      out.push(this.#memo(`${slot.key ?? slot.pointer}/~c${from}`, [field, slot.pointer, slot.key, errors, this.#epoch, ...entries, ...drafts], () => html`${entries.map((entry, i) => member(entry, drafts[i]))}`));
    }
    return out;
  }

  /**
   * An object, list or union left folded (see `untouchedAndFolded`): a
   * recursive schema, past the render budget, or an optional one nested deep.
   * Unfolding a required one makes it present and empty; an optional one is
   * only opened (it is sent once something in it is filled in).
   */
  #folded(slot: Slot, kind: string): TemplateResult | undefined {
    const { field } = slot;
    if (slot.inline || this.#host.isExpanded(slot.pointer)) return undefined;
    const overBudget = this.#rendered > RENDER_BUDGET;
    // Optional objects below the first level wait behind their button; other kinds only deep down.
    const foldDepth = kind === 'object' ? COLLAPSE_DEPTH : 6;
    const fold = untouchedAndFolded(field, slot.draft, overBudget) || (!slot.required && slot.draft === undefined && !field.default && field.depth > foldDepth);
    if (!fold) return undefined;
    const unfold = () => {
      if (slot.required) slot.set(unfoldDraft(this.#model, field), true);
      else this.#host.setExpanded(slot.pointer, true);
    };
    return this.#fieldset(
      slot,
      kind,
      html`<button type="button" part="add-button" aria-expanded="false" @click=${unfold}>${slot.required ? 'Fill in' : 'Add'} ${this.#label(slot)}</button>`,
      this.#errors(slot, 'all'),
    );
  }

  #rows(slot: Slot, field: ObjectField, rows: MapRow[], draft: Draft | undefined): TemplateResult {
    const cell = slot.cell;
    // Edits apply to the object's latest rows (see Cell.draft), not to those of this render.
    const latest = () => (cell?.draft?.k === 'obj' ? (cell.draft.rows ?? []) : rows);
    const setRows = (next: MapRow[], final: boolean) => {
      const updated = withRows(cell ? cell.draft : draft, next);
      if (cell) cell.draft = updated;
      slot.set(updated, final);
    };
    return html`<div part="rows" class="rows">
      ${rows.map((row, index) => {
        const keyId = `${this.#id(slot)}-key-${index}`;
        const valueField = rowField(this.#model, field, row.key, row.value);
        const pointer = row.key === '' ? `${slot.pointer}/#${index}` : child(slot.pointer, row.key);
        return html`<div part="row" class="row" data-index=${index}>
          <div class="field">
            <label part="label" for=${keyId}>Name</label>
            <input
              part="control key"
              id=${keyId}
              type="text"
              autocomplete="off"
              .value=${row.key}
              @input=${(e: Event) => setRows(latest().map((r, i) => (i === index ? { ...r, key: (e.target as HTMLInputElement).value } : r)), false)}
            />
          </div>
          ${this.render({
            field: valueField,
            draft: row.value,
            required: true,
            pointer,
            // Two rows may have the same name (flagged): the row's place tells them apart.
            key: `${slot.key ?? slot.pointer}/~r${index}`,
            label: row.key ? `Value of ${row.key}` : `Value ${index + 1}`,
            set: (next, final) => setRows(latest().map((r, i) => (i === index ? { ...r, ...(next === undefined ? { value: undefined } : { value: next }) } : r)), final),
          })}
          <button type="button" part="remove-button" class="small" aria-label="Remove entry ${row.key || index + 1}" @click=${() => setRows(rows.filter((_, i) => i !== index), true)}>
            Remove
          </button>
        </div>`;
      })}
      <button type="button" part="add-button" @click=${() => setRows([...rows, { key: '' }], true)}>Add entry to ${this.#label(slot)}</button>
    </div>`;
  }

  #array(slot: Slot, field: ArrayField): TemplateResult {
    const folded = this.#folded(slot, 'array');
    if (folded) return folded;
    const effective = effectiveDraft(this.#model, field, slot.draft, slot.required);
    const items = effective?.k === 'arr' ? effective.items : [];
    const isNull = slot.draft?.k === 'null';
    const errors = this.#errors(slot, (token) => !(Number(token) < items.length));
    const label = this.#label(slot);
    const canAdd = !isNull && (field.maxItems === undefined || items.length < field.maxItems) && (items.length < field.prefix.length || field.items !== undefined);
    const canRemove = items.length > field.minItems;
    // Item edits apply to the list's latest items (see Cell.draft), not to those of this render.
    const cell = slot.cell!;
    cell.draft = cell.base = effective;
    const latest = () => (cell.draft?.k === 'arr' ? cell.draft.items : items);
    const set = (next: (Draft | undefined)[], final: boolean) => slot.set((cell.draft = withItems(next)), final);
    const list = isNull
      ? html`<p part="null-note" class="note">Sent as <code>null</code>.</p>`
      : html`<ol part="items" class="items">
          ${items.map((item, index) => {
            const sub = itemField(this.#model, field, index, item);
            const pointer = child(slot.pointer, index);
            const positional = index < field.prefix.length;
            const itemLabel = positional && sub?.label ? sub.label : `Item ${index + 1}`;
            const move = (to: number) => {
              const next = [...items];
              [next[index], next[to]] = [next[to], next[index]];
              set(next, true);
            };
            return html`<li part="item" class="item" data-index=${index}>
              ${sub
                ? this.render({
                    field: sub,
                    draft: item,
                    required: true,
                    item: true,
                    pointer,
                    key: slot.key === undefined ? undefined : child(slot.key, index),
                    label: itemLabel,
                    labelSuffix: ` of ${label}`,
                    set: (next, final) => set(latest().map((it, i) => (i === index ? next : it)), final),
                  })
                : html`<p part="note" class="note">The schema allows no item here.</p>`}
              <div part="item-actions" class="item-actions">
                ${positional
                  ? nothing
                  : html`<button type="button" part="move-button" class="small" aria-label="Move ${itemLabel} of ${label} up" ?disabled=${index <= field.prefix.length} @click=${() => move(index - 1)}>
                        ↑
                      </button>
                      <button type="button" part="move-button" class="small" aria-label="Move ${itemLabel} of ${label} down" ?disabled=${index >= items.length - 1} @click=${() => move(index + 1)}>
                        ↓
                      </button>`}
                <button
                  type="button"
                  part="remove-button"
                  class="small"
                  aria-label="Remove ${itemLabel} of ${label}"
                  ?disabled=${!canRemove || (positional && index !== items.length - 1)}
                  @click=${() => set(items.filter((_, i) => i !== index), true)}
                >
                  Remove
                </button>
              </div>
            </li>`;
          })}
        </ol>`;
    const add = canAdd
      ? html`<button
          type="button"
          part="add-button"
          @click=${() => {
            // An item of a recursive schema is added unfolded: the user asked for it.
            const added = itemField(this.#model, field, items.length, undefined);
            set([...items, added?.recursive ? unfoldDraft(this.#model, added) : undefined], true);
          }}
        >
          Add ${items.length < field.prefix.length ? (itemField(this.#model, field, items.length, undefined)?.label || 'item') : 'item'} to ${label}
        </button>`
      : nothing;
    return this.#fieldset(slot, 'array', html`${list}${add}`, errors, this.#rawToggle(slot));
  }

  #choices(slot: Slot, field: ArrayField): TemplateResult {
    const effective = effectiveDraft(this.#model, field, slot.draft, slot.required);
    const values = (draft: Draft | undefined) => (draft?.k === 'arr' ? draft.items.flatMap((item) => (item?.k === 'v' ? [item.v] : [])) : []);
    const chosen = values(effective);
    // Boxes ticked before the next render (in one task) add up: each toggle applies to the latest list (see Cell.draft).
    const cell = slot.cell!;
    cell.draft = cell.base = effective;
    const errors = this.#errors(slot, 'all');
    const id = this.#id(slot);
    const rank = (value: JsonValue) => field.choices!.findIndex((option) => jsonEqual(option.value, value));
    const toggle = (value: JsonValue, on: boolean) => {
      const rest = values(cell.draft).filter((v) => !jsonEqual(v, value));
      // A ticked box joins before the first chosen value that comes after it in the schema; the
      // order of what is already there (a restored value) is kept.
      const at = rest.findIndex((v) => rank(v) > rank(value));
      const next = !on ? rest : at === -1 ? [...rest, value] : [...rest.slice(0, at), value, ...rest.slice(at)];
      slot.set((cell.draft = withItems(next.map((v) => ({ k: 'v', v })))), true);
    };
    const boxes = html`<div part="options" class="options">
      ${field.choices!.map((option, i) => {
        const on = chosen.some((v) => jsonEqual(v, option.value));
        return html`<label part="option" class="option"
          ><input
            part="control checkbox"
            type="checkbox"
            id=${i === 0 ? `${id}-0` : `${id}-${i}`}
            .checked=${on}
            aria-invalid=${ifDefined(errors.length > 0 ? 'true' : undefined)}
            @change=${(e: Event) => toggle(option.value, (e.target as HTMLInputElement).checked)}
          />${clip(option.label, LABEL_CHARS)}</label
        >`;
      })}
    </div>`;
    return this.#fieldset(slot, 'array', boxes, errors);
  }

  #union(slot: Slot, field: UnionField): TemplateResult {
    const folded = this.#folded(slot, 'union');
    if (folded) return folded;
    const id = this.#id(slot);
    const effective = effectiveDraft(this.#model, field, slot.draft, slot.required);
    const isNull = slot.draft?.k === 'null';
    const choice = currentChoice(field, effective, this.#model);
    const union = effective?.k === 'union' ? effective : undefined;
    const cell = slot.cell!;
    cell.draft = cell.base = effective;
    const sub = union && Object.hasOwn(union.by, String(choice)) ? union.by[String(choice)] : undefined;
    const variant = variantField(this.#model, field, choice, sub);
    // A container variant shows its own errors (at this pointer too); a leaf variant's errors show here.
    const containerVariant = variant !== undefined && (variant.kind === 'object' || variant.kind === 'array' || variant.kind === 'union');
    const errors = containerVariant ? [] : this.#errors(slot, 'all');
    const pickerId = `${id}-variant`;
    const picker = html`<div class="field">
      <label part="label" for=${pickerId}>${field.discriminator ? field.discriminator : 'Kind'}</label>
      <select
        part="control variant-picker"
        id=${pickerId}
        .value=${String(choice)}
        ?disabled=${isNull}
        @change=${(e: Event) => slot.set(withChoice(effective, Number((e.target as HTMLSelectElement).value), sharedMembers(field)), true)}
      >
        ${field.variants.map((v, i) => html`<option value=${String(i)} ?selected=${i === choice}>${clip(v.label, LABEL_CHARS)}</option>`)}
      </select>
    </div>`;
    const content =
      isNull || !variant
        ? html`<p part="null-note" class="note">Sent as <code>null</code>.</p>`
        : this.render({
            field: variant,
            draft: sub,
            required: slot.required,
            pointer: slot.pointer,
            label: `${this.#label(slot)} (${field.variants[choice]?.label ?? ''})`,
            inline: variant.kind === 'object',
            variant: true,
            key: `${slot.key ?? slot.pointer}/~v`,
            // Applied to the union's latest draft (see Cell.draft).
            set: (next, final) => slot.set((cell.draft = withVariantDraft(withChoice(cell.draft, choice), choice, next)), final),
          });
    return this.#fieldset(slot, 'union', html`${picker}${content}`, errors, this.#rawToggle(slot));
  }
}
