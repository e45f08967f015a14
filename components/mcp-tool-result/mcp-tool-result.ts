import { consume } from '@lit/context';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { compileSchema, McpError, type CallToolResult, type McpClient, type OutputValidation, type ReadResourceResult, type Tool } from '../../src/index.js';
import { clientContext } from '../context.js';
import { defineElement } from '../define.js';
import { formatBytes, toggleState } from '../internal/dom.js';
import { clip, isRecord, stringifyBounded } from '../internal/json.js';
import { PageSchemeController, schemeStyles } from '../internal/scheme.js';
import { appResourceUri } from '../mcp-app-frame/app-meta.js';
import { describeBlock, describeResource, type BlockView, type ResourceView } from './blocks.js';
import { styles } from './mcp-tool-result.styles.js';

/** Text longer than this (UTF-16 code units) is shown cut, with a button to show all. */
const TEXT_PREVIEW_CHARS = 100_000;
/** Content blocks shown at first, and added by each "Show more". */
export const BLOCKS_PER_PAGE = 100;
/** Text shown at first over all blocks together (characters); blocks past it wait for "Show more". */
const TEXT_BUDGET_CHARS = 400_000;
/** Names, URIs and descriptions are shown up to this many characters. */
const LABEL_CHARS = 2_000;

/** A `resources/read` of a linked resource: its contents as the server sent them (described when shown), and how many are shown. */
type ReadState = { status: 'loading' } | { status: 'done'; contents: unknown[]; shown: number } | { status: 'error'; message: string };

/**
 * How many of `items` to show: at most `limit`, and no more text (each item's
 * cut at TEXT_PREVIEW_CHARS) than TEXT_BUDGET_CHARS, but always the first.
 */
