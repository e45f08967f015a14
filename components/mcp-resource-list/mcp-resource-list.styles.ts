import { css } from 'lit';
import { baseStyles } from '../internal/base-styles.js';
import { completionStyles } from '../internal/completion.js';

/** Styles of `<mcp-resource-list>`. */
export const styles = [
  baseStyles,
  completionStyles,
  css`
    [part~='toolbar'] {
      display: flex;
      gap: 0.5rem;
      margin-block-end: 0.5rem;
    }
    [part~='filter'] {
      flex: 1;
    }
    [part~='resources'],
    [part~='templates'] {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.5rem;
    }
    [part~='resource'],
    [part~='template'] {
      border-block-end: 1px solid var(--mcp-el-border);
      padding-block-end: 0.5rem;
      min-inline-size: 0;
    }
    .row {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: 0.5rem;
    }
    .what {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: 0.25rem 0.6rem;
      min-inline-size: 0;
    }
    .actions {
      display: flex;
      gap: 0.35rem;
    }
    [part~='name'] {
      font-weight: 600;
    }
    [part~='uri'],
    [part~='expanded-uri'] {
      color: var(--mcp-el-muted);
    }
    [part~='meta'] {
      color: var(--mcp-el-muted);
      font-size: 0.85rem;
      margin: 0.15rem 0 0;
      overflow-wrap: anywhere;
    }
    [part~='updated-badge'] {
      border-color: var(--mcp-el-warning);
      color: var(--mcp-el-warning);
    }
    [part~='count'],
    [part~='section-title'] {
      margin: 0.5rem 0 0.35rem;
      color: var(--mcp-el-muted);
      font-size: 0.85rem;
    }
    [part~='section-title'] {
      font-weight: 600;
      color: inherit;
    }
    .fields {
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr));
      gap: 0.5rem;
      margin-block: 0.35rem;
    }
    [part~='field'] {
      display: grid;
      gap: 0.2rem;
    }
    [part~='contents'] {
      margin-block-start: 0.35rem;
    }
  `,
];
