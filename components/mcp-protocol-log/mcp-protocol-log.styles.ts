import { css } from 'lit';
import { baseStyles } from '../internal/base-styles.js';

/** Styles of `<mcp-protocol-log>`. */
export const styles = [
  baseStyles,
  css`
    [part~='toolbar'] {
      display: flex;
      flex-wrap: wrap;
      align-items: end;
      gap: 0.5rem 0.75rem;
    }
    [part~='tabs'] {
      display: flex;
      gap: 0;
      align-self: end;
    }
    [part~='tab'] {
      border-radius: 0;
    }
    [part~='tab']:first-child {
      border-start-start-radius: var(--mcp-el-radius);
      border-end-start-radius: var(--mcp-el-radius);
    }
    [part~='tab']:last-child {
      border-start-end-radius: var(--mcp-el-radius);
      border-end-end-radius: var(--mcp-el-radius);
      margin-inline-start: -1px;
    }
    [part~='tab'][aria-selected='true'] {
      background: var(--mcp-el-accent);
      color: var(--mcp-el-accent-fg);
      border-color: var(--mcp-el-accent);
    }
    .control {
      display: grid;
      gap: 0.1rem;
      font-size: 0.85rem;
      color: var(--mcp-el-muted);
    }
    .control select {
      color: var(--mcp-el-fg);
    }
    .buttons {
      display: flex;
      gap: 0.35rem;
      margin-inline-start: auto;
    }
    [part~='cap'] {
      margin: 0.4rem 0;
      font-size: 0.85rem;
      color: var(--mcp-el-muted);
    }
    :host(:state(capped)) [part~='cap'] {
      color: var(--mcp-el-warning);
    }
    [part~='entries'] {
      list-style: none;
      margin: 0;
      padding: 0;
      max-block-size: var(--mcp-protocol-log-max-height, 24rem);
      overflow: auto;
      font-family: var(--mcp-el-mono);
      font-size: 0.82rem;
      border: 1px solid var(--mcp-el-border);
      border-radius: var(--mcp-el-radius);
    }
    [part~='entry'] {
      border-block-end: 1px solid color-mix(in srgb, var(--mcp-el-border) 50%, transparent);
      padding: 0.1rem 0.4rem;
    }
    [part~='entry-note'] {
      display: flex;
      gap: 0.5rem;
      padding-block: 0.2rem;
      color: var(--mcp-el-muted);
    }
    summary {
      display: flex;
      flex-wrap: wrap;
      gap: 0.2rem 0.6rem;
      align-items: baseline;
      padding: 0.15rem 0;
      cursor: pointer;
      list-style-position: outside;
    }
    [part~='time'] {
      color: var(--mcp-el-muted);
    }
    [part~='direction'][data-direction='out'] {
      color: var(--mcp-el-accent);
    }
    [part~='direction'][data-direction='in'] {
      color: var(--mcp-el-success);
    }
    [part~='method'] {
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    [part~='round'],
    [part~='progress'],
    [part~='log-data'] {
      color: var(--mcp-el-muted);
      overflow-wrap: anywhere;
    }
    [part~='outcome'][data-outcome='error'] {
      color: var(--mcp-el-danger);
    }
    [part~='outcome'][data-outcome='input_required'],
    [part~='outcome'][data-outcome='pending'] {
      color: var(--mcp-el-warning);
    }
    [part~='level'] {
      text-transform: uppercase;
      font-size: 0.75rem;
    }
    [part~='level'][data-level='warning'] {
      color: var(--mcp-el-warning);
    }
    [part~='level'][data-level='error'],
    [part~='level'][data-level='critical'],
    [part~='level'][data-level='alert'],
    [part~='level'][data-level='emergency'] {
      color: var(--mcp-el-danger);
    }
    [part~='body'] {
      padding: 0 0 0.5rem 1rem;
    }
    .section {
      margin: 0.4rem 0 0.15rem;
      font-family: var(--mcp-font, inherit);
      font-weight: 600;
      font-size: 0.8rem;
    }
    pre {
      margin: 0;
      padding: 0.4rem 0.5rem;
      background: var(--mcp-el-surface);
      border-radius: var(--mcp-el-radius);
      overflow: auto;
      max-block-size: 18rem;
      white-space: pre-wrap;
    }
    .copy {
      display: flex;
      gap: 0.35rem;
      margin-block-start: 0.35rem;
      font-family: var(--mcp-font, inherit);
    }
    .fallback {
      display: grid;
      gap: 0.2rem;
      margin-block-start: 0.35rem;
      font-family: var(--mcp-font, inherit);
    }
    .rounds {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    [part~='more-button'] {
      margin-block-end: 0.35rem;
    }
  `,
];
