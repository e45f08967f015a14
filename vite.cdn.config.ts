/**
 * The self-contained build for pages without a bundler (`dist/cdn/`, part of
 * `npm run build:lib`): one ES module per browser entry of package.json
 * `exports` (vite.lib.config.ts `browserEntries`), Lit and every other
 * dependency inlined, so that
 *
 * ```html
 * <script type="module" src="https://unpkg.com/mcp-web-elements@0/dist/cdn/elements.js"></script>
 * ```
 *
 * works with no import map. One build for all the entries, so that a page that
 * loads two of them (elements.js and inspector.js) shares one copy of Lit and
 * of the core through their common chunks. Code-split as the library build:
 * what the elements load on demand (their parts, the validator, the legacy
 * era, OAuth…) stays in chunks of its own, imported by relative URL, so it
 * loads from wherever elements.js came from.
 *
 * The validator: ajv, as in every other build. Rolldown converts its CommonJS
 * to ES modules here as it does in any app build of the kit (the demo's); under
 * a Content-Security-Policy without 'unsafe-eval' the kit loads
 * @cfworker/json-schema instead (src/schema/eval-policy.ts), also a chunk here.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { browserEntries } from './vite.lib.config.js';
import { quietKnownWarnings } from './vite.config.js';

const root = import.meta.dirname;

export default defineConfig({
  publicDir: false,
  // Lit's production build (its exports' `production` condition, not `development`), whatever
  // NODE_ENV the build was started under; libraries that check NODE_ENV see production too.
  mode: 'production',
  resolve: { conditions: ['module', 'browser', 'production'] },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: resolve(root, 'dist/cdn'),
    emptyOutDir: true,
    target: 'es2022',
    // Served as is to browsers: minified, unlike dist/lib which the consumer's bundler minifies.
    minify: true,
    // No source maps: with the inlined dependencies' sources they would be 2.7 MB of the package's
    // 3.5 MB here, for every install; dist/lib has them, for debugging through a bundler.
    sourcemap: false,
    lib: { entry: browserEntries, formats: ['es'] },
    rollupOptions: {
      onwarn: quietKnownWarnings,
      output: {
        chunkFileNames: 'chunks/[name]-[hash].js',
        // Library mode leaves ES output's whitespace and annotations for the consumer's bundler;
        // here the browser is the consumer: minify fully.
        minify: true,
        // The inlined dependencies' licence notices (Lit's BSD-3-Clause asks for them) stay.
        comments: { annotation: false, jsdoc: false, legal: true },
      },
    },
  },
});
