import { consume } from '@lit/context';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { McpClient, McpClientError, McpError, type ToolCallResult, type Tool } from '../../src/index.js';
import { clientContext } from '../context.js';
import { defineElement } from '../define.js';
import { McpErrorEvent, McpToolCallEvent, McpToolResultEvent } from '../events.js';
import { toggleState } from '../internal/dom.js';
import { draftKey } from '../internal/draft-journal.js';
import { PageSchemeController, schemeStyles } from '../internal/scheme.js';
import { clip, type JsonRecord } from '../internal/json.js';
import { LABEL_CHARS } from '../internal/long-list.js';
import { loadResultRenderer } from '../mcp-tool-result/mcp-tool-result.js';
// The styles before the form's own modules: a bundle then puts those next to the element, where gzip finds more of the words they share (about 100 B less for a page).
import { styles } from './mcp-tool-form.styles.js';
import type { Draft } from './draft.js';
import type { FieldRenderer } from './fields.js';
import { FieldStates } from './field-states.js';
import { FormCall } from './form-call.js';
import { FormChecks } from './form-checks.js';
import { FormDrafts } from './form-drafts.js';
import { confirmPanel, errorText, focusFirstError, focusIssue, focusPart, formStatus, header, preview, problemSummary, progressBar, resultAnnouncement, TOOL_DESCRIPTION, toolTitle } from './form-view.js';
import type { FormIssue } from './issues.js';
import { headerBindings, loadCompletions, loadParts, parts, partsLoading, partsWanted, type CompletionSupport } from './loaders.js';
import type { FormModel } from './model.js';
import { expiredNotice, notFoundNotice, renderTask, storedFor, type FormTask } from './task-status.js';
import { sameDefinition, ToolSource, usableTool } from './tool-source.js';

export type { FormIssue } from './issues.js';
export type { FormTask } from './task-status.js';

/** What `<mcp-tool-form>` is doing. */
export type ToolFormPhase = 'idle' | 'loading' | 'confirming' | 'pending';

