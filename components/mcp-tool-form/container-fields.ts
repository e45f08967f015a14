/**
 * The tool form's fields that hold other fields: objects (their declared
 * members a page at a time, and key/value rows for extra members), lists
 * (items added, moved and removed), and unions (a picker of the variant, and
 * the chosen variant's fields). Each may be switched to "Edit as JSON", and
 * stays folded behind a button while untouched where the schema recurses,
 * nests deep, or the render budget is spent.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { clip } from '../internal/json.js';
import { LABEL_CHARS } from '../internal/long-list.js';
import {
  build,
  child,
  currentChoice,
  effectiveDraft,
  itemField,
  rowField,
  sharedMembers,
  unfoldDraft,
  untouchedAndFolded,
  variantField,
  withChoice,
  withItems,
  withMember,
  withRows,
  withVariantDraft,
  type Draft,
  type MapRow,
} from './draft.js';
import { fieldErrors, fieldId, fieldset, labelText, pathHook, pointerHook } from './field-chrome.js';
import { MEMBERS_PER_PAGE, RENDER_BUDGET, type FieldScope, type Rendered, type Setter, type Slot } from './field-scope.js';
import type { ArrayField, ObjectField, UnionField } from './model.js';

/**
 * Optional objects nested deeper than this (a top-level property is at depth 1)
 * start collapsed behind an "Add …" button while they hold no value: a wide
 * API schema (hundreds of controls) then renders its first level only, and
 * each nested object costs once the user opens it. A value (a draft, arguments
 * set, a default) keeps the object open.
 */
const COLLAPSE_DEPTH = 1;

/** "Edit as JSON" for a container: seeds the text with what the subtree would send. */
function rawToggle(f: FieldScope, slot: Slot): TemplateResult {
  return html`<button
    type="button"
    part="raw-toggle"
    class="small"
    aria-pressed="false"
    aria-label="Edit ${labelText(slot)} as JSON"
    @click=${() => {
      const built = build(f.model, slot.field, slot.draft, slot.required, slot.pointer, []);
      slot.set({ k: 'json', text: built.value === undefined ? '' : JSON.stringify(built.value, null, 2) }, true);
    }}
  >
    Edit as JSON
  </button>`;
}

export function renderObject(f: FieldScope, slot: Slot, field: ObjectField): TemplateResult {
  const effective = effectiveDraft(f.model, field, slot.draft, slot.required);
  const draft = effective?.k === 'obj' ? effective : undefined;
  const isNull = slot.draft?.k === 'null';
  const rows = draft?.rows ?? [];
  // Problems below the object that none of its members or rows claim are its own. The names are
  // gathered when problems are shown, not on each render (a keystroke in an object of hundreds).
  let claimed: Set<string> | undefined;
  const errors = fieldErrors(f, slot, (token) => !(claimed ??= new Set([...field.properties.map((entry) => entry.key), ...rows.map((row) => row.key)])).has(token));
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
  const folded = foldedGroup(f, slot, 'object');
  if (folded) return folded;
  // A page of members at a time (4,900 properties are not 4,900 fields at once); what is filled in or wrong always shows.
  const limit = f.host.shownMembers(slot.pointer);
  const shown =
    field.properties.length <= limit
      ? field.properties
      : field.properties.filter(
          (entry, i) =>
            i < limit ||
            (draft?.p !== undefined && Object.hasOwn(draft.p, entry.key)) ||
            (f.showErrors && f.host.errorsAt(child(slot.pointer, entry.key), 'all').length > 0),
        );
  const hidden = field.properties.length - shown.length;
  const members: Rendered[] = isNull
    ? [html`<p part="null-note" class="note">Sent as <code>null</code>.</p>`]
    : f.members(slot, field, shown, draft, setMember);
  if (!isNull && hidden > 0) {
    members.push(
      html`<button type="button" part="show-more-button" @click=${() => f.host.setShownMembers(slot.pointer, limit + MEMBERS_PER_PAGE)}>
        Show ${Math.min(hidden, MEMBERS_PER_PAGE)} more fields of ${labelText(slot)} (${hidden.toLocaleString('en')} not shown yet)
      </button>`,
    );
  }
  const extra = !isNull && field.additional !== undefined ? mapRows(f, slot, field, rows, draft) : nothing;
  const empty = !isNull && field.properties.length === 0 && field.additional === undefined ? html`<p part="empty-note" class="note">No arguments.</p>` : nothing;
  const optionalNote =
    !slot.inline && !slot.required && !isNull && field.properties.length > 0 ? html`<p part="note" class="note">Optional: sent only when something in it is filled in.</p>` : nothing;
  if (slot.inline) {
    // Blocks only, without whitespace text between them (issue 30: cloned and laid out on each first render).
    return html`<div part="fields-group" class="inline-group" data-pointer=${ifDefined(pointerHook(slot))} data-path=${ifDefined(pathHook(slot))} data-kind="object" ?data-invalid=${errors.length > 0}>${errors.length > 0 ? html`<div part="error" id="${fieldId(slot)}-error">${errors.join(' ')}</div>` : nothing}${empty}${members}${extra}</div>`;
  }
  return fieldset(f, slot, 'object', [optionalNote, ...members, extra, empty], errors, rawToggle(f, slot));
}

