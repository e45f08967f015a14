/**
 * What a page can learn when a browser refuses a request the way it refuses
 * CORS: `fetch` rejects with an opaque `TypeError`, no status, no reason.
 *
 * Loaded by the transport only when a request from a page to another origin
 * fails before any response. It repeats the request as a "simple" one (a POST
 * of `text/plain` with no custom header, which needs no preflight): if that
 * gets an answer, the server is up and answers this origin, so what failed was
 * the preflight of the headers the real request sent — a `cors` error that
 * names them. If not, the server is down or refuses the origin — a `network`
 * error saying both. Either way `data.cors.requestHeaders` lists the headers
 * the request sent that need the server's permission (`<mcp-connection>`'s
 * doctor tests them one by one).
 *
 * Spec: Fetch "CORS-safelisted request-header", "CORS-preflight fetch"; MCP
 * basic/transports/streamable-http (the headers each era sends).
 *
 * @module
 */
import { McpClientError, type McpErrorData } from '../protocol/errors.js';

/**
 * Request headers a server must allow (`Access-Control-Allow-Headers`) for a
 * page to talk to it, per era; `Mcp-Param-*` stands for each header a tool
 * declares (CORS has no prefix wildcard). `Authorization` and `DPoP` only with
 * OAuth. What the server must expose (`Access-Control-Expose-Headers`), and the
 * methods beyond the safelisted GET and POST (`Access-Control-Allow-Methods`).
 */
export const CORS_REQUIREMENTS = {
  modern: {
    allowHeaders: ['Content-Type', 'MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Mcp-Param-*', 'Authorization', 'DPoP'],
    exposeHeaders: ['WWW-Authenticate', 'DPoP-Nonce'],
    allowMethods: [] as string[],
  },
  legacy: {
    allowHeaders: ['Content-Type', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'Last-Event-ID', 'Authorization', 'DPoP'],
    exposeHeaders: ['Mcp-Session-Id', 'WWW-Authenticate', 'DPoP-Nonce'],
    allowMethods: ['DELETE'],
  },
} as const;

/** What `data.cors` of a kit error says about a refusal. */
export interface CorsFacts {
  /** The page's origin. */
  origin: string;
  /** `headers`: the server answers this origin but refused the preflight; `origin`: no answer at all (down, or this origin is not allowed). */
  problem: 'headers' | 'origin';
  /** Headers the failing request sent that need the server's permission, as sent. */
  requestHeaders: string[];
  /** The request's method, when it needs the server's permission too (DELETE). */
  requestMethod?: string;
  /** `auto` mode tried both eras: the headers each era's request sent. */
  eras?: { modern: string[]; legacy: string[] };
}

/** Content types a page may send without a preflight. */
const SIMPLE_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * The request headers that need the server's permission (not CORS-safelisted),
 * in the case they were given. `Accept` with the kit's value is safelisted;
 * `Content-Type: application/json` is not.
 */
export function preflightHeaders(headers: HeadersInit | undefined): string[] {
  const names: string[] = [];
  const entries: [string, string][] = [];
  if (headers instanceof Headers) headers.forEach((value, name) => entries.push([name, value]));
  else entries.push(...((Array.isArray(headers) ? headers : Object.entries(headers ?? {})) as [string, string][]));
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    const text = String(value);
    // Fetch: these names are safelisted with values of at most 128 bytes free of "CORS-unsafe" bytes.
    const unsafe = [...text].some((c) => (c < ' ' && c !== '\t') || c === '\x7f' || '"():<>?@[\\]{}'.includes(c));
    const safe =
      text.length <= 128 &&
      (['accept', 'accept-language', 'content-language'].includes(lower)
        ? !unsafe
        : lower === 'content-type' && !unsafe && SIMPLE_TYPES.includes(text.split(';', 1)[0]!.trim().toLowerCase()));
    if (!safe && !names.some((n) => n.toLowerCase() === lower)) names.push(name);
  }
  return names;
}

