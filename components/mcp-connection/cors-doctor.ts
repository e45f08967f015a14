/**
 * The CORS doctor: when a browser refuses a request the way it refuses CORS (an
 * opaque `TypeError`, no status), find out which header or origin the server
 * failed to allow and say how to fix it.
 *
 * The core's error already says whether the server answers this origin at all
 * and lists the headers the failing request sent that need the server's
 * permission (`data.cors.requestHeaders`; in `auto` mode both eras', in
 * `data.cors.eras`). A page cannot read a failed preflight, but it can repeat
 * the request in small steps and see which one fails, so the doctor sends one
 * request per header — exactly the headers the failing request sent, plus each
 * era's set, to tell whether connecting in the other era is a fix. The probes
 * carry placeholder values and an empty JSON object, which an MCP server
 * rejects without doing anything; only whether `fetch` throws matters.
 *
 * Loaded only when something failed (issue 18): the public `diagnoseCors` and
 * the connection reach it through diagnose.ts.
 */
import { McpClientError, type McpError, type ProtocolPreference } from '../../src/index.js';
import { maskUrlSecrets } from '../../src/protocol/errors.js';
import type { CorsFacts } from '../../src/transport/cors.js';

/** What the doctor found. */
export interface CorsDiagnosis {
  /** The endpoint that was probed. */
  url: string;
  /** The page's origin. */
  origin: string;
  /**
   * `unreachable` when no request reached a server (the name does not resolve, nothing listens,
   * TLS failed, or the URL has a user name or password, which a page's fetch refuses: not
   * CORS); `origin` when the server answers but not to this origin; `headers` when
   * some request headers are not allowed.
   */
  problem: 'unreachable' | 'origin' | 'headers' | 'unknown';
  /** Headers the failing request sent that the server's preflight does not allow. */
  missingHeaders: string[];
  /** An era whose headers the server allows while the failing request's era's are refused: connecting in it is a fix. */
  era?: 'modern' | 'legacy';
  /** What to change on the server (and, when `era` is set, in the page). */
  fix: string;
}

/**
 * For an endpoint that looks like an `mcp-web-elements bridge` (a loopback address, a
 * `token` query parameter), the bridge's own switch: `--allow-origin <origin>`; for a page
 * with an opaque origin (`null`: a file: page, a sandboxed frame), which the bridge cannot
 * allow, what to do instead (the bridge's hint says the same).
 */
function bridgeHint(url: string, origin: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '';
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
  if (!loopback || !parsed.searchParams.has('token')) return '';
  return origin === 'null'
    ? ' If it is an mcp-web-elements bridge: it cannot allow a page with an opaque origin ("null": a file: page, a sandboxed frame); serve this page over http(s) and start the bridge with --allow-origin <that origin>.'
    : ` If it is an mcp-web-elements bridge, start it with --allow-origin ${origin} (repeatable; it replaces the default list).`;
}

/** What the doctor knows about the failing request. */
export interface CorsDoctorInput {
  /** The kit error of the failing request (its `data.cors` lists what the request sent). */
  error?: McpError;
  /** Headers the caller configured (sent with every request). */
  headers?: Record<string, string>;
  /** The OAuth in use, if any: when signed in, requests carry `Authorization` (and `DPoP`). */
  auth?: { status: string; session?: { tokenType: string } };
  /** The connection's era preference. */
  protocol?: ProtocolPreference;
}

/** Headers of an era's list that not every request sends: OAuth's, and a tool's own `Mcp-Param-*`. */
const SOMETIMES = /^(authorization|dpop|mcp-param-\*)$/i;
const MODERN_ONLY = /^(mcp-method|mcp-name|mcp-param-.*)$/i;
const LEGACY_ONLY = /^(mcp-session-id|last-event-id)$/i;

const lower = (names: string[]) => new Set(names.map((n) => n.toLowerCase()));
function merge(...lists: string[][]): string[] {
  const out: string[] = [];
  for (const name of lists.flat()) if (!out.some((n) => n.toLowerCase() === name.toLowerCase())) out.push(name);
  return out;
}

async function allowed(url: string, name: string): Promise<boolean> {
  // Values do not matter to a preflight, only names (and Content-Type's value, which decides whether it needs one).
  const headers: Record<string, string> = { 'Content-Type': 'text/plain', [name]: name.toLowerCase() === 'content-type' ? 'application/json' : 'probe' };
  try {
    const response = await fetch(url, { method: 'POST', headers, body: '{}', credentials: 'omit', cache: 'no-store', redirect: 'manual' });
    await response.body?.cancel().catch(() => {});
    return true;
  } catch {
    return false;
  }
}

/**
 * Probes `url` to explain a CORS-looking failure.
 *
 * @param input - the failing request's error, the caller's headers, the OAuth in use and the era preference.
 */
