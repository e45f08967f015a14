/**
 * The searched list of a long choice (an `enum` or `oneOf` of more than
 * SEARCH_OVER values): a text input checked against the allowed values, listing
 * at most MATCHES_SHOWN of those that contain what is typed (the ARIA combobox
 * pattern, with a listbox popup), and a line that says how many match. Written
 * once for `<mcp-tool-form>` (choice-fields.ts) and `<mcp-elicitation-dialog>`
 * (its form-view.ts): each keeps the list's state and decides what typed text
 * or a picked value means; the few differences of their markup are options.
 * Loaded on demand, only for a tool or a request that has a long choice (the
 * form's long-choices.ts, the dialog's form-view.ts): not with the form's
 * parts or the dialog's body, which most pages load without ever needing it.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { clip } from './json.js';
import { LABEL_CHARS, MATCHES_SHOWN } from './long-list.js';

/** Whether the list of matches is open, and which of those listed is active. */
export interface ComboboxState {
  open: boolean;
  /** Index (among the matches listed) of the active one. */
  active: number;
}

/**
 * The keys of a searchable list of matches under a text input (the ARIA
 * combobox pattern): ArrowDown/ArrowUp open the list, or move the active match
 * round the `shown` ones; Enter picks the active match (`'pick'`, instead of
 * submitting the form); Escape closes the list without closing a dialog
 * around it. Calls `preventDefault` for the keys it handles.
 * @returns the list's next state, `'pick'`, or undefined for a key it leaves alone.
 */
function matchListKey(event: KeyboardEvent, state: ComboboxState, shown: number, hasActive: boolean): ComboboxState | 'pick' | undefined {
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    if (!state.open) return { open: true, active: 0 };
    return shown > 0 ? { open: true, active: (state.active + (event.key === 'ArrowDown' ? 1 : shown - 1)) % shown } : undefined;
  }
  if (event.key === 'Enter' && state.open && hasActive) {
    event.preventDefault();
    return 'pick';
  }
  if (event.key === 'Escape' && state.open) {
    event.preventDefault();
    event.stopPropagation();
    return { open: false, active: 0 };
  }
  return undefined;
}

/** What {@link searchCombobox} renders and whom it tells. */
export interface SearchCombobox {
  /** Id of the input; the list is `${id}-matches`, the count `${id}-count`. */
  id: string;
  /** The labels of the allowed values, in order (see `labelsOf`). */
  labels: readonly string[];
  /** Index of the value chosen, or -1. */
  selected: number;
  /** Text typed that the input shows instead of the chosen value's label. */
  typed: string | undefined;
  /** What the matches contain. */
  query: string;
  state: ComboboxState;
  /** Opens, closes or moves in the list. */
  setState(next: ComboboxState): void;
  /** A match was picked: clicked, or Enter on the active one. */
  pick(index: number): void;
  /** The input's text changed (`input`). */
  input(text: string): void;
  /** The input's text was committed (`change`); without it, `change` is not listened to. */
  change?(text: string): void;
  /** Ids of the hint and error that describe the input too, after the count. */
  describedBy?: string | undefined;
  /** `aria-invalid`; left out when undefined. */
  invalid: 'true' | 'false' | undefined;
  required: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  /** The list's accessible name. */
  listLabel: string;
  /** The input's `part`; none when undefined. */
  part?: string;
  /** `spellcheck` of the input; left out when undefined. */
  spellcheck?: 'false';
  /** `class` of the list; none when undefined. */
  listClass?: string;
  /** Marks the chosen value among the matches (`data-chosen`). */
  markChosen?: boolean;
  /** What the count says when nothing matches (without it: "0 matching values."). */
  noMatch?: string;
  /** The count as a `<span>` (inline) rather than a `<div>`. */
  inlineCount?: boolean;
}

/**
 * The input, its list of matches and the count. Typed text that names no
 * value is the caller's to keep and flag, never to send.
 */