/**
 * A form for one MCP tool, generated from its `inputSchema`, that calls the tool
 * and shows the result underneath (spec: server/tools "Calling Tools").
 *
 * Give it a client (`.client`, or put it inside `<mcp-connection>`) and either
 * `tool-name` (the definition comes from `tools/list`) or `.tool`. Submitting
 * validates the arguments against the schema (nothing is sent while invalid),
 * asks for confirmation when the tool is marked `destructiveHint: true`, then
 * calls `tools/call` with progress and a Cancel button. Errors are shown in the
 * form and the input is kept. The input is saved per server and tool as it is
 * typed (IndexedDB; `sessionStorage` or memory where IndexedDB is unavailable,
 * which the form says once) and restored on the next visit; a reload right
 * after typing keeps it too (it is written on `pagehide`). Two tabs never
 * overwrite each other's draft silently: the form asks which to keep.
 * `no-drafts` turns drafts off.
 *
 * Argument rules (field cases C15, C17): untouched or cleared optional fields are
 * omitted, optional objects and arrays are not invented, an untouched required
 * text field is flagged like a native `required` input (one the user emptied
 * on purpose may go as `""`), `null` only when the user chose it, integers as
 * JSON numbers. Arguments the schema rejects are never sent: a submit waits
 * for the validator to load, and a union that fails as a whole (a `oneOf`
 * value fitting two variants, a sibling `not`) is flagged at its field. After
 * a failed or cancelled call the previous result stays, marked as an earlier
 * call's (`resultStale`).
 *
 * Long-running calls (tasks, when the client has the `tasks` option, as inside
 * `<mcp-connection>`): the form shows the task's status and the server's status
 * message, Cancel sends `tasks/cancel`, and after a reload it picks up the task
 * a previous page left running for this tool ("Still running, started 4 min
 * ago") and shows its result; tasks that expired meanwhile are reported
 * (`no-resume` turns the pick-up off).
 *
 * @tagname mcp-tool-form
 * @summary A form that calls an MCP tool.
 *
 * @slot header - Replaces the default header (tool title, name, description).
 * @slot actions - Extra buttons next to the submit button.
 *
 * @event input - The arguments changed (native `input` of the controls, and for button actions).
 * @event change - A change was committed (a control lost focus, an item was added…).
 * @event reset - The form was reset (draft cleared).
 * @event mcp-tool-call - Before `tools/call`, with `detail.tool` and `detail.arguments`; cancelable (call `preventDefault()` to stop the call).
 * @event mcp-tool-result - The call finished; `detail.result` is the `CallToolResult`.
 * @event mcp-error - Loading the tool or calling it failed (or the result's app failed); `detail.error` is the typed kit error.
 * @event mcp-app-ready - The tool's MCP App (in the result) finished its handshake.
 * @event mcp-app-message - The app asks to add a message (cancelable; see `<mcp-app-frame>`).
 * @event mcp-app-model-context - The app updates the model context (cancelable).
 * @event mcp-app-open-link - The app asks to open a link (cancelable).
 * @event mcp-app-log - A log message from the app.
 * @event mcp-app-display-mode - The app's display mode changed.
 * @event mcp-app-close - The app was torn down.
 *
 * @csspart form - The `<form>`.
 * @csspart header - The default header.
 * @csspart title - The tool's display name.
 * @csspart tool-name - The tool's `name`.
 * @csspart description - The tool's description.
 * @csspart notice - A remark about the schema (unsupported dialect, too large…).
 * @csspart draft-conflict - Another tab saved a newer draft of this tool; asks which one to keep.
 * @csspart keep-draft-button - Keeps this tab's draft (stored over the other tab's).
 * @csspart load-draft-button - Takes the other tab's draft.
 * @csspart draft-notice - Drafts cannot be stored durably in this browser (shown once per page).
 * @csspart dismiss-button - Hides the draft notice.
 * @csspart fields - The group of all fields.
 * @csspart field - One field's wrapper (also `field-string`, `field-number`, `field-boolean`, `field-enum`, `field-const`, `field-object`, `field-array`, `field-union`, `field-json`).
 * @csspart fieldset - The `<fieldset>` of an object, array, union or radio group.
 * @csspart legend - A fieldset's legend.
 * @csspart label - A field's label.
 * @csspart control - A native control (`input`, `select`, `textarea`); also `json`, `key`, `radio`, `checkbox`, `variant-picker`.
 * @csspart hint - A field's description and constraints.
 * @csspart error - A field's error message.
 * @csspart badge - A small label ("sent as HTTP header…", "read-only", "JSON"…); also `header-badge`.
 * @csspart required-mark - The asterisk of required fields.
 * @csspart items - The list of an array's items.
 * @csspart item - One array item.
 * @csspart item-actions - The move/remove buttons of an item.
 * @csspart rows - The key/value rows of a map.
 * @csspart row - One key/value row.
 * @csspart add-button - Adds an item, a row or an optional object.
 * @csspart remove-button - Removes an item or a row.
 * @csspart move-button - Moves an item up or down.
 * @csspart null-button - Sends `null` for a nullable field.
 * @csspart clear-button - Leaves an optional yes/no unset.
 * @csspart raw-toggle - Switches a subtree between form and JSON.
 * @csspart matches - The values listed under the search of a long enum (at most 50).
 * @csspart match - One value listed there.
 * @csspart long-value - The start of a value too long to put in a control (a long default).
 * @csspart show-all-button - Shows all of a long description, or the whole long value to edit.
 * @csspart show-more-button - Shows the next 100 members of an object with many.
 * @csspart error-summary - The list of problems after a submit attempt.
 * @csspart preview-toggle - The disclosure button that opens and closes the preview (`aria-expanded`).
 * @csspart preview - The arguments JSON (and headers) that will be sent; rendered while the preview is open.
 * @csspart preview-json - The JSON text of the preview.
 * @csspart confirm - The confirmation step of a destructive tool.
 * @csspart confirm-button - Calls the destructive tool.
 * @csspart confirm-cancel - Goes back without calling.
 * @csspart actions - The button row.
 * @csspart submit-button - Calls the tool.
 * @csspart cancel-button - Aborts the running call.
 * @csspart reset-button - Clears the form and its saved draft.
 * @csspart progress - Progress bar and message while the call runs.
 * @csspart progress-bar - The `<progress>`.
 * @csspart progress-message - The server's progress message.
 * @csspart task - The task line while the call runs as a task.
 * @csspart task-status - "Running as a task, started just now", "Still running, started 4 min ago"…
 * @csspart task-message - The server's status message of the task.
 * @csspart status - A status line (loading, cancelled).
 * @csspart call-error - Why loading or the call failed.
 * @csspart announcer - The visually hidden polite live region that announces each call's outcome once.
 * @csspart result-heading - The "Result" heading above the result (focused when a call returns).
 * @csspart result - The `<mcp-tool-result>` showing the last result.
 * @csspart result-stale - Also on the result while it is an earlier call's (a later call runs, failed or was cancelled).
 * @csspart stale-note - Says that the result shown is an earlier call's.
 *
 * @cssproperty --mcp-color-text - Text colour.
 * @cssproperty --mcp-color-muted-text - Hints and secondary text.
 * @cssproperty --mcp-color-input - Background of controls.
 * @cssproperty --mcp-color-surface - Background of buttons and code.
 * @cssproperty --mcp-color-border - Borders.
 * @cssproperty --mcp-color-accent - Submit button and focus ring.
 * @cssproperty --mcp-color-accent-text - Text on the accent colour.
 * @cssproperty --mcp-color-danger - Errors and required marks.
 * @cssproperty --mcp-color-warning - Notices and the header badge.
 * @cssproperty --mcp-radius - Corner radius.
 * @cssproperty --mcp-space-3 - Gap between fields.
 * @cssproperty --mcp-font - Font shorthand.
 * @cssproperty --mcp-font-mono - Monospace font family.
 *
 * @cssstate loading - The tool definition is being fetched.
 * @cssstate ready - The form is shown.
 * @cssstate invalid - A submit was refused; errors are shown.
 * @cssstate confirming - Waiting for the user to confirm a destructive call.
 * @cssstate pending - The call is running.
 * @cssstate error - Loading or the last call failed.
 */
