import { consume } from '@lit/context';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { McpClientError, McpError, McpRpcError, type McpClient, type ReadResourceResult, type Resource, type ResourceTemplate, type Subscription } from '../../src/index.js';
import { clientContext } from '../context.js';
import { defineElement } from '../define.js';
import { PageSchemeController, schemeStyles } from '../internal/scheme.js';
import { plainHost } from '../internal/style-blocks.js';
import { McpErrorEvent, McpResourceReadEvent, McpResourceUpdatedEvent } from '../events.js';
import { formatBytes } from '../internal/bytes.js';
import { CompletionController, serverCompletions, type ComboboxField, type CompletionSource } from '../internal/completion.js';
import { idFor, toggleState } from '../internal/dom.js';
import { clip } from '../internal/json.js';
import { DESCRIPTION_CHARS, LABEL_CHARS, VALUE_CHARS } from '../internal/long-list.js';
import { expandTemplate, templateVariables } from '../internal/uri-template.js';
import '../mcp-tool-result/mcp-tool-result.js';
import { styles } from './mcp-resource-list.styles.js';

/** How many resources are rendered before "Show more" (a server may list thousands). */
const PAGE = 100;

type ReadState = { status: 'loading' } | { status: 'done'; result: ReadResourceResult } | { status: 'error'; message: string };

/** A resource as the list can trust it: string `uri` and `name`; other text fields only when strings. */
function usableResource(value: unknown): Resource | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Resource;
  if (typeof r.uri !== 'string') return undefined;
  return {
    uri: r.uri,
    name: typeof r.name === 'string' ? r.name : r.uri,
    ...(typeof r.title === 'string' ? { title: r.title } : {}),
    ...(typeof r.description === 'string' ? { description: r.description } : {}),
    ...(typeof r.mimeType === 'string' ? { mimeType: r.mimeType } : {}),
    ...(typeof r.size === 'number' && Number.isFinite(r.size) && r.size >= 0 ? { size: r.size } : {}),
  };
}

function usableTemplate(value: unknown): ResourceTemplate | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const t = value as ResourceTemplate;
  if (typeof t.uriTemplate !== 'string') return undefined;
  return {
    uriTemplate: t.uriTemplate,
    name: typeof t.name === 'string' ? t.name : t.uriTemplate,
    ...(typeof t.title === 'string' ? { title: t.title } : {}),
    ...(typeof t.description === 'string' ? { description: t.description } : {}),
    ...(typeof t.mimeType === 'string' ? { mimeType: t.mimeType } : {}),
  };
}

/**
 * The server's resources and resource templates (spec: server/resources): a
 * filterable list with Read, Subscribe / Unsubscribe where the server offers
 * subscriptions (`resources.subscribe`; on 2026-07-28 one
 * `subscriptions/listen` stream carries `resourceSubscriptions`, on legacy
 * servers the client sends `resources/subscribe`), and a form per template whose
 * variables get suggestions from the server (`completion/complete` with
 * `ref/resource`, server/utilities/completion) in a keyboard-operable combobox.
 *
 * Contents are shown through `<mcp-tool-result>`'s safe renderers (text as
 * text, images only from checked base64, binary as a download). A subscribed
 * resource that changes is marked and, when its contents are shown, read again.
 * The lists follow `notifications/resources/list_changed`.
 *
 * Give it a client (`.client`, or put it inside `<mcp-connection>`).
 *
 * @tagname mcp-resource-list
 * @summary The resources and resource templates of an MCP server: read, subscribe, complete.
 *
 * @event mcp-resource-read - A resource was read; `detail.uri`, `detail.result`.
 * @event mcp-resource-updated - A subscribed resource changed (`notifications/resources/updated`); `detail.uri`.
 * @event mcp-error - Listing, reading or subscribing failed; `detail.error` is the typed kit error (also a failed read of a linked resource in the contents shown).
 * @event mcp-app-ready - Never fired here: the `<mcp-tool-result>` inside shows no app (no tool is given it); listed because that element can.
 * @event mcp-app-message - Never fired here (see `mcp-app-ready`).
 * @event mcp-app-model-context - Never fired here (see `mcp-app-ready`).
 * @event mcp-app-open-link - Never fired here (see `mcp-app-ready`).
 * @event mcp-app-log - Never fired here (see `mcp-app-ready`).
 * @event mcp-app-display-mode - Never fired here (see `mcp-app-ready`).
 * @event mcp-app-close - Never fired here (see `mcp-app-ready`).
 *
 * @csspart toolbar - Filter and refresh.
 * @csspart filter - The filter input.
 * @csspart refresh-button - Lists again.
 * @csspart count - How many resources are listed and shown.
 * @csspart resources - The list of resources.
 * @csspart resource - One resource.
 * @csspart name - A resource's or template's display name.
 * @csspart uri - A URI or URI template.
 * @csspart meta - MIME type, size, description.
 * @csspart badge - A small label ("updated", "subscribed").
 * @csspart read-button - Reads a resource.
 * @csspart subscribe-button - Subscribes to a resource's updates (a toggle: `aria-pressed`).
 * @csspart contents - The contents read (an `<mcp-tool-result>`).
 * @csspart more-button - Shows more resources.
 * @csspart section-title - "Templates".
 * @csspart templates - The list of templates.
 * @csspart template - One template and its form.
 * @csspart field - One variable's wrapper.
 * @csspart label - A variable's label.
 * @csspart control - A variable's input (a combobox when the server completes it).
 * @csspart listbox - The suggestions of the variable being typed.
 * @csspart option - One suggestion (also `option-active` while highlighted).
 * @csspart expanded-uri - The URI the template gives with the values typed.
 * @csspart status - A status line.
 * @csspart error - Why something failed.
 *
 * @cssproperty --mcp-color-text - Text colour.
 * @cssproperty --mcp-color-muted-text - Secondary text.
 * @cssproperty --mcp-color-input - Background of inputs and suggestions.
 * @cssproperty --mcp-color-border - Borders.
 * @cssproperty --mcp-color-accent - Pressed toggles, highlighted suggestion.
 * @cssproperty --mcp-color-warning - The "updated" mark.
 * @cssproperty --mcp-radius - Corner radius.
 *
 * @cssstate loading - Listing.
 * @cssstate empty - The server has no resources and no templates.
 * @cssstate subscribed - At least one resource is subscribed to.
 * @cssstate error - The last operation failed.
 */
