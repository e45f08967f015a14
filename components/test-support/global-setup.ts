/**
 * Starts the real servers the element tests talk to (in Node, before the
 * browser tests run) and hands their URLs to the tests through `inject`.
 */
import type { TestProject } from 'vitest/node';

export default async function setup(project: TestProject) {
  const { startDemoServer } = await import('../../demo/server/server.js');
  const demo = await startDemoServer({ port: 0 });
  project.provide('demoServerUrl', demo.url);
  return async () => {
    await demo.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    demoServerUrl: string;
  }
}
