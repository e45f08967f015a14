/**
 * The body of `<mcp-elicitation-dialog>`: asking the user, one request at a
 * time (form and URL elicitation, sampling, roots), the actions that answer a
 * request or end its round or call, and the offer to resume a call after a
 * reload. The element (mcp-elicitation-dialog.ts) loads this module with
 * `import()` when the first request is to be shown or a call can be resumed
 * (issue 18: a page pays for the dialog when it is used); until then it
 * registers the client's input handlers, fires `mcp-input-required`, applies
 * the function, `decline` and `cancel` policies and keeps the round history on
 * its own. A request's state is ask.ts, its views request-views.ts and
 * form-view.ts, the stored calls resume-store.ts.
 *
 * @module
 */
import { adoptStyles, nothing, type ReactiveElement, type TemplateResult } from 'lit';
import {
  ensureValidator,
  McpClientError,
  McpError,
  type CreateMessageRequestParams,
  type ElicitRequestFormParams,
  type ElicitRequestUrlParams,
  type InputContext,
  type InputRequest,
  type InputResponse,
  type McpClient,
  type RoundEvent,
} from '../../src/index.js';
import { McpErrorEvent, McpToolResultEvent } from '../events.js';
import { clip } from '../internal/json.js';
import { LABEL_CHARS } from '../internal/long-list.js';
import { checkForm, formContent, prepareAsk, restoreAnswer, type Ask, type RestoredAnswers } from './ask.js';
import { callKey, refusalSync, roundKey } from './calls.js';
import type { DialogElement, DialogHost } from './dialog-host.js';
import { hasLongChoice, initialValues, parseRequestedSchema } from './elicitation-form.js';
import { loadCombobox, renderForm } from './form-view.js';
import { dialogStyles } from './mcp-elicitation-dialog.styles.js';
import { clearPending, type PendingCall } from './pending.js';
import { renderResume, renderRoots, renderSampling, renderUrl, type AskView } from './request-views.js';
import { ResumeStore } from './resume-store.js';
import { reviewUrl } from './url.js';

/** The deepest focused element, through shadow roots. */
function activeElement(): HTMLElement | null {
  let element = document.activeElement as HTMLElement | null;
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement as HTMLElement;
  return element;
}

export class DialogBody {
  readonly #el: DialogElement;
  readonly #host: DialogHost;
  #active: Ask | undefined;
  #resumeOffer: PendingCall | undefined;
  readonly #queue: Ask[] = [];
  /** The calls asked about, stored for resume. */
  readonly #store: ResumeStore;
  /** Answers typed before a reload, for the call being resumed. */
  #restored: RestoredAnswers | undefined;
  #returnFocus: HTMLElement | null = null;
  /** What the views of a request (request-views.ts, form-view.ts) may do. */
  readonly #view: AskView;

