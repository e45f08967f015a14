/**
 * What the kit assumes of `fetch`, shared by everything that sends HTTP: the
 * signature a caller injects ({@link FetchLike}) and which responses are
 * redirects ({@link isRedirect}). A leaf: the transport, the part it loads on
 * demand (`./redirect.ts`, which takes `isRedirect` from the transport) and the
 * OAuth layer (`../auth/`) import it, and it imports none of them, so none of
 * them has to import another for these.
 *
 * @module
 */

/** The subset of `fetch` the kit uses; inject your own for auth, proxies or tests. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * Whether `response` is a redirect that `fetch` would have followed, seen by a
 * request sent with `redirect: 'manual'`: a browser's opaque redirect (status 0,
 * no headers), or, where the runtime shows it (Node), a redirect status with a
 * `Location`. Any other 3xx is not followed by `fetch` either, and is an answer
 * like any other.
 */
export function isRedirect(response: Response): boolean {
  // 301, 302, 303, 307 and 308 are Fetch's "redirect status" list.
  return response.type === 'opaqueredirect' || ([301, 302, 303, 307, 308].includes(response.status) && response.headers.has('location'));
}
