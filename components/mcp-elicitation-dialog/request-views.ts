/**
 * How `<mcp-elicitation-dialog>` draws a request: the parts every request has
 * (its heading, the server's message within a budget, the history of its
 * call, the actions that end a round), the URL, sampling and roots requests,
 * and the offer to resume a call after a reload (a form request is
 * form-view.ts). What the user does goes back to the body (dialog-body.ts)
 * through {@link AskView}.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ContentBlock, CreateMessageRequestParams, ElicitRequestUrlParams, InputResponse, ListRootsResult, RoundEvent } from '../../src/index.js';
import { clip } from '../internal/json.js';
import { DESCRIPTION_CHARS, LABEL_CHARS } from '../internal/long-list.js';
import type { Ask } from './ask.js';
import type { DialogElement } from './dialog-host.js';
import type { PendingCall } from './pending.js';

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

/** What the views of a request may do: render again, read its call's rounds, and answer it the ways the user chooses. */
export interface AskView {
  /** The element: its update (`requestUpdate`, `updateComplete`) and shadow root (focus after a render). */
  readonly el: DialogElement;
  /** The round events of the ask's call so far. */
  rounds(ask: Ask): readonly RoundEvent[] | undefined;
  /** Requests still to come in the ask's round, plus those already waiting for the same call. */
  remaining(ask: Ask): number;
  /** Answers the ask (or fails it), and shows the next. */
  finish(ask: Ask, outcome: { response: InputResponse } | { error: unknown }): void;
  /** Decline or Cancel: the answer of that name for the ask's kind. */
  dismiss(ask: Ask, action: 'decline' | 'cancel'): void;
  /** Answers the ask and every later one of its round with `action`, unasked. */
  refuseRest(ask: Ask, action: 'decline' | 'cancel'): void;
  /** Ends the ask's call. */
  stopCall(ask: Ask): void;
  /** The form shown was submitted: to its review, then accepted. */
  submit(event: SubmitEvent): void;
  /** Stores what was typed for the ask, as it is typed. */
  saveAnswer(ask: Ask): void;
  /** The resume offer's answer: resume the call, or discard it. */
  resume(accept: boolean): Promise<void>;
}