export async function diagnoseCors(url: string, input: CorsDoctorInput = {}): Promise<CorsDiagnosis> {
  const origin = globalThis.location?.origin ?? 'this page';
  // The core's CORS module loads only when something failed (as in the core itself).
  const { answersOpaqueRequest, answersSimpleRequest, CORS_REQUIREMENTS } = await import('../../src/transport/cors.js');
  // The headers each era's requests always send (`Content-Type: application/json` included: it is not safelisted).
  const ERA_HEADERS = {
    modern: CORS_REQUIREMENTS.modern.allowHeaders.filter((n) => !SOMETIMES.test(n)),
    legacy: CORS_REQUIREMENTS.legacy.allowHeaders.filter((n) => !SOMETIMES.test(n)),
  };
  // Text shown on screens and in logs: the URL's credentials (a bridge's ?token=, an API key, user:password@) masked, as in error messages.
  const shown = maskUrlSecrets(url);
  if (!(await answersSimpleRequest(url))) {
    // An opaque (no-cors) request needs no permission from the server: if it fails too, no
    // server answered at all, which no CORS setting explains.
    if (!(await answersOpaqueRequest(url))) {
      let credentials = false;
      try {
        const parsed = new URL(url);
        credentials = parsed.username !== '' || parsed.password !== '';
      } catch {
        // Not a URL: said below as nothing answering.
      }
      return {
        url,
        origin,
        problem: 'unreachable',
        missingHeaders: [],
        fix: credentials
          ? `A page's fetch refuses any URL with a user name or password in it (${shown} ), so no request was sent: give the credentials in a header (Authorization) instead.`
          : `Nothing answered: the host name does not resolve, nothing listens on that port, or the connection or TLS failed (the page's Content Security Policy or mixed content can block it too). Check the URL and that the server is running.`,
      };
    }
    return {
      url,
      origin,
      problem: 'origin',
      missingHeaders: [],
      fix: `The server at ${shown} answers, but not to ${origin}: it does not send Access-Control-Allow-Origin for this origin — allow ${origin} in its CORS settings (and answer OPTIONS preflights).${bridgeHint(url, origin)}`,
    };
  }
  const facts = (input.error?.data as { cors?: Partial<CorsFacts> } | undefined)?.cors;
  const auth = input.auth?.status === 'signed_in' ? ['Authorization', ...(input.auth.session?.tokenType === 'DPoP' ? ['DPoP'] : [])] : [];
  const callers = Object.keys(input.headers ?? {});
  // What the failing request sent: from the error, else what its era always sends.
  const sent = merge(facts?.requestHeaders ?? ERA_HEADERS[input.protocol === 'legacy' ? 'legacy' : 'modern'], callers, auth);
  const extra = merge(callers, auth);
  const probed = merge(sent, ERA_HEADERS.modern, ERA_HEADERS.legacy);
  const refused = new Set<string>();
  for (const name of probed) if (!(await allowed(url, name))) refused.add(name.toLowerCase());
  const missingHeaders = sent.filter((n) => refused.has(n.toLowerCase()));
  const passes = (era: 'modern' | 'legacy') => merge(ERA_HEADERS[era], extra, era === 'modern' ? sent.filter((n) => /^mcp-param-/i.test(n)) : []).every((n) => !refused.has(n.toLowerCase()));
  const method = facts?.requestMethod;

  if (missingHeaders.length === 0) {
    return {
      url,
      origin,
      problem: 'unknown',
      missingHeaders,
      fix: method
        ? `${shown} must allow the ${method} method for ${origin} (Access-Control-Allow-Methods in its OPTIONS answers).`
        : `Every header the failing request sent passes ${shown}'s CORS checks one by one; the failure may be intermittent (network) or caused by the response (for example Access-Control-Allow-Origin missing on error responses).`,
    };
  }
  // The era that is a fix: the failing request's era is refused, the other one's headers all pass.
  const sentModern = sent.some((n) => MODERN_ONLY.test(n)) || facts?.eras !== undefined;
  const sentLegacy = lower(sent).has('mcp-session-id') || lower(sent).has('last-event-id') || input.protocol === 'legacy';
  let era: 'modern' | 'legacy' | undefined;
  if (sentModern && input.protocol === 'modern' && missingHeaders.some((n) => MODERN_ONLY.test(n)) && passes('legacy')) era = 'legacy';
  else if (sentLegacy && input.protocol === 'legacy' && missingHeaders.some((n) => LEGACY_ONLY.test(n)) && passes('modern')) era = 'modern';
  const list = (e: 'modern' | 'legacy') => CORS_REQUIREMENTS[e].allowHeaders.join(', ');
  const eraFix =
    era === 'legacy'
      ? ` Or, since its CORS allows the legacy handshake's headers: if the server also speaks the 2025 revisions, connect with protocol "auto" (or "legacy"), which does not send ${missingHeaders.filter((n) => MODERN_ONLY.test(n)).join(', ')}.`
      : era === 'modern'
        ? ` Or, since its CORS allows the 2026-07-28 headers: if the server speaks 2026-07-28, connect with protocol "auto" (or "modern").`
        : '';
  return {
    url,
    origin,
    problem: 'headers',
    missingHeaders,
    ...(era ? { era } : {}),
    fix:
      `The server at ${shown} must list ${missingHeaders.join(', ')} in Access-Control-Allow-Headers of its OPTIONS (preflight) answers for ${origin}. ` +
      `A 2026-07-28 server needs ${list('modern')} (Mcp-Param-* meaning each one its tools declare); a legacy (2025) server ${list('legacy')}, and must expose Mcp-Session-Id (Access-Control-Expose-Headers).` +
      eraFix,
  };
}

/** Turns a diagnosis into the typed error the connection reports: `network` when nothing answered, else `cors`. */
export function corsError(diagnosis: CorsDiagnosis, cause: McpError): McpClientError {
  if (diagnosis.problem === 'unreachable') {
    // The URL is followed by a space: a masked secret runs to the next space.
    return new McpClientError('network', `Could not reach ${diagnosis.url} — no response at all. ${diagnosis.fix}`, { url: diagnosis.url, cors: diagnosis }, { cause });
  }
  const what =
    diagnosis.problem === 'headers'
      ? `blocked by CORS: the server does not allow the request header${diagnosis.missingHeaders.length > 1 ? 's' : ''} ${diagnosis.missingHeaders.join(', ')}`
      : diagnosis.problem === 'origin'
        ? `blocked by CORS: the server does not allow origin ${diagnosis.origin}`
        : 'failed with no response';
  return new McpClientError('cors', `Request to ${diagnosis.url} ${what}. ${diagnosis.fix}`, { url: diagnosis.url, cors: diagnosis }, { cause });
}
