/**
 * DPoP proofs (RFC 9449) signed with a non-extractable WebCrypto key.
 *
 * The ES256 key pair is generated with `extractable: false`: the private key can
 * sign but can never be exported, not even by code running in the page. Stored
 * in IndexedDB (structured clone), it survives reloads without leaving the
 * browser's key store. A proof is a JWT with header `{typ: "dpop+jwt", alg:
 * "ES256", jwk}` and claims `jti`, `htm`, `htu`, `iat`, plus `ath` when it goes
 * with an access token and `nonce` when the server asked for one (§4.2, §8, §9).
 *
 * Loaded on demand by the OAuth layer, only when a DPoP-bound token is in use.
 *
 * @module
 */
import { base64url, base64urlText, randomToken, sha256base64url } from './encoding.js';

/** A DPoP key pair: the private key is not extractable. */
export type DpopKeyPair = CryptoKeyPair;

/** Public key fields of an EC P-256 JWK, in the member order RFC 7638 hashes them. */
interface PublicJwk {
  crv: string;
  kty: string;
  x: string;
  y: string;
}

/** Generates an ES256 (P-256) key pair whose private key cannot be exported. */
export async function generateDpopKey(): Promise<DpopKeyPair> {
  return crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
}

const publicJwks = new WeakMap<CryptoKey, PublicJwk>();

async function publicJwk(key: DpopKeyPair): Promise<PublicJwk> {
  let jwk = publicJwks.get(key.publicKey);
  if (!jwk) {
    // Public keys are always exportable; only the public members go into proofs.
    const full = (await crypto.subtle.exportKey('jwk', key.publicKey)) as JsonWebKey;
    jwk = { crv: full.crv!, kty: full.kty!, x: full.x!, y: full.y! };
    publicJwks.set(key.publicKey, jwk);
  }
  return jwk;
}

/** The JWK SHA-256 thumbprint of the public key (RFC 7638), as `dpop_jkt` and `cnf.jkt` use it. */
export async function dpopThumbprint(key: DpopKeyPair): Promise<string> {
  const { crv, kty, x, y } = await publicJwk(key);
  return sha256base64url(JSON.stringify({ crv, kty, x, y }));
}

/** The `htu` of a request: its URL without query and fragment (RFC 9449 §4.2). */
export function dpopTarget(url: string | URL): string {
  const target = new URL(url);
  return `${target.origin}${target.pathname}`;
}

/**
 * Makes one DPoP proof.
 *
 * @param key - the key pair the token is (to be) bound to.
 * @param request - HTTP method and URL; `accessToken` adds `ath`; `nonce` the server-provided nonce.
 * @returns the compact JWS to send in the `DPoP` header.
 */
export async function createDpopProof(key: DpopKeyPair, request: { method: string; url: string | URL; accessToken?: string; nonce?: string }): Promise<string> {
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: await publicJwk(key) };
  const claims: Record<string, unknown> = {
    jti: randomToken(16),
    htm: request.method.toUpperCase(),
    htu: dpopTarget(request.url),
    iat: Math.floor(Date.now() / 1000),
  };
  if (request.accessToken !== undefined) claims.ath = await sha256base64url(request.accessToken);
  if (request.nonce !== undefined) claims.nonce = request.nonce;
  const input = `${base64urlText(JSON.stringify(header))}.${base64urlText(JSON.stringify(claims))}`;
  // WebCrypto's ECDSA signature is r||s (IEEE P1363), exactly what JWS ES256 wants.
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, new TextEncoder().encode(input));
  return `${input}.${base64url(signature)}`;
}
