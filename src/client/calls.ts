/**
 * The first request of a call that may need input (`tools/call`,
 * `prompts/get`, `resources/read`; spec: basic/patterns/mrtr), and what
 * follows it: a final result is returned, a task is followed to its outcome
 * (the Tasks extension; 2025-11-25 basic/utilities/tasks), and the rounds of an
 * `input_required` result (or a 2025-11-25 -32042) go to the round code
 * (`../rounds/mrtr.ts`), which loads on first use.
 *
 * @module
 */
import { ErrorCode, McpError, McpRpcError } from '../protocol/errors.js';
import type { JsonObject, RequestId, ResultBase } from '../protocol/types.js';
import type { HandlerLookup } from '../rounds/handlers.js';
import type { RoundEvent } from '../rounds/options.js';
import type { ServerDescription } from '../transport/session.js';
import type { CallToolOptions, McpClientOptions } from './options.js';

/** The options of one call, with what `callTool` adds: the tool's headers, and how to renew them after a HeaderMismatch. */
export type CallOptions = CallToolOptions & { headers?: Record<string, string>; onHeaderMismatch?: () => Promise<Record<string, string>> };

/** What a call needs from its client. */
export interface CallHost {
  url: string;
  options: Pick<McpClientOptions, 'maxRounds' | 'maxInputRequests' | 'onWarning'>;
  /** A number identifying the call across its rounds. */
  nextCallId(): number;
  request(method: string, params: JsonObject, options: CallOptions): Promise<ResultBase & { __id?: RequestId }>;
  /** Reports a round to the client's listeners. */
  round(event: RoundEvent): void;
  /** Follows the task `created` stands for to its outcome (the task machinery loads on first use). */
  follow(method: string, params: JsonObject, target: string | undefined, created: JsonObject, options: CallOptions, callId: number): Promise<ResultBase>;
  lookup: HandlerLookup;
  /** Controllers that `close()` aborts. */
  inflight: Set<AbortController>;
  /** Maps an abort reason to the error a call of `method` rejects with. */
  abortReason(method: string): (reason: unknown) => unknown;
  warn(code: string, message: string): void;
  server(): ServerDescription | undefined;
}

/**
 * The MRTR driver (basic/patterns/mrtr "Client Requirements"): retries with a
 * new JSON-RPC id, `inputResponses` keyed exactly as asked, and `requestState`
 * echoed byte for byte — and only when the latest interim result had one.
 */
export async function withInputs(host: CallHost, method: string, params: JsonObject, target: string | undefined, options: CallOptions): Promise<ResultBase> {
  const callId = host.nextCallId();
  const maxRounds = options.maxRounds ?? host.options.maxRounds ?? 10;
  const emit = (event: Omit<RoundEvent, 'callId' | 'method' | 'target' | 'params'>) => {
    const full: RoundEvent = { callId, method, target, params, ...event };
    options.onRound?.(full);
    host.round(full);
  };
  // One request of the call; a final result is reported and returned (a task is followed to its outcome).
  const send = async (round: number, roundParams: JsonObject): Promise<(ResultBase & { __id?: RequestId }) | McpRpcError> => {
    let result: ResultBase & { __id?: RequestId };
    try {
      try {
        result = await host.request(method, roundParams, options);
      } catch (error) {
        const retry = options.onHeaderMismatch;
        if (!retry || !(McpRpcError.isInstance(error) && error.code === ErrorCode.HeaderMismatch)) throw error;
        options = { ...options, headers: await retry(), onHeaderMismatch: undefined };
        result = await host.request(method, roundParams, options);
      }
    } catch (error) {
      // 2025-11-25 -32042: handed to the rounds, which offer its URLs like URL-mode elicitation, then retry.
      if (McpRpcError.isInstance(error) && error.code === ErrorCode.UrlElicitationRequired && options.inputRequired !== 'manual' && round < maxRounds) return error;
      emit({ round, phase: 'error', error: McpError.isInstance(error) ? error : undefined });
      throw error;
    }
    if (result.resultType === 'input_required') return result;
    emit({ round, requestId: result.__id, phase: 'complete' });
    // A task (2026-07-28 `resultType: "task"`; 2025-11-25: any answer to a task-augmented request): follow it.
    return result.resultType === 'task' || params.task ? host.follow(method, params, target, result, options, callId) : result;
  };
  const firstParams: JsonObject = {
    ...params,
    ...(options.inputResponses !== undefined ? { inputResponses: options.inputResponses } : {}),
    ...(options.requestState !== undefined ? { requestState: options.requestState } : {}),
  };
  const first = options.resumeFrom ?? (await send(0, firstParams));
  if (!McpRpcError.isInstance(first) && first.resultType !== 'input_required') return first;
  // The rounds load on first use: pages that never meet input_required don't download them.
  // The module, not its names (`.then(module => …)`): Vite wraps `(await import()).name` and destructuring in a name picker, bytes in every page.
  return import('../rounds/mrtr.js').then((module) => module.runRounds({
    method,
    params,
    target,
    callId,
    options,
    maxRounds,
    first,
    firstParams,
    emit,
    send,
    lookup: host.lookup,
    clientOptions: host.options,
    inflight: host.inflight,
    abortReason: host.abortReason(method),
    warn: host.warn,
    server: host.server,
    url: host.url,
  }));
}
