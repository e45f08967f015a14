/**
 * Helpers for the bridge tests: real stdio servers from npm, a bridge that
 * records its events and log, and raw HTTP requests with exact headers (a
 * `fetch` cannot set `Host`).
 */
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startBridge, type Bridge, type BridgeEvent, type BridgeOptions, type StdioServerSpec } from '../../bridge/index.js';

const require = createRequire(import.meta.url);
const entry = (pkg: string) => join(dirname(require.resolve(`${pkg}/package.json`)), 'dist/index.js');

/** `@modelcontextprotocol/server-everything` in its stdio mode. */
export const everything: StdioServerSpec = { command: process.execPath, args: [entry('@modelcontextprotocol/server-everything'), 'stdio'] };

/** `@modelcontextprotocol/server-filesystem` allowed into `dirs`. */
export function filesystem(...dirs: string[]): StdioServerSpec {
  return { command: process.execPath, args: [entry('@modelcontextprotocol/server-filesystem'), ...dirs] };
}

export async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Whether a process is still running. */
export function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface TestBridge {
  bridge: Bridge;
  events: BridgeEvent[];
  logs: string[];
  /** How many children were spawned so far. */
  spawned(): number;
  ends(): Extract<BridgeEvent, { type: 'end' }>[];
  refusals(): Extract<BridgeEvent, { type: 'refused' }>[];
}

/** Starts a bridge on a free loopback port that records its events and log lines (quick shutdown grace). */
export async function startTestBridge(options: BridgeOptions): Promise<TestBridge> {
  const events: BridgeEvent[] = [];
  const logs: string[] = [];
  const bridge = await startBridge({ shutdownGraceMs: 300, ...options, onEvent: (event) => events.push(event), log: (line) => logs.push(line) });
  return {
    bridge,
    events,
    logs,
    spawned: () => events.filter((e) => e.type === 'spawn').length,
    ends: () => events.filter((e): e is Extract<BridgeEvent, { type: 'end' }> => e.type === 'end'),
    refusals: () => events.filter((e): e is Extract<BridgeEvent, { type: 'refused' }> => e.type === 'refused'),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (including `Host`); reads the whole answer. */
export function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, setHost: !('Host' in headers) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** An `initialize` request body (2025-11-25). */
export const initializeBody = (id: number | string = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bridge-test', version: '0' } } });

/** Headers of a well-formed POST with the token (add `Origin`, `Host` or others on top). */
export const postHeaders = (token: string, extra: Record<string, string> = {}) => ({
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  Authorization: `Bearer ${token}`,
  ...extra,
});
