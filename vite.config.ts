/**
 * Vite config of the demo (`npm start` serves it, `npm run build` writes the
 * static pages to dist/). The library build is vite.lib.config.ts.
 */
import { resolve } from 'node:path';
import { build, defineConfig, type Plugin, type Rollup } from 'vite';

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

/**
 * The in-browser demo server (demo/src/demo-sw.ts) as one classic script,
 * `demo-sw.js`, at the site's root (its scope covers the pages and their
 * `./demo-mcp` endpoint): built into the static site, and served by the dev
 * server (rebuilt after a change of the demo server's files). A classic script
 * rather than a module worker: every browser with Service Workers runs it.
 */
export function demoServiceWorker(): Plugin {
  const entry = resolve(import.meta.dirname, 'demo/src/demo-sw.ts');
  const bundle = async (): Promise<string> => {
    const output = (await build({
      configFile: false,
      logLevel: 'warn',
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        write: false,
        minify: true,
        target: 'es2022',
        lib: { entry, formats: ['iife'], name: 'mcpDemoServer', fileName: () => 'demo-sw.js' },
      },
    })) as Rollup.RollupOutput | Rollup.RollupOutput[];
    const chunk = [output].flat().flatMap((o) => o.output).find((o): o is Rollup.OutputChunk => o.type === 'chunk');
    if (!chunk) throw new Error('The demo Service Worker built to nothing');
    return chunk.code;
  };
  let cached: Promise<string> | undefined;
  return {
    name: 'demo-service-worker',
    configureServer(server) {
      server.watcher.on('change', (file) => {
        if (file.includes('/demo/server/') || file.endsWith('demo-sw.ts') || file.endsWith('in-browser-endpoint.ts')) cached = undefined;
      });
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== '/demo-sw.js') return next();
        (cached ??= bundle()).then(
          (code) => {
            res.setHeader('Content-Type', 'text/javascript');
            res.setHeader('Cache-Control', 'no-cache');
            res.end(code);
          },
          (error: unknown) => {
            cached = undefined;
            next(error);
          },
        );
      });
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'demo-sw.js', source: await bundle() });
    },
  };
}

export default defineConfig({
  root: resolve(import.meta.dirname, 'demo'),
  base: './',
  publicDir: false,
  plugins: [strictCspOnRequest(), demoServiceWorker()],
  build: {
    // DEMO_OUT_DIR: the end-to-end run builds into a folder of its own.
    outDir: resolve(import.meta.dirname, process.env.DEMO_OUT_DIR ?? 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      onwarn: quietKnownWarnings,
      // The demo Service Worker is a whole second build inside generateBundle: slow by design, not worth a report each time.
      checks: { bundlerTimings: false },
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
