import { css } from 'lit';

/** Styles of `<mcp-app-frame>`; `--mcp-*` tokens with fallbacks, light/dark via `color-scheme`. */
export const styles = css`
  :host {
    --mcp-app-frame-fg: var(--mcp-color-text, light-dark(#1b1f24, #e6edf3));
    --mcp-app-frame-muted: var(--mcp-color-muted-text, light-dark(#57606a, #9da7b3));
    --mcp-app-frame-surface: var(--mcp-color-surface, light-dark(#f6f8fa, #161b22));
    --mcp-app-frame-bg: var(--mcp-color-background, light-dark(#ffffff, #0d1117));
    --mcp-app-frame-border: var(--mcp-color-border, light-dark(#8c959f, #6e7681));
    --mcp-app-frame-accent: var(--mcp-color-accent, light-dark(#0a58ca, #58a6ff));
    --mcp-app-frame-danger: var(--mcp-color-danger, light-dark(#b42318, #ff7b72));
    --mcp-app-frame-radius: var(--mcp-radius, 6px);

    display: block;
    color: var(--mcp-app-frame-fg);
    font: var(--mcp-font, inherit);
    line-height: 1.4;
  }

  :host([hidden]) {
    display: none;
  }

  [part~='base'] {
    display: grid;
    gap: 0.5rem;
    border: 1px solid var(--mcp-app-frame-border);
    border-radius: var(--mcp-app-frame-radius);
    padding: 0.5rem;
    background: var(--mcp-app-frame-bg);
    min-width: 0;
  }

  [part~='base'][data-mode='fullscreen'] {
    position: fixed;
    inset: 0;
    z-index: var(--mcp-app-frame-z-index, 1000);
    border-radius: 0;
    grid-template-rows: auto 1fr auto;
  }

  [part~='base'][data-mode='pip'] {
    position: fixed;
    right: 1rem;
    bottom: 1rem;
    width: min(26rem, calc(100vw - 2rem));
    height: min(20rem, calc(100vh - 2rem));
    z-index: var(--mcp-app-frame-z-index, 1000);
    grid-template-rows: auto 1fr auto;
    box-shadow: 0 8px 24px rgb(0 0 0 / 0.3);
  }

  /* The app asked for no border (_meta.ui.prefersBorder: false): it draws its own edges. */
  [part~='base'][data-mode='inline'][data-border='none'] {
    border-color: transparent;
  }

  [part~='header'] {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
    font-size: 0.85rem;
    color: var(--mcp-app-frame-muted);
  }

  [part~='label'] {
    flex: 1;
    font-weight: 600;
    overflow-wrap: anywhere;
  }

  [part~='viewport'] {
    min-height: 0;
  }

  [part~='viewport'][hidden] {
    display: none;
  }

  [part~='iframe'] {
    display: block;
    width: 100%;
    border: 0;
    background: transparent;
    color-scheme: normal;
  }

  [data-mode='fullscreen'] [part~='iframe'],
  [data-mode='pip'] [part~='iframe'] {
    height: 100%;
  }

  [part~='status'],
  [part~='error'] {
    margin: 0;
  }

  [part~='error'] {
    color: var(--mcp-app-frame-danger);
  }

  [part~='prompt'] {
    display: grid;
    gap: 0.5rem;
    padding: 0.75rem;
    border: 2px solid var(--mcp-app-frame-accent);
    border-radius: var(--mcp-app-frame-radius);
    background: var(--mcp-app-frame-surface);
  }

  [part~='prompt-text'],
  [part~='prompt-note'] {
    margin: 0;
  }

  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }

  [part~='prompt-detail'] {
    margin: 0;
    max-height: 12rem;
    overflow: auto;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    font-family: var(--mcp-font-mono, ui-monospace, SFMono-Regular, Menlo, monospace);
    font-size: 0.85rem;
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }

  button {
    font: inherit;
    padding: 0.3rem 0.75rem;
    border-radius: var(--mcp-app-frame-radius);
    border: 1px solid var(--mcp-app-frame-border);
    background: var(--mcp-app-frame-bg);
    color: var(--mcp-app-frame-fg);
    cursor: pointer;
  }

  [part~='allow-button'] {
    background: var(--mcp-app-frame-accent);
    border-color: var(--mcp-app-frame-accent);
    color: light-dark(#ffffff, #0d1117);
  }

  button:focus-visible {
    outline: 2px solid var(--mcp-app-frame-accent);
    outline-offset: 2px;
  }
`;
