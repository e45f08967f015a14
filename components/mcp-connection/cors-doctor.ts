/**
 * The CORS doctor: when a browser refuses a request the way it refuses CORS (an
 * opaque `TypeError`, no status), find out what the server failed to allow and
 * say how to fix it.
 *
 * A page cannot read a failed preflight, but it can repeat the request in small
 * steps and see which one fails:
 * 1. a "simple" POST (no preflight): if even that fails, the server does not
 *    answer this origin at all (no `Access-Control-Allow-Origin`) or is down;
 * 2. one POST per non-safelisted request header the kit sends: the first that
 *    fails names a header missing from `Access-Control-Allow-Headers`.
 * The probes carry an empty JSON object, which an MCP server rejects with 400
 * without doing anything; only whether `fetch` throws matters.
 */
import { McpClientError, type McpError } from '../../src/index.js';

/** What the doctor found. */
export interface CorsDiagnosis {
  /** The endpoint that was probed. */
  url: string;
  /** The page's origin. */
  origin: string;
  /** `origin` when the server does not answer this origin at all; `headers` when some request headers are not allowed. */
  problem: 'origin' | 'headers' | 'unknown';
  /** Request headers the server's preflight does not allow. */
  missingHeaders: string[];
  /** One sentence saying what to change on the server. */
  fix: string;
}

/** Headers the kit sends on every request, and the ones it sends sometimes. */
const PROBE_HEADERS: [string, string][] = [
  ['Content-Type', 'application/json'],
  ['MCP-Protocol-Version', '2026-07-28'],
  ['Mcp-Method', 'tools/call'],
  ['Mcp-Name', 'probe'],
];

async function reachable(url: string, headers: Record<string, string>, fetchImpl: typeof fetch): Promise<boolean> {
  try {
    const response = await fetchImpl(url, { method: 'POST', headers, body: '{}', credentials: 'omit', cache: 'no-store' });
    await response.body?.cancel().catch(() => {});
    return true;
  } catch {
    return false;
  }
}

/**
 * Probes `url` to explain a CORS-looking failure.
 *
 * @param extraHeaders - further headers the failing request carried (`Authorization`, `Mcp-Param-*`, user headers).
 */
export async function diagnoseCors(url: string, extraHeaders: Record<string, string> = {}, fetchImpl: typeof fetch = fetch): Promise<CorsDiagnosis> {
  const origin = globalThis.location?.origin ?? 'this page';
  if (!(await reachable(url, { 'Content-Type': 'text/plain' }, fetchImpl))) {
    return {
      url,
      origin,
      problem: 'origin',
      missingHeaders: [],
      fix: `The server at ${url} did not answer a request from ${origin}: it is unreachable, or it does not send Access-Control-Allow-Origin for this origin — allow ${origin} in its CORS settings (and answer OPTIONS preflights).`,
    };
  }
  const candidates: [string, string][] = [...PROBE_HEADERS];
  for (const [name, value] of Object.entries(extraHeaders)) {
    if (!candidates.some(([known]) => known.toLowerCase() === name.toLowerCase())) candidates.push([name, value]);
  }
  const missingHeaders: string[] = [];
  for (const [name, value] of candidates) {
    const headers: Record<string, string> = { 'Content-Type': 'text/plain', [name]: value };
    if (!(await reachable(url, headers, fetchImpl))) missingHeaders.push(name);
  }
  if (missingHeaders.length === 0) {
    return {
      url,
      origin,
      problem: 'unknown',
      missingHeaders,
      fix: `Every header the kit sends passes ${url}'s CORS checks one by one; the failure may be intermittent (network) or caused by the response (for example Access-Control-Allow-Origin missing on error responses).`,
    };
  }
  return {
    url,
    origin,
    problem: 'headers',
    missingHeaders,
    fix: `The server at ${url} must list ${missingHeaders.join(', ')} in Access-Control-Allow-Headers of its OPTIONS (preflight) responses for ${origin}; MCP clients send Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Name, every Mcp-Param-* a tool declares, and Authorization when signed in.`,
  };
}

/** Whether an error looks like a browser CORS refusal (a network failure with no response). */
export function looksLikeCors(error: McpError): boolean {
  return McpClientError.isInstance(error) && error.code === 'network' && typeof globalThis.document !== 'undefined';
}

/** Turns a diagnosis into the typed error the connection reports. */
export function corsError(diagnosis: CorsDiagnosis, cause: McpError): McpClientError {
  const what =
    diagnosis.problem === 'headers'
      ? `blocked by CORS: the server does not allow the request header${diagnosis.missingHeaders.length > 1 ? 's' : ''} ${diagnosis.missingHeaders.join(', ')}`
      : diagnosis.problem === 'origin'
        ? `blocked: no CORS answer for origin ${diagnosis.origin}`
        : 'failed with no response';
  return new McpClientError('cors', `Request to ${diagnosis.url} ${what}. ${diagnosis.fix}`, { url: diagnosis.url, cors: diagnosis }, { cause });
}
