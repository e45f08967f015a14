/**
 * Library build (`npm run build:lib`): ES modules for each public entry, with the
 * dependencies left to the consumer's bundler. Declarations come from
 * `tsc -p tsconfig.types.json`; the self-contained copy for pages without a
 * bundler from vite.cdn.config.ts (scripts/build-lib.mjs runs them all).
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import packageJson from './package.json' with { type: 'json' };
import { quietKnownWarnings } from './vite.config.js';

const root = import.meta.dirname;
const external = [...Object.keys(packageJson.dependencies ?? {}), ...Object.keys(packageJson.peerDependencies ?? {})];

/**
 * The entries a page can load, by output name (`dist/lib/<name>.js`, and
 * `dist/cdn/<name>.js` in the self-contained build): each is a package.json
 * `exports` target. test/package.test.ts checks the two lists agree.
 */
export const browserEntries: Record<string, string> = {
  index: resolve(root, 'src/index.ts'),
  'app-frame': resolve(root, 'components/mcp-app-frame/mcp-app-frame.ts'),
  'app-sandbox': resolve(root, 'components/mcp-app-frame/sandbox-proxy.ts'),
  auth: resolve(root, 'src/auth/index.ts'),
  host: resolve(root, 'src/host/index.ts'),
  'ai-sdk': resolve(root, 'src/adapters/ai-sdk.ts'),
  anthropic: resolve(root, 'src/adapters/anthropic.ts'),
  openai: resolve(root, 'src/adapters/openai.ts'),
  'auth-callback': resolve(root, 'components/auth/callback.ts'),
  cfworker: resolve(root, 'src/cfworker.ts'),
  elements: resolve(root, 'components/index.ts'),
  'host-element': resolve(root, 'components/mcp-host/mcp-host.ts'),
  inspector: resolve(root, 'components/inspector.ts'),
  'prompt-form': resolve(root, 'components/mcp-prompt-form/mcp-prompt-form.ts'),
  'resource-list': resolve(root, 'components/mcp-resource-list/mcp-resource-list.ts'),
  'protocol-log': resolve(root, 'components/mcp-protocol-log/mcp-protocol-log.ts'),
  'roots-editor': resolve(root, 'components/mcp-roots-editor/mcp-roots-editor.ts'),
};

/** Entries for Node only: never in the self-contained browser build. */
export const nodeEntries: Record<string, string> = {
  // `bin/mcp-web-elements.js`: the stdio bridge.
  bridge: resolve(root, 'bridge/index.ts'),
  // Test helpers for Playwright (`mcp-web-elements/playwright`).
  playwright: resolve(root, 'e2e/helpers/index.ts'),
};

export default defineConfig({
  publicDir: false,
  build: {
    outDir: resolve(root, 'dist/lib'),
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    sourcemap: true,
    lib: {
      entry: { ...browserEntries, ...nodeEntries },
      formats: ['es'],
    },
    rollupOptions: {
      onwarn: quietKnownWarnings,
      // Node built-ins (the bridge's) stay imports, never browser stubs.
      external: (id) => id.startsWith('node:') || external.some((name) => id === name || id.startsWith(`${name}/`)),
      output: { chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
