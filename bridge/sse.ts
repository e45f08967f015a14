/**
 * One open SSE response of the bridge: a POST's stream (spec 2025-11-25
 * basic/transports "Sending Messages to the Server") or the standalone GET
 * stream ("Listening for Messages from the Server"). Events carry no `id`:
 * the bridge keeps no event store, so clients are not invited to resume.
 *
 * @module
 */
import type { ServerResponse } from 'node:http';

/** Pauses and resumes the source of the messages (the child's stdout). */
export interface FlowControl {
  pause(): void;
  resume(): void;
}

export class SseStream {
  readonly #response: ServerResponse;
  readonly #flow: FlowControl;
  #open = true;
  #congested = false;
  readonly #onClose: Array<() => void> = [];

  /** Starts the stream: status 200 and `headers` are sent at once (the client may need a session id from them). */
  constructor(response: ServerResponse, headers: Record<string, string>, flow: FlowControl) {
    this.#response = response;
    this.#flow = flow;
    response.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' });
    response.flushHeaders();
    response.on('close', () => this.#closed());
  }

  get open(): boolean {
    return this.#open;
  }

  /** Runs `listener` once the stream is closed, by either side. */
  onClose(listener: () => void): void {
    if (!this.#open) listener();
    else this.#onClose.push(listener);
  }

  /** Sends one JSON-RPC message as an SSE `message` event; a slow reader pauses the child's stdout. */
  send(message: unknown): void {
    if (!this.#open) return;
    this.#write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** A comment line, so that idle connections are not taken for dead. */
  keepAlive(): void {
    if (this.#open) this.#write(': keep-alive\n\n');
  }

  end(): void {
    if (!this.#open) return;
    this.#response.end();
    this.#closed();
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
    this.#relieve();
    for (const listener of this.#onClose.splice(0)) listener();
  }
}
