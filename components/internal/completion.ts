/**
 * Argument completion as an editable combobox (WAI-ARIA Authoring Practices,
 * "Combobox" pattern, list autocomplete): the text input is the `combobox`,
 * suggestions are a `listbox` in the same shadow root (so `aria-controls` and
 * `aria-activedescendant` resolve), and everything works from the keyboard:
 *
 * - typing asks for suggestions after a pause (debounced; the request in flight
 *   is aborted when the value changes or the list closes, and a late answer to an
 *   older value is dropped);
 * - Down / Up open the list and move through it (Alt+Down opens it, wrapping at the ends);
 * - Enter takes the highlighted suggestion (and only then keeps the form from submitting);
 * - Escape closes the list; Tab and leaving the field close it too.
 *
 * Suggestions come from a {@link CompletionSource}; {@link serverCompletions}
 * asks the server with `completion/complete` (spec: server/utilities/completion)
 * and keeps the last answers per value. Suggestions are the server's text,
 * shown as text.
 *
 * @module
 */
import { html, nothing, css, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { McpRpcError, type McpClient } from '../../src/index.js';
import type { CompletionReference } from '../../src/protocol/types.js';
import { clip } from './json.js';
import { LABEL_CHARS } from './long-list.js';

/** Suggestions for one value (a `CompleteResult`'s `completion`). */
export interface Suggestions {
  values: string[];
  /** How many matches the server has in all, when it says. */
  total?: number;
  /** Whether there are more matches than `values`. */
  hasMore?: boolean;
}

/**
 * Where suggestions come from: called with the current value and a signal that
 * aborts when the value changes again. Rejecting shows no suggestions.
 */
export type CompletionSource = (value: string, signal: AbortSignal) => Promise<Suggestions>;

/** The spec's cap on suggestions per response (server/utilities/completion "Completion Results"). */
const MAX_VALUES = 100;

/**
 * A source that asks the server (`completion/complete`) for the argument `name`
 * of `ref` (a prompt or a resource template). `context` gives the values of the
 * other arguments (sent as `context.arguments`). Answers are kept per value and
 * context (the 50 newest): a server may be asked again only when the input
 * changes. A server without completions (`-32601`) is not asked again.
 */
export function serverCompletions(client: McpClient, ref: CompletionReference, name: string, context?: () => Record<string, string>): CompletionSource {
  const cache = new Map<string, Suggestions>();
  let unsupported = false;
  return async (value, signal) => {
    if (unsupported) return { values: [] };
    const others = context?.() ?? {};
    const key = JSON.stringify([value, others]);
    const hit = cache.get(key);
    if (hit) return hit;
    try {
      const result = await client.complete(ref, { name, value }, Object.keys(others).length > 0 ? { arguments: others } : undefined, { signal });
      const completion = (result as { completion?: unknown }).completion as { values?: unknown; total?: unknown; hasMore?: unknown } | undefined;
      // Untrusted: only strings, at most the spec's 100.
      const values = Array.isArray(completion?.values) ? completion.values.filter((v): v is string => typeof v === 'string').slice(0, MAX_VALUES) : [];
      const suggestions: Suggestions = { values };
      if (Number.isSafeInteger(completion?.total) && (completion!.total as number) >= 0) suggestions.total = completion!.total as number;
      if (completion?.hasMore === true) suggestions.hasMore = true;
      cache.set(key, suggestions);
      if (cache.size > 50) cache.delete(cache.keys().next().value!);
      return suggestions;
    } catch (error) {
      if (McpRpcError.isInstance(error) && error.code === -32601) unsupported = true;
      throw error;
    }
  };
}

interface FieldState {
  open: boolean;
  values: string[];
  total: number | undefined;
  hasMore: boolean;
  /** Index of the highlighted suggestion; -1 for none. */
  active: number;
  loading: boolean;
  /** The value the list was asked for. */
  for: string | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  abort: AbortController | undefined;
  token: number;
}

/** What a combobox input needs: its id, its source and what to do with a new value. */
export interface ComboboxField {
  /** The input's id (unique in the shadow root); the listbox and options derive theirs from it. */
  id: string;
  /** Where suggestions come from; undefined: a plain text input. */
  source: CompletionSource | undefined;
  /** Called with a suggestion the user took. */
  pick: (value: string) => void;
}

/**
 * Keeps the state of every combobox of one element (keyed by input id) and
 * renders their listboxes. Create one per element (`new CompletionController(this)`).
 */
export class CompletionController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #delayMs: number;
  readonly #fields = new Map<string, FieldState>();

  /** @param delayMs - the pause after the last keystroke before asking, in ms (default 200). */
  constructor(host: ReactiveControllerHost, delayMs = 200) {
    this.#host = host;
    this.#delayMs = delayMs;
    host.addController(this);
  }

  hostDisconnected(): void {
    for (const id of this.#fields.keys()) this.close(id);
  }

  #state(id: string): FieldState {
    let state = this.#fields.get(id);
    if (!state) {
      state = { open: false, values: [], total: undefined, hasMore: false, active: -1, loading: false, for: undefined, timer: undefined, abort: undefined, token: 0 };
      this.#fields.set(id, state);
    }
    return state;
  }

  /** Whether the list of `id` is open. */
  isOpen(id: string): boolean {
    return this.#fields.get(id)?.open === true;
  }

  /** The suggestions shown for `id`. */
  suggestions(id: string): readonly string[] {
    return this.#fields.get(id)?.values ?? [];
  }

  /** Closes the list of `id` and stops asking. */
  close(id: string): void {
    const state = this.#fields.get(id);
    if (!state) return;
    clearTimeout(state.timer);
    state.abort?.abort();
    state.token++;
    const changed = state.open || state.loading;
    Object.assign(state, { open: false, active: -1, loading: false, timer: undefined, abort: undefined });
    if (changed) this.#host.requestUpdate();
  }

  /** The input's value changed (its `input` event): asks for suggestions after the pause. */
  input(field: ComboboxField, value: string): void {
    if (!field.source) return;
    const state = this.#state(field.id);
    clearTimeout(state.timer);
    state.abort?.abort();
    state.token++;
    state.timer = setTimeout(() => void this.#ask(field, value, true), this.#delayMs);
  }

  async #ask(field: ComboboxField, value: string, openIfAny: boolean): Promise<void> {
    const source = field.source;
    if (!source) return;
    const state = this.#state(field.id);
    state.abort?.abort();
    const controller = new AbortController();
    const token = ++state.token;
    state.abort = controller;
    state.loading = true;
    this.#host.requestUpdate();
    let suggestions: Suggestions;
    try {
      suggestions = await source(value, controller.signal);
    } catch {
      suggestions = { values: [] };
    }
    // A newer keystroke, Escape or leaving the field made this answer stale.
    if (token !== state.token) return;
    state.abort = undefined;
    state.loading = false;
    state.values = suggestions.values;
    state.total = suggestions.total;
    state.hasMore = suggestions.hasMore === true;
    state.for = value;
    state.active = -1;
    state.open = openIfAny && suggestions.values.length > 0;
    this.#host.requestUpdate();
  }

  /**
   * Keyboard handling of the input (its `keydown`). Returns whether the key was used.
   * Enter is used only when a suggestion is highlighted.
   */
  keydown(field: ComboboxField, event: KeyboardEvent): boolean {
    if (!field.source) return false;
    const state = this.#state(field.id);
    const input = event.target as HTMLInputElement;
    const count = state.values.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!state.open) {
          if (state.for === input.value && count > 0) {
            state.open = true;
            state.active = event.altKey ? -1 : event.key === 'ArrowDown' ? 0 : count - 1;
            this.#host.requestUpdate();
          } else {
            clearTimeout(state.timer);
            void this.#ask(field, input.value, true).then(() => {
              if (state.open && !event.altKey) {
                state.active = event.key === 'ArrowDown' ? 0 : state.values.length - 1;
                this.#host.requestUpdate();
              }
            });
          }
          return true;
        }
        if (event.altKey) return true;
        if (count > 0) state.active = event.key === 'ArrowDown' ? (state.active + 1) % count : state.active <= 0 ? count - 1 : state.active - 1;
        this.#host.requestUpdate();
        return true;
      }
      case 'Enter':
        if (state.open && state.active >= 0 && state.active < count) {
          event.preventDefault();
          this.#take(field, state.values[state.active]!);
          return true;
        }
        return false;
      case 'Escape':
        if (state.open || state.loading) {
          event.preventDefault();
          // The list closes; the dialog or panel around the input stays.
          event.stopPropagation();
          this.close(field.id);
          return true;
        }
        return false;
      case 'Tab':
        this.close(field.id);
        return false;
      default:
        return false;
    }
  }

  #take(field: ComboboxField, value: string): void {
    this.close(field.id);
    field.pick(value);
  }

  /** The attributes a combobox input carries, for templates that render the input themselves. */
  aria(field: ComboboxField): { role: string | undefined; expanded: string | undefined; controls: string | undefined; active: string | undefined; autocomplete: string | undefined } {
    if (!field.source) return { role: undefined, expanded: undefined, controls: undefined, active: undefined, autocomplete: undefined };
    const state = this.#fields.get(field.id);
    const open = state?.open === true;
    return {
      role: 'combobox',
      expanded: open ? 'true' : 'false',
      controls: `${field.id}-listbox`,
      active: open && state!.active >= 0 ? `${field.id}-option-${state!.active}` : undefined,
      autocomplete: 'list',
    };
  }

  /**
   * The listbox of a combobox input, rendered right after it (inside a wrapper
   * with `position: relative`, see {@link completionStyles}).
   * @param label - the listbox's accessible name ("Suggestions for language").
   */
  listbox(field: ComboboxField, label: string): TemplateResult | typeof nothing {
    if (!field.source) return nothing;
    const state = this.#fields.get(field.id);
    const open = state?.open === true;
    const values = open ? state!.values : [];
    const total = state?.total;
    const more = open && state!.hasMore ? `; ${total !== undefined ? `${total.toLocaleString('en')} in all` : 'more exist'}, type more to narrow them` : '';
    return html`<ul part="listbox" class="mcp-listbox" role="listbox" id="${field.id}-listbox" aria-label=${label} ?hidden=${!open}>
        ${values.map(
          (value, index) =>
            html`<li
              part=${index === state!.active ? 'option option-active' : 'option'}
              role="option"
              id="${field.id}-option-${index}"
              aria-selected=${index === state!.active ? 'true' : 'false'}
              @pointerdown=${(event: Event) => event.preventDefault()}
              @click=${() => this.#take(field, value)}
            >
              ${clip(value, LABEL_CHARS)}
            </li>`,
        )}
      </ul>
      <span class="mcp-visually-hidden" role="status">${open ? `${values.length} suggestion${values.length === 1 ? '' : 's'}${more}` : ''}</span>`;
  }

  /**
   * A whole text input with completion: label-less (give `labelledBy` or use
   * `<label for=id>`), with the listbox after it.
   */
  textInput(
    field: ComboboxField,
    options: { value: string; label: string; part?: string; required?: boolean; describedBy?: string; invalid?: boolean; name?: string; placeholder?: string; onInput: (value: string) => void; onChange?: (value: string) => void },
  ): TemplateResult {
    const aria = this.aria(field);
    return html`<span class="mcp-combobox">
      <input
        part=${options.part ?? 'control'}
        id=${field.id}
        type="text"
        name=${ifDefined(options.name)}
        .value=${options.value}
        ?required=${options.required === true}
        placeholder=${ifDefined(options.placeholder)}
        autocomplete="off"
        role=${ifDefined(aria.role)}
        aria-autocomplete=${ifDefined(aria.autocomplete)}
        aria-expanded=${ifDefined(aria.expanded)}
        aria-controls=${ifDefined(aria.controls)}
        aria-activedescendant=${ifDefined(aria.active)}
        aria-describedby=${ifDefined(options.describedBy)}
        aria-invalid=${ifDefined(options.invalid ? 'true' : undefined)}
        @input=${(event: Event) => {
          const value = (event.target as HTMLInputElement).value;
          options.onInput(value);
          this.input(field, value);
        }}
        @change=${(event: Event) => options.onChange?.((event.target as HTMLInputElement).value)}
        @keydown=${(event: KeyboardEvent) => this.keydown(field, event)}
        @blur=${() => this.close(field.id)}
      />${this.listbox(field, options.label)}
    </span>`;
  }
}

