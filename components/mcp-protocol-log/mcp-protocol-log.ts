import { ContextConsumer } from '@lit/context';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { McpError, type McpClient, type RoundEvent, type TrafficEvent } from '../../src/index.js';
import { maskUrlSecrets } from '../../src/protocol/errors.js';
import type { LoggingLevel } from '../../src/protocol/types.js';
import { clientContext } from '../context.js';
import { defineElement } from '../define.js';
import { PageSchemeController, schemeStyles } from '../internal/scheme.js';
import { plainHost } from '../internal/style-blocks.js';
import { McpCopyEvent, McpErrorEvent } from '../events.js';
import { toggleState } from '../internal/dom.js';
import { clip, isRecord, stringifyBounded } from '../internal/json.js';
import { LABEL_CHARS } from '../internal/long-list.js';
import {
  buildRows,
  LEVELS,
  levelOf,
  maskHeaders,
  notificationRows,
  parseSession,
  progressToken,
  ENTRY_CHARS,
  RecordRing,
  requestKey,
  MAX_SESSION_CHARS,
  failureSummary,
  requestFailure,
  rowMethod,
  SESSION_FORMAT,
  toCurl,
  toJson,
  type CallView,
  type LogRecord,
  type MessageView,
  type ProgressView,
  type RecordKind,
  type RequestView,
  type Row,
  type SessionFile,
} from './records.js';
import { styles } from './mcp-protocol-log.styles.js';

export type { LogRecord, SessionFile } from './records.js';

/** How many rows are rendered at first (more on request): the buffer may hold thousands. */
const ROWS = 200;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** Local wall-clock time with milliseconds: `14:03:27.512`. */
function clock(time: number): string {
  const d = new Date(time);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}
/** A duration for people: `87 ms`, `1.25 s`. */
function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function kindOf(event: TrafficEvent): RecordKind {
  const message = event.message as unknown as Record<string, unknown>;
  if (typeof message.method === 'string') return 'id' in message ? 'request' : 'notification';
  return 'error' in message ? 'error' : 'response';
}

/**
 * The JSON-RPC traffic of a client, for people debugging a server: every
 * message with its time, each request paired with its response and duration,
 * the rounds of a multi round-trip call grouped (spec: basic/patterns/mrtr),
 * progress notifications collapsed into one line of their request that updates
 * (basic/patterns/progress), filters by method and by log level, a
 * Notifications view, and the log level the client asks the server for
 * (server/utilities/logging: per request on 2026-07-28, `logging/setLevel` on
 * legacy servers).
 *
 * A request copies as JSON or as a `curl` command with its headers; secret
 * headers (`Authorization`, cookies, API keys, session ids…) and the
 * credentials of the server URL (`?token=…`, `?api_key=…`, `user:pass@`) are
 * masked when recorded, so neither a copy nor an exported session carries them. Sessions
 * export to a JSON file and import back (files are untrusted: checked, bounded).
 * Memory is bounded: a ring buffer keeps the newest `max-entries` messages and
 * says how many older ones were dropped. Everything from the server is shown
 * as text.
 *
 * Give it a client (`.client`, or put it inside `<mcp-connection>`: it follows
 * the connection's client across reconnects).
 *
 * @tagname mcp-protocol-log
 * @summary The protocol traffic of an MCP client: pairs, rounds, filters, copy, export.
 *
 * @event mcp-copy - A message was copied; `detail.format` (`json`, `curl`), `detail.text`, `detail.copied`.
 * @event mcp-error - Setting the log level or importing a file failed; `detail.error`.
 *
 * @csspart toolbar - The controls above the list.
 * @csspart view - The shown view (messages or notifications) around the list: a page that gives the log a fixed height makes it a flex column, so the list (part `entries`) takes the room left.
 * @csspart tabs - The view switch (Messages, Notifications).
 * @csspart tab - One view tab.
 * @csspart method-filter - The method filter (`<select>`).
 * @csspart level-filter - The minimum level of log messages shown (`<select>`).
 * @csspart log-level - The level asked of the server (`<select>`).
 * @csspart clear-button - Empties the log.
 * @csspart export-button - Saves the session as a file.
 * @csspart import-button - Opens a saved session.
 * @csspart cap - How many messages are kept, of at most how many, and how many were dropped.
 * @csspart entries - The scrolling list of a view.
 * @csspart entry - One row (also `entry-request`, `entry-call`, `entry-notification`, `entry-note`, `entry-response`, `entry-error`).
 * @csspart time - A row's time.
 * @csspart direction - The arrow of a row (sent, received).
 * @csspart method - A row's method and id.
 * @csspart round - The call and round of a request.
 * @csspart outcome - A request's outcome and duration.
 * @csspart progress - A request's collapsed progress.
 * @csspart level - The level of a log message.
 * @csspart body - What a row shows when opened.
 * @csspart headers - The HTTP headers of a request (secrets masked).
 * @csspart json - A message as JSON.
 * @csspart copy-json-button - Copies a message as JSON.
 * @csspart copy-curl-button - Copies a request as a `curl` command.
 * @csspart copy-fallback - The text to copy by hand when the clipboard refused.
 * @csspart more-button - Shows earlier rows.
 * @csspart status - A status line.
 * @csspart error - Why importing or setting the level failed.
 *
 * @cssproperty --mcp-color-text - Text colour.
 * @cssproperty --mcp-color-muted-text - Times and secondary text.
 * @cssproperty --mcp-color-code - Background of JSON.
 * @cssproperty --mcp-color-border - Borders.
 * @cssproperty --mcp-color-accent - Sent messages, selected tab.
 * @cssproperty --mcp-color-success - Received messages.
 * @cssproperty --mcp-color-danger - Errors.
 * @cssproperty --mcp-color-warning - Warnings.
 * @cssproperty --mcp-protocol-log-max-height - Height of the scrolling list (default 24rem).
 *
 * @cssstate empty - No messages.
 * @cssstate capped - Older messages were dropped.
 * @cssstate imported - The log shows a session read from a file.
 */
