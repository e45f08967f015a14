/**
 * Server-Sent Events reading for Streamable HTTP response streams
 * (spec: basic/transports/streamable-http "Receiving Messages").
 *
 * Framing is done by `eventsource-parser`; this module is the glue around it:
 * bytes are decoded with one streaming `TextDecoder` (so a UTF-8 character split
 * across network reads survives), line ends are normalised before the parser
 * sees them, the parser's buffer is capped, a complete event left pending at
 * the end of the stream is dispatched, and the stream is cancelled when the
 * consumer stops early.
 *
 * The transport loads this module (and the parser) with its first request, in
 * parallel with the network, rather than up front: a page pays for it only
 * once a server is being talked to.
 *
 * @module
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { McpClientError, type McpErrorData } from '../protocol/errors.js';
import type { IncomingMessage } from '../protocol/jsonrpc.js';
import { isObject, parseJson, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/types.js';

/** Default cap on one event's buffered text, in characters (16 MiB of UTF-16 units). */
export const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;

/** One parsed SSE event. `event` is undefined when the frame had no `event:` line. */
export type SseEvent = EventSourceMessage;

export interface ReadSseOptions {
  /**
   * Maximum characters of one event's data (its `data:` values joined by line feeds); default
   * {@link DEFAULT_MAX_EVENT_CHARS}. However the reads cut the stream, an event within the cap
   * passes (with `id:`, `event:` or comment lines of up to the cap around its data) and one over
   * it fails; what is buffered across reads stays within twice the cap.
   */
  maxEventChars?: number;
  /** Called with the server's `retry:` hint, in milliseconds. */
  onRetry?: (ms: number) => void;
  /** Facts attached to errors (URL, method). */
  context?: McpErrorData;
  /** Told about leniencies toward the server's framing (a last event without its blank line). */
  onWarning?: (code: string, message: string) => void;
}

/** Whether a data line ("data:…", or a bare "data" line) starts at `at` of LF-only text. */
const dataLineAt = (text: string, at: number) => text.startsWith('data', at) && (text.charCodeAt(at + 4) === 58 || text.charCodeAt(at + 4) === 10);

/**
 * Decoding, line-end normalisation, the event cap and the end-of-stream rule,
 * shared by {@link readSse} and {@link consumeSse}. `onEvent` is called
 * synchronously from `push`/`end` for each complete event.
 */
