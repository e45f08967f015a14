/**
 * The rendering of `<mcp-tool-result>` (mcp-tool-result.ts): content blocks,
 * resource reads and downloads, structured content and the `outputSchema`
 * check, with the element's styles. The element loads it with `import()` when
 * it is first given a result (issue 18: a page pays for the renderer when a
 * call has returned); its `updateComplete` waits for it.
 *
 * @module
 */
import { adoptStyles, html, nothing, type PropertyValues, type ReactiveElement, type TemplateResult } from 'lit';
import { compileSchema, McpError, type CallToolResult, type McpClient, type OutputValidation, type ReadResourceResult } from '../../src/index.js';
import { formatBytes } from '../internal/bytes.js';
import { clip, isRecord, stringifyBounded } from '../internal/json.js';
import { BLOCKS_PER_PAGE, describeBlock, describeResource, type BlockView, type ResourceView } from './blocks.js';
import { styles } from './mcp-tool-result.styles.js';
import type { ResultHost } from './result-host.js';

/** Text longer than this (UTF-16 code units) is shown cut, with a button to show all. */
const TEXT_PREVIEW_CHARS = 100_000;
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

/** What Lit's @state would hold for the element. */
interface State {
  validation: OutputValidation | undefined;
  reads: Map<number, ReadState>;
  expandedText: Set<number>;
  /** How many content blocks are shown (a result of 50,000 blocks is shown a page at a time). */
  shownBlocks: number;
}

export class ResultBody {
  readonly #el: ResultHost;
  /** The client to read resources with (the element's, else its connection's). */
  readonly #client: () => McpClient | undefined;
  /** Each change renders the element again ({@link #set}). */
  readonly #state: State = { validation: undefined, reads: new Map(), expandedText: new Set(), shownBlocks: BLOCKS_PER_PAGE };
  #validationToken = 0;

  constructor(element: ResultHost, client: () => McpClient | undefined) {
    this.#el = element;
    this.#client = client;
    const root = element.renderRoot;
    if (root instanceof ShadowRoot) adoptStyles(root, [...(element.constructor as typeof ReactiveElement).elementStyles, styles]);
    void this.#validate();
  }

  /** The outcome of the `outputSchema` check, once known. */
  get validation(): OutputValidation | undefined {
    return this.#state.validation;
  }

  #set(change: Partial<State>): void {
    Object.assign(this.#state, change);
    this.#el.requestUpdate();
  }

