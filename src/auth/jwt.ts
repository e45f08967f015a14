/**
 * Signed JWTs with WebCrypto, for `private_key_jwt` client authentication
 * (RFC 7523 §2.2, §3; OAuth 2.1 §2.4.1 via the MCP client credentials
 * extension). The private key is a PKCS#8 PEM, a private JWK or a `CryptoKey`;
 * nothing else is needed, so the same code runs in Node 20, a worker and a tab.
 *
 * Loaded on demand with the machine-to-machine grants.
 *
 * @module
 */
import { base64url, base64urlText, randomToken } from './encoding.js';

/** JWS algorithms a client assertion can be signed with (RFC 7518 §3.1, RFC 8037 for EdDSA). */
export type JwtSigningAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512' | 'EdDSA';

/** A private key ready to sign, with the algorithm it signs with. */
export interface SigningKey {
  key: CryptoKey;
  alg: JwtSigningAlgorithm;
  kid?: string;
}

/** Thrown for a key that cannot be used; the caller turns it into an `McpAuthError`. */
export class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

const HASH = { '256': 'SHA-256', '384': 'SHA-384', '512': 'SHA-512' } as const;
const CURVE = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' } as const;

/** WebCrypto import parameters of an algorithm. */
function importParams(alg: JwtSigningAlgorithm): RsaHashedImportParams | EcKeyImportParams | Algorithm {
  if (alg === 'EdDSA') return { name: 'Ed25519' };
  const hash = HASH[alg.slice(2) as keyof typeof HASH];
  if (alg.startsWith('RS')) return { name: 'RSASSA-PKCS1-v1_5', hash };
  if (alg.startsWith('PS')) return { name: 'RSA-PSS', hash };
  return { name: 'ECDSA', namedCurve: CURVE[alg as keyof typeof CURVE] };
}

/** WebCrypto signing parameters of an algorithm. */
function signParams(alg: JwtSigningAlgorithm): AlgorithmIdentifier | EcdsaParams | RsaPssParams {
  if (alg === 'EdDSA') return { name: 'Ed25519' };
  const bits = alg.slice(2) as keyof typeof HASH;
  if (alg.startsWith('RS')) return { name: 'RSASSA-PKCS1-v1_5' };
  // RFC 7518 §3.5: the salt is as long as the hash.
  if (alg.startsWith('PS')) return { name: 'RSA-PSS', saltLength: Number(bits) / 8 };
  return { name: 'ECDSA', hash: HASH[bits] };
}