function sseFeeder(options: ReadSseOptions, onEvent: (event: SseEvent) => void) {
  let overflow = false;
  // An event with an id and no data (a resumable stream's priming event may be just "id: 7") is
  // not dispatched by the parser, which drops its id; the SSE spec still makes it the last event
  // ID, which a resumption sends. Reads that may hold an id line are searched for id lines and, while
  // an id waits, blank lines (see feedIds): `idOnly` is the id of the event being read, cleared when
  // the parser dispatches an event with that id; still set at the event's blank line, it is handed
  // on as an event with empty data (which consumers skip as a priming event). `open` is the line
  // still open at the end of the last read while it may be an id line ('' at a line start), else null.
  let idOnly: string | undefined;
  let open: string | null = '';
  let dispatched = 0;
  const max = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
  const parser = createParser({
    // The parser caps what it buffers across reads: the event's data so far plus the line still
    // open, whichever field that line is. Room for `max` characters of data plus an open line of
    // `max` characters and its field name ("data: "), so an event within the cap passes however
    // the reads cut it, an `id:`, `event:` or comment line after its data included. The event's
    // data is measured when it is dispatched, so the cap itself holds for every event, cut or not;
    // what is buffered stays within twice the cap.
    maxBufferSize: 2 * max + 6,
    // Nothing after an overflow is dispatched: the stream is refused as a whole from there on.
    onEvent: (event) => {
      // The parser is fed up to a waiting id's line before the id waits: the event it dispatches
      // next is that id's, which carries it itself.
      idOnly = undefined;
      if (overflow) return;
      if (event.data.length > max) {
        overflow = true;
        return;
      }
      dispatched++;
      onEvent(event);
    },
    onRetry: options.onRetry,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
      // Unknown fields and invalid retry values are ignored, as the SSE spec says.
    },
  });
  // One decoder for the stream, so a UTF-8 character split across reads survives. A read that ends
  // with an ASCII byte leaves no character unfinished, so unless the read before left one, it is
  // decoded in one call without stream mode, which gives the same text (Node's TextDecoder is
  // several times slower in stream mode). A leading BOM is dropped by hand, once: dropped per call,
  // a U+FEFF that starts a later read would be lost.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let unfinished = false;
  let started = false;
  const decode = (bytes?: Uint8Array) => {
    let text: string;
    if (!bytes) text = decoder.decode();
    else {
      const whole = bytes.length > 0 && bytes[bytes.length - 1]! < 0x80;
      text = whole && !unfinished ? decoder.decode(bytes) : decoder.decode(bytes, { stream: true });
      if (bytes.length > 0) unfinished = !whole;
    }
    if (!started && text) {
      started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return text;
  };
  // SSE ends lines with CR, LF or CRLF. The parser keeps a CR that ends a read
  // until the next read shows whether an LF follows, so a CR-only stream's last
  // event waits for bytes that may never come. Every line end becomes one LF
  // here instead; an LF that starts a read after a read-ending CR is that CR's.
  let afterCr = false;
  let last = '';
  const feed = (text: string) => {
    // An empty read (or one that only starts a character) says nothing about a CR before it.
    if (!text) return;
    if (afterCr && text.charCodeAt(0) === 10) text = text.slice(1);
    // Most streams use LF only: no scan-and-copy of the chunk then.
    if (text.indexOf('\r') === -1) afterCr = false;
    else {
      afterCr = text.endsWith('\r');
      text = text.replace(/\r\n?/g, '\n');
    }
    if (!text) return;
    last = text[text.length - 1]!;
    feedLf(text);
  };
  /** Feeds text whose line ends are all LF. */
  const feedLf = (text: string) => {
    // Most reads hold no id line and continue none: straight to the parser.
    // (A search for the line feed before "id:": one for "id:" alone is slow in text full of i's.)
    if (idOnly === undefined && !open && text.indexOf('\nid:') === -1 && !(open === '' && text.startsWith('id:'))) {
      const lf = text.lastIndexOf('\n');
      if (lf !== -1) open = text.length - lf <= 3 && 'id:'.startsWith(text.slice(lf + 1)) ? text.slice(lf + 1) : null;
      else if (open === '') open = text.length <= 2 && 'id:'.startsWith(text) ? text : null;
      parser.feed(text);
      return;
    }
    feedIds(text);
  };
  const feedIds = (text: string) => {
    let fed = 0;
    const feedTo = (end: number) => {
      if (end > fed && !overflow) parser.feed(text.slice(fed, end));
      fed = end;
    };
    const idLine = (line: string, lineEnd: number) => {
      // "id:" with its value; the parser ignores an id with a NUL in it.
      const value = line.slice(line.charCodeAt(3) === 32 ? 4 : 3);
      if (value.includes('\0')) return;
      idOnly = value;
      idEnd = lineEnd + 1;
    };
    // Where the waiting id's line ends in this read (-1: in an earlier read).
    let idEnd = -1;
    let pos = 0;
    // A bare "id" line (which empties the id) from `from` on: where (0 when it starts the read, else
    // the LF before it), or Infinity.
    const bareId = (text: string, from: number) => {
      if (from === 0 && open === '' && text.startsWith('id\n')) return 0;
      const at = text.indexOf('\nid\n', from > 0 ? from - 1 : 0);
      return at === -1 ? Infinity : at;
    };
    if (open) {
      // A line begun in an earlier read that may be an id line.
      const lf = text.indexOf('\n');
      const line = open + text.slice(0, lf === -1 ? text.length : lf);
      if (lf === -1) {
        open = line.startsWith('id:') || 'id:'.startsWith(line) ? line : null;
        feedTo(text.length);
        return;
      }
      if (line.startsWith('id:')) idLine(line, lf);
      else if (line === 'id' && idOnly !== undefined) idOnly = '';
      pos = lf + 1;
      open = '';
    }
    // From one id line or blank line to the next (only blank lines while an id waits count).
    let nextId = -2;
    for (;;) {
      if (nextId < pos) {
        if (pos === 0 && open === '' && text.startsWith('id:')) nextId = 0;
        else {
          // pos starts a line: the line feed before it is where a search for an id line at pos begins.
          const at = text.indexOf('\nid:', pos > 0 ? pos - 1 : 0);
          nextId = at === -1 ? -1 : at + 1;
        }
      }
      let blank = -1;
      if (idOnly !== undefined) {
        // The LF of a blank line: the first of a read that starts a line, or one right after another.
        if (pos === 0 && open === '' && text.charCodeAt(0) === 10) blank = 0;
        else {
          const at = text.indexOf('\n\n', pos > 0 ? pos - 1 : 0);
          blank = at === -1 ? -1 : at + 1;
        }
      }
      if (blank !== -1 && (nextId === -1 || blank < nextId)) {
        // The usual "id: 7\ndata: …": a data line right after the id line, so the parser dispatches
        // the event with its id. Otherwise the parser is fed up to here: it dispatches the event if
        // it has data (which clears idOnly); else the event is id-only.
        if (idEnd !== -1 && idEnd < blank && dataLineAt(text, idEnd)) idOnly = undefined;
        else {
          if (bareId(text, pos) < blank) idOnly = '';
          feedTo(blank + 1);
        }
        const id = idOnly;
        idOnly = undefined;
        if (id !== undefined && !overflow) {
          dispatched++;
          onEvent({ id, event: undefined, data: '' });
        }
        pos = blank + 1;
        continue;
      }
      const lf = nextId === -1 ? -1 : text.indexOf('\n', nextId);
      if (lf === -1) {
        // No blank line after pos: a bare "id" line from here on is in the waiting id's event.
        if (idOnly !== undefined && bareId(text, pos) !== Infinity) idOnly = '';
        break;
      }
      // The usual "id: 7\ndata: …": the event has data, so the parser dispatches it with its id.
      if (dataLineAt(text, lf + 1)) idOnly = undefined;
      else {
        feedTo(nextId);
        idLine(text.slice(nextId, lf), lf);
      }
      pos = lf + 1;
    }
    // The line left open at the end of the read, if it may be an id line.
    const lf = text.lastIndexOf('\n');
    if (lf !== -1 || open === '') {
      const tail = lf === -1 ? text : text.slice(lf + 1);
      open = tail.startsWith('id:') || 'id:'.startsWith(tail) ? tail : null;
    }
    feedTo(text.length);
  };
  const tooLarge = () =>
    new McpClientError('too_large', `An SSE event from the server exceeded ${max} characters`, { ...options.context });
  return {
    /** Feeds one network read. @throws McpClientError `too_large` once an event exceeds the cap. */
    push(bytes: Uint8Array): void {
      feed(decode(bytes));
      if (overflow) throw tooLarge();
    },
    /** The stream ended: flushes the decoder and dispatches a whole last event left without its blank line. */
    end(): void {
      feed(decode());
      if (overflow) throw tooLarge();
      // The stream ended after a complete line but before the blank line that
      // dispatches its event: the event is whole, so dispatch it (a line cut off
      // mid-way stays dropped, as the SSE spec says, since it may be truncated).
      if (last !== '\n') return;
      const before = dispatched;
      feedLf('\n');
      if (dispatched > before) {
        options.onWarning?.(
          'sse-unterminated-event',
          `The event stream${options.context?.url ? ` of ${options.context.url}` : ''} ended without the blank line that ends an SSE event; its last event was dispatched anyway`,
        );
      }
    },
  };
}