/** The JSON-RPC method of a kit request, from its `Mcp-Method` header or its body. */
function rpcMethod(init: RequestInit): string | undefined {
  const header = new Headers(init.headers).get('mcp-method');
  if (header) return header;
  try {
    const method = (JSON.parse(String(init.body)) as { method?: unknown }).method;
    return typeof method === 'string' ? method : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `url` answers a request that needs no preflight (any status counts). */
export async function answersSimpleRequest(url: string, signal?: AbortSignal): Promise<boolean> {
  try {
    const response = await globalThis.fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}', credentials: 'omit', cache: 'no-store', redirect: 'manual', signal });
    await response.body?.cancel().catch(() => {});
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any server answers `url` at all, seen through an opaque (`no-cors`) POST that needs no
 * permission from the server: false when no request reached one (the name does not resolve,
 * nothing listens, TLS failed, a URL with user:password, which a page's fetch refuses).
 * Fetch standard: a no-cors request must follow redirects.
 */
export async function answersOpaqueRequest(url: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await globalThis.fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: '{}', credentials: 'omit', cache: 'no-store', signal });
    return true;
  } catch {
    return false;
  }
}

/**
 * Turns a `fetch` rejection of a request from a page to another origin into
 * the kit error that says what happened.
 *
 * @returns McpClientError `cors` (the server answers a simple request, so the preflight was refused) or `network`, with `data.cors` ({@link CorsFacts}).
 */
export async function corsFailure(error: unknown, url: URL, init: RequestInit, origin: string): Promise<McpClientError> {
  const method = rpcMethod(init);
  const httpMethod = (init.method ?? 'GET').toUpperCase();
  const requestHeaders = preflightHeaders(init.headers);
  const cause = (error as { message?: string })?.message ?? String(error);
  const reachable = await answersSimpleRequest(url.href);
  const facts: CorsFacts = {
    origin,
    problem: reachable ? 'headers' : 'origin',
    requestHeaders,
    ...(['GET', 'HEAD', 'POST'].includes(httpMethod) ? {} : { requestMethod: httpMethod }),
  };
  const data: McpErrorData = { url: url.href, ...(method ? { method } : {}), cause, cors: facts };
  const what = `${httpMethod} ${url.href}${method ? ` (${method})` : ''}`;
  if (!reachable) {
    return new McpClientError(
      'network',
      `Could not reach ${what}: the request failed before any response, and so did a plain request without custom headers. ` +
        `The server is down or unreachable, or it does not allow this page's origin (${origin}) through CORS: its responses, OPTIONS included, must carry Access-Control-Allow-Origin.`,
      data,
      { cause: error },
    );
  }
  const needs = [requestHeaders.length ? `the request headers ${requestHeaders.join(', ')} (Access-Control-Allow-Headers)` : '', facts.requestMethod ? `the ${facts.requestMethod} method (Access-Control-Allow-Methods)` : '']
    .filter(Boolean)
    .join(' and ');
  return new McpClientError(
    'cors',
    `${what} was blocked by CORS: the server answers this page's origin (${origin}) but refused the preflight of this request. ` +
      `Its answer to OPTIONS must allow ${needs || 'this request'}.`,
    data,
    { cause: error },
  );
}

/**
 * In `auto` mode both eras' requests were refused before any response: one
 * error naming the headers each era needs and those each request sent.
 */
export function bothErasRefused(modern: McpClientError, legacy: McpClientError, url: string): McpClientError {
  const m = modern.data.cors as CorsFacts;
  const l = legacy.data.cors as CorsFacts;
  const reachable = m.problem === 'headers' || l.problem === 'headers';
  const list = (era: 'modern' | 'legacy') => CORS_REQUIREMENTS[era].allowHeaders.join(', ');
  return new McpClientError(
    reachable ? 'cors' : 'network',
    `${url} refused both protocol eras before any response. The 2026-07-28 request (server/discover) sent ${m.requestHeaders.join(', ') || 'no custom header'}; ` +
      `the legacy one (initialize) sent ${l.requestHeaders.join(', ') || 'no custom header'}. ` +
      (reachable
        ? `The server answers this page's origin (${m.origin}), so its CORS preflight answers refused them: a 2026-07-28 server must allow ${list('modern')}; a 2025 (legacy) one ${list('legacy')} (Access-Control-Allow-Headers), and expose Mcp-Session-Id.`
        : `The server is down or unreachable, or it does not allow this page's origin (${m.origin}) through CORS (Access-Control-Allow-Origin).`),
    { url, method: 'server/discover', cors: { ...m, problem: reachable ? 'headers' : 'origin', requestHeaders: [...new Set([...m.requestHeaders, ...l.requestHeaders])], eras: { modern: m.requestHeaders, legacy: l.requestHeaders } } },
    { cause: legacy },
  );
}
