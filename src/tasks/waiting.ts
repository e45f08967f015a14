/**
 * The waiting of a task's wait (`./tasks.ts`): the polling interval and its
 * back-off, the retry of a poll that could not reach the server, request
 * timeouts bounded by the wait's budget, a timer that events cut short, and the
 * pause while a page is hidden or offline.
 *
 * @module
 */
import { McpClientError } from '../protocol/errors.js';
import { timerDelay } from '../util/sleep.js';
import type { TaskOptions, TaskState } from './task-types.js';

/**
 * The next polling interval, in ms. Without `previous`: the server's suggestion
 * (`pollIntervalMs`, else `defaultPollMs`), never below `minPollMs`. With it (nothing
 * changed since): `previous` ×1.5, up to `maxPollMs` but never below the suggestion.
 */
export function pollDelay(opts: TaskOptions, state: TaskState | undefined, previous?: number): number {
  const base = Math.max(opts.minPollMs ?? 50, state?.pollIntervalMs ?? opts.defaultPollMs ?? 1000);
  return previous === undefined ? base : Math.min(Math.max(opts.maxPollMs ?? 30_000, base), previous * 1.5);
}

/** The first pause before a `tasks/get` that could not reach the server is sent again, in ms; it doubles up to {@link RETRY_MAX_MS}. */
export const RETRY_FIRST_MS = 250;
export const RETRY_MAX_MS = 5_000;

/** A failure to reach the server, worth another try after a pause: no answer at all, or a proxy's 502/503/504. */
export function transient(error: unknown): boolean {
  if (!McpClientError.isInstance(error)) return false;
  if (error.code === 'network') return true;
  const status = (error.data as { status?: unknown } | undefined)?.status;
  return error.code === 'http' && (status === 502 || status === 503 || status === 504);
}

/** Request timeouts that end with the wait's budget (`deadline`, ms since the epoch). */
export function budget(deadline: number): { timeoutMs: number; maxTotalTimeoutMs: number } {
  const remaining = Math.max(1, deadline - Date.now());
  return { timeoutMs: remaining, maxTotalTimeoutMs: remaining };
}


/** A timer that events can cut short (a notification, an acknowledgement). */
export class Waiter {
  #wake: (() => void) | undefined;

  wake(): void {
    this.#wake?.();
  }

  /** Resolves after `ms` (with true) or at the next `wake()` (with false); rejects with the signal's reason on abort. */
  wait(ms: number, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const done = (elapsed: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#wake = undefined;
        resolve(elapsed);
      };
      const onAbort = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        reject(signal.reason);
      };
      const timer = setTimeout(() => done(true), timerDelay(ms));
      this.#wake = () => done(false);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

interface PageEnvironment {
  document?: { visibilityState?: string; addEventListener?(type: string, listener: () => void): void; removeEventListener?(type: string, listener: () => void): void };
  navigator?: { onLine?: boolean };
  addEventListener?(type: string, listener: () => void): void;
  removeEventListener?(type: string, listener: () => void): void;
}

/** The page's visibility and network, where there are such things (not in Node). */
const page = globalThis as unknown as PageEnvironment;
export const blocked = () => page.document?.visibilityState === 'hidden' || page.navigator?.onLine === false;

/**
 * Waits while the page is hidden or offline: no request goes out until
 * `visibilitychange` makes it visible or `online` fires (or `until`, or a wake).
 * @returns whether it waited.
 */
export function whileBlocked(signal: AbortSignal, waiter: Waiter, until: number): Promise<boolean> {
  if (!blocked()) return Promise.resolve(false);
  return new Promise<boolean>((resolve, reject) => {
    const woken = new AbortController();
    const check = () => {
      if (!blocked()) finish();
    };
    const cleanup = () => {
      woken.abort();
      page.document?.removeEventListener?.('visibilitychange', check);
      page.removeEventListener?.('online', check);
      signal.removeEventListener('abort', onAbort);
    };
    const finish = () => {
      cleanup();
      resolve(true);
    };
    const onAbort = () => {
      cleanup();
      reject(signal.reason);
    };
    page.document?.addEventListener?.('visibilitychange', check);
    page.addEventListener?.('online', check);
    signal.addEventListener('abort', onAbort, { once: true });
    // Ends at `until`, or earlier at a wake: a pushed status or an acknowledgement needs no request, so the loop looks at it.
    waiter.wait(until - Date.now(), woken.signal).then(() => finish(), () => {});
  });
}
