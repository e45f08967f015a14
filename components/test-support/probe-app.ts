/**
 * A probe app for the `<mcp-app-frame>` tests (our own code). It reports every
 * message it receives from the host as a log message (`notifications/message`,
 * logger `probe`), so a test sees exactly what reached the app, and runs the
 * actions listed in its tool input (`arguments.actions`), reporting each outcome:
 * - `{ do: 'request', method, params, retry? }`: a JSON-RPC request to the host
 *   (with `retry`, tried again while the host answers that it is rate-limited);
 * - `{ do: 'raw', message }`: posts `message` as is (malformed and hostile messages);
 * - `{ do: 'on-click', label, then }`: shows a button labelled `label` and runs the action
 *   `then` once it is clicked (a user gesture in the app);
 * - `{ do: 'flood', count }`: `count` pings in one go (their answers are collected, not logged);
 * - `{ do: 'flood-calls', count }`: `count` `tools/call` requests in one go (answers collected likewise);
 * - `{ do: 'flood-self', count }`: the same `tools/call` messages posted to the app's own window (the app's cost alone);
 * - `{ do: 'summary' }`: sends what the flood got back as `ui/update-model-context`;
 * - `{ do: 'isolation' }`: tries to reach the host page, its cookies, storage and the top window;
 * - `{ do: 'fetch', url }`: fetches `url` and reports any CSP violation;
 * - `{ do: 'worker-net', url }`: a `blob:` worker fetches, imports and opens an event source at `url`-suffixed addresses, and has a nested worker fetch;
 * - `{ do: 'dynamic' }`: runs code from a string (`eval`, `new Function`), a `blob:` script and a
 *   `blob:` worker, as bundles of WebGL and chart libraries do, and reports each outcome and any CSP violation.
 */
import { APP_MIME_TYPE } from '../mcp-app-frame/app-meta.js';