/**
 * Reads an SSE body and yields its events in order.
 *
 * Comments (`:` keep-alives) are skipped by the parser. Returning early from the
 * loop (or an abort of the underlying fetch) cancels the body stream, which on
 * the modern protocol is also the cancellation signal for the request.
 *
 * @throws McpClientError `too_large` when one event exceeds `maxEventChars`.
 * @throws whatever reading the body throws (network drop, abort).
 */
export async function* readSse(body: ReadableStream<Uint8Array>, options: ReadSseOptions = {}): AsyncGenerator<SseEvent> {
  // Events of one read are yielded from an array walked by index (no per-event shift).
  let batch: SseEvent[] = [];
  const feeder = sseFeeder(options, (event) => batch.push(event));
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        feeder.end();
      } else feeder.push(value);
      const events = batch;
      batch = [];
      for (let i = 0; i < events.length; i++) yield events[i]!;
      if (done) return;
    }
  } finally {
    if (!finished) {
      // The consumer stopped early (final response seen, abort, error): close the stream.
      await reader.cancel().catch(() => {});
    }
    reader.releaseLock();
  }
}

/**
 * Reads an SSE body and hands each event to `onEvent` synchronously, as the
 * parser finds it: no promise or iterator result per event, which is what a
 * stream of many small events costs through {@link readSse}. `onEvent` returns
 * true to stop; the rest of the stream is then cancelled (on the modern
 * protocol, the request's cancellation) and no further event is delivered.
 * An error thrown by `onEvent` also cancels the stream and is rethrown.
 *
 * @returns true when `onEvent` stopped the reading, false when the stream ended.
 * @throws McpClientError `too_large` when one event exceeds `maxEventChars`.
 * @throws whatever reading the body throws (network drop, abort).
 */
