/**
 * Cold page load (issue 30): the one-form page a web developer builds — the full kit's bundle
 * (bench/entries/full-kit.ts, as the size section built it: the core and the elements) with
 * `<mcp-connection server-url=…><mcp-tool-form tool-name="echo">` — against a page of native
 * inputs for the same tool that also fetches `tools/list` from the same server (so both pay the
 * network), in headless Chromium throttled to a mid-range phone: CPU ×4 slower
 * (`Emulation.setCPUThrottlingRate`), Lighthouse's Slow 4G (150 ms round trip, 1.6 Mbps down,
 * 750 Kbps up: `Network.emulateNetworkConditions`), cache disabled, a new browser context per load.
 * Timed from navigation start (the page's time origin) to the form's first input in the DOM and
 * enabled, seen by a `requestAnimationFrame` probe both pages get. The page and scripts are served
 * gzipped, as a production server sends them; the MCP server is the official SDK
 * (bench/echo-server.ts) on another loopback origin, so CORS preflights apply.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright';
import { spawnServer } from './child.js';
import { round, spread, type Spread } from './stats.js';
import { closeServer } from '../test/support/http.js';

export interface ColdPlan {
  /** Loads of each page, alternating which goes first. */
  rounds: number;
}

export const COLD_PROFILE = { cpuSlowdown: 4, latencyMs: 150, downloadKbps: 1600, uploadKbps: 750 } as const;

export interface ColdResult {
  plan: ColdPlan;
  profile: typeof COLD_PROFILE;
  /** Navigation start → first input in the DOM and enabled, in ms: median, IQR, p95 over the loads. */
  kitMs: Spread;
  nativeMs: Spread;
  /** kit ÷ native per round (the two loads of a round back to back). */
  ratios: Spread;
  /** Bytes the kit page transferred (gzip, as served), and its script files. */
  kitBytes: number;
  kitFiles: number;
}

/** Serves `root` gzipped (GET only); counts bytes sent per path prefix. */
async function gzipStatic(root: string): Promise<{ url: string; sent: Map<string, number>; close(): Promise<void> }> {
  const cache = new Map<string, Buffer>();
  const sent = new Map<string, number>();
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };
  const http: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, path);
    const known = cache.get(file);
    const send = (body: Buffer) => {
      sent.set(path, body.length);
      res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Content-Encoding': 'gzip', 'Cache-Control': 'no-store' });
      res.end(body);
    };
    if (known) return send(known);
    readFile(file).then(
      (data) => {
        const body = gzipSync(data, { level: 9 });
        cache.set(file, body);
        send(body);
      },
      () => res.writeHead(404).end(),
    );
  });
  const port = await new Promise<number>((resolve) => http.listen(0, '127.0.0.1', () => resolve((http.address() as AddressInfo).port)));
  return { url: `http://127.0.0.1:${port}/`, sent, close: () => closeServer(http) };
}

const KIT_PAGE = (server: string) => `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Echo</title>
<script type="module" src="/full-kit/full-kit.js"></script>
<h1>Echo</h1>
<mcp-connection server-url="${server}" protocol="modern"><mcp-tool-form tool-name="echo"></mcp-tool-form></mcp-connection>
</html>
`;

/** Native inputs for the tool, from the same server's `tools/list` (a JSON-RPC POST, as a hand-written page would). */
const NATIVE_PAGE = (server: string) => `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Echo</title>
<h1>Echo</h1>
<form id="f"></form>
<script type="module">
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const response = await fetch(${JSON.stringify(server)}, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }),
});
const tool = (await response.json()).result.tools.find((t) => t.name === 'echo');
const form = document.getElementById('f');
for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
  const label = document.createElement('label');
  label.textContent = name;
  const input = document.createElement('input');
  input.name = name;
  input.required = (tool.inputSchema.required ?? []).includes(name);
  label.append(input);
  form.append(label);
}
const submit = document.createElement('button');
submit.textContent = 'Call';
form.append(submit);
</script>
</html>
`;

/** Both pages get it: the first frame with an enabled input (in the form's shadow root for the kit). */
const PROBE = `(() => {
  const probe = () => {
    const form = document.querySelector('mcp-tool-form');
    const root = form ? form.shadowRoot : document;
    if (root && root.querySelector('input:enabled, textarea:enabled')) window.__inputReady = performance.now();
    else requestAnimationFrame(probe);
  };
  requestAnimationFrame(probe);
})();`;

async function load(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(PROBE);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: COLD_PROFILE.latencyMs,
      downloadThroughput: (COLD_PROFILE.downloadKbps * 1000) / 8,
      uploadThroughput: (COLD_PROFILE.uploadKbps * 1000) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: COLD_PROFILE.cpuSlowdown });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => (window as { __inputReady?: number }).__inputReady !== undefined, undefined, { polling: 200, timeout: 120_000 });
    return await page.evaluate(() => (window as unknown as { __inputReady: number }).__inputReady);
  } finally {
    await context.close();
  }
}

/** `www` must hold the full kit built by the size section (`www/full-kit/`). */
export async function measureCold(browser: Browser, www: string, plan: ColdPlan, log: (line: string) => void): Promise<ColdResult> {
  const { writeFile } = await import('node:fs/promises');
  const mcp = await spawnServer('echo-server.ts', [], (line) => {
    if (!line.startsWith("responseMode: 'json'")) process.stderr.write(`echo-server: ${line}\n`);
  });
  const files = await gzipStatic(www);
  try {
    const server = mcp.urls[0]!;
    await writeFile(join(www, 'cold-kit.html'), KIT_PAGE(server));
    await writeFile(join(www, 'cold-native.html'), NATIVE_PAGE(server));
    // One unmeasured load each: the server's first answers and the gzip cache.
    await load(browser, `${files.url}cold-kit.html`);
    await load(browser, `${files.url}cold-native.html`);
    const kit: number[] = [];
    const native: number[] = [];
    for (let r = 0; r < plan.rounds; r++) {
      const order = r % 2 === 0 ? (['kit', 'native'] as const) : (['native', 'kit'] as const);
      for (const name of order) (name === 'kit' ? kit : native).push(await load(browser, `${files.url}cold-${name}.html`));
    }
    const kitFiles = [...files.sent.keys()].filter((p) => p.startsWith('/full-kit/'));
    const kitBytes = kitFiles.reduce((sum, p) => sum + files.sent.get(p)!, 0) + (files.sent.get('/cold-kit.html') ?? 0);
    const result: ColdResult = {
      plan,
      profile: COLD_PROFILE,
      kitMs: spread(kit, 0),
      nativeMs: spread(native, 0),
      ratios: spread(kit.map((k, i) => k / native[i]!), 2),
      kitBytes,
      kitFiles: kitFiles.length,
    };
    log(`  kit ${result.kitMs.median} ms [${result.kitMs.p25}–${result.kitMs.p75}] (${kitFiles.length} script files, ${round(kitBytes / 1024, 1)} KiB gzip), native ${result.nativeMs.median} ms [${result.nativeMs.p25}–${result.nativeMs.p75}]; kit ÷ native ${result.ratios.median} [${result.ratios.p25}–${result.ratios.p75}]`);
    return result;
  } finally {
    await files.close();
    await mcp.close();
  }
}
