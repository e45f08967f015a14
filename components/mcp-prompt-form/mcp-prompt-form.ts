import { consume } from '@lit/context';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { isAbortError, McpClientError, McpError, McpRpcError, type GetPromptResult, type McpClient, type Prompt } from '../../src/index.js';
import type { PromptArgument } from '../../src/protocol/types.js';
import { clientContext } from '../context.js';
import { defineElement } from '../define.js';
import { PageSchemeController, schemeStyles } from '../internal/scheme.js';
import { plainHost } from '../internal/style-blocks.js';
import { McpErrorEvent, McpPromptResultEvent } from '../events.js';
import { CompletionController, serverCompletions, type ComboboxField, type CompletionSource } from '../internal/completion.js';
import { idFor, toggleState } from '../internal/dom.js';
import { clip } from '../internal/json.js';
import { DESCRIPTION_CHARS, LABEL_CHARS } from '../internal/long-list.js';
import '../mcp-tool-result/mcp-tool-result.js';
import { styles } from './mcp-prompt-form.styles.js';

/** A prompt as the form can trust it: string name, and arguments with string names (everything else dropped). */
function usablePrompt(value: unknown): Prompt | undefined {
  if (typeof value !== 'object' || value === null || typeof (value as Prompt).name !== 'string') return undefined;
  const prompt = value as Prompt;
  const args = Array.isArray(prompt.arguments)
    ? prompt.arguments.filter((arg): arg is PromptArgument => typeof arg === 'object' && arg !== null && typeof arg.name === 'string')
    : [];
  return {
    name: prompt.name,
    ...(typeof prompt.title === 'string' ? { title: prompt.title } : {}),
    ...(typeof prompt.description === 'string' ? { description: prompt.description } : {}),
    arguments: args.map((arg) => ({
      name: arg.name,
      ...(typeof arg.title === 'string' ? { title: arg.title } : {}),
      ...(typeof arg.description === 'string' ? { description: arg.description } : {}),
      ...(arg.required === true ? { required: true } : {}),
    })),
  };
}

const promptTitle = (prompt: Prompt) => clip(String(prompt.title ?? prompt.name), LABEL_CHARS);
/** Prompts, arguments and messages rendered at most (issue 19: a server's lists are bounded on the page). */
const LISTED = 100;

/**
 * A form for an MCP prompt (spec: server/prompts "Getting a Prompt"): one text
 * field per argument, with suggestions from the server (`completion/complete`,
 * server/utilities/completion) in a keyboard-operable combobox when the server
 * declares `completions`; submitting sends `prompts/get` and shows the messages
 * underneath, each block through `<mcp-tool-result>`'s safe renderers (text as
 * text, media only from checked base64, links asked about).
 *
 * Give it a client (`.client`, or put it inside `<mcp-connection>`) and
 * `prompt-name` (the definition comes from `prompts/list`) or `.prompt`. Without
 * either it shows a picker of the server's prompts. Values typed are kept when
 * the call fails. The other arguments' values are sent as completion context.
 *
 * @tagname mcp-prompt-form
 * @summary A form that gets an MCP prompt, with argument completions.
 *
 * @event mcp-prompt-result - The prompt was got; `detail.result` has its `messages`.
 * @event mcp-error - Listing or getting the prompt failed; `detail.error` is the typed kit error (also a failed read of a linked resource in the contents shown).
 * @event mcp-app-ready - Never fired here: the `<mcp-tool-result>` inside shows no app (no tool is given it); listed because that element can.
 * @event mcp-app-message - Never fired here (see `mcp-app-ready`).
 * @event mcp-app-model-context - Never fired here (see `mcp-app-ready`).
 * @event mcp-app-open-link - Never fired here (see `mcp-app-ready`).
 * @event mcp-app-log - Never fired here (see `mcp-app-ready`).
 * @event mcp-app-display-mode - Never fired here (see `mcp-app-ready`).
 * @event mcp-app-close - Never fired here (see `mcp-app-ready`).
 *
 * @csspart form - The `<form>`.
 * @csspart picker - The prompt picker (a `<select>`), without `prompt-name`.
 * @csspart header - Title, name and description.
 * @csspart title - The prompt's display name.
 * @csspart prompt-name - The prompt's `name`.
 * @csspart description - The prompt's description.
 * @csspart field - One argument's wrapper.
 * @csspart label - An argument's label.
 * @csspart required-mark - The asterisk of required arguments.
 * @csspart control - An argument's text input (a combobox when the server completes it).
 * @csspart hint - An argument's description.
 * @csspart listbox - The suggestions of the argument being typed.
 * @csspart option - One suggestion (also `option-active` while highlighted).
 * @csspart actions - The button row.
 * @csspart submit-button - Gets the prompt.
 * @csspart cancel-button - Aborts the request.
 * @csspart status - A status line (loading, getting).
 * @csspart error - Why listing or getting failed.
 * @csspart messages - The list of messages got.
 * @csspart message - One message.
 * @csspart role - A message's role.
 * @csspart result-description - The description the server sent with the messages.
 *
 * @cssproperty --mcp-color-text - Text colour.
 * @cssproperty --mcp-color-muted-text - Hints.
 * @cssproperty --mcp-color-input - Background of inputs and suggestions.
 * @cssproperty --mcp-color-border - Borders.
 * @cssproperty --mcp-color-accent - Submit button, highlighted suggestion.
 * @cssproperty --mcp-color-accent-text - Text on the accent colour.
 * @cssproperty --mcp-color-danger - Errors and required marks.
 * @cssproperty --mcp-radius - Corner radius.
 *
 * @cssstate loading - The prompt list is being fetched.
 * @cssstate pending - `prompts/get` is running.
 * @cssstate error - Listing or the last request failed.
 * @cssstate done - Messages are shown.
 */
