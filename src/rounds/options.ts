/**
 * The options of a request, of a request that may need input (multi round-trip
 * requests, spec: basic/patterns/mrtr) and of a `subscriptions/listen` stream
 * (basic/patterns/subscriptions), and the events of their rounds: the shapes
 * `McpClient` takes and reports, shared by the rounds and the task code.
 * Types only.
 *
 * @module
 */
import type { McpError } from '../protocol/errors.js';
import type {
  InputRequests,
  InputRequiredResult,
  InputResponses,
  JsonObject,
  JsonRpcNotification,
  LoggingMessageNotificationParams,
  ProgressNotificationParams,
  RequestId,
  SubscriptionFilter,
} from '../protocol/types.js';

/** Options common to every request. */
export interface RequestOptions {
  /** Abort to cancel: on 2026-07-28 the client closes the request's stream, which is the cancellation. */
  signal?: AbortSignal;
  /** Overrides `requestTimeoutMs` for this request. */
  timeoutMs?: number;
  /** Overrides `maxTotalTimeoutMs` for this request. */
  maxTotalTimeoutMs?: number;
  /** Whether progress notifications restart the timeout; default true. */
  resetTimeoutOnProgress?: boolean;
  /** Opts the request into progress notifications (a `progressToken` is added). */
  onProgress?: (progress: ProgressNotificationParams) => void;
  /** Log notifications sent on this request's stream. */
  onLog?: (log: LoggingMessageNotificationParams) => void;
  /** Skip the result cache for this request. */
  fresh?: boolean;
}

/** One step of a multi round-trip request, for timelines and protocol logs. */
export interface RoundEvent {
  /** Identifies the logical call across its rounds. */
  callId: number;
  /** Original method: `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** Tool or prompt name, or resource URI. */
  target: string | undefined;
  /** The original request's params (without `_meta`, `inputResponses`, `requestState`): enough to resume the call. */
  params: JsonObject;
  /** 0 for the first request, 1 for the first retry… */
  round: number;
  /** JSON-RPC id of this round's request. */
  requestId?: RequestId;
  phase: 'input_required' | 'answered' | 'complete' | 'error';
  inputRequests?: InputRequests;
  inputResponses?: InputResponses;
  requestState?: string;
  error?: McpError;
}

/** Options of calls that may return `input_required` (spec: basic/patterns/mrtr). */
export interface InputRequiredOptions extends RequestOptions {
  /** `auto` (default): answer input requests through the registered handlers and retry; `manual`: return the interim result. */
  inputRequired?: 'auto' | 'manual';
  /** Overrides `maxRounds`. */
  maxRounds?: number;
  /** Answers to send with this request (manual continuation). */
  inputResponses?: InputResponses;
  /** `requestState` to echo with this request (manual continuation). */
  requestState?: string;
  /** Continue from an interim result already received (e.g. restored after a reload). */
  resumeFrom?: InputRequiredResult;
  /** Called on every round. */
  onRound?: (event: RoundEvent) => void;
}

/** A live `subscriptions/listen` subscription (see {@link McpClient.listen}). */
export interface Subscription {
  readonly filter: SubscriptionFilter;
  /** What the server agreed to deliver, once acknowledged. */
  readonly acknowledged: SubscriptionFilter | undefined;
  readonly state: 'opening' | 'open' | 'reconnecting' | 'closed';
  /** Resolves when the subscription ends for good (closed by either side). */
  readonly closed: Promise<{ reason: 'client' | 'server' | 'error'; error?: McpError }>;
  close(): void;
}

/** Options of {@link McpClient.listen} (spec: basic/patterns/subscriptions). */
export interface ListenOptions {
  /** Called for each notification delivered on the stream. */
  onNotification?: (notification: JsonRpcNotification) => void;
  /** Called when the server acknowledges (and on each re-listen). */
  onAcknowledged?: (filter: SubscriptionFilter) => void;
  /** Called on state changes. */
  onState?: (state: Subscription['state']) => void;
  /** Re-listen with backoff after an unexpected drop; default true. */
  reconnect?: boolean;
  /** First backoff delay; doubles up to 30 s. Default 1,000 ms. */
  backoffMs?: number;
  signal?: AbortSignal;
}