/** The request's heading: its title, which server asks, the task it is for, the round and step. */
export function renderHeader(ask: Ask, title: string): TemplateResult {
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

/** The rounds of the ask's call so far, folded. */
export function renderTimeline(view: AskView, ask: Ask): TemplateResult | typeof nothing {
  const rounds = view.rounds(ask);
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

/** Server text shown within a budget: cut past DESCRIPTION_CHARS, with "Show all". */
export function longText(view: AskView, ask: Ask, key: string, text: string): { shown: string; toggle: TemplateResult | typeof nothing } {
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
      view.el.requestUpdate();
    }}
  >
    ${full ? 'Show less' : `Show all ${text.length.toLocaleString('en')} characters`}
  </button>`;
  return { shown: full ? text : clip(text, DESCRIPTION_CHARS), toggle };
}

/** The server's message, within the budget of {@link longText}. */
export function renderMessage(view: AskView, ask: Ask, message: unknown): TemplateResult {
  const { shown, toggle } = longText(view, ask, '\u0000message', String(message));
  return html`<p id="message" part="message">${shown}</p>${toggle}`;
}

/** "Decline all" and "Stop the call": at any point of a round, one action ends it. */
export function roundActions(view: AskView, ask: Ask): TemplateResult {
  const remaining = view.remaining(ask);
  return html`${remaining > 0
      ? html`<button type="button" data-action="decline-rest" @click=${() => view.refuseRest(ask, 'decline')}>Decline all ${remaining + 1}</button>`
      : nothing}
    <button type="button" data-action="stop" @click=${() => view.stopCall(ask)}>Stop the call</button>`;
}

/** Opens the reviewed URL; the user then continues here. */
function openUrl(view: AskView, ask: Ask): void {
  if (!ask.url?.ok) return;
  // A new top-level tab the page cannot script or read (client/elicitation "Safe URL Handling").
  window.open(ask.url.href, '_blank', 'noopener,noreferrer');
  // A 2025-11-25 server's own request: accept is consent to open, so it is sent now, not after Continue
  // (the server is blocked until it arrives); the dialog stays until the server reports completion or Continue.
  if (ask.context.urlAnswer === 'on-open') ask.answerEarly?.({ action: 'accept' });
  ask.step = 'opened';
  view.el.requestUpdate();
  void view.el.updateComplete.then(() => view.el.renderRoot.querySelector<HTMLElement>('[data-action="continue"]')?.focus());
}

/** A URL-mode elicitation: the URL to review, then Continue once it was opened. */
export function renderUrl(view: AskView, ask: Ask): TemplateResult {
  const params = ask.request.params as ElicitRequestUrlParams;
  const review = ask.url!;
  const opened = ask.step === 'opened';
  return html`<form method="dialog" @submit=${(e: Event) => e.preventDefault()}>
    ${renderHeader(ask, opened ? 'Finish on the other page' : 'The server asks you to open a page')}
    ${renderMessage(view, ask, params.message)}
    <p part="url" aria-label="Full URL">${review.parts.before}<strong part="url-host">${review.parts.host}</strong>${review.parts.after}</p>
    ${review.parts.host ? html`<p>This opens <strong>${review.unicodeHost ?? review.parts.host}</strong> in a new tab.</p>` : nothing}
    ${review.warnings.map((warning) => html`<p part="warning">${warning}</p>`)}
    ${review.refusal ? html`<p part="error" role="alert">${review.refusal}</p>` : nothing}
    ${opened
      ? ask.context.urlAnswer === 'on-open'
        ? html`<p>The server was told you opened the page. This closes when the server reports the step done, or continue here when you have finished.</p>`
        : html`<p>When you have finished there, continue here. The server will check whether the step is complete.</p>`
      : nothing}
    ${renderTimeline(view, ask)}
    <div part="actions">
      ${opened
        ? html`<button type="button" class="primary" data-action="continue" @click=${() => view.finish(ask, { response: { action: 'accept' } })}>Continue</button>`
        : review.ok
          ? html`<button type="button" class="primary" data-action="open" @click=${() => openUrl(view, ask)}>Open ${review.parts.host}</button>`
          : nothing}
      ${opened ? nothing : html`<button type="button" data-action="decline" @click=${() => view.dismiss(ask, 'decline')}>Decline</button>`}
      <button type="button" data-action="cancel" @click=${() => view.dismiss(ask, 'cancel')}>Cancel</button>
      ${roundActions(view, ask)}
    </div>
  </form>`;
}

function renderBlock(block: ContentBlock): TemplateResult {
  if (typeof block !== 'object' || block === null) return html`<em>[unreadable content]</em>`;
  const b = block as { type: string; text?: string; data?: string; mimeType?: string };
  if (b.type === 'text') return html`${clip(String(b.text ?? ''), DESCRIPTION_CHARS)}`;
  if (b.type === 'image' && typeof b.data === 'string' && IMAGE_TYPES.has(String(b.mimeType))) return html`<img alt="Image from the server" src="data:${b.mimeType};base64,${b.data}" />`;
  if (b.type === 'audio' && typeof b.data === 'string' && AUDIO_TYPES.has(String(b.mimeType))) return html`<audio controls src="data:${b.mimeType};base64,${b.data}"></audio>`;
  return html`<em>[${clip(String(b.type), LABEL_CHARS)} content${b.mimeType ? ` (${clip(String(b.mimeType), LABEL_CHARS)})` : ''}]</em>`;
}

/** Sends the reply written (or drafted) for a sampling request. */
function sendSample(view: AskView, ask: Ask): void {
  const draft = ask.draft!;
  const text = draft.text.trim();
  if (!text) {
    ask.errors.set('reply', 'Write a reply, or reject the request.');
    view.el.requestUpdate();
    return;
  }
  view.finish(ask, { response: { role: 'assistant', content: { type: 'text', text }, model: draft.model.trim() || 'user', stopReason: 'endTurn' } });
}

/** A sampling request: the conversation, and the reply to edit and send. */
export function renderSampling(view: AskView, ask: Ask): TemplateResult {
  const params = ask.request.params as CreateMessageRequestParams;
  const draft = ask.draft!;
  const error = ask.errors.get('reply');
  const preferences = params.modelPreferences;
  const hints = Array.isArray(preferences?.hints) ? preferences.hints.map((h) => (typeof h?.name === 'string' ? h.name : '')).filter(Boolean) : [];
  return html`<form method="dialog" @submit=${(e: Event) => (e.preventDefault(), sendSample(view, ask))}>
    ${renderHeader(ask, 'The server asks your model for a reply')}
    <p id="message" part="message">Review the conversation the server wants answered. You may edit the reply before sending it, or reject the request.</p>
    ${params.systemPrompt ? html`<p><strong>System prompt:</strong> ${clip(String(params.systemPrompt), DESCRIPTION_CHARS)}</p>` : nothing}
    <ol part="messages" aria-label="Messages">
      ${params.messages.slice(0, MESSAGES_SHOWN).map(
        (message) =>
          html`<li><strong>${clip(String(message.role), LABEL_CHARS)}:</strong> ${(Array.isArray(message.content) ? message.content : [message.content]).slice(0, MESSAGES_SHOWN).map((block) => renderBlock(block))}</li>`,
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
        @input=${(e: Event) => ((draft.text = (e.target as HTMLTextAreaElement).value), ask.errors.delete('reply'), view.saveAnswer(ask))}></textarea>
      ${error ? html`<span part="field-error" id="reply-error">${error}</span>` : nothing}
    </div>
    <div class="field">
      <label for="model">Model name</label>
      <input id="model" .value=${draft.model} @input=${(e: Event) => (draft.model = (e.target as HTMLInputElement).value)} />
    </div>
    ${renderTimeline(view, ask)}
    <div part="actions">
      <button type="submit" class="primary" data-action="send" ?disabled=${draft.drafting}>Send</button>
      <button type="button" data-action="reject" @click=${() => view.dismiss(ask, 'decline')}>Reject</button>
      ${roundActions(view, ask)}
    </div>
  </form>`;
}

/** A roots request: the roots to share, or not. */
export function renderRoots(view: AskView, ask: Ask): TemplateResult {
  const roots = ask.roots ?? [];
  return html`<form method="dialog" @submit=${(e: Event) => (e.preventDefault(), view.finish(ask, { response: { roots } }))}>
    ${renderHeader(ask, 'The server asks which folders it may use')}
    <p id="message" part="message">${roots.length === 1 ? 'Share this root with the server?' : roots.length ? `Share these ${roots.length} roots with the server?` : 'There are no roots configured to share.'}</p>
    <ul>
      ${roots.map((root) => html`<li>${root.name ? html`<strong>${root.name}</strong> — ` : nothing}${root.uri}</li>`)}
    </ul>
    ${renderTimeline(view, ask)}
    <div part="actions">
      <button type="submit" class="primary" data-action="share">Share</button>
      <button type="button" data-action="decline" @click=${() => view.dismiss(ask, 'decline')}>Don't share</button>
      ${roundActions(view, ask)}
    </div>
  </form>`;
}

/** The offer to resume a call a reload left unanswered. */
export function renderResume(view: AskView, pending: PendingCall): TemplateResult {
  // The message's spaces are as they were in dialog-body.ts: the paragraph is `white-space: pre-wrap`, so they show.
  return html`<form method="dialog" @submit=${(e: Event) => (e.preventDefault(), void view.resume(true))}>
    <div part="header">
      <h2 id="title" part="title">Continue where you left off?</h2>
    </div>
    <p id="message" part="message">
        ${pending.method} ${clip(pending.target ?? '', LABEL_CHARS)} was waiting for your answer ${timeAgo(Date.now() - pending.savedAt)}, before the page was reloaded.
      </p>
    <div part="actions">
      <button type="submit" class="primary" data-action="resume">Resume</button>
      <button type="button" data-action="discard" @click=${() => void view.resume(false)}>Discard</button>
    </div>
  </form>`;
}
