/**
 * The docs site (`npm run docs`): VitePress over docs/, built into
 * dist/docs/ beside the hosted demo that `npm run build` writes to dist/, so
 * one static host serves the playground, the chat sample and the docs, and the
 * docs' live examples use the demo's in-browser MCP server (demo-sw.js at the
 * site's root). DOCS_BASE is the docs' path on the host (default /docs/: the
 * site at the host's root); DOCS_OUT_DIR another output folder (the
 * end-to-end test builds into its own); DOCS_MANIFEST another manifest
 * (elements.data.ts).
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vitepress';
import { demoServiceWorker, quietKnownWarnings } from '../../vite.config.js';
import { repoLinks } from './repo-links.js';
import { slugify } from './slug.js';

const root = resolve(import.meta.dirname, '../..');

const elements = ['mcp-connection', 'mcp-tool-form', 'mcp-tool-result', 'mcp-elicitation-dialog', 'mcp-app-frame', 'mcp-prompt-form', 'mcp-resource-list', 'mcp-protocol-log', 'mcp-roots-editor', 'mcp-call-history', 'mcp-host'];

export default defineConfig({
  title: 'mcp-web-elements',
  description: 'A browser-first Model Context Protocol client kit: a fetch-only client core and Lit custom elements.',
  base: process.env.DOCS_BASE ?? '/docs/',
  outDir: process.env.DOCS_OUT_DIR ? resolve(process.env.DOCS_OUT_DIR) : resolve(root, 'dist/docs'),
  // Plain .html files and links: any static host serves them, no rewrites needed.
  cleanUrls: false,
  lastUpdated: false,
  markdown: {
    // GitHub's anchors, so a docs/page.md#anchor link works on GitHub and on the site alike.
    anchor: { slugify },
    config: (md) => md.use(repoLinks),
  },
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('mcp-') } } },
  vite: {
    // `vitepress dev docs`: serve demo-sw.js at the root as `npm start` does, so live examples run there too.
    plugins: [{ ...demoServiceWorker(), apply: 'serve' }],
    // The same expected warnings as the demo's build (the elements' code is the same).
    build: { rollupOptions: { onwarn: quietKnownWarnings } },
  },
  themeConfig: {
    nav: [
      { text: 'Elements', link: '/elements' },
      { text: 'Client core', link: '/client' },
      // The hosted demo's pages, one folder up (target _self: not pages of this site's router).
      { text: 'Playground', link: '/../index.html', target: '_self' },
      { text: 'Chat sample', link: '/../chat.html', target: '_self' },
    ],
    sidebar: [
      {
        text: 'Using the kit',
        items: [
          { text: 'Overview', link: '/' },
          { text: 'The elements', link: '/elements' },
          { text: 'React, Vue and Svelte', link: '/frameworks' },
          { text: 'The client core', link: '/client' },
          { text: 'Chat UIs', link: '/chat' },
          { text: 'OAuth', link: '/oauth' },
          { text: 'The bridge', link: '/bridge' },
          { text: 'MCP Apps', link: '/apps' },
          { text: 'Tasks', link: '/tasks' },
          { text: 'Validation and patterns', link: '/validation' },
          { text: 'Testing with Playwright', link: '/testing' },
        ],
      },
      // VitePress renders a sidebar text as HTML: the tag's brackets escaped, or the browser makes it an (empty, live) element.
      { text: 'Elements', items: elements.map((tag) => ({ text: `&lt;${tag}&gt;`, link: `/elements/${tag}` })) },
      {
        text: 'The project',
        items: [
          { text: 'Security model', link: '/security' },
          { text: 'Performance', link: '/performance' },
          { text: 'Conformance', link: '/conformance' },
          { text: 'Corpus report', link: '/corpus-report' },
          { text: 'Playground and hosted demo', link: '/demo' },
          { text: 'Development', link: '/development' },
          { text: 'Architecture', link: '/architecture' },
        ],
      },
    ],
    outline: [2, 3],
    search: { provider: 'local' },
  },
});
