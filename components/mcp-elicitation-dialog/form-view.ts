/**
 * How `<mcp-elicitation-dialog>` draws a form request (form-mode elicitation):
 * a control per field of the requested schema (a yes/no, a choice as radios,
 * a list or a searched combobox, a multiple choice, a number, text of a
 * format; a long default previewed, not put in a control), then the review of
 * the values to send. What the user types is kept on the ask as it is typed,
 * number text that cannot be sent included (ask.ts). The combobox of a long
 * choice (internal/combobox.ts) is loaded on demand ({@link loadCombobox}),
 * before a request that has one is shown.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ElicitRequestFormParams } from '../../src/index.js';
import { clip } from '../internal/json.js';
import { DESCRIPTION_CHARS, LABEL_CHARS, MATCHES_SHOWN, SEARCH_OVER, VALUE_CHARS } from '../internal/long-list.js';
import { formContent, type Ask } from './ask.js';
import { describeValue, fromLocalInput, toLocalInput, type Field, type FieldValue } from './elicitation-form.js';
import { longText, renderHeader, renderMessage, renderTimeline, roundActions, type AskView } from './request-views.js';

type Combobox = typeof import('../internal/combobox.js');

/** combobox.ts, once loaded: the searched choices render with it. */
let combobox: Combobox | undefined;
let comboboxLoading: Promise<void> | undefined;

/**
 * Loads the combobox of long choices (once per page), which the body awaits
 * before it shows a request with a choice among more than SEARCH_OVER options
 * (see `hasLongChoice`): long choices are rare, and the chunk is not part of
 * the body's. Rejects when the chunk cannot load (offline); the next request
 * that needs it tries again.
 */
export const loadCombobox = (): Promise<void> =>
  (comboboxLoading ??= import('../internal/combobox.js').then(
    (module) => void (combobox = module),
    (error: unknown) => {
      comboboxLoading = undefined;
      throw error;
    },
  ));

/** A form-mode elicitation: its fields, then the review of the values to send. */
export function renderForm(view: AskView, ask: Ask): TemplateResult {
  const params = ask.request.params as ElicitRequestFormParams;
  const reviewing = ask.step === 'review';
  return html`<form method="dialog" novalidate @submit=${view.submit}>
    ${renderHeader(ask, reviewing ? 'Review your answer' : 'The server asks for information')}
    ${renderMessage(view, ask, params.message)}
    ${ask.formError ? html`<p part="error" role="alert">${ask.formError}</p>` : nothing}
    ${ask.notice ? html`<p part="warning">${ask.notice}</p>` : nothing}
    ${ask.fields && !reviewing ? html`<fieldset part="fields">${ask.fields.map((field, i) => renderField(view, ask, field, i))}</fieldset>` : nothing}
    ${ask.fields && reviewing
      ? html`<dl part="review" aria-label="Values to send">
          ${ask.fields.map((field) => html`<dt>${clip(field.label, LABEL_CHARS)}</dt><dd>${clip(describeValue(field, formContent(ask)[field.key]), DESCRIPTION_CHARS)}</dd>`)}
        </dl>`
      : nothing}
    ${renderTimeline(view, ask)}
    <div part="actions">
      ${ask.fields
        ? reviewing
          ? html`<button type="button" data-action="edit" @click=${() => ((ask.step = 'fill'), view.el.requestUpdate())}>Edit</button>
              <button type="submit" class="primary" data-action="accept">Accept</button>`
          : // Accept first: Enter in a field accepts a valid form; Review stays, and is the only way on when the request must be reviewed.
            html`${ask.mustReview ? nothing : html`<button type="submit" class="primary" data-action="accept">Accept</button>`}
              <button type="submit" class=${ask.mustReview ? 'primary' : ''} data-action="review">Review</button>`
        : nothing}
      <button type="button" data-action="decline" @click=${() => view.dismiss(ask, 'decline')}>Decline</button>
      <button type="button" data-action="cancel" @click=${() => view.dismiss(ask, 'cancel')}>Cancel</button>
      ${roundActions(view, ask)}
    </div>
  </form>`;
}

/** A multiple choice's values as they are now, not as the last render saw them: boxes ticked before the next render (in one task) add up. */
function chosenValues(ask: Ask, field: Field): string[] {
  return (ask.values.get(field.key) as string[] | undefined) ?? [];
}

