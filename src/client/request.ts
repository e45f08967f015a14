/**
 * One request of the client, as `McpClient.request` sends it: its timeouts
 * (idle, reset by progress, and total), its progress token and notifications
 * (basic/patterns/progress), cancellation by the caller's signal or the
 * client's `close()`, and the check of the result's `resultType`
 * (basic/index "ResultType").
 *
 * @module
 */
import { McpClientError, McpError, type McpErrorData } from '../protocol/errors.js';
import type { IncomingMessage } from '../protocol/jsonrpc.js';
import { isObject, type JsonObject, type JsonRpcNotification, type LoggingMessageNotificationParams, type ProgressNotificationParams, type RequestId, type ResultBase } from '../protocol/types.js';
import type { RequestOptions } from '../rounds/options.js';
import type { Session, SessionRequestOptions } from '../transport/session.js';
import { timerDelay } from '../util/sleep.js';
import type { McpClientOptions } from './options.js';

/** The methods whose result may be `input_required` (basic/patterns/mrtr). */
const INPUT_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** What a request needs from its client. */
export interface RequestHost {
  url: string;
  options: Pick<McpClientOptions, 'requestTimeoutMs' | 'maxTotalTimeoutMs' | 'tasks'>;
  /** Controllers that `close()` aborts; the request's joins them while it runs. */
  inflight: Set<AbortController>;
  /** A progress token no other request of this client uses. */
  progressToken(): string;
  /** A log notification on the request's stream (after the request's own `onLog`). */
  log(params: LoggingMessageNotificationParams): void;
  /** Any other notification on the request's stream. */
  dispatch(notification: JsonRpcNotification): void;
}

/**
 * Rejects unknown `resultType`s (basic/index "ResultType"); absent means `complete`.
 * @throws McpClientError `protocol`.
 */
export function checkResultType(host: Pick<RequestHost, 'url' | 'options'>, method: string, result: JsonObject): void {
  const type = result.resultType;
  if (type === undefined || type === 'complete') return;
  if (type === 'input_required' && INPUT_METHODS.has(method)) return;
  // Tasks extension "Supported Methods": only tools/call, and only when the client declared the extension.
  if (type === 'task' && method === 'tools/call' && host.options.tasks) return;
  throw new McpClientError(
    'protocol',
    type === 'input_required'
      ? `The server answered ${method} with input_required, which is only allowed for tools/call, prompts/get and resources/read`
      : `The server answered ${method} with an unknown resultType ${JSON.stringify(type)}`,
    { url: host.url, method, resultType: type },
  );
}

/**
 * Sends one request on `session` (see `McpClient.request`).
 * @returns the result, with its JSON-RPC id as the non-enumerable `__id`.
 * @throws McpRpcError from the server; McpClientError `timeout`, `aborted`, `protocol`…
 */
export async function sendRequest(
  host: RequestHost,
  session: Session,
  method: string,
  params: JsonObject,
  options: RequestOptions & { headers?: Record<string, string>; sessionId?: string },
): Promise<ResultBase & { __id?: RequestId }> {
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? host.options.requestTimeoutMs ?? 60_000;
  const totalMs = options.maxTotalTimeoutMs ?? host.options.maxTotalTimeoutMs ?? 600_000;
  const context: McpErrorData = { url: host.url, method };
  const expire = (ms: number, kind: string) => controller.abort(new McpClientError('timeout', `${method} timed out after ${ms} ms${kind}`, { ...context, timeoutMs: ms }));
  // One timer for both deadlines, at the nearer one: progress only moves the idle deadline, and a
  // timer that fires before it re-arms for what is left. (A timer per deadline, cleared and set
  // again on every progress notification, showed in a browser's profile of concurrent calls.)
  // performance.now(): monotonic, so a wall-clock change neither fires nor delays a deadline.
  const deadline = (ms: number) => (Number.isFinite(ms) ? performance.now() + ms : Infinity);
  let idleAt = deadline(timeoutMs);
  const totalAt = deadline(totalMs);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    const at = Math.min(idleAt, totalAt);
    if (at < Infinity) timer = setTimeout(check, timerDelay(at - performance.now()));
  };
  const check = () => {
    const now = performance.now();
    if (now >= totalAt) expire(totalMs, ' (maximum total time)');
    else if (now >= idleAt) expire(timeoutMs, ' without a response or progress');
    else arm();
  };
  arm();
  const onAbort = () => controller.abort(options.signal!.reason instanceof McpError ? options.signal!.reason : new McpClientError('aborted', `${method} was aborted`, context, { cause: options.signal!.reason }));
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  host.inflight.add(controller);

  const meta: JsonObject = {};
  let progressToken: string | undefined;
  // A server reports progress only for a request with a token (basic/patterns/progress): one
  // goes out whenever progress matters — a listener, or a timeout it may reset — unique per
  // request, replacing any the caller put in `_meta` (a shared token would mix requests up).
  if (options.onProgress || (options.resetTimeoutOnProgress !== false && Number.isFinite(timeoutMs))) {
    progressToken = host.progressToken();
    meta.progressToken = progressToken;
  }
  let lastProgress = -Infinity;
  const sessionOptions: SessionRequestOptions = {
    signal: controller.signal,
    headers: options.headers,
    sessionId: options.sessionId,
    meta,
    onMessage: (incoming: IncomingMessage) => {
      if (incoming.kind !== 'notification') return;
      const { method: type, params: p } = incoming.message;
      if (type === 'notifications/progress' && isObject(p) && p.progressToken === progressToken) {
        if (typeof p.progress !== 'number' || p.progress <= lastProgress) return; // must increase (basic/patterns/progress)
        lastProgress = p.progress;
        if (options.resetTimeoutOnProgress !== false) idleAt = deadline(timeoutMs);
        options.onProgress?.(p as ProgressNotificationParams);
      } else if (type === 'notifications/message' && isObject(p)) {
        options.onLog?.(p as LoggingMessageNotificationParams);
        host.log(p as LoggingMessageNotificationParams);
      } else {
        host.dispatch(incoming.message);
      }
    },
  };
  try {
    const { result, id } = await session.request(method, params, sessionOptions);
    checkResultType(host, method, result);
    Object.defineProperty(result, '__id', { value: id, enumerable: false, configurable: true });
    return result as ResultBase;
  } catch (error) {
    const reason = controller.signal.reason;
    if (controller.signal.aborted && McpError.isInstance(reason)) throw reason;
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    host.inflight.delete(controller);
  }
}