  constructor(element: DialogElement, host: DialogHost) {
    this.#el = element;
    this.#host = host;
    this.#store = new ResumeStore(element, host);
    this.#view = {
      el: element,
      rounds: (ask) => host.rounds.get(callKey(ask.client, ask.context.callId)),
      remaining: (ask) => this.#remaining(ask),
      finish: (ask, outcome) => this.#finish(ask, outcome),
      dismiss: (ask, action) => this.#dismiss(ask, action),
      refuseRest: (ask, action) => this.#refuseRest(ask, action),
      stopCall: (ask) => this.#stopCall(ask),
      submit: this.#onSubmit,
      saveAnswer: (ask) => this.#store.saveAnswer(ask),
      resume: (accept) => this.#resume(accept),
    };
    // The dialog's own styles, after the element's (the box and the notice).
    const root = element.renderRoot;
    if (root instanceof ShadowRoot) adoptStyles(root, [...(element.constructor as typeof ReactiveElement).elementStyles, dialogStyles]);
    element.requestUpdate();
  }

  /** Whether a request (or the resume offer) is being shown. */
  get open(): boolean {
    return this.#active !== undefined || this.#resumeOffer !== undefined;
  }

  /** The element left the page: its stored calls stay, to be offered again; the requests it was asking fail. */
  abandon(error: McpClientError): void {
    this.#store.release();
    for (const ask of [...this.#queue, ...(this.#active ? [this.#active] : [])]) ask.reject(error);
    this.#queue.length = 0;
    this.#active = undefined;
    this.#el.requestUpdate();
  }

  #setResume(pending: PendingCall | undefined): void {
    this.#resumeOffer = pending;
    this.#el.requestUpdate();
  }

  // --- rounds, persistence and resume -------------------------------------------------------------

  /** A round event of a call (the shell keeps the list): the timeline of the shown call follows; a finished call's record goes. */
  onRound(key: string, event: RoundEvent): void {
    if (this.#active && callKey(this.#active.client, this.#active.context.callId) === key) this.#el.requestUpdate();
    this.#store.onRound(key, event);
  }

  /** Writes every stored call to this tab's journal (from `pagehide`: synchronous, the page may be gone before an IndexedDB write ends). */
  journal(): void {
    this.#store.journal();
  }

  /** Whether the resume offer is shown. */
  get offering(): boolean {
    return this.#resumeOffer !== undefined;
  }

  /** Offers to resume `pending` (found by the shell on connect). */
  async offerResume(pending: PendingCall): Promise<void> {
    if (this.#resumeOffer) return;
    this.#setResume(pending);
    await this.#show();
  }

  async #resume(accept: boolean): Promise<void> {
    const pending = this.#resumeOffer;
    const client = this.#el.client;
    this.#setResume(undefined);
    if (!pending || !client) return this.#hideIfIdle();
    await clearPending(pending.id);
    if (!accept) return this.#hideIfIdle();
    this.#hideIfIdle();
    // The answers typed before the reload come back in the requests they were typed for.
    if (pending.answers && pending.interim.inputRequests) this.#restored = { answers: pending.answers, requests: pending.interim.inputRequests };
    try {
      const params = pending.params as { name?: string; arguments?: Record<string, unknown>; uri?: string };
      if (pending.method === 'tools/call' && params.name) {
        const result = await client.callTool(params.name, params.arguments ?? {}, { resumeFrom: pending.interim });
        if (result.resultType !== 'input_required') this.#host.emit(new McpToolResultEvent(params.name, params.arguments ?? {}, result));
      } else if (pending.method === 'prompts/get' && params.name) {
        await client.getPrompt(params.name, (params.arguments ?? {}) as Record<string, string>, { resumeFrom: pending.interim });
      } else if (pending.method === 'resources/read' && params.uri) {
        await client.readResource(params.uri, { resumeFrom: pending.interim });
      }
    } catch (error) {
      const failure = McpError.isInstance(error) ? error : new McpClientError('protocol', String(error));
      this.#host.emit(new McpErrorEvent(failure, 'resume'));
    } finally {
      this.#restored = undefined;
    }
  }

  // --- asking ---------------------------------------------------------------------------------------

  /** Requests waiting to be shown (the one shown not counted). */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Answers one input request the shell could not answer unasked (no host, no policy answer): `accept-defaults`, else the dialog. */
  async ask(client: McpClient, request: InputRequest, context: InputContext): Promise<InputResponse> {
    const automatic = this.#el.policy === 'accept-defaults' ? await this.#acceptDefaults(request, context) : undefined;
    if (automatic !== undefined) return automatic;
    this.#store.persist(client, context);
    if (request.method === 'elicitation/create' && request.params.mode !== 'url') {
      // A chunk that cannot load (offline): a typed error, as when the body cannot load; the next request tries again.
      const unsupported = (what: string) => (error: unknown) => {
        throw McpError.isInstance(error) ? error : new McpClientError('input_unsupported', `The elicitation dialog cannot be shown: ${what} could not be loaded (${(error as Error).message})`);
      };
      const schema = (request.params as ElicitRequestFormParams).requestedSchema;
      await Promise.all([
        ensureValidator(schema ?? true).catch(unsupported('the schema validator')),
        // The search of a long choice, before the request is shown (form-view.ts).
        hasLongChoice(schema) ? loadCombobox().catch(unsupported('the search of its long list of choices')) : undefined,
      ]);
    }

    return new Promise<InputResponse>((resolve, reject) => {
      // Removed from the page while the validator loaded: nobody would see the question.
      if (!this.#el.isConnected) return reject(new McpClientError('aborted', 'The elicitation dialog was removed from the page'));
      const ask = prepareAsk(client, request, context, resolve, reject, () => this.#host.roots());
      ask.mustReview = this.#el.reviewRequired?.(request, context) === true;
      if (restoreAnswer(ask, this.#restored)) this.#store.saveAnswer(ask);
      const onAbort = () => {
        const index = this.#queue.indexOf(ask);
        if (index >= 0) this.#queue.splice(index, 1);
        if (this.#active === ask) this.#next();
        reject(context.signal.reason);
      };
      if (context.signal.aborted) return onAbort();
      context.signal.addEventListener('abort', onAbort, { once: true });
      const done = () => context.signal.removeEventListener('abort', onAbort);
      ask.resolve = (value) => {
        done();
        resolve(value);
      };
      // The abort listener stays: a completion from the server still takes the ask off the dialog.
      ask.answerEarly = (value) => resolve(value);
      ask.reject = (error) => {
        done();
        reject(error);
      };
      this.#queue.push(ask);
      if (!this.#active) this.#next();
    });
  }

  /** The `accept-defaults` policy: undefined when the user must be asked after all. */
  async #acceptDefaults(request: InputRequest, context: InputContext): Promise<InputResponse | undefined> {
    if (request.method === 'elicitation/create') {
      const isUrl = request.params.mode === 'url';
      if (isUrl) return reviewUrl(String((request.params as ElicitRequestUrlParams).url)).ok ? { action: 'accept' } : { action: 'decline' };
      const parsed = parseRequestedSchema((request.params as ElicitRequestFormParams).requestedSchema);
      if ('error' in parsed || parsed.fields.some((f) => f.required && f.default === undefined)) return undefined;
      return { action: 'accept', content: Object.fromEntries(initialValues(parsed.fields)) };
    }
    if (request.method === 'roots/list') return { roots: this.#host.roots() ?? [] };
    const sampling = this.#el.samplingHandler;
    return sampling ? sampling(request.params as CreateMessageRequestParams, context) : undefined;
  }

  #next(): void {
    this.#active = this.#queue.shift();
    this.#el.requestUpdate();
    if (this.#active) {
      void this.#show();
      if (this.#active.kind === 'sampling') void this.#draft(this.#active);
    } else this.#hideIfIdle();
  }

  async #show(): Promise<void> {
    await this.#el.updateComplete;
    const dialog = this.#el.renderRoot.querySelector('dialog');
    if (!dialog) return;
    if (!dialog.open) {
      this.#returnFocus = activeElement();
      if (this.#el.inline) dialog.show();
      else dialog.showModal();
      this.#host.internals.states.add('open');
    }
    await this.#el.updateComplete;
    const first = this.#el.renderRoot.querySelector<HTMLElement>('[autofocus]') ?? this.#el.renderRoot.querySelector<HTMLElement>('input, select, textarea, button');
    first?.focus();
  }

  #hideIfIdle(): void {
    if (this.#active || this.#resumeOffer) return;
    const dialog = this.#el.renderRoot.querySelector('dialog');
    if (dialog?.open) dialog.close();
    this.#host.internals.states.delete('open');
    const target = this.#returnFocus;
    this.#returnFocus = null;
    if (target?.isConnected) target.focus();
  }

  #finish(ask: Ask, outcome: { response: InputResponse } | { error: unknown }): void {
    if ('response' in outcome) ask.resolve(outcome.response);
    else ask.reject(outcome.error);
    if (this.#active === ask) this.#next();
  }

  async #draft(ask: Ask): Promise<void> {
    if (!this.#el.samplingHandler || !ask.draft) return;
    ask.draft.drafting = true;
    this.#el.requestUpdate();
    try {
      const result = await this.#el.samplingHandler(ask.request.params as CreateMessageRequestParams, ask.context);
      const blocks = Array.isArray(result.content) ? result.content : [result.content];
      ask.draft.text = blocks.map((b) => (b.type === 'text' ? String((b as { text: string }).text) : '')).join('\n');
      ask.draft.model = result.model;
    } catch (error) {
      ask.draft.error = `The draft could not be made: ${(error as Error).message}`;
    } finally {
      ask.draft.drafting = false;
      this.#el.requestUpdate();
    }
  }

  // --- actions --------------------------------------------------------------------------------------

  /** Escape or the dialog's cancel: the resume offer is discarded; a request's round is cancelled. */
  cancel(): void {
    if (this.#resumeOffer) return void this.#resume(false);
    const ask = this.#active;
    // The dialog closes: the rest of the round is cancelled too, not asked one by one.
    if (ask) this.#refuseRest(ask, 'cancel');
  }

  #dismiss(ask: Ask, action: 'decline' | 'cancel'): void {
    if (ask.kind === 'form' || ask.kind === 'url') return this.#finish(ask, { response: { action } });
    if (ask.kind === 'roots') return this.#finish(ask, { response: { roots: [] } });
    this.#finish(ask, { error: new McpClientError('declined', 'You rejected the sampling request', { key: ask.context.key }) });
  }

  /** Requests still to come in the ask's round after it, plus those already waiting for the same call. */
  #remaining(ask: Ask): number {
    const key = callKey(ask.client, ask.context.callId);
    return ask.context.total - ask.context.index - 1 + this.#queue.filter((other) => callKey(other.client, other.context.callId) === key).length;
  }

  /** Answers this request and every later one of its round (waiting or still to come) with `action`, unasked. */
  #refuseRest(ask: Ask, action: 'decline' | 'cancel'): void {
    const key = callKey(ask.client, ask.context.callId);
    // Legacy requests all share call 0, round 0: only those already waiting are answered.
    if (ask.context.server.era !== 'legacy') this.#host.refused.set(roundKey(ask.client, ask.context), action);
    for (const other of this.#queue.filter((waiting) => callKey(waiting.client, waiting.context.callId) === key)) {
      this.#queue.splice(this.#queue.indexOf(other), 1);
      this.#settle(other, action);
    }
    this.#settle(ask, action);
    if (this.#active === ask) this.#next();
  }

  /** Ends the call: this request and those waiting for it fail, so the client sends nothing more. */
  #stopCall(ask: Ask): void {
    const key = callKey(ask.client, ask.context.callId);
    const error = new McpClientError('aborted', `You stopped ${ask.context.method}${ask.context.target ? ` ${clip(ask.context.target, LABEL_CHARS)}` : ''} from the input dialog`, {
      url: ask.context.url,
      method: ask.context.method,
      stoppedByUser: true,
    });
    for (const other of this.#queue.filter((waiting) => callKey(waiting.client, waiting.context.callId) === key)) {
      this.#queue.splice(this.#queue.indexOf(other), 1);
      other.reject(error);
    }
    this.#finish(ask, { error });
  }

  #settle(ask: Ask, action: 'decline' | 'cancel'): void {
    try {
      ask.resolve(refusalSync(ask.request.method, action, ask.context));
    } catch (error) {
      ask.reject(error);
    }
  }

  /** Validates the form; on failure marks the fields and focuses the first one. */
  #validate(ask: Ask): boolean {
    checkForm(ask);
    this.#el.requestUpdate();
    if (ask.errors.size > 0) {
      void this.#el.updateComplete.then(() => this.#el.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return false;
    }
    return ask.formError === undefined;
  }

  #onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    const ask = this.#active;
    if (!ask) return;
    if (ask.kind === 'form' && ask.fields) {
      if (ask.step === 'fill') {
        if (this.#validate(ask)) {
          // A valid form is accepted in one step (Accept, or Enter in a field); Review, or a request the host marks sensitive, shows the review first.
          if ((event.submitter as HTMLElement | null)?.dataset.action === 'accept' && !ask.mustReview) {
            return this.#finish(ask, { response: { action: 'accept', content: formContent(ask) } });
          }
          ask.step = 'review';
          this.#el.requestUpdate();
          void this.#el.updateComplete.then(() => this.#el.renderRoot.querySelector<HTMLElement>('[data-action="accept"]')?.focus());
        }
        return;
      }
      return this.#finish(ask, { response: { action: 'accept', content: formContent(ask) } });
    }
  };


  // --- rendering ------------------------------------------------------------------------------------

  /** The dialog's content (the shell renders the `<dialog>` around it). */
  render(): TemplateResult | typeof nothing {
    const ask = this.#active;
    return this.#resumeOffer && !ask ? renderResume(this.#view, this.#resumeOffer) : ask ? this.#renderSafely(ask) : nothing;
  }

  /**
   * Renders a request; one the kit cannot show (a shape no check foresaw) is
   * answered with an error instead of breaking the dialog, and the queue goes on.
   */
  #renderSafely(ask: Ask): TemplateResult | typeof nothing {
    try {
      return this.#renderAsk(ask);
    } catch (error) {
      queueMicrotask(() => this.#finish(ask, { error: new McpClientError('protocol', `The request could not be shown: ${(error as Error).message}`, { key: ask.context.key }) }));
      return nothing;
    }
  }

  #renderAsk(ask: Ask): TemplateResult {
    switch (ask.kind) {
      case 'form':
        return renderForm(this.#view, ask);
      case 'url':
        return renderUrl(this.#view, ask);
      case 'sampling':
        return renderSampling(this.#view, ask);
      case 'roots':
        return renderRoots(this.#view, ask);
    }
  }
}
