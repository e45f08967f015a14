/**
 * What the rest of the kit needs to know about MCP Apps without loading
 * `<mcp-app-frame>` (spec: ext-apps "Resource Discovery" and "Client<>Server
 * Capability Negotiation"): the extension id, the MIME type, a tool's UI
 * resource and visibility, and page-wide defaults for the frames. Small on
 * purpose: `<mcp-tool-result>` imports it eagerly and loads the frame itself only
 * when a tool has a UI.
 *
 * @module
 */
import type { McpClient, Tool } from '../../src/index.js';

/** The MCP Apps extension identifier. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP App's HTML resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** Who may call a tool: the model, the app, or both (the default). */
export type AppVisibility = 'model' | 'app';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The `ui://` resource a tool renders with: `_meta.ui.resourceUri`, or the
 * deprecated flat `_meta["ui/resourceUri"]`. `undefined` when the tool has none
 * or it is not a `ui://` URI.
 */
export function appResourceUri(tool: Tool | undefined): string | undefined {
  const meta = tool?._meta;
  if (!isRecord(meta)) return undefined;
  const ui = meta.ui;
  const uri = isRecord(ui) && typeof ui.resourceUri === 'string' ? ui.resourceUri : meta['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

/**
 * The tool's `_meta.ui.visibility`; `["model", "app"]` when absent. A value that
 * is not a list of those words counts as absent.
 */
export function appVisibility(tool: Tool): AppVisibility[] {
  const ui = isRecord(tool._meta) ? tool._meta.ui : undefined;
  const visibility = isRecord(ui) ? ui.visibility : undefined;
  if (Array.isArray(visibility) && visibility.every((v) => v === 'model' || v === 'app')) return visibility as AppVisibility[];
  return ['model', 'app'];
}

/** Page-wide defaults of every `<mcp-app-frame>` (including those `<mcp-tool-result>` creates). */
export interface AppFrameDefaults {
  /**
   * URL of the sandbox proxy page on another origin (the double-iframe
   * architecture, `mcp-web-elements/app-sandbox`). Unset: apps run in one
   * sandboxed iframe with an opaque origin.
   */
  sandboxUrl?: string;
  /** Permissions the page lets apps have when they ask (`camera`, `microphone`, `geolocation`, `clipboard-write`). */
  allowPermissions?: string[];
  /** Font CSS apps get as `styles.css.fonts` (`@font-face` or `@import` rules of the page's fonts); default none. */
  fonts?: string;
}

/** The current defaults (read by each frame when it loads an app). */
export const appFrameDefaults: AppFrameDefaults = {};

/** Sets page-wide defaults for `<mcp-app-frame>` elements, e.g. the sandbox proxy URL. */
export function configureAppFrames(defaults: AppFrameDefaults): void {
  if ('sandboxUrl' in defaults) appFrameDefaults.sandboxUrl = defaults.sandboxUrl;
  if ('fonts' in defaults) appFrameDefaults.fonts = defaults.fonts;
  if ('allowPermissions' in defaults) appFrameDefaults.allowPermissions = defaults.allowPermissions ? [...defaults.allowPermissions] : undefined;
}

/**
 * Declares MCP Apps support on `client` (the `io.modelcontextprotocol/ui`
 * extension with the HTML MIME type) until the returned function is called.
 * Every `<mcp-app-frame>` does this while it is on the page; call it yourself
 * (or set `apps` on `<mcp-connection>`) so that servers which list their app
 * tools only to such clients list them before any frame exists.
 */
export function declareAppSupport(client: McpClient): () => void {
  return client.declareExtension(UI_EXTENSION, { mimeTypes: [APP_MIME_TYPE] });
}
