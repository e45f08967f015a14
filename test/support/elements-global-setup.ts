/**
 * Starts the real servers the element tests talk to (in Node, before the
 * browser tests run) and hands their URLs to the tests through `inject`:
 * - `demoServerUrl`: the demo MCP server (official SDK, 2026-07-28);
 * - `demoPrivateUrl`: the same server's endpoint that needs `Authorization:
 *   Bearer <demoPrivateToken>`;
 * - `corsBrokenServerUrl`: the same server with `Mcp-Method` left out of its
 *   CORS allow-list, for the CORS doctor;
 * - `protectedServerUrl`: the protected demo (oidc-provider, sign-in approved
 *   without a page, COOP on the authorization server), for the OAuth pieces;
 * - `secondOriginUrl`: a plain loopback server on another origin than the test
 *   page, serving the MCP Apps sandbox proxy (`/sandbox.html`, built here from
 *   components/mcp-app-frame/sandbox-proxy.ts) and counting requests to
 *   `/hit/<name>` (readable at `/hits`), for the isolation tests;
 * - `urlElicitationServerUrl`: a legacy SDK server answering `-32042` URL
 *   elicitation required until its consent page was visited;
 * - `wireLab`: servers behind particular CORS configurations and redirects
 *   (`wire-lab.ts`), for CORS diagnosis, era fallback and redirect tests;
 * - `hostileServerUrl`, `hugeServerUrl`: a raw server that floods rounds with
 *   input requests and sends megabytes of names (issue 19; hostile-server.ts);
 * - `openAiStandInUrl`: a local OpenAI-compatible endpoint (its API base; scripted over
 *   HTTP, openai-stand-in.ts), the page's model for sampling drafts.
 * - `toolServers`: two official-SDK servers, `alpha` and `beta` (host-servers.ts), that
 *   both have `echo` and `ask` (a form elicitation) and name themselves in their
 *   answers, for `<mcp-host>`.
 */
import type { TestProject } from 'vitest/node';

export default async function setup(project: TestProject) {
  const { startDemoServer } = await import('../../demo/server/server.js');
  const demo = await startDemoServer({ port: 0, privateToken: 'element-tests-s3cret' });
  const corsBroken = await startDemoServer({ port: 0, withholdCorsHeaders: ['mcp-method'] });
  project.provide('demoServerUrl', demo.url);
  project.provide('demoPrivateUrl', demo.privateUrl!);
  project.provide('demoPrivateToken', 'element-tests-s3cret');
  project.provide('corsBrokenServerUrl', corsBroken.url);
  const { startProtectedDemo } = await import('../../demo/server/protected.js');
  const protectedDemo = await startProtectedDemo({ port: 0, authPort: 0, autoApprove: true, coop: true });
  project.provide('protectedServerUrl', protectedDemo.url);
  const { startSecondOrigin } = await import('./second-origin.js');
  const second = await startSecondOrigin();
  project.provide('secondOriginUrl', second.url);
  const { startUrlElicitationServer } = await import('./url-elicitation-server.js');
  const urlElicitation = await startUrlElicitationServer();
  project.provide('urlElicitationServerUrl', urlElicitation.url);
  const { startWireLab } = await import('./wire-lab.js');
  const lab = await startWireLab();
  const { close: _close, ...urls } = lab;
  project.provide('wireLab', urls);
  const { startHostileServer } = await import('./hostile-server.js');
  const hostile = await startHostileServer();
  project.provide('hostileServerUrl', hostile.url);
  project.provide('hugeServerUrl', hostile.hugeUrl);
  const { startToolServer, withAsk } = await import('./host-servers.js');
  const toolServers = await Promise.all(['alpha', 'beta'].map((label) => startToolServer(label, withAsk(label), { allowHeaders: 'reflect' })));
  project.provide('toolServers', { alpha: toolServers[0]!.url, beta: toolServers[1]!.url });
  const { startOpenAiStandIn } = await import('./openai-stand-in.js');
  const standIn = await startOpenAiStandIn();
  project.provide('openAiStandInUrl', standIn.baseUrl);
  return async () => {
    await standIn.close();
    await Promise.all(toolServers.map((server) => server.close()));
    await second.close();
    await urlElicitation.close();
    await lab.close();
    await demo.close();
    await corsBroken.close();
    await protectedDemo.close();
    await hostile.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    demoServerUrl: string;
    demoPrivateUrl: string;
    demoPrivateToken: string;
    corsBrokenServerUrl: string;
    protectedServerUrl: string;
    secondOriginUrl: string;
    urlElicitationServerUrl: string;
    wireLab: Omit<import('./wire-lab.js').WireLab, 'close'>;
    hostileServerUrl: string;
    hugeServerUrl: string;
    openAiStandInUrl: string;
    toolServers: { alpha: string; beta: string };
  }
}
