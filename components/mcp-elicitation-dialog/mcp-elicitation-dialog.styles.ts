import { css } from 'lit';

/** The dialog's own styles, adopted when its body loads (dialog-body.ts); the box and the notice are the element's (mcp-elicitation-dialog.ts). */
export const dialogStyles = css`
  dialog {
    inline-size: var(--mcp-dialog-width);
    max-block-size: calc(100vh - 2rem);
    max-block-size: calc(100dvh - 2rem);
    padding: 0;
    border: 1px solid var(--mcp-color-border, color-mix(in srgb, CanvasText 25%, transparent));
    border-radius: var(--mcp-radius-large, 0.75rem);
    background: var(--mcp-color-surface, Canvas);
    color: var(--mcp-color-text, CanvasText);
    font: var(--mcp-font, inherit);
    box-shadow: 0 1rem 3rem rgb(0 0 0 / 0.25);
  }
  :host([inline]) dialog {
    position: static;
    inline-size: auto;
    margin: 0;
    box-shadow: none;
  }
  dialog::backdrop {
    background: var(--mcp-dialog-backdrop, rgb(0 0 0 / 0.45));
  }
  form {
    display: grid;
    gap: var(--mcp-space-3, 0.75rem);
    padding: var(--mcp-space-4, 1.25rem);
  }
  [part='header'] {
    display: grid;
    gap: 0.25rem;
  }
  [part='title'] {
    margin: 0;
    font-size: 1.15em;
  }
  [part='server'],
  [part='progress'] {
    margin: 0;
    font-size: 0.9em;
    color: var(--mcp-color-muted-text, color-mix(in srgb, currentColor 75%, transparent));
  }
  [part='server-host'],
  [part='url-host'] {
    font-weight: 700;
    color: var(--mcp-color-text, CanvasText);
  }
  [part='matches'] {
    max-block-size: 14rem;
    overflow: auto;
    margin: 0;
    padding: 0.25rem 0;
    list-style: none;
    border: 1px solid var(--mcp-color-border, color-mix(in srgb, CanvasText 25%, transparent));
    border-radius: var(--mcp-radius, 6px);
  }
  [part='matches'][hidden] {
    display: none;
  }
  [part='match'] {
    padding: 0.25rem 0.5rem;
    cursor: pointer;
    overflow-wrap: anywhere;
  }
  [part='match'][aria-selected='true'] {
    background: var(--mcp-color-accent, #0a58ca);
    color: var(--mcp-color-accent-text, #fff);
  }
  [part='hint'],
  [part='field-error'],
  label,
  legend,
  dd {
    overflow-wrap: anywhere;
  }
  [part='long-value'] {
    margin: 0;
    max-block-size: 8rem;
    overflow: auto;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  [part='message'] {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  [part='fields'] {
    display: grid;
    gap: var(--mcp-space-3, 0.75rem);
    margin: 0;
    padding: 0;
    border: 0;
  }
  .field {
    display: grid;
    gap: 0.25rem;
  }
  .field > label,
  .field legend {
    font-weight: 600;
  }
  fieldset.field {
    margin: 0;
    padding: 0;
    border: 0;
  }
  .choices {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
  }
  .choices label {
    display: inline-flex;
    gap: 0.35rem;
    align-items: center;
    font-weight: normal;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .required {
    color: var(--mcp-color-danger, light-dark(#b42318, #ff7b72));
  }
  input:not([type='checkbox']):not([type='radio']),
  select,
  textarea {
    font: inherit;
    padding: 0.4rem 0.5rem;
    border-radius: var(--mcp-radius-small, 0.375rem);
    border: 1px solid var(--mcp-color-border, color-mix(in srgb, currentColor 35%, transparent));
    background: var(--mcp-color-input, Field);
    color: var(--mcp-color-input-text, FieldText);
  }
  textarea {
    min-block-size: 6rem;
    resize: vertical;
  }
  [aria-invalid='true'] {
    border-color: var(--mcp-color-danger, light-dark(#b42318, #ff7b72)) !important;
  }
  [part='hint'] {
    font-size: 0.85em;
    color: var(--mcp-color-muted-text, color-mix(in srgb, currentColor 75%, transparent));
  }
  [part='field-error'],
  [part='error'] {
    color: var(--mcp-color-danger-text, var(--mcp-color-danger, light-dark(#b42318, #ff7b72)));
    font-size: 0.9em;
  }
  [part='url'] {
    padding: var(--mcp-space-2, 0.5rem);
    border-radius: var(--mcp-radius-small, 0.375rem);
    background: var(--mcp-color-code, color-mix(in srgb, currentColor 8%, transparent));
    font-family: var(--mcp-font-mono, ui-monospace, monospace);
    overflow-wrap: anywhere;
  }
  [part='warning'] {
    margin: 0;
    padding: var(--mcp-space-2, 0.5rem);
    border-inline-start: 4px solid var(--mcp-color-warning, light-dark(#7a4d00, #e3b341));
    background: color-mix(in srgb, var(--mcp-color-warning, light-dark(#7a4d00, #e3b341)) 12%, transparent);
  }
  [part='review'] {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.25rem 1rem;
    margin: 0;
  }
  [part='review'] dt {
    font-weight: 600;
  }
  [part='review'] dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  [part='messages'] {
    display: grid;
    gap: 0.5rem;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  [part='messages'] li {
    padding: 0.5rem;
    border-radius: var(--mcp-radius-small, 0.375rem);
    background: var(--mcp-color-code, color-mix(in srgb, currentColor 6%, transparent));
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  [part='messages'] img {
    max-inline-size: 100%;
  }
  [part='timeline'] {
    font-size: 0.9em;
  }
  [part='timeline'] ol {
    margin: 0.25rem 0 0;
    padding-inline-start: 1.25rem;
  }
  [part='actions'] {
    display: flex;
    flex-wrap: wrap;
    justify-content: flex-end;
    gap: 0.5rem;
  }
  /* On a short screen the content scrolls and the buttons stay in view, at the dialog's bottom edge. */
  dialog:modal [part='actions'] {
    position: sticky;
    inset-block-end: 0;
    margin: 0 calc(-1 * var(--mcp-space-4, 1.25rem)) calc(-1 * var(--mcp-space-4, 1.25rem));
    padding: var(--mcp-space-3, 0.75rem) var(--mcp-space-4, 1.25rem);
    border-block-start: 1px solid var(--mcp-color-border, color-mix(in srgb, CanvasText 25%, transparent));
    background: var(--mcp-color-surface, Canvas);
  }
  button.primary {
    background: var(--mcp-color-accent, #1d4ed8);
    border-color: var(--mcp-color-accent, #1d4ed8);
    color: var(--mcp-color-accent-text, #fff);
  }
  button:focus-visible,
  input:focus-visible,
  select:focus-visible,
  textarea:focus-visible {
    outline: 2px solid var(--mcp-color-focus, Highlight);
    outline-offset: 2px;
  }
`;
