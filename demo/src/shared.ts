/**
 * Shared bits of the demo pages: which server to use (and the demo server that
 * runs inside the browser), the MCP Apps sandbox and the theme toggle.
 */
import { IN_BROWSER_ENDPOINT, IN_BROWSER_WORKER } from './in-browser-endpoint.js';

/**
 * The endpoint of the demo server that runs in this browser (a Service Worker on the site's own origin).
 * @param siteRoot URL of the site's root: the page's own folder for the demo pages, one folder up for the docs.
 */
export function inBrowserServerUrl(siteRoot = document.baseURI): string {
  return new URL(IN_BROWSER_ENDPOINT, siteRoot).href;
}

/** Whether `url` is the in-browser demo server. */
export function isInBrowserServer(url: string): boolean {
  return url === inBrowserServerUrl();
}

/**
 * The server to open: `?server=`, else the one the build names
 * (VITE_MCP_SERVER_URL: `npm start` points it at the bundled Node server), else
 * the demo server inside the browser — a static build works with no backend.
 */
export function initialServerUrl(): string {
  const fromQuery = new URLSearchParams(location.search).get('server');
  return fromQuery || (import.meta.env.VITE_MCP_SERVER_URL as string | undefined) || inBrowserServerUrl();
}

let started: Promise<void> | undefined;

/**
 * Starts the in-browser demo server: registers its Service Worker and resolves
 * once this page's requests go through it (a hard reload leaves a page
 * uncontrolled: the worker is asked to claim it).
 * @param siteRoot URL of the site's root, where demo-sw.js is (see inBrowserServerUrl).
 * @throws Error when the browser has no Service Workers (an insecure origin, a private window in some browsers).
 */
export function startInBrowserServer(siteRoot = document.baseURI): Promise<void> {
  return (started ??= (async () => {
    if (!('serviceWorker' in navigator)) throw new Error('This browser offers no Service Workers here (they need https or localhost), so the in-browser demo server cannot run.');
    const registration = await navigator.serviceWorker.register(new URL(IN_BROWSER_WORKER, siteRoot));
    if (navigator.serviceWorker.controller) return;
    await new Promise<void>((resolve) => {
      navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true });
      void navigator.serviceWorker.ready.then((ready) => (ready.active ?? registration.active)?.postMessage('claim'));
    });
  })().catch((error: unknown) => {
    started = undefined;
    throw error;
  }));
}

/**
 * The MCP Apps sandbox proxy page (demo/sandbox.html) on another origin: the same
 * server under its other loopback name (127.0.0.1 ↔ localhost), so the demo runs
 * apps in the spec's double-iframe sandbox with no second server. `?sandbox=<url>`
 * picks another proxy; `?sandbox=none` (or another host name) runs apps in one
 * sandboxed iframe instead.
 */
export function appSandboxUrl(): string | undefined {
  const chosen = new URLSearchParams(location.search).get('sandbox');
  if (chosen) return chosen === 'none' ? undefined : chosen;
  const url = new URL('./sandbox.html', location.href);
  if (url.hostname === '127.0.0.1') url.hostname = 'localhost';
  else if (url.hostname === 'localhost') url.hostname = '127.0.0.1';
  else return undefined;
  return url.href;
}

/** Wires the light/dark toggle (remembered in localStorage; a preference, not data). */
export function setupThemeToggle(): void {
  const button = document.getElementById('theme-toggle') as HTMLButtonElement;
  const apply = (dark: boolean) => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    button.setAttribute('aria-pressed', String(dark));
  };
  const stored = localStorage.getItem('mcp-demo-theme');
  apply(stored ? stored === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches);
  button.addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme !== 'dark';
    localStorage.setItem('mcp-demo-theme', dark ? 'dark' : 'light');
    apply(dark);
  });
}
