import { consume } from '@lit/context';
import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import {
  McpClientError,
  type CreateMessageResult,
  type ElicitResult,
  type InputContext,
  type InputRequest,
  type InputResponse,
  type ListRootsResult,
  type McpClient,
  type Root,
  type RoundEvent,
  type TaskEvent,
} from '../../src/index.js';
import { clientContext, connectionContext } from '../context.js';
import { defineElement } from '../define.js';
import { McpErrorEvent, McpInputRequiredEvent, McpToolResultEvent } from '../events.js';
import { PageSchemeController, schemeStyles } from '../internal/scheme.js';
import { focusRing, plainHost, systemButton } from '../internal/style-blocks.js';
import { clip } from '../internal/json.js';
import { onPageLeave } from '../internal/journal.js';
import { LABEL_CHARS } from '../internal/long-list.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import { callKey, DECLINED_ROUND, MAX_WAITING, refusal, roundKey } from './calls.js';
import type { DialogBody } from './dialog-body.js';
import type { InputPolicy, SamplingDraft } from './dialog-host.js';

export type { InputPolicy, SamplingDraft } from './dialog-host.js';

/**
 * What the element shows before its body (dialog-body.ts) has loaded: its
 * box, and the notice beside the page. The dialog's own styles come with the body.
 */
const shellStyles = css`
  :host {
    --mcp-dialog-width: min(36rem, calc(100vw - 2rem));
    display: contents;
  }
  :host([inline]) {
    display: block;
  }
  [part='notice'] {
    display: flex;
    gap: 0.5rem;
    align-items: baseline;
    padding: 0.5rem 0.75rem;
    border: 1px solid currentColor;
    border-radius: var(--mcp-radius, 6px);
  }
  button {
    padding: 0.4rem 0.9rem;
    ${systemButton}
  }
  button:focus-visible {
    ${focusRing}
  }
`;

/**
 * Answers a server's input requests in the UI: form and URL elicitation,
 * sampling and roots (spec: basic/patterns/mrtr; client/elicitation,
 * client/sampling, client/roots).
 *
 * Inside `<mcp-connection>` (or given `.client`) it registers itself as the
 * client's input handler, so the client declares exactly the capabilities it
 * can answer — and stops when the dialog is removed. Before asking, it fires a
 * cancelable `mcp-input-required` event on the connection: a host that calls
 * `preventDefault()` and `detail.respondWith(answer)` answers with its own UI.
 * `policy` answers automatically (demos, tests). An unanswered round survives
 * a reload and can be resumed.
 *
 * A form answer carries what the user saw: a required yes/no left unchecked
 * is `false` (as `<mcp-tool-form>` sends it); number text that cannot be sent
 * (`2.5` for a whole number) stays as typed and is named at review, never
 * dropped or reported as missing. `policy="accept-defaults"` still asks when a
 * required field, a yes/no included, has no default: nobody saw the form.
 *
 * @tagname mcp-elicitation-dialog
 * @summary The built-in UI for elicitation, sampling and roots requests.
 *
 * @event mcp-input-required - Before asking; cancelable (fired on the connection, or on this element outside one).
 * @event mcp-tool-result - A call resumed after a reload finished; `detail.result`.
 * @event mcp-error - A resumed call failed.
 *
 * @csspart dialog - The native `<dialog>`.
 * @csspart header - Title, server and progress.
 * @csspart title - The heading.
 * @csspart server - Which server asks (name and host).
 * @csspart server-host - The host of the server's URL.
 * @csspart task - Says the request comes from a running task (Tasks extension `input_required`).
 * @csspart progress - Round and step counters.
 * @csspart message - The server's message (plain text).
 * @csspart fields - The form fields.
 * @csspart hint - A field description.
 * @csspart field-error - A field's validation message.
 * @csspart review - The values about to be sent.
 * @csspart url - The full URL of a URL-mode request.
 * @csspart url-host - The URL's host, emphasised.
 * @csspart warning - A warning about the URL or the request.
 * @csspart messages - The sampling messages.
 * @csspart timeline - The rounds of the current call.
 * @csspart actions - The buttons.
 * @csspart error - A request the kit cannot show.
 * @csspart notice - Beside the page, not modal: a round declined without asking, or drafts that cannot be stored.
 * @csspart matches - The values listed under the search of a long choice (at most 50).
 * @csspart match - One value listed there.
 * @csspart long-value - The start of a default too long to put in a control.
 * @csspart show-all-button - Shows all of a long message or description, or the whole long value to edit.
 *
 * @cssproperty --mcp-dialog-width - Width of the dialog.
 * @cssproperty --mcp-dialog-backdrop - Backdrop colour.
 * @cssproperty --mcp-color-accent - Primary button colour.
 *
 * @cssstate open - A request is shown.
 */
