/**
 * Server-Sent Events reading for Streamable HTTP response streams
 * (spec: basic/transports/streamable-http "Receiving Messages").
 *
 * Framing is done by `eventsource-parser`; this module is the glue around it:
 * bytes are decoded with one streaming `TextDecoder` (so a UTF-8 character split
 * across network reads survives), the parser's buffer is capped, and the
 * stream is cancelled when the consumer stops early.
 *
 * @module
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { McpClientError, type McpErrorData } from './errors.js';

/** Default cap on one event's buffered text, in characters (16 MiB of UTF-16 units). */
export const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;

/** One parsed SSE event. `event` is undefined when the frame had no `event:` line. */
export type SseEvent = EventSourceMessage;

export interface ReadSseOptions {
  /** Maximum characters one event (or one unterminated line) may buffer; default {@link DEFAULT_MAX_EVENT_CHARS}. */
  maxEventChars?: number;
  /** Called with the server's `retry:` hint, in milliseconds. */
  onRetry?: (ms: number) => void;
  /** Facts attached to errors (URL, method). */
  context?: McpErrorData;
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
  const queue: SseEvent[] = [];
  let overflow = false;
  const parser = createParser({
    maxBufferSize: options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS,
    onEvent: (event) => queue.push(event),
    onRetry: options.onRetry,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
      // Unknown fields and invalid retry values are ignored, as the SSE spec says.
    },
  });
  const decoder = new TextDecoder('utf-8');
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        const tail = decoder.decode();
        if (tail) parser.feed(tail);
        finished = true;
        break;
      }
      parser.feed(decoder.decode(value, { stream: true }));
      if (overflow) {
        throw new McpClientError(
          'too_large',
          `An SSE event from the server exceeded ${options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS} characters`,
          { ...options.context },
        );
      }
      while (queue.length > 0) yield queue.shift()!;
    }
    while (queue.length > 0) yield queue.shift()!;
  } finally {
    if (!finished) {
      // The consumer stopped early (final response seen, abort, error): close the stream.
      await reader.cancel().catch(() => {});
    }
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
