/**
 * The tool form's fields of a choice among listed values: an `enum` (or a
 * titled `oneOf`) as radio buttons, a select, or past SEARCH_OVER values a
 * searched list (internal/combobox.ts, loaded on demand: long-choices.ts); and
 * a set of enumerated values (`uniqueItems`) as a group of checkboxes.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { ComboboxState } from '../internal/combobox.js';
import { clip, jsonEqual, type JsonValue } from '../internal/json.js';
import { LABEL_CHARS } from '../internal/long-list.js';
import { effectiveDraft, withItems, type Draft } from './draft.js';
import { ariaRequired, badges, describedByIds, fieldErrors, fieldId, fieldset, hintAndError, hintText, labelContent, labelText, nullToggle, pathHook, pointerHook, requiredMark, wrapField } from './field-chrome.js';
import type { FieldScope, Slot } from './field-scope.js';
import { comboboxOf, searchAt, setSearchAt } from './long-choices.js';
import type { ArrayField, EnumField } from './model.js';

const NULL_OPTION = '\u0000null';

function selectedIndex(field: EnumField, effective: Draft | undefined): number {
  return effective?.k === 'v' ? field.options.findIndex((option) => jsonEqual(option.value, effective.v)) : -1;
}

export function renderSelect(f: FieldScope, slot: Slot, field: EnumField): TemplateResult {
  const id = fieldId(slot);
  const effective = effectiveDraft(f.model, field, slot.draft, slot.required);
  const selected = selectedIndex(field, effective);
  const isNull = slot.draft?.k === 'null';
  const autoSingle = slot.required && field.options.length === 1 && effective?.k !== 'clear';
  const errors = fieldErrors(f, slot, 'all');
  const hint = hintText(f, slot);
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
    aria-required=${ifDefined(ariaRequired(slot))}
    aria-describedby=${ifDefined(describedByIds(id, hint, errors))}
    aria-invalid=${ifDefined(errors.length > 0 ? 'true' : undefined)}
    @change=${onChange}
  >
    ${field.default && value !== '' ? nothing : html`<option value="" ?selected=${value === ''}>${slot.required ? '— choose —' : '— not set —'}</option>`}
    ${field.nullable ? html`<option value=${NULL_OPTION} ?selected=${value === NULL_OPTION}>null</option>` : nothing}
    ${field.options.map((option, i) => html`<option value=${String(i)} ?selected=${value === String(i)}>${clip(option.label, LABEL_CHARS)}</option>`)}
  </select>`;
  return wrapField(f, slot, 'enum', control, errors);
}

/**
 * A long enum (more than SEARCH_OVER values): a text input checked against the
 * enum, listing at most MATCHES_SHOWN values that contain what is typed (ARIA
 * combobox, see `searchCombobox`). Typed text that names no value is kept and flagged, never sent.
 * Without the combobox (its chunk could not load: see long-choices.ts), the
 * same text input without the list ({@link plainSearch}).
 */
export function renderSearch(f: FieldScope, slot: Slot, field: EnumField): TemplateResult {
  const id = fieldId(slot);
  const effective = effectiveDraft(f.model, field, slot.draft, slot.required);
  const typed = effective?.k === 'text' ? effective.text : undefined;
  const errors = fieldErrors(f, slot, 'all');
  const hint = hintText(f, slot);
  const selected = selectedIndex(field, effective);
  const describedBy = describedByIds(id, hint, errors);
  const combobox = comboboxOf(f.model);
  if (!combobox) return wrapField(f, slot, 'enum', plainSearch(slot, field, id, selected, typed, describedBy, errors.length > 0), errors, nullToggle(slot));
  const { labelsOf, optionNamed, searchCombobox } = combobox;
  const labels = labelsOf(field.options);
  const setState = (next: ComboboxState) => setSearchAt(f, slot.pointer, next);
  const control = searchCombobox({
    id,
    labels,
    selected,
    typed,
    query: typed ?? '',
    state: searchAt(f, slot.pointer),
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
    describedBy,
    invalid: errors.length > 0 ? 'true' : undefined,
    required: slot.required,
    disabled: slot.draft?.k === 'null',
    readOnly: field.readOnly,
    listLabel: `Values of ${labelText(slot)}`,
    part: 'control search',
    spellcheck: 'false',
    listClass: 'matches',
    markChosen: true,
    noMatch: 'No allowed value contains what is typed.',
  });
  return wrapField(f, slot, 'enum', control, errors, nullToggle(slot));
}

