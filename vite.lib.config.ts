/**
 * Library build (`npm run build`): ES modules for each public entry, with the
 * dependencies left to the consumer's bundler. Declarations come from
 * `tsc -p tsconfig.types.json`.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import packageJson from './package.json' with { type: 'json' };
import { quietKnownWarnings } from './vite.config.js';

const root = import.meta.dirname;
const external = [...Object.keys(packageJson.dependencies ?? {}), ...Object.keys(packageJson.peerDependencies ?? {})];

export default defineConfig({
  publicDir: false,
  build: {
    outDir: resolve(root, 'dist/lib'),
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    sourcemap: true,
    lib: {
      entry: {
        index: resolve(root, 'src/index.ts'),
        'app-frame': resolve(root, 'components/mcp-app-frame/mcp-app-frame.ts'),
        'app-sandbox': resolve(root, 'components/mcp-app-frame/sandbox-proxy.ts'),
        auth: resolve(root, 'src/auth/index.ts'),
        'auth-callback': resolve(root, 'components/auth/callback.ts'),
        cfworker: resolve(root, 'src/cfworker.ts'),
        elements: resolve(root, 'components/index.ts'),
        // Node only (`bin/mcp-web-elements.js`): the stdio bridge.
        bridge: resolve(root, 'bridge/index.ts'),
        inspector: resolve(root, 'components/inspector.ts'),
        'prompt-form': resolve(root, 'components/mcp-prompt-form/mcp-prompt-form.ts'),
        'resource-list': resolve(root, 'components/mcp-resource-list/mcp-resource-list.ts'),
        'protocol-log': resolve(root, 'components/mcp-protocol-log/mcp-protocol-log.ts'),
        'roots-editor': resolve(root, 'components/mcp-roots-editor/mcp-roots-editor.ts'),
        playwright: resolve(root, 'e2e/helpers/index.ts'),
      },
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
