/**
 * The app document's Content-Security-Policy and permissions (spec: ext-apps
 * "UI Resource Format" host behaviour and "Security Implications" 4): built from
 * the resource's `_meta.ui.csp` domains, restrictive when there are none, never
 * looser than declared. Shared by `<mcp-app-frame>` (one-iframe mode) and the
 * sandbox proxy page (double-iframe mode). No Lit, no kit imports: the proxy
 * bundle is this file and `sandbox-proxy.ts`.
 *
 * @module
 */

/** The domains a UI resource declares (`_meta.ui.csp`). */
export interface AppCsp {
  /** Origins for fetch, XHR, WebSocket (`connect-src`). */
  connectDomains?: string[];
  /** Origins for scripts, styles, images, fonts and media. */
  resourceDomains?: string[];
  /** Origins for nested frames (`frame-src`). */
  frameDomains?: string[];
  /** Origins allowed in `<base href>` (`base-uri`). */
  baseUriDomains?: string[];
}

/** The browser permissions a UI resource asks for (`_meta.ui.permissions`). */
export interface AppPermissions {
  camera?: object;
  microphone?: object;
  geolocation?: object;
  clipboardWrite?: object;
}

/** Most domains kept per list; more is a sign of a broken or hostile resource. */
const MAX_DOMAINS = 32;

/**
 * One host source: scheme http(s) or ws(s), a host (optionally `*.` for
 * subdomains, or a bracketed IPv6 address) and an optional port. Nothing else —
 * no keywords, no bare `*`, no `data:`/`blob:`, no paths, no quotes or
 * semicolons that would inject directives.
 */
const HOST_SOURCE = /^(?:https?|wss?):\/\/(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(?:\d{1,5}|\*))?$/i;

/** The checked domains of one list, and what was refused. */
function domains(list: unknown, rejected: string[]): string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    rejected.push(String(list).slice(0, 80));
    return [];
  }
  const out: string[] = [];
  for (const entry of list) {
    if (typeof entry === 'string' && entry.length <= 260 && HOST_SOURCE.test(entry) && out.length < MAX_DOMAINS) {
      if (!out.includes(entry.toLowerCase())) out.push(entry.toLowerCase());
    } else rejected.push(String(entry).slice(0, 80));
  }
  return out;
}

/**
 * The policy for an app document. Without declared domains the app can run its
 * own inline scripts and styles and show `data:` images and media, and reach
 * nothing on the network. `'self'` is never granted: an app's document is
 * `about:srcdoc`, whose "self" a browser may take from the embedding page, and
 * the app must not reach the host's origin through it.
 *
 * Code the app makes itself runs: `'unsafe-eval'` (`eval`, `new Function`,
 * WebAssembly), `blob:` scripts and `blob:` workers (`worker-src`), as the
 * reference host allows. The app already runs its own inline script in an
 * opaque origin, so code it builds from strings or blobs gains it nothing; what
 * it can reach is the network, and that stays `connect-src` and the declared
 * domains (a `blob:` URL is made from the app's own bytes, never fetched).
 *
 * @returns the policy text and the entries refused (not host sources).
 */
export function buildAppCsp(csp: unknown): { policy: string; rejected: string[] } {
  const rejected: string[] = [];
  const declared = typeof csp === 'object' && csp !== null && !Array.isArray(csp) ? (csp as Record<string, unknown>) : {};
  if (csp !== undefined && declared !== csp) rejected.push('csp (not an object)');
  const connect = domains(declared.connectDomains, rejected);
  const resource = domains(declared.resourceDomains, rejected);
  const frame = domains(declared.frameDomains, rejected);
  const base = domains(declared.baseUriDomains, rejected);
  const list = (sources: string[], fallback: string) => (sources.length ? sources.join(' ') : fallback);
  const withResources = (first: string) => [first, ...resource].join(' ');
  const policy = [
    "default-src 'none'",
    `script-src ${withResources("'unsafe-inline' 'unsafe-eval' blob:")}`,
    'worker-src blob:',
    `style-src ${withResources("'unsafe-inline'")}`,
    `img-src ${withResources('data:')}`,
    `font-src ${withResources('data:')}`,
    `media-src ${withResources('data:')}`,
    `connect-src ${list(connect, "'none'")}`,
    `frame-src ${list(frame, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(base, "'none'")}`,
    "form-action 'none'",
  ].join('; ');
  return { policy, rejected };
}

/**
 * The app's HTML with the policy as the document's first element (after a
 * leading doctype, so the page keeps its standards mode): in force before any of
 * the app's markup is parsed, and a policy once in force cannot be removed by
 * the app. Policies the app adds itself can only restrict further.
 */
export function withCspMeta(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
  const doctype = /^\uFEFF?\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return `${html.slice(0, at)}${meta}${html.slice(at)}`;
}

/** Permission-policy feature of each `_meta.ui.permissions` key. */
const FEATURES: Record<string, string> = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };

/**
 * The iframe `allow` attribute: the permissions the resource asks for that the
 * host page allows (feature names as in `allowed`), nothing else.
 */
export function allowAttribute(permissions: unknown, allowed: readonly string[]): string {
  if (typeof permissions !== 'object' || permissions === null) return '';
  const granted: string[] = [];
  for (const [key, feature] of Object.entries(FEATURES)) {
    if (Object.hasOwn(permissions, key) && allowed.includes(feature)) granted.push(feature);
  }
  return granted.join('; ');
}

/** The granted permissions in the `_meta.ui.permissions` shape (what the host tells the app and the proxy). */
export function grantedPermissions(allow: string): AppPermissions {
  const out: Record<string, object> = {};
  for (const [key, feature] of Object.entries(FEATURES)) if (allow.split('; ').includes(feature)) out[key] = {};
  return out;
}
