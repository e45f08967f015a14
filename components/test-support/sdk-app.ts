/**
 * An MCP App written with the official SDK's own `App` class
 * (`@modelcontextprotocol/ext-apps`, its self-contained `app-with-deps` build),
 * for the `<mcp-app-frame>` tests: the host is tested against the code apps are
 * written with, not only against our probe. The bundle is loaded from a `blob:`
 * module (the app CSP allows `blob:` scripts). The app reports through the
 * SDK's own `sendLog` (logger `sdk`):
 * - `{ connected: { hostVersion, hostCapabilities, hostContext } }` once connected;
 * - `{ step, ok, value | error }` for each app→host request it makes when the
 *   tool input arrives (`arguments.steps`: names of {@link SDK_STEPS});
 * - `{ step: 'requestDisplayMode', … }` when its "Picture in picture" button is clicked;
 * - `{ contextChanged }` for each `host-context-changed`, `{ teardown: true }` in `onteardown`.
 */
import bundle from '@modelcontextprotocol/ext-apps/app-with-deps?raw';
import { APP_MIME_TYPE } from '../mcp-app-frame/app-meta.js';

/** The app→host requests the SDK app makes, by the SDK's method names. */
export const SDK_STEPS = [
  'callServerTool',
  'readServerResource',
  'listServerResources',
  'sendMessage',
  'updateModelContext',
  'openLink',
  'downloadFile',
  'createSamplingMessage',
  'sendSizeChanged',
] as const;

const APP_SCRIPT = String.raw`
const { App } = await import(URL.createObjectURL(new Blob([SOURCE], { type: 'text/javascript' })));
const app = new App({ name: 'SDK app', version: '2.0.4' }, { availableDisplayModes: ['inline', 'fullscreen', 'pip'] });
const say = (data) => app.sendLog({ level: 'info', logger: 'sdk', data });
const settle = async (step, run) => {
  try { await say({ step, ok: true, value: (await run()) ?? null }); }
  catch (e) { await say({ step, ok: false, error: { code: e.code, message: String(e.message) } }); }
};
const steps = {
  callServerTool: () => app.callServerTool({ name: 'chart_data', arguments: { metric: 'sales', days: 3 } }),
  readServerResource: () => app.readServerResource({ uri: 'demo://readme' }),
  listServerResources: () => app.listServerResources(),
  sendMessage: () => app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'hello from the SDK app' }] }),
  updateModelContext: () => app.updateModelContext({ content: [{ type: 'text', text: 'the SDK app context' }] }),
  openLink: () => app.openLink({ url: 'https://example.com/sdk' }),
  downloadFile: () => app.downloadFile({ contents: [{ type: 'resource', resource: { uri: 'file:///report.csv', mimeType: 'text/csv', text: 'a,b\n1,2\n' } }] }),
  createSamplingMessage: () => app.createSamplingMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 }),
  sendSizeChanged: () => app.sendSizeChanged({ width: 300, height: 222 }),
};
app.onhostcontextchanged = (params) => { say({ contextChanged: params }); };
app.onteardown = async () => { await say({ teardown: true }); return {}; };
app.ontoolinput = async ({ arguments: args }) => {
  for (const step of (args && args.steps) || []) await settle(step, steps[step]);
  await say({ done: true });
};
document.getElementById('pip').addEventListener('click', () => settle('requestDisplayMode', () => app.requestDisplayMode({ mode: 'pip' })));
await app.connect();
await say({ connected: { hostVersion: app.getHostVersion(), hostCapabilities: app.getHostCapabilities(), hostContext: app.getHostContext() } });
`;

/** The SDK app's resource contents. */
export function sdkAppResource(): { uri: string; mimeType: string; text: string } {
  // Inside a <script>: no "</script" may appear, and JSON of the source keeps every other character as is.
  const source = JSON.stringify(bundle).replace(/</g, '\\u003c');
  return {
    uri: 'ui://test/sdk-app.html',
    mimeType: APP_MIME_TYPE,
    text: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SDK app</title><style>html,body{margin:0}body{min-height:100px}</style></head><body><button id="pip">Picture in picture</button><script type="module">const SOURCE = ${source};\n${APP_SCRIPT}</script></body></html>`,
  };
}
