/**
 * Shared bits of the demo pages: which server to use and the theme toggle.
 */

/** The bundled demo server, unless the page says otherwise (`?server=` or VITE_MCP_SERVER_URL). */
export function initialServerUrl(): string {
  const fromQuery = new URLSearchParams(location.search).get('server');
  return fromQuery || (import.meta.env.VITE_MCP_SERVER_URL as string | undefined) || 'http://127.0.0.1:3001/mcp';
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
