/**
 * VitePress data loader: the element pages' API tables, read from
 * dist/custom-elements.json at build time (and again when it changes under
 * `vitepress dev`). DOCS_MANIFEST names another manifest (the end-to-end test
 * makes its own rather than touch dist/).
 */
import { resolve } from 'node:path';
import { readElementApis, type ElementApi } from './manifest.js';

const manifestPath = process.env.DOCS_MANIFEST ? resolve(process.env.DOCS_MANIFEST) : resolve(import.meta.dirname, '../../dist/custom-elements.json');

export type { ElementApi };
declare const data: Record<string, ElementApi>;
export { data };

export default {
  watch: [manifestPath],
  load: (): Record<string, ElementApi> => readElementApis(manifestPath),
};
