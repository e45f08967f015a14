/**
 * The sandbox proxy page's script (`mcp-web-elements/app-sandbox`; spec: ext-apps
 * "Sandbox proxy"): the middle frame of the double-iframe architecture for web
 * hosts. Serve a page that loads it from an origin other than the host page's:
 *
 * ```html
 * <!doctype html><meta charset="utf-8"><title>MCP app sandbox</title>
 * <script type="module" src="/app-sandbox.js"></script>
 * ```
 *
 * and point `<mcp-app-frame sandbox-url>` (or `configureAppFrames`) at it. Serve
 * it without a Content-Security-Policy of its own: the app document inherits the
 * proxy's policy, and gets the resource's policy on top.
 *
 * The proxy accepts messages only from its parent window at the parent's origin
 * (`location.ancestorOrigins`, else the referrer), loads the app HTML it is sent
 * once (`ui/notifications/sandbox-resource-ready`) into an inner iframe with an
 * opaque origin (`sandbox="allow-scripts allow-forms"`) and the resource's CSP,
 * and relays every other message both ways, except the `ui/notifications/sandbox-*`
 * ones. If the app replaces its document (navigates its frame), the proxy
 * removes it and relays nothing more.
 *
 * @module
 */
import { allowAttribute, buildAppCsp, withCspMeta } from './csp.js';

const PREFIX = 'ui/notifications/sandbox-';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The host page's origin: the browser's record of the embedder where it has one, else the referrer's. */
function hostOrigin(): string | undefined {
  const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0];
  try {
    return document.referrer ? new URL(document.referrer).origin : undefined;
  } catch {
    return undefined;
  }
}

function say(text: string): void {
  const p = document.createElement('p');
  p.textContent = text;
  document.body.append(p);
}

/** Starts the proxy in this page. */
export function startSandboxProxy(): void {
  if (window.parent === window) return say('This page is the sandbox of MCP apps; it only works inside a host page.');
  const host = hostOrigin();
  if (!host || host === 'null') return say('The page embedding this sandbox cannot be identified; nothing is loaded.');
  if (host === location.origin) return say('This sandbox must be on another origin than the page embedding it; nothing is loaded.');
  document.documentElement.style.cssText = 'height:100%;margin:0';
  document.body.style.cssText = 'height:100%;margin:0';
  let inner: HTMLIFrameElement | undefined;
  let closed = false;

  const load = (params: Record<string, unknown>) => {
    if (inner || typeof params.html !== 'string') return;
    const { policy } = buildAppCsp(params.csp);
    // The host already kept only the permissions it grants.
    const allow = allowAttribute(params.permissions, ['camera', 'microphone', 'geolocation', 'clipboard-write']);
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts allow-forms');
    if (allow) frame.setAttribute('allow', allow);
    frame.title = typeof params.title === 'string' ? params.title.slice(0, 200) : 'MCP app';
    frame.referrerPolicy = 'no-referrer';
    frame.style.cssText = 'display:block;width:100%;height:100%;border:0';
    let loads = 0;
    frame.addEventListener('load', () => {
      if (++loads > 1) {
        closed = true;
        frame.remove();
      }
    });
    frame.srcdoc = withCspMeta(params.html, policy);
    document.body.append(frame);
    inner = frame;
  };

  window.addEventListener('message', (event: MessageEvent) => {
    if (closed) return;
    const data: unknown = event.data;
    const method = isRecord(data) ? data.method : undefined;
    const reserved = typeof method === 'string' && method.startsWith(PREFIX);
    if (event.source === window.parent && event.source !== null) {
      if (event.origin !== host) return;
      if (method === `${PREFIX}resource-ready` && isRecord(data) && isRecord(data.params)) load(data.params);
      else if (!reserved) inner?.contentWindow?.postMessage(data, '*');
    } else if (inner && event.source === inner.contentWindow && event.source !== null) {
      if (!reserved) window.parent.postMessage(data, host);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: `${PREFIX}proxy-ready`, params: {} }, host);
}

startSandboxProxy();