export class McpPromptForm extends LitElement {
  static override styles = [schemeStyles, plainHost, styles];

  /** Name of the prompt; its definition comes from `prompts/list`. Without it (and `.prompt`) a picker is shown. */
  @property({ attribute: 'prompt-name' }) promptName = '';
  /** The prompt definition; takes precedence over `prompt-name`. */
  @property({ attribute: false }) prompt: Prompt | undefined;
  /** The client; default: the one of the enclosing `<mcp-connection>`. */
  @property({ attribute: false }) client: McpClient | undefined;
  /** Don't show the messages under the form (listen for `mcp-prompt-result`). */
  @property({ attribute: 'no-result', type: Boolean }) noResult = false;
  /** Don't ask the server for suggestions. */
  @property({ attribute: 'no-completions', type: Boolean }) noCompletions = false;

  @consume({ context: clientContext, subscribe: true })
  @state()
  protected contextClient: McpClient | undefined;

  @state() private _prompts: Prompt[] = [];
  @state() private _picked = '';
  @state() private _values: Record<string, string> = {};
  @state() private _phase: 'idle' | 'loading' | 'pending' = 'idle';
  @state() private _error: McpError | undefined;
  @state() private _result: GetPromptResult | undefined;

  readonly #completions = new CompletionController(this);
  readonly #sources = new Map<string, CompletionSource>();
  #internals = this.attachInternals();