export class McpResourceList extends LitElement {
  static override styles = [schemeStyles, plainHost, styles];

  /** The client; default: the one of the enclosing `<mcp-connection>`. */
  @property({ attribute: false }) client: McpClient | undefined;
  /** Don't offer subscriptions even when the server does. */
  @property({ attribute: 'no-subscribe', type: Boolean }) noSubscribe = false;
  /** Don't ask the server for template suggestions. */
  @property({ attribute: 'no-completions', type: Boolean }) noCompletions = false;

  @consume({ context: clientContext, subscribe: true })
  @state()
  protected contextClient: McpClient | undefined;

  @state() private _resources: Resource[] = [];
  /** Lower-cased text the filter searches, once per listed resource (not per keystroke). */
  readonly #searchTexts = new WeakMap<Resource, string>();
  @state() private _templates: ResourceTemplate[] = [];
  @state() private _loading = false;
  @state() private _error: McpError | undefined;
  @state() private _filter = '';
  @state() private _shown = PAGE;
  @state() private _reads = new Map<string, ReadState>();
  /** The read of each URI whose answer is shown (see read()). */
  #readTokens = new Map<string, number>();
  #readSerial = 0;
  @state() private _subscribed = new Set<string>();
  @state() private _updated = new Map<string, number>();
  @state() private _templateValues = new Map<string, Record<string, string>>();

  readonly #completions = new CompletionController(this);
  readonly #sources = new Map<string, CompletionSource>();
  #internals = this.attachInternals();

