/**
 * The tool form's fields of one value typed in: text (an input of the kind
 * the format asks for, or a textarea; a combobox when the server suggests
 * values), numbers, yes/no, constants, and JSON (for values the schema leaves
 * free, and any subtree the user switched to "Edit as JSON"). Dates and times
 * are sent as RFC 3339 with the local offset; a pattern is checked on the
 * kit's linear-time engine, never the browser's.
 *
 * @module
 */
import { html, noChange, nothing, type TemplateResult } from 'lit';
import { Directive, directive, type ElementPart } from 'lit/directive.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { clip, stringifyBounded, type JsonValue } from '../internal/json.js';
import { DESCRIPTION_CHARS, LABEL_CHARS, VALUE_CHARS } from '../internal/long-list.js';
import { effectiveDraft, parseJsonText, valueToDraft } from './draft.js';
import { ariaRequired, badges, describedByIds, fieldErrors, fieldId, hintAndError, hintText, labelContent, labelText, longValue, nullToggle, pathHook, pointerHook, requiredMark, shownDescription, wrapField } from './field-chrome.js';
import type { FieldScope, Slot } from './field-scope.js';
import type { BooleanField, ConstField, JsonField, NumberField, StringField } from './model.js';
import { patternCheck } from './value-checks.js';

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