/**
 * A long enum's text input while the combobox cannot load (offline): text that
 * is a value's label (spaces around it aside) is that value once committed;
 * other text is kept and flagged, as in the combobox. No list of matches.
 */
function plainSearch(slot: Slot, field: EnumField, id: string, selected: number, typed: string | undefined, describedBy: string | undefined, invalid: boolean): TemplateResult {
  const text = (event: Event) => (event.target as HTMLInputElement).value;
  const named = (value: string) => field.options.findIndex((option) => option.label === value || option.label === value.trim());
  return html`<input
      part="control search"
      id=${id}
      aria-describedby=${`${id}-count${describedBy ? ` ${describedBy}` : ''}`}
      aria-invalid=${ifDefined(invalid ? 'true' : undefined)}
      .value=${typed ?? (selected >= 0 ? field.options[selected]!.label : '')}
      ?disabled=${slot.draft?.k === 'null'}
      ?readonly=${field.readOnly}
      ?required=${slot.required}
      @input=${(event: Event) => slot.set(text(event) === '' ? { k: 'clear' } : { k: 'text', text: text(event) }, false)}
      @change=${(event: Event) => {
        const index = named(text(event));
        if (index !== -1) slot.set({ k: 'v', v: field.options[index]!.value }, true);
      }}
    />
    <div part="hint" id="${id}-count">${field.options.length.toLocaleString('en')} allowed values: type one in full.</div>`;
}

export function renderRadios(f: FieldScope, slot: Slot, field: EnumField): TemplateResult {
  const id = fieldId(slot);
  const effective = effectiveDraft(f.model, field, slot.draft, slot.required);
  const selected = selectedIndex(field, effective);
  const isNull = slot.draft?.k === 'null';
  const errors = fieldErrors(f, slot, 'all');
  const hint = hintText(f, slot);
  const describedBy = describedByIds(id, hint, errors);
  const choices: { key: string; label: string; checked: boolean; draft: Draft }[] = field.options.map((option, i) => ({
    key: String(i),
    label: option.label,
    checked: !isNull && selected === i,
    draft: { k: 'v', v: option.value },
  }));
  // An enum with a default always has a value (issue 33): "not set" would send the default anyway.
  if (!slot.required && !field.default) choices.push({ key: 'unset', label: 'not set', checked: !isNull && selected === -1, draft: { k: 'clear' } });
  if (field.nullable) choices.push({ key: 'null', label: 'null', checked: isNull, draft: { k: 'null' } });
  return html`<fieldset
    part="field field-enum fieldset"
    class="field radios"
    data-pointer=${ifDefined(pointerHook(slot))}
    data-path=${ifDefined(pathHook(slot))}
    data-kind="enum"
    ?data-invalid=${errors.length > 0}
    role="radiogroup"
    aria-required=${ifDefined(ariaRequired(slot))}
    aria-describedby=${ifDefined(describedBy)}
    ?disabled=${field.readOnly}
  >
    <legend part="legend">${labelContent(slot)}${requiredMark(slot)} ${badges(field)}</legend>
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
    ${hintAndError(f, id, hint, errors, slot)}
  </fieldset>`;
}

export function renderChoices(f: FieldScope, slot: Slot, field: ArrayField): TemplateResult {
  const effective = effectiveDraft(f.model, field, slot.draft, slot.required);
  const values = (draft: Draft | undefined) => (draft?.k === 'arr' ? draft.items.flatMap((item) => (item?.k === 'v' ? [item.v] : [])) : []);
  const chosen = values(effective);
  // Boxes ticked before the next render (in one task) add up: each toggle applies to the latest list (see Cell.draft).
  const cell = slot.cell!;
  cell.draft = cell.base = effective;
  const errors = fieldErrors(f, slot, 'all');
  const id = fieldId(slot);
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
  return fieldset(f, slot, 'array', boxes, errors);
}
