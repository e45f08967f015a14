/**
 * The framework samples (React 19, Vue 3, Svelte 5), built in one go against
 * the packed mcp-web-elements that scripts/samples.mjs extracts into
 * samples/node_modules. SAMPLES_OUT_DIR: where the pages go.
 */
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

export default defineConfig({
  root,
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [
    // The one line Vue needs: the mcp-* tags are custom elements, not Vue components.
    vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('mcp-') } } }),
    svelte(),
  ],
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: resolve(root, process.env.SAMPLES_OUT_DIR ?? '../.cache/samples/site'),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      input: {
        react: resolve(root, 'react/index.html'),
        vue: resolve(root, 'vue/index.html'),
        svelte: resolve(root, 'svelte/index.html'),
      },
    },
  },
  preview: { host: '127.0.0.1', strictPort: true },
});
