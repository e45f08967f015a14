/**
 * The demo server's MCP App (spec: ext-apps): `show_chart` renders an
 * interactive bar chart. Its buttons call back the server through the host:
 * `chart_data` (visible to apps only, read-only: runs without asking) and
 * `save_chart_note` (apps only, overwrites a note, `destructiveHint`: the host asks the user every time).
 * The page is plain HTML with a small hand-written JSON-RPC client over
 * `postMessage`; no framework, no network (the default CSP allows none).
 */

/** The chart app's `ui://` resource. */
export const CHART_URI = 'ui://demo/chart.html';

export type Metric = 'visitors' | 'sales';

/** Deterministic demo numbers for `days` days of `metric`. */
export function chartPoints(metric: Metric, days: number): { label: string; value: number }[] {
  const base = metric === 'visitors' ? 120 : 40;
  return Array.from({ length: days }, (_, i) => ({ label: `Day ${i + 1}`, value: base + ((i * 37 + (metric === 'visitors' ? 11 : 5)) % 60) }));
}

/** The app's HTML (our own code; it runs in the host's sandbox). */
export const CHART_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Chart</title>
<style>
  :root { color-scheme: light dark; font: 14px/1.4 var(--font-sans, system-ui, sans-serif); }
  body { margin: 0; padding: 0.5rem; color: light-dark(#1b1f24, #e6edf3); background: transparent; }
  h2 { font-size: 1rem; margin: 0 0 0.5rem; }
  .bars { display: flex; align-items: flex-end; gap: 4px; height: 140px; border-bottom: 1px solid currentColor; }
  .bar { flex: 1; background: light-dark(#0a58ca, #58a6ff); min-width: 6px; }
  .labels { display: flex; gap: 4px; font-size: 11px; }
  .labels span { flex: 1; text-align: center; }
  .controls { display: flex; flex-wrap: wrap; gap: 0.4rem; margin-top: 0.6rem; }
  button { font: inherit; padding: 0.25rem 0.6rem; }
  #status { min-height: 1.4em; margin: 0.4rem 0 0; }
</style>
</head>
<body>
<h2 id="title">Waiting for data…</h2>
<div class="bars" id="bars" role="img" aria-label="Bar chart"></div>
<div class="labels" id="labels"></div>
<div class="controls">
  <button type="button" id="visitors">Visitors</button>
  <button type="button" id="sales">Sales</button>
  <button type="button" id="save">Save as note</button>
  <button type="button" id="ask">Ask about this</button>
  <button type="button" id="about">About the data</button>
</div>
<p id="status" role="status"></p>
<script>
(() => {
  let nextId = 1;
  const pending = new Map();
  const handlers = {};
  const send = (message) => window.parent.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*');
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ id, method, params });
  });
  const notify = (method, params) => send({ method, params });
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const m = event.data;
    if (!m || m.jsonrpc !== '2.0') return;
    if (m.id !== undefined && !m.method) {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error.message)); else p.resolve(m.result);
    } else if (m.method && m.id !== undefined) {
      send({ id: m.id, result: {} }); // ui/resource-teardown and anything else: acknowledged
    } else if (m.method && handlers[m.method]) handlers[m.method](m.params || {});
  });

  const $ = (id) => document.getElementById(id);
  let current = { metric: 'visitors', days: 7, points: [] };
  // Also logged to the host, which may show or record it.
  const report = (text) => notify('notifications/message', { level: 'info', logger: 'chart', data: text });
  const status = (text) => { $('status').textContent = text; if (text) report(text); };
  function draw(data) {
    current = data;
    $('title').textContent = (data.metric === 'sales' ? 'Sales' : 'Visitors') + ', last ' + data.points.length + ' days';
    const max = Math.max(1, ...data.points.map((p) => p.value));
    const bars = $('bars');
    const labels = $('labels');
    bars.replaceChildren();
    labels.replaceChildren();
    report('Drew ' + $('title').textContent);
    bars.setAttribute('aria-label', $('title').textContent + ': ' + data.points.map((p) => p.label + ' ' + p.value).join(', '));
    for (const p of data.points) {
      const bar = document.createElement('div');
      bar.className = 'bar';
      bar.style.height = Math.round((p.value / max) * 100) + '%';
      bar.title = p.label + ': ' + p.value;
      bars.append(bar);
      const label = document.createElement('span');
      label.textContent = String(p.value);
      labels.append(label);
    }
  }
  const fromResult = (result) => result && result.structuredContent && Array.isArray(result.structuredContent.points) ? result.structuredContent : undefined;
  const applyTheme = (context) => { if (context && context.theme) { document.documentElement.style.colorScheme = context.theme; document.documentElement.dataset.theme = context.theme; } };

  handlers['ui/notifications/tool-input'] = (params) => {
    const args = params.arguments || {};
    status('Loading ' + (args.metric || 'visitors') + '…');
  };
  handlers['ui/notifications/tool-result'] = (result) => {
    const data = fromResult(result);
    if (data) { draw(data); status(''); }
  };
  handlers['ui/notifications/host-context-changed'] = applyTheme;

  async function load(metric) {
    status('Asking the server for ' + metric + '…');
    try {
      const result = await request('tools/call', { name: 'chart_data', arguments: { metric, days: current.points.length || 7 } });
      const data = fromResult(result);
      if (!data) throw new Error('no data');
      draw(data);
      status('Updated: ' + metric + ' from chart_data');
      request('ui/update-model-context', { content: [{ type: 'text', text: 'The user is looking at ' + metric + ' for ' + data.points.length + ' days.' }] }).catch(() => {});
    } catch (error) { status('Could not update: ' + error.message); }
  }
  $('visitors').addEventListener('click', () => load('visitors'));
  $('sales').addEventListener('click', () => load('sales'));
  $('save').addEventListener('click', async () => {
    status('Saving…');
    try {
      const result = await request('tools/call', { name: 'save_chart_note', arguments: { metric: current.metric, total: current.points.reduce((s, p) => s + p.value, 0) } });
      status(result.content && result.content[0] ? result.content[0].text : 'Saved');
    } catch (error) { status('Not saved: ' + error.message); }
  });
  $('ask').addEventListener('click', async () => {
    try {
      await request('ui/message', { role: 'user', content: [{ type: 'text', text: 'What stands out in the ' + current.metric + ' chart?' }] });
      status('Sent to the chat.');
    } catch (error) { status('Not sent: ' + error.message); }
  });
  $('about').addEventListener('click', async () => {
    try { await request('ui/open-link', { url: 'https://example.com/mcp-web-elements/chart-data' }); status('Opened.'); }
    catch (error) { status('Not opened: ' + error.message); }
  });

  new ResizeObserver(() => notify('ui/notifications/size-changed', { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight })).observe(document.documentElement);

  request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'Demo chart', version: '1.0.0' }, appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] } })
    .then((result) => { applyTheme(result.hostContext); notify('ui/notifications/initialized', {}); })
    .catch((error) => status('The host refused the app: ' + error.message));
})();
</script>
</body>
</html>
`;
