/**
 * One HTTP exchange with an OAuth endpoint, as every step of the flow makes it:
 * a time limit, the caller's abort, a `fetch` failure named after the endpoint,
 * redirects refused for requests that carry credentials, the DPoP nonce
 * remembered, the JSON body read within a size cap, and the OAuth error fields
 * (RFC 6749 §5.2) picked out for messages.
 *
 * @module
 */
import { readBodyText } from '../transport/transport.js';
import { isRedirect } from '../transport/fetch.js';
import { McpAuthError } from './errors.js';
import type { FlowContext } from './types.js';
import { isObject } from '../protocol/types.js';

/** Cap on an OAuth JSON document, in bytes. */
const MAX_DOCUMENT_BYTES = 256 * 1024;
/** Cap on one OAuth HTTP exchange, in ms. */
const EXCHANGE_TIMEOUT_MS = 30_000;

/** What one exchange yielded: the response, its status and its JSON body. */
export interface Exchange {
  response: Response;
  status: number;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

/** The `error` and `error_description` of an OAuth error body (RFC 6749 §5.2), for an {@link McpAuthError}'s data. */
export function oauthErrorFields(json: unknown): { oauthError?: string; oauthErrorDescription?: string } {
  if (!isObject(json)) return {};
  return {
    ...(typeof json.error === 'string' ? { oauthError: json.error } : {}),
    ...(typeof json.error_description === 'string' ? { oauthErrorDescription: json.error_description.slice(0, 500) } : {}),
  };
}

/** The OAuth error of a body as a suffix for a message (` (invalid_grant: expired)`), or `''`. */
export function describeOAuthError(json: unknown): string {
  const { oauthError, oauthErrorDescription } = oauthErrorFields(json);
  if (!oauthError) return '';
  return oauthErrorDescription ? ` (${oauthError}: ${oauthErrorDescription})` : ` (${oauthError})`;
}

/**
 * One HTTP exchange with an OAuth endpoint. A `fetch` rejection becomes
 * `network` naming the endpoint (in a browser that is most often CORS); an abort
 * keeps the caller's reason. Metadata `GET`s follow redirects (they carry
 * nothing secret, and the documents' `issuer`/`resource` are checked); any
 * other request carries credentials, and a redirect of it is refused as
 * `redirected` instead of followed: a `307`/`308` would re-send the body (the
 * code and its verifier, a client secret, a token to revoke) and the `DPoP`
 * proof to wherever it points (the concern of RFC 9700 §4.12).
 */
export async function exchange(ctx: FlowContext, url: string, endpoint: string, init: RequestInit): Promise<Exchange> {
  const timeout = AbortSignal.timeout(EXCHANGE_TIMEOUT_MS);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  const redirect = init.redirect ?? ((init.method ?? 'GET').toUpperCase() === 'GET' ? 'follow' : 'manual');
  let response: Response;
  try {
    response = await ctx.fetch(url, { ...init, signal, redirect });
  } catch (error) {
    if (ctx.signal?.aborted) throw abortReason(ctx.signal, url);
    if (timeout.aborted) throw new McpAuthError('timeout', `The ${endpoint} at ${url} did not answer within ${EXCHANGE_TIMEOUT_MS} ms`, { url, endpoint }, { cause: error });
    const detail = (error as { cause?: { code?: string }; message?: string })?.cause?.code ?? (error as Error)?.message ?? String(error);
    throw new McpAuthError(
      'network',
      `Could not reach the ${endpoint} at ${url} (${detail}). The server may be down, or — in a browser — it does not allow this page's origin through CORS.`,
      { url, endpoint, cause: detail },
      { cause: error },
    );
  }
  // A browser shows a refused redirect as an opaque response (status 0, no Location); Node shows the 3xx.
  if (redirect === 'manual' && isRedirect(response)) {
    void response.body?.cancel().catch(() => {});
    let location: string | undefined;
    try {
      const header = response.headers.get('location');
      location = header ? new URL(header, url).href : undefined;
    } catch {
      location = undefined;
    }
    throw new McpAuthError(
      'redirected',
      `The ${endpoint} at ${url} answered with a redirect${location ? ` to ${location}` : ''}; a request that carries credentials is not sent on to another URL, so authorization stopped. Configure the endpoint's final URL on the authorization server.`,
      { url, endpoint, ...(location ? { location } : {}) },
    );
  }
  const nonce = response.headers.get('dpop-nonce');
  if (nonce) ctx.nonces.set(new URL(url).origin, nonce);
  let json: unknown;
  try {
    const text = await readBodyText(response, MAX_DOCUMENT_BYTES, { url });
    json = text ? JSON.parse(text) : undefined;
  } catch (error) {
    if (ctx.signal?.aborted) throw abortReason(ctx.signal, url);
    json = undefined;
    if (McpAuthError.isInstance(error)) throw error;
  }
  return { response, status: response.status, json };
}

function abortReason(signal: AbortSignal, url: string): Error {
  const reason = signal.reason;
  if (McpAuthError.isInstance(reason)) return reason;
  return new McpAuthError('cancelled', `Authorization was cancelled while talking to ${url}`, { url }, { cause: reason });
}