export async function consumeSse(body: ReadableStream<Uint8Array>, onEvent: (event: SseEvent) => boolean | void, options: ReadSseOptions = {}): Promise<boolean> {
  let stopped = false;
  const feeder = sseFeeder(options, (event) => {
    if (!stopped && onEvent(event) === true) stopped = true;
  });
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        feeder.end();
        return stopped;
      }
      feeder.push(value);
      if (stopped) return true;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * Whether an SSE event carries a JSON-RPC message. Frames without an `event:`
 * line, or with an empty one, are `message` events (SSE spec; field case C02).
 */
export function isMessageEvent(event: SseEvent): boolean {
  return event.event === undefined || event.event === '' || event.event === 'message';
}

// Module level, not per event: an object with a `jsonrpc` member may be a JSON-RPC message.
const isMessageLike = (value: unknown) => isObject(value) && 'jsonrpc' in value;

/**
 * Reads the data of one SSE event: the value to parse as a JSON-RPC message, or
 * why the event carries none (`skip`: `sse-non-json` for text that is not JSON,
 * `sse-non-jsonrpc` for JSON that is no message; `what` describes it). Servers send keep-alives of
 * every shape — `{}`, `{"type":"ping"}`, a timestamp, `"ping"`, `null`, `[]` —
 * so only an object with a `jsonrpc` member (or an array holding one: a batch,
 * which {@link parseMessage} refuses by name) counts as a message.
 */
export function sseFrame(data: string): { value: unknown } | { skip: 'sse-non-json' | 'sse-non-jsonrpc'; what: string } {
  let value: unknown;
  try {
    value = parseJson(data);
  } catch {
    return { skip: 'sse-non-json', what: `text that is not JSON (${JSON.stringify(data.slice(0, 40))})` };
  }
  if (isMessageLike(value) || (Array.isArray(value) && value.some(isMessageLike))) return { value };
  // Named by kind, not value: a timestamp heartbeat must not make one warning per beat.
  const what = value === null ? 'JSON null' : Array.isArray(value) ? 'a JSON array' : isObject(value) ? 'a JSON object without "jsonrpc"' : `a JSON ${typeof value}`;
  return { skip: 'sse-non-jsonrpc', what };
}

