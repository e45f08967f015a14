/**
 * The demo MCP server inside the browser: a Service Worker that answers the
 * page's MCP endpoint (`./demo-mcp`, same origin) with the very server of
 * `demo/server/demo-server.ts` — the official SDK's web-standard handler, a
 * `Request` in and a `Response` out, SSE streams included. The page talks to it
 * through the kit's real HTTP path (`fetch`, headers, SSE parsing), so every
 * flow of the demo works from a static host with no backend: elicitation,
 * sampling, progress, list changes over `subscriptions/listen`.
 *
 * Built as one classic script, `demo-sw.js`, by the `demoServiceWorker` plugin
 * of vite.config.ts. Its state (notes, the bonus tool) lives as long as the
 * worker does: the browser may stop an idle worker, which starts afresh.
 */
import { createDemoHandler } from '../server/demo-server.js';
import { IN_BROWSER_ENDPOINT } from './in-browser-endpoint.js';

/** The few Service Worker types used here (the project's TypeScript lib is the DOM's, not the worker's). */
interface FetchEvent extends Event {
  readonly request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface ServiceWorkerScope {
  readonly registration: { readonly scope: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate' | 'message', listener: (event: ExtendableEvent & { data?: unknown }) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}
const worker = globalThis as unknown as ServiceWorkerScope;

const { handler } = createDemoHandler();
const endpoint = new URL(IN_BROWSER_ENDPOINT, worker.registration.scope);

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
// Take the open pages at once: they wait for this worker before their first MCP request.
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));
// A page loaded with a hard reload is not controlled; it asks to be claimed.
worker.addEventListener('message', (event) => {
  if (event.data === 'claim') event.waitUntil(worker.clients.claim());
});

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== endpoint.origin || url.pathname !== endpoint.pathname) return;
  event.respondWith(
    handler.fetch(event.request).catch(
      (error: unknown) =>
        new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: `The in-browser demo server failed: ${String(error)}` } }), {
          status: 500,
          headers: { 'Content-Type': 'application/json' },
        }),
    ),
  );
});
