/**
 * The body of `<mcp-elicitation-dialog>`: asking the user (form and URL
 * elicitation, sampling, roots), the review steps, storing unanswered rounds
 * for resume, and the rendering of all of it. The element
 * (mcp-elicitation-dialog.ts) loads this module with `import()` when the first
 * request is to be shown or a call can be resumed (issue 18: a page pays for
 * the dialog when it is used); until then it registers the client's input
 * handlers, fires `mcp-input-required`, applies the function, `decline` and
 * `cancel` policies and keeps the round history on its own.
 *
 * @module
 */
import { adoptStyles, html, nothing, type ReactiveElement, type TemplateResult } from 'lit';
import {
  ensureValidator,
  compileSchemaSync,
  McpClientError,
  McpError,
  type ContentBlock,
  type CreateMessageRequestParams,
  type ElicitRequestFormParams,
  type ElicitRequestUrlParams,
  type InputContext,
  type InputRequest,
  type InputRequiredResult,
  type InputResponse,
  type ListRootsResult,
  type McpClient,
  type Root,
  type RoundEvent,
  type Validator,
} from '../../src/index.js';
import { McpErrorEvent, McpToolResultEvent } from '../events.js';
import { searchCombobox } from '../internal/combobox.js';
import { clip } from '../internal/json.js';
import { DESCRIPTION_CHARS, LABEL_CHARS, labelsOf, MATCHES_SHOWN, optionNamed, SEARCH_OVER, searchLabels, VALUE_CHARS } from '../internal/long-list.js';
import { takeStorageNotice } from '../internal/store.js';
import { callKey, refusalSync, roundKey } from './calls.js';
import type { DialogElement, DialogHost } from './dialog-host.js';
import { describeValue, fromLocalInput, initialValues, parseRequestedSchema, toLocalInput, type Field, type FieldValue } from './elicitation-form.js';
import { dialogStyles } from './mcp-elicitation-dialog.styles.js';
import { clearPending, holdPending, journalPending, saveAnswers, savePending, type PendingCall, type SavedAnswer } from './pending.js';
import { reviewUrl, type UrlReview } from './url.js';

type Kind = 'form' | 'url' | 'sampling' | 'roots';

interface Ask {
  kind: Kind;
  /** The client whose call asks (call ids are per client). */
  client: McpClient;
  request: InputRequest;
  context: InputContext;
  resolve(response: InputResponse): void;
  reject(error: unknown): void;
  step: 'fill' | 'review' | 'opened';
  fields?: Field[];
  formError?: string;
  /** A remark about checking the answer (schema not checkable, checks left out); does not block. */
  notice?: string;
  values: Map<string, FieldValue>;
  /** Number text that cannot be sent (2.5 for a whole number…): kept as typed, and named at review, never dropped. */
  typed: Map<string, { text: string; message: string }>;
  errors: Map<string, string>;
  url?: UrlReview;
  draft?: { text: string; model: string; drafting: boolean; error?: string };
  roots?: Root[];
  /** Searches of long choices (by field key): what is typed, whether matches are listed, which is active. */
  searches: Map<string, { query: string; open: boolean; active: number }>;
  /** Long texts the user asked to see in full (`message`, a field key…). */
  full: Set<string>;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const AUDIO_TYPES = new Set(['audio/wav', 'audio/x-wav', 'audio/mpeg', 'audio/ogg', 'audio/webm', 'audio/mp4']);

/** Sampling messages (and content blocks of one) shown at most. */
const MESSAGES_SHOWN = 50;

/** How long ago, in words: "just now" under a minute (a reload seconds old), then minutes. */
function timeAgo(ms: number): string {
  if (ms < 60_000) return 'just now';
  const minutes = Math.round(ms / 60_000);
  return minutes === 1 ? 'about a minute ago' : `about ${minutes} minutes ago`;
}


/** A call the dialog keeps for resume: its record id, the lock that marks it alive, and its writes. */
interface StoredCall {
  id: string;
  release: () => void;
  record?: PendingCall;
  saving?: Promise<void>;
  again?: boolean;
  /** The record itself (not only its answers) has changed since it was last written. */
  callDirty?: boolean;
  /** The record itself was stored (only its answers may be behind). */
  callStored?: boolean;
}

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
  /** Calls this dialog is asking about, stored for resume: record id and the lock that marks them alive. */
  readonly #pending = new Map<string, StoredCall>();
  /** Answers typed before a reload, for the call being resumed (by input request key), and the requests they answer. */
  #restored: { answers: Record<string, SavedAnswer>; requests: Record<string, unknown> } | undefined;
  #returnFocus: HTMLElement | null = null;