function display(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function renderString(f: FieldScope, slot: Slot, field: StringField): TemplateResult {
  const id = fieldId(slot);
  const effective = effectiveDraft(f.model, field, slot.draft, slot.required);
  const isNull = slot.draft?.k === 'null';
  const text = effective?.k === 'v' ? toInputValue(field, display(effective.v)) : effective?.k === 'text' ? effective.text : '';
  // The pattern applies to what is sent (an RFC 3339 date-time, not the input's local text).
  const sent = effective?.k === 'v' && typeof effective.v === 'string' ? effective.v : text;
  const local = effective?.k === 'text' && effective.bad ? ['Complete this value.'] : [];
  const errors = fieldErrors(f, slot, 'all', local);
  // A long default is previewed, not put in a control, until the user asks for it.
  if (slot.draft === undefined && text.length > VALUE_CHARS && !f.host.isExpanded(`${slot.pointer}#value`)) return longValue(f, slot, 'string', text, `Show and edit all ${text.length.toLocaleString('en')} characters`, errors);
  const hint = hintText(f, slot);
  const describedBy = describedByIds(id, hint, errors);
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
  const combo = field.input === 'textarea' || isNull ? undefined : f.host.completion?.(field, id, (value) => slot.set({ k: 'v', v: value }, true));
  // Its suggestions change without the draft changing: rendered each time, with the fields above it.
  if (combo) f.volatile();
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
          aria-required=${ifDefined(ariaRequired(slot))}
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
          aria-required=${ifDefined(ariaRequired(slot))}
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
  return wrapField(f, slot, 'string', combo ? html`<span class="mcp-combobox">${control}${combo.listbox()}</span>` : control, errors, nullToggle(slot));
}

export function renderNumber(f: FieldScope, slot: Slot, field: NumberField): TemplateResult {
  const id = fieldId(slot);
  const effective = effectiveDraft(f.model, field, slot.draft, slot.required);
  const isNull = slot.draft?.k === 'null';
  const text = effective?.k === 'text' ? effective.text : effective?.k === 'v' ? display(effective.v) : '';
  const errors = fieldErrors(f, slot, 'all');
  const hint = hintText(f, slot);
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
    aria-required=${ifDefined(ariaRequired(slot))}
    placeholder=${ifDefined(isNull ? 'null' : typeof field.example === 'number' ? String(field.example) : undefined)}
    autocomplete="off"
    aria-describedby=${ifDefined(describedByIds(id, hint, errors))}
    aria-invalid=${ifDefined(errors.length > 0 ? 'true' : undefined)}
    @input=${(e: Event) => onInput(e, false)}
    @change=${(e: Event) => onInput(e, true)}
  />`;
  return wrapField(f, slot, 'number', control, errors, nullToggle(slot));
}

export function renderBoolean(f: FieldScope, slot: Slot, field: BooleanField): TemplateResult {
  const id = fieldId(slot);
  const effective = effectiveDraft(f.model, field, slot.draft, slot.required);
  const isNull = slot.draft?.k === 'null';
  const checked = effective?.k === 'v' && effective.v === true;
  // An optional yes/no nobody answered yet is "mixed": it is not sent at all.
  const unset = !slot.required && (effective === undefined || effective.k === 'clear') && !isNull;
  const errors = fieldErrors(f, slot, 'all');
  const hint = hintText(f, slot);
  const clear =
    !slot.required && !unset && !isNull && !field.readOnly && !field.default
      ? html`<button type="button" part="clear-button" class="small" aria-label="${labelText(slot)}: leave unset" @click=${() => slot.set({ k: 'clear' }, true)}>
          unset
        </button>`
      : nothing;
  return html`<div
    part="field field-boolean"
    class="field checkbox"
    data-pointer=${ifDefined(pointerHook(slot))}
    data-path=${ifDefined(pathHook(slot))}
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
        aria-required=${ifDefined(ariaRequired(slot))}
        aria-describedby=${ifDefined(describedByIds(id, hint, errors))}
        aria-invalid=${ifDefined(errors.length > 0 ? 'true' : undefined)}
        @change=${(e: Event) => slot.set({ k: 'v', v: (e.target as HTMLInputElement).checked }, true)}
      />
      <label part="label" for=${id}>${labelContent(slot)}${requiredMark(slot)}</label>
      ${unset ? html`<span part="badge">not set</span>` : nothing} ${badges(field)} ${clear} ${nullToggle(slot)}
    </div>
    ${hintAndError(f, id, hint, errors, slot)}
  </div>`;
}

export function renderConst(f: FieldScope, slot: Slot, field: ConstField): TemplateResult {
  const id = fieldId(slot);
  const errors = fieldErrors(f, slot, 'all');
  const hint = hintText(f, slot);
  if (!slot.required) {
    // An optional constant: the only choice is whether to send it.
    const included = slot.draft?.k === 'v';
    return html`<div part="field field-const" class="field checkbox" data-pointer=${ifDefined(pointerHook(slot))} data-path=${ifDefined(pathHook(slot))} data-kind="const" ?data-invalid=${errors.length > 0}>
      <div part="label-row" class="label-row">
        <input
          part="control"
          id=${id}
          type="checkbox"
          .checked=${included}
          aria-describedby=${ifDefined(describedByIds(id, hint, errors))}
          @change=${(e: Event) => slot.set((e.target as HTMLInputElement).checked ? { k: 'v', v: field.value } : { k: 'clear' }, true)}
        />
        <label part="label" for=${id}>${labelText(slot)}: send <code>${clip(display(field.value), LABEL_CHARS)}</code></label>
      </div>
      ${hintAndError(f, id, hint, errors, slot)}
    </div>`;
  }
  // Shown cut when long; the constant itself is what is sent.
  const control = html`<input part="control" id=${id} type="text" readonly .value=${clip(display(field.value), VALUE_CHARS)} aria-required=${ifDefined(ariaRequired(slot))} aria-describedby=${ifDefined(describedByIds(id, hint, errors))} />`;
  return wrapField(f, slot, 'const', control, errors);
}

export function renderJson(f: FieldScope, slot: Slot): TemplateResult {
  const { field, draft } = slot;
  const id = fieldId(slot);
  const effective = field.kind === 'json' ? effectiveDraft(f.model, field, draft, slot.required) : draft;
  if (draft === undefined && effective?.k === 'v' && !f.host.isExpanded(`${slot.pointer}#value`)) {
    // A default of a million items: printed only as far as it is shown, sent as it is.
    const preview = stringifyBounded(effective.v, VALUE_CHARS);
    if (preview.truncated) return longValue(f, slot, 'json', preview.text, 'Show and edit the whole value', fieldErrors(f, slot, 'all'));
  }
  const text = effective?.k === 'json' ? effective.text : effective?.k === 'v' ? JSON.stringify(effective.v, null, 2) : '';
  const parsed = parseJsonText(text);
  // Parse errors are about what the user is typing: shown at once, not only after submit.
  const local = 'message' in parsed ? [parsed.message] : [];
  const errors = fieldErrors(f, slot, 'all', local);
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
  const hint = [shownDescription(f, slot), clip(why, DESCRIPTION_CHARS)].filter(Boolean).join(' · ');
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
            if ('value' in parsed) slot.set(valueToDraft(f.model, field, parsed.value), true);
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
    data-pointer=${ifDefined(pointerHook(slot))}
    data-path=${ifDefined(pathHook(slot))}
    data-kind=${kind}
    data-json=${jsonField ? jsonField.reason : 'raw'}
    ?data-invalid=${errors.length > 0}
  >
    <div part="label-row" class="label-row">
      <label part="label" for=${id}>${labelContent(slot)}${requiredMark(slot)}</label>
      <span part="badge">JSON</span> ${badges(field)} ${back} ${field.kind === 'json' ? nullToggle(slot) : nothing}
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
      aria-required=${ifDefined(ariaRequired(slot))}
      placeholder=${draft?.k === 'null' ? 'null' : jsonField?.expects === 'array' ? '[ ]' : jsonField?.expects === 'object' ? '{ }' : ''}
      aria-describedby=${ifDefined(describedBy)}
      aria-invalid=${ifDefined(errors.length > 0 ? 'true' : undefined)}
      @input=${(e: Event) => slot.set({ k: 'json', text: (e.target as HTMLTextAreaElement).value }, false)}
      @change=${(e: Event) => slot.set({ k: 'json', text: (e.target as HTMLTextAreaElement).value }, true)}
    ></textarea>
    ${hintAndError(f, id, hint, errors, slot)}
  </div>`;
}
