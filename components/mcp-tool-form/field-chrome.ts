/**
 * What every field of the tool form shows around its control: the wrapper
 * with the hooks for host tests (`data-pointer`, `data-path`, `data-kind`,
 * `data-invalid`), the label with the required mark, badges, the hint (the
 * description, cut until "Show all", and a sentence of constraints), the
 * error, the "null" toggle, the fieldset of a group, and a value too long to
 * put in a control. Each kind of field (scalar-fields.ts, choice-fields.ts,
 * container-fields.ts) puts its control inside.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { dottedPath, idFor } from '../internal/dom.js';
import { clip } from '../internal/json.js';
import { DESCRIPTION_CHARS, LABEL_CHARS } from '../internal/long-list.js';
import type { Field } from './model.js';
import type { FieldScope, Rendered, Slot } from './field-scope.js';

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

export function fieldId(slot: Slot): string {
  return idFor(slot.variant ? 'v' : 'f', slot.pointer);
}

/** `data-pointer` of a field's wrapper (a variant's content leaves it to its union). */
export function pointerHook(slot: Slot): string | undefined {
  return slot.variant ? undefined : slot.pointer;
}

export function pathHook(slot: Slot): string | undefined {
  return slot.variant ? undefined : dottedPath(slot.pointer);
}

export function fieldErrors(f: FieldScope, slot: Slot, claims: 'all' | ((token: string) => boolean) | 'none', local: string[] = []): string[] {
  const shown = f.showErrors ? f.host.errorsAt(slot.pointer, claims) : [];
  return [...new Set([...local, ...shown])];
}

/** The description as shown: cut past DESCRIPTION_CHARS until the user asks for all of it. */
export function shownDescription(f: FieldScope, slot: Slot): string | undefined {
  const text = slot.field.description;
  return text && text.length > DESCRIPTION_CHARS && !f.host.isExpanded(`${slot.pointer}#description`) ? clip(text, DESCRIPTION_CHARS) : text;
}

export function hintText(f: FieldScope, slot: Slot): string {
  const { field } = slot;
  return [shownDescription(f, slot), clip(constraintText(field), DESCRIPTION_CHARS)].filter((part) => part).join(' · ');
}

/** "Show all" for a description cut for display. */
function showAllDescription(f: FieldScope, slot: Slot | undefined): TemplateResult | typeof nothing {
  const text = slot?.field.description;
  if (!slot || !text || text.length <= DESCRIPTION_CHARS) return nothing;
  const key = `${slot.pointer}#description`;
  const open = f.host.isExpanded(key);
  return html`<button type="button" part="show-all-button" class="small" aria-expanded=${open ? 'true' : 'false'} @click=${() => f.host.setExpanded(key, !open)}>
    ${open ? 'Show less' : `Show all ${text.length.toLocaleString('en')} characters`}
  </button>`;
}

