/**
 * The pluggable "send the user to the authorization server" step, and the
 * headless implementation for Node (and tests, and the conformance adapter).
 *
 * Browsers use the popup or full-page redirect openers of `components/auth/`.
 *
 * @module
 */
import type { FetchLike } from '../transport/fetch.js';
import { McpAuthError } from './errors.js';

/** What an opener learns about the authorization it is asked to show. */
export interface AuthorizationRequestInfo {
  /** The `state` of this authorization: the callback carries it back. */
  state: string;
  /** The registered redirect URI; the callback URL starts with it. */
  redirectUri: string;
  /** Aborted when the authorization is cancelled or times out. */
  signal: AbortSignal;
  /** True when the authorization started from `signIn()` (a user gesture), false when a request needed it. */
  interactive: boolean;
}

/**
 * Sends the user to the authorization URL and reports where the authorization
 * server sent them back.
 */
export interface AuthorizationOpener {
  /**
   * Called synchronously at the start of `signIn()`, inside the user's gesture
   * and before anything asynchronous: a popup opener opens its (blank) window
   * here, so the browser does not block it.
   */
  prepare?(): void;
  /**
   * Shows `url`. Resolves with the full callback URL (redirect URI with `code`,
   * `state`, `iss`…). A full-page redirect never resolves: the page unloads and
   * `OAuth.handleRedirect()` finishes after the return.
   *
   * @throws McpAuthError `needs_user_gesture` when it cannot open without a gesture,
   *   `cancelled` when the user gave up.
   */
  open(url: URL, request: AuthorizationRequestInfo): Promise<string | URL>;
  /** Called when the authorization ends (success or not): close popups, stop listening. */
  done?(): void;
}

/**
 * A headless opener: visits the authorization URL with `fetch(url, { redirect:
 * 'manual' })` and follows redirects until one points at the redirect URI. Works
 * in Node (undici exposes `Location` on manual redirects), not in browsers (they
 * return an opaque redirect). Meant for authorization servers that redirect
 * without a login page — test servers, the conformance suite, pre-consented
 * machine flows.
 *
 * @param options.fetch - `fetch` to use; default the global one.
 * @param options.maxRedirects - redirects to follow before giving up; default 10.
 * @throws McpAuthError `needs_user_gesture` when the server shows a page (a login
 *   form) instead of redirecting, `network` when it cannot be reached.
 */
export function followRedirects(options: { fetch?: FetchLike; maxRedirects?: number } = {}): AuthorizationOpener {
  return {
    async open(url, request) {
      const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
      const target = new URL(request.redirectUri);
      let current = url;
      for (let hop = 0; hop <= (options.maxRedirects ?? 10); hop++) {
        let response: Response;
        try {
          response = await doFetch(current.href, { redirect: 'manual', signal: request.signal });
        } catch (error) {
          if (request.signal.aborted) throw request.signal.reason;
          throw new McpAuthError('network', `Could not reach the authorization endpoint ${current.origin}${current.pathname}: ${(error as Error).message}`, {
            url: `${current.origin}${current.pathname}`,
            endpoint: 'authorization',
          }, { cause: error });
        }
        await response.body?.cancel().catch(() => {});
        const location = response.headers.get('location');
        if (response.status < 300 || response.status >= 400 || !location) {
          throw new McpAuthError(
            'needs_user_gesture',
            `The authorization server answered ${current.origin}${current.pathname} with HTTP ${response.status} instead of a redirect: it wants a user to interact, which a headless client cannot do`,
            { url: `${current.origin}${current.pathname}`, endpoint: 'authorization', status: response.status },
          );
        }
        const next = new URL(location, current);
        if (next.origin === target.origin && next.pathname === target.pathname) return next;
        current = next;
      }
      throw new McpAuthError('invalid_response', `The authorization server redirected more than ${options.maxRedirects ?? 10} times`, { url: `${url.origin}${url.pathname}`, endpoint: 'authorization' });
    },
  };
}
