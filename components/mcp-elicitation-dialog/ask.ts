/**
 * One input request as `<mcp-elicitation-dialog>` asks it (`Ask`): its state
 * from the moment it is queued to its answer, the answers put back after a
 * reload, and for a form, the content it sends and the checks before the
 * review. No rendering: the views (form-view.ts, request-views.ts) draw an
 * ask, the body (dialog-body.ts) moves it along.
 *
 * @module
 */
import { compileSchemaSync, type ElicitRequestFormParams, type ElicitRequestUrlParams, type InputContext, type InputRequest, type InputResponse, type McpClient, type Root, type Validator } from '../../src/index.js';
import { initialValues, parseRequestedSchema, type Field, type FieldValue } from './elicitation-form.js';
import type { SavedAnswer } from './pending.js';
import { reviewUrl, type UrlReview } from './url.js';

/** The kinds of request the dialog shows. */
export type Kind = 'form' | 'url' | 'sampling' | 'roots';

/** One request being asked (or waiting to be): what it is, its answer as the user makes it, and how it ends. */
export interface Ask {
  kind: Kind;
  /** The client whose call asks (call ids are per client). */
  client: McpClient;
  request: InputRequest;
  context: InputContext;
  resolve(response: InputResponse): void;
  reject(error: unknown): void;
  /**
   * Answers the request while it stays shown (URL mode, `urlAnswer: 'on-open'`:
   * `accept` goes out when the page opens); the ask still ends with `resolve`,
   * or when its signal aborts (the server reported the step complete).
   */
  answerEarly?(response: InputResponse): void;
  step: 'fill' | 'review' | 'opened';
  /** The host's policy marks this request sensitive (`reviewRequired`): a form answer goes through its review. */
  mustReview?: boolean;
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

/** Answers typed before a reload, for the call being resumed (by input request key), and the requests they answer. */
export interface RestoredAnswers {
  answers: Record<string, SavedAnswer>;
  requests: Record<string, unknown>;
}

/** The state of a request about to be asked; `roots` are those to offer (for `roots/list`). */
export function prepareAsk(client: McpClient, request: InputRequest, context: InputContext, resolve: Ask['resolve'], reject: Ask['reject'], roots: () => Root[] | undefined): Ask {
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
  return { ...base, kind: 'roots', roots: roots() ?? [] };
}

/** Puts back what was typed for this very request before a reload; true when something was. */
export function restoreAnswer(ask: Ask, restored: RestoredAnswers | undefined): boolean {
  const saved = restored && Object.hasOwn(restored.answers, ask.context.key) ? restored.answers[ask.context.key] : undefined;
  // Only into the same request: a server that asks something else under the key gets an empty form.
  if (!saved || !restored || JSON.stringify(restored.requests[ask.context.key]) !== JSON.stringify(ask.request)) return false;
  const known = new Set((ask.fields ?? []).map((field) => field.key));
  for (const [key, value] of saved.values) if (known.has(key)) ask.values.set(key, value);
  for (const [key, value] of saved.typed) if (known.has(key)) ask.typed.set(key, value);
  if (ask.draft && saved.reply !== undefined) ask.draft.text = saved.reply;
  return true;
}

/** What a form sends: the values set (a required yes/no left unticked as false), none empty. */
export function formContent(ask: Ask): Record<string, FieldValue> {
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

/**
 * Checks a form's answer: marks the fields whose value cannot be sent or is
 * missing, and the schema's complaints (`formError` for the answer as a
 * whole); `notice` says when the schema cannot be used whole.
 */
export function checkForm(ask: Ask): void {
  ask.errors.clear();
  ask.formError = undefined;
  ask.notice = undefined;
  const content = formContent(ask);
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
}
