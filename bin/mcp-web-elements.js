#!/usr/bin/env node
// The package's command line: `mcp-web-elements bridge [options] -- <command> [args…]`
// (README, "Local stdio servers"). The code is the built `mcp-web-elements/bridge` entry.
let bridge;
try {
  bridge = await import('../dist/lib/bridge.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('bridge.js')) throw error;
  // A clone of the repository that has not been built yet: run the source through tsx, one of its
  // dev dependencies. An installed package always has dist/.
  const tsx = await import('tsx/esm/api').catch(() => undefined);
  if (!tsx) {
    process.stderr.write('mcp-web-elements: dist/lib/bridge.js is missing; in a clone of the repository run `npm run build:lib` first\n');
    process.exit(1);
  }
  bridge = await tsx.tsImport('../bridge/index.ts', import.meta.url);
}

process.exitCode = await bridge.main(process.argv.slice(2));
