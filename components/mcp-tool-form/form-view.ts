/**
 * What `<mcp-tool-form>` shows around its fields, as templates of what they
 * show: what it says while it has none, the header (title, name, description), the list of problems after a
 * refused submit, the confirmation of a destructive tool, the progress bar,
 * and the wording of errors and of the live region's announcements; and where
 * focus goes in the form (a part, the first problem, the field of a problem).
 * The element decides when each is shown.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { McpClientError, McpRpcError, type McpClient, type McpError, type Tool, type ToolCallResult } from '../../src/index.js';
import { dottedPath, idFor } from '../internal/dom.js';
import { clip, isRecord, stringifyBounded, type JsonRecord } from '../internal/json.js';
import { DESCRIPTION_CHARS, LABEL_CHARS } from '../internal/long-list.js';
import type { CallProgress } from './form-call.js';
import type { FormIssue } from './issues.js';
import { usableTool } from './tool-source.js';

/** Key of the tool description shown in full (fields use their JSON Pointer plus `#description`). */
export const TOOL_DESCRIPTION = '\u0000tool-description';

/** Problems listed in the summary at most (each is also marked at its field). */
const SUMMARY_ISSUES = 50;

/**
 * The tool's display name, always a string: a definition set directly on `.tool`
 * has not been through the client's checks, and Lit would treat some objects as templates.
 */
export function toolTitle(tool: Tool): string {
  if (typeof tool.title === 'string') return tool.title;
  if (typeof tool.annotations?.title === 'string') return tool.annotations.title;
  return tool.name;
}

/** What the live region says when a call returns: the tool and the start of its first text, once. */
export function resultAnnouncement(tool: Tool, result: ToolCallResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.find((block): block is { type: 'text'; text: string } => isRecord(block) && block.type === 'text' && typeof block.text === 'string');
  const gist = text ? text.text.trim().replace(/\s+/g, ' ') : '';
  const summary = gist.length > 200 ? `${gist.slice(0, 200)}…` : gist || (content.length > 0 ? `${content.length} content block${content.length === 1 ? '' : 's'}.` : 'no content.');
  return result.isError === true ? `${toolTitle(tool)} reported an error: ${summary}` : `Result of ${toolTitle(tool)}: ${summary}`;
}

/** The form as its status reads it (its public properties). */
export interface StatusForm {
  readonly phase: string;
  readonly toolName: string;
  readonly tool: Tool | undefined;
  readonly effectiveTool: Tool | undefined;
  readonly effectiveClient: McpClient | undefined;
}

/** What the form shows while it has no fields: loading, waiting for the tool or a client, or why it cannot show one. */
export function formStatus(form: StatusForm, loadError: McpError | undefined, partsFailure: string | undefined): TemplateResult {
  return html`<div part="form">
    ${form.phase === 'loading' ? html`<p part="status" role="status">Loading the tool ${form.toolName}…</p>` : nothing}
    ${loadError ? html`<div part="call-error" role="alert">${errorText(loadError)}</div>` : nothing}
    ${partsFailure !== undefined && form.effectiveTool ? html`<div part="call-error" role="alert">The form cannot be shown: ${partsFailure}</div>` : nothing}
    ${form.tool && !usableTool(form.tool) ? html`<div part="call-error" role="alert">The tool definition has no string name or no object inputSchema.</div>` : nothing}
    ${!loadError && !form.tool && form.phase !== 'loading'
      ? html`<p part="status" role="status">${form.toolName ? (form.effectiveClient ? `Waiting for the tool ${form.toolName}…` : 'No client: put this form inside <mcp-connection> or set .client.') : 'No tool selected.'}</p>`
      : nothing}
  </div>`;
}

/** The header: the tool's title, its name when the title differs, and its description, cut past DESCRIPTION_CHARS until shown in `full`. */
export function header(tool: Tool, full: boolean, toggle: () => void): TemplateResult {
  const title = toolTitle(tool);
  const description = typeof tool.description === 'string' ? tool.description : '';
  // Server-sent text is shown within a budget: a 5 MiB description is cut, with "Show all".
  const long = description.length > DESCRIPTION_CHARS;
  // No whitespace but between the name and the badge, inline side by side (issue 30: text nodes cost on every first render).
  return html`<slot name="header"><div part="header"><h2 part="title">${clip(title, LABEL_CHARS)}</h2>${title !== tool.name ? html`<code part="tool-name">${clip(tool.name, LABEL_CHARS)}</code>` : nothing} ${tool.annotations?.destructiveHint === true ? html`<span part="badge">destructive</span>` : nothing}${description ? html`<p part="description">${long && !full ? clip(description, DESCRIPTION_CHARS) : description}</p>` : nothing}${long
    ? html`<button type="button" part="show-all-button" class="small" aria-expanded=${full ? 'true' : 'false'} @click=${toggle}>${full ? 'Show less' : `Show all ${description.length.toLocaleString('en')} characters`}</button>`
    : nothing}</div></slot>`;
}

