/**
 * A loopback server on another origin than the element tests' page (Node side):
 * serves the MCP Apps sandbox proxy page as a deployment would (a static page
 * and its script, no CSP of its own) and counts requests to `/hit/<name>` so a
 * test can tell whether an app's request reached the network at all.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build, type Rollup } from 'vite';

export async function startSecondOrigin(): Promise<{ url: string; close(): Promise<void> }> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry: join(import.meta.dirname, '../../components/mcp-app-frame/sandbox-proxy.ts'), formats: ['es'], fileName: 'app-sandbox' } },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const script = [output].flat().flatMap((o) => o.output).find((o): o is Rollup.OutputChunk => o.type === 'chunk')!.code;
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/sandbox.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP app sandbox</title><script type="module" src="/app-sandbox.js"></script></head><body></body></html>');
    } else if (path === '/app-sandbox.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      res.end(script);
    } else if (path.startsWith('/hit/')) {
      const name = path.slice(5);
      hits.set(name, (hits.get(name) ?? 0) + 1);
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' });
      res.end('hit');
    } else if (path === '/hits') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify(Object.fromEntries(hits)));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
