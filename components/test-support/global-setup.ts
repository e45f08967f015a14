/**
 * Starts the real servers the element tests talk to (in Node, before the
 * browser tests run) and hands their URLs to the tests through `inject`:
 * - `demoServerUrl`: the demo MCP server (official SDK, 2026-07-28);
 * - `corsBrokenServerUrl`: the same server with `Mcp-Method` left out of its
 *   CORS allow-list, for the CORS doctor.
 */
import type { TestProject } from 'vitest/node';

export default async function setup(project: TestProject) {
  const { startDemoServer } = await import('../../demo/server/server.js');
  const demo = await startDemoServer({ port: 0 });
  const corsBroken = await startDemoServer({ port: 0, withholdCorsHeaders: ['mcp-method'] });
  project.provide('demoServerUrl', demo.url);
  project.provide('corsBrokenServerUrl', corsBroken.url);
  return async () => {
    await demo.close();
    await corsBroken.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    demoServerUrl: string;
    corsBrokenServerUrl: string;
  }
}
