/**
 * Small DOM helpers shared by the kit's elements.
 *
 * @module
 */

/**
 * An element id derived from a JSON Pointer (unique inside one shadow root):
 * letters and digits are kept, everything else is hex-escaped, so `/a-b` and
 * `/a/b` never collide.
 */
export function idFor(prefix: string, pointer: string): string {
  let out = prefix;
  for (const char of pointer) {
    out += /[A-Za-z0-9]/.test(char) ? char : `_${char.codePointAt(0)!.toString(16)}_`;
  }
  return out;
}

/** A JSON Pointer as the dotted path host pages use in `data-path` (`/stops/0/city` → `stops.0.city`). */
export function dottedPath(pointer: string): string {
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/**
 * Turns a custom state on or off (`:state(name)` in CSS).
 * Chromium before 125 only accepted the `--name` spelling; both are tried.
 */
export function toggleState(internals: ElementInternals, name: string, on: boolean): void {
  const states = internals.states as Set<string> | undefined;
  // Adding a state the element has already invalidates its style in Chromium: elements set theirs on every update.
  if (!states || (states.has(name) || states.has(`--${name}`)) === on) return;
  try {
    if (on) states.add(name);
    else states.delete(name);
  } catch {
    // Remove when Chromium < 125 is no longer supported: it threw for names without "--".
    if (on) states.add(`--${name}`);
    else states.delete(`--${name}`);
  }
}
