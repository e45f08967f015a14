/**
 * The data side of `<mcp-protocol-log>`, without the DOM: the bounded record
 * buffer, secret masking, `curl` rendering, the session file format, and the
 * view model (request/response pairs, the rounds of one multi round-trip call,
 * progress collapsed per request).
 *
 * @module
 */
import { maskUrlSecrets } from '../../src/protocol/errors.js';
import type { LoggingLevel } from '../../src/protocol/types.js';
import { isRecord, stringifyBounded } from '../internal/json.js';

/**
 * What a record is. `note` is a line of the page's own (not JSON-RPC); `failure` is the end of a
 * request the client gave up on without a response (timeout, abort, HTTP error, network): its
 * `message` is a {@link RequestFailure}, its `requestId` the request's.
 */
export type RecordKind = 'request' | 'response' | 'error' | 'notification' | 'note' | 'failure';

/** One message of the log (as kept in memory and in an exported session). */
export interface LogRecord {
  /** Position in the session (increasing; unique). */
  seq: number;
  /** Wall-clock time in ms since the epoch. */
  time: number;
  /** `out`: sent by the client; `in`: from the server; `note`: the page's own line (or a request's `failure`). */
  direction: 'out' | 'in' | 'note';
  kind: RecordKind;
  /** The method of a request or notification (for a response: its request's, once paired). */
  method?: string;
  /** The JSON-RPC id of a request or response. */
  id?: string | number;
  /** The request a message arrived for (a response, or a notification on the request's stream). */
  requestId?: string | number;
  /** Which client (connection) of the session the message belongs to: ids restart with each client. */
  client: number;
  /** The endpoint, its credentials masked (`?token=…`, `user:pass@`). */
  url?: string;
  /** HTTP headers of an outgoing request, secrets masked. */
  headers?: Record<string, string>;
  /** The multi round-trip call and round this request belongs to (spec: basic/patterns/mrtr). */
  call?: { id: number; round: number };
  /**
   * Progress notifications collapsed into this record (a request's, or a first
   * notification nobody's request was found for): how many arrived, and the last.
   */
  progress?: { count: number; time: number; message: unknown };
  /** The JSON-RPC message (untrusted when it came from the server or a file), or the note's text. */
  message: unknown;
}

/** Severity order of `notifications/message` levels (spec: server/utilities/logging, RFC 5424). */
export const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A fixed-capacity ring of records: pushing past the capacity drops the oldest. */
export class RecordRing {
  #items: (LogRecord | undefined)[];
  #start = 0;
  #size = 0;
  /** How many records were dropped since the last clear. */
  dropped = 0;

  constructor(readonly capacity: number) {
    this.#items = new Array<LogRecord | undefined>(Math.max(1, capacity));
  }

  get size(): number {
    return this.#size;
  }

  /** Adds a record; returns the one dropped to make room, if any. */
  push(record: LogRecord): LogRecord | undefined {
    const cap = this.#items.length;
    if (this.#size < cap) {
      this.#items[(this.#start + this.#size) % cap] = record;
      this.#size++;
      return undefined;
    }
    const evicted = this.#items[this.#start];
    this.#items[this.#start] = record;
    this.#start = (this.#start + 1) % cap;
    this.dropped++;
    return evicted;
  }

