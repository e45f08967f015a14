/**
 * Small `node:http` helpers shared by the test and bench servers.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The whole request body as UTF-8 text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * A POST body parsed as JSON, for the test servers' records and handlers: the
 * raw text when it is not JSON (a malformed request is recorded as sent), and
 * `undefined` for an empty body or another method.
 */
export async function readJsonBody(req: IncomingMessage): Promise<any> {
  const raw = req.method === 'POST' ? await readBody(req) : '';
  try {
    return raw ? JSON.parse(raw) : undefined;
  } catch {
    return raw;
  }
}

/** Listens on a loopback port (default: a free one); resolves to the origin (`http://127.0.0.1:port`). */
export async function listen(server: Server, port = 0): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server and drops open connections (SSE streams would keep it open). */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

/**
 * A server's CORS configuration, as real servers write one: an explicit list of
 * allowed request headers (or `reflect`: whatever the preflight asks, as the
 * permissive `cors` middleware does), and the response headers exposed.
 */
export interface CorsPolicy {
  allowHeaders: string[] | 'reflect';
  exposeHeaders?: string[];
  /** Default `GET, POST, DELETE`. */
  allowMethods?: string;
}

/**
 * Applies `policy` to one request: marks the response for the page's origin and
 * answers a preflight (`OPTIONS`) itself.
 * @returns true when the request was a preflight and has been answered.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, policy: CorsPolicy): boolean {
  const origin = req.headers.origin;
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    if (policy.exposeHeaders?.length) res.setHeader('Access-Control-Expose-Headers', policy.exposeHeaders.join(', '));
  }
  if (req.method !== 'OPTIONS') return false;
  const allow = policy.allowHeaders === 'reflect' ? String(req.headers['access-control-request-headers'] ?? '') : policy.allowHeaders.join(', ');
  res.writeHead(204, { 'Access-Control-Allow-Methods': policy.allowMethods ?? 'GET, POST, DELETE', ...(allow ? { 'Access-Control-Allow-Headers': allow } : {}), 'Access-Control-Max-Age': '0' });
  res.end();
  return true;
}
