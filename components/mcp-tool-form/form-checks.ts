/**
 * The checks of `<mcp-tool-form>` and the problems they found: the validator,
 * loaded on the first occasion to check (a focus, an edit, arguments set,
 * `validate()`, a submit) rather than with the form (issue 18), and again
 * before a submit when it could not load (offline); the tool's schema compiled
 * for each set-up of the form; and the problems of the arguments, the form's
 * own and the validator's, worded (issues.ts loads with the validator), shown
 * once a check was asked for (`validate()`, a submit).
 *
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { compileSchemaSync, type McpClientError, type Tool, type Validator } from '../../src/index.js';
import type { JsonRecord } from '../internal/json.js';
import type { Draft, UnionChoice } from './draft.js';
import type { FormIssue } from './issues.js';
import { issueWording, loadChecks, parts } from './loaders.js';
import type { FormModel } from './model.js';

/** The form as the checks read it: the tool it shows (a public property). */
export interface ChecksHost extends ReactiveControllerHost {
  readonly effectiveTool: Tool | undefined;
}

/** What the checks read of the form besides. */
export interface ChecksForm {
  /** The model of the tool's schema, once the form's parts are there. */
  model(): FormModel | undefined;
  /** The draft the arguments are built from. */
  draft(): Draft | undefined;
}

/** Keeps the checks of one `<mcp-tool-form>` (see the module). */
export class FormChecks implements ReactiveController {
  readonly #host: ChecksHost;
  readonly #form: ChecksForm;
  /** Whether something asked for a check: the first focus, edit, arguments set, validate() or submit. */
  #wanted = false;
  /** A submit waits for the validator. */
  awaiting = false;
  /** The validator is there (loaded, or failed to load). */
  #ready = false;
  /** `#ready` changed since the form's last update (the form then sets its model up anew). */
  #readyChanged = false;
  /** Why the validator could not be loaded, once that failed. */
  #failure: string | undefined;
  #validator: Validator | undefined;
  #schemaError: string | undefined;
  /** A check was asked for: the problems are shown (and found again on each edit). */
  #attempted = false;
  #issues: FormIssue[] = [];
  /** The draft the problems shown were found for. */
  #checkedDraft: Draft | undefined;
  /** Since the last whole check, only edited fields were checked (see `recheck`). */
  #partial = false;

  constructor(host: ChecksHost, form: ChecksForm) {
    this.#host = host;
    this.#form = form;
    host.addController(this);
  }

  hostConnected(): void {
    // Asked again on each connection in case useSchemaCompiler() switched libraries, but only once
    // the form was checked before: a form nobody touched does not load the validator (issue 18).
    if (this.#wanted) this.want(true);
  }

  hostUpdated(): void {
    this.#readyChanged = false;
  }

  /** Whether the validator is there (loaded, or failed to load). */
  get ready(): boolean {
    return this.#ready;
  }

  /** Whether `ready` changed since the form's last update. */
  get readyChanged(): boolean {
    return this.#readyChanged;
  }

  /** Whether a check was asked for (`validate()`, a submit): the problems are shown. */
  get attempted(): boolean {
    return this.#attempted;
  }

  /** The problems found by the last check. */
  get issues(): FormIssue[] {
    return this.#issues;
  }

  #setReady(ready: boolean): void {
    if (ready === this.#ready) return;
    this.#ready = ready;
    this.#readyChanged = true;
    this.#host.requestUpdate();
  }

  #show(attempted: boolean, issues: FormIssue[]): void {
    this.#attempted = attempted;
    this.#issues = issues;
    this.#host.requestUpdate();
  }

  /**
   * Loads the validator (cached by the core) for the form's tool, with the
   * pattern engine if its schema has patterns (`true`: a schema without), on
   * the first occasion to check — not on render: a page showing a form pays
   * for the validator once the user starts on it.
   */
  want(again = false): void {
    if (this.#wanted && !again) return;
    this.#wanted = true;
    this.#load(this.#host.effectiveTool?.inputSchema ?? true);
  }

  /** Loads the validator for `schema` (and the wording of its verdicts); ready once loaded or failed (why is kept). */
  #load(schema: unknown): void {
    void loadChecks(schema).then(
      () => {
        this.#setReady(true);
      },
      (error: unknown) => {
        this.#failure = (error as Error).message;
        this.#setReady(true);
      },
    );
  }

  /** Forgets the compiled schema (the form is set up anew). */
  clear(): void {
    this.#validator = undefined;
    this.#schemaError = undefined;
  }