/** A field's value changed (`undefined`: none): what was typed for it and its error go, and the answer is stored. */
function setValue(view: AskView, ask: Ask, field: Field, value: FieldValue | undefined): void {
  if (value === undefined) ask.values.delete(field.key);
  else ask.values.set(field.key, value);
  ask.typed.delete(field.key);
  ask.errors.delete(field.key);
  view.saveAnswer(ask);
  view.el.requestUpdate();
}

/** Number text that cannot be sent: nothing is sent for the field, and the text stays as typed. */
function setTyped(view: AskView, ask: Ask, field: Field, text: string, message: string): void {
  ask.values.delete(field.key);
  ask.typed.set(field.key, { text, message });
  ask.errors.set(field.key, message);
  view.saveAnswer(ask);
  view.el.requestUpdate();
}

/**
 * A choice among more than SEARCH_OVER options: a text input checked against
 * them, listing at most MATCHES_SHOWN that contain what is typed (ARIA
 * combobox). Typed text that names no option is kept and flagged, never sent.
 */
function renderSearch(view: AskView, ask: Ask, field: Field & { kind: 'choice' }, id: string, label: TemplateResult, hint: TemplateResult | typeof nothing, errorText: TemplateResult | typeof nothing, describedBy: string | typeof nothing): TemplateResult {
  // Loaded before the request was shown (DialogBody.ask); were it not, this render fails and DialogBody.#renderSafely answers the request with an error.
  const { labelsOf, optionNamed, searchCombobox } = combobox!;
  const labels = labelsOf(field.options);
  const state = ask.searches.get(field.key) ?? { query: '', open: false, active: 0 };
  const value = ask.values.get(field.key);
  const notAllowed = 'Pick one of the allowed values from the list.';
  return html`<div class="field" data-field=${field.key}>
    <label for=${id}>${label}</label>
    ${searchCombobox({
      id,
      labels,
      selected: typeof value === 'string' ? field.options.findIndex((option) => option.value === value) : -1,
      typed: ask.typed.get(field.key)?.text,
      // What was typed last, even when it named a value (the list keeps showing what matches it).
      query: state.query,
      state,
      setState: (next) => {
        ask.searches.set(field.key, { ...state, ...next });
        view.el.requestUpdate();
      },
      pick: (index) => {
        ask.searches.set(field.key, { query: '', open: false, active: 0 });
        setValue(view, ask, field, field.options[index]!.value);
      },
      input: (text) => {
        ask.searches.set(field.key, { query: text, open: true, active: 0 });
        if (text === '') setValue(view, ask, field, undefined);
        else {
          const named = optionNamed(labels, text);
          if (named !== -1) {
            // Typed in full: the value, still listed so the user sees it matched.
            setValue(view, ask, field, field.options[named]!.value);
          } else setTyped(view, ask, field, text, notAllowed);
        }
      },
      describedBy: describedBy === nothing ? undefined : describedBy,
      invalid: ask.errors.has(field.key) ? 'true' : 'false',
      required: field.required,
      listLabel: 'Values',
      inlineCount: true,
    })}
    ${hint}${errorText}
  </div>`;
}

/**
 * A multiple choice among more than SEARCH_OVER options: a search box, the
 * options chosen, and at most MATCHES_SHOWN of the others that match.
 */
function renderManyChoices(view: AskView, ask: Ask, field: Field & { kind: 'multi' }, id: string, legend: TemplateResult, hint: TemplateResult | typeof nothing, errorText: TemplateResult | typeof nothing, describedBy: string | typeof nothing): TemplateResult {
  const { labelsOf, searchLabels } = combobox!;
  const labels = labelsOf(field.options);
  const state = ask.searches.get(field.key) ?? { query: '', open: false, active: 0 };
  const chosen = new Set((ask.values.get(field.key) as string[] | undefined) ?? []);
  const matches = searchLabels(labels, state.query, MATCHES_SHOWN + chosen.size);
  const chosenIndices = field.options.flatMap((option, i) => (chosen.has(option.value) ? [i] : []));
  const others = matches.indices.filter((i) => !chosen.has(field.options[i]!.value)).slice(0, MATCHES_SHOWN);
  const toggle = (value: string, on: boolean) => {
    const next = new Set(chosenValues(ask, field));
    if (on) next.add(value);
    else next.delete(value);
    setValue(view, ask, field, field.options.map((o) => o.value).filter((v) => next.has(v)));
  };
  const box = (index: number) => {
    const option = field.options[index]!;
    return html`<label><input type="checkbox" id="${id}-${index}" .checked=${chosen.has(option.value)} @change=${(e: Event) => toggle(option.value, (e.target as HTMLInputElement).checked)} />${clip(option.label, LABEL_CHARS)}</label>`;
  };
  const more = matches.total - chosenIndices.filter((i) => labels[i]!.toLowerCase().includes(state.query.trim().toLowerCase())).length - others.length;
  return html`<fieldset class="field" data-field=${field.key} aria-describedby=${describedBy}>
    <legend>${legend}</legend>
    <label for=${id}>Search the ${field.options.length.toLocaleString('en')} values</label>
    <input id=${id} type="search" autocomplete="off" .value=${state.query} @input=${(e: Event) => {
      ask.searches.set(field.key, { ...state, query: (e.target as HTMLInputElement).value });
      view.el.requestUpdate();
    }} />
    <div class="choices">${chosenIndices.map(box)}${others.map(box)}</div>
    ${more > 0 ? html`<span part="hint">${more.toLocaleString('en')} more match; type more to narrow.</span>` : nothing}
    ${hint}${errorText}
  </fieldset>`;
}

