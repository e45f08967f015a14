import { consume } from '@lit/context';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { CallToolResult, GetPromptResult, JsonObject, McpClient, ReadResourceResult } from '../../src/index.js';
import { clientContext, connectionContext } from '../context.js';
import { defineElement } from '../define.js';
import { McpHistoryEditEvent, McpHistoryRerunEvent, type McpErrorEvent, type McpPromptResultEvent, type McpResourceReadEvent, type McpToolCallEvent, type McpToolResultEvent } from '../events.js';
import { toggleState } from '../internal/dom.js';
import { clip, stringifyBounded } from '../internal/json.js';
import { PageSchemeController, schemeStyles } from '../internal/scheme.js';
import { publicUrl } from '../internal/url-secrets.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import { clearCalls, keptResult, loadCalls, saveCall, summarize, type CallKind, type CallOutcome, type CallRecord } from './records.js';
import { styles } from './mcp-call-history.styles.js';

export type { CallKind, CallOutcome, CallRecord } from './records.js';
export { McpHistoryEditEvent, McpHistoryRerunEvent } from '../events.js';

/** Outgoing requests still waiting for their answer, per method: when and with what they were sent. */
interface Sent {
  at: number;
  name: string;
  args: Record<string, unknown>;
}

/** Requests remembered per method for timing; older ones (answered by no event: an app's reads) drop out. */
const SENT_KEPT = 20;
/** Characters of a stored result or arguments shown in the detail. */
const SHOWN_CHARS = 20_000;

/**
 * The history of a connection's calls: each `tools/call`, `prompts/get` and
 * `resources/read` the kit's elements inside the same `<mcp-connection>` make
 * (time, server, name, an arguments summary, outcome and duration), kept in
 * IndexedDB per server (without the URL's credentials) up to `limit` records,
 * newest first, across reloads. Selecting a record shows its arguments and
 * result again; **Re-run** sends it again and **Edit** puts its arguments into
 * the connection's `<mcp-tool-form>` (through its `toolName` and `arguments`),
 * unless a listener of `mcp-history-rerun` / `mcp-history-edit` calls
 * `preventDefault()`. Re-run of a tool goes through that form, so a
 * destructive tool is confirmed again; a prompt or resource is asked for
 * through the client.
 *
 * Outside a connection, set `.client` and add records with `record()`.
 *
 * @tagname mcp-call-history
 * @summary The calls, prompt gets and resource reads of a connection: listed, kept, shown again, re-run and edited.
 *
 * @event mcp-history-rerun - Re-run was chosen; `detail.record` is the record. Cancelable.
 * @event mcp-history-edit - Edit was chosen (tool records); `detail.record` is the record. Cancelable.
 *
 * @csspart toolbar - The count and the Clear button.
 * @csspart clear-button - Forgets this server's history.
 * @csspart entries - The list of records (scrolls; `--mcp-call-history-max-height`).
 * @csspart entry - One record (`data-outcome`, `data-kind`).
 * @csspart entry-button - Selects a record.
 * @csspart time - When it started.
 * @csspart name - The tool, prompt or resource.
 * @csspart summary - The arguments, on one line.
 * @csspart server - The server's host.
 * @csspart outcome - ok, tool error, error, stopped, running.
 * @csspart duration - How long it took.
 * @csspart detail - The selected record: arguments, result, actions.
 * @csspart json - Arguments or result as JSON.
 * @csspart actions - Re-run and Edit.
 * @csspart rerun-button - Sends the record again.
 * @csspart edit-button - Puts its arguments into the tool form.
 * @csspart status - "No calls yet".
 *
 * @cssproperty --mcp-call-history-max-height - Height of the list before it scrolls (default 16rem).
 * @cssproperty --mcp-color-success - ok.
 * @cssproperty --mcp-color-danger - Errors.
 * @cssproperty --mcp-color-warning - Stopped and running.
 *
 * @cssstate empty - No records.
 */
export class McpCallHistory extends LitElement {
  static override styles = [schemeStyles, styles];

  /** The client; default: the one of the enclosing `<mcp-connection>`. */
  @property({ attribute: false }) client: McpClient | undefined;
  /** Records kept per server, newest first (older ones are dropped); default 50. */
  @property({ type: Number }) limit = 50;

  @consume({ context: clientContext, subscribe: true })
  @state()
  protected contextClient: McpClient | undefined;

  @consume({ context: connectionContext, subscribe: true })
  @state()
  protected connection: McpConnection | undefined;

  @state() private _records: CallRecord[] = [];
  @state() private _selected: string | undefined;

