/**
 * Popup mode: the authorization page opens in a small window, the app page
 * stays as it is (pending calls, form input, scroll position).
 *
 * Browsers only allow `window.open` inside a user gesture. `auth.signIn()`
 * calls {@link AuthorizationOpener.prepare} synchronously, so when sign-in
 * starts from a click a blank window opens at once and is sent to the
 * authorization URL when discovery is done. When a request needs authorization
 * outside a gesture and the browser blocks the window, the opener fails with
 * `needs_user_gesture`: the OAuth status becomes `needs_sign_in` and the page
 * shows a Sign in button.
 *
 * The response comes back from the callback page (see `callback.ts`) over a
 * `BroadcastChannel` — robust to `Cross-Origin-Opener-Policy` cutting
 * `window.opener` — or `postMessage` from a same-origin opener. Whether the
 * popup was closed is not watched: under COOP the opener sees `closed` as soon as
 * the authorization server loads, although the user is still signing in.
 * Cancelling is the page's call (`signIn({ signal })`, or the authorization timeout).
 *
 * @module
 */
import type { AuthorizationOpener } from '../../src/auth/index.js';
import { McpAuthError } from '../../src/auth/errors.js';
import { callbackState, DEFAULT_CHANNEL, isCallbackMessage } from './messages.js';

/** Options of {@link popupAuthorization}: the popup window and the channel its callback page answers on. */
export interface PopupAuthorizationOptions {
  /** `window.open` features; default a 480×720 window centred over the page. */
  features?: string;
  /** Window name; default `mcp-web-elements-oauth`. */
  target?: string;
  /** BroadcastChannel name; must match the callback page's. Default `mcp-web-elements-oauth`. */
  channel?: string;
  /** Opens the window; default `window.open` (replaceable for embedding hosts). */
  openWindow?: (url: string, target: string, features: string) => Window | null;
}

function centredFeatures(width = 480, height = 720): string {
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}

/**
 * An opener that shows the authorization page in a popup window.
 *
 * @throws McpAuthError `needs_user_gesture` (from `open`) when the browser blocked the window.
 */
export function popupAuthorization(options: PopupAuthorizationOptions = {}): AuthorizationOpener {
  const target = options.target ?? 'mcp-web-elements-oauth';
  const openWindow = options.openWindow ?? ((url: string, name: string, features: string) => window.open(url, name, features));
  let popup: Window | null = null;

  const usable = (w: Window | null): w is Window => {
    try {
      return w !== null && !w.closed;
    } catch {
      return false;
    }
  };

  return {
    prepare() {
      // Inside the user's gesture: open now (blank), navigate once the URL is known.
      if (!usable(popup)) {
        popup = openWindow('about:blank', target, options.features ?? centredFeatures());
        try {
          // A word for the user while discovery runs (the blank window is same-origin until it navigates).
          if (popup) popup.document.body.textContent = 'Connecting to the sign-in page…';
        } catch {
          /* not scriptable: fine */
        }
      }
    },

    open(url, request) {
      return new Promise<string>((resolve, reject) => {
        const where = `${url.origin}${url.pathname}`;
        if (usable(popup)) {
          popup.location.href = url.href;
        } else {
          popup = openWindow(url.href, target, options.features ?? centredFeatures());
        }
        if (!usable(popup)) {
          popup = null;
          reject(
            new McpAuthError('needs_user_gesture', `The browser blocked the sign-in window for ${where}; sign in from a button (auth.signIn() in a click handler)`, {
              url: where,
              endpoint: 'authorization',
            }),
          );
          return;
        }
        const channel = new BroadcastChannel(options.channel ?? DEFAULT_CHANNEL);
        const accept = (data: unknown) => {
          if (!isCallbackMessage(data) || callbackState(data.url) !== request.state) return;
          cleanup();
          resolve(data.url);
        };
        const onChannel = (event: MessageEvent) => accept(event.data);
        const onMessage = (event: MessageEvent) => {
          if (event.origin === location.origin) accept(event.data);
        };
        const onAbort = () => {
          cleanup();
          reject(request.signal.reason);
        };
        const cleanup = () => {
          channel.removeEventListener('message', onChannel);
          channel.close();
          window.removeEventListener('message', onMessage);
          request.signal.removeEventListener('abort', onAbort);
        };
        channel.addEventListener('message', onChannel);
        window.addEventListener('message', onMessage);
        if (request.signal.aborted) onAbort();
        else request.signal.addEventListener('abort', onAbort, { once: true });
      });
    },

    done() {
      try {
        popup?.close();
      } catch {
        /* cut off by COOP: the callback page closes itself */
      }
      popup = null;
    },
  };
}
