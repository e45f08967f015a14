import { consume } from '@lit/context';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { KIT_VERSION, McpError, type CallToolResult, type McpClient, type ReadResourceResult, type Resource, type Tool } from '../../src/index.js';
import { clientContext } from '../context.js';
import { defineElement } from '../define.js';
import { McpAppCloseEvent, McpAppDisplayModeEvent, McpAppLogEvent, McpAppReadyEvent, McpErrorEvent, type AppSource } from '../events.js';
import { toggleState } from '../internal/dom.js';
import { isRecord } from '../internal/json.js';
import { PageSchemeController, schemeStyles, usedScheme } from '../internal/scheme.js';
import { plainHost } from '../internal/style-blocks.js';
import { APP_MIME_TYPE, appFrameDefaults, appResourceUri, declareAppSupport } from './app-meta.js';
import { MAX_PROMPTS, PROMPT_ARM_MS, renderPrompt, type AppAnswer, type AppQuestion, type Prompt } from './app-prompts.js';
import { AppRequests, type AppToolPolicy } from './app-requests.js';
import { hostStyles } from './app-styles.js';
import { handOffForTeardown } from './app-teardown.js';
import { AppChannel, APPS_PROTOCOL_VERSION } from './channel.js';
import { allowAttribute, buildAppCsp, grantedPermissions, withCspMeta } from './csp.js';
import { styles } from './mcp-app-frame.styles.js';

export type { AppToolCall, AppToolPolicy } from './app-requests.js';

/** How the app is shown. */
export type AppDisplayMode = 'inline' | 'fullscreen' | 'pip';
const DISPLAY_MODES: readonly AppDisplayMode[] = ['inline', 'fullscreen', 'pip'];

type Status = 'idle' | 'loading' | 'ready' | 'error' | 'closed';

/** Largest HTML resource rendered, in bytes of text. */
const MAX_HTML_CHARS = 5 * 1024 * 1024;
/** How long the app gets to answer `ui/resource-teardown`, in ms. */
const TEARDOWN_WAIT_MS = 2_000;
/** Height of the frame before the app reports its size, in CSS pixels. */
const INITIAL_HEIGHT = 160;
const MIN_HEIGHT = 32;

