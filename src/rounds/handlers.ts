/**
 * What a page registers to answer the input requests a server embeds in a
 * result (spec: basic/patterns/mrtr) or sends on a legacy stream:
 * elicitation (client/elicitation), sampling (client/sampling) and roots
 * (client/roots), with the context each handler gets, and the bounds the
 * client puts on one round. Types only.
 *
 * @module
 */
import type { McpWarning } from '../protocol/errors.js';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  InputRequestMethod,
  JsonObject,
  ListRootsResult,
} from '../protocol/types.js';
import type { ServerDescription } from '../transport/session.js';

/** Context handed to input handlers. */
export interface InputContext {
  /** Server-assigned key of this input request. */
  key: string;
  /** Position of this request among the round's requests (0-based) and their count. */
  index: number;
  total: number;
  /** Round number of the call (0 = first answer). */
  round: number;
  /** The original request: method and tool/prompt name or resource URI. */
  method: string;
  target: string | undefined;
  callId: number;
  /** Aborted when the call is cancelled. */
  signal: AbortSignal;
  /** The server asking, and its endpoint (the authoritative identity). */
  server: ServerDescription;
  url: string;
  /** The task that asks, when the request came from a running task (`tasks/update` answers it). */
  taskId?: string;
  /**
   * For a URL-mode elicitation, when the answer is due. `on-open`: a 2025-11-25
   * server's own `elicitation/create` (client/elicitation "URL Mode"), where
   * `accept` is consent to open the page: answer when the user opens it (the
   * server is blocked until then, and learns of the outcome out of band); a
   * `notifications/elicitation/complete` for it then aborts `signal`, ending
   * any wait the handler still shows. Absent (the 2026-07-28 `input_required`
   * rounds, the legacy `-32042` retry): the answer makes the client send the
   * request again, so it is due once the user has finished on the page.
   */
  urlAnswer?: 'on-open';
}

/**
 * Answers `elicitation/create` (spec: client/elicitation). Register with
 * {@link McpClient.setInputHandler}; `modes` become the declared capability.
 * `handle` resolves with the user's answer, or rejects (e.g. when `context.signal` aborts).
 */
export interface ElicitationHandler {
  /** Modes this handler can show; declared as `elicitation.form` / `elicitation.url`. */
  modes: readonly ('form' | 'url')[];
  handle(params: ElicitRequestParams, context: InputContext): Promise<ElicitResult>;
}

/**
 * Answers `sampling/createMessage` (spec: client/sampling): `handle` resolves with
 * the message a model (or the user) wrote; reject to refuse the request.
 */
export interface SamplingHandler {
  /** Whether tool use inside sampling is supported (declares `sampling.tools`). */
  tools?: boolean;
  handle(params: CreateMessageRequestParams, context: InputContext): Promise<CreateMessageResult>;
}

/** Answers `roots/list` (spec: client/roots): `handle` resolves with the roots to share. */
export interface RootsHandler {
  handle(params: JsonObject | undefined, context: InputContext): Promise<ListRootsResult>;
}

/** Handlers for the input requests a server may embed (MRTR) or send (legacy). */
export interface InputHandlers {
  'elicitation/create': ElicitationHandler;
  'sampling/createMessage': SamplingHandler;
  'roots/list': RootsHandler;
}

/** Returns the handler currently registered for an input method. */
export type HandlerLookup = <K extends InputRequestMethod>(method: K) => InputHandlers[K] | undefined;

/**
 * The client options that bound a round's input requests: `maxInputRequests`
 * per round, and where the flood warning goes (see `McpClientOptions`).
 */
export interface RoundLimits {
  maxInputRequests?: number;
  onWarning?: (warning: McpWarning) => void;
}