function renderField(view: AskView, ask: Ask, field: Field, index: number): TemplateResult {
  const id = `f${index}`;
  const error = ask.errors.get(field.key);
  const describedBy = [field.description ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || nothing;
  const value = ask.values.get(field.key);
  const label = html`${clip(field.label, LABEL_CHARS)}${field.required ? html`<span class="required" aria-hidden="true"> *</span>` : nothing}`;
  const description = field.description ? longText(view, ask, field.key, field.description) : undefined;
  const hint = description ? html`<span part="hint" id="${id}-hint">${description.shown}</span>${description.toggle}` : nothing;
  const errorText = error ? html`<span part="field-error" id="${id}-error">${error}</span>` : nothing;
  const invalid = error ? 'true' : 'false';
  // The * is for the eye; screen readers get aria-required (a group of checkboxes, which cannot carry it, the word).
  const required = field.required ? 'true' : nothing;

  if (field.kind === 'boolean') {
    return html`<div class="field" data-field=${field.key}>
      <label class="choices"><input id=${id} type="checkbox" .checked=${value === true} aria-required=${required} aria-invalid=${invalid} aria-describedby=${describedBy}
        @change=${(e: Event) => setValue(view, ask, field, (e.target as HTMLInputElement).checked)} />${label}</label>
      ${hint}${errorText}
    </div>`;
  }
  if (field.kind === 'choice') {
    if (field.options.length > SEARCH_OVER) return renderSearch(view, ask, field, id, label, hint, errorText, describedBy);
    if (field.options.length <= 4) {
      return html`<fieldset class="field" data-field=${field.key} aria-describedby=${describedBy}>
        <legend id="${id}-legend">${label}</legend>
        <div class="choices" role="radiogroup" aria-labelledby="${id}-legend" aria-required=${required}>
          ${field.options.map(
            (option, i) => html`<label><input type="radio" name=${id} id=${i === 0 ? id : `${id}-${i}`} .checked=${value === option.value} aria-invalid=${invalid}
              @change=${() => setValue(view, ask, field, option.value)} />${clip(option.label, LABEL_CHARS)}</label>`,
          )}
          ${field.required || field.default !== undefined
            ? nothing
            : html`<label><input type="radio" name=${id} .checked=${value === undefined} @change=${() => setValue(view, ask, field, undefined)} />No answer</label>`}
        </div>
        ${hint}${errorText}
      </fieldset>`;
    }
    return html`<div class="field" data-field=${field.key}>
      <label for=${id}>${label}</label>
      <select id=${id} aria-required=${required} aria-invalid=${invalid} aria-describedby=${describedBy} @change=${(e: Event) => setValue(view, ask, field, (e.target as HTMLSelectElement).value || undefined)}>
        ${field.default !== undefined && value !== undefined ? nothing : html`<option value="" ?selected=${value === undefined}>${field.required ? 'Choose…' : 'No answer'}</option>`}
        ${field.options.map((option) => html`<option value=${option.value} ?selected=${value === option.value}>${clip(option.label, LABEL_CHARS)}</option>`)}
      </select>
      ${hint}${errorText}
    </div>`;
  }
  if (field.kind === 'multi') {
    const selected = new Set((value as string[] | undefined) ?? []);
    const bounds = [field.minItems !== undefined ? `at least ${field.minItems}` : '', field.maxItems !== undefined ? `at most ${field.maxItems}` : ''].filter(Boolean).join(', ');
    if (field.options.length > SEARCH_OVER) {
      return renderManyChoices(view, ask, field, id, html`${label}${bounds ? html` <span part="hint">(${bounds})</span>` : nothing}`, hint, errorText, describedBy);
    }
    return html`<fieldset class="field" data-field=${field.key} aria-describedby=${describedBy}>
      <legend>${label}${field.required ? html`<span class="visually-hidden"> (required)</span>` : nothing}${bounds ? html` <span part="hint">(${bounds})</span>` : nothing}</legend>
      <div class="choices">
        ${field.options.map(
          (option, i) => html`<label><input type="checkbox" id=${i === 0 ? id : `${id}-${i}`} .checked=${selected.has(option.value)} aria-invalid=${invalid}
            @change=${(e: Event) => {
              const next = new Set(chosenValues(ask, field));
              if ((e.target as HTMLInputElement).checked) next.add(option.value);
              else next.delete(option.value);
              setValue(view, ask, field, field.options.map((o) => o.value).filter((v) => next.has(v)));
            }} />${clip(option.label, LABEL_CHARS)}</label>`,
        )}
      </div>
      ${hint}${errorText}
    </fieldset>`;
  }
  if (field.kind === 'number') {
    const typed = ask.typed.get(field.key);
    const shown = typed ? typed.text : value === undefined ? '' : String(value);
    return html`<div class="field" data-field=${field.key}>
      <label for=${id}>${label}</label>
      <input id=${id} type="number" inputmode=${field.integer ? 'numeric' : 'decimal'} step=${field.integer ? '1' : 'any'} min=${field.minimum ?? nothing} max=${field.maximum ?? nothing}
        .value=${shown} aria-invalid=${invalid} aria-describedby=${describedBy} ?required=${field.required} aria-required=${required}
        @input=${(e: Event) => {
          const input = e.target as HTMLInputElement;
          const text = input.value;
          // Text the browser cannot read as a number has no value: keep what is shown, say what is wrong.
          if (input.validity.badInput) return setTyped(view, ask, field, shown, field.integer ? 'Enter a whole number.' : 'Enter a number.');
          if (text === '') return setValue(view, ask, field, undefined);
          const number = Number(text);
          if (!Number.isFinite(number)) return setTyped(view, ask, field, text, 'Enter a number.');
          if (field.integer && !Number.isInteger(number)) return setTyped(view, ask, field, text, 'Enter a whole number.');
          if (field.integer && !Number.isSafeInteger(number)) {
            // Beyond 2^53−1 a JSON number cannot carry every whole number exactly.
            return setTyped(view, ask, field, text, `Enter a whole number between −${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.`);
          }
          setValue(view, ask, field, number);
        }} />
      ${hint}${errorText}
    </div>`;
  }
  const type = field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : field.format === 'date' ? 'date' : field.format === 'date-time' ? 'datetime-local' : 'text';
  const shown = value === undefined ? '' : field.format === 'date-time' ? toLocalInput(String(value)) : String(value);
  if (shown.length > VALUE_CHARS && !ask.full.has(`\u0000value:${field.key}`)) {
    // A long default is previewed, not put in a control; it is sent as it is unless edited.
    return html`<div class="field" data-field=${field.key}>
      <label for=${id}>${label}</label>
      <pre part="long-value" id="${id}-value">${clip(shown, 2_000)}</pre>
      <button type="button" id=${id} part="show-all-button" aria-describedby="${id}-value" @click=${() => {
        ask.full.add(`\u0000value:${field.key}`);
        view.el.requestUpdate();
      }}>Show and edit all ${shown.length.toLocaleString('en')} characters</button>
      ${hint}${errorText}
    </div>`;
  }
  return html`<div class="field" data-field=${field.key}>
    <label for=${id}>${label}</label>
    <input id=${id} type=${type} .value=${shown} minlength=${field.minLength ?? nothing} maxlength=${field.maxLength ?? nothing}
      aria-invalid=${invalid} aria-describedby=${describedBy} ?required=${field.required} aria-required=${required}
      @input=${(e: Event) => {
        const text = (e.target as HTMLInputElement).value;
        setValue(view, ask, field, field.format === 'date-time' ? fromLocalInput(text) : text === '' ? undefined : text);
      }} />
    ${hint}${errorText}
  </div>`;
}
