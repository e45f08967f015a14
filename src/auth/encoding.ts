/**
 * Small encoding and randomness helpers for the OAuth layer (WebCrypto only, so
 * the same code runs in a tab, a worker and Node 20).
 *
 * @module
 */

/** base64url without padding (RFC 4648 §5), as JOSE and PKCE use it. */
export function base64url(bytes: Uint8Array | ArrayBuffer): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  for (let i = 0; i < view.length; i++) binary += String.fromCharCode(view[i]!);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url of a string's UTF-8 bytes. */
export function base64urlText(text: string): string {
  return base64url(new TextEncoder().encode(text));
}

/** `bytes` random bytes as base64url: 32 bytes give 43 characters (a PKCE verifier, a state). */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** SHA-256 of a string's UTF-8 bytes, base64url-encoded (PKCE S256, DPoP `ath`). */
export async function sha256base64url(text: string): Promise<string> {
  return base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** Whether `url` is served over https, or over http on a loopback host (development). */
export function isSecureOrLoopback(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  const host = url.hostname;
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether `url` is on a loopback host (DCR `application_type: native` for locally served apps). */
export function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:' ? isSecureOrLoopback(new URL(`http://${url.host}`)) : false;
}