  /** The records, oldest first. */
  toArray(): LogRecord[] {
    const out: LogRecord[] = [];
    const cap = this.#items.length;
    for (let i = 0; i < this.#size; i++) out.push(this.#items[(this.#start + i) % cap]!);
    return out;
  }

  clear(): void {
    this.#items = new Array<LogRecord | undefined>(this.#items.length);
    this.#start = 0;
    this.#size = 0;
    this.dropped = 0;
  }

  /** A ring of another capacity with the newest records of this one. */
  resized(capacity: number): RecordRing {
    const ring = new RecordRing(capacity);
    for (const record of this.toArray()) ring.push(record);
    ring.dropped += this.dropped;
    return ring;
  }
}

// Any name with "key" in it: API keys travel under many names (X-Api-Key, X-Functions-Key, Ocp-Apim-Subscription-Key…).
const SECRET_NAME = /^(authorization|proxy-authorization|cookie|set-cookie|dpop)$|token|secret|pass|key|signature|session|credential|auth|jwt|bearer|private/i;

/** Whether a header's value is a secret to mask (credentials, cookies, session ids, anything named like a key, token or password). */
export function isSecretHeader(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** The value shown for a secret header: the scheme of an `Authorization` header, and `<redacted>`. */
export function maskValue(name: string, value: string): string {
  if (!isSecretHeader(name)) return value;
  const scheme = /^(Bearer|Basic|DPoP|Token|Digest)\s+\S/i.exec(value)?.[1];
  return scheme ? `${scheme} <redacted>` : '<redacted>';
}

/** Headers with every secret value masked. */
export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = maskValue(name, String(value));
  return out;
}

/** A string as one POSIX shell word in single quotes. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * An outgoing message as a `curl` command: the POST the client made, its
 * headers (the transport's `Content-Type` and `Accept`, then the request's own,
 * secrets masked) and the JSON body.
 */
export function toCurl(record: LogRecord): string {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    ...maskHeaders(record.headers ?? {}),
  };
  const lines = [`curl ${shellQuote(maskUrlSecrets(record.url ?? 'http://localhost/mcp'))}`, '  -X POST'];
  for (const [name, value] of Object.entries(headers)) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  lines.push(`  --data-raw ${shellQuote(JSON.stringify(record.message))}`);
  return lines.join(' \\\n');
}

/** Characters of a message printed in the log at most (issue 19: a 20 MB tools/list must not cost its full text). */
export const ENTRY_CHARS = 20_000;

/** A record's message as indented JSON, printed up to {@link ENTRY_CHARS}. */
export function toJson(record: LogRecord): string {
  return stringifyBounded(record.message, ENTRY_CHARS).text;
}

/** The session file: what `exportSession()` writes and `importSession()` reads. */
export interface SessionFile {
  format: 'mcp-web-elements-protocol-log';
  version: 1;
  exportedAt: string;
  /** Records dropped from the buffer before the export. */
  dropped: number;
  records: LogRecord[];
}

export const SESSION_FORMAT = 'mcp-web-elements-protocol-log';
/** The format written before the package was renamed `mcp-web-elements`: still read. */
const EARLIER_SESSION_FORMAT = 'mcp-elements-protocol-log';
/** Largest session file read, in characters. */
export const MAX_SESSION_CHARS = 32 * 1024 * 1024;

/**
 * Reads a session file (untrusted): checks its format and each record's
 * shape; masks headers and URLs again. Records are numbered afresh (`seq` in
 * file order, `client` per distinct value), so a file's duplicate or huge
 * numbers (`1e400` reads as Infinity) cannot make records or clients collide.
 * Records in excess of `capacity` keep the newest.
 * @throws Error naming what is wrong with the file.
 */
