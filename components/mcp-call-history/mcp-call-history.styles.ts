import { css } from 'lit';
import { baseStyles } from '../internal/base-styles.js';

/** Styles of `<mcp-call-history>`. */
export const styles = [
  baseStyles,
  css`
    :host {
      display: flex;
      flex-direction: column;
      min-block-size: 0;
    }
    [part~='toolbar'] {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: 0.35rem 0.75rem;
      font-size: 0.85rem;
      color: var(--mcp-el-muted);
    }
    [part~='toolbar'] button {
      margin-inline-start: auto;
    }
    [part~='entries'] {
      list-style: none;
      margin: 0.35rem 0 0;
      padding: 0;
      display: grid;
      gap: 2px;
      overflow: auto;
      flex: 1 1 auto;
      min-block-size: 2.5rem;
      max-block-size: var(--mcp-call-history-max-height, 16rem);
    }
    [part~='entry-button'] {
      inline-size: 100%;
      display: grid;
      grid-template-columns: auto minmax(0, 1fr) auto auto;
      gap: 0 0.5rem;
      align-items: baseline;
      text-align: start;
      padding: 0.2rem 0.45rem;
      font-size: 0.85rem;
      background: transparent;
      border-color: transparent;
    }
    [part~='entry-button'][aria-pressed='true'] {
      border-color: var(--mcp-el-accent);
      background: var(--mcp-el-surface);
      color: var(--mcp-el-fg);
    }
    [part~='time'],
    [part~='server'],
    [part~='duration'] {
      color: var(--mcp-el-muted);
      font-variant-numeric: tabular-nums;
    }
    [part~='name'] {
      font-weight: 600;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    [part~='summary'] {
      grid-column: 2 / -1;
      font-family: var(--mcp-el-mono);
      font-size: 0.8rem;
      color: var(--mcp-el-muted);
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    [part~='server'] {
      grid-column: 1;
      grid-row: 2;
      font-size: 0.8rem;
    }
    [part~='outcome'] {
      font-size: 0.8rem;
      padding: 0 0.4rem;
      border-radius: 999px;
      border: 1px solid currentColor;
      /* On the input background, whatever the row's: the outcome colours keep their contrast. */
      background: var(--mcp-el-bg);
    }
    [data-outcome='ok'] [part~='outcome'] {
      color: var(--mcp-el-success);
    }
    [data-outcome='error'] [part~='outcome'],
    [data-outcome='tool-error'] [part~='outcome'] {
      color: var(--mcp-el-danger);
    }
    [data-outcome='running'] [part~='outcome'],
    [data-outcome='stopped'] [part~='outcome'] {
      color: var(--mcp-el-warning);
    }
    [part~='detail'] {
      margin-block-start: 0.5rem;
      border-block-start: 1px solid var(--mcp-el-border);
      padding-block-start: 0.4rem;
      display: grid;
      /* Rows at their content's height: the JSON blocks scroll themselves, so a squeezed grid would
         shrink them to nothing; the detail scrolls as a whole instead. */
      grid-auto-rows: max-content;
      align-content: start;
      gap: 0.3rem;
      flex: 1 1 auto;
      /* The selected call's arguments and result get room before the list does. */
      min-block-size: min(10rem, 75%);
      max-block-size: 80%;
      overflow: auto;
    }
    [part~='detail'] h3,
    [part~='detail'] h4 {
      margin: 0;
      font-size: 0.9rem;
    }
    [part~='json'] {
      margin: 0;
      padding: 0.35rem 0.5rem;
      background: var(--mcp-el-surface);
      border-radius: var(--mcp-el-radius);
      font-family: var(--mcp-el-mono);
      font-size: 0.8rem;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      max-block-size: 10rem;
      overflow: auto;
    }
    [part~='actions'] {
      display: flex;
      flex-wrap: wrap;
      gap: 0.35rem;
    }
    [part~='status'] {
      margin: 0.35rem 0 0;
      font-size: 0.85rem;
      color: var(--mcp-el-muted);
    }
  `,
];