export class McpProtocolLog extends LitElement {
  static override styles = [schemeStyles, plainHost, styles];

  /** The client to watch; default: the one of the enclosing `<mcp-connection>`. */
  @property({ attribute: false }) client: McpClient | undefined;
  /** At most this many messages are kept (the oldest are dropped). Default 2,000. */
  @property({ attribute: 'max-entries', type: Number }) maxEntries = 2000;
  /**
   * The log level to ask the server for (`debug` … `emergency`); empty for none.
   * Applied to the watched client (`McpClient.setLogLevel`, and `logging/setLevel`
   * on legacy servers).
   */
  @property({ attribute: 'log-level' }) logLevel = '';

  @state() protected contextClient: McpClient | undefined;

  @state() private _view: 'messages' | 'notifications' = 'messages';
  @state() private _method = '';
  @state() private _minLevel = '';
  @state() private _rows = ROWS;
  @state() private _imported: { name: string; count: number } | undefined;
  @state() private _error: string | undefined;
  @state() private _fallback: { seq: number; text: string } | undefined;
  /** Changes on every new record (a render trigger; the records themselves live in the ring). */
  @state() private _version = 0;

  #ring = new RecordRing(2000);
  #seq = 0;
  #clientSerial = 0;
  #clientNumber = new WeakMap<McpClient, number>();
  #watching: McpClient | undefined;
  #off: (() => void)[] = [];
  #open = new Set<string>();
  /** Outgoing requests kept, by `requestKey` (to pair responses and progress). */
  #requests = new Map<string, LogRecord>();
  /** Records collecting the progress of a `progressToken`, by client and token. */
  #tokens = new Map<string, LogRecord>();
  #frame: number | undefined;
  /** Methods of the records in the buffer, with how many records have each: the filter offers only what can be shown. */
  #methods = new Map<string, number>();
  #internals = this.attachInternals();
  #follow = true;

