import { consume } from '@lit/context';
import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { Root } from '../../src/index.js';
import { connectionContext } from '../context.js';
import { defineElement } from '../define.js';
import { PageSchemeController, schemeStyles } from '../internal/scheme.js';
import { plainHost } from '../internal/style-blocks.js';
import { McpRootsChangeEvent } from '../events.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import { toggleState } from '../internal/dom.js';
import { baseStyles } from '../internal/base-styles.js';

/**
 * Edits the roots a page shares with servers (spec: client/roots): the list,
 * with Remove buttons, and a form to add a `file://` URI with an optional name.
 *
 * Inside `<mcp-connection>` it edits the connection's `roots` — those
 * `<mcp-elicitation-dialog>` offers when a server asks (`roots/list`), and on a
 * legacy server the change is announced with `notifications/roots/list_changed`
 * (2025-11-25 client/roots "Root List Changes"; 2026-07-28 servers ask for roots
 * with each request instead). Outside, set `.roots` and listen for
 * `mcp-roots-change`.
 *
 * @tagname mcp-roots-editor
 * @summary Add and remove the roots shared with MCP servers.
 *
 * @event mcp-roots-change - The roots changed; `detail.roots` is the new list.
 *
 * @csspart roots - The list of roots.
 * @csspart root - One root.
 * @csspart name - A root's name.
 * @csspart uri - A root's URI.
 * @csspart remove-button - Removes a root.
 * @csspart form - The form that adds a root.
 * @csspart label - A label of the form.
 * @csspart control - An input of the form.
 * @csspart add-button - Adds the root.
 * @csspart error - Why the URI cannot be added.
 * @csspart status - "No roots".
 *
 * @cssproperty --mcp-color-text - Text colour.
 * @cssproperty --mcp-color-border - Borders.
 * @cssproperty --mcp-color-danger - Errors.
 *
 * @cssstate empty - No roots.
 */
export class McpRootsEditor extends LitElement {
  static override styles = [
    schemeStyles,
    plainHost,
    baseStyles,
    css`
      [part~='roots'] {
        list-style: none;
        margin: 0 0 0.5rem;
        padding: 0;
        display: grid;
        gap: 0.35rem;
      }
      [part~='root'] {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.25rem 0.6rem;
      }
      [part~='name'] {
        font-weight: 600;
      }
      [part~='uri'] {
        color: var(--mcp-el-muted);
        flex: 1;
      }
      [part~='form'] {
        display: flex;
        flex-wrap: wrap;
        align-items: end;
        gap: 0.5rem;
      }
      .field {
        display: grid;
        gap: 0.15rem;
        flex: 1 1 10rem;
      }
      [part~='error'] {
        flex-basis: 100%;
      }
    `,
  ];

  /** The roots; default: the enclosing connection's. Setting it outside a connection is the way to use the editor alone. */
  @property({ attribute: false }) roots: Root[] | undefined;

  @consume({ context: connectionContext, subscribe: true })
  @state()
  protected connection: McpConnection | undefined;

  @state() private _uri = '';
  @state() private _name = '';
  @state() private _error = '';

  #internals = this.attachInternals();

  constructor() {
    super();
    new PageSchemeController(this, this.#internals);
  }

  /** The roots shown: `.roots`, else the connection's. */
  get effectiveRoots(): Root[] {
    return this.roots ?? this.connection?.roots ?? [];
  }

  protected override updated(): void {
    toggleState(this.#internals, 'empty', this.effectiveRoots.length === 0);
  }

  #commit(next: Root[]): void {
    if (this.roots !== undefined || !this.connection) this.roots = next;
    // The connection announces the change to its server (and re-renders its dialog's offer).
    else this.connection.roots = next;
    this.dispatchEvent(new McpRootsChangeEvent(next));
    this.requestUpdate();
  }

  /**
   * Adds a root.
   * @returns an error message, or '' when it was added.
   */
  addRoot(uri: string, name?: string): string {
    let parsed: URL;
    try {
      parsed = new URL(uri.trim());
    } catch {
      return 'Enter a URI such as file:///home/me/project.';
    }
    // Roots are file:// URIs (client/roots "Root").
    if (parsed.protocol !== 'file:') return 'A root must be a file:// URI.';
    if (this.effectiveRoots.some((root) => root.uri === parsed.href)) return `${parsed.href} is already shared.`;
    this.#commit([...this.effectiveRoots, { uri: parsed.href, ...(name?.trim() ? { name: name.trim() } : {}) }]);
    return '';
  }

  /** Removes the root with this URI. */
  removeRoot(uri: string): void {
    this.#commit(this.effectiveRoots.filter((root) => root.uri !== uri));
  }

  #onSubmit(event: Event): void {
    event.preventDefault();
    this._error = this.addRoot(this._uri, this._name);
    if (!this._error) {
      this._uri = '';
      this._name = '';
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('#root-uri')?.focus());
    }
  }

  protected override render(): TemplateResult {
    const roots = this.effectiveRoots;
    return html`${roots.length === 0
        ? html`<p part="status">No roots are shared.</p>`
        : html`<ul part="roots" aria-label="Shared roots">
            ${roots.map(
              (root) => html`<li part="root">
                ${root.name ? html`<span part="name">${root.name}</span>` : nothing}<code part="uri">${root.uri}</code>
                <button part="remove-button" type="button" aria-label="Remove root ${root.name ?? root.uri}" @click=${() => this.removeRoot(root.uri)}>Remove</button>
              </li>`,
            )}
          </ul>`}
      <form part="form" aria-label="Add a root" @submit=${(e: Event) => this.#onSubmit(e)}>
        <span class="field">
          <label part="label" for="root-uri">Root URI</label>
          <input part="control" id="root-uri" type="text" required placeholder="file:///home/me/project" .value=${this._uri} aria-invalid=${this._error ? 'true' : 'false'} aria-describedby=${this._error ? 'root-error' : nothing} @input=${(e: Event) => (this._uri = (e.target as HTMLInputElement).value)} />
        </span>
        <span class="field">
          <label part="label" for="root-name">Name (optional)</label>
          <input part="control" id="root-name" type="text" .value=${this._name} @input=${(e: Event) => (this._name = (e.target as HTMLInputElement).value)} />
        </span>
        <button part="add-button" type="submit">Add root</button>
        ${this._error ? html`<p part="error" id="root-error" role="alert">${this._error}</p>` : nothing}
      </form>`;
  }
}

defineElement('mcp-roots-editor', McpRootsEditor);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-roots-editor': McpRootsEditor;
  }
}
