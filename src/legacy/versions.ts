/**
 * Stepping down through the legacy protocol versions when a server refuses
 * `initialize` instead of answering with a version it speaks (2025-11-25
 * basic/lifecycle "Version Negotiation" asks for the answer; some servers send
 * HTTP 400 "unsupported protocol version" instead).
 *
 * The rules: offers only go down the list of legacy versions (newest first),
 * each version at most once per endpoint and client, never back up to one
 * already refused; a refusal that carries the server's supported versions
 * (`data.supported`) restricts the next offers to those; the version that
 * worked is where the client's next session starts.
 *
 * @module
 */
import { McpClientError, McpRpcError } from '../protocol/errors.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../protocol/types.js';

const LEGACY: readonly string[] = LEGACY_PROTOCOL_VERSIONS;

/**
 * What a refusal of `initialize` says about versions: `list` when it names the
 * server's versions (`data.supported`: exactly those; a text naming dates: those
 * first), `about` when it is about the version at all; undefined when it is not
 * a refusal (network, 5xx, CORS…).
 */
function readRefusal(error: unknown): { about: boolean; supported?: string[]; named?: string[] } | undefined {
  let text: string;
  if (McpRpcError.isInstance(error)) {
    const supported = (error.data as { supported?: unknown } | undefined)?.supported;
    if (Array.isArray(supported)) return { about: true, supported: supported.filter((v): v is string => typeof v === 'string') };
    text = `${error.message} ${JSON.stringify(error.data ?? '')}`;
  } else if (McpClientError.isInstance(error) && error.code === 'http' && (error.data.status as number) >= 400 && (error.data.status as number) < 500) {
    text = String(error.data.bodyText ?? '');
  } else return undefined;
  const about = /version/i.test(text);
  return { about, named: about ? (text.match(/\d{4}-\d{2}-\d{2}/g) ?? []) : [] };
}

/**
 * The next version to offer after `error` refused the offer `tried.at(-1)`, or
 * undefined to give up.
 *
 * @param tried - the versions offered so far in this handshake, in order.
 * @param versionRefused - whether an earlier refusal in this handshake was about
 *   the version: then a later 4xx refusal (same request, only the version
 *   changed) is taken as one too, and the client steps on down.
 */
export function nextVersion(error: unknown, tried: readonly string[], versionRefused: boolean): string | undefined {
  const refusal = readRefusal(error);
  if (!refusal || (!refusal.about && !versionRefused)) return undefined;
  const last = tried.at(-1);
  const from = last === undefined ? -1 : LEGACY.indexOf(last);
  // Only older versions, each once: a server that refused a newer one gets no second chance at it.
  const below = LEGACY.filter((v, index) => index > from && !tried.includes(v));
  if (refusal.supported) return below.find((v) => refusal.supported!.includes(v));
  return below.find((v) => refusal.named!.includes(v)) ?? below[0];
}

/** Whether `error` refused `initialize` for its version (for {@link nextVersion}'s `versionRefused`). */
export function refusedForVersion(error: unknown): boolean {
  return readRefusal(error)?.about === true;
}

/** Per client (keyed by its transport): the version its endpoint last accepted, where a new session starts. */
const accepted = new WeakMap<object, string>();

/** The version a new session of the client owning `key` offers first. */
export function firstOffer(key: object): string {
  return accepted.get(key) ?? LEGACY[0]!;
}

/**
 * Records how a handshake ended: the version that worked (the next session
 * starts there, not back at a refused one), or undefined after a handshake that
 * found no version (the next attempt starts from the top again: the server may
 * have been fixed).
 */
export function rememberOffer(key: object, version: string | undefined): void {
  if (version === undefined) accepted.delete(key);
  else accepted.set(key, version);
}
