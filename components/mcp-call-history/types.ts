/**
 * The shape of `<mcp-call-history>`'s records, on its own (no imports): the
 * kit's event classes name it without pulling the history's storage into the
 * page's first bytes.
 *
 * @module
 */

/** What a history record is of: `tools/call`, `prompts/get` or `resources/read`. */
export type CallKind = 'tool' | 'prompt' | 'resource';

/**
 * How a call ended: `ok`; `tool-error` (a result with `isError: true`);
 * `error` (the request failed: protocol, network, refused); `stopped` (cancelled, or the page
 * went away before an answer); `running` (no answer yet).
 */
export type CallOutcome = 'running' | 'ok' | 'tool-error' | 'error' | 'stopped';

/** One entry of the history. Times in ms since the epoch, durations in ms. */
export interface CallRecord {
  /** Unique within the history. */
  id: string;
  kind: CallKind;
  /** The tool's or prompt's name, or the resource's URI. */
  name: string;
  /** The server, without credentials (`publicUrl`). */
  server: string;
  /** The arguments sent (for a resource read: none). */
  arguments: Record<string, unknown>;
  startedAt: number;
  /** From the request to its final answer (all rounds); absent when not measured (a call resumed after a reload). */
  durationMs?: number;
  outcome: CallOutcome;
  /** The error's message, for `error`. */
  error?: string;
  /** The final result (`CallToolResult`, `GetPromptResult`, `ReadResourceResult`), when not too large to keep. */
  result?: unknown;
  /** The result was larger than RESULT_CHARS and is not kept. */
  resultOmitted?: boolean;
}
