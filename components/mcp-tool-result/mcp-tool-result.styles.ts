import { css } from 'lit';

/** Styles of `<mcp-tool-result>`; `--mcp-*` tokens with fallbacks, light/dark via `color-scheme`. */
export const styles = css`
  :host {
    --mcp-tool-result-gap: var(--mcp-space-3, 0.75rem);
    --mcp-tool-result-radius: var(--mcp-radius, 6px);
    --mcp-tool-result-mono: var(--mcp-font-mono, ui-monospace, SFMono-Regular, Menlo, monospace);
    --mcp-tool-result-fg: var(--mcp-color-text, light-dark(#1b1f24, #e6edf3));
    --mcp-tool-result-muted: var(--mcp-color-muted-text, light-dark(#57606a, #9da7b3));
    --mcp-tool-result-surface: var(--mcp-color-surface, light-dark(#f6f8fa, #161b22));
    --mcp-tool-result-border: var(--mcp-color-border, light-dark(#8c959f, #6e7681));
    --mcp-tool-result-accent: var(--mcp-color-accent, light-dark(#0a58ca, #58a6ff));
    --mcp-tool-result-danger: var(--mcp-color-danger, light-dark(#b42318, #ff7b72));
    --mcp-tool-result-warning: var(--mcp-color-warning, light-dark(#7a4d00, #e3b341));
    --mcp-tool-result-success: var(--mcp-color-success, light-dark(#116329, #3fb950));
    --mcp-tool-result-media-max-height: 20rem;

    display: block;
    color: var(--mcp-tool-result-fg);
    font: var(--mcp-font, inherit);
    line-height: 1.4;
  }

  :host([hidden]) {
    display: none;
  }

  [part~='base'] {
    display: grid;
    gap: var(--mcp-tool-result-gap);
    border: 1px solid var(--mcp-tool-result-border);
    border-radius: var(--mcp-tool-result-radius);
    padding: var(--mcp-tool-result-gap);
  }

  :host(:state(error)) [part~='base'] {
    border-color: var(--mcp-tool-result-danger);
    border-width: 2px;
  }

  [part~='error-label'] {
    color: var(--mcp-tool-result-danger);
    font-weight: 600;
    margin: 0;
  }

  [part~='blocks'] {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--mcp-tool-result-gap);
  }

  [part~='block'] {
    display: grid;
    gap: 0.35rem;
    min-width: 0;
  }

  pre {
    font-family: var(--mcp-tool-result-mono);
    font-size: 0.85rem;
    background: var(--mcp-tool-result-surface);
    border-radius: var(--mcp-tool-result-radius);
    padding: 0.5rem;
    margin: 0;
    overflow: auto;
    max-height: 24rem;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }

  [part~='text'] {
    font-family: inherit;
    font-size: inherit;
    background: none;
    padding: 0;
    max-height: none;
  }

  img,
  audio {
    max-width: 100%;
  }

  img {
    max-height: var(--mcp-tool-result-media-max-height);
    object-fit: contain;
    justify-self: start;
    border-radius: var(--mcp-tool-result-radius);
  }

  [part~='meta'],
  [part~='note'],
  [part~='placeholder'] {
    color: var(--mcp-tool-result-muted);
    font-size: 0.85rem;
    overflow-wrap: anywhere;
  }

  [part~='placeholder'] {
    border: 1px dashed var(--mcp-tool-result-border);
    border-radius: var(--mcp-tool-result-radius);
    padding: 0.35rem 0.5rem;
  }

  [part~='badge'] {
    font-size: 0.75rem;
    border: 1px solid var(--mcp-tool-result-border);
    border-radius: 999px;
    padding: 0 0.45rem;
    color: var(--mcp-tool-result-muted);
    justify-self: start;
  }

  code,
  [part~='uri'] {
    font-family: var(--mcp-tool-result-mono);
    font-size: 0.85rem;
    overflow-wrap: anywhere;
  }

  a {
    color: var(--mcp-tool-result-accent);
  }

  button {
    font: inherit;
    color: inherit;
    background: var(--mcp-tool-result-surface);
    border: 1px solid var(--mcp-tool-result-border);
    border-radius: var(--mcp-tool-result-radius);
    padding: 0.2rem 0.7rem;
    cursor: pointer;
    justify-self: start;
  }

  button:focus-visible,
  a:focus-visible,
  summary:focus-visible {
    outline: 2px solid var(--mcp-tool-result-accent);
    outline-offset: 2px;
  }

  [part~='validation'] {
    font-size: 0.9rem;
    margin: 0;
  }

  [part~='validation'][data-status='valid'] {
    color: var(--mcp-tool-result-success);
  }

  [part~='validation'][data-status='invalid'] {
    color: var(--mcp-tool-result-warning);
  }

  [part~='validation'] ul {
    margin: 0.25rem 0 0;
    padding-inline-start: 1.25rem;
  }

  [part~='section-title'] {
    font-weight: 600;
    margin: 0;
  }

  [part~='read-contents'] {
    display: grid;
    gap: 0.35rem;
    border-inline-start: 3px solid var(--mcp-tool-result-surface);
    padding-inline-start: 0.5rem;
  }

  [part~='read-error'] {
    color: var(--mcp-tool-result-danger);
  }

  summary {
    cursor: pointer;
    color: var(--mcp-tool-result-muted);
    font-size: 0.85rem;
  }
`;