export class McpElicitationDialog extends LitElement {
  static override styles = [schemeStyles, plainHost, shellStyles];

  /** The client to answer for; provided by `<mcp-connection>` when inside one. */
  @consume({ context: clientContext, subscribe: true })
  @property({ attribute: false })
  client: McpClient | undefined;

  /** The enclosing connection (its roots; where `mcp-input-required` is fired). */
  @consume({ context: connectionContext, subscribe: true })
  @state()
  protected connection: McpConnection | undefined;

  /** Roots to offer; default the connection's `roots`. Roots are declared only when some are configured. */
  @property({ attribute: false }) roots: Root[] | undefined;
  /** Automatic answers: `ask` (default), `accept-defaults`, `decline`, `cancel`, or a function. */
  @property({ attribute: 'policy' }) policy: InputPolicy = 'ask';
  /** A host's model call; its answer is offered as an editable draft for sampling requests. */
  @property({ attribute: false }) samplingHandler: SamplingDraft | undefined;
  /** Don't declare URL-mode elicitation. */
  @property({ attribute: 'no-url', type: Boolean }) noUrl = false;
  /** Don't declare sampling. */
  @property({ attribute: 'no-sampling', type: Boolean }) noSampling = false;
  /** Don't declare roots. */
  @property({ attribute: 'no-roots', type: Boolean }) noRoots = false;
  /** Don't offer to resume a call left unanswered by a reload. */
  @property({ attribute: 'no-resume', type: Boolean }) noResume = false;
  /**
   * Form requests whose answer must be reviewed before it is sent — the host's
   * policy marks them sensitive (a payment, credentials): they show Review
   * only, and Accept on the review. Other forms that validate are accepted in
   * one step (Accept on the form; Review stays available). URL mode and
   * sampling always have their own confirmation step.
   */
  @property({ attribute: false }) reviewRequired: ((request: InputRequest, context: InputContext) => boolean) | undefined;
  /** Show requests in the page flow (a non-modal dialog) instead of as a modal — e.g. inline in a chat transcript. */
  @property({ type: Boolean, reflect: true }) inline = false;

  /** A notice outside the modal (a round declined without asking, drafts that cannot be stored). */
  @state() private _notice: string | undefined;

  readonly #internals: ElementInternals;
  /** Round events per call; keys are `callKey(client, callId)` (call ids are per client). Kept before the body loads: its timeline shows them. */
  readonly #rounds = new Map<string, RoundEvent[]>();
  /** Rounds the user declined or cancelled as a whole (`callKey#round`): their later requests are answered so, unasked. */
  readonly #refused = new Map<string, 'decline' | 'cancel'>();
  #registered: { client: McpClient; off: (() => void)[] } | undefined;
  /**
   * The asking, resuming and rendering, loaded with `import()` when the first
   * request is to be shown (or a call can be resumed): a page that is never
   * asked anything does not download it.
   */
  #body: DialogBody | undefined;
  #loading: Promise<DialogBody> | undefined;
  /** Requests waiting for the body to load: they fail when the element leaves the page, as those in the body do. */
  readonly #beforeBody = new Set<(error: McpClientError) => void>();
  /** Requests handed on to be asked (loading the body, or in it) and not settled yet: the cap on waiting requests counts them. */
  #asking = 0;