  constructor() {
    super();
    new PageSchemeController(this, this.#internals);
  }
  #abort: AbortController | undefined;
  #listedFor: McpClient | undefined;
  #offChanged: (() => void) | undefined;
  #listToken = 0;

  /** The client in use: `.client`, else the enclosing connection's. */
  get effectiveClient(): McpClient | undefined {
    return this.client ?? this.contextClient;
  }

  /** The prompt shown: `.prompt`, or the listed one named by `prompt-name` (or picked). */
  get effectivePrompt(): Prompt | undefined {
    if (this.prompt) return usablePrompt(this.prompt);
    const name = this.promptName || this._picked;
    return name ? this._prompts.find((p) => p.name === name) : undefined;
  }

  /** The argument values typed so far. */
  get values(): Record<string, string> {
    return { ...this._values };
  }

  set values(values: Record<string, string>) {
    this._values = { ...values };
  }

  /** The last messages got. */
  get result(): GetPromptResult | undefined {
    return this._result;
  }

  /** The prompts listed by the server (usable ones). */
  get prompts(): readonly Prompt[] {
    return this._prompts;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort?.abort();
    this.#offChanged?.();
    this.#offChanged = undefined;
    this.#listedFor = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const client = this.effectiveClient;
    if (client !== this.#listedFor) {
      // A prompts/get of the previous client is not this one's to show.
      this.#drop();
      this.#listedFor = client;
      this.#sources.clear();
      this.#offChanged?.();
      this.#offChanged = client?.on('promptsChanged', () => void this.#list(client, true));
      if (client && (!this.prompt || !this.promptName)) void this.#list(client, false);
    }
    if (changed.has('prompt') || changed.has('promptName')) {
      // Nor is one of the previous prompt (its messages would be shown under this one).
      this.#drop();
      this.#sources.clear();
      this._result = undefined;
      this._error = undefined;
    }
  }

  protected override updated(): void {
    toggleState(this.#internals, 'loading', this._phase === 'loading');
    toggleState(this.#internals, 'pending', this._phase === 'pending');
    toggleState(this.#internals, 'error', this._error !== undefined);
    toggleState(this.#internals, 'done', this._result !== undefined);
  }

  async #list(client: McpClient, fresh: boolean): Promise<void> {
    if (this.prompt) return;
    const token = ++this.#listToken;
    this._phase = 'loading';
    try {
      await client.connect();
      if (client.server?.capabilities.prompts === undefined) {
        this._prompts = [];
        return;
      }
      const listed = await client.listPrompts(fresh ? { fresh: true } : {});
      if (token !== this.#listToken) return;
      this._prompts = listed.map(usablePrompt).filter((p): p is Prompt => p !== undefined);
      if ((this._error?.data as { method?: string } | undefined)?.method === 'prompts/list') this._error = undefined;
    } catch (error) {
      if (token !== this.#listToken) return;
      this.#fail(error, 'prompts/list');
    } finally {
      if (token === this.#listToken && this._phase === 'loading') this._phase = 'idle';
    }
  }

  #fail(error: unknown, method: string): void {
    const client = this.effectiveClient;
    this._error = McpError.isInstance(error) ? error : new McpClientError('protocol', String(error), { url: client?.url.href ?? '', method });
    this.dispatchEvent(new McpErrorEvent(this._error, method));
  }

  /** The completion source of one argument, when the server completes arguments. */
  #source(prompt: Prompt, name: string): CompletionSource | undefined {
    const client = this.effectiveClient;
    if (this.noCompletions || !client || client.server?.capabilities.completions === undefined) return undefined;
    let source = this.#sources.get(name);
    if (!source) {
      source = serverCompletions(client, { type: 'ref/prompt', name: prompt.name }, name, () => {
        // The other arguments typed so far (completion "context.arguments").
        const others: Record<string, string> = {};
        for (const [key, value] of Object.entries(this._values)) if (key !== name && value !== '') others[key] = value;
        return others;
      });
      this.#sources.set(name, source);
    }
    return source;
  }

  /**
   * Gets the prompt with the values typed (missing required arguments are
   * reported and nothing is sent).
   * @returns the result, or undefined when nothing was sent or the request failed (shown, and sent as `mcp-error`).
   */
  async submit(): Promise<GetPromptResult | undefined> {
    const prompt = this.effectivePrompt;
    const client = this.effectiveClient;
    if (!prompt || this._phase === 'pending') return undefined;
    if (!client) {
      this.#fail(new McpClientError('closed', 'No client: put <mcp-prompt-form> inside <mcp-connection> or set its .client'), 'prompts/get');
      return undefined;
    }
    const form = this.renderRoot.querySelector('form');
    if (form && !form.reportValidity()) return undefined;
    const args: Record<string, string> = {};
    for (const arg of prompt.arguments ?? []) {
      const value = this._values[arg.name];
      if (value !== undefined && (value !== '' || arg.required)) args[arg.name] = value;
    }
    const controller = new AbortController();
    this.#abort = controller;
    this._phase = 'pending';
    this._error = undefined;
    try {
      const result = await client.getPrompt(prompt.name, args, { signal: controller.signal });
      if (controller.signal.aborted || result.resultType === 'input_required') return undefined;
      const got = result as GetPromptResult;
      this._result = got;
      this.dispatchEvent(new McpPromptResultEvent(prompt.name, args, got));
      return got;
    } catch (error) {
      if (!(isAbortError(error) && controller.signal.aborted)) this.#fail(error, 'prompts/get');
      return undefined;
    } finally {
      if (this.#abort === controller) {
        this.#abort = undefined;
        this._phase = 'idle';
      }
    }
  }

  /** Stops waiting for the running `prompts/get` (aborted): the form is idle at once, and its answer is not shown. */
  #drop(): void {
    if (!this.#abort) return;
    this.#abort.abort();
    this.#abort = undefined;
    this._phase = 'idle';
  }

  /** Aborts a running `prompts/get`. */
  cancel(): void {
    this.#abort?.abort();
  }

  #errorText(error: McpError): string {
    if (McpRpcError.isInstance(error)) return `The server refused: ${error.message} (JSON-RPC error ${error.code})`;
    return `${error.message}${McpClientError.isInstance(error) ? ` (${error.code})` : ''}`;
  }

  #field(prompt: Prompt, arg: PromptArgument): TemplateResult {
    const id = idFor('arg-', arg.name);
    const field: ComboboxField = {
      id,
      source: this.#source(prompt, arg.name),
      pick: (value) => (this._values = { ...this._values, [arg.name]: value }),
    };
    const hint = arg.description ? `${id}-hint` : undefined;
    return html`<div part="field">
      <label part="label" for=${id}>${arg.title ?? arg.name}${arg.required ? html`<span part="required-mark" aria-hidden="true"> *</span>` : nothing}</label>
      ${this.#completions.textInput(field, {
        value: this._values[arg.name] ?? '',
        label: `Suggestions for ${arg.title ?? arg.name}`,
        required: arg.required === true,
        ...(hint ? { describedBy: hint } : {}),
        name: arg.name,
        onInput: (value) => (this._values = { ...this._values, [arg.name]: value }),
      })}
      ${hint ? html`<span part="hint" id=${hint}>${clip(arg.description!, DESCRIPTION_CHARS)}</span>` : nothing}
    </div>`;
  }

  #messages(result: GetPromptResult): TemplateResult {
    const messages = Array.isArray(result.messages) ? result.messages : [];
    return html`<section part="messages" aria-label="Prompt messages">
      ${typeof result.description === 'string' && result.description ? html`<p part="result-description">${clip(result.description, DESCRIPTION_CHARS)}</p>` : nothing}
      ${messages.length === 0 ? html`<p part="status">The prompt has no messages.</p>` : nothing}
      <ol class="messages">
        ${messages.slice(0, LISTED).map((message) => {
          const role = typeof message?.role === 'string' ? clip(message.role, LABEL_CHARS) : 'unknown role';
          return html`<li part="message" data-role=${role}>
            <span part="role">${role}</span>
            <mcp-tool-result .result=${{ content: [message?.content] }} .client=${this.effectiveClient}></mcp-tool-result>
          </li>`;
        })}
      </ol>
      ${messages.length > LISTED ? html`<p part="status">${LISTED} of ${messages.length.toLocaleString('en')} messages shown.</p>` : nothing}
    </section>`;
  }

  protected override render(): TemplateResult {
    const prompt = this.effectivePrompt;
    const pending = this._phase === 'pending';
    const picker =
      !this.prompt && !this.promptName
        ? html`<div part="field">
            <label part="label" for="picker">Prompt</label>
            <select
              part="picker"
              id="picker"
              .value=${this._picked}
              @change=${(event: Event) => {
                this._picked = (event.target as HTMLSelectElement).value;
                this._values = {};
                this._result = undefined;
                this.#sources.clear();
              }}
            >
              <option value="">${this._phase === 'loading' ? 'Loading prompts…' : this._prompts.length ? 'Choose a prompt…' : 'No prompts'}</option>
              ${this._prompts.slice(0, LISTED).map((p) => html`<option value=${p.name} ?selected=${p.name === this._picked}>${promptTitle(p)}</option>`)}
            </select>
            ${this._prompts.length > LISTED ? html`<p part="status">${LISTED} of ${this._prompts.length.toLocaleString('en')} prompts listed.</p>` : nothing}
          </div>`
        : nothing;
    const missing = !prompt && (this.prompt || this.promptName) && this._phase !== 'loading' && this.effectiveClient;
    return html`<form part="form" @submit=${(event: Event) => (event.preventDefault(), void this.submit())}>
        ${picker}
        ${prompt
          ? html`<header part="header">
                <h3 part="title">${promptTitle(prompt)}</h3>
                ${prompt.title && prompt.title !== prompt.name ? html`<code part="prompt-name">${prompt.name}</code>` : nothing}
                ${prompt.description ? html`<p part="description">${clip(prompt.description, DESCRIPTION_CHARS)}</p>` : nothing}
              </header>
              <fieldset class="fields" ?disabled=${pending}>
                <legend class="mcp-visually-hidden">Arguments of ${prompt.name}</legend>
                ${(prompt.arguments ?? []).length === 0 ? html`<p part="status">This prompt takes no arguments.</p>` : nothing}
                ${(prompt.arguments ?? []).slice(0, LISTED).map((arg) => this.#field(prompt, arg))}
              </fieldset>
              <div part="actions">
                <button part="submit-button" type="submit" ?disabled=${pending}>Get prompt</button>
                ${pending ? html`<button part="cancel-button" type="button" @click=${() => this.cancel()}>Cancel</button>` : nothing}
              </div>`
          : nothing}
        ${missing ? html`<p part="status" role="status">The server lists no prompt named "${this.promptName}".</p>` : nothing}
        ${this._phase === 'loading' && (this.promptName || this.prompt) ? html`<p part="status" role="status">Loading the prompt…</p>` : nothing}
        ${pending ? html`<p part="status" role="status">Getting the prompt…</p>` : nothing}
        ${this._error ? html`<div part="error" role="alert">${this.#errorText(this._error)}</div>` : nothing}
      </form>
      ${!this.noResult && this._result ? this.#messages(this._result) : nothing}`;
  }
}

defineElement('mcp-prompt-form', McpPromptForm);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-prompt-form': McpPromptForm;
  }
}
