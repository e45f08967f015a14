import { css } from 'lit';
import { baseStyles } from '../internal/base-styles.js';
import { completionStyles } from '../internal/completion.js';

/** Styles of `<mcp-prompt-form>`. */
export const styles = [
  baseStyles,
  completionStyles,
  css`
    form {
      display: grid;
      gap: 0.75rem;
    }
    fieldset.fields {
      border: 0;
      margin: 0;
      padding: 0;
      min-inline-size: 0;
      display: grid;
      gap: 0.75rem;
    }
    [part~='field'] {
      display: grid;
      gap: 0.25rem;
      min-inline-size: 0;
    }
    [part~='label'] {
      font-weight: 600;
    }
    [part~='required-mark'] {
      color: var(--mcp-el-danger);
    }
    [part~='picker'] {
      inline-size: 100%;
    }
    [part~='header'] h3 {
      margin: 0;
      font-size: 1.05rem;
    }
    [part~='prompt-name'] {
      color: var(--mcp-el-muted);
    }
    [part~='description'],
    [part~='result-description'] {
      margin: 0.25rem 0 0;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    [part~='actions'] {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
    }
    [part~='messages'] {
      margin-block-start: 0.75rem;
    }
    .messages {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.5rem;
    }
    [part~='message'] {
      display: grid;
      gap: 0.25rem;
    }
    [part~='role'] {
      font-weight: 600;
      text-transform: capitalize;
    }
  `,
];
