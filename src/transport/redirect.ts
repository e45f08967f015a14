/**
 * Redirects of requests to the MCP server, followed only within its origin.
 *
 * Every request the kit sends to a server carries what must stay with that
 * server: the caller's headers, `Authorization` and `DPoP` (added by the OAuth
 * `fetch`), a legacy `Mcp-Session-Id`, and the body (tool arguments). A
 * `fetch` that follows redirects sends all of that, except `Authorization`, to
 * wherever a 307/308 points — another origin included — and hands back that
 * origin's answer as if the server had sent it. So the transport sends every
 * request with `redirect: 'manual'` and this module (loaded only when a
 * redirect happens) decides:
 *
 * - **Node and other runtimes without CORS filtering** expose the redirect's
 *   `Location`: a target on the server's origin is requested again with the same
 *   method, headers and body (whatever the status: an MCP POST turned into a GET
 *   is useless); any other origin is an error naming both URLs, and nothing is
 *   sent there.
 * - **Browsers** return an opaque redirect: status 0, no headers, no target. To
 *   learn the target, the kit repeats the request bare — same method, an empty
 *   body, no headers, no credentials — letting the browser follow it, and reads
 *   the final URL. Only that bare request can reach another origin (it carries
 *   nothing of the caller's or the kit's); the real request is then sent to the
 *   final URL if it is on the server's origin, else the error names both URLs
 *   (or, when the other origin does not let the page read its answer, says the
 *   target is hidden). The trade-off: one extra round trip per redirect, and a
 *   same-origin redirect that only the real request would trigger fails clearly.
 *
 * @module
 */
import { McpClientError } from '../protocol/errors.js';
import type { FetchLike } from './fetch.js';

/** Hops followed before giving up (a loop, or a chain that never ends). */
const MAX_HOPS = 5;

function refuse(method: string, from: URL, to: URL | undefined, status: number | undefined, why?: string): McpClientError {
  const what = `${method} ${from.href} was redirected${status ? ` (HTTP ${status})` : ''}`;
  return new McpClientError(
    'redirect',
    to
      ? `${what} to ${to.href}, on another origin. The kit sends nothing there — no headers, credentials or body; if that server is the right one, connect to its URL.`
      : `${what}, and ${why}. The kit sends nothing it cannot check stays on ${from.origin}; connect to the final URL instead.`,
    { url: from.href, method, ...(to ? { location: to.href } : {}), ...(status ? { status } : {}) },
  );
}

/**
 * Follows `first`, a redirect of a request to `url`, within `origin`.
 *
 * @param send - sends the request again (method, headers and body as before) to a same-origin URL, with `redirect: 'manual'`.
 * @param isRedirect - which responses are redirects: `isRedirect` of `./fetch.ts`, lent by the
 *   transport rather than imported, so that no code of `./fetch.ts` is shared with this module,
 *   loaded on demand (a library build would give it a chunk of its own: about 20 B gzip more
 *   in every page's core).
 * @returns the response of the final same-origin URL.
 * @throws McpClientError `redirect` naming both URLs when the target is on another origin, or is hidden from the page.
 */
export async function followSameOrigin(first: Response, url: URL, init: RequestInit, origin: string, send: FetchLike, isRedirect: (response: Response) => boolean): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  if (!isRedirect(first) && first.redirected && first.url && new URL(first.url).origin !== origin) {
    // An injected fetch that ignores `redirect: 'manual'` already followed: too late to stop
    // the request, but its answer is not the server's.
    await first.body?.cancel().catch(() => {});
    throw refuse(method, url, new URL(first.url), undefined);
  }
  let response = first;
  let current = url;
  for (let hop = 0; isRedirect(response); hop++) {
    await response.body?.cancel().catch(() => {});
    if (hop >= MAX_HOPS) throw refuse(method, url, undefined, undefined, `still redirected after ${MAX_HOPS} hops`);
    let target: URL;
    let status: number | undefined;
    if (response.type === 'opaqueredirect') {
      target = await discover(current, method, init.signal ?? undefined);
    } else {
      status = response.status;
      const location = response.headers.get('location')!;
      try {
        target = new URL(location, current);
      } catch {
        throw refuse(method, current, undefined, status, `its Location ${JSON.stringify(location.slice(0, 200))} is not a URL`);
      }
    }
    if (target.origin !== origin) throw refuse(method, current, target, status);
    current = target;
    response = await send(current.href, { ...init, redirect: 'manual' });
  }
  return response;
}

/**
 * The final URL a browser reaches from `url`, found with a bare request that
 * carries nothing of the caller's: no headers, no credentials, an empty body.
 */
async function discover(url: URL, method: string, signal: AbortSignal | undefined): Promise<URL> {
  let probe: Response;
  try {
    probe = await globalThis.fetch(url.href, {
      method,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: '' }),
      credentials: 'omit',
      cache: 'no-store',
      redirect: 'follow',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw refuse(method, url, undefined, undefined, 'the browser hides its target: it is on an origin that does not let this page read it');
  }
  await probe.body?.cancel().catch(() => {});
  if (!probe.redirected || !probe.url) throw refuse(method, url, undefined, undefined, 'the browser hides its target');
  return new URL(probe.url);
}