export class McpToolForm extends LitElement {
  static override styles = [schemeStyles, ...styles];

  /** Name of the tool to show; its definition comes from the client's `tools/list`. */
  @property({ attribute: 'tool-name' }) toolName = '';
  /** The tool definition; takes precedence over `tool-name`. */
  @property({ attribute: false }) tool: Tool | undefined;
  /** The client to call with; default: the one of the enclosing `<mcp-connection>`. */
  @property({ attribute: false }) client: McpClient | undefined;
  /** Don't save or restore argument drafts. */
  @property({ attribute: 'no-drafts', type: Boolean }) noDrafts = false;
  /** Don't render the result under the form (listen for `mcp-tool-result` instead). */
  @property({ attribute: 'no-result', type: Boolean }) noResult = false;
  /** Don't show the tool's MCP App under the form (only the result's content). */
  @property({ attribute: 'no-app', type: Boolean }) noApp = false;
  /** Don't ask for confirmation before calling a tool marked `destructiveHint: true`. */
  @property({ attribute: 'no-confirm', type: Boolean }) noConfirm = false;
  /** Don't pick up a task a previous page left running for this tool. */
  @property({ attribute: 'no-resume', type: Boolean }) noResume = false;

  @consume({ context: clientContext, subscribe: true })
  @state()
  protected contextClient: McpClient | undefined;

  /** Why the form's parts (form-parts.ts) could not be loaded (offline). */
  @state() private _partsFailure: string | undefined;
  @state() private _draft: Draft | undefined;
  @state() private _phase: ToolFormPhase = 'idle';
  @state() private _callError: McpError | undefined;
  @state() private _status = '';
  @state() private _result: ToolCallResult | undefined;
  /** The result shown is an earlier call's: a later call is running, failed or was cancelled. */
  @state() private _resultStale = false;
  /** The arguments of the call that gave `_result` (for the tool's MCP App). */
  #resultArguments: JsonRecord = {};
  /** What the polite live region says about the last call (set once per call). */
  @state() private _announcement = '';
  /** The arguments preview is open: its JSON is built only then, not on each render (keystroke) of a closed one. */
  @state() private _previewOpen = false;