/**
 * Who hears of what arrives on a reply stream besides its response. Declared
 * here rather than taken from the transport, which loads this module: the
 * transport passes the per-message send options it was given, which carry these.
 */
export interface ReplyListeners {
  /** Messages that arrive before the final response (notifications; legacy server requests). */
  onMessage?: (message: IncomingMessage) => void;
  /** SSE `id:` of each event (legacy resumption). */
  onEventId?: (id: string) => void;
  /** SSE `retry:` hint in ms (legacy resumption). */
  onRetry?: (ms: number) => void;
}

/** What the transport lends {@link readReplyStream} for one exchange. */
export interface ReplyStreamHooks {
  /** Checks a parsed value as a message of this exchange; throws McpClientError `protocol`. */
  parse(value: unknown): IncomingMessage;
  /** Whether a response answers the request (a mangled id may be accepted, with a warning). */
  answers(message: JsonRpcResponse): boolean;
  warn(code: string, message: string): void;
  /** Cap on one event, in characters; default {@link DEFAULT_MAX_EVENT_CHARS}. */
  maxEventChars?: number;
}

/**
 * Reads the SSE stream that replies to `request` (spec: basic/transports/streamable-http
 * "Sending Messages" and "Receiving Messages"): each event is handled as the parser finds it,
 * notifications (and, on legacy servers, server requests) go to `options.onMessage` in
 * order, and the response that answers the request ends the reading, which cancels
 * the rest of the stream. Non-message events, keep-alive frames and responses to other
 * requests are skipped with a warning.
 *
 * @returns the response to `request`.
 * @throws McpClientError `protocol` when a message is malformed or the stream ends
 *   before the response; `too_large` when an event exceeds the cap.
 */
export async function readReplyStream(
  body: ReadableStream<Uint8Array>,
  request: Pick<JsonRpcRequest, 'id' | 'method'>,
  options: ReplyListeners,
  context: McpErrorData,
  hooks: ReplyStreamHooks,
): Promise<JsonRpcResponse> {
  const { warn } = hooks;
  let final: JsonRpcResponse | undefined;
  // Returning true ends the reading and cancels the rest of the stream.
  await consumeSse(
    body,
    (event) => {
      if (event.id !== undefined && event.id !== '') options.onEventId?.(event.id);
      if (!isMessageEvent(event)) {
        warn('sse-event-ignored', `Ignored an SSE "${event.event}" event in reply to ${request.method}`);
        return false;
      }
      const data = event.data;
      // Priming events (empty data) carry no message. A JSON-RPC message starts with "{": only
      // data starting with white space needs the trim.
      if (data === '' || (data.charCodeAt(0) !== 123 && data.trim() === '')) return false;
      const frame = sseFrame(data);
      if ('skip' in frame) {
        // Keep-alives: {}, {"type":"heartbeat"}, a timestamp, "ping", null, []…
        warn(frame.skip, `Ignored an SSE frame in reply to ${request.method}: its data is ${frame.what}, not a JSON-RPC message`);
        return false;
      }
      const parsed = hooks.parse(frame.value);
      if (parsed.kind === 'response') {
        if (hooks.answers(parsed.message)) {
          final = parsed.message;
          return true;
        }
        warn('foreign-response', `Ignored a response with id ${JSON.stringify(parsed.message.id)} on the stream of request ${JSON.stringify(request.id)}`);
        return false;
      }
      options.onMessage?.(parsed);
      return false;
    },
    { maxEventChars: hooks.maxEventChars, onRetry: options.onRetry, context, onWarning: warn },
  );
  if (final) return final;
  throw new McpClientError('protocol', `The server closed the response stream of ${request.method} before sending a response`, { ...context, streamEnded: true });
}