/** Decodes base64 to UTF-8 text. */
function fromBase64(base64: string): string {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** `text/html; profile=mcp-app` and `text/html;profile=mcp-app` are the same type. */
const isAppMimeType = (mimeType: unknown) => typeof mimeType === 'string' && mimeType.replace(/\s+/g, '').toLowerCase() === APP_MIME_TYPE;

/**
 * Renders an MCP App (spec: ext-apps, `io.modelcontextprotocol/ui`): the
 * interactive HTML UI a tool declares in `_meta.ui.resourceUri`. The frame reads
 * the `ui://` resource through the client (`resources/read`), checks its MIME
 * type, and runs it in a sandbox that cannot reach the page:
 *
 * - **one iframe** (default): `sandbox="allow-scripts allow-forms"` without
 *   `allow-same-origin`, so the app has an opaque origin (no access to the page's
 *   DOM, cookies, storage or tokens; no top navigation, no popups);
 * - **two iframes** (`sandbox-url`): the spec's architecture for web hosts, a
 *   proxy page on another origin (`mcp-web-elements/app-sandbox`) that runs the app
 *   in the same opaque-origin iframe inside it.
 *
 * Either way the app document gets a Content-Security-Policy built from the
 * resource's `_meta.ui.csp` (no network without declared domains) and only the
 * `_meta.ui.permissions` the page allows (`allow-permissions`).
 *
 * The frame is the host side of the app protocol: the `ui/initialize` handshake
 * (host info, capabilities, theme, display mode, container size, locale), tool
 * input (partial, then complete) and result notifications, size changes (the
 * frame follows the app's height up to `max-height`), display modes (full screen and picture-in-picture at the app's request only right after a click in it), theme
 * changes and teardown. The app may call the server's tools that are visible to
 * apps (`_meta.ui.visibility`) through `policy`, read resources, ask to open a
 * link (the user confirms, seeing the host), add a message or update the model
 * context (cancelable events for the page's chat), and log.
 *
 * While on the page the frame declares the extension on its client
 * (`extensions` in every request's capabilities).
 *
 * @tagname mcp-app-frame
 * @summary An MCP App (a tool's interactive UI) in a sandboxed frame.
 *
 * @csspart base - The frame and its host controls.
 * @csspart header - The bar above the app: its name and display-mode buttons.
 * @csspart label - The app's name.
 * @csspart mode-button - A display-mode button (full screen, picture-in-picture, back inline).
 * @csspart viewport - The box holding the iframe.
 * @csspart iframe - The app's iframe.
 * @csspart status - Loading and closed notices.
 * @csspart error - Why the app cannot be shown.
 * @csspart prompt - A question to the user (a tool call or a link the app asks for); opens focused on Deny, scrolled into view within the page's `scroll-padding`.
 * @csspart prompt-text - The question.
 * @csspart prompt-detail - The tool's arguments or the link's full URL.
 * @csspart prompt-note - Says that only part of long arguments is shown (Allow waits until all are).
 * @csspart show-all-button - Shows long arguments in full.
 * @csspart allow-button - Allows the call or opens the link; disabled for the question's first 500 ms on screen (a click the app invited must not answer it).
 * @csspart deny-button - Refuses.
 *
 * @cssproperty --mcp-color-text - Text colour.
 * @cssproperty --mcp-color-muted-text - Secondary text.
 * @cssproperty --mcp-color-surface - Background of the bar and prompts.
 * @cssproperty --mcp-color-border - Borders.
 * @cssproperty --mcp-color-accent - Buttons and focus ring.
 * @cssproperty --mcp-color-danger - Errors.
 * @cssproperty --mcp-radius - Corner radius.
 * @cssproperty --mcp-app-frame-z-index - Stacking of the full-screen and picture-in-picture modes (default 1000).
 *
 * @cssstate loading - Reading the resource or waiting for the handshake.
 * @cssstate ready - The app finished its handshake.
 * @cssstate error - The app cannot be shown.
 * @cssstate closed - The app was torn down.
 * @cssstate asking - A question to the user is open.
 * @cssstate fullscreen - Shown over the page.
 * @cssstate pip - Shown as a floating picture-in-picture.
 *
 * @event mcp-app-ready - The handshake finished; `detail.appCapabilities`.
 * @event mcp-app-message - `ui/message` (cancelable; `preventDefault()` then `detail.respondWith()`).
 * @event mcp-app-model-context - `ui/update-model-context` (cancelable, likewise).
 * @event mcp-app-open-link - `ui/open-link` (cancelable: the page opens the link itself).
 * @event mcp-app-log - A log message from the app.
 * @event mcp-app-display-mode - The display mode changed.
 * @event mcp-app-close - The app was torn down.
 * @event mcp-error - Loading failed, or the app sent something refused (`detail.during` is `app`).
 */
export class McpAppFrame extends LitElement {
  static override styles = [schemeStyles, plainHost, styles];

  /** Client that reads the resource and runs the app's calls; default: the enclosing `<mcp-connection>`'s. */
  @property({ attribute: false }) client: McpClient | undefined;
  /** The tool whose UI this is (its definition); or set `tool-name` to look it up on the server. */
  @property({ attribute: false }) tool: Tool | undefined;
  /** Name of the tool, looked up with `tools/list` when `.tool` is not set. */
  @property({ attribute: 'tool-name' }) toolName = '';
  /** The `ui://` resource to render; default: the tool's `_meta.ui.resourceUri`. */
  @property({ attribute: 'resource-uri' }) resourceUri = '';
  /**
   * The resource contents, when the page already has them (a prefetch or cache,
   * spec: "Host MAY prefetch and cache"); skips `resources/read`.
   */
  @property({ attribute: false }) resource: ReadResourceResult['contents'][number] | undefined;
  /** The complete arguments of the tool call (sent as `ui/notifications/tool-input`). */
  @property({ attribute: false }) arguments: Record<string, unknown> | undefined;
  /** Arguments still being streamed (sent as `ui/notifications/tool-input-partial` until `arguments` is set). */
  @property({ attribute: false }) partialArguments: Record<string, unknown> | undefined;
  /** The tool's result (sent as `ui/notifications/tool-result`). */
  @property({ attribute: false }) result: CallToolResult | undefined;
  /** Policy for the app's tool calls; see {@link AppToolPolicy}. */
  @property({ attribute: 'policy' }) policy: AppToolPolicy = 'ask';
  /** URL of the sandbox proxy page on another origin; default: `configureAppFrames({ sandboxUrl })`, else one iframe. */
  @property({ attribute: 'sandbox-url' }) sandboxUrl = '';
  /** Permissions apps may get when they ask, space-separated (`camera microphone geolocation clipboard-write`). */
  @property({ attribute: 'allow-permissions' }) allowPermissions = '';
  /** Display modes the page offers, space-separated; default all three. */
  @property({ attribute: 'display-modes' }) displayModes = 'inline fullscreen pip';
  /** `light` or `dark`; default: the scheme the page is drawn in (its `color-scheme` or class convention; the system's only where the page allows both). */
  @property({ reflect: true }) theme: '' | 'light' | 'dark' = '';
  /** Largest height the app may take inline, in CSS pixels. */
  @property({ attribute: 'max-height', type: Number }) maxHeight = 640;
  /** The frame's accessible name; default "App: <tool title>". */
  @property() label = '';

  @consume({ context: clientContext, subscribe: true })
  @state()
  protected contextClient: McpClient | undefined;

  @state() private _status: Status = 'idle';
  @state() private _error = '';
  @state() private _mode: AppDisplayMode = 'inline';
  @state() private _height = INITIAL_HEIGHT;
  @state() private _prompts: Prompt[] = [];
  /** The question whose long arguments the user chose to see in full. */
  @state() private _expandedPrompt: Prompt | undefined;
  @state() private _resolvedTool: Tool | undefined;
  /** The resource's `_meta.ui.prefersBorder`: `false` asks for no border around the app. */
  @state() private _prefersBorder: boolean | undefined;

  #internals = this.attachInternals();
  #iframe: HTMLIFrameElement | undefined;
  #channel: AppChannel | undefined;
  #generation = 0;
  #undeclare: (() => void) | undefined;
  #declaredOn: McpClient | undefined;
  #appInfo: AppSource['appInfo'];
  #appModes: AppDisplayMode[] | undefined;
  #appCapabilities: Record<string, unknown> = {};
  #sentInput = false;
  #sentPartial: Record<string, unknown> | undefined;
  #sentResult: CallToolResult | undefined;
  #sentTheme: string | undefined;
  #sentWidth = 0;
  #resourceUri = '';
  #cleanups: (() => void)[] = [];
  /** What the frame lends the answering of its app's requests. */
  readonly #requests = new AppRequests({
    client: () => this.#client,
    source: () => this.#source,
    policy: () => this.policy,
    emit: (event) => this.dispatchEvent(event),
    ask: (question) => this.#ask(question),
  });

  constructor() {
    super();
    // A class or attribute theme switch on the page is a theme change for the app too.
    new PageSchemeController(this, this.#internals, () => this.#pushContext());
  }

  /** Where the app is: `idle`, `loading`, `ready`, `error` or `closed`. */
  get status(): Status {
    return this._status;
  }

  /** The current display mode. */
  get displayMode(): AppDisplayMode {
    return this._mode;
  }

  get #client(): McpClient | undefined {
    return this.client ?? this.contextClient;
  }

  get #tool(): Tool | undefined {
    return this.tool ?? this._resolvedTool;
  }

  get #source(): AppSource {
    return { tool: this.#tool, resourceUri: this.#resourceUri, appInfo: this.#appInfo };
  }

  get #label(): string {
    const tool = this.#tool;
    return this.label || `App: ${tool?.title ?? tool?.name ?? (this.#resourceUri || 'MCP app')}`;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Back on the page after a removal: load the app again.
    if (this._status === 'idle') this.requestUpdate();
    const media = matchMedia('(prefers-color-scheme: dark)');
    const onScheme = () => this.#pushContext();
    media.addEventListener('change', onScheme);
    // The root's own color-scheme may change through its style attribute (class and data attributes: #scheme).
    const observer = new MutationObserver(onScheme);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
    const resize = new ResizeObserver(() => this.#pushContext());
    resize.observe(this);
    this.#cleanups.push(
      () => media.removeEventListener('change', onScheme),
      () => observer.disconnect(),
      () => resize.disconnect(),
    );
  }

  /**
   * Removes the frame from the page and tears its app down (spec: "Teardown"):
   * the element leaves at once, and its app lives on out of sight until it has
   * answered `ui/resource-teardown` (its `onteardown` runs), at most 1 s. An
   * iframe's document dies the moment it leaves the page, and a custom element
   * only hears of its removal afterwards: removed any other way
   * (`removeChild`, `replaceChildren`, a framework's render), the app gets no
   * teardown, so remove frames with this method or `await frame.teardown()`
   * first. Needs `Element.moveBefore` (which moves an iframe without reloading
   * it); without it, a plain removal.
   */
  override remove(): void {
    const iframe = this.#iframe;
    const channel = this.#channel;
    const source = this.#source;
    // The app is the holder's now: the frame's own disposal must not close it.
    if (iframe && channel?.initialized && this.isConnected && handOffForTeardown(iframe, channel, () => this.dispatchEvent(new McpAppCloseEvent(source, 'removed from the page')))) {
      this.#iframe = undefined;
      this.#channel = undefined;
    }
    super.remove();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    // Removed some other way than remove(): the app's document is gone already; this is all that can be done.
    this.#channel?.request('ui/resource-teardown', {}, TEARDOWN_WAIT_MS).catch(() => undefined);
    this.#dispose();
    this.#undeclareSupport();
    if (this._status === 'ready' || this._status === 'loading') this._status = 'idle';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const client = this.#client;
    if (this.isConnected && client !== this.#declaredOn) {
      this.#undeclareSupport();
      if (client) {
        this.#undeclare = declareAppSupport(client);
        this.#declaredOn = client;
      }
    }
    const reload = ['client', 'contextClient', 'tool', 'toolName', 'resourceUri', 'resource', 'sandboxUrl', 'allowPermissions'] as const;
    if (reload.some((key) => changed.has(key as keyof McpAppFrame)) || (this.isConnected && this._status === 'idle')) void this.#load();
    if (changed.has('arguments') || changed.has('partialArguments') || changed.has('result')) this.#pushToolData();
    if (changed.has('theme') || changed.has('maxHeight')) this.#pushContext();
  }

  protected override updated(): void {
    toggleState(this.#internals, 'loading', this._status === 'loading');
    toggleState(this.#internals, 'ready', this._status === 'ready');
    toggleState(this.#internals, 'error', this._status === 'error');
    toggleState(this.#internals, 'closed', this._status === 'closed');
    toggleState(this.#internals, 'asking', this._prompts.length > 0);
    const shown = this._prompts[0];
    if (shown && !shown.armed && shown.armTimer === undefined) {
      shown.armTimer = setTimeout(() => {
        shown.armed = true;
        this.requestUpdate();
      }, PROMPT_ARM_MS);
    }
    toggleState(this.#internals, 'fullscreen', this._mode === 'fullscreen');
    toggleState(this.#internals, 'pip', this._mode === 'pip');
    const viewport = this.renderRoot.querySelector<HTMLElement>('[part~="viewport"]');
    if (viewport && this.#iframe && this.#iframe.parentElement !== viewport) viewport.append(this.#iframe);
    if (this.#iframe) {
      this.#iframe.title = this.#label;
      this.#iframe.style.height = this._mode === 'inline' ? `${this._height}px` : '';
    }
  }

  #undeclareSupport(): void {
    this.#undeclare?.();
    this.#undeclare = undefined;
    this.#declaredOn = undefined;
  }

  /**
   * Tears the app down (spec: "Teardown"): sends `ui/resource-teardown`, waits
   * up to 2 s for the app's answer, then removes it.
   */
  async teardown(reason = 'closed by the page'): Promise<void> {
    const channel = this.#channel;
    if (!channel) return;
    await channel.request('ui/resource-teardown', {}, TEARDOWN_WAIT_MS).catch(() => undefined);
    if (channel !== this.#channel) return;
    this.#dispose();
    this._status = 'closed';
    this._mode = 'inline';
    this.dispatchEvent(new McpAppCloseEvent(this.#source, reason));
  }

  /** Tells the app the tool call was cancelled (`ui/notifications/tool-cancelled`). */
  cancelTool(reason?: string): void {
    this.#channel?.notify('ui/notifications/tool-cancelled', reason === undefined ? {} : { reason });
  }

  #dispose(): void {
    this.#generation++;
    this.#channel?.close();
    this.#channel = undefined;
    this.#iframe?.remove();
    this.#iframe = undefined;
    window.removeEventListener('message', this.#onMessage);
    for (const prompt of this._prompts) prompt.resolve('deny');
    this._prompts = [];
  }

  #fail(message: string, error?: unknown): void {
    this.#dispose();
    this._status = 'error';
    this._error = message;
    const typed = McpError.isInstance(error) ? error : undefined;
    if (typed) this.dispatchEvent(new McpErrorEvent(typed, 'app'));
  }

  #warn(reason: string): void {
    console.warn(`<mcp-app-frame> ${this.#resourceUri}: refused from the app: ${reason}`);
  }

  async #load(): Promise<void> {
    this.#dispose();
    this.#requests.forget();
    const generation = this.#generation;
    this.#sentInput = false;
    this.#sentPartial = undefined;
    this.#sentResult = undefined;
    this.#sentTheme = undefined;
    this.#appInfo = undefined;
    this.#appModes = undefined;
    this.#appCapabilities = {};
    this._mode = 'inline';
    this._height = INITIAL_HEIGHT;
    const client = this.#client;
    if (!this.isConnected) return;
    let tool = this.tool;
    if (!tool && this.toolName && client) {
      this._status = 'loading';
      try {
        tool = (await client.listTools()).find((t) => t.name === this.toolName);
      } catch (error) {
        if (generation === this.#generation) this.#fail(`Cannot list the tools: ${(error as Error).message}`, error);
        return;
      }
      if (generation !== this.#generation) return;
      this._resolvedTool = tool;
      if (!tool) return this.#fail(`The server has no tool named "${this.toolName}".`);
    }
    const uri = this.resourceUri || appResourceUri(tool) || (typeof this.resource?.uri === 'string' ? this.resource.uri : '');
    this.#resourceUri = uri;
    if (!uri && !this.resource) {
      this._status = tool || this.toolName ? 'error' : 'idle';
      this._error = tool ? `The tool "${tool.name}" has no UI resource (_meta.ui.resourceUri).` : '';
      return;
    }
    this._status = 'loading';
    let content = this.resource;
    if (!content) {
      if (!client) {
        this._status = 'idle';
        return;
      }
      try {
        const read = await client.readResource(uri);
        if (generation !== this.#generation) return;
        const contents = Array.isArray((read as ReadResourceResult).contents) ? (read as ReadResourceResult).contents : [];
        content = contents.find((c) => isRecord(c) && c.uri === uri) ?? contents[0];
      } catch (error) {
        if (generation === this.#generation) this.#fail(`Cannot read ${uri}: ${(error as Error).message}`, error);
        return;
      }
    }
    if (!isRecord(content)) return this.#fail(`${uri} has no contents.`);
    if (!isAppMimeType(content.mimeType)) return this.#fail(`${uri} is ${JSON.stringify(content.mimeType ?? 'untyped')}, not an MCP App (${APP_MIME_TYPE}).`);
    let markup: string;
    try {
      markup = typeof content.text === 'string' ? content.text : typeof content.blob === 'string' ? fromBase64(content.blob) : '';
    } catch {
      return this.#fail(`${uri} has a blob that is not base64.`);
    }
    if (!markup) return this.#fail(`${uri} has no HTML.`);
    if (markup.length > MAX_HTML_CHARS) return this.#fail(`${uri} is larger than ${MAX_HTML_CHARS} characters.`);
    // Metadata on the content item wins; the resource listing is the fallback (spec: "Metadata Location").
    let ui = isRecord(content._meta) && isRecord(content._meta.ui) ? content._meta.ui : undefined;
    if (!ui && client && client.server?.capabilities.resources) {
      const listed: Resource | undefined = await client.listResources().then((list) => list.find((r) => r.uri === uri), () => undefined);
      if (generation !== this.#generation) return;
      if (isRecord(listed?._meta) && isRecord(listed._meta.ui)) ui = listed._meta.ui;
    }
    this.#start(markup, ui ?? {}, generation);
  }

  #start(markup: string, ui: Record<string, unknown>, generation: number): void {
    this._prefersBorder = typeof ui.prefersBorder === 'boolean' ? ui.prefersBorder : undefined;
    const { policy, rejected } = buildAppCsp(ui.csp);
    if (rejected.length) console.warn(`<mcp-app-frame> ${this.#resourceUri}: _meta.ui.csp entries ignored (not http(s)/ws(s) host sources): ${rejected.join(', ')}`);
    const allowed = this.allowPermissions ? this.allowPermissions.split(/\s+/).filter(Boolean) : (appFrameDefaults.allowPermissions ?? []);
    const allow = allowAttribute(ui.permissions, allowed);
    const checkedCsp = isRecord(ui.csp) ? ui.csp : {};
    const sandboxUrl = this.sandboxUrl || appFrameDefaults.sandboxUrl || '';
    let proxyOrigin: string | undefined;
    if (sandboxUrl) {
      try {
        proxyOrigin = new URL(sandboxUrl, location.href).origin;
      } catch {
        return this.#fail(`The sandbox URL ${JSON.stringify(sandboxUrl)} is not a URL.`);
      }
      if (proxyOrigin === location.origin || proxyOrigin === 'null') {
        return this.#fail('The sandbox proxy must be on another origin than this page (spec: "Sandbox proxy").');
      }
    }
    const iframe = document.createElement('iframe');
    iframe.setAttribute('part', 'iframe');
    iframe.title = this.#label;
    iframe.referrerPolicy = 'no-referrer';
    if (allow) iframe.setAttribute('allow', allow);
    const target = proxyOrigin ?? '*';
    const channel = new AppChannel((message) => iframe.contentWindow?.postMessage(message, target), {
      initialize: (params) => this.#initialize(params, allow, checkedCsp),
      initialized: () => this.#ready(),
      request: (method, params, signal) => this.#appRequest(method, params, signal),
      notification: (method, params) => this.#appNotification(method, params),
      refused: (reason) => this.#warn(reason),
    });
    let loads = 0;
    let resourceSent = false;
    this.#onMessage = (event: MessageEvent) => {
      if (generation !== this.#generation || event.source !== iframe.contentWindow || event.source === null) return;
      if (proxyOrigin) {
        if (event.origin !== proxyOrigin) return;
        // After the proxy's handshake: the rate decides before the message is even read (a flood costs a count).
        if (resourceSent) return channel.receiveLazily(() => event.data);
        const method = isRecord(event.data) ? event.data.method : undefined;
        if (typeof method === 'string' && method.startsWith('ui/notifications/sandbox-')) {
          if (method === 'ui/notifications/sandbox-proxy-ready' && !resourceSent) {
            resourceSent = true;
            iframe.contentWindow!.postMessage(
              { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: markup, csp: checkedCsp, permissions: grantedPermissions(allow), title: this.#label } },
              proxyOrigin,
            );
          }
          return;
        }
      } else if (event.origin !== 'null') return;
      channel.receiveLazily(() => event.data);
    };
    iframe.addEventListener('load', () => {
      // One load is the app (or the proxy page); another means its document was replaced.
      if (++loads > 1 && generation === this.#generation) this.#fail('The app left its document (it navigated its frame); it was closed.');
    });
    if (proxyOrigin) {
      iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
      iframe.src = sandboxUrl;
    } else {
      iframe.setAttribute('sandbox', 'allow-scripts allow-forms');
      iframe.srcdoc = withCspMeta(markup, policy);
    }
    window.addEventListener('message', this.#onMessage);
    this.#iframe = iframe;
    this.#channel = channel;
    this.requestUpdate();
  }

  #onMessage: (event: MessageEvent) => void = () => {};

  /**
   * Theme from the attribute, else the scheme the frame itself is drawn in: the
   * page's (its `color-scheme`, `<meta name="color-scheme">` or class
   * convention; the system's only where the page allows both).
   */
  #theme(): 'light' | 'dark' {
    if (this.theme === 'light' || this.theme === 'dark') return this.theme;
    return usedScheme(this);
  }

  #availableModes(): AppDisplayMode[] {
    const offered = this.displayModes.split(/\s+/).filter((m): m is AppDisplayMode => (DISPLAY_MODES as readonly string[]).includes(m));
    const modes = offered.includes('inline') ? offered : ['inline' as const, ...offered];
    return this.#appModes ? modes.filter((m) => m === 'inline' || this.#appModes!.includes(m)) : modes;
  }

  #dimensions(): Record<string, number> {
    const width = Math.round(this.getBoundingClientRect().width);
    if (this._mode === 'inline') return { width, maxHeight: this.maxHeight };
    // Full screen and picture-in-picture: the box the app is drawn in (a floating box is not the window).
    const box = this.renderRoot.querySelector('[part~="viewport"]')?.getBoundingClientRect();
    return box ? { width: Math.round(box.width), height: Math.round(box.height) } : { width: window.innerWidth, height: window.innerHeight };
  }

  #context(): Record<string, unknown> {
    const tool = this.#tool;
    const theme = this.#theme();
    return {
      ...(tool ? { toolInfo: { tool } } : {}),
      theme,
      displayMode: this._mode,
      availableDisplayModes: this.#availableModes(),
      containerDimensions: this.#dimensions(),
      locale: this.closest('[lang]')?.getAttribute('lang') || navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      userAgent: `mcp-web-elements/${KIT_VERSION}`,
      platform: 'web',
      deviceCapabilities: { touch: matchMedia('(pointer: coarse)').matches, hover: matchMedia('(hover: hover)').matches },
      styles: hostStyles(this, theme, appFrameDefaults.fonts),
    };
  }

  #initialize(params: Record<string, unknown>, allow: string, csp: Record<string, unknown>): Record<string, unknown> {
    const info = isRecord(params.appInfo) ? params.appInfo : {};
    this.#appInfo = {
      ...(typeof info.name === 'string' ? { name: info.name.slice(0, 200) } : {}),
      ...(typeof info.version === 'string' ? { version: info.version.slice(0, 100) } : {}),
    };
    const capabilities = isRecord(params.appCapabilities) ? params.appCapabilities : {};
    this.#appCapabilities = capabilities;
    const modes = capabilities.availableDisplayModes;
    this.#appModes = Array.isArray(modes) ? modes.filter((m): m is AppDisplayMode => (DISPLAY_MODES as readonly string[]).includes(m)) : undefined;
    const context = this.#context();
    this.#sentTheme = context.theme as string;
    this.#sentWidth = (context.containerDimensions as { width: number }).width;
    return {
      protocolVersion: APPS_PROTOCOL_VERSION,
      hostInfo: { name: 'mcp-web-elements', version: KIT_VERSION },
      hostCapabilities: {
        openLinks: {},
        downloadFile: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        message: { text: {}, image: {}, resourceLink: {} },
        updateModelContext: { text: {}, image: {}, resourceLink: {}, structuredContent: {} },
        sandbox: { permissions: grantedPermissions(allow), csp },
      },
      hostContext: context,
    };
  }

  #ready(): void {
    this._status = 'ready';
    this.#pushToolData();
    this.dispatchEvent(new McpAppReadyEvent(this.#source, this.#appCapabilities));
  }

  /** Sends what is new of the tool call: partial input, complete input, result. */
  #pushToolData(): void {
    const channel = this.#channel;
    if (!channel) return;
    if (!this.#sentInput && this.arguments) {
      channel.notify('ui/notifications/tool-input', { arguments: this.arguments });
      this.#sentInput = true;
    } else if (!this.#sentInput && this.partialArguments && this.partialArguments !== this.#sentPartial) {
      channel.notify('ui/notifications/tool-input-partial', { arguments: this.partialArguments });
      this.#sentPartial = this.partialArguments;
    }
    if (this.result && this.result !== this.#sentResult) {
      // The input comes first (spec: required before the result).
      if (!this.#sentInput) {
        channel.notify('ui/notifications/tool-input', { arguments: this.partialArguments ?? {} });
        this.#sentInput = true;
      }
      channel.notify('ui/notifications/tool-result', this.result as unknown as Record<string, unknown>);
      this.#sentResult = this.result;
    }
  }

  /** Sends `host-context-changed` with what changed (theme, container width). */
  #pushContext(changed: Record<string, unknown> = {}): void {
    const channel = this.#channel;
    if (!channel?.initialized) return;
    const update: Record<string, unknown> = { ...changed };
    const theme = this.#theme();
    if (theme !== this.#sentTheme) {
      update.theme = this.#sentTheme = theme;
      // The variables are concrete colours of one theme: the new theme's whole set goes with it.
      update.styles = hostStyles(this, theme, appFrameDefaults.fonts);
    }
    const dimensions = this.#dimensions();
    if (dimensions.width !== this.#sentWidth || 'displayMode' in changed) {
      this.#sentWidth = dimensions.width!;
      update.containerDimensions = dimensions;
    }
    if (Object.keys(update).length) channel.notify('ui/notifications/host-context-changed', update);
  }

  /** A request of the app: a display mode is the frame's to give; the rest is answered by app-requests.ts. */
  async #appRequest(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    if (method === 'ui/request-display-mode') return { mode: this.#requestMode(params.mode) };
    return this.#requests.answer(method, params, signal);
  }

  #appNotification(method: string, params: Record<string, unknown>): void {
    switch (method) {
      case 'ui/notifications/size-changed': {
        const height = params.height;
        if (typeof height === 'number' && Number.isFinite(height) && height >= 0) {
          this._height = Math.max(MIN_HEIGHT, Math.min(Math.ceil(height), Math.max(MIN_HEIGHT, this.maxHeight)));
        }
        return;
      }
      case 'notifications/message': {
        const level = typeof params.level === 'string' ? params.level.slice(0, 20) : 'info';
        const logger = typeof params.logger === 'string' ? params.logger.slice(0, 200) : undefined;
        this.dispatchEvent(new McpAppLogEvent(this.#source, level, logger, params.data));
        return;
      }
      case 'ui/notifications/request-teardown':
        void this.teardown('the app asked to close');
        return;
      default:
      // Other notifications (the app's own tools list changes…) need nothing from this host.
    }
  }

  #requestMode(requested: unknown): AppDisplayMode {
    const mode = requested as AppDisplayMode;
    if (!this.#availableModes().includes(mode)) return this._mode;
    // Over the page only on the user's say-so: a click in the app activates this page too
    // (HTML "activation notification" reaches every ancestor), an app alone does not. Without
    // it, an app could cover the page with a copy of it the moment it loads.
    if (mode !== 'inline' && mode !== this._mode && navigator.userActivation && !navigator.userActivation.isActive) {
      this.#warn(`ui/request-display-mode ${mode} without a user gesture in the app; it stays ${this._mode}`);
      return this._mode;
    }
    this.#setMode(mode);
    return mode;
  }

  #setMode(mode: AppDisplayMode): void {
    if (mode === this._mode) return;
    this._mode = mode;
    // The new container size is measured once the mode's layout applies.
    void this.updateComplete.then(() => this.#pushContext({ displayMode: mode }));
    this.dispatchEvent(new McpAppDisplayModeEvent(this.#source, mode));
  }

  /** Asks the user; resolves `deny` when refused, when too many questions wait, or when the app goes away. */
  #ask(prompt: AppQuestion): Promise<AppAnswer> {
    if (this._prompts.length >= MAX_PROMPTS) return Promise.resolve('deny');
    return new Promise((resolve) => {
      const entry = {
        ...prompt,
        resolve: (answer: AppAnswer) => {
          clearTimeout(entry.armTimer);
          this._prompts = this._prompts.filter((p) => p !== entry);
          if (this._expandedPrompt === entry) this._expandedPrompt = undefined;
          resolve(answer);
        },
      } as Prompt;
      this._prompts = [...this._prompts, entry];
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('[part~="deny-button"]')?.focus());
    });
  }

  #modeButtons(): TemplateResult | typeof nothing {
    if (this._status !== 'ready') return nothing;
    const modes = this.#availableModes();
    const button = (mode: AppDisplayMode, label: string) =>
      html`<button type="button" part="mode-button" data-mode=${mode} @click=${() => this.#setMode(mode)}>${label}</button>`;
    if (this._mode !== 'inline') return button('inline', this._mode === 'fullscreen' ? 'Exit full screen' : 'Back inline');
    return html`${modes.includes('fullscreen') ? button('fullscreen', 'Full screen') : nothing}${modes.includes('pip') ? button('pip', 'Picture in picture') : nothing}`;
  }

  protected override render(): TemplateResult {
    const label = this.#label;
    const shown = this._prompts[0];
    // A named group, not a region: several frames of one tool would be identical landmarks.
    return html`<div part="base" role="group" aria-label=${label} data-mode=${this._mode} data-border=${this._prefersBorder === false ? 'none' : 'default'}>
      <div part="header">
        <span part="label">${label}</span>
        ${this.#modeButtons()}
      </div>
      ${this._status === 'loading' ? html`<p part="status" role="status">Loading the app…</p>` : nothing}
      ${this._status === 'error' ? html`<p part="error" role="alert">${this._error}</p>` : nothing}
      ${this._status === 'closed' ? html`<p part="status" role="status">The app was closed.</p>` : nothing}
      <div part="viewport" ?hidden=${this._status === 'error' || this._status === 'closed' || this._status === 'idle'}></div>
      ${shown ? renderPrompt(shown, this.#appInfo?.name, this._expandedPrompt === shown, () => (this._expandedPrompt = shown)) : nothing}
    </div>`;
  }
}

defineElement('mcp-app-frame', McpAppFrame);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-app-frame': McpAppFrame;
  }
}
