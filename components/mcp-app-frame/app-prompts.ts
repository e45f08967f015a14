/**
 * The questions `<mcp-app-frame>` asks the user on its app's behalf (a tool
 * call the policy leaves to the user, a link the app wants opened): what one
 * is, how it is drawn, and the limits on them. The app has the user's pointer,
 * so a question's Allow works only once it has been on screen a moment, and
 * only once all of a call's arguments have been shown. The element keeps the
 * questions waiting and shows the first (mcp-app-frame.ts).
 *
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';

/**
 * What an app asks for: a tool call (its title, its name, its arguments as
 * JSON; `remember`: the answer may be remembered, i.e. the tool is not
 * destructive), a link to open, or files to save (from the server at `host`).
 */
export type AppQuestion =
  | { kind: 'tool'; title: string; name: string; args: string; remember: boolean }
  | { kind: 'link'; url: URL }
  | { kind: 'download'; host: string; files: { name: string; size: number }[] };

/**
 * The user's answer: `deny`, `once` (this call), `app` (every call of this tool
 * from this app while its frame lives) or `always` (every call of this tool by
 * apps of this server, remembered in IndexedDB).
 */
export type AppAnswer = 'deny' | 'once' | 'app' | 'always';

/** A question asked, until the user answers it (or the app goes away). */
export type Prompt = AppQuestion & {
  resolve(answer: AppAnswer): void;
  /** Allow works: the question has been on screen for PROMPT_ARM_MS. */
  armed?: boolean;
  armTimer?: ReturnType<typeof setTimeout>;
};

/** Questions to the user waiting at once; more are refused. */
export const MAX_PROMPTS = 4;
/**
 * Characters of a call's arguments shown in the question at first. Longer ones
 * are shown in part, and Allow waits until the user has shown all of them: an
 * app must not hide what it sends behind a screenful of padding.
 */
const PROMPT_PREVIEW_CHARS = 4000;
/**
 * How long a question is on screen before its Allow button works, in ms. The
 * app has the user's pointer and decides when to ask and how tall it is, so it
 * can open a question under a click it invited (a double click, a game): as
 * browsers do for their own permission prompts, the first instants of a
 * question do not count as an answer.
 */
export const PROMPT_ARM_MS = 500;

/**
 * A question as shown over the app: what the app asks for (`appName` is the
 * name it gave at `ui/initialize`), the arguments or URL in full or in part
 * (`expanded`: the user chose to see all; `expand` is how), Allow and Deny.
 */
export function renderPrompt(prompt: Prompt, appName: string | undefined, expanded: boolean, expand: () => void): TemplateResult {
  const app = appName ? `“${appName}”` : 'This app';
  // The tool's own name too when its title says something else: the title is the server's words.
  const tool = prompt.kind === 'tool' ? html`<strong>${prompt.title}</strong>${prompt.title !== prompt.name ? html` (<code>${prompt.name}</code>)` : nothing}` : nothing;
  const text =
    prompt.kind === 'tool'
      ? html`${app} wants to call the tool ${tool} with these arguments:`
      : prompt.kind === 'link'
        ? html`${app} wants to open a page on <strong>${prompt.url.host}</strong>:`
        : html`${app} wants to save ${prompt.files.length === 1 ? 'a file' : `${prompt.files.length} files`} from <strong>${prompt.host}</strong>:`;
  const partial = prompt.kind === 'tool' && prompt.args.length > PROMPT_PREVIEW_CHARS && !expanded;
  const detail =
    prompt.kind === 'tool'
      ? partial
        ? `${prompt.args.slice(0, PROMPT_PREVIEW_CHARS)}…`
        : prompt.args
      : prompt.kind === 'link'
        ? prompt.url.href
        : prompt.files.map((f) => `${f.name} (${f.size.toLocaleString('en')} bytes)`).join('\n');
  const allowLabel = prompt.kind === 'tool' ? 'Allow' : prompt.kind === 'link' ? `Open ${prompt.url.host}` : 'Save';
  return html`<div part="prompt" role="alertdialog" aria-labelledby="prompt-text" aria-describedby="prompt-detail">
    <p part="prompt-text" id="prompt-text">${text}</p>
    <pre part="prompt-detail" id="prompt-detail">${detail}</pre>
    ${partial
      ? html`<p part="prompt-note">Only the first ${PROMPT_PREVIEW_CHARS.toLocaleString('en')} of ${prompt.args.length.toLocaleString('en')} characters are shown: show all of them to allow the call.</p>
          <button type="button" part="show-all-button" @click=${expand}>Show all ${prompt.args.length.toLocaleString('en')} characters</button>`
      : nothing}
    <div class="actions">
      ${allowButton(prompt, partial, 'once', allowLabel)}
      ${prompt.kind === 'tool' && prompt.remember
        ? html`${allowButton(prompt, partial, 'app', 'Allow for this app')}${allowButton(prompt, partial, 'always', 'Always allow this tool for this server')}`
        : nothing}
      <button type="button" part="deny-button" @click=${() => prompt.resolve('deny')}>${prompt.kind === 'tool' ? 'Deny' : 'Cancel'}</button>
    </div>
  </div>`;
}

/** An answer that allows: works once the question is armed and everything has been shown. */
function allowButton(prompt: Prompt, partial: boolean, answer: Exclude<AppAnswer, 'deny'>, label: string): TemplateResult {
  return html`<button type="button" part="allow-button" data-answer=${answer} ?disabled=${partial || !prompt.armed} @click=${() => !partial && prompt.armed && prompt.resolve(answer)}>${label}</button>`;
}