  constructor() {
    super();
    new PageSchemeController(this, this.#internals);
  }
  #for: McpClient | undefined;
  #off: (() => void)[] = [];
  #subscription: Subscription | undefined;
  #listToken = 0;

  /** The client in use: `.client`, else the enclosing connection's. */
  get effectiveClient(): McpClient | undefined {
    return this.client ?? this.contextClient;
  }

  /** The listed resources (usable ones). */
  get resources(): readonly Resource[] {
    return this._resources;
  }

  /** The listed resource templates (usable ones). */
  get templates(): readonly ResourceTemplate[] {
    return this._templates;
  }

  /** URIs subscribed to. */
  get subscriptions(): readonly string[] {
    return [...this._subscribed];
  }

  /** Whether the server offers resource subscriptions (`capabilities.resources.subscribe`). */
  get canSubscribe(): boolean {
    return !this.noSubscribe && this.effectiveClient?.server?.capabilities.resources?.subscribe === true;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#detach();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Put back on the page: attach again (willUpdate sees the same client).
    if (this.#for === undefined && this.hasUpdated) this.requestUpdate();
  }

  #detach(): void {
    for (const off of this.#off) off();
    this.#off = [];
    this.#subscription?.close();
    this.#subscription = undefined;
    this.#for = undefined;
  }

  protected override willUpdate(_changed: PropertyValues<this>): void {
    const client = this.effectiveClient;
    if (client !== this.#for && this.isConnected) {
      this.#detach();
      this.#for = client;
      this.#sources.clear();
      this._subscribed = new Set();
      this._updated = new Map();
      this._reads = new Map();
      this.#readTokens.clear();
      this._resources = [];
      this._templates = [];
      if (client) {
        this.#off.push(
          client.on('resourcesChanged', () => void this.refresh(true)),
          client.on('resourceUpdated', ({ uri }) => this.#onUpdated(uri)),
        );
        void this.refresh(false);
      }
    }
  }

  protected override updated(): void {
    toggleState(this.#internals, 'loading', this._loading);
    toggleState(this.#internals, 'empty', !this._loading && this._resources.length === 0 && this._templates.length === 0 && this.effectiveClient !== undefined);
    toggleState(this.#internals, 'subscribed', this._subscribed.size > 0);
    toggleState(this.#internals, 'error', this._error !== undefined);
  }

  #fail(error: unknown, method: string): McpError {
    const failure = McpError.isInstance(error) ? error : new McpClientError('protocol', String(error), { url: this.effectiveClient?.url.href ?? '', method });
    this._error = failure;
    this.dispatchEvent(new McpErrorEvent(failure, method));
    return failure;
  }

  /** Lists resources and templates again (`fresh` bypasses the cache). */
  async refresh(fresh = true): Promise<void> {
    const client = this.effectiveClient;
    if (!client) return;
    const token = ++this.#listToken;
    this._loading = true;
    try {
      await client.connect();
      if (client.server?.capabilities.resources === undefined) {
        this._resources = [];
        this._templates = [];
        this._error = undefined;
        return;
      }
      const options = fresh ? { fresh: true } : {};
      const [resources, templates] = await Promise.all([
        client.listResources(options),
        client.listResourceTemplates(options).catch((error: unknown) => {
          // Templates are optional: a server without them may answer -32601.
          if (McpRpcError.isInstance(error) && error.code === -32601) return [];
          throw error;
        }),
      ]);
      if (token !== this.#listToken) return;
      this._resources = resources.map(usableResource).filter((r): r is Resource => r !== undefined);
      this._templates = templates.map(usableTemplate).filter((t): t is ResourceTemplate => t !== undefined);
      this._error = undefined;
    } catch (error) {
      if (token === this.#listToken) this.#fail(error, 'resources/list');
    } finally {
      if (token === this.#listToken) this._loading = false;
    }
  }

  /**
   * Reads a resource and shows its contents under it (or under its template).
   * @returns the result, or undefined when reading failed (shown, and sent as `mcp-error`), or a
   *   newer read of the URI (or another client of the list) made this one stale before it ended.
   */
  async read(uri: string, fresh = false): Promise<ReadResourceResult | undefined> {
    const client = this.effectiveClient;
    if (!client) return undefined;
    // Only the newest read of a URI, on the list's current client, is shown: an older answer
    // (or one of a server the list has left meanwhile, for the same URI) must not replace it.
    const token = ++this.#readSerial;
    this.#readTokens.set(uri, token);
    const current = () => this.#readTokens.get(uri) === token;
    this._reads = new Map(this._reads).set(uri, { status: 'loading' });
    try {
      const result = await client.readResource(uri, fresh ? { fresh: true } : {});
      if (!current()) return undefined;
      if (result.resultType === 'input_required') return undefined;
      const read = result as ReadResourceResult;
      this._reads = new Map(this._reads).set(uri, { status: 'done', result: read });
      const updated = new Map(this._updated);
      updated.delete(uri);
      this._updated = updated;
      this.dispatchEvent(new McpResourceReadEvent(uri, read));
      return read;
    } catch (error) {
      if (!current()) return undefined;
      const failure = this.#fail(error, 'resources/read');
      this._reads = new Map(this._reads).set(uri, { status: 'error', message: this.#errorText(failure) });
      return undefined;
    }
  }

  /** Subscribes to (or, with `false`, unsubscribes from) updates of `uri`. */
  setSubscribed(uri: string, on: boolean): void {
    const client = this.effectiveClient;
    if (!client || !this.canSubscribe || this._subscribed.has(uri) === on) return;
    const next = new Set(this._subscribed);
    if (on) next.add(uri);
    else next.delete(uri);
    this._subscribed = next;
    // One stream for every subscribed URI: a new filter replaces the stream (spec: basic/patterns/subscriptions).
    this.#subscription?.close();
    this.#subscription = next.size > 0 ? client.listen({ resourceSubscriptions: [...next] }) : undefined;
  }

  #onUpdated(uri: string): void {
    if (!this._subscribed.has(uri)) return;
    this._updated = new Map(this._updated).set(uri, Date.now());
    this.dispatchEvent(new McpResourceUpdatedEvent(uri));
    // Contents on show are read again at once.
    if (this._reads.get(uri)?.status === 'done') void this.read(uri, true);
  }

  #errorText(error: McpError): string {
    if (McpRpcError.isInstance(error)) return `${error.message} (JSON-RPC error ${error.code})`;
    return `${error.message}${McpClientError.isInstance(error) ? ` (${error.code})` : ''}`;
  }

  #contents(uri: string): TemplateResult | typeof nothing {
    const read = this._reads.get(uri);
    if (!read) return nothing;
    if (read.status === 'loading') return html`<p part="status" role="status">Reading…</p>`;
    if (read.status === 'error') return html`<p part="error" role="alert">Could not read ${uri}: ${read.message}</p>`;
    const contents = Array.isArray(read.result.contents) ? read.result.contents : [];
    if (contents.length === 0) return html`<p part="status">The resource is empty.</p>`;
    return html`<mcp-tool-result part="contents" .result=${{ content: contents.map((resource) => ({ type: 'resource', resource })) }} .client=${this.effectiveClient}></mcp-tool-result>`;
  }

  #resource(resource: Resource): TemplateResult {
    // Server text, cut for display like every element's (issue 19): a megabyte name stays off the page.
    const name = clip(resource.title ?? resource.name, LABEL_CHARS);
    const read = this._reads.get(resource.uri);
    const subscribed = this._subscribed.has(resource.uri);
    const updated = this._updated.has(resource.uri);
    const meta = [resource.mimeType, resource.size !== undefined ? formatBytes(resource.size) : undefined].filter(Boolean).join(' · ');
    return html`<li part="resource" data-uri=${resource.uri}>
      <div class="row">
        <div class="what">
          <span part="name">${name}</span>
          <code part="uri">${clip(resource.uri, VALUE_CHARS)}</code>
          ${meta ? html`<span part="meta">${clip(meta, LABEL_CHARS)}</span>` : nothing}
          ${updated ? html`<span part="badge updated-badge">updated</span>` : nothing}
        </div>
        <div class="actions">
          <button part="read-button" type="button" ?disabled=${read?.status === 'loading'} aria-label="${read?.status === 'done' ? 'Read again' : 'Read'} ${name}" @click=${() => void this.read(resource.uri, true)}>
            ${read?.status === 'done' ? 'Read again' : 'Read'}
          </button>
          ${this.canSubscribe
            ? html`<button part="subscribe-button" type="button" aria-pressed=${subscribed ? 'true' : 'false'} aria-label="Subscribe to ${name}" @click=${() => this.setSubscribed(resource.uri, !subscribed)}>
                ${subscribed ? 'Subscribed' : 'Subscribe'}
              </button>`
            : nothing}
        </div>
      </div>
      ${resource.description ? html`<p part="meta">${clip(resource.description, DESCRIPTION_CHARS)}</p>` : nothing} ${this.#contents(resource.uri)}
    </li>`;
  }

  #searchText(resource: Resource): string {
    let text = this.#searchTexts.get(resource);
    if (text === undefined) {
      // A newline never occurs in what is typed into the filter, so one field's end never matches into the next.
      text = [resource.name, resource.title, resource.uri, resource.description].filter((t) => t !== undefined).join('\n').toLowerCase();
      this.#searchTexts.set(resource, text);
    }
    return text;
  }

  #source(template: ResourceTemplate, variable: string): CompletionSource | undefined {
    const client = this.effectiveClient;
    if (this.noCompletions || !client || client.server?.capabilities.completions === undefined) return undefined;
    const key = JSON.stringify([template.uriTemplate, variable]);
    let source = this.#sources.get(key);
    if (!source) {
      source = serverCompletions(client, { type: 'ref/resource', uri: template.uriTemplate }, variable, () => {
        const others: Record<string, string> = {};
        for (const [name, value] of Object.entries(this._templateValues.get(template.uriTemplate) ?? {})) if (name !== variable && value !== '') others[name] = value;
        return others;
      });
      this.#sources.set(key, source);
    }
    return source;
  }

  #template(template: ResourceTemplate, index: number): TemplateResult {
    const variables = templateVariables(template.uriTemplate);
    const values = this._templateValues.get(template.uriTemplate) ?? {};
    const set = (name: string, value: string) => (this._templateValues = new Map(this._templateValues).set(template.uriTemplate, { ...values, [name]: value }));
    const complete = variables.every((name) => (values[name] ?? '') !== '');
    const uri = complete ? expandTemplate(template.uriTemplate, values) : undefined;
    const name = clip(template.title ?? template.name, LABEL_CHARS);
    return html`<li part="template" data-uri-template=${template.uriTemplate}>
      <form
        aria-label="Read from template ${name}"
        @submit=${(event: Event) => {
          event.preventDefault();
          if (uri) void this.read(uri, true);
        }}
      >
        <div class="what">
          <span part="name">${name}</span>
          <code part="uri">${clip(template.uriTemplate, VALUE_CHARS)}</code>
          ${template.mimeType ? html`<span part="meta">${clip(template.mimeType, LABEL_CHARS)}</span>` : nothing}
        </div>
        ${template.description ? html`<p part="meta">${clip(template.description, DESCRIPTION_CHARS)}</p>` : nothing}
        <div class="fields">
          ${variables.map((variable) => {
            const id = idFor(`t${index}-`, variable);
            const field: ComboboxField = { id, source: this.#source(template, variable), pick: (value) => set(variable, value) };
            return html`<div part="field">
              <label part="label" for=${id}>${variable}</label>
              ${this.#completions.textInput(field, { value: values[variable] ?? '', label: `Suggestions for ${variable}`, required: true, onInput: (value) => set(variable, value) })}
            </div>`;
          })}
        </div>
        <div class="row">
          <span class="expanded">URI: <code part="expanded-uri">${uri ?? '(fill in every variable)'}</code></span>
          <button part="read-button" type="submit" ?disabled=${!uri}>Read</button>
        </div>
      </form>
      ${uri ? this.#contents(uri) : nothing}
    </li>`;
  }

  protected override render(): TemplateResult {
    const client = this.effectiveClient;
    const needle = this._filter.trim().toLowerCase();
    const matches = needle
      ? this._resources.filter((r) => this.#searchText(r).includes(needle))
      : this._resources;
    const shown = matches.slice(0, this._shown);
    return html`
      <div part="toolbar">
        <label class="mcp-visually-hidden" for="filter">Filter resources</label>
        <input part="filter" id="filter" type="search" placeholder="Filter resources" .value=${this._filter} @input=${(e: Event) => ((this._filter = (e.target as HTMLInputElement).value), (this._shown = PAGE))} />
        <button part="refresh-button" type="button" ?disabled=${!client || this._loading} @click=${() => void this.refresh(true)}>Refresh</button>
      </div>
      ${!client ? html`<p part="status">No client: put this list inside &lt;mcp-connection&gt; or set .client.</p>` : nothing}
      ${this._loading ? html`<p part="status" role="status">Loading resources…</p>` : nothing}
      ${this._error ? html`<div part="error" role="alert">${this.#errorText(this._error)}</div>` : nothing}
      ${client && !this._loading && this._resources.length === 0 && this._templates.length === 0 ? html`<p part="status">This server has no resources.</p>` : nothing}
      ${this._resources.length > 0
        ? html`<p part="count">${needle ? `${matches.length} of ${this._resources.length} resources match` : `${this._resources.length} resource${this._resources.length === 1 ? '' : 's'}`}${shown.length < matches.length ? `, ${shown.length} shown` : ''}</p>
            <ul part="resources" aria-label="Resources">
              ${shown.map((r) => this.#resource(r))}
            </ul>
            ${shown.length < matches.length ? html`<button part="more-button" type="button" @click=${() => (this._shown += PAGE)}>Show ${Math.min(PAGE, matches.length - shown.length)} more</button>` : nothing}`
        : nothing}
      ${this._templates.length > 0
        ? html`<p part="section-title">Templates</p>
            <ul part="templates" aria-label="Resource templates">
              ${this._templates.slice(0, PAGE).map((t, i) => this.#template(t, i))}
            </ul>
            ${this._templates.length > PAGE ? html`<p part="count">${PAGE} of ${this._templates.length.toLocaleString('en')} templates listed.</p>` : nothing}`
        : nothing}
    `;
  }
}

defineElement('mcp-resource-list', McpResourceList);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-resource-list': McpResourceList;
  }
}