export function parseSession(text: string, capacity: number): { records: LogRecord[]; dropped: number } {
  if (text.length > MAX_SESSION_CHARS) throw new Error(`The file is larger than ${MAX_SESSION_CHARS / 1024 / 1024} MB`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`The file is not JSON: ${(error as Error).message}`);
  }
  if (!isRecord(data) || (data.format !== SESSION_FORMAT && data.format !== EARLIER_SESSION_FORMAT)) throw new Error('The file is not a protocol log session (no "format": "mcp-web-elements-protocol-log")');
  if (data.version !== 1) throw new Error(`Unknown session version ${JSON.stringify(data.version)}`);
  if (!Array.isArray(data.records)) throw new Error('The session has no "records" list');
  const records: LogRecord[] = [];
  const clients = new Map<unknown, number>();
  for (const [index, raw] of data.records.entries()) {
    if (!isRecord(raw)) throw new Error(`Record ${index} is not an object`);
    const { seq, time, direction, kind, method, id, requestId, client, url, headers, call, message } = raw;
    if (typeof seq !== 'number' || typeof time !== 'number' || !Number.isFinite(time)) throw new Error(`Record ${index} has no numeric seq and time`);
    if (direction !== 'out' && direction !== 'in' && direction !== 'note') throw new Error(`Record ${index} has an unknown direction`);
    if (!['request', 'response', 'error', 'notification', 'note', 'failure'].includes(kind as string)) throw new Error(`Record ${index} has an unknown kind`);
    // Client 0 is the page's own notes; each other value of the file becomes the next number.
    const serial = client === 0 || typeof client !== 'number' ? 0 : (clients.get(client) ?? clients.set(client, clients.size + 1).get(client)!);
    const record: LogRecord = { seq: index + 1, time, direction, kind: kind as RecordKind, client: serial, message };
    if (typeof method === 'string') record.method = method;
    if (typeof id === 'string' || typeof id === 'number') record.id = id;
    if (typeof requestId === 'string' || typeof requestId === 'number') record.requestId = requestId;
    if (typeof url === 'string') record.url = maskUrlSecrets(url);
    if (isRecord(headers)) record.headers = maskHeaders(Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string')));
    if (isRecord(call) && typeof call.id === 'number' && typeof call.round === 'number') record.call = { id: call.id, round: call.round };
    const progress = raw.progress;
    if (isRecord(progress) && typeof progress.count === 'number' && typeof progress.time === 'number') record.progress = { count: progress.count, time: progress.time, message: progress.message };
    records.push(record);
  }
  const dropped = (typeof data.dropped === 'number' && data.dropped >= 0 ? data.dropped : 0) + Math.max(0, records.length - capacity);
  return { records: records.slice(-capacity), dropped };
}

// --- view model ---------------------------------------------------------------------------------

/** Progress notifications of one request, collapsed into one line. */
export interface ProgressView {
  count: number;
  progress: number | undefined;
  total: number | undefined;
  message: string | undefined;
  time: number;
  /** The last notification. */
  last: unknown;
}

/** A request with its response. */
export interface RequestView {
  type: 'request';
  record: LogRecord;
  /** The response, or the `failure` that ended the request without one; undefined while pending. */
  response: LogRecord | undefined;
  progress: ProgressView | undefined;
  /** One round of a call that took several (shown inside its call's row). */
  round?: boolean;
}

/** The rounds of one multi round-trip call. */
export interface CallView {
  type: 'call';
  key: string;
  callId: number;
  method: string;
  rounds: RequestView[];
}

/** Any other message (a notification, a page note, a response whose request was dropped). */
export interface MessageView {
  type: 'message';
  record: LogRecord;
  progress?: ProgressView;
}

export type Row = RequestView | CallView | MessageView;

/** The level of a `notifications/message` record, when it is one. */
export function levelOf(record: LogRecord): LoggingLevel | undefined {
  if (record.method !== 'notifications/message' || !isRecord(record.message) || !isRecord(record.message.params)) return undefined;
  const level = record.message.params.level;
  return LEVELS.includes(level as LoggingLevel) ? (level as LoggingLevel) : undefined;
}

