/**
 * Waiting that an `AbortSignal` can cut short: a timer, and any promise.
 *
 * @module
 */

/** The longest delay a timer takes (2^31 - 1 ms, about 24.8 days): browsers and Node run a longer one at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * `ms` as a timer delay: at least 0, at most {@link MAX_TIMER_MS}. A longer
 * delay (a server's `pollIntervalMs: 1e12`, a `retry:` hint, an Infinity cap)
 * would otherwise fire immediately and turn a wait into a busy loop.
 */
export function timerDelay(ms: number): number {
  return ms > 0 ? Math.min(ms, MAX_TIMER_MS) : 0;
}

/** Resolves after `ms` milliseconds (at most {@link MAX_TIMER_MS}), or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, timerDelay(ms));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Resolves or rejects with `promise`, or rejects as soon as `signal` aborts — with
 * `mapReason(signal.reason)` (default: the reason itself). The work behind the
 * promise goes on; only this wait ends. A promise abandoned that way never
 * becomes an unhandled rejection.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | null | undefined, mapReason: (reason: unknown) => unknown = (reason) => reason): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(mapReason(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(mapReason(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