/** Styles of the combobox pieces (add them to the element's `styles`). */
export const completionStyles = css`
  .mcp-combobox {
    position: relative;
    display: block;
  }
  .mcp-combobox > input {
    inline-size: 100%;
    box-sizing: border-box;
  }
  [part~='listbox'] {
    position: absolute;
    z-index: 10;
    inset-inline: 0;
    inset-block-start: calc(100% + 2px);
    margin: 0;
    padding: 0.25rem 0;
    list-style: none;
    max-block-size: 14rem;
    overflow: auto;
    background: var(--mcp-color-input, Field);
    color: var(--mcp-color-input-text, var(--mcp-color-text, FieldText));
    border: 1px solid var(--mcp-color-border, color-mix(in srgb, currentColor 30%, transparent));
    border-radius: var(--mcp-radius, 0.375rem);
    box-shadow: 0 4px 12px rgb(0 0 0 / 0.18);
  }
  [part~='listbox'][hidden] {
    display: none;
  }
  [part~='option'] {
    padding: 0.25rem 0.6rem;
    cursor: pointer;
    overflow-wrap: anywhere;
  }
  [part~='option-active'],
  [part~='option']:hover {
    background: var(--mcp-color-accent, Highlight);
    color: var(--mcp-color-accent-text, HighlightText);
  }
  .mcp-visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
