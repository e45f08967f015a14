/**
 * Credentials in server URLs (a bridge's `?token=`, an API `key=`,
 * `user:password@`), for what a page shows and keeps: the one place the
 * elements and the demo pages strip or mask them. The parameter names are the
 * core's (`isSecretParam`, `maskUrlSecrets` in src/protocol/errors.ts), so a
 * URL is masked the same way in errors, the protocol log and here.
 *
 * @module
 */
import { isSecretParam, maskUrlSecrets } from '../../src/protocol/errors.js';

export { maskUrlSecrets };

/** The mark `maskUrlSecrets` puts where a secret was. */
const MASK = '…';

/**
 * `url` without its credentials (`user:password@` and credential parameters),
 * for a page's own URL (`?server=`), a history kept without credentials, or a
 * storage key. Text that is not a URL comes back as it is.
 */
export function publicUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    for (const name of [...parsed.searchParams.keys()]) if (isSecretParam(name)) parsed.searchParams.delete(name);
    return parsed.href;
  } catch {
    return url;
  }
}

/**
 * A URL the user edited in its masked form (`?token=…`) with the secrets put
 * back from `previous`, the URL it was shown for: editing the path of a
 * bridge's URL keeps its token. A parameter or user info typed anew is kept as
 * typed; a mask with nothing to restore stays (the server refuses it, visibly).
 */
export function restoreMaskedSecrets(typed: string, previous: string): string {
  if (!typed.includes(MASK)) return typed;
  let edited: URL;
  let before: URL;
  try {
    edited = new URL(typed);
    before = new URL(previous);
  } catch {
    return typed;
  }
  for (const [name, value] of [...edited.searchParams]) {
    const old = before.searchParams.get(name);
    if (value === MASK && isSecretParam(name) && old !== null) edited.searchParams.set(name, old);
  }
  // `//…@host`: the masked user info, parsed as a user name.
  if (decodeURIComponent(edited.username) === MASK && !edited.password) {
    edited.username = before.username;
    edited.password = before.password;
  }
  return edited.href;
}