export function searchCombobox(options: SearchCombobox): TemplateResult {
  const { id, labels, state, setState, pick } = options;
  const listId = `${id}-matches`;
  const countId = `${id}-count`;
  const matches = state.open ? searchLabels(labels, options.query) : { indices: [], total: 0 };
  const active = state.open ? matches.indices[Math.min(state.active, matches.indices.length - 1)] : undefined;
  const open = () => !state.open && setState({ open: true, active: 0 });
  const onKeydown = (event: KeyboardEvent) => {
    // Enter picks the active match instead of submitting the form; Escape closes the list, not the dialog.
    const next = matchListKey(event, state, matches.indices.length, active !== undefined);
    if (next === 'pick') pick(active!);
    else if (next) setState(next);
  };
  const total = labels.length;
  const count = !state.open
    ? `${total.toLocaleString('en')} allowed values: type to search them.`
    : matches.total === 0 && options.noMatch !== undefined
      ? options.noMatch
      : matches.total > matches.indices.length
        ? `${matches.indices.length} of ${matches.total.toLocaleString('en')} matching values listed; type more to narrow.`
        : `${matches.total} matching value${matches.total === 1 ? '' : 's'}.`;
  const change = options.change;
  return html`<input
        part=${options.part ?? nothing}
        id=${id}
        type="text"
        role="combobox"
        autocomplete="off"
        spellcheck=${options.spellcheck ?? nothing}
        aria-autocomplete="list"
        aria-expanded=${state.open ? 'true' : 'false'}
        aria-controls=${listId}
        aria-activedescendant=${active !== undefined ? `${listId}-${active}` : nothing}
        aria-describedby=${[countId, options.describedBy ?? ''].filter(Boolean).join(' ')}
        aria-invalid=${options.invalid ?? nothing}
        .value=${options.typed ?? (options.selected >= 0 ? labels[options.selected]! : '')}
        ?disabled=${options.disabled}
        ?readonly=${options.readOnly}
        ?required=${options.required}
        @focus=${open}
        @click=${open}
        @input=${(e: Event) => options.input((e.target as HTMLInputElement).value)}
        @change=${change ? (e: Event) => change((e.target as HTMLInputElement).value) : undefined}
        @blur=${() => setState({ open: false, active: 0 })}
        @keydown=${onKeydown}
      />
      <ul part="matches" class=${options.listClass ?? nothing} id=${listId} role="listbox" aria-label=${options.listLabel} ?hidden=${!state.open || matches.indices.length === 0}>
        ${matches.indices.map(
          (index) => html`<li
            part="match"
            id="${listId}-${index}"
            role="option"
            aria-selected=${index === active ? 'true' : 'false'}
            ?data-chosen=${options.markChosen === true && index === options.selected}
            @mousedown=${(e: Event) => e.preventDefault()}
            @click=${() => pick(index)}
          >
            ${clip(labels[index]!, LABEL_CHARS)}
          </li>`,
        )}
      </ul>
      ${options.inlineCount ? html`<span part="hint" id=${countId}>${count}</span>` : html`<div part="hint" id=${countId}>${count}</div>`}`;
}

// --- searching the labels (here, not in long-list.ts, which every page loads at once) ---

const labelCache = new WeakMap<readonly { label: string }[], string[]>();

/** The labels of a list of options, once per options array (they are searched on every keystroke). */
export function labelsOf(options: readonly { label: string }[]): string[] {
  let labels = labelCache.get(options);
  if (!labels) labelCache.set(options, (labels = options.map((option) => option.label)));
  return labels;
}

const lowered = new WeakMap<readonly string[], string[]>();

/**
 * The options whose label contains `query` (case-insensitive), in order: the
 * first `limit` indices, and how many match in all. An empty query matches
 * every option. Lower-cased labels are cached per `labels` array, so a search
 * over a million values costs one pass per keystroke.
 */
export function searchLabels(labels: readonly string[], query: string, limit = MATCHES_SHOWN): { indices: number[]; total: number } {
  let lower = lowered.get(labels);
  if (!lower) lowered.set(labels, (lower = labels.map((label) => label.toLowerCase())));
  const needle = query.trim().toLowerCase();
  const indices: number[] = [];
  let total = 0;
  for (let i = 0; i < lower.length; i++) {
    if (needle !== '' && !lower[i]!.includes(needle)) continue;
    total++;
    if (indices.length < limit) indices.push(i);
  }
  return { indices, total };
}

/**
 * The option a typed text names: the one whose label is exactly the text, else
 * the only one whose label equals it ignoring case and surrounding spaces.
 * @returns its index, or -1.
 */
export function optionNamed(labels: readonly string[], text: string): number {
  const exact = labels.indexOf(text);
  if (exact !== -1) return exact;
  const wanted = text.trim().toLowerCase();
  let found = -1;
  for (let i = 0; i < labels.length; i++) {
    if (labels[i]!.trim().toLowerCase() !== wanted) continue;
    if (found !== -1) return -1;
    found = i;
  }
  return found;
}
