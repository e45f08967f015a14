/**
 * The message a callback page sends to the page waiting for an authorization
 * response, and the channel it goes through.
 *
 * @module
 */

/** Default BroadcastChannel name shared by the popup opener and the callback page. */
export const DEFAULT_CHANNEL = 'mcp-web-elements-oauth';

/** Posted by the callback page: the full URL the authorization server redirected to. */
export interface CallbackMessage {
  type: 'mcp-oauth-callback';
  url: string;
}

export function isCallbackMessage(value: unknown): value is CallbackMessage {
  return typeof value === 'object' && value !== null && (value as CallbackMessage).type === 'mcp-oauth-callback' && typeof (value as CallbackMessage).url === 'string';
}

/** The `state` of an authorization response (query, or fragment when the query has none). */
export function callbackState(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.searchParams.get('state') ?? new URLSearchParams(parsed.hash.replace(/^#/, '')).get('state');
  } catch {
    return null;
  }
}
