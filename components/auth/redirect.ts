/**
 * Full-page redirect mode: the page navigates to the authorization server and
 * comes back to the redirect URI. What is needed to finish (PKCE verifier,
 * recorded issuer, client) is stored before leaving; on the way back, call
 * `auth.handleRedirect()` when the page loads.
 *
 * @example
 * ```ts
 * const auth = createOAuth({ resourceUrl, redirectUri: location.origin + '/', openAuthorizationUrl: redirectAuthorization() });
 * await completeRedirectAuthorization(auth); // finishes a sign-in that brought us back here, if any
 * ```
 *
 * @module
 */
import type { AuthorizationOpener, OAuth } from '../../src/auth/index.js';

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

// mcp_as names the issuer in a per-issuer redirect URI (src/auth/client-identity.ts issuerRedirectUri).
const RESPONSE_PARAMS = ['code', 'state', 'iss', 'error', 'error_description', 'error_uri', 'session_state', 'mcp_as'];

/**
 * Call when the app loads: if this page is the return from the authorization
 * server, finishes the sign-in (`auth.handleRedirect`) and removes the response
 * (the one-time code) from the address bar and the history entry.
 *
 * @returns what `auth.handleRedirect` returned: true when tokens were obtained.
 * @throws McpAuthError when the response was this server's and failed.
 */
export async function completeRedirectAuthorization(auth: OAuth, url: string = location.href): Promise<boolean> {
  const clean = () => {
    const current = new URL(location.href);
    for (const name of RESPONSE_PARAMS) current.searchParams.delete(name);
    if (RESPONSE_PARAMS.some((name) => new URLSearchParams(current.hash.replace(/^#/, '')).has(name))) current.hash = '';
    history.replaceState(history.state, '', current.href);
  };
  try {
    const handled = await auth.handleRedirect(url);
    if (handled) clean();
    return handled;
  } catch (error) {
    clean();
    throw error;
  }
}