  constructor(element: DialogElement, host: DialogHost) {
    this.#el = element;
    this.#host = host;
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
    for (const { release } of this.#pending.values()) release();
    this.#pending.clear();
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
    const stored = this.#pending.get(key);
    if (stored && (event.phase === 'complete' || event.phase === 'error')) {
      this.#pending.delete(key);
      stored.release();
      void clearPending(stored.id);
    }
  }

  /**
   * Stores the round the user is being asked about, so a reload can resume it. Only
   * rounds this dialog shows are stored — not manual-mode calls, nor ones a host or
   * a policy answered — one record per call, updated each round.
   */
  #persist(client: McpClient, context: InputContext): void {
    if (this.#el.noResume) return;
    const key = callKey(client, context.callId);
    const round = this.#host.rounds.get(key)?.findLast((event) => event.phase === 'input_required');
    if (!round) return;
    let stored = this.#pending.get(key);
    if (!stored) {
      const id = crypto.randomUUID();
      stored = { id, release: holdPending(id) };
      this.#pending.set(key, stored);
    }
    const interim: InputRequiredResult = {
      resultType: 'input_required',
      ...(round.inputRequests ? { inputRequests: round.inputRequests } : {}),
      ...(round.requestState !== undefined ? { requestState: round.requestState } : {}),
    };
    // A new round keeps no answers of the last one (its requests are new).
    const answers = stored.record && stored.record.interim.requestState === interim.requestState && stored.record.interim.inputRequests === interim.inputRequests ? stored.record.answers : undefined;
    stored.record = { id: stored.id, url: client.url.href, method: round.method, target: round.target, params: round.params, interim, ...(answers ? { answers } : {}), savedAt: Date.now() };
    this.#writePending(stored);
  }

  /**
   * Stores a call's record (`what: 'call'`, once a round: it holds the
   * server's requests, which may be large) or only its answers (on every
   * change), one write at a time per call; a change made meanwhile is written
   * right after.
   */
  #writePending(stored: StoredCall, what: 'call' | 'answers' = 'call'): void {
    if (what === 'call') {
      stored.callDirty = true;
      stored.callStored = false;
    }
    if (stored.saving) {
      stored.again = true;
      return;
    }
    const record = stored.record;
    if (!record) return;
    const whole = stored.callDirty === true;
    stored.callDirty = false;
    stored.saving = (whole ? savePending(record).then(() => {
          stored.callStored = true;
        }) : saveAnswers(record.id, record.answers ?? {})).finally(() => {
      stored.saving = undefined;
      const notice = takeStorageNotice();
      if (notice) this.#host.tell(notice);
      if (stored.again) {
        stored.again = false;
        this.#writePending(stored, 'answers');
      }
    });
  }