  constructor() {
    super();
    new PageSchemeController(this, this.#internals);
    // Watch a connection's new client at once (not at the next render): its first request is logged too.
    new ContextConsumer(this, {
      context: clientContext,
      subscribe: true,
      callback: (client) => {
        this.contextClient = client;
        const watched = this.isConnected ? this.effectiveClient : undefined;
        if (watched !== this.#watching) this.#watch(watched);
      },
    });
  }

  /** The client watched: `.client`, else the enclosing connection's. */
  get effectiveClient(): McpClient | undefined {
    return this.client ?? this.contextClient;
  }

  /** The records kept, oldest first. */
  get records(): LogRecord[] {
    return this.#ring.toArray();
  }

  /** How many records were dropped to stay within `max-entries`. */
  get dropped(): number {
    return this.#ring.dropped;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unwatch();
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
    this.#resizes?.disconnect();
    this.#sized = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('maxEntries')) {
      const cap = Number.isFinite(this.maxEntries) && this.maxEntries >= 1 ? Math.floor(this.maxEntries) : 2000;
      if (cap !== this.#ring.capacity) this.#ring = this.#ring.resized(cap);
    }
    const client = this.isConnected ? this.effectiveClient : undefined;
    if (client !== this.#watching) this.#watch(client);
    if (changed.has('logLevel') && this.#watching && changed.get('logLevel') !== undefined) void this.#applyLevel(this.#watching);
  }

  protected override updated(): void {
    toggleState(this.#internals, 'empty', this.#ring.size === 0);
    toggleState(this.#internals, 'capped', this.#ring.dropped > 0);
    toggleState(this.#internals, 'imported', this._imported !== undefined);
    // Follow the newest rows while the reader is at the end (not while they scroll back).
    const list = this.renderRoot.querySelector<HTMLElement>('[part~="entries"]');
    if (list && this.#follow) list.scrollTop = list.scrollHeight;
    // The list's own size changes too (a page lays the log out in a pane that grows or shrinks): a
    // reader at the end stays there, else the newest rows end up below the fold with no render to follow them.
    if (list !== this.#sized) {
      this.#resizes ??= new ResizeObserver(() => {
        const sized = this.#sized;
        if (sized && this.#atEnd) sized.scrollTop = sized.scrollHeight;
      });
      if (this.#sized) this.#resizes.unobserve(this.#sized);
      if (list) this.#resizes.observe(list);
      this.#sized = list ?? undefined;
    }
    if (list) this.#atEnd = this.#follow;
  }

  #sized: HTMLElement | undefined;
  #resizes: ResizeObserver | undefined;
  /** Whether the reader was at the end of the list when it last scrolled or rendered. */
  #atEnd = true;
  #onScroll = (event: Event): void => {
    const list = event.currentTarget as HTMLElement;
    this.#atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  };

  #unwatch(): void {
    for (const off of this.#off) off();
    this.#off = [];
    this.#watching = undefined;
  }

  #watch(client: McpClient | undefined): void {
    this.#unwatch();
    this.#watching = client;
    if (!client) return;
    let number = this.#clientNumber.get(client);
    if (number === undefined) {
      number = ++this.#clientSerial;
      this.#clientNumber.set(client, number);
    }
    const serial = number;
    // Masked once per client, not per message (a flood of notifications would run the masking each time).
    const url = maskUrlSecrets(client.url.href);
    this.#off.push(
      client.on('traffic', (event) => this.#onTraffic(url, serial, event)),
      client.on('round', (event) => this.#onRound(serial, event)),
    );
    if (this.logLevel) void this.#applyLevel(client);
  }

  #push(record: Omit<LogRecord, 'seq'>): LogRecord {
    const full = { seq: ++this.#seq, ...record } as LogRecord;
    const evicted = this.#ring.push(full);
    if (evicted) this.#unindex(evicted);
    this.#index(full);
    this.#schedule();
    return full;
  }

  #index(record: LogRecord): void {
    if (record.method) this.#methods.set(record.method, (this.#methods.get(record.method) ?? 0) + 1);
    if (record.kind === 'request' && record.direction === 'out' && record.id !== undefined) this.#requests.set(requestKey(record.client, record.id), record);
    const token = record.direction === 'out' || record.progress ? progressToken(record.message) : undefined;
    if (token !== undefined) this.#tokens.set(`${record.client}:${String(token)}`, record);
  }

  #unindex(record: LogRecord): void {
    const count = record.method ? this.#methods.get(record.method) : undefined;
    if (count !== undefined) {
      if (count > 1) this.#methods.set(record.method!, count - 1);
      else this.#methods.delete(record.method!);
    }
    const key = requestKey(record.client, record.id);
    if (this.#requests.get(key) === record) this.#requests.delete(key);
    const token = progressToken(record.message);
    if (token !== undefined && this.#tokens.get(`${record.client}:${String(token)}`) === record) this.#tokens.delete(`${record.client}:${String(token)}`);
  }

  #reindex(): void {
    this.#requests.clear();
    this.#tokens.clear();
    this.#methods.clear();
    for (const record of this.#ring.toArray()) this.#index(record);
  }

  /** Renders at most once a frame: a flood of notifications costs one render per frame, not one per message. */
  #schedule(): void {
    if (this.#frame !== undefined) return;
    const list = this.renderRoot?.querySelector<HTMLElement>('[part~="entries"]');
    // Where the reader was, as scrolling and resizing left it (geometry read now may predate a resize's catch-up).
    this.#follow = !list || this.#atEnd;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = undefined;
      this._version++;
    });
  }

  #onTraffic(url: string, serial: number, event: TrafficEvent): void {
    if (event.direction === 'failed') {
      // No response will come: the failure ends the request's entry (it would read "pending" forever).
      const requestId = event.requestId ?? (event.message as { id?: string | number }).id;
      const request = requestId !== undefined ? this.#requests.get(requestKey(serial, requestId)) : undefined;
      const failure: Omit<LogRecord, 'seq'> = { time: event.time, direction: 'note', kind: 'failure', client: serial, url, message: requestFailure(event.error) };
      if (requestId !== undefined) failure.requestId = requestId;
      if (request?.method) failure.method = request.method;
      this.#push(failure);
      return;
    }
    const message = event.message as unknown as Record<string, unknown>;
    const kind = kindOf(event);
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
    if (kind === 'notification' && event.direction === 'in' && message.method === 'notifications/progress') {
      // Collapsed into its request's record (or into the first one of its token): a flood of progress costs no memory.
      const token = progressToken(message);
      const target = (event.requestId !== undefined ? this.#requests.get(requestKey(serial, event.requestId)) : undefined) ?? (token !== undefined ? this.#tokens.get(`${serial}:${String(token)}`) : undefined);
      if (target) {
        target.progress = { count: (target.progress?.count ?? 0) + 1, time: event.time, message: event.message };
        this.#schedule();
        return;
      }
      this.#push({ time: event.time, direction: 'in', kind, method: 'notifications/progress', client: serial, url, message: event.message, progress: { count: 1, time: event.time, message: event.message }, ...(event.requestId !== undefined ? { requestId: event.requestId } : {}) });
      return;
    }
    const record: Omit<LogRecord, 'seq'> = { time: event.time, direction: event.direction, kind, client: serial, url, message: event.message };
    if (typeof message.method === 'string') record.method = message.method;
    if (id !== undefined) record.id = id;
    if (event.requestId !== undefined && (kind !== 'request' || event.direction === 'in')) record.requestId = event.requestId;
    if (event.headers) record.headers = maskHeaders(event.headers);
    if ((kind === 'response' || kind === 'error') && event.direction === 'in') {
      // A response is about its request's method (for the method filter).
      const request = this.#requests.get(requestKey(serial, event.requestId ?? id));
      if (request?.method) record.method = request.method;
    }
    this.#push(record);
  }

  #onRound(serial: number, event: RoundEvent): void {
    if (event.requestId === undefined) return;
    const request = this.#requests.get(requestKey(serial, event.requestId));
    if (request && !request.call) {
      request.call = { id: event.callId, round: event.round };
      this.#schedule();
    }
  }

  async #applyLevel(client: McpClient): Promise<void> {
    const level = LEVELS.includes(this.logLevel as LoggingLevel) ? (this.logLevel as LoggingLevel) : undefined;
    client.setLogLevel(level);
    this._error = undefined;
    if (!level) return;
    try {
      await client.connect();
      // Legacy servers keep one level per session (2025-11-25 server/utilities/logging).
      if (client.server?.era === 'legacy' && client.server.capabilities.logging !== undefined) await client.request('logging/setLevel', { level });
    } catch (error) {
      this._error = `Could not set the log level: ${(error as Error).message}`;
      if (McpError.isInstance(error)) this.dispatchEvent(new McpErrorEvent(error, 'logging/setLevel'));
    }
  }

  /** Adds a line of the page's own (an OAuth event, a reconnect…). */
  note(text: string): void {
    this.#push({ time: Date.now(), direction: 'note', kind: 'note', client: 0, message: String(text) });
  }

  /** Empties the log (and leaves an imported session). */
  clear(): void {
    this.#ring.clear();
    this.#reindex();
    this.#open.clear();
    this._imported = undefined;
    this._fallback = undefined;
    this._rows = ROWS;
    this._version++;
  }

  /** The session as a file's contents (headers already masked). */
  exportSession(): SessionFile {
    return { format: SESSION_FORMAT, version: 1, exportedAt: new Date().toISOString(), dropped: this.#ring.dropped, records: this.#ring.toArray().map((record) => structuredClone(record)) };
  }

  /**
   * Replaces the log with a session read from a file's text (messages that arrive
   * later are added after it).
   * @throws Error saying what is wrong with the file (nothing is replaced then).
   */
  importSession(text: string, name = 'a file'): void {
    const { records, dropped } = parseSession(text, this.#ring.capacity);
    this.#ring.clear();
    this.#open.clear();
    for (const record of records) this.#ring.push(record);
    this.#ring.dropped = dropped;
    this.#reindex();
    // Live records continue after the imported ones, never colliding with their numbers or clients.
    this.#seq = records.reduce((max, r) => Math.max(max, r.seq), this.#seq);
    this.#clientSerial = records.reduce((max, r) => Math.max(max, r.client), this.#clientSerial);
    if (this.#watching) {
      this.#clientNumber.set(this.#watching, ++this.#clientSerial);
      this.#watch(this.#watching);
    }
    this._imported = { name, count: records.length };
    this._rows = ROWS;
    this._error = undefined;
    this._version++;
  }

  /** The text of a copy of `record` as JSON or (outgoing messages) as `curl`. */
  copyText(record: LogRecord, format: 'json' | 'curl'): string {
    return format === 'curl' ? toCurl(record) : toJson(record);
  }

  async #copy(record: LogRecord, format: 'json' | 'curl'): Promise<void> {
    const text = this.copyText(record, format);
    let copied = false;
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
      this._fallback = undefined;
    } catch {
      // No clipboard (permissions, an insecure page): show the text to copy by hand.
      this._fallback = { seq: record.seq, text };
    }
    this.dispatchEvent(new McpCopyEvent(format, text, copied));
  }

  #download(): void {
    const file = this.exportSession();
    const blob = new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const anchor = document.createElement('a');
    anchor.href = url;
    const host = (() => {
      try {
        return new URL(this.effectiveClient?.url.href ?? '').host.replace(/[^A-Za-z0-9.-]/g, '_');
      } catch {
        return 'mcp';
      }
    })();
    anchor.download = `mcp-log-${host}-${file.exportedAt.replace(/[:.]/g, '-')}.json`;
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  async #onFile(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    try {
      if (file.size > MAX_SESSION_CHARS) throw new Error(`The file is larger than ${MAX_SESSION_CHARS / 1024 / 1024} MB`);
      this.importSession(await file.text(), file.name);
    } catch (error) {
      this._error = `Could not open ${file.name}: ${(error as Error).message}`;
    }
  }

  // --- rendering ---------------------------------------------------------------------------------

  #levelShown(record: LogRecord): boolean {
    if (!this._minLevel) return true;
    const level = levelOf(record);
    return level === undefined || LEVELS.indexOf(level) >= LEVELS.indexOf(this._minLevel as LoggingLevel);
  }

  #rowShown(row: Row): boolean {
    if (this._method && rowMethod(row) !== this._method) return false;
    return row.type !== 'message' || this.#levelShown(row.record);
  }