const SUPPORTED = new Set<string>(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']);

export function isSigningAlgorithm(value: unknown): value is JwtSigningAlgorithm {
  return typeof value === 'string' && SUPPORTED.has(value);
}

/** The algorithm a `CryptoKey` signs with, from its WebCrypto algorithm. */
function algorithmOfKey(key: CryptoKey): JwtSigningAlgorithm | undefined {
  const algorithm = key.algorithm as { name: string; namedCurve?: string; hash?: { name: string } };
  const bits = algorithm.hash?.name.replace('SHA-', '');
  switch (algorithm.name) {
    case 'ECDSA':
      return ({ 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' } as const)[algorithm.namedCurve as 'P-256'];
    case 'RSASSA-PKCS1-v1_5':
      return isSigningAlgorithm(`RS${bits}`) ? (`RS${bits}` as JwtSigningAlgorithm) : undefined;
    case 'RSA-PSS':
      return isSigningAlgorithm(`PS${bits}`) ? (`PS${bits}` as JwtSigningAlgorithm) : undefined;
    case 'Ed25519':
      return 'EdDSA';
    default:
      return undefined;
  }
}

/** The algorithm a private JWK signs with: its `alg`, else from `kty`/`crv` (RSA defaults to RS256). */
function algorithmOfJwk(jwk: JsonWebKey): JwtSigningAlgorithm | undefined {
  if (isSigningAlgorithm(jwk.alg)) return jwk.alg;
  if (jwk.kty === 'RSA') return 'RS256';
  if (jwk.kty === 'EC') return ({ 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' } as const)[jwk.crv as 'P-256'];
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  return undefined;
}

/** The DER bytes of a PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). */
function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const match = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/.exec(pem);
  if (!match) throw new SigningKeyError('the private key is not a PEM document (expected -----BEGIN PRIVATE KEY-----)');
  if (match[1] !== 'PRIVATE KEY') {
    // PKCS#1 (RSA PRIVATE KEY), SEC1 (EC PRIVATE KEY) and encrypted keys are not importable by WebCrypto.
    throw new SigningKeyError(`the private key is a "${match[1]}" PEM; convert it to unencrypted PKCS#8 ("PRIVATE KEY"), e.g. openssl pkcs8 -topk8 -nocrypt -in key.pem`);
  }
  let binary: string;
  try {
    binary = atob(match[2]!.replace(/\s+/g, ''));
  } catch {
    throw new SigningKeyError('the private key PEM is not valid base64');
  }
  const der = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) der[i] = binary.charCodeAt(i);
  return der;
}

/**
 * Prepares a private key for signing.
 *
 * @param source - PKCS#8 PEM, a private JWK, or a `CryptoKey` with the `sign` usage.
 * @param alg - the algorithm; default from the key (an RSA key signs RS256 unless
 *   `preferred` lists only PS algorithms; an EC key by its curve; Ed25519 EdDSA).
 * @param preferred - the algorithms the authorization server accepts
 *   (`token_endpoint_auth_signing_alg_values_supported`), when known.
 * @throws SigningKeyError when the key cannot be imported or does not fit `alg`.
 */
export async function importSigningKey(source: string | JsonWebKey | CryptoKey, alg?: JwtSigningAlgorithm, preferred?: readonly string[]): Promise<SigningKey> {
  if (alg !== undefined && !isSigningAlgorithm(alg)) throw new SigningKeyError(`unsupported signing algorithm ${JSON.stringify(alg)}`);
  if (typeof CryptoKey !== 'undefined' && source instanceof CryptoKey) {
    const own = algorithmOfKey(source);
    if (source.type !== 'private' || !source.usages.includes('sign')) throw new SigningKeyError('the CryptoKey is not a private key with the "sign" usage');
    if (!own || (alg !== undefined && alg !== own)) throw new SigningKeyError(`the CryptoKey (${source.algorithm.name}) cannot sign ${alg ?? 'any supported algorithm'}`);
    return { key: source, alg: own };
  }
  if (typeof source === 'object') {
    const jwk = source as JsonWebKey;
    const chosen = alg ?? algorithmOfJwk(jwk);
    if (!chosen) throw new SigningKeyError(`cannot tell the algorithm of the JWK (kty ${JSON.stringify(jwk.kty)}); set signingAlgorithm`);
    try {
      const { alg: _alg, key_ops: _ops, use: _use, ...material } = jwk;
      const key = await crypto.subtle.importKey('jwk', material, importParams(chosen), false, ['sign']);
      return { key, alg: chosen, ...(typeof (jwk as { kid?: unknown }).kid === 'string' ? { kid: (jwk as { kid: string }).kid } : {}) };
    } catch (error) {
      throw new SigningKeyError(`the JWK cannot be imported for ${chosen}: ${(error as Error).message}`);
    }
  }
  const der = pemToDer(source);
  const rsa: JwtSigningAlgorithm = preferred && !preferred.includes('RS256') && preferred.includes('PS256') ? 'PS256' : 'RS256';
  // WebCrypto needs the algorithm before import: try the key types in turn (an import of the wrong type fails at once).
  const candidates: JwtSigningAlgorithm[] = alg ? [alg] : ['ES256', 'ES384', 'ES512', rsa, 'EdDSA'];
  let lastError: unknown;
  for (const candidate of candidates) {
    try {
      const key = await crypto.subtle.importKey('pkcs8', der, importParams(candidate), false, ['sign']);
      return { key, alg: candidate };
    } catch (error) {
      lastError = error;
    }
  }
  throw new SigningKeyError(
    alg ? `the PKCS#8 key cannot be imported for ${alg}: ${(lastError as Error)?.message}` : 'the PKCS#8 key is not an RSA, EC (P-256, P-384, P-521) or Ed25519 private key',
  );
}

/**
 * Signs a JWT (compact JWS).
 *
 * @param header - extra header members (`typ`…); `alg` and `kid` come from the key.
 */
export async function signJwt(signing: SigningKey, claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  const protectedHeader = { ...header, alg: signing.alg, ...(signing.kid ? { kid: signing.kid } : {}) };
  const input = `${base64urlText(JSON.stringify(protectedHeader))}.${base64urlText(JSON.stringify(claims))}`;
  // ECDSA signatures from WebCrypto are r||s (IEEE P1363), the JWS format (RFC 7518 §3.4).
  const signature = await crypto.subtle.sign(signParams(signing.alg), signing.key, new TextEncoder().encode(input));
  return `${input}.${base64url(signature)}`;
}

/** How long a client assertion is valid, in seconds: short, it is used once. */
const ASSERTION_LIFETIME_S = 60;

/**
 * A `private_key_jwt` client assertion (RFC 7523 §2.2, §3): `iss` and `sub` are
 * the client id, `aud` the authorization server's issuer identifier (the
 * audience RFC 7523bis recommends and servers accept), a random `jti`, `iat`
 * and an `exp` one minute later.
 */
export function clientAssertion(signing: SigningKey, input: { clientId: string; audience: string }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(signing, { iss: input.clientId, sub: input.clientId, aud: input.audience, jti: randomToken(16), iat: now, exp: now + ASSERTION_LIFETIME_S }, { typ: 'JWT' });
}
