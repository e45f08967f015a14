/**
 * `npm start` serves the demo with Vite's dev server, which the end-to-end
 * tests (run against the built site) never see: every page's module scripts
 * must load there too. Regression: sandbox.html named a script outside the
 * dev server's root, which answered 404, so no MCP App ever loaded under
 * `npm start`.
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';

const root = resolve(import.meta.dirname, '..');
let server: ViteDevServer;
let origin = '';

beforeAll(async () => {
  server = await createServer({ configFile: resolve(root, 'vite.config.ts'), logLevel: 'silent', server: { port: 0, strictPort: false, hmr: false } });
  await server.listen();
  const address = server.httpServer!.address() as { port: number };
  origin = `http://127.0.0.1:${address.port}`;
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const pages = readdirSync(resolve(root, 'demo')).filter((file) => file.endsWith('.html'));

test.each(pages)('%s: the page and every module script it names load from the dev server', async (page) => {
  const response = await fetch(`${origin}/${page}`);
  expect(response.status).toBe(200);
  const html = await response.text();
  const scripts = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((match) => match[1]!).filter((src) => !src.startsWith('/@vite/'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const src of scripts) {
    const script = await fetch(new URL(src, `${origin}/${page}`));
    expect({ src, status: script.status }).toEqual({ src, status: 200 });
    expect(script.headers.get('content-type')).toMatch(/javascript/);
  }
}, 60_000);