  #internals = this.attachInternals();
  #model: FormModel | undefined;
  /** Renders the model's fields; kept across renders so unchanged fields are skipped (new with each model set-up). */
  #renderer: FieldRenderer | undefined;
  #modelFor: Tool | undefined;
  /** The definition of the tool named `tool-name`. */
  readonly #source = new ToolSource(this, {
    loading: (on) => {
      // Only from idle and back: listed anew while a call runs or a destructive call awaits its confirmation, the form goes on showing that.
      if (this._phase === (on ? 'idle' : 'loading')) this._phase = on ? 'loading' : 'idle';
    },
    failed: (error) => this.dispatchEvent(new McpErrorEvent(error, 'tools/list')),
  });
  /** What the user opened in the fields (and the tool's description). */
  readonly #fields = new FieldStates(this);
  /** The call the form waits for. */
  readonly #call = new FormCall(this);
  /** Loads the validator when there is something to check, and checks the arguments. */
  readonly #checks = new FormChecks(this, {
    model: () => this.#model,
    draft: () => this._draft,
  });
  /** Stores the draft as it is typed, and restores it. */
  readonly #drafts = new FormDrafts(this, {
    draft: () => this._draft,
    show: (draft) => (this._draft = draft),
    model: () => this.#model,
    took: () => this.dispatchEvent(new Event('input', { bubbles: true, composed: true })),
  });
  /**
   * Arguments a host set, and the tool they go with: the one the form shows at
   * its next update (`tool` undefined until then). A tool set in the same turn,
   * before or after them, gets them; a tool the page switches to later does not,
   * even while the form's parts are still loading (they are another tool's).
   */
  #argumentsSet: { args: JsonRecord; tool: Tool | undefined } | undefined;
  #fromArguments: { args: JsonRecord; draft: Draft } | undefined;
  #confirm: ((ok: boolean) => void) | undefined;
  /** Suggestions for URI fields (completions.ts, loaded once the server declares `completions`). */
  #completions: CompletionSupport | undefined;

  constructor() {
    super();
    new PageSchemeController(this, this.#internals);
  }

  /** The client in use: `.client`, else the enclosing connection's. */
  get effectiveClient(): McpClient | undefined {
    return this.client ?? this.contextClient;
  }

  /** The tool definition in use. */
  get effectiveTool(): Tool | undefined {
    // A definition set directly has not been through the client's checks.
    if (this.tool) return usableTool(this.tool) ? this.tool : undefined;
    return this.#source.tool;
  }

  /** What the form is doing. */
  get phase(): ToolFormPhase {
    return this._phase;
  }

  /** The arguments the form would send now (before validation). */
  get value(): JsonRecord {
    return this.#model ? parts!.buildArguments(this.#model, this._draft).arguments : {};
  }

  /** Problems found by the last `validate()` or submit attempt. */
  get issues(): readonly FormIssue[] {
    return this.#checks.issues;
  }

  /** The last result the tool returned (see {@link resultStale}). */
  get result(): ToolCallResult | undefined {
    return this._result;
  }

  /**
   * The task the running call waits for, when the server runs it as one (Tasks extension;
   * 2025-11-25 basic/utilities/tasks): its `taskId`, `status`, the server's `statusMessage`
   * (untrusted text), `startedAt` (ms since the epoch) and whether it was `resumed` after a reload.
   * `undefined` while no call runs as a task.
   */
  get task(): FormTask | undefined {
    return this.#call.task;
  }

  /**
   * Whether {@link result} belongs to an earlier call: a later call is running,
   * or it failed or was cancelled. The form then marks the result as earlier
   * (part `result-stale` and a note) rather than showing it as the answer.
   */
  get resultStale(): boolean {
    return this._result !== undefined && this._resultStale;
  }

  /**
   * Fills the form from an arguments object (e.g. a saved call). Members the
   * form cannot show as controls are kept as JSON. Set with `.tool` or
   * `tool-name` in the same turn (either order), they fill that tool; a tool
   * the page switches to later starts without them, even while the form's
   * parts are still loading.
   */
  set arguments(value: JsonRecord | undefined) {
    // Union variants are placed by what each accepts once the validator is there.
    if (value !== undefined) this.#checks.want();
    this.#argumentsSet = value === undefined ? undefined : { args: value, tool: undefined };
    this.#drafts.edited = true;
    this.#applyArguments();
    this.requestUpdate();
  }

  get arguments(): JsonRecord {
    return this.value;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!parts) this.#requestParts();
  }

  readonly #partsArrived = () => {
    this._partsFailure = undefined;
    this.requestUpdate();
  };

  /** Loads the form's parts; after a failed load (offline) the form waits for any later one that works. */
  #requestParts(): void {
    loadParts().then(this.#partsArrived, (error: unknown) => {
      this._partsFailure = (error as Error).message;
      if (this.isConnected) partsWanted.add(this.#partsArrived);
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    partsWanted.delete(this.#partsArrived);
  }

  /** Also waits for the form's parts, then the combobox of a long choice (long-choices.ts), when there is a tool to show: after `await updateComplete` its fields are there. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete();
    for (let loading; this.effectiveTool && (loading = parts ? parts.loading : partsLoading); ) {
      await loading.catch(() => undefined);
      done = await super.getUpdateComplete();
    }
    return done;
  }

  protected override willUpdate(changed: PropertyValues): void {
    const client = this.effectiveClient;
    this.#source.follow(client);
    if (changed.has('tool') || changed.has('toolName') || changed.has('client') || changed.has('contextClient')) {
      // Another tool after a failed load of the form's parts: try again (the network may be back).
      if (!parts && this._partsFailure !== undefined && this.isConnected) this.#requestParts();
      if (!this.tool && this.toolName && client && (this.#source.tool?.name !== this.toolName || changed.has('client') || changed.has('contextClient'))) void this.#source.load(false);
      if (!this.tool && !this.toolName) this.#source.clear();
    }
    const tool = this.effectiveTool;
    // The same definition set again (a tool list fetched anew, a framework's re-render) is the same form: what the user typed and the result stay.
    if (changed.has('tool') && tool && this.#modelFor && tool !== this.#modelFor && sameDefinition(tool, this.#modelFor)) this.#modelFor = tool;
    if (this.#model && tool === this.#modelFor && this.#currentFor() !== this.#drafts.shownFor) {
      if (this.#drafts.shownFor === undefined) {
        // The first client: the stored draft of its server is read now (typing done meanwhile wins, as it does when the read is slow).
        this.#drafts.shownFor = this.#currentFor();
        void this.#drafts.restore();
      } else {
        // Another server: what was typed is stored as the first server's draft, and the form starts from this server's, as for another tool.
        this.#setUpModel(tool, true);
      }
    }
    // The model is set up once the form's parts are there (the update they ask for when they arrive), with a long choice's combobox (long-choices.ts):
    // a tool that waits for them shows no fields, not the previous tool's.
    const shown = tool && (tool === this.#modelFor || parts?.ready(tool.inputSchema, this)) ? tool : undefined;
    if (shown !== this.#modelFor || (this.#checks.readyChanged && shown)) this.#setUpModel(shown, shown !== this.#modelFor);
    // Without fields the preview is not rendered: the one rendered with them again starts closed.
    if (!tool || !this.#model) this._previewOpen = false;
    // Arguments set since the last update go with the tool shown now: applied to its model, or kept for it while its parts load.
    const set = this.#argumentsSet;
    if (set && !set.tool && tool) {
      if (this.#model && this.#modelFor === tool) this.#argumentsSet = undefined;
      else set.tool = tool;
    }
    if (client && tool && this.#completions?.client !== client && client.server?.capabilities.completions !== undefined) {
      this.#completions = loadCompletions(this, client, (entry) => this.#completions === entry, () => this.requestUpdate());
    }
  }

  protected override updated(): void {
    // Showing the fields needed the validator (an if/then/else, a union variant to place): load it now.
    if (this.#model?.validatorMissed && !this.#checks.ready) this.#checks.want();
    toggleState(this.#internals, 'loading', this._phase === 'loading');
    toggleState(this.#internals, 'ready', this.#model !== undefined && this._phase !== 'loading');
    toggleState(this.#internals, 'invalid', this.#checks.attempted && this.#checks.issues.length > 0);
    toggleState(this.#internals, 'confirming', this._phase === 'confirming');
    toggleState(this.#internals, 'pending', this._phase === 'pending');
    toggleState(this.#internals, 'error', this._callError !== undefined || this.#source.error !== undefined);
    if (this.effectiveTool?.annotations?.destructiveHint === true) this.setAttribute('destructive', '');
    else this.removeAttribute('destructive');
  }

  #setUpModel(tool: Tool | undefined, newTool: boolean): void {
    if (newTool) {
      // A call of another tool than the one shown (not `tool`: a changed definition may wait for its combobox) goes on (see FormCall.letGo); the form no longer waits for it.
      if (this.#call.runningTool !== undefined && this.#call.runningTool !== this.effectiveTool?.name) {
        this.#call.letGo();
        this._phase = 'idle';
      }
      // A question about calling the previous tool is not left under this one: not called.
      if (this.#confirm) {
        this.#confirm(false);
        this.#confirm = undefined;
        this._phase = 'idle';
      }
      this.#drafts.flush();
      this.#modelFor = tool;
      this.#model = tool ? new parts!.FormModel(tool.inputSchema) : undefined;
      this._draft = undefined;
      this.#checks.forget();
      this._callError = undefined;
      this._status = '';
      this._result = undefined;
      this._resultStale = false;
      this.#fields.reset(true);
      // Arguments set for another tool (shown before this one, its parts loading) are not this tool's.
      if (this.#argumentsSet?.tool && this.#argumentsSet.tool !== tool) this.#argumentsSet = undefined;
      // Arguments a host set before the model was there (its parts loading) count as an edit: the stored draft does not replace them.
      this.#drafts.start(this.#currentFor(), this.#argumentsSet !== undefined);
      this.#fromArguments = undefined;
      this.#applyArguments();
      if (tool) void this.#drafts.restore();
      if (tool) void this.#pickUp(tool);
    }
    this.#checks.clear();
    // Fields may look different with the validator there (an `if` evaluated, a variant placed): render them all anew.
    this.#renderer = this.#model ? new parts!.FieldRenderer(this.#model) : undefined;
    if (!tool || !this.#checks.ready || this.#model?.problem) return;
    this.#replaceArguments();
    this.#checks.compile(tool.inputSchema);
  }

  /** Fills the model there is (if any) from the arguments set; they stay for a tool set in the same turn. */
  #applyArguments(): void {
    const model = this.#model;
    const args = this.#argumentsSet?.args;
    if (!model || !args) return;
    this._draft = parts!.valueToDraft(model, model.root(args), args);
    this.#fromArguments = { args, draft: this._draft };
  }

  /**
   * Arguments set before the validator loaded were placed in union variants by
   * shape alone: place them again by what each variant accepts, unless the
   * user has changed something since.
   */
  #replaceArguments(): void {
    const model = this.#model;
    const from = this.#fromArguments;
    if (!model || !from || this._draft !== from.draft) return;
    this._draft = parts!.valueToDraft(model, model.root(from.args), from.args);
    this.#fromArguments = { args: from.args, draft: this._draft };
  }

  /** The server and tool (as a draft key) the form would show now. */
  #currentFor(): string | undefined {
    const client = this.effectiveClient;
    const tool = this.#modelFor;
    return client && tool ? draftKey(client.url.href, tool.name) : undefined;
  }

  // --- editing -----------------------------------------------------------------------------

  /** True while a native `input`/`change` event of a control is being dispatched. */
  #inNativeEvent = false;

  protected override firstUpdated(): void {
    // Capture runs before the control's own listener, bubbling after it: together they bracket it.
    for (const type of ['input', 'change']) {
      this.renderRoot.addEventListener(type, () => (this.#inNativeEvent = true), true);
      this.renderRoot.addEventListener(type, () => (this.#inNativeEvent = false));
    }
    // Focus on a field is the user starting on the form: load the validator before the first keystroke.
    this.renderRoot.addEventListener('focusin', (event) => {
      this.#checks.want();
      // And the x-mcp-header checker of the preview, for a schema with bindings (issue 30: not on render).
      if (this.#model && !this.#model.problem && this.effectiveTool) headerBindings(this.effectiveTool.inputSchema, () => this.requestUpdate());
      parts?.holdSize(event.target);
    });
    this.renderRoot.addEventListener('focusout', (event) => void (parts?.releaseSize(event.target), this.#checks.settle())); // Blur: the whole form is checked.
  }

  /** True while a render is being committed to the DOM. */
  #committing = false;

  protected override update(changed: PropertyValues): void {
    this.#committing = true;
    try {
      super.update(changed);
    } finally {
      this.#committing = false;
    }
    // The focused input, held at its size, may now be another kind of control (see recheckSize).
    if (this.shadowRoot?.activeElement) parts?.recheckSize(this.shadowRoot.activeElement);
  }

  #onDraft = (next: Draft | undefined, final: boolean): void => {
    // A focused control the render removes (another tool, another variant) fires `change` as it
    // goes: what it held is already in the draft (its `input` events put it there), and its
    // listener is of the fields that were, so it must not write into what is shown now.
    if (this.#committing) return;
    // A control's `change` usually repeats what its `input` already recorded (and Chromium fires it
    // while the fields are being disabled for a call): nothing to do then.
    if (final && this.#inNativeEvent && JSON.stringify(next) === JSON.stringify(this._draft)) {
      return;
    }
    this._draft = next;
    this.#checks.want();
    this._status = '';
    this.#checks.recheck(final);
    // Written on input (not after a pause): a reload a moment later must not lose it.
    this.#drafts.changed();
    // A native control's `input` already crossed the shadow boundary (and its `change` is
    // re-dispatched by #onNativeChange); button actions (add, remove, null…) fire their own.
    if (!this.#inNativeEvent) {
      this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      if (final) this.dispatchEvent(new Event('change', { bubbles: true }));
    }
  };

  /**
   * Validates the current arguments against the tool's `inputSchema` and shows
   * the problems next to their fields.
   * @returns the problems (empty when the arguments can be sent).
   */
  validate(): readonly FormIssue[] {
    // Before the validator has loaded, the problems found without it; the schema's own follow once it is there.
    this.#checks.want();
    return this.#checks.attempt().issues;
  }

  /** Clears the form (defaults again), its errors and its saved draft. */
  reset(): void {
    this._draft = undefined;
    this.#checks.forget();
    this._callError = undefined;
    this._status = '';
    this.#fields.reset(false);
    // Deletes this tab's stored draft (another tab's newer one stays: it is not this form's to delete).
    this.#drafts.cleared();
    this.dispatchEvent(new Event('reset', { bubbles: true }));
  }

  /** Aborts the running call (the request's stream is closed: that is the cancellation). */
  cancel(): void {
    this.#call.cancel();
  }

  /**
   * Validates, confirms (destructive tools) and calls the tool.
   * @returns the result, or undefined when nothing was sent (invalid, not
   *   confirmed, cancelled by a `mcp-tool-call` listener) or the call failed
   *   (the error is shown and sent as `mcp-error`).
   */
  async submit(): Promise<ToolCallResult | undefined> {
    let tool = this.effectiveTool;
    /** The model of the tool the user asked to call: another one set up meanwhile (the page switched tools) means nothing is sent. */
    const model = this.#model;
    if (!tool || !model || this._phase === 'pending' || this._phase === 'confirming' || this.#checks.awaiting) return undefined;
    const waiting = this.#checks.wait(tool.inputSchema);
    if (waiting) {
      await waiting;
      // The page switched to another tool while the validator loaded: the user asked to call the one before.
      tool = this.effectiveTool;
      if (!tool || this.#model !== model) return undefined;
    }
    const { arguments: args, issues } = this.#checks.attempt();
    this._callError = undefined;
    this._status = '';
    if (issues.length > 0) {
      await this.updateComplete;
      focusFirstError(this.renderRoot);
      return undefined;
    }
    if (tool.annotations?.destructiveHint === true && !this.noConfirm) {
      this._phase = 'confirming';
      const confirmed = await new Promise<boolean>((resolve) => {
        this.#confirm = resolve;
        void this.updateComplete.then(() => focusPart(this.renderRoot, 'confirm-cancel'));
      });
      // Another tool was set up meanwhile: it answered the question (not called), and the form is its now.
      if (this.#model !== model) return undefined;
      this.#confirm = undefined;
      this._phase = 'idle';
      if (!confirmed) {
        this._status = 'Not called.';
        this._announcement = this._status;
        await this.updateComplete;
        focusPart(this.renderRoot, 'submit-button');
        return undefined;
      }
    }
    const before = new McpToolCallEvent(tool.name, args);
    this.dispatchEvent(before);
    if (before.defaultPrevented) return undefined;
    const client = this.effectiveClient;
    if (!client) {
      this.#fail(new McpClientError('closed', 'No client: put <mcp-tool-form> inside <mcp-connection> or set its .client'));
      return undefined;
    }
    // The submit button is disabled while the call runs: focus that was on it moves to Cancel, and back after.
    const focused = this.matches(':focus-within');
    this._announcement = '';
    this._phase = 'pending';
    // The result renderer loads while the call runs (a page shows its first result without a gap).
    if (!this.noResult) loadResultRenderer().catch(() => undefined);
    if (focused) void this.updateComplete.then(() => focusPart(this.renderRoot, 'cancel-button'));
    // Until this call returns, the result shown is the previous call's (and stays so if it fails).
    this._resultStale = true;
    const called = tool;
    return this.#call.call(client, called, args, {
      result: (result, shown) => {
        if (shown) {
          this.#resultArguments = args;
          this._result = result;
          this._resultStale = false;
          this._announcement = resultAnnouncement(called, result);
        }
        this.dispatchEvent(new McpToolResultEvent(called.name, args, result));
      },
      cancelled: () => {
        this._status = 'Cancelled. Nothing was lost: change the arguments or call again.';
        this._announcement = this._status;
      },
      failed: (error) => {
        this.#fail(error);
        if (this._callError) this._announcement = `The call to ${toolTitle(called)} failed. ${errorText(this._callError)}`;
      },
      ended: () => {
        this._phase = 'idle';
        if (focused) void this.updateComplete.then(() => this.#focusAfterCall());
      },
    });
  }

  // --- tasks -------------------------------------------------------------------------------

  /**
   * Picks up the task a previous page left running for this tool (stored per
   * server and authorization context by the client), and reports those that
   * expired before their result could be picked up.
   */
  async #pickUp(tool: Tool): Promise<void> {
    const client = this.effectiveClient;
    if (this.noResume || !client) return;
    const model = this.#model;
    const { running, expired } = await storedFor(client, tool.name);
    if (this.#model !== model || this.effectiveClient !== client || this._phase !== 'idle') return;
    if (expired.length > 0) this._status = expiredNotice(tool.name, expired);
    if (!running) return;
    this._phase = 'pending';
    if (!this.noResult) loadResultRenderer().catch(() => undefined);
    const args = (running.params?.arguments ?? {}) as JsonRecord;
    await this.#call.resume(client, tool.name, running, {
      result: (result, shown) => {
        if (shown) {
          this._result = result;
          this._status = '';
        }
        this.dispatchEvent(new McpToolResultEvent(tool.name, args, result));
      },
      cancelled: () => (this._status = 'Cancelled.'),
      failed: (error) => {
        const task = this.#call.task;
        if (McpClientError.isInstance(error) && error.code === 'task_not_found') this._status = notFoundNotice(tool.name, task?.startedAt, error.data);
        else this.#fail(error);
      },
      ended: () => (this._phase = 'idle'),
    });
  }

  /**
   * After a call, focus that was in the form goes to the result's heading (a
   * result is shown) or the submit button, never to the page's body; focus
   * the user moved elsewhere meanwhile stays there.
   */
  #focusAfterCall(): void {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!lost && !this.matches(':focus-within')) return;
    if (this._result && !this.resultStale && !this.noResult && focusPart(this.renderRoot, 'result-heading')) return;
    focusPart(this.renderRoot, 'submit-button');
  }

  #fail(error: McpError): void {
    this._callError = error;
    this.dispatchEvent(new McpErrorEvent(error, 'tools/call'));
  }

  // --- rendering --------------------------------------------------------------------------

  #preview(tool: Tool, open = this._previewOpen): TemplateResult {
    // Built while open, for schemas within the work bounds (the binding walk recurses once per nesting level).
    return preview(tool, open, open ? parts!.previewContent(this.value, this.#model?.problem ? undefined : headerBindings(tool.inputSchema, () => this.requestUpdate())) : nothing, (next) => (this._previewOpen = next));
  }

  protected override render(): TemplateResult {
    const tool = this.effectiveTool;
    const model = this.#model;
    if (!tool || !model) return formStatus(this, this.#source.error, this._partsFailure);
    const pending = this._phase === 'pending';
    const renderer = (this.#renderer ??= new parts!.FieldRenderer(model));
    const host = this.#fields.host(model, this.#checks.issues, (field, id, pick) => this.#completions?.support?.field(field, id, pick), parts!.MEMBERS_PER_PAGE);
    renderer.begin(host, this.#checks.attempted, [...this.#fields.states, this.#completions?.support], this.#checks.issues);
    const notice = this.#checks.notice(model);
    const rootIsRaw = this._draft?.k === 'json';
    // No whitespace between the parts (issue 30): each text node is cloned, walked and laid out on every first render; the parts are blocks or flex items, where it shows nothing.
    return html`<form part="form" novalidate @submit=${this.#onSubmit} @reset=${this.#onReset} @change=${this.#onNativeChange}>${header(tool, this.#fields.isExpanded(TOOL_DESCRIPTION), () => this.#fields.toggle(TOOL_DESCRIPTION))}${notice ? html`<div part="notice" role="note">${notice}</div>` : nothing}${this.#drafts.notices()}<fieldset part="fields" class=${this.#completions?.support ? 'fields' : 'fields contained'} ?disabled=${pending || this._phase === 'confirming'}><legend class="visually-hidden">Arguments of ${clip(tool.name, LABEL_CHARS)}</legend>${!rootIsRaw && !model.problem && model.root().kind === 'object'
          ? html`<div class="group-tools"><button type="button" part="raw-toggle" class="small" aria-pressed="false" @click=${() => this.#onDraft({ k: 'json', text: JSON.stringify(this.value, null, 2) }, true)}>Edit all arguments as JSON</button></div>`
          : nothing}${renderer.root(this._draft, (next, final) => this.#onDraft(next, final))}</fieldset>${this.#checks.attempted ? problemSummary(this.#checks.issues, (pointer) => focusIssue(this.renderRoot, pointer)) : nothing}${this.#preview(tool)}${this._phase === 'confirming' ? confirmPanel(tool, this.value, (ok) => this.#confirm?.(ok)) : nothing}<div part="actions"><button type="submit" part="submit-button" ?disabled=${pending || this._phase === 'confirming'}>Call tool</button>${pending ? html`<button type="button" part="cancel-button" @click=${() => this.cancel()}>Cancel</button>` : nothing}<button type="reset" part="reset-button" ?disabled=${pending}>Reset</button><slot name="actions"></slot></div>${this._phase !== 'pending' ? nothing : this.#call.task ? renderTask(this.#call.task) : progressBar(this.#call.progress)}${this._status ? html`<p part="status">${this._status}</p>` : nothing}${this._callError ? html`<div part="call-error">${errorText(this._callError)}</div>` : nothing}</form><div part="announcer" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this._announcement}</div>${!this.noResult && this._result ? html`<h3 part="result-heading" tabindex="-1">Result</h3>` : nothing}${!this.noResult && this._result && this.resultStale
        ? html`<p part="stale-note" class="stale-note">${pending ? 'Result of the previous call; this one is still running.' : 'Result of an earlier call; the last call returned no result.'}</p>`
        : nothing}${!this.noResult && this._result
        ? html`<mcp-tool-result
            part=${this.resultStale ? 'result result-stale' : 'result'}
            .result=${this._result}
            .tool=${tool}
            .client=${this.effectiveClient}
            .arguments=${this.#resultArguments}
            ?no-app=${this.noApp}
            exportparts="base: result-base, block: result-block, structured: result-structured, validation: result-validation"
          ></mcp-tool-result>`
        : nothing}`;
  }

  #onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.submit();
  };

  #onReset = (event: Event): void => {
    // The native reset would only blank the controls; the draft is the source of truth.
    event.preventDefault();
    this.reset();
  };

  #onNativeChange = (event: Event): void => {
    // `change` does not cross the shadow boundary: re-dispatch it from the host.
    if (event.target !== this) this.dispatchEvent(new Event('change', { bubbles: true }));
  };
}

defineElement('mcp-tool-form', McpToolForm);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-tool-form': McpToolForm;
  }
}