  /** Compiles the tool's `schema` once the validator is there; problems shown are found again with it. */
  compile(schema: unknown): void {
    try {
      this.#validator = compileSchemaSync(schema);
      // validate() before the validator had loaded: add the schema's problems now.
      this.recheck();
    } catch (error) {
      if ((error as McpClientError).data?.loaded === false) {
        if (this.#failure !== undefined) {
          // Loading failed (offline, a blocked chunk): say so once, never retry in a loop that would freeze the page.
          this.#schemaError = `the schema validator could not be loaded: ${this.#failure}`;
          return;
        }
        // useSchemaCompiler() switched libraries after this form was ready, or the schema has patterns
        // and the pattern engine is not loaded yet: wait for what is missing.
        this.#setReady(false);
        this.#load(schema);
        return;
      }
      this.#schemaError = (error as Error).message;
    }
  }

  /**
   * Before a submit: when the validator is not there yet (nothing was edited),
   * still loading, or could not load (tried again, once per submit), waits for
   * it and the form's update after it rather than send arguments nobody
   * checked; otherwise undefined, at once.
   */
  wait(schema: unknown): Promise<void> | undefined {
    const failedBefore = this.#failure !== undefined && !this.#validator;
    if (this.#ready && !failedBefore) return undefined;
    return this.#wait(schema, failedBefore);
  }

  async #wait(schema: unknown, failedBefore: boolean): Promise<void> {
    this.#wanted = true;
    this.awaiting = true;
    try {
      // A failure is kept, so the render before the call already says the arguments go unchecked.
      if (failedBefore) this.#setReady(false);
      await loadChecks(schema).then(
        () => (this.#failure = undefined),
        (error: unknown) => (this.#failure = (error as Error).message),
      );
      this.#setReady(true);
      await this.#host.updateComplete;
    } finally {
      this.awaiting = false;
    }
  }

  /** Builds the arguments and every problem with them (local and against the schema). */
  #check(): { arguments: JsonRecord; issues: FormIssue[] } {
    this.#checkedDraft = this.#form.draft();
    this.#partial = false;
    const model = this.#form.model();
    if (!model) return { arguments: {}, issues: [] };
    const unions: UnionChoice[] = [];
    const { arguments: args, issues: local } = parts!.buildArguments(model, this.#form.draft(), unions);
    const outcome = this.#validator?.(args);
    // The wording loads with the validator; a verdict without it (never expected) is shown as the validator gives it, never dropped.
    if (!issueWording) return { arguments: args, issues: [...local, ...(outcome && !outcome.valid ? outcome.issues.map((issue) => ({ pointer: issue.path, message: issue.message })) : [])] };
    return { arguments: args, issues: issueWording.formIssues(model, outcome, unions, local) };
  }

  /** Checks the arguments now and shows their problems; the arguments, and the problems (none: they can be sent). */
  attempt(): { arguments: JsonRecord; issues: FormIssue[] } {
    const checked = this.#check();
    this.#show(true, checked.issues);
    return checked;
  }

  /**
   * Finds the problems shown again after an edit, once a check was asked for.
   * A keystroke (`final` false) that changed one control's value checks that
   * field alone against its own subschema, and keeps every other problem
   * shown (issue 30: the work of a key does not grow with the form); anything
   * else, or a field the validator cannot check alone, checks the whole form.
   * The whole form is checked again on the control's `change` ({@link settle})
   * and on submit, which also bring what the field changes elsewhere (a
   * condition, a union).
   */
  recheck(final = true): void {
    if (!this.#attempted) return;
    if (final || !this.#recheckEdited()) this.#show(true, this.#check().issues);
  }

  /** After keystrokes checked alone (a control's `change`, on blur): the whole form. */
  settle(): void {
    if (this.#partial) this.recheck();
  }

  #recheckEdited(): boolean {
    const model = this.#form.model();
    const draft = this.#form.draft();
    const issues = model && parts && this.#validator && issueWording ? parts.editedIssues(model, this.#checkedDraft, draft, this.#issues, issueWording.formIssues) : undefined;
    if (!issues) return false;
    this.#checkedDraft = draft;
    this.#partial = true;
    this.#show(true, issues);
    return true;
  }

  /** Shows no problems until the next check is asked for (a reset, another tool). */
  forget(): void {
    this.#show(false, []);
  }

  /** The remark the form shows about the schema of `model`: why it cannot be a form, or cannot be checked, or what the checks skip. */
  notice(model: FormModel): string | undefined {
    const skipped = this.#validator?.skipped;
    return (
      model.problem?.message ??
      (this.#schemaError ? `The input schema cannot be checked (${this.#schemaError}); arguments are sent without checking.` : model.notice?.message) ??
      (skipped?.length ? skipped.join(' ') : undefined)
    );
  }
}