/**
 * An object, list or union left folded (see `untouchedAndFolded`): a
 * recursive schema, past the render budget, or an optional one nested deep.
 * Unfolding a required one makes it present and empty; an optional one is
 * only opened (it is sent once something in it is filled in).
 */
function foldedGroup(f: FieldScope, slot: Slot, kind: string): TemplateResult | undefined {
  const { field } = slot;
  if (slot.inline || f.host.isExpanded(slot.pointer)) return undefined;
  const overBudget = f.rendered > RENDER_BUDGET;
  // Optional objects below the first level wait behind their button; other kinds only deep down.
  const foldDepth = kind === 'object' ? COLLAPSE_DEPTH : 6;
  const fold = untouchedAndFolded(field, slot.draft, overBudget) || (!slot.required && slot.draft === undefined && !field.default && field.depth > foldDepth);
  if (!fold) return undefined;
  const unfold = () => {
    if (slot.required) slot.set(unfoldDraft(f.model, field), true);
    else f.host.setExpanded(slot.pointer, true);
  };
  return fieldset(f, 
    slot,
    kind,
    html`<button type="button" part="add-button" aria-expanded="false" @click=${unfold}>${slot.required ? 'Fill in' : 'Add'} ${labelText(slot)}</button>`,
    fieldErrors(f, slot, 'all'),
  );
}

function mapRows(f: FieldScope, slot: Slot, field: ObjectField, rows: MapRow[], draft: Draft | undefined): TemplateResult {
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
      const keyId = `${fieldId(slot)}-key-${index}`;
      const valueField = rowField(f.model, field, row.key, row.value);
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
        ${f.render({
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
    <button type="button" part="add-button" @click=${() => setRows([...rows, { key: '' }], true)}>Add entry to ${labelText(slot)}</button>
  </div>`;
}

export function renderArray(f: FieldScope, slot: Slot, field: ArrayField): TemplateResult {
  const folded = foldedGroup(f, slot, 'array');
  if (folded) return folded;
  const effective = effectiveDraft(f.model, field, slot.draft, slot.required);
  const items = effective?.k === 'arr' ? effective.items : [];
  const isNull = slot.draft?.k === 'null';
  const errors = fieldErrors(f, slot, (token) => !(Number(token) < items.length));
  const label = labelText(slot);
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
          const sub = itemField(f.model, field, index, item);
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
              ? f.render({
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
          const added = itemField(f.model, field, items.length, undefined);
          set([...items, added?.recursive ? unfoldDraft(f.model, added) : undefined], true);
        }}
      >
        Add ${items.length < field.prefix.length ? (itemField(f.model, field, items.length, undefined)?.label || 'item') : 'item'} to ${label}
      </button>`
    : nothing;
  return fieldset(f, slot, 'array', html`${list}${add}`, errors, rawToggle(f, slot));
}

export function renderUnion(f: FieldScope, slot: Slot, field: UnionField): TemplateResult {
  const folded = foldedGroup(f, slot, 'union');
  if (folded) return folded;
  const id = fieldId(slot);
  const effective = effectiveDraft(f.model, field, slot.draft, slot.required);
  const isNull = slot.draft?.k === 'null';
  const choice = currentChoice(field, effective, f.model);
  const union = effective?.k === 'union' ? effective : undefined;
  const cell = slot.cell!;
  cell.draft = cell.base = effective;
  const sub = union && Object.hasOwn(union.by, String(choice)) ? union.by[String(choice)] : undefined;
  const variant = variantField(f.model, field, choice, sub);
  // A container variant shows its own errors (at this pointer too); a leaf variant's errors show here.
  const containerVariant = variant !== undefined && (variant.kind === 'object' || variant.kind === 'array' || variant.kind === 'union');
  const errors = containerVariant ? [] : fieldErrors(f, slot, 'all');
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
      : f.render({
          field: variant,
          draft: sub,
          required: slot.required,
          pointer: slot.pointer,
          label: `${labelText(slot)} (${field.variants[choice]?.label ?? ''})`,
          inline: variant.kind === 'object',
          variant: true,
          key: `${slot.key ?? slot.pointer}/~v`,
          // Applied to the union's latest draft (see Cell.draft).
          set: (next, final) => slot.set((cell.draft = withVariantDraft(withChoice(cell.draft, choice), choice, next)), final),
        });
  return fieldset(f, slot, 'union', html`${picker}${content}`, errors, rawToggle(f, slot));
}