  #internals = this.attachInternals();
  #listening: McpConnection | undefined;
  #watched: McpClient | undefined;
  #unwatch: (() => void) | undefined;
  /** The server whose records are shown (loaded once per server). */
  #server: string | undefined;
  /** Tool calls sent by an element and not answered yet. */
  readonly #pending = new Map<EventTarget, CallRecord>();
  readonly #sent = new Map<string, Sent[]>();
  #serial = 0;

  constructor() {
    super();
    new PageSchemeController(this, this.#internals);
  }

  /** The client in use: `.client`, else the connection's. */
  get effectiveClient(): McpClient | undefined {
    return this.client ?? this.contextClient;
  }

  /** The records shown, newest first. */
  get records(): readonly CallRecord[] {
    return this._records;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#listen(undefined);
    this.#watch(undefined);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Lit's context arrives before the first update; reconnecting (moved in the page) listens again.
    if (this.connection) this.#listen(this.connection);
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('connection')) this.#listen(this.connection);
    const client = this.effectiveClient;
    if (client !== this.#watched) this.#watch(client);
    const server = client ? publicUrl(client.url.href) : undefined;
    if (server !== this.#server) {
      this.#server = server;
      this._records = [];
      this._selected = undefined;
      if (server) void this.#load(server);
    }
  }

  protected override updated(): void {
    toggleState(this.#internals, 'empty', this._records.length === 0);
  }

  async #load(server: string): Promise<void> {
    const stored = await loadCalls(server);
    if (server !== this.#server) return;
    // A call that was running when the page went away has no answer to wait for.
    const loaded = stored.map((r) => (r.outcome === 'running' ? { ...r, outcome: 'stopped' as const } : r));
    const known = new Set(this._records.map((r) => r.id));
    this._records = [...this._records, ...loaded.filter((r) => !known.has(r.id))].slice(0, this.limit);
  }

  #listen(connection: McpConnection | undefined): void {
    if (connection === this.#listening) return;
    const events = ['mcp-tool-call', 'mcp-tool-result', 'mcp-error', 'mcp-prompt-result', 'mcp-resource-read'] as const;
    for (const type of events) this.#listening?.removeEventListener(type, this.#onEvent);
    this.#listening = connection;
    for (const type of events) connection?.addEventListener(type, this.#onEvent);
  }

  #watch(client: McpClient | undefined): void {
    this.#unwatch?.();
    this.#unwatch = undefined;
    this.#watched = client;
    this.#sent.clear();
    // Prompt gets and resource reads have no event before they are sent: their start is the request's.
    this.#unwatch = client?.on('traffic', (event) => {
      const message = event.message as { method?: unknown; id?: unknown; params?: Record<string, unknown> };
      if (event.direction !== 'out' || message.id === undefined) return;
      if (message.method !== 'prompts/get' && message.method !== 'resources/read') return;
      const params = message.params ?? {};
      const name = String(message.method === 'prompts/get' ? params.name : params.uri);
      const args = message.method === 'prompts/get' && typeof params.arguments === 'object' && params.arguments ? (params.arguments as Record<string, unknown>) : {};
      const list = this.#sent.get(message.method) ?? [];
      // A request sent again for another round (MRTR) keeps its first time.
      if (!list.some((s) => s.name === name)) list.push({ at: event.time, name, args });
      this.#sent.set(message.method, list.slice(-SENT_KEPT));
    });
  }

