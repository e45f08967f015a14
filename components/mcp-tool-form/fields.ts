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
 * Here: the renderer, which skips every field whose inputs did not change
 * since the last render and hands each kind of field to its renderer
 * (scalar-fields.ts, choice-fields.ts, container-fields.ts, with what they
 * share in field-chrome.ts and field-scope.ts); and the size hold of the
 * focused input, which keeps a keystroke's layout to the input.
 *
 * @module
 */
import { html, noChange, nothing, type TemplateResult } from 'lit';
import { Directive, directive, type DirectiveResult, type Part } from 'lit/directive.js';
import {  } from '../internal/json.js';
import { renderChoices, renderRadios, renderSearch, renderSelect } from './choice-fields.js';
import { renderArray, renderObject, renderUnion } from './container-fields.js';
import { child, effectiveDraft, looseValue, memberField, showsAsChoices, type Draft } from './draft.js';
import { RENDER_BUDGET, type Cell, type FieldScope, type RenderHost, type Rendered, type Setter, type Slot } from './field-scope.js';
import { searchesOf } from './long-choices.js';
import type { FormModel, ObjectField, PropertyEntry } from './model.js';
import { renderBoolean, renderConst, renderJson, renderNumber, renderString } from './scalar-fields.js';

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

/**
 * The renderer of one form model, kept across renders: a field whose inputs
 * (its field, draft, place, the problems shown in it, the form's open/shown
 * state) did not change since the last render is not rendered again, and Lit
 * skips it (`keep`), so a keystroke re-renders only the path from the root
 * to the edited field. Drafts are immutable and share unchanged branches
 * (`withMember`…), so an unchanged branch keeps its draft object. A skipped
 * field's listeners still call its parent's latest setter (see {@link Cell}).
 */
export class FieldRenderer implements FieldScope {
  #host!: RenderHost;
  readonly #model: FormModel;
  /** Whether every error is shown (after the first submit), or only JSON parse errors. */
  #showErrors = false;
  /** Cells by place (see `Slot.key`). */
  readonly #cells = new Map<string, Cell>();
  /** The last render of each place: fields by `Slot.key`, runs of members (see `members`). */
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

  get model(): FormModel {
    return this.#model;
  }

  get host(): RenderHost {
    return this.#host;
  }

  get showErrors(): boolean {
    return this.#showErrors;
  }

  get rendered(): number {
    return this.#rendered;
  }

  volatile(): void {
    this.#volatile++;
  }

  /**
   * Starts a render.
   * @param given - every value besides the drafts and problems that fields read
   *   (expanded set, shown members…; the searches of long choices are added
   *   here): when one differs from the last render's (by identity), no field is
   *   skipped.
   * @param issues - the problems shown when `showErrors`.
   */
  begin(host: RenderHost, showErrors: boolean, given: readonly unknown[], issues: readonly { pointer: string; message: string }[]): void {
    this.#host = host;
    this.#showErrors = showErrors;
    this.#rendered = 0;
    // The searches of long choices are the renderer's own (long-choices.ts), not the element's.
    const state = [...given, searchesOf(this.#model)];
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
      // Only the setters of the member runs `members` skips are kept: an object's `draft` is set again as it renders.
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
    if (draft?.k === 'json' || field.kind === 'json') return renderJson(this, slot);
    switch (field.kind) {
      case 'string':
        return renderString(this, slot, field);
      case 'number':
        return renderNumber(this, slot, field);
      case 'boolean':
        return renderBoolean(this, slot, field);
      case 'enum':
        return field.widget === 'radio' ? renderRadios(this, slot, field) : field.widget === 'search' ? renderSearch(this, slot, field) : renderSelect(this, slot, field);
      case 'const':
        return renderConst(this, slot, field);
      case 'object':
        return renderObject(this, slot, field);
      case 'array':
        return showsAsChoices(field, effectiveDraft(this.#model, field, slot.draft, slot.required)) ? renderChoices(this, slot, field) : renderArray(this, slot, field);
      case 'union':
        return renderUnion(this, slot, field);
    }
  }

  /** The fields of an object's `shown` members, in runs of CHUNK skipped while none of their members changed. */
  members(slot: Slot, field: ObjectField, shown: readonly PropertyEntry[], draft: (Draft & { k: 'obj' }) | undefined, setMember: (key: string) => Setter): Rendered[] {
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
}
