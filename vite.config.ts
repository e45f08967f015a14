/**
 * Vite config of the demo (`npm start` serves it, `npm run build` writes the
 * static pages to dist/). The library build is vite.lib.config.ts.
 */
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

/**
 * Two lazy imports of the core are loaded up front once the elements share the bundle (the
 * tool form previews x-mcp-header bindings; the elements entry exports the popup helper):
 * expected, so not worth a warning on every build.
 */
export function quietKnownWarnings(warning: { code?: string; message: string }, warn: (warning: { code?: string; message: string }) => void): void {
  if (warning.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && /header-bindings|auth\/popup/.test(warning.message)) return;
  warn(warning);
}

/**
 * `?csp=strict` serves a page under a Content-Security-Policy without
 * 'unsafe-eval', to see how the kit behaves on locked-down sites.
 */
function strictCspOnRequest(): Plugin {
  const policy = "script-src 'self'; object-src 'none'; base-uri 'self'";
  const apply = (server: { middlewares: { use(fn: (req: { url?: string }, res: { setHeader(name: string, value: string): void }, next: () => void) => void): unknown } }): void => {
    // No return value: a function returned from these hooks would run as a post-hook.
    server.middlewares.use((req, res, next) => {
      if (req.url && /[?&]csp=strict\b/.test(req.url)) res.setHeader('Content-Security-Policy', policy);
      next();
    });
  };
  return { name: 'strict-csp-on-request', configureServer: apply, configurePreviewServer: apply };
}

export default defineConfig({
  root: resolve(import.meta.dirname, 'demo'),
  base: './',
  publicDir: false,
  plugins: [strictCspOnRequest()],
  build: {
    // DEMO_OUT_DIR: the end-to-end run builds into a folder of its own.
    outDir: resolve(import.meta.dirname, process.env.DEMO_OUT_DIR ?? 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      onwarn: quietKnownWarnings,
      input: {
        index: resolve(import.meta.dirname, 'demo/index.html'),
        chat: resolve(import.meta.dirname, 'demo/chat.html'),
        sandbox: resolve(import.meta.dirname, 'demo/sandbox.html'),
        'oauth-callback': resolve(import.meta.dirname, 'demo/oauth-callback.html'),
      },
    },
  },
  server: { host: '127.0.0.1', port: Number(process.env.DEMO_PORT ?? 5173), strictPort: true },
  preview: { host: '127.0.0.1', port: Number(process.env.DEMO_PORT ?? 5173), strictPort: true },
});