  #arrow(direction: LogRecord['direction']): TemplateResult {
    if (direction === 'note') return html`<span part="direction" aria-label="note">•</span>`;
    return html`<span part="direction" data-direction=${direction} aria-label=${direction === 'out' ? 'sent' : 'received'}>${direction === 'out' ? '→' : '←'}</span>`;
  }

  #time(time: number): TemplateResult {
    return html`<time part="time" datetime=${new Date(time).toISOString()}>${clock(time)}</time>`;
  }

  #progress(progress: ProgressView | undefined): TemplateResult | typeof nothing {
    if (!progress) return nothing;
    const amount = progress.progress === undefined ? '' : progress.total !== undefined ? `${progress.progress} / ${progress.total}` : String(progress.progress);
    return html`<span part="progress">progress ${amount}${progress.message ? ` · ${progress.message}` : ''} (${progress.count.toLocaleString()} notification${progress.count === 1 ? '' : 's'})</span>`;
  }

  #outcome(view: RequestView): TemplateResult {
    const response = view.response;
    if (!response) return html`<span part="outcome" data-outcome="pending">pending</span>`;
    const took = duration(response.time - view.record.time);
    if (response.kind === 'failure') {
      const text = isRecord(response.message) && typeof response.message.message === 'string' ? response.message.message : undefined;
      return html`<span part="outcome" data-outcome="failed" title=${ifDefined(text?.slice(0, 300))}>failed · ${failureSummary(response)} · ${took}</span>`;
    }
    if (response.kind === 'error') {
      const error = isRecord(response.message) && isRecord(response.message.error) ? response.message.error : {};
      return html`<span part="outcome" data-outcome="error">error ${typeof error.code === 'number' ? error.code : ''} · ${took}</span>`;
    }
    const result = isRecord(response.message) && isRecord(response.message.result) ? response.message.result : {};
    return html`<span part="outcome" data-outcome=${result.resultType === 'input_required' ? 'input_required' : 'ok'}>${result.resultType === 'input_required' ? 'input required' : 'ok'} · ${took}</span>`;
  }

  #copyButtons(record: LogRecord, label: string): TemplateResult {
    const curl = record.direction === 'out' && record.kind !== 'response' && record.kind !== 'error';
    return html`<div class="copy">
        <button part="copy-json-button" type="button" aria-label="Copy ${label} as JSON" @click=${() => void this.#copy(record, 'json')}>Copy JSON</button>
        ${curl ? html`<button part="copy-curl-button" type="button" aria-label="Copy ${label} as curl" @click=${() => void this.#copy(record, 'curl')}>Copy as curl</button>` : nothing}
      </div>
      ${this._fallback?.seq === record.seq
        ? html`<label class="fallback"
            >The clipboard refused; copy this text:
            <textarea part="copy-fallback" readonly rows="6" .value=${this._fallback.text}></textarea
          ></label>`
        : nothing}`;
  }

  #details(key: string, summary: TemplateResult, body: () => TemplateResult): TemplateResult {
    const open = this.#open.has(key);
    return html`<details
      ?open=${open}
      @toggle=${(event: Event) => {
        if ((event.target as HTMLDetailsElement).open) this.#open.add(key);
        else this.#open.delete(key);
        this.requestUpdate();
      }}
    >
      <summary>${summary}</summary>
      ${open ? html`<div part="body">${body()}</div>` : nothing}
    </details>`;
  }

  #label(record: LogRecord): string {
    // A server's (or a file's) method and id: cut, like every name it sends.
    return `${clip(record.method ?? record.kind, LABEL_CHARS)}${record.id !== undefined ? ` #${clip(String(record.id), LABEL_CHARS)}` : ''}`;
  }

  #request(view: RequestView): TemplateResult {
    const { record, response } = view;
    const label = this.#label(record);
    return html`<li part="entry entry-request" data-seq=${record.seq} data-method=${record.method ?? ''}>
      ${this.#details(
        `r${record.seq}`,
        html`${this.#time(record.time)} ${this.#arrow('out')} <span part="method">${label}</span>
          ${record.call && view.round ? html`<span part="round">call ${record.call.id} · round ${record.call.round + 1}</span>` : nothing} ${this.#outcome(view)}
          ${this.#progress(view.progress)}`,
        () => html`${record.headers && Object.keys(record.headers).length > 0
            ? html`<p class="section">HTTP headers</p>
                <pre part="headers" tabindex="0">${Object.entries(record.headers)
                  .map(([name, value]) => `${name}: ${value}`)
                  .join('\n')}</pre>`
            : nothing}
          <p class="section">Request</p>
          <pre part="json" tabindex="0">${toJson(record)}</pre>
          ${this.#copyButtons(record, label)}
          ${response
            ? html`<p class="section">${response.kind === 'error' ? 'Error' : response.kind === 'failure' ? 'No response; failed' : 'Response'} at ${clock(response.time)}</p>
                <pre part="json" tabindex="0">${toJson(response)}</pre>`
            : nothing}
          ${view.progress ? html`<p class="section">Last progress at ${clock(view.progress.time)}</p><pre part="json" tabindex="0">${stringifyBounded(view.progress.last, ENTRY_CHARS).text}</pre>` : nothing}`,
      )}
    </li>`;
  }

  #call(view: CallView): TemplateResult {
    const first = view.rounds[0]!;
    const last = view.rounds[view.rounds.length - 1]!;
    const target = isRecord(first.record.message) && isRecord(first.record.message.params) ? first.record.message.params.name ?? first.record.message.params.uri : undefined;
    const end = last.response;
    const outcome = !end ? 'running' : end.kind === 'error' || end.kind === 'failure' ? 'failed' : isRecord(end.message) && isRecord(end.message.result) && end.message.result.resultType === 'input_required' ? 'waiting for input' : 'complete';
    return html`<li part="entry entry-call" data-call=${view.callId}>
      ${this.#details(
        `c${view.key}`,
        html`${this.#time(first.record.time)} ${this.#arrow('out')} <span part="method">${clip(view.method, LABEL_CHARS)}${typeof target === 'string' ? ` ${clip(target, LABEL_CHARS)}` : ''}</span>
          <span part="round">call ${view.callId} · ${view.rounds.length} round${view.rounds.length === 1 ? '' : 's'}</span>
          <span part="outcome">${outcome}${end ? ` · ${duration(end.time - first.record.time)}` : ''}</span>`,
        () => html`<ol class="rounds">
          ${view.rounds.map((round) => this.#request(round))}
        </ol>`,
      )}
    </li>`;
  }

  #message(view: MessageView): TemplateResult {
    const { record } = view;
    if (record.kind === 'note') {
      return html`<li part="entry entry-note" data-seq=${record.seq}>${this.#time(record.time)} ${this.#arrow('note')} <span part="note">${String(record.message)}</span></li>`;
    }
    const level = levelOf(record);
    const params = isRecord(record.message) && isRecord(record.message.params) ? record.message.params : undefined;
    const label = this.#label(record);
    const data = level && params ? (typeof params.data === 'string' ? params.data : stringifyBounded(params.data, 300).text) : undefined;
    return html`<li part="entry entry-${record.kind}" data-seq=${record.seq} data-method=${record.method ?? ''} data-level=${level ?? ''}>
      ${this.#details(
        `m${record.seq}`,
        html`${this.#time(record.time)} ${this.#arrow(record.direction)} <span part="method">${label}</span>
          ${level ? html`<span part="level" data-level=${level}>${level}</span>` : nothing}
          ${data !== undefined ? html`<span part="log-data">${typeof params?.logger === 'string' ? `${params.logger}: ` : ''}${data.slice(0, 300)}</span>` : nothing}
          ${this.#progress(view.progress)}`,
        () => html`<pre part="json" tabindex="0">${view.progress ? stringifyBounded(view.progress.last, ENTRY_CHARS).text : toJson(record)}</pre>
          ${this.#copyButtons(record, label)}`,
      )}
    </li>`;
  }

  #row(row: Row): TemplateResult {
    return row.type === 'request' ? this.#request(row) : row.type === 'call' ? this.#call(row) : this.#message(row);
  }

  #tabs(): TemplateResult {
    const tabs = [
      ['messages', 'Messages'],
      ['notifications', 'Notifications'],
    ] as const;
    const move = (event: KeyboardEvent) => {
      const index = tabs.findIndex(([id]) => id === this._view);
      const next = event.key === 'ArrowRight' ? (index + 1) % tabs.length : event.key === 'ArrowLeft' ? (index + tabs.length - 1) % tabs.length : event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : -1;
      if (next < 0) return;
      event.preventDefault();
      this._view = tabs[next]![0];
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#tab-${this._view}`)?.focus());
    };
    return html`<div part="tabs" role="tablist" aria-label="Protocol log views" @keydown=${move}>
      ${tabs.map(
        ([id, label]) =>
          html`<button part="tab" role="tab" id="tab-${id}" type="button" aria-selected=${this._view === id ? 'true' : 'false'} aria-controls="panel-${id}" tabindex=${this._view === id ? 0 : -1} @click=${() => (this._view = id)}>${label}</button>`,
      )}
    </div>`;
  }

  /** The rows of the buffer as filtered, rebuilt only when the records or the filters changed (not when a row opens). */
  #rowsCache: { key: string; records: LogRecord[]; rows: Row[] } | undefined;

  #filteredRows(): { records: LogRecord[]; rows: Row[] } {
    const key = `${this._version} ${this._view} ${this._minLevel} ${this._method}`;
    if (this.#rowsCache?.key !== key) {
      const records = this.#ring.toArray();
      const rows = (this._view === 'messages' ? buildRows(records) : notificationRows(records)).filter((row) => this.#rowShown(row));
      this.#rowsCache = { key, records, rows };
    }
    return this.#rowsCache;
  }

  protected override render(): TemplateResult {
    const { records, rows } = this.#filteredRows();
    const shown = rows.slice(-this._rows);
    const client = this.effectiveClient;
    const methods = [...this.#methods.keys()].sort();
    return html`<div part="toolbar">
        ${this.#tabs()}
        <label class="control"
          >Method
          <select part="method-filter" .value=${this._method} @change=${(e: Event) => (this._method = (e.target as HTMLSelectElement).value)}>
            <option value="">All methods</option>
            ${methods.map((method) => html`<option value=${method} ?selected=${method === this._method}>${clip(method, LABEL_CHARS)}</option>`)}
          </select></label
        >
        <label class="control"
          >Log messages
          <select part="level-filter" .value=${this._minLevel} @change=${(e: Event) => (this._minLevel = (e.target as HTMLSelectElement).value)}>
            <option value="">All levels</option>
            ${LEVELS.map((level) => html`<option value=${level} ?selected=${level === this._minLevel}>${level} and above</option>`)}
          </select></label
        >
        <label class="control"
          >Server log level
          <select part="log-level" ?disabled=${!client} .value=${this.logLevel} @change=${(e: Event) => (this.logLevel = (e.target as HTMLSelectElement).value)}>
            <option value="">Off</option>
            ${LEVELS.map((level) => html`<option value=${level} ?selected=${level === this.logLevel}>${level}</option>`)}
          </select></label
        >
        <span class="buttons">
          <button part="clear-button" type="button" @click=${() => this.clear()}>Clear</button>
          <button part="export-button" type="button" ?disabled=${records.length === 0} @click=${() => this.#download()}>Export</button>
          <button part="import-button" type="button" @click=${() => this.renderRoot.querySelector<HTMLInputElement>('#import')?.click()}>Import</button>
          <input id="import" type="file" accept=".json,application/json" hidden @change=${(e: Event) => void this.#onFile(e)} />
        </span>
      </div>
      <p part="cap" role="status">
        ${this._imported ? `Imported ${this._imported.count.toLocaleString()} messages from ${this._imported.name}. ` : ''}${records.length.toLocaleString()} of at most
        ${this.#ring.capacity.toLocaleString()} messages kept${this.#ring.dropped > 0 ? `; ${this.#ring.dropped.toLocaleString()} older ones dropped` : ''}.
      </p>
      ${this._error ? html`<p part="error" role="alert">${this._error}</p>` : nothing}
      <div part="view" role="tabpanel" id="panel-${this._view}" aria-labelledby="tab-${this._view}">
        ${shown.length < rows.length
          ? html`<button part="more-button" type="button" @click=${() => (this._rows += ROWS)}>Show ${Math.min(ROWS, rows.length - shown.length)} earlier</button>`
          : nothing}
        <ol part="entries" tabindex="0" @scroll=${this.#onScroll} aria-label=${this._view === 'messages' ? 'Messages' : 'Notifications'}>
          ${shown.map((row) => this.#row(row))}
        </ol>
        ${rows.length === 0 ? html`<p part="status">${records.length === 0 ? 'No messages yet.' : 'No messages match the filters.'}</p>` : nothing}
      </div>`;
  }
}

defineElement('mcp-protocol-log', McpProtocolLog);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-protocol-log': McpProtocolLog;
  }
}