  /** A new result or tool: reads, expanded texts and pages start over, and the result is checked. */
  willUpdate(changed: PropertyValues): void {
    if (changed.has('result') || changed.has('tool')) {
      Object.assign(this.#state, { reads: new Map(), expandedText: new Set(), shownBlocks: BLOCKS_PER_PAGE });
      void this.#validate();
    }
  }

  async #validate(): Promise<void> {
    const token = ++this.#validationToken;
    const result = this.#el.result;
    const tool = this.#el.tool;
    // A result from McpClient.callTool carries the client's own check (non-enumerable).
    const attached = result ? (result as { outputValidation?: OutputValidation }).outputValidation : undefined;
    if (!result) this.#set({ validation: undefined });
    else if (attached) this.#set({ validation: attached });
    else if (result.isError === true) this.#set({ validation: { status: 'skipped', reason: 'isError results are not checked against outputSchema' } });
    else if (!tool || !isRecord(tool.outputSchema)) this.#set({ validation: { status: 'skipped', reason: tool ? 'the tool has no outputSchema' : 'the tool definition is not known' } });
    else if (!('structuredContent' in result)) {
      this.#set({ validation: { status: 'invalid', issues: [{ path: '', message: 'the tool declares an outputSchema but the result has no structuredContent', keyword: 'structuredContent', params: {} }] } });
    } else {
      this.#set({ validation: undefined });
      try {
        const validate = await compileSchema(tool.outputSchema);
        const outcome = validate(result.structuredContent);
        if (token === this.#validationToken) this.#set({ validation: outcome.valid ? { status: 'valid' } : { status: 'invalid', issues: outcome.issues } });
      } catch (error) {
        if (token === this.#validationToken) this.#set({ validation: { status: 'skipped', reason: `the outputSchema cannot be used: ${(error as Error).message}` } });
      }
    }
  }

  async #read(index: number, uri: string): Promise<void> {
    const client = this.#client();
    if (!client) return;
    this.#set({ reads: new Map(this.#state.reads).set(index, { status: 'loading' }) });
    let next: ReadState;
    try {
      const read = (await client.readResource(uri)) as ReadResourceResult;
      // Described when shown: a server may send any number of them.
      next = { status: 'done', contents: Array.isArray(read.contents) ? read.contents : [], shown: BLOCKS_PER_PAGE };
    } catch (error) {
      next = { status: 'error', message: McpError.isInstance(error) ? `${error.message}${typeof error.code === 'number' ? ` (JSON-RPC error ${error.code})` : ` (${error.code})`}` : String(error) };
    }
    this.#set({ reads: new Map(this.#state.reads).set(index, next) });
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
        ? html`<button type="button" part="show-more-button" @click=${() => this.#set({ reads: new Map(this.#state.reads).set(index, { ...read, shown: count + BLOCKS_PER_PAGE }) })}>
            Show ${Math.min(hidden, BLOCKS_PER_PAGE)} more contents (${hidden.toLocaleString('en')} not shown yet)
          </button>`
        : nothing}
    </div>`;
  }

  #text(index: number, text: string): TemplateResult {
    if (text.length <= TEXT_PREVIEW_CHARS || this.#state.expandedText.has(index)) return html`<pre part="text">${text}</pre>`;
    return html`<pre part="text">${text.slice(0, TEXT_PREVIEW_CHARS)}…</pre>
      <button type="button" part="show-all-button" @click=${() => this.#set({ expandedText: new Set(this.#state.expandedText).add(index) })}>
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
        const read = this.#state.reads.get(index);
        const name = clip(view.title ?? view.name, LABEL_CHARS);
        return html`<li part="block block-resource-link" data-type="resource_link">
          <span>
            ${view.href
              ? html`<a part="link" href=${view.href} target="_blank" rel="noopener noreferrer">${name}</a>`
              : html`<strong part="link-name">${name}</strong>`}
            <code part="uri">${clip(view.uri, LABEL_CHARS)}</code>
          </span>
          ${this.#meta([view.mimeType, view.size !== undefined ? formatBytes(view.size) : undefined, view.description])}
          ${this.#client()
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
    const validation = this.#state.validation;
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
    } else if (validation?.status === 'skipped' && this.#el.tool && isRecord(this.#el.tool.outputSchema)) {
      outcome = html`<p part="validation" data-status="skipped">Not checked: ${validation.reason}.</p>`;
    }
    return html`<div part="structured">
      <p part="section-title">Structured content</p>
      ${outcome} ${has ? html`<pre part="structured-json">${stringifyBounded(result.structuredContent).text}</pre>` : nothing}
    </div>`;
  }

  /** What the element shows of its result (inside its `base` part, or folded under an app). */
  render(): TemplateResult | typeof nothing {
    const result = this.#el.result;
    if (!result) return nothing;
    const content = result.content;
    const malformed = content !== undefined && !Array.isArray(content);
    const blocks = Array.isArray(content) ? content : [];
    const empty = blocks.length === 0 && !('structuredContent' in result);
    // Within a budget whatever the server sent: a page of blocks, and no more text than TEXT_BUDGET_CHARS, at first.
    const count = shownWithinBudget(blocks, this.#state.shownBlocks, (block) => {
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
        ? html`<button type="button" part="show-more-button" @click=${() => this.#set({ shownBlocks: count + BLOCKS_PER_PAGE })}>
            Show ${Math.min(hidden, BLOCKS_PER_PAGE)} more content blocks (${hidden.toLocaleString('en')} not shown yet)
          </button>`
        : nothing}
      ${empty && !malformed ? html`<p part="empty">The tool returned no content.</p>` : nothing} ${this.#structured(result)}`;
    return shown;
  }
}
