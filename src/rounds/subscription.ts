/**
 * The loop behind `McpClient.listen()` (spec: basic/patterns/subscriptions):
 * open `subscriptions/listen`, track the acknowledgement, dispatch
 * notifications, and re-listen with a new id and exponential backoff after an
 * unexpected drop. A successful response is the server's graceful end. Loaded
 * lazily by the client.
 *
 * @module
 */
import { McpClientError, McpError, McpRpcError } from '../protocol/errors.js';
import { sleep } from '../util/sleep.js';
import type { ListenOptions, Subscription } from './options.js';
import type { Session } from '../transport/session.js';
import { MetaKey, type JsonObject, type JsonRpcNotification, type RequestId, type SubscriptionFilter } from '../protocol/types.js';

export interface SubscriptionRun {
  filter: SubscriptionFilter;
  options: ListenOptions;
  controller: AbortController;
  url: string;
  setState(state: Subscription['state']): void;
  setAcknowledged(filter: SubscriptionFilter): void;
  finish(outcome: { reason: 'client' | 'server' | 'error'; error?: McpError }): void;
  ready(signal: AbortSignal): Promise<Session>;
  warn(code: string, message: string): void;
  dispatch(notification: JsonRpcNotification): void;
  /** Marks every cached list and resource stale (after a drop, changes may have been missed). */
  invalidateAll(): void;
}

const SERVER_CANCELLED = 'The server cancelled the subscription';
/** A stream that stayed up this long (ms) counts as healthy: the next drop starts the backoff over. */
const STABLE_MS = 10_000;

export async function runSubscription(run: SubscriptionRun): Promise<void> {
  const { options, controller } = run;
  let backoff = options.backoffMs ?? 1000;
  for (;;) {
    let listenId: RequestId | undefined;
    let openedAt: number | undefined;
    try {
      const session = await run.ready(controller.signal);
      await session.listen(run.filter, {
        signal: controller.signal,
        onId: (id) => (listenId = id),
        onMessage: (incoming) => {
          if (incoming.kind !== 'notification') return;
          const message = incoming.message;
          const subscriptionId = (message.params?._meta as JsonObject | undefined)?.[MetaKey.subscriptionId];
          // On HTTP the stream identifies the subscription; tolerate a missing id, drop a foreign one.
          if (subscriptionId !== undefined && subscriptionId !== listenId) {
            run.warn('foreign-subscription', `Dropped ${message.method} for subscription ${JSON.stringify(subscriptionId)} on the stream of ${JSON.stringify(listenId)}`);
            return;
          }
          if (message.method === 'notifications/subscriptions/acknowledged') {
            const acknowledged = (message.params?.notifications as SubscriptionFilter | undefined) ?? {};
            run.setAcknowledged(acknowledged);
            // Not a reset of the backoff yet: a server that acknowledges and drops at once must not get a tight loop.
            openedAt = Date.now();
            run.setState('open');
            options.onAcknowledged?.(acknowledged);
            return;
          }
          // The cancellation page lets a server end a subscription this way too (checklist SUB-11).
          if (message.method === 'notifications/cancelled' && message.params?.requestId === listenId) {
            controller.abort(new McpClientError('aborted', SERVER_CANCELLED, { url: run.url }));
            return;
          }
          run.dispatch(message);
          options.onNotification?.(message);
        },
      });
      run.finish({ reason: 'server' });
      return;
    } catch (error) {
      if (controller.signal.aborted) {
        const reason = controller.signal.reason as McpError | undefined;
        run.finish({ reason: reason?.message === SERVER_CANCELLED ? 'server' : 'client' });
        return;
      }
      const failure = McpError.isInstance(error) ? error : new McpClientError('network', String(error), { url: run.url });
      // A JSON-RPC error or an HTTP refusal will not go away by retrying.
      const permanent = McpRpcError.isInstance(failure) || (McpClientError.isInstance(failure) && (failure.code === 'http' || failure.code === 'closed'));
      if (options.reconnect === false || permanent) {
        run.finish({ reason: 'error', error: failure });
        return;
      }
      if (openedAt !== undefined && Date.now() - openedAt >= STABLE_MS) backoff = options.backoffMs ?? 1000;
      run.invalidateAll();
      run.setState('reconnecting');
      run.warn('listen-dropped', `The subscriptions/listen stream to ${run.url} dropped (${failure.message}); re-listening`);
      // An abort during the pause ends the loop at the next turn.
      await sleep(backoff * (0.75 + Math.random() * 0.5), controller.signal).catch(() => {});
      backoff = Math.min(backoff * 2, 30_000);
    }
  }
}
