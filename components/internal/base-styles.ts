import { css } from 'lit';

/**
 * The look shared by the inspector elements (`<mcp-prompt-form>`,
 * `<mcp-resource-list>`, `<mcp-protocol-log>`, `<mcp-roots-editor>`): the kit's
 * `--mcp-*` tokens with fallbacks; light and dark follow the page's scheme
 * through `light-dark()` (the element declares no `color-scheme` of its own:
 * see `scheme.ts`, whose `schemeStyles` come first in each element's styles).
 */
export const baseStyles = css`
  :host {
    --mcp-el-fg: var(--mcp-color-text, light-dark(#1b1f24, #e6edf3));
    --mcp-el-muted: var(--mcp-color-muted-text, light-dark(#57606a, #9da7b3));
    --mcp-el-bg: var(--mcp-color-input, light-dark(#ffffff, #0d1117));
    --mcp-el-surface: var(--mcp-color-code, var(--mcp-color-surface, light-dark(#f6f8fa, #161b22)));
    --mcp-el-border: var(--mcp-color-border, light-dark(#8c959f, #6e7681));
    --mcp-el-accent: var(--mcp-color-accent, light-dark(#0a58ca, #58a6ff));
    --mcp-el-accent-fg: var(--mcp-color-accent-text, light-dark(#ffffff, #0d1117));
    --mcp-el-danger: var(--mcp-color-danger, light-dark(#b42318, #ff7b72));
    --mcp-el-warning: var(--mcp-color-warning, light-dark(#7a4d00, #e3b341));
    --mcp-el-success: var(--mcp-color-success, light-dark(#116329, #3fb950));
    --mcp-el-radius: var(--mcp-radius, 6px);
    --mcp-el-mono: var(--mcp-font-mono, ui-monospace, SFMono-Regular, Menlo, monospace);
    display: block;
    color: var(--mcp-el-fg);
    font: var(--mcp-font, inherit);
    line-height: 1.4;
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  .mcp-visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  input:not([type='checkbox'], [type='radio'], [type='file']),
  select,
  textarea {
    font: inherit;
    color: inherit;
    background: var(--mcp-el-bg);
    border: 1px solid var(--mcp-el-border);
    border-radius: var(--mcp-el-radius);
    padding: 0.35rem 0.5rem;
    min-inline-size: 0;
  }
  button {
    font: inherit;
    color: inherit;
    background: var(--mcp-el-surface);
    border: 1px solid var(--mcp-el-border);
    border-radius: var(--mcp-el-radius);
    padding: 0.3rem 0.75rem;
    cursor: pointer;
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  button[aria-pressed='true'] {
    background: var(--mcp-el-accent);
    color: var(--mcp-el-accent-fg);
    border-color: var(--mcp-el-accent);
  }
  input:focus-visible,
  select:focus-visible,
  textarea:focus-visible,
  button:focus-visible,
  summary:focus-visible,
  [tabindex]:focus-visible {
    outline: 2px solid var(--mcp-el-accent);
    outline-offset: 2px;
  }
  [part~='submit-button'] {
    background: var(--mcp-el-accent);
    color: var(--mcp-el-accent-fg);
    border-color: var(--mcp-el-accent);
    font-weight: 600;
  }
  [part~='error'] {
    color: var(--mcp-el-danger);
    border: 1px solid currentColor;
    border-radius: var(--mcp-el-radius);
    padding: 0.4rem 0.6rem;
    overflow-wrap: anywhere;
  }
  [part~='status'],
  [part~='hint'] {
    color: var(--mcp-el-muted);
    font-size: 0.9rem;
    overflow-wrap: anywhere;
  }
  [part~='badge'] {
    display: inline-block;
    font-size: 0.75rem;
    border: 1px solid var(--mcp-el-border);
    border-radius: 999px;
    padding: 0 0.45rem;
    color: var(--mcp-el-muted);
    white-space: nowrap;
  }
  code,
  pre {
    font-family: var(--mcp-el-mono);
    font-size: 0.85rem;
    overflow-wrap: anywhere;
  }
`;
