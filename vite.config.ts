/**
 * Vite config of the demo (`npm start` serves it, `npm run build` writes the
 * static pages to dist/). The library build is vite.lib.config.ts.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: resolve(import.meta.dirname, 'demo'),
  base: './',
  publicDir: false,
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        index: resolve(import.meta.dirname, 'demo/index.html'),
        chat: resolve(import.meta.dirname, 'demo/chat.html'),
        'oauth-callback': resolve(import.meta.dirname, 'demo/oauth-callback.html'),
      },
    },
  },
  server: { host: '127.0.0.1', port: Number(process.env.DEMO_PORT ?? 5173), strictPort: true },
  preview: { host: '127.0.0.1', port: Number(process.env.DEMO_PORT ?? 5173), strictPort: true },
});
