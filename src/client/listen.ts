/**
 * `McpClient.listen()`: the subscription object a page holds while a
 * `subscriptions/listen` stream (spec: basic/patterns/subscriptions) is kept
 * open; the re-listen loop itself (`../rounds/subscription.ts`) loads on first
 * use, as most pages never listen.
 *
 * @module
 */
import { McpClientError, type McpError } from '../protocol/errors.js';
import type { JsonRpcNotification, SubscriptionFilter } from '../protocol/types.js';
import type { ListenOptions, Subscription } from '../rounds/options.js';
import type { Session } from '../transport/session.js';

/** What a subscription needs from its client. */
export interface ListenHost {
  url: string;
  /** The client's open subscriptions (`close()` ends them); this one is in it while it lasts. */
  subscriptions: Set<Subscription>;
  /** The client's session, connecting first if needed. */
  ready(signal: AbortSignal): Promise<Session>;
  warn(code: string, message: string): void;
  /** Hands a notification of the stream to the client (cache invalidation, events). */
  dispatch(notification: JsonRpcNotification): void;
  /** Marks every cached listing stale (after a drop, notifications may have been missed). */
  invalidateAll(): void;
}

/** Opens the subscription (see `McpClient.listen`). */
export function openSubscription(host: ListenHost, filter: SubscriptionFilter, options: ListenOptions): Subscription {
  const url = host.url;
  const controller = new AbortController();
  let state: Subscription['state'] = 'opening';
  let acknowledged: SubscriptionFilter | undefined;
  let resolveClosed!: (value: { reason: 'client' | 'server' | 'error'; error?: McpError }) => void;
  const closed = new Promise<{ reason: 'client' | 'server' | 'error'; error?: McpError }>((resolve) => (resolveClosed = resolve));
  const setState = (next: Subscription['state']) => {
    state = next;
    options.onState?.(next);
  };
  const subscription: Subscription = {
    filter,
    get acknowledged() {
      return acknowledged;
    },
    get state() {
      return state;
    },
    closed,
    close() {
      controller.abort(new McpClientError('aborted', 'The subscription was closed', { url, method: 'subscriptions/listen' }));
    },
  };
  // A signal already aborted closes it before any request; the listener goes when it ends.
  const onCallerAbort = () => subscription.close();
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  host.subscriptions.add(subscription);

  // The re-listen loop is loaded on first use (most pages never listen).
  void import('../rounds/subscription.js').then((module) =>
    module.runSubscription({
      filter,
      options,
      controller,
      url,
      setState,
      setAcknowledged: (value) => (acknowledged = value),
      finish: (outcome) => {
        options.signal?.removeEventListener('abort', onCallerAbort);
        host.subscriptions.delete(subscription);
        setState('closed');
        resolveClosed(outcome);
      },
      ready: host.ready,
      warn: host.warn,
      dispatch: host.dispatch,
      invalidateAll: host.invalidateAll,
    }),
  );
  return subscription;
}
