/**
 * The rounds of a multi round-trip request after its first `input_required`
 * result (spec: basic/patterns/mrtr "Client Requirements"): each interim
 * result is checked, its input requests answered through the handlers, and the
 * request retried with a new JSON-RPC id, `inputResponses` keyed exactly as
 * asked and `requestState` echoed byte for byte — only when the latest interim
 * result had one — up to `maxRounds`. Loaded by the client the first time a
 * call needs input, so pages that never meet `input_required` don't download it.
 *
 * @module
 */
import { McpClientError, McpError, McpRpcError } from '../protocol/errors.js';
import { sleep } from '../util/sleep.js';
import type { HandlerLookup, RoundLimits } from './handlers.js';
import type { InputRequiredOptions, RoundEvent } from './options.js';
import type { ServerDescription } from '../transport/session.js';
import { isObject, LATEST_PROTOCOL_VERSION, type InputRequests, type InputRequiredResult, type InputResponses, type JsonObject, type RequestId, type ResultBase } from '../protocol/types.js';

type Sent = ResultBase & { __id?: RequestId };
/** What one request of the call brings: a result, or a 2025-11-25 -32042 to answer (then the request is sent again). */
type Outcome = Sent | McpRpcError;

/** One call's rounds, as the client hands them over. */
export interface RoundsRun {
  method: string;
  /** The original params (without `inputResponses`/`requestState`). */
  params: JsonObject;
  target: string | undefined;
  callId: number;
  options: InputRequiredOptions;
  maxRounds: number;
  /** The first interim result (the answer to the first request, or `options.resumeFrom`), or the first request's -32042. */
  first: Outcome;
  /** The params of the first request (with the caller's `inputResponses`/`requestState`). */
  firstParams: JsonObject;
  /** Reports a round (`onRound`, the client's `round` event). */
  emit(event: Omit<RoundEvent, 'callId' | 'method' | 'target' | 'params'>): void;
  /** Sends one round; a final result (or a followed task's outcome) comes back as is, a -32042 as its error. */
  send(round: number, params: JsonObject): Promise<Outcome>;
  lookup: HandlerLookup;
  /** The client's options that bound a round's input requests (`maxInputRequests`, the flood warning's `onWarning`). */
  clientOptions: RoundLimits;
  /** Controllers that `close()` aborts. */
  inflight: Set<AbortController>;
  /** Maps an abort reason to the error the call rejects with. */
  abortReason(reason: unknown): unknown;
  server(): ServerDescription | undefined;
  url: string;
  warn(code: string, message: string): void;
}

/** Checks an interim result (mrtr "InputRequiredResult"). @throws McpClientError `protocol`. */
function check(run: RoundsRun, next: InputRequiredResult): void {
  const fail = (what: string) => new McpClientError('protocol', what, { url: run.url, method: run.method });
  if (next.inputRequests !== undefined && !isObject(next.inputRequests)) throw fail(`inputRequests of ${run.method} is not an object`);
  if (next.requestState !== undefined && typeof next.requestState !== 'string') throw fail(`requestState of ${run.method} is not a string`);
  if (next.inputRequests === undefined && next.requestState === undefined) throw fail(`The input_required result of ${run.method} has neither inputRequests nor requestState`);
}

/**
 * Answers and retries until a final result.
 * @returns the final result, or (manual mode) the interim result this call received.
 * @throws McpClientError `rounds_exceeded`, `input_unsupported`, `protocol`, `aborted`…; McpRpcError from the server.
 */
export async function runRounds(run: RoundsRun): Promise<ResultBase> {
  const { method, target, options, emit } = run;
  /** Asks the registered handlers for one round's answers. */
  const answer = async (requests: InputRequests, round: number): Promise<InputResponses> => {
    const { answerRound } = await import('./input.js');
    try {
      return await answerRound(
        run.lookup,
        requests,
        {
          callId: run.callId,
          method,
          target,
          round,
          server: run.server() ?? { era: 'modern', protocolVersion: LATEST_PROTOCOL_VERSION, supportedVersions: [], capabilities: {} },
          url: run.url,
        },
        run.clientOptions,
        { signal: options.signal, inflight: run.inflight, abortReason: run.abortReason },
      );
    } catch (failure) {
      emit({ round, phase: 'error', error: McpError.isInstance(failure) ? failure : undefined });
      throw failure;
    }
  };
  let outcome = run.first;
  let sentParams = run.firstParams;
  if (!McpRpcError.isInstance(outcome) && outcome !== options.resumeFrom) {
    check(run, outcome as InputRequiredResult);
    emit({ round: 0, requestId: outcome.__id, phase: 'input_required', inputRequests: (outcome as InputRequiredResult).inputRequests, requestState: (outcome as InputRequiredResult).requestState });
  }
  let stateOnlyRounds = 0;
  // Answering the first interim result is round 1 (a resumed call's came from its first request).
  for (let round = 1; ; round++) {
    let roundParams: JsonObject;
    if (McpRpcError.isInstance(outcome)) {
      // 2025-11-25 -32042 on the previous request: its URLs go to the URL-mode handler; accepted, the same request goes again.
      const input = await import('./input.js');
      const requests = input.urlElicitations(run.lookup, outcome, run.warn);
      if (!requests) {
        emit({ round: round - 1, phase: 'error', error: outcome });
        throw outcome;
      }
      input.requireAccepted(requests, await answer(requests, round - 1), outcome, run.url, method);
      roundParams = sentParams;
    } else {
      const interim = outcome as InputRequiredResult;
      // Manual mode hands back interim results this call received (not one it was asked to resume).
      if (options.inputRequired === 'manual' && interim !== options.resumeFrom) return interim;
      if (round > run.maxRounds) break;
      const requestState = typeof interim.requestState === 'string' ? interim.requestState : undefined;
      const requests = interim.inputRequests;
      let inputResponses: InputResponses | undefined;
      if (requests && Object.keys(requests).length > 0) {
        stateOnlyRounds = 0;
        inputResponses = await answer(requests, round);
        emit({ round, phase: 'answered', inputResponses, requestState });
      } else {
        // State only (e.g. load shedding): retry with growing backoff.
        await sleep(Math.min(250 * 2 ** stateOnlyRounds++, 5000), options.signal);
      }
      roundParams = { ...run.params };
      if (inputResponses !== undefined) roundParams.inputResponses = inputResponses;
      if (requestState !== undefined) roundParams.requestState = requestState;
    }
    outcome = await run.send(round, roundParams);
    sentParams = roundParams;
    if (McpRpcError.isInstance(outcome)) continue;
    if (outcome.resultType !== 'input_required') return outcome;
    check(run, outcome as InputRequiredResult);
    emit({ round, requestId: outcome.__id, phase: 'input_required', inputRequests: (outcome as InputRequiredResult).inputRequests, requestState: (outcome as InputRequiredResult).requestState });
  }
  throw new McpClientError('rounds_exceeded', `${method}${target ? ` ${target}` : ''} still required input after ${run.maxRounds} rounds`, { url: run.url, method, maxRounds: run.maxRounds });
}