/** The problems that keep the tool from being called (after a submit attempt), each a button to its field. */
export function problemSummary(issues: readonly FormIssue[], focusIssue: (pointer: string) => void): TemplateResult | typeof nothing {
  if (issues.length === 0) return nothing;
  const count = issues.length;
  return html`<div part="error-summary" role="alert" tabindex="-1">
    <strong>${count === 1 ? 'One problem' : `${count} problems`} to fix before the tool can be called:</strong>
    <ul>
      ${issues.slice(0, SUMMARY_ISSUES).map(
        (issue) =>
          html`<li>
            <button type="button" @click=${() => focusIssue(issue.pointer)}>${issue.pointer === '' ? 'Arguments' : clip(dottedPath(issue.pointer), LABEL_CHARS)}</button>: ${clip(issue.message, DESCRIPTION_CHARS)}
          </li>`,
      )}
    </ul>
    ${count > SUMMARY_ISSUES ? html`<p>…and ${(count - SUMMARY_ISSUES).toLocaleString('en')} more; they are marked at their fields.</p>` : nothing}
  </div>`;
}

/** The question before calling a tool marked `destructiveHint`, with the arguments; `answer` gets the user's choice. */
export function confirmPanel(tool: Tool, args: JsonRecord, answer: (ok: boolean) => void): TemplateResult {
  const id = idFor('c', tool.name);
  return html`<div part="confirm" role="group" aria-labelledby="${id}-title" aria-describedby="${id}-text">
    <p id="${id}-title"><strong>${clip(toolTitle(tool), LABEL_CHARS)} is marked as destructive.</strong></p>
    <p id="${id}-text">It may delete or overwrite data. Call it with these arguments?</p>
    <pre part="confirm-arguments">${stringifyBounded(args).text}</pre>
    <div part="actions">
      <button type="button" part="confirm-button" @click=${() => answer(true)}>Call ${clip(tool.name, LABEL_CHARS)}</button>
      <button type="button" part="confirm-cancel" @click=${() => answer(false)}>Don't call</button>
    </div>
  </div>`;
}

/** The progress of a running call (not a task: see `renderTask`), with the server's last progress notification. */
export function progressBar(p: CallProgress | undefined): TemplateResult {
  const label = p?.total ? `${p.progress} of ${p.total}` : p ? `${p.progress}` : '';
  return html`<div part="progress" role="status" aria-live="polite">
    <progress part="progress-bar" aria-label="Tool call progress" max=${p?.total ?? 1} .value=${p?.total ? p.progress : (null as unknown as number)}></progress>
    <span part="progress-message">${p?.message ?? (label ? `Progress: ${label}` : 'Calling the tool…')}</span>
  </div>`;
}

/**
 * The arguments preview: a disclosure button and, once open, the region with
 * `content` (what will be sent, built only then). A button and a region rather
 * than `<details>` (issue 30): a closed preview is one button in the first
 * render, not a `<details>` with its summary and internal slots to lay out.
 * The button says whether it is open (`aria-expanded`) and, while open, names
 * the region it controls (`aria-controls`: never an id that is not there).
 */
export function preview(tool: Tool, open: boolean, content: TemplateResult | typeof nothing, setOpen: (open: boolean) => void): TemplateResult {
  const id = idFor('p', tool.name);
  return html`<button type="button" part="preview-toggle" class="disclosure" aria-expanded=${open ? 'true' : 'false'} aria-controls=${ifDefined(open ? id : undefined)} @click=${() => setOpen(!open)}>Arguments that will be sent to ${clip(tool.name, LABEL_CHARS)}</button>${open ? html`<div part="preview" id=${id} role="region" aria-label="Arguments that will be sent">${content}</div>` : nothing}`;
}

/** Why loading the tool or calling it failed, as the form says it. */
export function errorText(error: McpError): string {
  if (McpRpcError.isInstance(error)) return `The server refused the call: ${error.message} (JSON-RPC error ${error.code})`;
  return `${error.message}${McpClientError.isInstance(error) ? ` (${error.code})` : ''}`;
}

/** Focuses the element of part `name` in `root`; whether it has focus now. */
export function focusPart(root: ParentNode, name: string): boolean {
  const element = root.querySelector<HTMLElement>(`[part~="${name}"]`);
  element?.focus();
  return element !== null && (root as ShadowRoot).activeElement === element;
}

/** The control of a field's wrapper (or the field itself, when it is the control). */
function controlOf(field: Element | null | undefined): HTMLElement | null | undefined {
  return field?.matches('input, select, textarea') ? (field as HTMLElement) : (field?.querySelector('input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])') as HTMLElement | null);
}

/** Focuses the first field that shows a problem, else the list of problems. */
export function focusFirstError(root: ParentNode): void {
  const control = controlOf(root.querySelector('[data-invalid]'));
  if (control) control.focus();
  else (root.querySelector('[part~="error-summary"]') as HTMLElement | null)?.focus();
}

/** Focuses the field of the problem at `pointer`. */
export function focusIssue(root: ParentNode, pointer: string): void {
  // The field itself, or the nearest field above it that is shown.
  let at = pointer;
  for (;;) {
    const control = controlOf([...root.querySelectorAll('[data-pointer]')].find((element) => element.getAttribute('data-pointer') === at));
    if (control) {
      control.focus();
      return;
    }
    if (at === '') return;
    at = at.slice(0, at.lastIndexOf('/'));
  }
}