const PROBE_SCRIPT = String.raw`
(() => {
  let nextId = 1000;
  const pending = new Map();
  const post = (message) => window.parent.postMessage(message, '*');
  const send = (message) => post(Object.assign({ jsonrpc: '2.0' }, message));
  const log = (data) => send({ method: 'notifications/message', params: { level: 'info', logger: 'probe', data } });
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ id, method, params });
  });
  const violations = [];
  // After a flood, answers the probe did not ask for are collected instead of logged.
  let quiet = false;
  const collected = [];
  document.addEventListener('securitypolicyviolation', (e) => violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }));
  const attempt = (name, run) => { try { const value = run(); return { name, reached: true, value: String(value).slice(0, 200) }; } catch (e) { return { name, reached: false, error: e.name }; } };
  async function act(action) {
    switch (action.do) {
      case 'request':
        for (let attempt = 0; ; attempt++) {
          // With retry, an attempt the host drops unanswered (past its rate) is given up after a second.
          const attemptOf = () => action.retry ? Promise.race([request(action.method, action.params), new Promise((_, reject) => setTimeout(() => reject({ message: 'Too many (no answer)' }), 1000))]) : request(action.method, action.params);
          try { return { ok: true, result: await attemptOf(), attempts: attempt + 1 }; }
          catch (e) {
            // With retry, a rate-limited request is tried again a little later (at most 100 times).
            if (!action.retry || attempt >= 100 || !String(e.message).startsWith('Too many ')) return { ok: false, error: e };
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      case 'raw': post(action.message); return { sent: true };
      case 'on-click': {
        // A button; the action inside runs when the user clicks it (a user gesture in the app).
        const button = document.createElement('button');
        button.textContent = action.label;
        document.body.append(button);
        await new Promise((r) => button.addEventListener('click', r, { once: true }));
        button.remove();
        return act(action.then);
      }
      case 'flood-self': {
        // The same messages as a flood, posted to the app's own window: the app's cost without the host's.
        let seen = 0;
        const done = new Promise((r) => window.addEventListener('message', function count(e) { if (e.source === window && ++seen === action.count) { window.removeEventListener('message', count); r(); } }));
        for (let i = 0; i < action.count; i++) window.postMessage({ jsonrpc: '2.0', id: 'f' + i, method: 'tools/call', params: { name: 'chart_data', arguments: {} } }, '*');
        await done;
        return { posted: action.count };
      }
      case 'flood-calls': quiet = true; for (let i = 0; i < action.count; i++) send({ id: 'c' + i, method: 'tools/call', params: { name: 'chart_data', arguments: {} } }); return { flooded: action.count };
      case 'flood': quiet = true; for (let i = 0; i < action.count; i++) send({ id: 'f' + i, method: 'ping' }); return { flooded: action.count };
      case 'summary': {
        // Reported through a request (retried while rate-limited): log notifications may be dropped after a flood.
        const summary = { answered: collected.length, pongs: collected.filter((m) => m.result !== undefined).length, errors: [...new Set(collected.filter((m) => m.error).map((m) => m.error.message))] };
        return act({ do: 'request', method: 'ui/update-model-context', params: { structuredContent: summary }, retry: true });
      }
      case 'isolation': return [
        attempt('top-canary', () => window.top.__mcpCanary),
        attempt('parent-document', () => window.parent.document.title),
        attempt('cookie', () => document.cookie),
        attempt('localStorage', () => window.localStorage.getItem('mcp-canary')),
        attempt('indexedDB', () => { window.indexedDB.open('mcp-canary'); return 'opened'; }),
        attempt('top-navigation', () => { window.top.location.href = 'https://example.invalid/'; return 'navigated'; }),
        attempt('popup', () => { const w = window.open('https://example.invalid/'); return w ? 'opened' : 'blocked'; }),
      ];
      case 'dynamic': {
        const before = violations.length;
        const out = {};
        try { out.eval = eval('6 * 7'); } catch (e) { out.eval = e.name; }
        try { out.function = new Function('return 43')(); } catch (e) { out.function = e.name; }
        out.blobScript = await new Promise((resolve) => {
          const s = document.createElement('script');
          s.src = URL.createObjectURL(new Blob(['window.__blobScript = 44;'], { type: 'text/javascript' }));
          s.onload = () => resolve(window.__blobScript);
          s.onerror = () => resolve('blocked');
          document.head.append(s);
        });
        out.worker = await new Promise((resolve) => {
          try {
            const w = new Worker(URL.createObjectURL(new Blob(['postMessage(45)'], { type: 'text/javascript' })));
            w.onmessage = (e) => { resolve(e.data); w.terminate(); };
            w.onerror = () => resolve('blocked');
          } catch (e) { resolve(e.name); }
        });
        await new Promise((r) => setTimeout(r, 50));
        out.violations = violations.slice(before);
        return out;
      }
      case 'worker-net': {
        // A blob: worker (allowed by worker-src) tries the network itself: fetch, importScripts, EventSource, a nested blob: worker's fetch.
        const code = 'const u = ' + JSON.stringify(action.url) + '; const out = {};' +
          'const t = (name, run) => Promise.resolve().then(run).then(() => { out[name] = "reached"; }, (e) => { out[name] = "failed " + e.name; });' +
          'Promise.all([t("fetch", () => fetch(u + "-fetch", { cache: "no-store" })), t("importScripts", () => importScripts(u + "-import")),' +
          't("eventSource", () => new Promise((res, rej) => { const es = new EventSource(u + "-sse"); es.onopen = () => { es.close(); res(); }; es.onerror = () => { es.close(); rej(new Error("e")); }; })),' +
          't("nested", () => new Promise((res, rej) => { const w = new Worker(URL.createObjectURL(new Blob(["fetch(" + JSON.stringify(u + "-nested") + ", { cache: \\"no-store\\" }).then(() => postMessage(1), () => postMessage(0))"], { type: "text/javascript" }))); w.onmessage = (e) => (e.data ? res() : rej(new Error("e"))); w.onerror = () => rej(new Error("e")); }))])' +
          '.then(() => postMessage(out));';
        return new Promise((resolve) => {
          try {
            const w = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
            w.onmessage = (e) => { resolve(e.data); w.terminate(); };
            w.onerror = (e) => resolve({ workerError: String(e.message) });
          } catch (e) { resolve({ worker: e.name }); }
        });
      }
      case 'fetch': {
        const before = violations.length;
        let outcome;
        try { const r = await fetch(action.url, { cache: 'no-store' }); outcome = 'status ' + r.status; } catch (e) { outcome = 'failed ' + e.name; }
        await new Promise((r) => setTimeout(r, 50));
        return { outcome, violations: violations.slice(before) };
      }
    }
    return { unknown: action.do };
  }
  window.addEventListener('message', async (event) => {
    if (event.source !== window.parent) return;
    const m = event.data;
    if (!m || typeof m !== 'object') return;
    if (m.method === undefined && pending.has(m.id)) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.error) p.reject(m.error); else p.resolve(m.result);
      return;
    }
    if (m.method === undefined) { if (quiet) collected.push(m); else log({ unmatched: m }); return; }
    log({ received: m.method, params: m.params, id: m.id });
    if (m.id !== undefined) send({ id: m.id, result: {} });
    if (m.method === 'ui/notifications/tool-input' && m.params && Array.isArray(m.params.arguments && m.params.arguments.actions)) {
      const actions = m.params.arguments.actions;
      for (let i = 0; i < actions.length; i++) log({ action: i, outcome: await act(actions[i]) });
      log({ done: actions.length });
    }
  });
  new ResizeObserver(() => send({ method: 'ui/notifications/size-changed', params: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight } })).observe(document.documentElement);
  request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'Probe', version: '1.0.0' }, appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] } })
    .then((result) => { log({ initialized: result }); send({ method: 'ui/notifications/initialized', params: {} }); })
    .catch((error) => log({ initializeFailed: error }));
})();
`;

/** The probe's resource contents, with optional `_meta.ui` and page height (CSS pixels). */
export function probeResource(ui: Record<string, unknown> = {}, height = 90): { uri: string; mimeType: string; text: string; _meta: { ui: Record<string, unknown> } } {
  return {
    uri: 'ui://test/probe.html',
    mimeType: APP_MIME_TYPE,
    text: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Probe</title><style>html,body,p{margin:0}body{height:${height}px}</style></head><body><p>Probe app</p><script>${PROBE_SCRIPT}</script></body></html>`,
    _meta: { ui },
  };
}
