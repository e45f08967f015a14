/**
 * End-to-end tests: the built demo pages in real Chromium against the real demo
 * MCP server. Chromium is Debian's /usr/bin/chromium when installed, else
 * Playwright's own (see scripts/browser.ts).
 */
import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { chromiumLaunchOptions } from './scripts/browser.js';

/**
 * The servers' ports: free ones picked when the run starts (never fixed, so two runs on one
 * machine do not collide), kept in the environment so Playwright's worker processes, which
 * load this file again, agree with the runner. `E2E_*_PORT` pins one.
 */
function port(name: string): number {
  const fromEnv = process.env[name];
  if (fromEnv) return Number(fromEnv);
  const picked = execFileSync(process.execPath, [
    '-e',
    "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ], { encoding: 'utf8' });
  process.env[name] = picked;
  return Number(picked);
}

const serverPort = port('E2E_SERVER_PORT');
const pagePort = port('E2E_PAGE_PORT');
const protectedPort = port('E2E_PROTECTED_PORT');
const authPort = port('E2E_AUTH_PORT');
const everythingPort = port('E2E_EVERYTHING_PORT');
const samplesPort = port('E2E_SAMPLES_PORT');
const strictLegacyPort = port('E2E_STRICT_LEGACY_PORT');
/** The official MCP Apps example servers (`@modelcontextprotocol/server-*`), each on its own port. */
const officialAppPorts = {
  'basic-vanillajs': port('E2E_APP_VANILLA_PORT'),
  threejs: port('E2E_APP_THREEJS_PORT'),
  'system-monitor': port('E2E_APP_SYSMON_PORT'),
  'cohort-heatmap': port('E2E_APP_COHORT_PORT'),
};
/** The built pages of this run (its own folder: a run in the same checkout may be building too). */
const siteDir = `.cache/e2e-site/${pagePort}`;
export const e2eServerUrl = `http://127.0.0.1:${serverPort}/mcp`;
/** The protected demo (OAuth with oidc-provider); access tokens live 6 s so refresh happens during the test. */
export const e2eProtectedUrl = `http://127.0.0.1:${protectedPort}/mcp`;
/** The demo server's endpoint that needs `Authorization: Bearer <e2ePrivateToken>`. */
export const e2ePrivateUrl = `http://127.0.0.1:${serverPort}/private/mcp`;
export const e2ePrivateToken = 'e2e-bearer-2b7f';
/** The built demo (no server baked in: with no `?server=` its pages use the demo server inside the browser). */
export const e2eSiteDir = siteDir;
/** A legacy (2025-11-25) server: the reference server-everything over Streamable HTTP. */
export const e2eEverythingUrl = `http://127.0.0.1:${everythingPort}/mcp`;
/** The React, Vue and Svelte samples built against the packed package (scripts/samples.mjs). */
export const e2eSamplesUrl = `http://127.0.0.1:${samplesPort}`;
/** A legacy (2025-11-25) server (official SDK) whose CORS allows only the legacy handshake's headers. */
export const e2eStrictLegacyUrl = `http://127.0.0.1:${strictLegacyPort}/mcp`;
/** The official MCP Apps example servers in their Streamable HTTP mode, by name (`server-<name>`). */
export const e2eOfficialAppUrls = Object.fromEntries(Object.entries(officialAppPorts).map(([name, p]) => [name, `http://127.0.0.1:${p}/mcp`])) as Record<keyof typeof officialAppPorts, string>;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${pagePort}`,
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
    trace: 'retain-on-failure',
    viewport: { width: 1280, height: 900 },
  },
  webServer: [
    {
      // First, and listening at once: it packs, type-checks and builds the framework samples while
      // the servers below start; its requests wait for that (e2e/samples.spec.ts).
      command: `node scripts/samples.mjs --out .cache/samples/${samplesPort} --serve ${samplesPort}`,
      port: samplesPort,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `node node_modules/tsx/dist/cli.mjs demo/server/main.ts --port ${serverPort} --private-token ${e2ePrivateToken}`,
      port: serverPort,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `node node_modules/tsx/dist/cli.mjs demo/server/protected.ts --port ${protectedPort} --auth-port ${authPort} --token-ttl 6 --coop`,
      port: protectedPort,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `node node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp`,
      port: everythingPort,
      env: { PORT: String(everythingPort) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `node node_modules/tsx/dist/cli.mjs e2e/servers/legacy-strict-cors.ts --port ${strictLegacyPort}`,
      port: strictLegacyPort,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    // The official MCP Apps examples as their READMEs run them over HTTP (`main.ts` without
    // --stdio): PORT in the environment is how they take a port.
    ...Object.entries(officialAppPorts).map(([name, appPort]) => ({
      command: `node node_modules/@modelcontextprotocol/server-${name}/dist/index.js`,
      port: appPort,
      env: { PORT: String(appPort) },
      reuseExistingServer: false,
      timeout: 30_000,
    })),
    {
      // The built pages, as a static host serves them: the hosted demo's build (tests name the server with ?server=).
      command: `node node_modules/vite/bin/vite.js build --logLevel warn && node node_modules/vite/bin/vite.js preview --port ${pagePort} --strictPort`,
      port: pagePort,
      env: { DEMO_PORT: String(pagePort), DEMO_OUT_DIR: siteDir },
      reuseExistingServer: false,
      timeout: 90_000,
    },
  ],
});
