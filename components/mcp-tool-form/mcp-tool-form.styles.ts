import { css } from 'lit';
import { plainHost } from '../internal/style-blocks.js';

/**
 * Styles of `<mcp-tool-form>`. Kit-wide `--mcp-*` tokens with fallbacks; light
 * and dark follow `color-scheme` through `light-dark()`.
 *
 * (Comments about rules stay out here: what is inside the css literal is shipped.)
 * - The form itself is block flow too, its parts spaced by margins (issue 30):
 *   a grid sizes its one track from every item's min- and max-content, an
 *   extra pass over the whole form on its first layout.
 * - The lists of fields (`fieldset.fields`, `.inline-group`) and a single field
 *   (`div.field`) are block flow, not grid, with the gaps as margins (the
 *   `:nth-child` selectors are specific enough to win over the fieldsets'
 *   `margin: 0`; buttons in a group are as wide as grid items were). Typing
 *   into one field then lays out that field alone, where a grid sizes its
 *   tracks over all its items (hundreds of fields) on every keystroke, and a
 *   focused text input, not being a grid item, can be laid out on its own
 *   (see holdSize in fields.ts).
 * - The members of a wide object past the 30th (below the first screenful)
 *   are `content-visibility: auto`: not laid out until they come near the
 *   view, so a form of hundreds of fields pays for what is seen. They stay in
 *   the accessibility tree, focusable and findable; the clip margin keeps
 *   focus rings whole. Not while suggestion lists (which overflow their field)
 *   can open (`.contained` is then off).
 * - "Edit as JSON" is an escape hatch: present everywhere, loud nowhere.
 * - An earlier call's result: still there to compare with, but not shown as
 *   the answer (a frame, not faded text: it must stay readable).
 * - First the host page's inherited text styles are kept out (plainHost, which
 *   the other elements list in their own `styles`: the element's file is at
 *   its 800 lines).
 */
