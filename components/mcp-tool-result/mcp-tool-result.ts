import { consume } from '@lit/context';
import { css, html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { CallToolResult, McpClient, OutputValidation, Tool } from '../../src/index.js';
import { clientContext } from '../context.js';
import { defineElement } from '../define.js';
import { toggleState } from '../internal/dom.js';
import { stringifyBounded } from '../internal/json.js';
import { PageSchemeController, schemeStyles } from '../internal/scheme.js';
import { plainHost } from '../internal/style-blocks.js';
import { appResourceUri } from '../mcp-app-frame/app-meta.js';
import { describeBlock, type BlockView } from './blocks.js';
import type { ResultBody } from './result-body.js';

type Renderer = typeof import('./result-body.js');
/** The renderer module once loaded: every later result element renders in its first update, with no gap. */
let renderer: Renderer | undefined;
let rendererLoading: Promise<Renderer> | undefined;
/** Elements showing a result as JSON after a failed load: told when a later load (another element's too) works. */
const rendererWanted = new Set<() => void>();

/**
 * Starts loading the renderer of `<mcp-tool-result>` (result-body.ts), if it is
 * not loaded yet: a host about to show a result (a form sending a call) calls
 * this so that the result appears as soon as it arrives. Resolves when it is
 * there; rejects when it cannot load (offline).
 */
export function loadResultRenderer(): Promise<Renderer> {
  return (rendererLoading ??= (async () => import('./result-body.js'))().then(
    (module) => {
      renderer = module;
      for (const arrived of rendererWanted) arrived();
      rendererWanted.clear();
      return module;
    },
    (error: unknown) => {
      // The next result tries again.
      rendererLoading = undefined;
      throw error;
    },
  ));
}

export { BLOCKS_PER_PAGE } from './blocks.js';

/**
 * Shows a tool result (spec: server/tools "Tool Result"): every content block
 * in order — text as text, images and audio from their base64 data (allow-listed
 * MIME types, no SVG), resource links (web links open in a new tab; reading a
 * resource is opt-in, with the Read button when a client is available),
 * embedded resources, and a placeholder for unknown or malformed blocks, which
 * never hide the others (field case C19). `structuredContent` (any JSON value)
 * is shown with the outcome of the `outputSchema` check; `isError` results are
 * styled as errors and not checked.
 *
 * Usable on its own: set `.result` (and `.tool` for the `outputSchema` check, or
 * pass a result from `McpClient.callTool`, which carries its `outputValidation`).
 *
 * When the tool has an MCP App (`_meta.ui.resourceUri`) and a client is
 * available, the app is shown above the content in an `<mcp-app-frame>` (loaded
 * on demand: pages without apps never download it), with the content folded
 * under "Result as text"; `no-app` turns this off.
 *
 * @tagname mcp-tool-result
 * @summary The result of an MCP tool call.
 *
 * @event mcp-app-ready - The tool's MCP App (in the result) finished its handshake.
 * @event mcp-app-message - The app asks to add a message (cancelable; see `<mcp-app-frame>`).
 * @event mcp-app-model-context - The app updates the model context (cancelable).
 * @event mcp-app-open-link - The app asks to open a link (cancelable).
 * @event mcp-app-log - A log message from the app.
 * @event mcp-app-display-mode - The app's display mode changed.
 * @event mcp-app-close - The app was torn down.
 * @event mcp-error - The app could not be shown, or sent something refused.
 *
 * @csspart base - The frame around the result.
 * @csspart error-label - "The tool reported an error" for `isError` results.
 * @csspart blocks - The list of content blocks.
 * @csspart block - One content block (also `block-text`, `block-image`, `block-audio`, `block-resource-link`, `block-resource`, `block-unknown`).
 * @csspart text - A text block.
 * @csspart image - An image.
 * @csspart audio - An audio player.
 * @csspart link - A web link of a resource link.
 * @csspart uri - A URI shown as text.
 * @csspart meta - MIME type, size, description.
 * @csspart badge - A small label (e.g. "for the assistant").
 * @csspart placeholder - What stands in for a block that is not shown.
 * @csspart read-button - Reads a linked resource through the client.
 * @csspart read-contents - The contents read (a page of 100 at a time).
 * @csspart read-error - Why reading failed.
 * @csspart download-button - Saves a binary resource.
 * @csspart empty - Shown when the result has no content.
 * @csspart structured - The structured content section.
 * @csspart section-title - A section's title.
 * @csspart validation - The outcome of the `outputSchema` check.
 * @csspart structured-json - The structured content as JSON.
 * @csspart show-all-button - Shows the rest of a long text.
 * @csspart app - The `<mcp-app-frame>` of a tool with an MCP App.
 * @csspart app-fallback - The folded text result under an app.
 * @csspart show-more-button - Shows the next content blocks of a result with many, or the next contents of a read (a page of 100 at a time).
 *
 * @cssproperty --mcp-color-text - Text colour.
 * @cssproperty --mcp-color-muted-text - Secondary text.
 * @cssproperty --mcp-color-surface - Background of code.
 * @cssproperty --mcp-color-border - Borders.
 * @cssproperty --mcp-color-accent - Links and focus ring.
 * @cssproperty --mcp-color-danger - Error results.
 * @cssproperty --mcp-color-warning - A failed `outputSchema` check.
 * @cssproperty --mcp-color-success - A passed `outputSchema` check.
 * @cssproperty --mcp-radius - Corner radius.
 * @cssproperty --mcp-tool-result-media-max-height - Maximum height of images (default 20rem).
 *
 * @cssstate error - The result has `isError: true`.
 * @cssstate invalid - `structuredContent` does not match the `outputSchema`.
 * @cssstate empty - No content and no structured content.
 */
export class McpToolResult extends LitElement {
  // The rest of the styles come with the renderer (result-body.ts).
  static override styles = [
    schemeStyles,
    plainHost,
    css`
      :host {
        display: block;
      }
      :host([hidden]) {
        display: none;
      }
    `,
  ];

  /** The `CallToolResult` to show. */
  @property({ attribute: false }) result: CallToolResult | undefined;
  /** The tool definition, for the `outputSchema` check (not needed for results of `McpClient.callTool`). */
  @property({ attribute: false }) tool: Tool | undefined;
  /** Client used to read linked resources; default: the enclosing `<mcp-connection>`'s. Without one there is no Read button. */
  @property({ attribute: false }) client: McpClient | undefined;
  /** The arguments of the call, handed to the tool's MCP App (if it has one). */
  @property({ attribute: false }) arguments: Record<string, unknown> | undefined;
  /** Don't show the tool's MCP App; show the content only. */
  @property({ attribute: 'no-app', type: Boolean }) noApp = false;

  @consume({ context: clientContext, subscribe: true })
  @state()
  protected contextClient: McpClient | undefined;

  @state() private _appFrame: 'loading' | 'loaded' | 'failed' | undefined;
  /** Why the renderer could not be loaded (offline): the result is shown as JSON instead. */
  @state() private _bodyFailure: string | undefined;

  #internals = this.attachInternals();
  /**
   * The renderer, loaded with `import()` when the element is first given a
   * result: a page that never shows one does not download it.
   */
  #body: ResultBody | undefined;
  #loading: Promise<unknown> | undefined;

  constructor() {
    super();
    new PageSchemeController(this, this.#internals);
  }

  /** The typed view of each content block, in order (for hosts that render their own way). */
  get blocks(): readonly BlockView[] {
    const content = this.result?.content;
    return Array.isArray(content) ? content.map((block) => describeBlock(block)) : [];
  }

  /**
   * The outcome of the `outputSchema` check (server/tools "Output Schema"), once known: it is
   * made by the renderer, which loads with the first result, so read it after `await updateComplete`.
   */
  get outputValidation(): OutputValidation | undefined {
    return this.#body?.validation;
  }

  /** Whether the tool's MCP App is shown (a tool with a UI resource, a client, no `no-app`). */
  get #showsApp(): boolean {
    return !this.noApp && this.result !== undefined && this.#client !== undefined && appResourceUri(this.tool) !== undefined;
  }

  /** The renderer arrived after this element's own load failed: the result is rendered as usual, not left as JSON. */
  readonly #rendererArrived = () => {
    this._bodyFailure = undefined;
    this.#loading = undefined;
  };

  /** Also waits for the renderer once there is a result: after `await updateComplete` the result is on screen. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete();
    if (this.#loading && !this.#body && this._bodyFailure === undefined) {
      await this.#loading;
      done = await super.getUpdateComplete();
    }
    return done;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (this.#showsApp && this._appFrame === undefined) {
      this._appFrame = 'loading';
      import('../mcp-app-frame/mcp-app-frame.js').then(
        () => (this._appFrame = 'loaded'),
        () => (this._appFrame = 'failed'),
      );
    }
    if (this.result !== undefined && !this.#body) {
      if (changed.has('result') && this._bodyFailure !== undefined) {
        // The renderer could not load for an earlier result (offline): a new result tries again.
        this._bodyFailure = undefined;
        this.#loading = undefined;
      }
      if (renderer) {
        // Loaded already (an earlier result): rendered in this very update.
        this.#body = new renderer.ResultBody(this, () => this.#client);
        return;
      }
      this.#loading ??= loadResultRenderer().then(
        () => this.requestUpdate(),
        (error: unknown) => {
          this._bodyFailure = (error as Error).message;
          // Held until a load works (then the set is cleared), on the page or not.
          rendererWanted.add(this.#rendererArrived);
        },
      );
    }
    this.#body?.willUpdate(changed);
  }

  protected override updated(): void {
    const result = this.result;
    const hasContent = Array.isArray(result?.content) && result.content.length > 0;
    toggleState(this.#internals, 'error', result?.isError === true);
    toggleState(this.#internals, 'invalid', this.outputValidation?.status === 'invalid');
    toggleState(this.#internals, 'empty', result !== undefined && !hasContent && !(result && 'structuredContent' in result));
  }

  get #client(): McpClient | undefined {
    return this.client ?? this.contextClient;
  }

  protected override render(): TemplateResult | typeof nothing {
    const result = this.result;
    if (!result) return nothing;
    if (this._bodyFailure !== undefined) {
      return html`<div part="base">
        <span part="placeholder">The result cannot be shown as usual (${this._bodyFailure}); here it is as JSON:</span>
        <pre part="text">${stringifyBounded(result, 100_000).text}</pre>
      </div>`;
    }
    // Until the renderer is there, nothing: the result appears whole, never half-drawn.
    if (!this.#body) return nothing;
    const shown = this.#body.render();
    if (this.#showsApp && this._appFrame !== 'failed') {
      return html`<div part="base">
        ${this._appFrame === 'loaded'
          ? html`<mcp-app-frame part="app" .client=${this.#client} .tool=${this.tool} .arguments=${this.arguments ?? {}} .result=${result}></mcp-app-frame>`
          : html`<p part="note" role="status">Loading the app…</p>`}
        <details part="app-fallback">
          <summary>Result as text</summary>
          ${shown}
        </details>
      </div>`;
    }
    // Not a landmark: a page with many results would get many identical regions.
    return html`<div part="base">${shown}</div>`;
  }
}

defineElement('mcp-tool-result', McpToolResult);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-tool-result': McpToolResult;
  }
}