export function describedByIds(id: string, hint: string, errors: string[]): string | undefined {
  const ids = [hint ? `${id}-hint` : '', errors.length > 0 ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

export function badges(field: Field): TemplateResult | typeof nothing {
  const badges: TemplateResult[] = [];
  if (field.header) badges.push(html`<span part="badge header-badge" title="Also sent as an HTTP header, visible to proxies on the way">sent as HTTP header Mcp-Param-${field.header}</span>`);
  if (field.readOnly) badges.push(html`<span part="badge">read-only</span>`);
  if (field.deprecated) badges.push(html`<span part="badge">deprecated</span>`);
  return badges.length > 0 ? html`${badges}` : nothing;
}

/** The label as text (for aria-labels of buttons). */
export function labelText(slot: Slot): string {
  return `${clip(slot.label ?? (slot.field.label || 'Value'), LABEL_CHARS)}${slot.labelSuffix ?? ''}`;
}

/** The label as shown: the screen-reader-only part is visually hidden (plain text without one: no template per label). */
export function labelContent(slot: Slot): TemplateResult | string {
  const visible = clip(slot.label ?? (slot.field.label || 'Value'), LABEL_CHARS);
  return slot.labelSuffix ? html`${visible}<span class="visually-hidden">${slot.labelSuffix}</span>` : visible;
}

/** Whether the field shows the required mark (members the schema requires; not the root, not array items). */
function marked(slot: Slot): boolean {
  return slot.required && !slot.item && slot.pointer !== '';
}

/**
 * The `*` is for the eye; screen readers get `aria-required` on the control
 * ({@link #ariaRequired}), or for a group, which cannot carry it, the word.
 */
export function requiredMark(slot: Slot, group = false): TemplateResult | typeof nothing {
  if (!marked(slot)) return nothing;
  return html`<span part="required-mark" aria-hidden="true">*</span>${group ? html`<span class="visually-hidden"> (required)</span>` : nothing}`;
}

/** `aria-required` for a control or radio group: `"true"` exactly where the `*` is shown. */
export function ariaRequired(slot: Slot): 'true' | undefined {
  return marked(slot) ? 'true' : undefined;
}

export function hintAndError(f: FieldScope, id: string, hint: string, errors: string[], slot?: Slot): TemplateResult | typeof nothing {
  // One template for what is there (most fields have a hint and no error): no nested template per part.
  const error = errors.length > 0 ? clip(errors.join(' '), DESCRIPTION_CHARS) : undefined;
  if (hint && error === undefined) return html`<div part="hint" id="${id}-hint">${hint}</div>${showAllDescription(f, slot)}`;
  if (hint) return html`<div part="hint" id="${id}-hint">${hint}</div>${showAllDescription(f, slot)}<div part="error" id="${id}-error">${error}</div>`;
  return error === undefined ? nothing : html`<div part="error" id="${id}-error">${error}</div>`;
}

/**
 * A value too long to put in a control (a 5 MiB default): its start, and a
 * button (the field's labelled control) that shows the whole value to edit.
 * The value itself is kept and sent as it is.
 */
export function longValue(f: FieldScope, slot: Slot, kind: string, preview: string, action: string, errors: string[]): TemplateResult {
  const id = fieldId(slot);
  const hint = hintText(f, slot);
  return wrapField(f, 
    slot,
    kind,
    html`<pre part="long-value" class="long-value" id="${id}-value">${clip(preview, 2_000)}</pre>
      <button
        type="button"
        part="show-all-button"
        id=${id}
        aria-describedby=${[`${id}-value`, ...(describedByIds(id, hint, errors) ?? '').split(' ')].filter(Boolean).join(' ')}
        @click=${() => f.host.setExpanded(`${slot.pointer}#value`, true)}
      >
        ${action}
      </button>`,
    errors,
  );
}

/** The wrapper of a single-control field (no whitespace text between its parts, blocks and flex items: issue 30, each is cloned on a first render). */
export function wrapField(f: FieldScope, slot: Slot, kind: string, body: TemplateResult, errors: string[], extra: TemplateResult | typeof nothing = nothing): TemplateResult {
  const id = fieldId(slot);
  const hint = hintText(f, slot);
  return html`<div
    part="field field-${kind}"
    class="field"
    data-pointer=${ifDefined(pointerHook(slot))}
    data-path=${ifDefined(pathHook(slot))}
    data-kind=${kind}
    ?data-invalid=${errors.length > 0}
  ><div part="label-row" class="label-row"><label part="label" for=${id}>${labelContent(slot)}${requiredMark(slot)}</label>${badges(slot.field)}${extra}</div>${body}${hintAndError(f, id, hint, errors, slot)}</div>`;
}

/** "null" toggle for nullable fields. */
export function nullToggle(slot: Slot): TemplateResult | typeof nothing {
  if (!slot.field.nullable || slot.field.readOnly) return nothing;
  const isNull = slot.draft?.k === 'null';
  return html`<button
    type="button"
    part="null-button"
    class="small"
    aria-pressed=${isNull ? 'true' : 'false'}
    aria-label="${labelText(slot)}: send null"
    @click=${() => slot.set(isNull ? { k: 'clear' } : { k: 'null' }, true)}
  >
    null
  </button>`;
}

export function fieldset(f: FieldScope, slot: Slot, kind: string, body: TemplateResult | (Rendered | typeof nothing)[], errors: string[], tools: TemplateResult | typeof nothing = nothing): TemplateResult {
  const id = fieldId(slot);
  const hint = hintText(f, slot);
  return html`<fieldset
    part="field field-${kind} fieldset"
    class="field group"
    data-pointer=${ifDefined(pointerHook(slot))}
    data-path=${ifDefined(pathHook(slot))}
    data-kind=${kind}
    ?data-invalid=${errors.length > 0}
    aria-describedby=${ifDefined(describedByIds(id, hint, errors))}
  >
    <legend part="legend">${labelContent(slot)}${requiredMark(slot, true)}</legend>
    <div part="group-tools" class="group-tools">${badges(slot.field)} ${nullToggle(slot)} ${tools}</div>
    ${hintAndError(f, id, hint, errors, slot)} ${body}
  </fieldset>`;
}
