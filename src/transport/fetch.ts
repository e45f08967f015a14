/**
 * What the kit assumes of `fetch`: the signature a caller injects
 * ({@link FetchLike}). A leaf: the transport, the parts it loads on demand
 * (`./redirect.ts`) and the OAuth layer (`../auth/`) import it, and it imports
 * none of them, so none of them has to import another for it.
 *
 * @module
 */

/** The subset of `fetch` the kit uses; inject your own for auth, proxies or tests. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;
