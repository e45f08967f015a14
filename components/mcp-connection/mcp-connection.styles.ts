import { css } from 'lit';
import { focusRing, plainText, systemButton } from '../internal/style-blocks.js';

/**
 * The page's inherited text styles are kept out of the element's own parts
 * (plainText), not its `:host` as in the other elements: the connection wraps
 * the page's own content (its default slot), which inherits from the host
 * and must keep looking like the rest of the page. Right-to-left is read
 * from the host's `:dir()`: Chromium does not match `:dir(rtl)` on the
 * status part (the slot's fallback content) under a `dir="rtl"` ancestor.
 */
export const connectionStyles = css`
  :host {
    --mcp-connection-gap: var(--mcp-space-2, 0.5rem);
    display: block;
    color: var(--mcp-color-text, CanvasText);
    font: var(--mcp-font, inherit);
  }
  :host([hidden]) {
    display: none;
  }
  [part='status'],
  [part='error'],
  [part='notice'] {
    ${plainText}
  }
  :host(:dir(rtl)) :is([part='status'], [part='error'], [part='notice']) {
    direction: rtl;
  }
  [part='status'] {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--mcp-connection-gap);
    padding: var(--mcp-space-2, 0.5rem) var(--mcp-space-3, 0.75rem);
    border: 1px solid var(--mcp-color-border, color-mix(in srgb, currentColor 25%, transparent));
    border-radius: var(--mcp-radius, 0.5rem);
    background: var(--mcp-color-surface, Canvas);
  }
  [part='indicator'] {
    inline-size: 0.6rem;
    block-size: 0.6rem;
    border-radius: 50%;
    background: var(--mcp-color-muted, GrayText);
    flex: none;
  }
  :host(:state(connected)) [part='indicator'] {
    background: var(--mcp-color-success, light-dark(#116329, #3fb950));
  }
  :host(:state(connecting)) [part='indicator'] {
    background: var(--mcp-color-warning, light-dark(#7a4d00, #e3b341));
  }
  :host(:state(error)) [part='indicator'] {
    background: var(--mcp-color-danger, light-dark(#b42318, #ff7b72));
  }
  [part='server-name'] {
    font-weight: 600;
  }
  [part='era'],
  [part='status-text'] {
    color: var(--mcp-color-muted-text, color-mix(in srgb, currentColor 75%, transparent));
    font-size: 0.9em;
  }
  [part='sign-in-button'] {
    margin-inline-start: auto;
    background: var(--mcp-color-accent, #1d4ed8);
    border-color: var(--mcp-color-accent, #1d4ed8);
    color: var(--mcp-color-accent-text, #fff);
  }
  [part='sign-in-button'] + [part='reconnect-button'],
  [part='sign-out-button'] + [part='reconnect-button'] {
    margin-inline-start: 0;
  }
  [part='sign-out-button'] {
    margin-inline-start: auto;
  }
  [part='reconnect-button'] {
    margin-inline-start: auto;
    padding: 0.25rem 0.75rem;
    ${systemButton}
  }
  [part='sign-in-button'],
  [part='sign-out-button'] {
    font: inherit;
    padding: 0.25rem 0.75rem;
    border-radius: var(--mcp-radius-small, 0.375rem);
    border: 1px solid var(--mcp-color-border, color-mix(in srgb, currentColor 35%, transparent));
    cursor: pointer;
  }
  [part='sign-out-button'] {
    background: var(--mcp-color-button, ButtonFace);
    color: var(--mcp-color-button-text, ButtonText);
  }
  [part='notice'] {
    margin-block-start: var(--mcp-connection-gap);
    font-size: 0.9em;
  }
  [part='sign-in-button']:focus-visible,
  [part='sign-out-button']:focus-visible,
  [part='reconnect-button']:focus-visible {
    ${focusRing}
  }
  [part='error'] {
    margin-block-start: var(--mcp-connection-gap);
    padding: var(--mcp-space-2, 0.5rem) var(--mcp-space-3, 0.75rem);
    border-radius: var(--mcp-radius, 0.5rem);
    border: 1px solid var(--mcp-color-danger, light-dark(#b42318, #ff7b72));
    color: var(--mcp-color-danger-text, var(--mcp-color-text, CanvasText));
    background: var(--mcp-color-danger-surface, color-mix(in srgb, var(--mcp-color-danger, light-dark(#b42318, #ff7b72)) 10%, Canvas));
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  [part='content'] {
    display: contents;
  }
`;