  /** The first request of `method` for `name` not answered yet, taken off the list. */
  #takeSent(method: string, name?: string): Sent | undefined {
    const list = this.#sent.get(method) ?? [];
    const index = name === undefined ? 0 : list.findIndex((s) => s.name === name);
    if (index < 0 || index >= list.length) return undefined;
    return list.splice(index, 1)[0];
  }

  #onEvent = (event: Event): void => {
    const target = event.target ?? this;
    switch (event.type) {
      case 'mcp-tool-call': {
        const { tool, arguments: args } = (event as McpToolCallEvent).detail;
        // Only a call that goes out: a listener that prevents it runs before or after this one, so look once it is dispatched.
        queueMicrotask(() => {
          if (event.defaultPrevented) return;
          const earlier = this.#pending.get(target);
          if (earlier) this.#finish(earlier, { outcome: 'stopped' });
          const record = this.#new('tool', tool, args);
          this.#pending.set(target, record);
          this.#store(record);
        });
        return;
      }
      case 'mcp-tool-result': {
        const { tool, arguments: args, result } = (event as McpToolResultEvent).detail;
        const pending = this.#pending.get(target);
        this.#pending.delete(target);
        const record = pending?.name === tool ? pending : this.#new('tool', tool, args, undefined);
        this.#finish(record, { outcome: (result as CallToolResult).isError === true ? 'tool-error' : 'ok', ...keptResult(result) }, pending?.name === tool);
        return;
      }
      case 'mcp-prompt-result': {
        const { prompt, arguments: args, result } = (event as McpPromptResultEvent).detail;
        const sent = this.#takeSent('prompts/get', prompt);
        this.#finish(this.#new('prompt', prompt, args, sent?.at), { outcome: 'ok', ...keptResult(result as GetPromptResult) }, sent !== undefined);
        return;
      }
      case 'mcp-resource-read': {
        const { uri, result } = (event as McpResourceReadEvent).detail;
        const sent = this.#takeSent('resources/read', uri);
        this.#finish(this.#new('resource', uri, {}, sent?.at), { outcome: 'ok', ...keptResult(result as ReadResourceResult) }, sent !== undefined);
        return;
      }
      case 'mcp-error': {
        const { error, during } = (event as McpErrorEvent).detail;
        if (during === 'tools/call') {
          const pending = this.#pending.get(target);
          if (!pending) return;
          this.#pending.delete(target);
          this.#finish(pending, { outcome: 'error', error: clip(error.message, 2000) });
        } else if (during === 'prompts/get' || during === 'resources/read') {
          const sent = this.#takeSent(during);
          if (sent) this.#finish(this.#new(during === 'prompts/get' ? 'prompt' : 'resource', sent.name, sent.args, sent.at), { outcome: 'error', error: clip(error.message, 2000) });
        }
        return;
      }
    }
  };

  #new(kind: CallKind, name: string, args: Record<string, unknown>, startedAt: number | undefined = Date.now()): CallRecord {
    return {
      id: `${Date.now().toString(36)}-${(this.#serial++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      kind,
      name,
      server: this.#server ?? '',
      arguments: args,
      startedAt: startedAt ?? Date.now(),
      outcome: 'running',
    };
  }

  #finish(record: CallRecord, end: Partial<CallRecord> & { outcome: CallOutcome }, timed = true): void {
    const done: CallRecord = { ...record, ...end, ...(timed ? { durationMs: Math.max(0, Date.now() - record.startedAt) } : {}) };
    this.#store(done);
  }

  /** Shows `record` (first when new) and stores it. */
  #store(record: CallRecord): void {
    const at = this._records.findIndex((r) => r.id === record.id);
    const next = [...this._records];
    if (at >= 0) next[at] = record;
    else next.unshift(record);
    this._records = next.slice(0, this.limit);
    const server = record.server;
    if (server) void saveCall(server, record, this.limit);
  }

  /**
   * Adds a record by hand (a call the page made itself), or replaces the one
   * with the same `id`. Its `server` defaults to the client's.
   */
  record(record: Omit<CallRecord, 'server' | 'id'> & Partial<Pick<CallRecord, 'server' | 'id'>>): CallRecord {
    const full: CallRecord = { ...this.#new(record.kind, record.name, record.arguments, record.startedAt), ...record } as CallRecord;
    this.#store(full);
    return full;
  }

  /** Forgets the records of the current server (here and in storage). */
  async clear(): Promise<void> {
    const server = this.#server;
    this._records = [];
    this._selected = undefined;
    if (server) await clearCalls(server);
  }

  /**
   * Sends a record again: a tool through the connection's `<mcp-tool-form>`
   * (confirmed again when destructive; the page sees it as a new call), else
   * through the client. Fires `mcp-history-rerun` first (cancelable).
   */
  async rerun(id: string): Promise<void> {
    const record = this._records.find((r) => r.id === id);
    if (!record || !this.dispatchEvent(new McpHistoryRerunEvent(record))) return;
    if (record.kind === 'tool') {
      const form = await this.#fill(record);
      if (form) {
        await form.submit();
        return;
      }
    }
    await this.#send(record);
  }

  /** Puts a tool record's arguments into the connection's `<mcp-tool-form>`. Fires `mcp-history-edit` first (cancelable). */
  async edit(id: string): Promise<void> {
    const record = this._records.find((r) => r.id === id);
    if (!record || record.kind !== 'tool' || !this.dispatchEvent(new McpHistoryEditEvent(record))) return;
    const form = await this.#fill(record);
    form?.scrollIntoView({ block: 'nearest' });
    form?.focus();
  }

  /** The connection's tool form, showing `record`'s tool with its arguments. */
  async #fill(record: CallRecord): Promise<HTMLElementTagNameMap['mcp-tool-form'] | undefined> {
    const form = this.connection?.querySelector('mcp-tool-form') ?? undefined;
    if (!form) return undefined;
    // Set in one turn: the form fills that tool (see its `arguments`).
    form.tool = undefined;
    form.toolName = record.name;
    form.arguments = structuredClone(record.arguments) as JsonObject;
    await form.updateComplete;
    return form;
  }

  /** Sends a record through the client (no form to do it): recorded like the others. */
  async #send(record: CallRecord): Promise<void> {
    const client = this.effectiveClient;
    if (!client) return;
    const again = this.#new(record.kind, record.name, record.arguments);
    this.#store(again);
    try {
      const result =
        record.kind === 'tool'
          ? await client.callTool(record.name, record.arguments as JsonObject)
          : record.kind === 'prompt'
            ? await client.getPrompt(record.name, record.arguments as Record<string, string>)
            : await client.readResource(record.name);
      const isError = (result as { isError?: unknown }).isError === true;
      this.#finish(again, { outcome: result.resultType === 'input_required' ? 'stopped' : isError ? 'tool-error' : 'ok', ...keptResult(result) });
    } catch (error) {
      this.#finish(again, { outcome: 'error', error: clip((error as Error).message, 2000) });
    }
    this._selected = again.id;
  }

  protected override render(): TemplateResult {
    const records = this._records;
    const selected = records.find((r) => r.id === this._selected);
    return html`<div part="toolbar">
        <span role="status">${records.length === 0 ? 'No calls yet.' : `${records.length} call${records.length === 1 ? '' : 's'}${records.length >= this.limit ? ` (the newest ${this.limit} are kept)` : ''}`}</span>
        ${records.length > 0 ? html`<button part="clear-button" type="button" @click=${() => void this.clear()}>Clear</button>` : nothing}
      </div>
      ${records.length === 0
        ? html`<p part="status">Calls, prompts and resource reads made here are listed, and kept across reloads.</p>`
        : html`<ol part="entries" aria-label="Calls, newest first">
            ${repeat(
              records,
              (r) => r.id,
              (r) => html`<li part="entry" data-outcome=${r.outcome} data-kind=${r.kind}>
                <button part="entry-button" type="button" aria-pressed=${r.id === this._selected ? 'true' : 'false'} @click=${() => (this._selected = r.id === this._selected ? undefined : r.id)}>
                  <time part="time" datetime=${new Date(r.startedAt).toISOString()}>${new Date(r.startedAt).toLocaleTimeString()}</time>
                  <span part="name">${r.kind === 'tool' ? '' : `${r.kind}: `}${clip(r.name, 200)}</span>
                  <span part="outcome">${OUTCOME_TEXT[r.outcome]}</span>
                  <span part="duration">${r.durationMs === undefined ? '' : duration(r.durationMs)}</span>
                  <span part="server">${host(r.server)}</span>
                  <span part="summary">${summarize(r.arguments)}</span>
                </button>
              </li>`,
            )}
          </ol>`}
      ${selected ? this.#detail(selected) : nothing}`;
  }

  #detail(record: CallRecord): TemplateResult {
    const args = stringifyBounded(record.arguments, SHOWN_CHARS).text;
    const result = record.result === undefined ? undefined : stringifyBounded(record.result, SHOWN_CHARS).text;
    return html`<section part="detail" aria-label="Selected call">
      <h3>${clip(record.name, 200)} <span part="time">· ${new Date(record.startedAt).toLocaleString()} · ${OUTCOME_TEXT[record.outcome]}</span></h3>
      <div part="actions">
        <button part="rerun-button" type="button" ?disabled=${!this.effectiveClient} @click=${() => void this.rerun(record.id)}>Re-run</button>
        ${record.kind === 'tool' ? html`<button part="edit-button" type="button" @click=${() => void this.edit(record.id)}>Edit</button>` : nothing}
      </div>
      <h4>Arguments</h4>
      <pre part="json" tabindex="0" aria-label="Arguments">${args}</pre>
      ${record.error ? html`<h4>Error</h4><p>${record.error}</p>` : nothing}
      ${result !== undefined
        ? html`<h4>Result</h4>
            <pre part="json" tabindex="0" aria-label="Result">${result}</pre>`
        : record.resultOmitted
          ? html`<p part="status">The result was too large to keep.</p>`
          : nothing}
    </section>`;
  }
}

const OUTCOME_TEXT: Record<CallOutcome, string> = { running: 'running', ok: 'ok', 'tool-error': 'tool error', error: 'failed', stopped: 'stopped' };

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`;
}

function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return clip(url, 60);
  }
}

defineElement('mcp-call-history', McpCallHistory);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-call-history': McpCallHistory;
  }
}
