/**
 * Full-page redirect mode: the page navigates to the authorization server and
 * comes back to the redirect URI. What is needed to finish (PKCE verifier,
 * recorded issuer, client) is stored before leaving; on the way back, call
 * `auth.handleRedirect()` when the page loads.
 *
 * @example
 * ```ts
 * const auth = createOAuth({ resourceUrl, redirectUri: location.origin + '/', openAuthorizationUrl: redirectAuthorization() });
 * await auth.handleRedirect(); // finishes a sign-in that brought us back here, if any
 * ```
 *
 * @module
 */
import type { AuthorizationOpener } from '../../src/auth/index.js';

/**
 * An opener that leaves the page for the authorization URL. Its promise never
 * settles: the page unloads.
 *
 * @param options.navigate - how to navigate; default `location.assign`.
 */
export function redirectAuthorization(options: { navigate?: (url: string) => void } = {}): AuthorizationOpener {
  return {
    open(url) {
      (options.navigate ?? ((href: string) => location.assign(href)))(url.href);
      return new Promise<never>(() => {});
    },
  };
}