  constructor() {
    super();
    this.#internals = this.attachInternals();
    new PageSchemeController(this, this.#internals);
  }

  /** Whether a request (or the resume offer) is being shown. */
  get open(): boolean {
    return this.#body?.open ?? false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#stopLeave = onPageLeave(this.#onPageHide);
    if (this.client) this.#register(this.client);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stopLeave?.();
    this.#unregister();
    const removed = new McpClientError('aborted', 'The elicitation dialog was removed from the page');
    for (const fail of [...this.#beforeBody]) fail(removed);
    this.#body?.abandon(removed);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const rewire = ['client', 'connection', 'roots', 'noUrl', 'noSampling', 'noRoots'].some((name) => changed.has(name as keyof McpElicitationDialog));
    if (rewire && this.isConnected && (this.#registered?.client !== this.client || changed.size > 0)) {
      this.#unregister();
      if (this.client) this.#register(this.client);
    }
  }

  #availableRoots(): Root[] | undefined {
    return this.roots ?? this.connection?.roots;
  }

  #register(client: McpClient): void {
    if (this.#registered?.client === client) return;
    this.#unregister();
    const off: (() => void)[] = [];
    off.push(
      client.setInputHandler('elicitation/create', {
        modes: this.noUrl ? ['form'] : ['form', 'url'],
        handle: (params, context) => this.#ask(client, { method: 'elicitation/create', params }, context) as Promise<ElicitResult>,
      }),
    );
    if (!this.noSampling) {
      off.push(client.setInputHandler('sampling/createMessage', { handle: (params, context) => this.#ask(client, { method: 'sampling/createMessage', params }, context) as Promise<CreateMessageResult> }));
    }
    if (!this.noRoots && this.#availableRoots() !== undefined) {
      off.push(client.setInputHandler('roots/list', { handle: (params, context) => this.#ask(client, { method: 'roots/list', params }, context) as Promise<ListRootsResult> }));
    }
    off.push(client.on('round', (event) => this.#onRound(client, event)));
    off.push(client.on('task', (event) => this.#onTask(client, event)));
    const connection = this.connection;
    if (connection && !this.noRoots) {
      // The connection's roots changed: register again, which tells a legacy server (notifications/roots/list_changed).
      const onRoots = (event: Event) => {
        if (event.target !== connection || this.roots !== undefined || this.#registered?.client !== client) return;
        this.#unregister();
        this.#register(client);
      };
      connection.addEventListener('mcp-roots-change', onRoots);
      off.push(() => connection.removeEventListener('mcp-roots-change', onRoots));
    }
    off.push(
      client.on('status', ({ status }) => {
        if (status === 'connected') void this.#offerResume(client);
      }),
    );
    this.#registered = { client, off };
    if (client.status === 'connected') void this.#offerResume(client);
  }

  #unregister(): void {
    for (const off of this.#registered?.off ?? []) off();
    this.#registered = undefined;
  }

  /** The body, loading it on first use; it gets what it needs of this element through closures. */
  #load(): Promise<DialogBody> {
    return (this.#loading ??= import('./dialog-body.js').then(({ DialogBody }) => {
      this.#body = new DialogBody(this, {
        internals: this.#internals,
        rounds: this.#rounds,
        refused: this.#refused,
        roots: () => this.#availableRoots(),
        tell: (text) => this.#tell(text),
        emit: (event: McpToolResultEvent | McpErrorEvent) => this.dispatchEvent(event),
      });
      return this.#body;
    }, (error: unknown) => {
      // A chunk that cannot load (offline): the next request tries again.
      this.#loading = undefined;
      throw new McpClientError('input_unsupported', `The elicitation dialog cannot be shown: ${(error as Error).message}`);
    }));
  }

  /**
   * The body, for one request: fails with `aborted` when the request is
   * withdrawn (`context.signal`) or the element leaves the page while the body
   * loads, and with `input_unsupported` when it cannot load (offline).
   */
  #bodyFor(context: InputContext): Promise<DialogBody> {
    if (this.#body) return Promise.resolve(this.#body);
    return new Promise<DialogBody>((resolve, reject) => {
      const settle = () => {
        this.#beforeBody.delete(fail);
        context.signal.removeEventListener('abort', onAbort);
      };
      const fail = (error: unknown) => {
        settle();
        reject(error);
      };
      const onAbort = () => fail(context.signal.reason);
      if (context.signal.aborted) return onAbort();
      this.#beforeBody.add(fail);
      context.signal.addEventListener('abort', onAbort, { once: true });
      this.#load().then(
        (body) => {
          settle();
          resolve(body);
        },
        fail,
      );
    });
  }

  // --- rounds ---------------------------------------------------------------------------------------

  /** A running task's input round the client declined unasked (more than maxInputRequests): the user is told, as for a round. */
  #onTask(client: McpClient, event: TaskEvent): void {
    const declined = event.phase === 'answered' ? (event.inputResponses as Record<symbol, number> | undefined)?.[DECLINED_ROUND] : undefined;
    if (declined) {
      this.#tell(`${this.#serverName(client)} asked for ${declined.toLocaleString('en')} inputs at once for a running task (${event.method} ${clip(event.target ?? '', LABEL_CHARS)}): too many to ask about one by one, so all were declined.`);
    }
  }

  #onRound(client: McpClient, event: RoundEvent): void {
    const key = callKey(client, event.callId);
    if (event.phase !== 'input_required') this.#refused.delete(`${key}#${event.round}`);
    // The client declined this round unasked (more than maxInputRequests): the user is told.
    const declined = (event.inputResponses as Record<symbol, number> | undefined)?.[DECLINED_ROUND];
    if (declined) {
      this.#tell(`${this.#serverName(client)} asked for ${declined.toLocaleString('en')} inputs at once (${event.method} ${clip(event.target ?? '', LABEL_CHARS)}): too many to ask about one by one, so all were declined.`);
    }
    const list = this.#rounds.get(key) ?? [];
    list.push(event);
    this.#rounds.set(key, list);
    if (this.#rounds.size > 50) this.#rounds.delete(this.#rounds.keys().next().value!);
    this.#body?.onRound(key, event);
  }

  /** Before the page goes away (a reload, a closed or discarded tab), the rounds asked about go to the tab's journal. */
  #onPageHide = (): void => {
    this.#body?.journal();
  };

  #stopLeave: (() => void) | undefined;

  /** Offers to resume a call a reload left unanswered: only the small store module loads to look. */
  async #offerResume(client: McpClient): Promise<void> {
    if (this.noResume || this.#body?.offering) return;
    try {
      const { loadPending } = await import('./pending.js');
      const pending = await loadPending(client.url.href);
      if (!pending || client !== this.client || !this.isConnected) return;
      await (await this.#load()).offerResume(pending);
    } catch {
      // Its chunks cannot load (offline): the call stays stored and is offered on the next connection.
    }
  }

  // --- asking ---------------------------------------------------------------------------------------

  /**
   * Answers one input request: a refused round, then host event, then policy,
   * then the dialog (whose body loads here, the first time).
   */
  async #ask(client: McpClient, request: InputRequest, context: InputContext): Promise<InputResponse> {
    const refused = this.#refused.get(roundKey(client, context));
    if (refused) return refusal(request.method, refused, context);
    // Those still loading the body count too: a burst before it has loaded is capped like one after.
    if (Math.max(this.#body?.waiting ?? 0, this.#asking - 1) >= MAX_WAITING) {
      this.#tell(`${this.#serverName(client)} asked for more than ${MAX_WAITING} inputs at once: the rest were declined without asking.`);
      return refusal(request.method, 'decline', context);
    }
    const event = new McpInputRequiredEvent(request, context);
    (this.connection ?? this).dispatchEvent(event);
    if (event.defaultPrevented) {
      if (event.response) return event.response;
      throw new McpClientError('input_unsupported', 'A host handled mcp-input-required but gave no answer through respondWith()');
    }
    const policy = this.policy;
    if (typeof policy === 'function') {
      const automatic = await policy(request, context);
      if (automatic !== undefined) return automatic;
    } else if (policy === 'decline' || policy === 'cancel') {
      if (request.method === 'elicitation/create') return { action: policy };
      if (request.method === 'roots/list') return { roots: [] };
      throw new McpClientError('declined', `The ${policy} policy refused a sampling request`);
    }
    this.#asking++;
    try {
      return await (await this.#bodyFor(context)).ask(client, request, context);
    } finally {
      this.#asking--;
    }
  }

  /** Shows a notice beside the page (not modal) until dismissed. */
  #tell(text: string): void {
    this._notice = text;
  }

  #serverName(client: McpClient): string {
    const info = client.server?.serverInfo;
    return clip(info ? (info.title ?? info.name) : 'The server', 120);
  }

  #onCancel = (event: Event) => {
    // Escape: dismissing without a choice is "cancel" (client/elicitation "Response Actions").
    event.preventDefault();
    this.#body?.cancel();
  };

  #onKeydown = (event: KeyboardEvent) => {
    // A non-modal (inline) dialog gets no cancel event from Escape: map it here.
    if (this.inline && event.key === 'Escape' && !event.defaultPrevented) this.#onCancel(event);
  };

  // --- rendering ------------------------------------------------------------------------------------

  protected override render() {
    return html`<dialog part="dialog" aria-labelledby="title" aria-describedby="message" @cancel=${this.#onCancel} @keydown=${this.#onKeydown}>
        ${this.#body ? this.#body.render() : nothing}
      </dialog>
      ${this._notice
        ? html`<div part="notice" role="alert">
            <span>${this._notice}</span>
            <button type="button" data-action="dismiss-notice" @click=${() => (this._notice = undefined)}>Dismiss</button>
          </div>`
        : nothing}`;
  }
}

defineElement('mcp-elicitation-dialog', McpElicitationDialog);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-elicitation-dialog': McpElicitationDialog;
  }
}