/** The `progressToken` of a `notifications/progress` message, or of a request's `_meta`. */
export function progressToken(message: unknown): string | number | undefined {
  if (!isRecord(message) || !isRecord(message.params)) return undefined;
  const source = message.method === 'notifications/progress' ? message.params : isRecord(message.params._meta) ? message.params._meta : {};
  const token = source.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/** The collapsed progress of a record, as shown. */
export function progressView(record: LogRecord): ProgressView | undefined {
  const collapsed = record.progress;
  if (!collapsed) return undefined;
  const params = isRecord(collapsed.message) && isRecord(collapsed.message.params) ? collapsed.message.params : {};
  return {
    count: collapsed.count,
    progress: typeof params.progress === 'number' ? params.progress : undefined,
    total: typeof params.total === 'number' ? params.total : undefined,
    message: typeof params.message === 'string' ? params.message : undefined,
    time: collapsed.time,
    last: collapsed.message,
  };
}

/** The key pairing a request with its response: the client and the JSON-RPC id. */
export function requestKey(client: number, id: string | number | undefined): string {
  return `${client}:${typeof id}:${String(id)}`;
}

/**
 * Builds the rows of the Messages view: each request paired with its response
 * (by client and JSON-RPC id), with its collapsed progress, and the rounds of
 * one multi round-trip call grouped at the place of its first round.
 */
export function buildRows(records: readonly LogRecord[]): Row[] {
  const rows: Row[] = [];
  const requests = new Map<string, RequestView>();
  const calls = new Map<string, CallView>();
  for (const record of records) {
    if (record.kind === 'request' && record.direction === 'out' && record.id !== undefined) {
      const view: RequestView = { type: 'request', record, response: undefined, progress: progressView(record) };
      requests.set(requestKey(record.client, record.id), view);
      if (record.call) {
        const callKey = `${record.client}:${record.call.id}`;
        const call = calls.get(callKey);
        if (call) call.rounds.push(view);
        else {
          const created: CallView = { type: 'call', key: callKey, callId: record.call.id, method: record.method ?? '', rounds: [view] };
          calls.set(callKey, created);
          rows.push(created);
        }
      } else rows.push(view);
      continue;
    }
    if (((record.kind === 'response' || record.kind === 'error') && record.direction === 'in') || record.kind === 'failure') {
      const request = requests.get(requestKey(record.client, record.requestId ?? record.id));
      if (request && !request.response) {
        request.response = record;
        continue;
      }
    }
    const progress = progressView(record);
    rows.push(progress ? { type: 'message', record, progress } : { type: 'message', record });
  }
  // A call answered in one round is just a request.
  return rows.map((row) => {
    if (row.type !== 'call') return row;
    if (row.rounds.length === 1) return row.rounds[0]!;
    for (const round of row.rounds) round.round = true;
    return row;
  });
}

/** The rows of the Notifications view: server notifications, and the collapsed progress of each request. */
export function notificationRows(records: readonly LogRecord[]): MessageView[] {
  const rows: MessageView[] = [];
  for (const record of records) {
    const progress = progressView(record);
    if (record.kind === 'notification' && record.direction === 'in') rows.push(progress ? { type: 'message', record, progress } : { type: 'message', record });
    else if (progress) rows.push({ type: 'message', record, progress });
  }
  return rows;
}

/** The method a row is about (for the method filter). */
export function rowMethod(row: Row): string | undefined {
  if (row.type === 'call') return row.method;
  return row.record.method;
}

/** Why a request ended without a response, as a `failure` record keeps it (plain data: it is exported). */
export interface RequestFailure {
  /** The error's code: `timeout`, `aborted`, `http`, `network`, `cors`…, or a JSON-RPC code. */
  code: string | number;
  message: string;
  /** The HTTP status of the response, when there was one. */
  status?: number;
}

/** The plain data of the error a request failed with (a `failed` traffic event's). */
export function requestFailure(error: unknown): RequestFailure {
  const known = isRecord(error) ? (error as { code?: unknown; message?: unknown; httpStatus?: unknown; data?: unknown }) : {};
  const status = known.httpStatus ?? (isRecord(known.data) ? known.data.status : undefined);
  const code = typeof known.code === 'string' || typeof known.code === 'number' ? known.code : 'error';
  return { code, message: String(known.message ?? error), ...(typeof status === 'number' ? { status } : {}) };
}

/** A `failure` record's short outcome: the HTTP status, else the error's code (`timeout`, `aborted`, `network`…). */
export function failureSummary(record: LogRecord): string {
  const failure = (isRecord(record.message) ? record.message : {}) as Partial<RequestFailure>;
  if (typeof failure.status === 'number') return `HTTP ${failure.status}`;
  return typeof failure.code === 'string' || typeof failure.code === 'number' ? String(failure.code).slice(0, 40) : 'no response';
}
