/**
 * The callback page module: run it on the page at the redirect URI in popup
 * mode. It hands the authorization response to the page that opened the popup
 * and closes the window.
 *
 * Authorization servers often send `Cross-Origin-Opener-Policy`, which cuts
 * `window.opener` (the popup then cannot `postMessage` its opener). The response
 * therefore goes out over a same-origin `BroadcastChannel`, which needs no window
 * reference, and also to `window.opener` when there still is one. The opener
 * accepts only a response whose `state` it is waiting for; the code is useless
 * without the PKCE verifier, which never left the opener.
 *
 * @example
 * ```html
 * <!-- oauth/callback.html -->
 * <script type="module">
 *   import { completeAuthorizationCallback } from 'mcp-web-elements/auth/callback';
 *   completeAuthorizationCallback();
 * </script>
 * ```
 *
 * @module
 */
import { callbackState, DEFAULT_CHANNEL, type CallbackMessage } from './messages.js';

/** Options of {@link completeAuthorizationCallback}. */
export interface CallbackOptions {
  /** BroadcastChannel name; must match the opener's. Default `mcp-web-elements-oauth`. */
  channel?: string;
  /** Close the window once the response is handed over; default true. */
  close?: boolean;
  /** The URL to hand over; default `location.href`. */
  url?: string;
}

/**
 * Hands the authorization response on this page to the waiting page.
 *
 * @returns true when the page carried an authorization response (it was handed
 *   over and removed from the address bar and history), false otherwise.
 */
export function completeAuthorizationCallback(options: CallbackOptions = {}): boolean {
  const url = options.url ?? location.href;
  if (callbackState(url) === null) return false;
  const message: CallbackMessage = { type: 'mcp-oauth-callback', url };
  const channel = new BroadcastChannel(options.channel ?? DEFAULT_CHANNEL);
  channel.postMessage(message);
  channel.close();
  try {
    // Only to a same-origin opener: the target origin is this page's own.
    (window.opener as Window | null)?.postMessage(message, location.origin);
  } catch {
    /* the opener is gone or cross-origin */
  }
  // The one-time code should not stay in the address bar or the history.
  if (options.url === undefined) history.replaceState(history.state, '', `${location.pathname}`);
  if (options.close !== false) setTimeout(() => window.close(), 50);
  return true;
}
