/**
 * One answer of the bridge to a client: a POST's answer (spec 2025-11-25
 * basic/transports "Sending Messages to the Server": one JSON body, or an SSE
 * stream that carries related messages and ends with the response) or the
 * standalone GET stream ("Listening for Messages from the Server"). Events
 * carry no `id`: the bridge keeps no event store, so clients are not invited to
 * resume.
 *
 * A POST's answer waits to choose: when the response is the first thing to
 * send, it goes as one `application/json` body (headers and body in one write:
 * one wake-up of the client instead of three). The stream starts instead on the
 * first related message (a server request, progress, a log line), and after
 * `BridgeOptions.streamAfterMs` (default {@link STREAM_AFTER_MS}) without an answer, so that a long call shows its client
 * that it was accepted and keep-alive comments can flow.
 *
 * @module
 */
import type { ServerResponse } from 'node:http';

/** Pauses and resumes the source of the messages (the child's stdout). */
export interface FlowControl {
  pause(): void;
  resume(): void;
}

/** How long a POST's answer waits for its response before it starts as an SSE stream, in ms (default). */
export const STREAM_AFTER_MS = 100;

/** A message to send, and its JSON text when the child wrote it as is (no CR or LF in it: one SSE data line). */
function serialize(message: unknown, text: string | undefined): string {
  return text !== undefined && !/[\r\n]/.test(text) ? text : JSON.stringify(message);
}

export class SseStream {
  readonly #response: ServerResponse;
  readonly #headers: Record<string, string>;
  readonly #flow: FlowControl;
  #open = true;
  #started = false;
  #congested = false;
  #startTimer: NodeJS.Timeout | undefined;
  readonly #onClose: Array<() => void> = [];

  /**
   * An answer with status 200 and `headers`. `deferMs`: a POST's answer, which
   * may still become one JSON body until then (see the module docs); without it
   * (the GET stream) the SSE headers are sent at once.
   */
  constructor(response: ServerResponse, headers: Record<string, string>, flow: FlowControl, deferMs?: number) {
    this.#response = response;
    this.#headers = headers;
    this.#flow = flow;
    response.on('close', () => this.#closed());
    if (deferMs === undefined) this.#start();
    else {
      this.#startTimer = setTimeout(() => this.#start(), deferMs);
      this.#startTimer.unref();
    }
  }

  get open(): boolean {
    return this.#open;
  }

  /** Runs `listener` once the stream is closed, by either side. */
  onClose(listener: () => void): void {
    if (!this.#open) listener();
    else this.#onClose.push(listener);
  }

  /**
   * Sends one JSON-RPC message as an SSE `message` event (starting the stream);
   * a slow reader pauses the child's stdout. `text`: the message as the child
   * wrote it, relayed without serializing it again.
   */
  send(message: unknown, text?: string): void {
    if (!this.#open) return;
    this.#start();
    this.#write(`event: message\ndata: ${serialize(message, text)}\n\n`);
  }

  /** Sends the response that ends the answer: one JSON body when nothing went before it, else the last event of the stream. */
  answer(message: unknown, text?: string): void {
    if (!this.#open) return;
    if (this.#started) {
      this.send(message, text);
      this.end();
      return;
    }
    clearTimeout(this.#startTimer);
    const body = serialize(message, text);
    this.#started = true;
    this.#response.writeHead(200, { ...this.#headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
    this.#response.end(body);
    this.#closed();
  }

  /** A comment line, so that idle connections are not taken for dead. */
  keepAlive(): void {
    if (!this.#open) return;
    this.#start();
    this.#write(': keep-alive\n\n');
  }

  /** Ends the answer (an SSE stream, empty if nothing was sent). */
  end(): void {
    if (!this.#open) return;
    this.#start();
    this.#response.end();
    this.#closed();
  }

  #start(): void {
    if (this.#started || !this.#open) return;
    this.#started = true;
    clearTimeout(this.#startTimer);
    this.#response.writeHead(200, { ...this.#headers, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' });
    this.#response.flushHeaders();
  }

  #write(text: string): void {
    if (this.#response.write(text) || this.#congested) return;
    this.#congested = true;
    this.#flow.pause();
    this.#response.once('drain', () => this.#relieve());
  }

  #relieve(): void {
    if (!this.#congested) return;
    this.#congested = false;
    this.#flow.resume();
  }

  #closed(): void {
    if (!this.#open) return;
    this.#open = false;
    clearTimeout(this.#startTimer);
    this.#relieve();
    for (const listener of this.#onClose.splice(0)) listener();
  }
}