  /** Records what the user typed for `ask` with its call, as it is typed (a reload must not lose it). */
  #saveAnswer(ask: Ask): void {
    const stored = this.#pending.get(callKey(ask.client, ask.context.callId));
    if (!stored?.record) return;
    const answer: SavedAnswer = { values: [...ask.values], typed: [...ask.typed], ...(ask.draft ? { reply: ask.draft.text } : {}) };
    const answers: Record<string, SavedAnswer> = {};
    for (const [key, value] of Object.entries(stored.record.answers ?? {})) Object.defineProperty(answers, key, { value, enumerable: true, writable: true, configurable: true });
    Object.defineProperty(answers, ask.context.key, { value: answer, enumerable: true, writable: true, configurable: true });
    stored.record = { ...stored.record, answers, savedAt: Date.now() };
    this.#writePending(stored, 'answers');
  }

  /** Writes every stored call to this tab's journal (from `pagehide`: synchronous, the page may be gone before an IndexedDB write ends). */
  journal(): void {
    for (const stored of this.#pending.values()) if (stored.record) journalPending(stored.record, !stored.callStored || stored.callDirty === true);
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
    this.#persist(client, context);
    if (request.method === 'elicitation/create' && request.params.mode !== 'url') {
      // Its chunk cannot load (offline): a typed error, as when the body cannot load; the next request tries again.
      await ensureValidator((request.params as ElicitRequestFormParams).requestedSchema ?? true).catch((error: unknown) => {
        throw McpError.isInstance(error) ? error : new McpClientError('input_unsupported', `The elicitation dialog cannot be shown: the schema validator could not be loaded (${(error as Error).message})`);
      });
    }

    return new Promise<InputResponse>((resolve, reject) => {
      // Removed from the page while the validator loaded: nobody would see the question.
      if (!this.#el.isConnected) return reject(new McpClientError('aborted', 'The elicitation dialog was removed from the page'));
      const ask = this.#prepare(client, request, context, resolve, reject);
      if (this.#restoreAnswer(ask)) this.#saveAnswer(ask);
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
      ask.reject = (error) => {
        done();
        reject(error);
      };
      this.#queue.push(ask);
      if (!this.#active) this.#next();
    });
  }

  #prepare(client: McpClient, request: InputRequest, context: InputContext, resolve: Ask['resolve'], reject: Ask['reject']): Ask {
    const base = {
      client,
      request,
      context,
      resolve,
      reject,
      step: 'fill' as const,
      values: new Map<string, FieldValue>(),
      typed: new Map<string, { text: string; message: string }>(),
      errors: new Map<string, string>(),
      searches: new Map<string, { query: string; open: boolean; active: number }>(),
      full: new Set<string>(),
    };
    if (request.method === 'elicitation/create') {
      if (request.params.mode === 'url') return { ...base, kind: 'url', url: reviewUrl(String((request.params as ElicitRequestUrlParams).url)) };
      const parsed = parseRequestedSchema((request.params as ElicitRequestFormParams).requestedSchema);
      if ('error' in parsed) return { ...base, kind: 'form', formError: parsed.error };
      return { ...base, kind: 'form', fields: parsed.fields, values: initialValues(parsed.fields) };
    }
    if (request.method === 'sampling/createMessage') return { ...base, kind: 'sampling', draft: { text: '', model: 'user', drafting: false } };
    return { ...base, kind: 'roots', roots: this.#host.roots() ?? [] };
  }

  /** Puts back what was typed for this very request before a reload; true when something was. */
  #restoreAnswer(ask: Ask): boolean {
    const restored = this.#restored;
    const saved = restored && Object.hasOwn(restored.answers, ask.context.key) ? restored.answers[ask.context.key] : undefined;
    // Only into the same request: a server that asks something else under the key gets an empty form.
    if (!saved || !restored || JSON.stringify(restored.requests[ask.context.key]) !== JSON.stringify(ask.request)) return false;
    const known = new Set((ask.fields ?? []).map((field) => field.key));
    for (const [key, value] of saved.values) if (known.has(key)) ask.values.set(key, value);
    for (const [key, value] of saved.typed) if (known.has(key)) ask.typed.set(key, value);
    if (ask.draft && saved.reply !== undefined) ask.draft.text = saved.reply;
    return true;
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

  /** "Decline all" and "Stop the call": at any point of a round, one action ends it. */
  #roundActions(ask: Ask): TemplateResult {
    const remaining = this.#remaining(ask);
    return html`${remaining > 0
        ? html`<button type="button" data-action="decline-rest" @click=${() => this.#refuseRest(ask, 'decline')}>Decline all ${remaining + 1}</button>`
        : nothing}
      <button type="button" data-action="stop" @click=${() => this.#stopCall(ask)}>Stop the call</button>`;
  }

  #content(ask: Ask): Record<string, FieldValue> {
    const content: Record<string, FieldValue> = {};
    for (const field of ask.fields ?? []) {
      let value = ask.values.get(field.key);
      // A required yes/no nobody ticked is the unchecked box the user saw: false, as <mcp-tool-form> sends it.
      if (value === undefined && field.kind === 'boolean' && field.required) value = false;
      if (value === undefined || value === '') continue;
      if (Array.isArray(value) && value.length === 0 && !field.required) continue;
      // Keys are the server's: "__proto__" must become an own key, not the prototype.
      Object.defineProperty(content, field.key, { value, enumerable: true, writable: true, configurable: true });
    }
    return content;
  }

  /** Validates the form; on failure marks the fields and focuses the first one. */
  #validate(ask: Ask): boolean {
    ask.errors.clear();
    ask.formError = undefined;
    ask.notice = undefined;
    const content = this.#content(ask);
    for (const field of ask.fields ?? []) {
      // What the user typed and why it cannot be sent, rather than "required" for a field that is not empty.
      const typed = ask.typed.get(field.key);
      if (typed) ask.errors.set(field.key, typed.message);
      else if (field.required && !Object.hasOwn(content, field.key)) ask.errors.set(field.key, 'This field is required.');
    }
    let validate: Validator | undefined;
    try {
      validate = compileSchemaSync((ask.request.params as ElicitRequestFormParams).requestedSchema);
    } catch (error) {
      // A schema the kit cannot compile (unsupported dialect, a CSP without 'unsafe-eval') must not
      // trap the user: the field checks above still apply, and the answer can be sent.
      ask.notice = `The answer is checked field by field only: ${(error as Error).message}`;
    }
    if (validate?.skipped?.length) ask.notice = validate.skipped.join(' ');
    const result = validate?.(content);
    if (result && !result.valid) {
      for (const issue of result.issues) {
        // A JSON Pointer: only ~1 and ~0 are escapes (no percent-decoding: "%41" is a key as is).
        const key = (issue.path.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
        if (key && !ask.errors.has(key)) ask.errors.set(key, issue.keyword === 'required' ? 'This field is required.' : `This value ${issue.message}.`);
        else if (!key) ask.formError = `The answer is not valid: ${issue.message}.`;
      }
    }
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
          ask.step = 'review';
          this.#el.requestUpdate();
          void this.#el.updateComplete.then(() => this.#el.renderRoot.querySelector<HTMLElement>('[data-action="accept"]')?.focus());
        }
        return;
      }
      return this.#finish(ask, { response: { action: 'accept', content: this.#content(ask) } });
    }
  };

  /** A multiple choice's values as they are now, not as the last render saw them: boxes ticked before the next render (in one task) add up. */
  #chosen(ask: Ask, field: Field): string[] {
    return (ask.values.get(field.key) as string[] | undefined) ?? [];
  }

  #setValue(ask: Ask, field: Field, value: FieldValue | undefined): void {
    if (value === undefined) ask.values.delete(field.key);
    else ask.values.set(field.key, value);
    ask.typed.delete(field.key);
    ask.errors.delete(field.key);
    this.#saveAnswer(ask);
    this.#el.requestUpdate();
  }

  /** Number text that cannot be sent: nothing is sent for the field, and the text stays as typed. */
  #setTyped(ask: Ask, field: Field, text: string, message: string): void {
    ask.values.delete(field.key);
    ask.typed.set(field.key, { text, message });
    ask.errors.set(field.key, message);
    this.#saveAnswer(ask);
    this.#el.requestUpdate();
  }

  #openUrl(ask: Ask): void {
    if (!ask.url?.ok) return;
    // A new top-level tab the page cannot script or read (client/elicitation "Safe URL Handling").
    window.open(ask.url.href, '_blank', 'noopener,noreferrer');
    ask.step = 'opened';
    this.#el.requestUpdate();
    void this.#el.updateComplete.then(() => this.#el.renderRoot.querySelector<HTMLElement>('[data-action="continue"]')?.focus());
  }

  #sendSample(ask: Ask): void {
    const draft = ask.draft!;
    const text = draft.text.trim();
    if (!text) {
      ask.errors.set('reply', 'Write a reply, or reject the request.');
      this.#el.requestUpdate();
      return;
    }
    this.#finish(ask, { response: { role: 'assistant', content: { type: 'text', text }, model: draft.model.trim() || 'user', stopReason: 'endTurn' } });
  }

  // --- rendering ------------------------------------------------------------------------------------

  /** The dialog's content (the shell renders the `<dialog>` around it). */
  render(): TemplateResult | typeof nothing {
    const ask = this.#active;
    return this.#resumeOffer && !ask ? this.#renderResume(this.#resumeOffer) : ask ? this.#renderSafely(ask) : nothing;
  }

  #renderHeader(ask: Ask, title: string): TemplateResult {
    const server = ask.context.server.serverInfo;
    let host = ask.context.url;
    try {
      host = new URL(ask.context.url).host;
    } catch {
      /* keep the raw URL */
    }
    const name = clip(server ? (server.title ?? server.name) : 'The server', 120);
    return html`<div part="header">
      <h2 id="title" part="title">${title}</h2>
      <p part="server">Asked by ${name} at <span part="server-host">${host}</span></p>
      ${ask.context.taskId ? html`<p part="task">For a task that is still running${ask.context.target ? html` (<code>${clip(ask.context.target, LABEL_CHARS)}</code>)` : nothing}: it goes on once you answer.</p>` : nothing}
      ${ask.context.round > 0 || ask.context.total > 1
        ? html`<p part="progress">${[ask.context.round > 0 ? `Round ${ask.context.round}` : '', ask.context.total > 1 ? `request ${ask.context.index + 1} of ${ask.context.total}` : ''].filter(Boolean).join(' · ')}</p>`
        : nothing}
    </div>`;
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
        return this.#renderForm(ask);
      case 'url':
        return this.#renderUrl(ask);
      case 'sampling':
        return this.#renderSampling(ask);
      case 'roots':
        return this.#renderRoots(ask);
    }
  }

  #renderTimeline(ask: Ask): TemplateResult | typeof nothing {
    const rounds = this.#host.rounds.get(callKey(ask.client, ask.context.callId));
    if (!rounds || rounds.length === 0) return nothing;
    const describe = (event: RoundEvent) => {
      if (event.phase === 'input_required') {
        const asked = Object.entries(event.inputRequests ?? {}).map(([key, r]) => `${key} (${String(r?.method)}${r?.method === 'elicitation/create' && (r.params as { mode?: string } | undefined)?.mode === 'url' ? ', URL' : ''})`);
        return `Round ${event.round}: the server asked for ${asked.length ? asked.join(', ') : 'a retry'}`;
      }
      if (event.phase === 'answered') {
        const answers = Object.entries(event.inputResponses ?? {}).map(([key, r]) => `${key}: ${'action' in r ? String(r.action) : 'roots' in r ? `${(r as ListRootsResult).roots.length} root(s)` : 'reply'}`);
        return `Round ${event.round}: answered ${answers.join(', ')}`;
      }
      return event.phase === 'complete' ? `Round ${event.round}: done` : `Round ${event.round}: failed`;
    };
    return html`<details part="timeline">
      <summary>History of this call (${ask.context.method} ${clip(ask.context.target ?? '', LABEL_CHARS)})</summary>
      <ol>
        ${rounds.map((event) => html`<li>${clip(describe(event), DESCRIPTION_CHARS)}</li>`)}
      </ol>
    </details>`;
  }

  #renderForm(ask: Ask): TemplateResult {
    const params = ask.request.params as ElicitRequestFormParams;
    const reviewing = ask.step === 'review';
    return html`<form method="dialog" novalidate @submit=${this.#onSubmit}>
      ${this.#renderHeader(ask, reviewing ? 'Review your answer' : 'The server asks for information')}
      ${this.#message(ask, params.message)}
      ${ask.formError ? html`<p part="error" role="alert">${ask.formError}</p>` : nothing}
      ${ask.notice ? html`<p part="warning">${ask.notice}</p>` : nothing}
      ${ask.fields && !reviewing ? html`<fieldset part="fields">${ask.fields.map((field, i) => this.#renderField(ask, field, i))}</fieldset>` : nothing}
      ${ask.fields && reviewing
        ? html`<dl part="review" aria-label="Values to send">
            ${ask.fields.map((field) => html`<dt>${clip(field.label, LABEL_CHARS)}</dt><dd>${clip(describeValue(field, this.#content(ask)[field.key]), DESCRIPTION_CHARS)}</dd>`)}
          </dl>`
        : nothing}
      ${this.#renderTimeline(ask)}
      <div part="actions">
        ${ask.fields
          ? reviewing
            ? html`<button type="button" data-action="edit" @click=${() => ((ask.step = 'fill'), this.#el.requestUpdate())}>Edit</button>
                <button type="submit" class="primary" data-action="accept">Accept</button>`
            : html`<button type="submit" class="primary" data-action="review">Review</button>`
          : nothing}
        <button type="button" data-action="decline" @click=${() => this.#dismiss(ask, 'decline')}>Decline</button>
        <button type="button" data-action="cancel" @click=${() => this.#dismiss(ask, 'cancel')}>Cancel</button>
        ${this.#roundActions(ask)}
      </div>
    </form>`;
  }

  /** Server text shown within a budget: cut past DESCRIPTION_CHARS, with "Show all". */
  #longText(ask: Ask, key: string, text: string): { shown: string; toggle: TemplateResult | typeof nothing } {
    if (text.length <= DESCRIPTION_CHARS) return { shown: text, toggle: nothing };
    const full = ask.full.has(key);
    const toggle = html`<button
      type="button"
      part="show-all-button"
      class="small"
      data-action="show-all"
      aria-expanded=${full ? 'true' : 'false'}
      @click=${() => {
        if (!ask.full.delete(key)) ask.full.add(key);
        this.#el.requestUpdate();
      }}
    >
      ${full ? 'Show less' : `Show all ${text.length.toLocaleString('en')} characters`}
    </button>`;
    return { shown: full ? text : clip(text, DESCRIPTION_CHARS), toggle };
  }

  #message(ask: Ask, message: unknown): TemplateResult {
    const { shown, toggle } = this.#longText(ask, '\u0000message', String(message));
    return html`<p id="message" part="message">${shown}</p>${toggle}`;
  }

  /**
   * A choice among more than SEARCH_OVER options: a text input checked against
   * them, listing at most MATCHES_SHOWN that contain what is typed (ARIA
   * combobox). Typed text that names no option is kept and flagged, never sent.
   */
  #renderSearch(ask: Ask, field: Field & { kind: 'choice' }, id: string, label: TemplateResult, hint: TemplateResult | typeof nothing, errorText: TemplateResult | typeof nothing, describedBy: string | typeof nothing): TemplateResult {
    const labels = labelsOf(field.options);
    const state = ask.searches.get(field.key) ?? { query: '', open: false, active: 0 };
    const value = ask.values.get(field.key);
    const notAllowed = 'Pick one of the allowed values from the list.';
    return html`<div class="field" data-field=${field.key}>
      <label for=${id}>${label}</label>
      ${searchCombobox({
        id,
        labels,
        selected: typeof value === 'string' ? field.options.findIndex((option) => option.value === value) : -1,
        typed: ask.typed.get(field.key)?.text,
        // What was typed last, even when it named a value (the list keeps showing what matches it).
        query: state.query,
        state,
        setState: (next) => {
          ask.searches.set(field.key, { ...state, ...next });
          this.#el.requestUpdate();
        },
        pick: (index) => {
          ask.searches.set(field.key, { query: '', open: false, active: 0 });
          this.#setValue(ask, field, field.options[index]!.value);
        },
        input: (text) => {
          ask.searches.set(field.key, { query: text, open: true, active: 0 });
          if (text === '') this.#setValue(ask, field, undefined);
          else {
            const named = optionNamed(labels, text);
            if (named !== -1) {
              // Typed in full: the value, still listed so the user sees it matched.
              this.#setValue(ask, field, field.options[named]!.value);
            } else this.#setTyped(ask, field, text, notAllowed);
          }
        },
        describedBy: describedBy === nothing ? undefined : describedBy,
        invalid: ask.errors.has(field.key) ? 'true' : 'false',
        required: field.required,
        listLabel: 'Values',
        inlineCount: true,
      })}
      ${hint}${errorText}
    </div>`;
  }

  /**
   * A multiple choice among more than SEARCH_OVER options: a search box, the
   * options chosen, and at most MATCHES_SHOWN of the others that match.
   */
  #renderManyChoices(ask: Ask, field: Field & { kind: 'multi' }, id: string, legend: TemplateResult, hint: TemplateResult | typeof nothing, errorText: TemplateResult | typeof nothing, describedBy: string | typeof nothing): TemplateResult {
    const labels = labelsOf(field.options);
    const state = ask.searches.get(field.key) ?? { query: '', open: false, active: 0 };
    const chosen = new Set((ask.values.get(field.key) as string[] | undefined) ?? []);
    const matches = searchLabels(labels, state.query, MATCHES_SHOWN + chosen.size);
    const chosenIndices = field.options.flatMap((option, i) => (chosen.has(option.value) ? [i] : []));
    const others = matches.indices.filter((i) => !chosen.has(field.options[i]!.value)).slice(0, MATCHES_SHOWN);
    const toggle = (value: string, on: boolean) => {
      const next = new Set(this.#chosen(ask, field));
      if (on) next.add(value);
      else next.delete(value);
      this.#setValue(ask, field, field.options.map((o) => o.value).filter((v) => next.has(v)));
    };
    const box = (index: number) => {
      const option = field.options[index]!;
      return html`<label><input type="checkbox" id="${id}-${index}" .checked=${chosen.has(option.value)} @change=${(e: Event) => toggle(option.value, (e.target as HTMLInputElement).checked)} />${clip(option.label, LABEL_CHARS)}</label>`;
    };
    const more = matches.total - chosenIndices.filter((i) => labels[i]!.toLowerCase().includes(state.query.trim().toLowerCase())).length - others.length;
    return html`<fieldset class="field" data-field=${field.key} aria-describedby=${describedBy}>
      <legend>${legend}</legend>
      <label for=${id}>Search the ${field.options.length.toLocaleString('en')} values</label>
      <input id=${id} type="search" autocomplete="off" .value=${state.query} @input=${(e: Event) => {
        ask.searches.set(field.key, { ...state, query: (e.target as HTMLInputElement).value });
        this.#el.requestUpdate();
      }} />
      <div class="choices">${chosenIndices.map(box)}${others.map(box)}</div>
      ${more > 0 ? html`<span part="hint">${more.toLocaleString('en')} more match; type more to narrow.</span>` : nothing}
      ${hint}${errorText}
    </fieldset>`;
  }

  #renderField(ask: Ask, field: Field, index: number): TemplateResult {
    const id = `f${index}`;
    const error = ask.errors.get(field.key);
    const describedBy = [field.description ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || nothing;
    const value = ask.values.get(field.key);
    const label = html`${clip(field.label, LABEL_CHARS)}${field.required ? html`<span class="required" aria-hidden="true"> *</span>` : nothing}`;
    const description = field.description ? this.#longText(ask, field.key, field.description) : undefined;
    const hint = description ? html`<span part="hint" id="${id}-hint">${description.shown}</span>${description.toggle}` : nothing;
    const errorText = error ? html`<span part="field-error" id="${id}-error">${error}</span>` : nothing;
    const invalid = error ? 'true' : 'false';
    // The * is for the eye; screen readers get aria-required (a group of checkboxes, which cannot carry it, the word).
    const required = field.required ? 'true' : nothing;

    if (field.kind === 'boolean') {
      return html`<div class="field" data-field=${field.key}>
        <label class="choices"><input id=${id} type="checkbox" .checked=${value === true} aria-required=${required} aria-invalid=${invalid} aria-describedby=${describedBy}
          @change=${(e: Event) => this.#setValue(ask, field, (e.target as HTMLInputElement).checked)} />${label}</label>
        ${hint}${errorText}
      </div>`;
    }
    if (field.kind === 'choice') {
      if (field.options.length > SEARCH_OVER) return this.#renderSearch(ask, field, id, label, hint, errorText, describedBy);
      if (field.options.length <= 4) {
        return html`<fieldset class="field" data-field=${field.key} aria-describedby=${describedBy}>
          <legend id="${id}-legend">${label}</legend>
          <div class="choices" role="radiogroup" aria-labelledby="${id}-legend" aria-required=${required}>
            ${field.options.map(
              (option, i) => html`<label><input type="radio" name=${id} id=${i === 0 ? id : `${id}-${i}`} .checked=${value === option.value} aria-invalid=${invalid}
                @change=${() => this.#setValue(ask, field, option.value)} />${clip(option.label, LABEL_CHARS)}</label>`,
            )}
            ${field.required
              ? nothing
              : html`<label><input type="radio" name=${id} .checked=${value === undefined} @change=${() => this.#setValue(ask, field, undefined)} />No answer</label>`}
          </div>
          ${hint}${errorText}
        </fieldset>`;
      }
      return html`<div class="field" data-field=${field.key}>
        <label for=${id}>${label}</label>
        <select id=${id} aria-required=${required} aria-invalid=${invalid} aria-describedby=${describedBy} @change=${(e: Event) => this.#setValue(ask, field, (e.target as HTMLSelectElement).value || undefined)}>
          <option value="" ?selected=${value === undefined}>${field.required ? 'Choose…' : 'No answer'}</option>
          ${field.options.map((option) => html`<option value=${option.value} ?selected=${value === option.value}>${clip(option.label, LABEL_CHARS)}</option>`)}
        </select>
        ${hint}${errorText}
      </div>`;
    }
    if (field.kind === 'multi') {
      const selected = new Set((value as string[] | undefined) ?? []);
      const bounds = [field.minItems !== undefined ? `at least ${field.minItems}` : '', field.maxItems !== undefined ? `at most ${field.maxItems}` : ''].filter(Boolean).join(', ');
      if (field.options.length > SEARCH_OVER) {
        return this.#renderManyChoices(ask, field, id, html`${label}${bounds ? html` <span part="hint">(${bounds})</span>` : nothing}`, hint, errorText, describedBy);
      }
      return html`<fieldset class="field" data-field=${field.key} aria-describedby=${describedBy}>
        <legend>${label}${field.required ? html`<span class="visually-hidden"> (required)</span>` : nothing}${bounds ? html` <span part="hint">(${bounds})</span>` : nothing}</legend>
        <div class="choices">
          ${field.options.map(
            (option, i) => html`<label><input type="checkbox" id=${i === 0 ? id : `${id}-${i}`} .checked=${selected.has(option.value)} aria-invalid=${invalid}
              @change=${(e: Event) => {
                const next = new Set(this.#chosen(ask, field));
                if ((e.target as HTMLInputElement).checked) next.add(option.value);
                else next.delete(option.value);
                this.#setValue(ask, field, field.options.map((o) => o.value).filter((v) => next.has(v)));
              }} />${clip(option.label, LABEL_CHARS)}</label>`,
          )}
        </div>
        ${hint}${errorText}
      </fieldset>`;
    }
    if (field.kind === 'number') {
      const typed = ask.typed.get(field.key);
      const shown = typed ? typed.text : value === undefined ? '' : String(value);
      return html`<div class="field" data-field=${field.key}>
        <label for=${id}>${label}</label>
        <input id=${id} type="number" inputmode=${field.integer ? 'numeric' : 'decimal'} step=${field.integer ? '1' : 'any'} min=${field.minimum ?? nothing} max=${field.maximum ?? nothing}
          .value=${shown} aria-invalid=${invalid} aria-describedby=${describedBy} ?required=${field.required} aria-required=${required}
          @input=${(e: Event) => {
            const input = e.target as HTMLInputElement;
            const text = input.value;
            // Text the browser cannot read as a number has no value: keep what is shown, say what is wrong.
            if (input.validity.badInput) return this.#setTyped(ask, field, shown, field.integer ? 'Enter a whole number.' : 'Enter a number.');
            if (text === '') return this.#setValue(ask, field, undefined);
            const number = Number(text);
            if (!Number.isFinite(number)) return this.#setTyped(ask, field, text, 'Enter a number.');
            if (field.integer && !Number.isInteger(number)) return this.#setTyped(ask, field, text, 'Enter a whole number.');
            if (field.integer && !Number.isSafeInteger(number)) {
              // Beyond 2^53−1 a JSON number cannot carry every whole number exactly.
              return this.#setTyped(ask, field, text, `Enter a whole number between −${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.`);
            }
            this.#setValue(ask, field, number);
          }} />
        ${hint}${errorText}
      </div>`;
    }
    const type = field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : field.format === 'date' ? 'date' : field.format === 'date-time' ? 'datetime-local' : 'text';
    const shown = value === undefined ? '' : field.format === 'date-time' ? toLocalInput(String(value)) : String(value);
    if (shown.length > VALUE_CHARS && !ask.full.has(`\u0000value:${field.key}`)) {
      // A long default is previewed, not put in a control; it is sent as it is unless edited.
      return html`<div class="field" data-field=${field.key}>
        <label for=${id}>${label}</label>
        <pre part="long-value" id="${id}-value">${clip(shown, 2_000)}</pre>
        <button type="button" id=${id} part="show-all-button" aria-describedby="${id}-value" @click=${() => {
          ask.full.add(`\u0000value:${field.key}`);
          this.#el.requestUpdate();
        }}>Show and edit all ${shown.length.toLocaleString('en')} characters</button>
        ${hint}${errorText}
      </div>`;
    }
    return html`<div class="field" data-field=${field.key}>
      <label for=${id}>${label}</label>
      <input id=${id} type=${type} .value=${shown} minlength=${field.minLength ?? nothing} maxlength=${field.maxLength ?? nothing}
        aria-invalid=${invalid} aria-describedby=${describedBy} ?required=${field.required} aria-required=${required}
        @input=${(e: Event) => {
          const text = (e.target as HTMLInputElement).value;
          this.#setValue(ask, field, field.format === 'date-time' ? fromLocalInput(text) : text === '' ? undefined : text);
        }} />
      ${hint}${errorText}
    </div>`;
  }

  #renderUrl(ask: Ask): TemplateResult {
    const params = ask.request.params as ElicitRequestUrlParams;
    const review = ask.url!;
    const opened = ask.step === 'opened';
    return html`<form method="dialog" @submit=${(e: Event) => e.preventDefault()}>
      ${this.#renderHeader(ask, opened ? 'Finish on the other page' : 'The server asks you to open a page')}
      ${this.#message(ask, params.message)}
      <p part="url" aria-label="Full URL">${review.parts.before}<strong part="url-host">${review.parts.host}</strong>${review.parts.after}</p>
      ${review.parts.host ? html`<p>This opens <strong>${review.unicodeHost ?? review.parts.host}</strong> in a new tab.</p>` : nothing}
      ${review.warnings.map((warning) => html`<p part="warning">${warning}</p>`)}
      ${review.refusal ? html`<p part="error" role="alert">${review.refusal}</p>` : nothing}
      ${opened ? html`<p>When you have finished there, continue here. The server will check whether the step is complete.</p>` : nothing}
      ${this.#renderTimeline(ask)}
      <div part="actions">
        ${opened
          ? html`<button type="button" class="primary" data-action="continue" @click=${() => this.#finish(ask, { response: { action: 'accept' } })}>Continue</button>`
          : review.ok
            ? html`<button type="button" class="primary" data-action="open" @click=${() => this.#openUrl(ask)}>Open ${review.parts.host}</button>`
            : nothing}
        ${opened ? nothing : html`<button type="button" data-action="decline" @click=${() => this.#dismiss(ask, 'decline')}>Decline</button>`}
        <button type="button" data-action="cancel" @click=${() => this.#dismiss(ask, 'cancel')}>Cancel</button>
        ${this.#roundActions(ask)}
      </div>
    </form>`;
  }

  #renderBlock(block: ContentBlock): TemplateResult {
    if (typeof block !== 'object' || block === null) return html`<em>[unreadable content]</em>`;
    const b = block as { type: string; text?: string; data?: string; mimeType?: string };
    if (b.type === 'text') return html`${clip(String(b.text ?? ''), DESCRIPTION_CHARS)}`;
    if (b.type === 'image' && typeof b.data === 'string' && IMAGE_TYPES.has(String(b.mimeType))) return html`<img alt="Image from the server" src="data:${b.mimeType};base64,${b.data}" />`;
    if (b.type === 'audio' && typeof b.data === 'string' && AUDIO_TYPES.has(String(b.mimeType))) return html`<audio controls src="data:${b.mimeType};base64,${b.data}"></audio>`;
    return html`<em>[${clip(String(b.type), LABEL_CHARS)} content${b.mimeType ? ` (${clip(String(b.mimeType), LABEL_CHARS)})` : ''}]</em>`;
  }

  #renderSampling(ask: Ask): TemplateResult {
    const params = ask.request.params as CreateMessageRequestParams;
    const draft = ask.draft!;
    const error = ask.errors.get('reply');
    const preferences = params.modelPreferences;
    const hints = Array.isArray(preferences?.hints) ? preferences.hints.map((h) => (typeof h?.name === 'string' ? h.name : '')).filter(Boolean) : [];
    return html`<form method="dialog" @submit=${(e: Event) => (e.preventDefault(), this.#sendSample(ask))}>
      ${this.#renderHeader(ask, 'The server asks your model for a reply')}
      <p id="message" part="message">Review the conversation the server wants answered. You may edit the reply before sending it, or reject the request.</p>
      ${params.systemPrompt ? html`<p><strong>System prompt:</strong> ${clip(String(params.systemPrompt), DESCRIPTION_CHARS)}</p>` : nothing}
      <ol part="messages" aria-label="Messages">
        ${params.messages.slice(0, MESSAGES_SHOWN).map(
          (message) =>
            html`<li><strong>${clip(String(message.role), LABEL_CHARS)}:</strong> ${(Array.isArray(message.content) ? message.content : [message.content]).slice(0, MESSAGES_SHOWN).map((block) => this.#renderBlock(block))}</li>`,
        )}
      </ol>
      ${params.messages.length > MESSAGES_SHOWN ? html`<p part="hint">…and ${(params.messages.length - MESSAGES_SHOWN).toLocaleString('en')} earlier messages not shown.</p>` : nothing}
      <p part="hint">
        Up to ${params.maxTokens} tokens${hints.length ? ` · preferred models: ${hints.join(', ')}` : ''}${params.modelPreferences?.speedPriority !== undefined ? ` · speed priority ${params.modelPreferences.speedPriority}` : ''}${params.modelPreferences?.intelligencePriority !== undefined ? ` · intelligence priority ${params.modelPreferences.intelligencePriority}` : ''}
      </p>
      ${draft.error ? html`<p part="warning">${draft.error}</p>` : nothing}
      <div class="field">
        <label for="reply">Reply${draft.drafting ? ' (drafting…)' : ''}</label>
        <textarea id="reply" .value=${draft.text} aria-invalid=${error ? 'true' : 'false'} aria-describedby=${error ? 'reply-error' : nothing}
          @input=${(e: Event) => ((draft.text = (e.target as HTMLTextAreaElement).value), ask.errors.delete('reply'), this.#saveAnswer(ask))}></textarea>
        ${error ? html`<span part="field-error" id="reply-error">${error}</span>` : nothing}
      </div>
      <div class="field">
        <label for="model">Model name</label>
        <input id="model" .value=${draft.model} @input=${(e: Event) => (draft.model = (e.target as HTMLInputElement).value)} />
      </div>
      ${this.#renderTimeline(ask)}
      <div part="actions">
        <button type="submit" class="primary" data-action="send" ?disabled=${draft.drafting}>Send</button>
        <button type="button" data-action="reject" @click=${() => this.#dismiss(ask, 'decline')}>Reject</button>
        ${this.#roundActions(ask)}
      </div>
    </form>`;
  }

  #renderRoots(ask: Ask): TemplateResult {
    const roots = ask.roots ?? [];
    return html`<form method="dialog" @submit=${(e: Event) => (e.preventDefault(), this.#finish(ask, { response: { roots } }))}>
      ${this.#renderHeader(ask, 'The server asks which folders it may use')}
      <p id="message" part="message">${roots.length === 1 ? 'Share this root with the server?' : roots.length ? `Share these ${roots.length} roots with the server?` : 'There are no roots configured to share.'}</p>
      <ul>
        ${roots.map((root) => html`<li>${root.name ? html`<strong>${root.name}</strong> — ` : nothing}${root.uri}</li>`)}
      </ul>
      ${this.#renderTimeline(ask)}
      <div part="actions">
        <button type="submit" class="primary" data-action="share">Share</button>
        <button type="button" data-action="decline" @click=${() => this.#dismiss(ask, 'decline')}>Don't share</button>
        ${this.#roundActions(ask)}
      </div>
    </form>`;
  }

  #renderResume(pending: PendingCall): TemplateResult {
    return html`<form method="dialog" @submit=${(e: Event) => (e.preventDefault(), void this.#resume(true))}>
      <div part="header">
        <h2 id="title" part="title">Continue where you left off?</h2>
      </div>
      <p id="message" part="message">
        ${pending.method} ${clip(pending.target ?? '', LABEL_CHARS)} was waiting for your answer ${timeAgo(Date.now() - pending.savedAt)}, before the page was reloaded.
      </p>
      <div part="actions">
        <button type="submit" class="primary" data-action="resume">Resume</button>
        <button type="button" data-action="discard" @click=${() => void this.#resume(false)}>Discard</button>
      </div>
    </form>`;
  }
}