export const styles = [plainHost, css`
  :host {
    --mcp-tool-form-gap: var(--mcp-space-3, 0.75rem);
    --mcp-tool-form-radius: var(--mcp-radius, 6px);
    --mcp-tool-form-mono: var(--mcp-font-mono, ui-monospace, SFMono-Regular, Menlo, monospace);
    --mcp-tool-form-fg: var(--mcp-color-text, light-dark(#1b1f24, #e6edf3));
    --mcp-tool-form-muted: var(--mcp-color-muted-text, light-dark(#57606a, #9da7b3));
    --mcp-tool-form-bg: var(--mcp-color-input, light-dark(#ffffff, #0d1117));
    --mcp-tool-form-surface: var(--mcp-color-surface, light-dark(#f6f8fa, #161b22));
    --mcp-tool-form-border: var(--mcp-color-border, light-dark(#8c959f, #6e7681));
    --mcp-tool-form-accent: var(--mcp-color-accent, light-dark(#0a58ca, #58a6ff));
    --mcp-tool-form-accent-fg: var(--mcp-color-accent-text, light-dark(#ffffff, #0d1117));
    --mcp-tool-form-danger: var(--mcp-color-danger, light-dark(#b42318, #ff7b72));
    --mcp-tool-form-warning: var(--mcp-color-warning, light-dark(#7a4d00, #e3b341));

    display: block;
    color: var(--mcp-tool-form-fg);
    font: var(--mcp-font, inherit);
    line-height: 1.4;
  }

  :host([hidden]) {
    display: none;
  }

  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }

  * {
    box-sizing: border-box;
  }

  form {
    display: block;
  }

  form[part] > :not(:first-child) {
    margin-block-start: var(--mcp-tool-form-gap);
  }

  [part~='header'] h2 {
    margin: 0;
    font-size: 1.15rem;
  }

  [part~='tool-name'] {
    font-family: var(--mcp-tool-form-mono);
    color: var(--mcp-tool-form-muted);
    font-size: 0.85rem;
  }

  [part~='description'],
  .note {
    margin: 0.25rem 0 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }

  .note {
    color: var(--mcp-tool-form-muted);
    font-size: 0.85rem;
  }

  fieldset.fields {
    border: 0;
    margin: 0;
    padding: 0;
    min-width: 0;
    display: block;
  }

  .inline-group {
    display: block;
  }

  .contained :is(.inline-group, .group) > .field:nth-child(n + 31) {
    content-visibility: auto;
    contain-intrinsic-size: auto 4.5rem;
    overflow-clip-margin: 6px;
  }

  fieldset.fields > :not(legend) ~ :not(legend),
  .inline-group > :nth-child(n + 2) {
    margin-block-start: var(--mcp-tool-form-gap);
  }

  .inline-group > button {
    display: block;
    width: 100%;
  }

  .items,
  .rows {
    display: grid;
    gap: var(--mcp-tool-form-gap);
  }

  .field {
    display: grid;
    gap: 0.25rem;
    min-width: 0;
  }

  div.field {
    display: block;
  }

  div.field > :nth-child(n + 2) {
    margin-block-start: 0.25rem;
  }

  div.field > :is(label, input, select, textarea, button) {
    display: block;
  }

  div.field > button {
    width: 100%;
  }

  fieldset.group,
  fieldset.radios {
    border: 1px solid var(--mcp-tool-form-border);
    border-radius: var(--mcp-tool-form-radius);
    padding: 0.5rem var(--mcp-tool-form-gap) var(--mcp-tool-form-gap);
    margin: 0;
    gap: var(--mcp-tool-form-gap);
  }

  fieldset.radios {
    gap: 0.25rem;
  }

  legend {
    font-weight: 600;
    padding: 0 0.25rem;
  }

  .label-row,
  .group-tools {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
  }

  .group-tools {
    justify-content: flex-end;
    margin-top: -0.25rem;
  }

  .group-tools:empty {
    display: none;
  }

  [part~='raw-toggle'][aria-pressed='false'] {
    background: none;
    border-color: transparent;
    color: var(--mcp-tool-form-muted);
    text-decoration: underline;
  }

  [part~='add-button'] {
    justify-self: start;
  }

  label {
    font-weight: 600;
  }

  .option {
    font-weight: normal;
    display: inline-flex;
    align-items: center;
    gap: 0.35rem;
    margin-inline-end: 1rem;
  }

  input:not([type='checkbox'], [type='radio']),
  select,
  textarea {
    font: inherit;
    color: inherit;
    background: var(--mcp-tool-form-bg);
    border: 1px solid var(--mcp-tool-form-border);
    border-radius: var(--mcp-tool-form-radius);
    padding: 0.4rem 0.5rem;
    width: 100%;
    min-width: 0;
  }

  textarea[part~='json'] {
    font-family: var(--mcp-tool-form-mono);
    font-size: 0.85rem;
  }

  input:focus-visible,
  select:focus-visible,
  textarea:focus-visible,
  button:focus-visible {
    outline: 2px solid var(--mcp-tool-form-accent);
    outline-offset: 2px;
  }

  [aria-invalid='true'] {
    border-color: var(--mcp-tool-form-danger);
  }

  [part~='matches'] {
    max-block-size: 16rem;
    overflow: auto;
    margin: 0;
    padding: 0.25rem 0;
    list-style: none;
    border: 1px solid var(--mcp-tool-form-border);
    border-radius: var(--mcp-tool-form-radius);
    background: var(--mcp-tool-form-bg);
  }

  [part~='matches'][hidden] {
    display: none;
  }

  [part~='match'] {
    padding: 0.25rem 0.5rem;
    cursor: pointer;
    overflow-wrap: anywhere;
  }

  [part~='match'][aria-selected='true'] {
    background: var(--mcp-tool-form-accent);
    color: var(--mcp-tool-form-accent-fg);
  }

  [part~='match'][data-chosen] {
    font-weight: 600;
  }

  [part~='long-value'] {
    margin: 0;
    max-block-size: 8rem;
    overflow: auto;
    padding: 0.5rem;
    font-family: var(--mcp-tool-form-mono);
    font-size: 0.85rem;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    background: var(--mcp-tool-form-surface);
    border-radius: var(--mcp-tool-form-radius);
  }

  [part~='description'],
  [part~='hint'] {
    overflow-wrap: anywhere;
  }

  [part~='hint'] {
    color: var(--mcp-tool-form-muted);
    font-size: 0.85rem;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }

  [part~='error'],
  [part~='call-error'],
  [part~='error-summary'] {
    color: var(--mcp-tool-form-danger);
    font-size: 0.9rem;
  }

  [part~='error-summary'],
  [part~='call-error'],
  [part~='notice'],
  [part~='draft-notice'],
  [part~='draft-conflict'],
  [part~='confirm'] {
    border: 1px solid currentColor;
    border-radius: var(--mcp-tool-form-radius);
    padding: 0.5rem var(--mcp-tool-form-gap);
  }

  [part~='notice'],
  [part~='draft-conflict'] {
    color: var(--mcp-tool-form-warning);
  }

  [part~='error-summary'] ul {
    margin: 0.25rem 0 0;
    padding-inline-start: 1.25rem;
  }

  [part~='error-summary'] button {
    all: unset;
    cursor: pointer;
    text-decoration: underline;
  }

  [part~='badge'] {
    font-size: 0.75rem;
    border: 1px solid var(--mcp-tool-form-border);
    border-radius: 999px;
    padding: 0 0.45rem;
    color: var(--mcp-tool-form-muted);
    font-weight: normal;
  }

  [part~='header-badge'] {
    border-color: var(--mcp-tool-form-warning);
    color: var(--mcp-tool-form-warning);
  }

  [part~='required-mark'] {
    color: var(--mcp-tool-form-danger);
    margin-inline-start: 0.15rem;
  }

  button {
    font: inherit;
    color: inherit;
    background: var(--mcp-tool-form-surface);
    border: 1px solid var(--mcp-tool-form-border);
    border-radius: var(--mcp-tool-form-radius);
    padding: 0.35rem 0.8rem;
    cursor: pointer;
  }

  button.small {
    padding: 0 0.45rem;
    font-size: 0.8rem;
  }

  button[aria-pressed='true'] {
    background: var(--mcp-tool-form-accent);
    color: var(--mcp-tool-form-accent-fg);
    border-color: var(--mcp-tool-form-accent);
  }

  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }

  [part~='submit-button'],
  [part~='confirm-button'] {
    background: var(--mcp-tool-form-accent);
    color: var(--mcp-tool-form-accent-fg);
    border-color: var(--mcp-tool-form-accent);
    font-weight: 600;
  }

  :host([destructive]) [part~='confirm-button'] {
    background: var(--mcp-tool-form-danger);
    border-color: var(--mcp-tool-form-danger);
  }

  .items {
    margin: 0;
    padding: 0;
    list-style: none;
  }

  .item,
  .row {
    display: grid;
    gap: 0.35rem;
    padding-inline-start: 0.5rem;
    border-inline-start: 3px solid var(--mcp-tool-form-surface);
  }

  .row {
    grid-template-columns: minmax(6rem, 1fr) 2fr auto;
    align-items: end;
  }

  .item-actions {
    display: flex;
    gap: 0.35rem;
  }

  [part~='actions'] {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }

  [part~='progress'] {
    display: grid;
    gap: 0.25rem;
  }

  progress {
    width: 100%;
    accent-color: var(--mcp-tool-form-accent);
  }

  [part~='task'] {
    display: grid;
    gap: 0.125rem;
  }

  [part~='task-message'] {
    color: var(--mcp-color-muted-text, inherit);
  }

  button.disclosure {
    display: block;
    background: none;
    border: 0;
    padding: 0;
    color: var(--mcp-tool-form-muted);
    font-size: 0.9rem;
    text-align: start;
  }

  button.disclosure::before {
    content: '';
    display: inline-block;
    width: 0.55em;
    height: 0.55em;
    margin-inline-end: 0.4em;
    background: currentColor;
    clip-path: polygon(0 0, 100% 50%, 0 100%);
  }

  button.disclosure[aria-expanded='true']::before {
    clip-path: polygon(0 0, 100% 0, 50% 100%);
  }

  form[part] > [part~='preview'] {
    margin-block-start: 0.25rem;
  }

  pre {
    font-family: var(--mcp-tool-form-mono);
    font-size: 0.85rem;
    background: var(--mcp-tool-form-surface);
    border-radius: var(--mcp-tool-form-radius);
    padding: 0.5rem;
    margin: 0.25rem 0 0;
    overflow: auto;
    max-height: 20rem;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }

  code {
    font-family: var(--mcp-tool-form-mono);
  }

  [part~='result-stale'] {
    display: block;
    outline: 1px dashed var(--mcp-tool-form-border);
    outline-offset: 0.25rem;
  }

  [part~='result-heading'] {
    margin: var(--mcp-tool-form-gap) 0 0.5rem;
    font-size: 1rem;
  }

  [part~='result-heading']:focus-visible {
    outline: 2px solid var(--mcp-tool-form-accent);
    outline-offset: 2px;
  }

  [part~='stale-note'] {
    color: var(--mcp-tool-form-muted);
    font-size: 0.9rem;
    margin: var(--mcp-tool-form-gap) 0 0;
  }

  .checkbox .label-row label {
    font-weight: 600;
  }

  @media (prefers-reduced-motion: no-preference) {
    progress {
      transition: all 0.2s;
    }
  }
`];