function shownWithinBudget(items: readonly unknown[], limit: number, textOf: (item: unknown) => unknown): number {
  let count = 0;
  let chars = 0;
  while (count < items.length && count < limit && (chars < TEXT_BUDGET_CHARS || count === 0)) {
    const text = textOf(items[count++]);
    chars += typeof text === 'string' ? Math.min(text.length, TEXT_PREVIEW_CHARS) : 0;
  }
  return count;
}

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
  static override styles = [schemeStyles, styles];

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

  @state() private _validation: OutputValidation | undefined;
  @state() private _reads = new Map<number, ReadState>();
  @state() private _expandedText = new Set<number>();
  @state() private _appFrame: 'loading' | 'loaded' | 'failed' | undefined;
  /** How many content blocks are shown (a result of 50,000 blocks is shown a page at a time). */
  @state() private _shownBlocks = BLOCKS_PER_PAGE;

  #internals = this.attachInternals();
  #validationToken = 0;

  constructor() {
    super();
    new PageSchemeController(this, this.#internals);
  }

  /** The typed view of each content block, in order (for hosts that render their own way). */
  get blocks(): readonly BlockView[] {
    const content = this.result?.content;
    return Array.isArray(content) ? content.map((block) => describeBlock(block)) : [];
  }

  /** The outcome of the `outputSchema` check, once known. */
  get outputValidation(): OutputValidation | undefined {
    return this._validation;
  }

  /** Whether the tool's MCP App is shown (a tool with a UI resource, a client, no `no-app`). */
  get #showsApp(): boolean {
    return !this.noApp && this.result !== undefined && this.#client !== undefined && appResourceUri(this.tool) !== undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (this.#showsApp && this._appFrame === undefined) {
      this._appFrame = 'loading';
      import('../mcp-app-frame/mcp-app-frame.js').then(
        () => (this._appFrame = 'loaded'),
        () => (this._appFrame = 'failed'),
      );
    }
    if (changed.has('result') || changed.has('tool')) {
      this._reads = new Map();
      this._expandedText = new Set();
      this._shownBlocks = BLOCKS_PER_PAGE;
      void this.#validate();
    }
  }

  async #validate(): Promise<void> {
    const token = ++this.#validationToken;
    const result = this.result;
    const tool = this.tool;
    // A result from McpClient.callTool carries the client's own check (non-enumerable).
    const attached = result ? (result as { outputValidation?: OutputValidation }).outputValidation : undefined;
    if (!result) this._validation = undefined;
    else if (attached) this._validation = attached;
    else if (result.isError === true) this._validation = { status: 'skipped', reason: 'isError results are not checked against outputSchema' };
    else if (!tool || !isRecord(tool.outputSchema)) this._validation = { status: 'skipped', reason: tool ? 'the tool has no outputSchema' : 'the tool definition is not known' };
    else if (!('structuredContent' in result)) {
      this._validation = { status: 'invalid', issues: [{ path: '', message: 'the tool declares an outputSchema but the result has no structuredContent', keyword: 'structuredContent', params: {} }] };
    } else {
      this._validation = undefined;
      try {
        const validate = await compileSchema(tool.outputSchema);
        const outcome = validate(result.structuredContent);
        if (token === this.#validationToken) this._validation = outcome.valid ? { status: 'valid' } : { status: 'invalid', issues: outcome.issues };
      } catch (error) {
        if (token === this.#validationToken) this._validation = { status: 'skipped', reason: `the outputSchema cannot be used: ${(error as Error).message}` };
      }
    }
  }

  protected override updated(): void {
    const result = this.result;
    const hasContent = Array.isArray(result?.content) && result.content.length > 0;
    toggleState(this.#internals, 'error', result?.isError === true);
    toggleState(this.#internals, 'invalid', this._validation?.status === 'invalid');
    toggleState(this.#internals, 'empty', result !== undefined && !hasContent && !(result && 'structuredContent' in result));
  }

  get #client(): McpClient | undefined {
    return this.client ?? this.contextClient;
  }

  async #read(index: number, uri: string): Promise<void> {
    const client = this.#client;
    if (!client) return;
    this._reads = new Map(this._reads).set(index, { status: 'loading' });
    let next: ReadState;
    try {
      const read = (await client.readResource(uri)) as ReadResourceResult;
      // Described when shown: a server may send any number of them.
      next = { status: 'done', contents: Array.isArray(read.contents) ? read.contents : [], shown: BLOCKS_PER_PAGE };
    } catch (error) {
      next = { status: 'error', message: McpError.isInstance(error) ? `${error.message}${typeof error.code === 'number' ? ` (JSON-RPC error ${error.code})` : ` (${error.code})`}` : String(error) };
    }
    this._reads = new Map(this._reads).set(index, next);
  }

  #download(view: Extract<ResourceView, { kind: 'resource-blob' }>): void {
    // Decoded on demand: nothing is fetched, and the type is forced to a download.
    const binary = atob(view.base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = view.uri.split(/[/\\]/).filter(Boolean).pop() || 'resource';
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  #meta(parts: (string | undefined)[]): TemplateResult | typeof nothing {
    const shown = parts.filter((part): part is string => Boolean(part)).map((part) => clip(part, LABEL_CHARS));
    return shown.length > 0 ? html`<span part="meta">${shown.join(' · ')}</span>` : nothing;
  }

  #audience(audience: string[] | undefined): TemplateResult | typeof nothing {
    if (!audience || audience.includes('user')) return nothing;
    return html`<span part="badge">for the ${audience.join(', ')}</span>`;
  }

  #resource(view: ResourceView | { kind: 'invalid'; reason: string; json: string }): TemplateResult {
    switch (view.kind) {
      case 'resource-text':
        return html`<code part="uri">${clip(view.uri, LABEL_CHARS)}</code>${this.#meta([view.mimeType])}
          <pre part="resource-text">${clip(view.text, TEXT_PREVIEW_CHARS)}</pre>`;
      case 'resource-blob':
        return html`<code part="uri">${clip(view.uri, LABEL_CHARS)}</code>${this.#meta([view.mimeType ?? 'binary', formatBytes(view.bytes)])}
          ${view.image ? html`<img part="image" src=${view.image} alt="Image resource ${clip(view.uri, 200)}" />` : nothing}
          <button type="button" part="download-button" @click=${() => this.#download(view)}>Download (${formatBytes(view.bytes)})</button>`;
      case 'invalid':
        return html`<span part="placeholder">Cannot show this resource: ${view.reason}</span>`;
    }
  }

  /**
   * The contents a read returned, within the same budget as the result's blocks
   * (a page of them, and no more text than TEXT_BUDGET_CHARS at first), then
   * more on request: a server may answer one read with any number of contents.
   */
  #readContents(index: number, read: Extract<ReadState, { status: 'done' }>): TemplateResult {
    if (read.contents.length === 0) return html`<div part="read-contents"><span part="note">The resource is empty.</span></div>`;
    const count = shownWithinBudget(read.contents, read.shown, (content) => (content as { text?: unknown } | undefined)?.text);
    const hidden = read.contents.length - count;
    return html`<div part="read-contents">
      ${read.contents.slice(0, count).map((content) => this.#resource(describeResource(content)))}
      ${hidden > 0
        ? html`<button type="button" part="show-more-button" @click=${() => (this._reads = new Map(this._reads).set(index, { ...read, shown: count + BLOCKS_PER_PAGE }))}>
            Show ${Math.min(hidden, BLOCKS_PER_PAGE)} more contents (${hidden.toLocaleString('en')} not shown yet)
          </button>`
        : nothing}
    </div>`;
  }

  #text(index: number, text: string): TemplateResult {
    if (text.length <= TEXT_PREVIEW_CHARS || this._expandedText.has(index)) return html`<pre part="text">${text}</pre>`;
    return html`<pre part="text">${text.slice(0, TEXT_PREVIEW_CHARS)}…</pre>
      <button type="button" part="show-all-button" @click=${() => (this._expandedText = new Set(this._expandedText).add(index))}>
        Show all ${text.length.toLocaleString()} characters
      </button>`;
  }

  #block(view: BlockView, index: number): TemplateResult {
    switch (view.kind) {
      case 'text':
        return html`<li part="block block-text" data-type="text">${this.#audience(view.audience)}${this.#text(index, view.text)}</li>`;
      case 'image':
        return html`<li part="block block-image" data-type="image">
          ${this.#audience(view.audience)}<img part="image" src=${view.src} alt="Image ${index + 1} from the tool (${view.mimeType})" />
        </li>`;
      case 'audio':
        return html`<li part="block block-audio" data-type="audio">
          ${this.#audience(view.audience)}<audio part="audio" controls preload="metadata" src=${view.src} aria-label="Audio ${index + 1} from the tool (${view.mimeType})"></audio>
        </li>`;
      case 'media-problem':
        return html`<li part="block block-${view.type}" data-type=${view.type}>
          <span part="placeholder">${view.type === 'image' ? 'Image' : 'Audio'} not shown${view.mimeType ? ` (${view.mimeType})` : ''}: ${view.reason}.</span>
        </li>`;
      case 'link': {
        const read = this._reads.get(index);
        const name = clip(view.title ?? view.name, LABEL_CHARS);
        return html`<li part="block block-resource-link" data-type="resource_link">
          <span>
            ${view.href
              ? html`<a part="link" href=${view.href} target="_blank" rel="noopener noreferrer">${name}</a>`
              : html`<strong part="link-name">${name}</strong>`}
            <code part="uri">${clip(view.uri, LABEL_CHARS)}</code>
          </span>
          ${this.#meta([view.mimeType, view.size !== undefined ? formatBytes(view.size) : undefined, view.description])}
          ${this.#client
            ? html`<button type="button" part="read-button" ?disabled=${read?.status === 'loading'} aria-label="Read ${name} (resources/read)" @click=${() => this.#read(index, view.uri)}>
                ${read?.status === 'done' ? 'Read again' : 'Read'}
              </button>`
            : nothing}
          ${read?.status === 'loading' ? html`<span part="note" role="status">Reading…</span>` : nothing}
          ${read?.status === 'error' ? html`<span part="read-error" role="alert">Could not read ${clip(view.uri, LABEL_CHARS)}: ${clip(read.message, LABEL_CHARS)}</span>` : nothing}
          ${read?.status === 'done' ? this.#readContents(index, read) : nothing}
        </li>`;
      }
      case 'resource-text':
      case 'resource-blob':
        return html`<li part="block block-resource" data-type="resource">${this.#resource(view)}</li>`;
      case 'unknown':
        return html`<li part="block block-unknown" data-type=${view.type}>
          <span part="placeholder">Unsupported content (${clip(view.type, 200)})</span>
          <details>
            <summary>Show its JSON</summary>
            <pre part="unknown-json">${view.json}</pre>
          </details>
        </li>`;
      case 'invalid':
        return html`<li part="block block-invalid" data-type="invalid">
          <span part="placeholder">Malformed content: ${view.reason}</span>
          <details>
            <summary>Show its JSON</summary>
            <pre part="unknown-json">${view.json}</pre>
          </details>
        </li>`;
    }
  }

  #structured(result: CallToolResult): TemplateResult | typeof nothing {
    const validation = this._validation;
    const has = 'structuredContent' in result;
    if (!has && validation?.status !== 'invalid') return nothing;
    let outcome: TemplateResult | typeof nothing = nothing;
    if (validation?.status === 'valid') outcome = html`<p part="validation" data-status="valid">Matches the tool's outputSchema.</p>`;
    else if (validation?.status === 'invalid') {
      outcome = html`<div part="validation" data-status="invalid" role="note">
        Does not match the tool's outputSchema; treat it as unchecked data:
        <ul>
          ${validation.issues.slice(0, 20).map((issue) => html`<li><code>${clip(issue.path || '(root)', 200)}</code> ${clip(issue.message, LABEL_CHARS)}</li>`)}
        </ul>
      </div>`;
    } else if (validation?.status === 'skipped' && this.tool && isRecord(this.tool.outputSchema)) {
      outcome = html`<p part="validation" data-status="skipped">Not checked: ${validation.reason}.</p>`;
    }
    return html`<div part="structured">
      <p part="section-title">Structured content</p>
      ${outcome} ${has ? html`<pre part="structured-json">${stringifyBounded(result.structuredContent).text}</pre>` : nothing}
    </div>`;
  }

  protected override render(): TemplateResult | typeof nothing {
    const result = this.result;
    if (!result) return nothing;
    const content = result.content;
    const malformed = content !== undefined && !Array.isArray(content);
    const blocks = Array.isArray(content) ? content : [];
    const empty = blocks.length === 0 && !('structuredContent' in result);
    // Within a budget whatever the server sent: a page of blocks, and no more text than TEXT_BUDGET_CHARS, at first.
    const count = shownWithinBudget(blocks, this._shownBlocks, (block) => {
      const item = block as { text?: unknown; resource?: { text?: unknown } } | undefined;
      return typeof item?.text === 'string' ? item.text : item?.resource?.text;
    });
    const hidden = blocks.length - count;
    const shown = html`${result.isError === true ? html`<p part="error-label">The tool reported an error.</p>` : nothing}
      ${malformed ? html`<span part="placeholder">The result's content is not a list and cannot be shown.</span>` : nothing}
      ${blocks.length > 0
        ? html`<ol part="blocks">
            ${blocks.slice(0, count).map((block, index) => {
              // One broken block must not take the others down with it.
              try {
                return this.#block(describeBlock(block), index);
              } catch (error) {
                return html`<li part="block block-invalid"><span part="placeholder">This block cannot be shown: ${(error as Error).message}</span></li>`;
              }
            })}
          </ol>`
        : nothing}
      ${hidden > 0
        ? html`<button type="button" part="show-more-button" @click=${() => (this._shownBlocks = count + BLOCKS_PER_PAGE)}>
            Show ${Math.min(hidden, BLOCKS_PER_PAGE)} more content blocks (${hidden.toLocaleString('en')} not shown yet)
          </button>`
        : nothing}
      ${empty && !malformed ? html`<p part="empty">The tool returned no content.</p>` : nothing} ${this.#structured(result)}`;
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
