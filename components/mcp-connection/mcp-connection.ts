import { provide } from '@lit/context';
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import {
  McpClient,
  McpClientError,
  McpError,
  type Implementation,
  type McpClientOptions,
  type ProtocolPreference,
  type Root,
  type ServerCapabilities,
  type ServerDescription,
  type Subscription,
  type Tool,
} from '../../src/index.js';
import type { OAuth, OAuthStatus } from '../../src/auth/index.js';
import { clientContext, connectionContext } from '../context.js';
import { PageSchemeController, schemeStyles } from '../internal/scheme.js';
import { declareAppSupport } from '../mcp-app-frame/app-meta.js';
import { defineElement } from '../define.js';
import { McpClientChangeEvent, McpConnectEvent, McpDisconnectEvent, McpErrorEvent, McpRootsChangeEvent, McpToolsChangedEvent } from '../events.js';
import { clip } from '../internal/json.js';
import { maskUrlSecrets } from '../internal/url-secrets.js';
import { explainFailure } from './diagnose.js';
import { connectionStyles } from './mcp-connection.styles.js';

/** The server's name and version are shown up to this many characters. */
const NAME_CHARS = 120;

/** Status of an `<mcp-connection>`. */
export type ConnectionStatus = 'idle' | 'connecting' | 'connected' | 'error';

/**
 * Connects to an MCP server and hands the client to every kit element inside it.
 *
 * It creates and owns an {@link McpClient} for `server-url`, connects (unless
 * `no-auto-connect`), lists the tools, keeps them fresh through
 * `subscriptions/listen` when the server announces list changes, and provides
 * the client through `@lit/context`. Its client follows tasks (the `tasks`
 * client option: long-running calls come back as durable handles the elements
 * follow and pick up after a reload). When a browser refuses a request the way it
 * refuses CORS, the error says which header or origin the server must allow,
 * testing the headers the failing request sent (and, when the server's CORS
 * allows the other era's handshake, suggests connecting in that era).
 *
 * @tagname mcp-connection
 * @summary A connection to one MCP server.
 *
 * @slot - Kit elements (`<mcp-tool-form>`, `<mcp-elicitation-dialog>`…) and any content; they get the client from here.
 * @slot status - Replaces the default status bar.
 *
 * @event mcp-client-change - A new client was created (before it connects); `detail.client`.
 * @event mcp-connect - Connected; `detail.server` describes the server.
 * @event mcp-disconnect - Disconnected by `disconnect()`.
 * @event mcp-error - Connecting or refreshing failed; `detail.error` is the typed error.
 * @event mcp-tools-changed - The tool list was loaded or changed; `detail.tools`.
 * @event mcp-roots-change - `roots` was set to a new list (after the first render); `detail.roots`.
 * @event mcp-input-required - Fired by `<mcp-elicitation-dialog>` before it asks the user; cancelable (see the dialog).
 *
 * @csspart status - The default status bar.
 * @csspart indicator - The coloured status dot.
 * @csspart server-name - Server name and version.
 * @csspart era - Protocol era and version.
 * @csspart status-text - Status and tool count.
 * @csspart reconnect-button - The Reconnect button.
 * @csspart sign-in-button - Shown when a protected server needs the user to sign in.
 * @csspart sign-out-button - Shown while signed in.
 * @csspart notice - "This server requires signing in".
 * @csspart error - The error message.
 *
 * @cssproperty --mcp-color-text - Text colour.
 * @cssproperty --mcp-color-surface - Status bar background.
 * @cssproperty --mcp-color-border - Border colour.
 * @cssproperty --mcp-color-success - Indicator when connected.
 * @cssproperty --mcp-color-warning - Indicator while connecting.
 * @cssproperty --mcp-color-danger - Indicator and border on error.
 * @cssproperty --mcp-radius - Corner radius.
 *
 * @cssstate connecting - Connecting.
 * @cssstate connected - Connected.
 * @cssstate error - The last attempt failed.
 * @cssstate listening - A `subscriptions/listen` stream is open.
 */
export class McpConnection extends LitElement {
  static override styles = [schemeStyles, connectionStyles];

  /**
   * The MCP endpoint, e.g. `https://example.com/mcp`. Changing it reconnects. Reflected to the
   * `server-url` attribute with secrets masked (`?token=…`, `user:pass@`): the DOM is read by
   * other scripts, devtools and session-replay tools, so a key in the URL stays in the property.
   */
  @property({ attribute: 'server-url', reflect: true, converter: { fromAttribute: (value) => value ?? '', toAttribute: (value: string) => maskUrlSecrets(value) } }) serverUrl = '';
  /** Don't connect automatically; call `connect()`. */
  @property({ attribute: 'no-auto-connect', type: Boolean }) noAutoConnect = false;
  /** Don't open `subscriptions/listen` for list changes. */
  @property({ attribute: 'no-listen', type: Boolean }) noListen = false;
  /**
   * Declare MCP Apps support (`io.modelcontextprotocol/ui`) from the first request on,
   * for servers that list their app tools only to such clients. Without it the
   * client declares it only while an `<mcp-app-frame>` is on the page.
   */
  @property({ type: Boolean }) apps = false;
  /** Era preference: `auto` (default), `modern` or `legacy`. */
  @property() protocol: ProtocolPreference = 'auto';
  /** Extra headers sent with every request. */
  @property({ attribute: false }) headers: Record<string, string> | undefined;
  /** `clientInfo` to send; default the kit's. */
  @property({ attribute: false }) clientInfo: Implementation | undefined;
  /** Further client options (e.g. `fetch` from the OAuth helper); see {@link McpClientOptions}. */
  @property({ attribute: false }) clientOptions: McpClientOptions | undefined;
  /** Roots this page may share with the server (asked for through `<mcp-elicitation-dialog>`). */
  @property({ attribute: false }) roots: Root[] | undefined;
  /**
   * OAuth for a protected server (from `createOAuth()` in `mcp-web-elements/auth`). The
   * connection sends its requests through it and shows Sign in / Sign out buttons.
   */
  @property({ attribute: false }) auth: OAuth | undefined;
  /**
   * Turnkey OAuth: the redirect URI of a callback page that calls
   * `completeAuthorizationCallback()`. The connection then creates the OAuth
   * itself (popup sign-in, tokens in IndexedDB) unless `.auth` is set.
   */
  @property({ attribute: 'oauth-redirect-uri' }) oauthRedirectUri = '';
  /**
   * OAuth strict mode (`requireIss`, RFC 9207): sign in only with authorization
   * servers that declare `authorization_response_iss_parameter_supported`;
   * another is refused (`McpAuthError` `iss_unsupported`) before any page opens.
   * Applies to the turnkey OAuth; an `.auth` given without `requireIss` is
   * refused with a connect error rather than used less strictly than asked.
   * Turn it on where users may add servers you do not control (docs/oauth.md).
   */
  @property({ attribute: 'require-iss', type: Boolean }) requireIss = false;

  /** The client of this connection (provided to the elements inside). */
  @provide({ context: clientContext })
  @state()
  client: McpClient | undefined;

  /** This element, for kit elements that need its roots or want to fire events on it. */
  @provide({ context: connectionContext }) protected readonly self: McpConnection = this;

  @state() private _status: ConnectionStatus = 'idle';
  @state() private _server: ServerDescription | undefined;
  @state() private _tools: Tool[] = [];
  @state() private _error: McpError | undefined;
  @state() private _listening = false;
  @state() private _authStatus: OAuthStatus | undefined;
  #turnkey: { key: string; auth: OAuth } | undefined;
  #authOff: (() => void)[] = [];
  #authFor: OAuth | undefined;

  readonly #internals: ElementInternals;
  #subscription: Subscription | undefined;
  #unsubscribe: (() => void)[] = [];
  #attempt = 0;
  #closeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.#internals = this.attachInternals();
    new PageSchemeController(this, this.#internals);
  }

  /** `idle`, `connecting`, `connected` or `error`. */
  get status(): ConnectionStatus {
    return this._status;
  }
  /** Self-reported server identity (display only). */
  get serverInfo(): Implementation | undefined {
    return this._server?.serverInfo;
  }
  /** Everything known about the server (era, version, capabilities…). */
  get server(): ServerDescription | undefined {
    return this._server;
  }
  /** The server's capabilities. */
  get capabilities(): ServerCapabilities | undefined {
    return this._server?.capabilities;
  }
  /** The server's tools (usable ones; see `client.rejectedTools`). */
  get tools(): readonly Tool[] {
    return this._tools;
  }
  /** The last error, while `status` is `error`. */
  get error(): McpError | undefined {
    return this._error;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    clearTimeout(this.#closeTimer);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Moving the element around the page should not drop the connection: close only if it stays out.
    this.#closeTimer = setTimeout(() => {
      if (!this.isConnected) void this.#teardown();
    }, 0);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A new list of roots (from the page or <mcp-roots-editor>): the dialog offers it, and tells a legacy server.
    if (changed.has('roots') && this.hasUpdated) this.dispatchEvent(new McpRootsChangeEvent(this.roots ?? []));
  }

  protected override updated(changed: PropertyValues<this>): void {
    if ((changed.has('serverUrl') || changed.has('protocol')) && !this.noAutoConnect && this.serverUrl) {
      // After this update, so the state changes of connecting schedule their own.
      void Promise.resolve()
        .then(() => this.connect())
        .catch(() => {
          /* reported through the error state and mcp-error */
        });
    }
  }

  /**
   * Connects (or reconnects) to `serverUrl` and loads the tool list.
   * @throws the typed error it also reports through `error` and `mcp-error`.
   */
  async connect(): Promise<void> {
    const attempt = ++this.#attempt;
    if (!this.serverUrl) throw new McpClientError('closed', '<mcp-connection> has no server-url');
    this.#setStatus('connecting');
    await this.#teardown();
    if (attempt !== this.#attempt) return;
    let client: McpClient;
    if (this.requireIss && this.auth && !this.auth.requireIss) {
      this.#fail(new McpClientError('auth', '<mcp-connection require-iss> was given an .auth created without requireIss: pass requireIss: true to createOAuth()', { url: this.serverUrl }), 'connect');
      throw this._error;
    }
    try {
      const auth = await this.#resolveAuth();
      if (attempt !== this.#attempt) return;
      client = new McpClient(this.serverUrl, {
        protocol: this.protocol,
        // Long-running calls come back as tasks the elements follow (clientOptions `tasks: false` turns it off).
        tasks: true,
        ...(this.headers ? { headers: this.headers } : {}),
        ...(this.clientInfo ? { clientInfo: this.clientInfo } : {}),
        ...(auth ? { fetch: auth.fetch, authContext: auth.authContext } : {}),
        ...this.clientOptions,
      });
    } catch (error) {
      this.#fail(new McpClientError('protocol', `Invalid server URL ${JSON.stringify(this.serverUrl)}`, { url: this.serverUrl }, { cause: error }), 'connect');
      throw this._error;
    }
    if (this.apps) declareAppSupport(client);
    this.client = client;
    this._error = undefined;
    this.dispatchEvent(new McpClientChangeEvent(client));
    try {
      const server = await client.connect();
      if (attempt !== this.#attempt) return;
      this._server = server;
      this.#unsubscribe.push(
        client.on('toolsChanged', () => void this.#loadTools(client)),
        client.on('status', ({ status }) => {
          if (status === 'connected') this._server = client.server;
        }),
      );
      await this.#loadTools(client);
      if (attempt !== this.#attempt) return;
      this.#listen(client, server);
      this.#setStatus('connected');
      this.dispatchEvent(new McpConnectEvent(server));
    } catch (error) {
      if (attempt !== this.#attempt) return;
      const failure = McpError.isInstance(error) ? error : new McpClientError('protocol', String(error), { url: this.serverUrl });
      this.#fail(await explainFailure(this.serverUrl, failure, { headers: this.headers, auth: this.#authFor, protocol: this.protocol }), 'connect');
      throw this._error;
    }
  }

  /** The OAuth in use: `.auth`, or the turnkey one built from `oauth-redirect-uri` (loaded on demand). */
  async #resolveAuth(): Promise<OAuth | undefined> {
    let auth = this.auth;
    if (!auth && this.oauthRedirectUri) {
      const key = `${this.serverUrl} ${this.oauthRedirectUri} ${this.requireIss}`;
      if (this.#turnkey?.key !== key) {
        const [{ createOAuth }, { popupAuthorization }] = await Promise.all([import('../../src/auth/index.js'), import('../auth/popup.js')]);
        // Sign-in waits for the user's click (a popup outside a gesture would be blocked).
        const created = createOAuth({
          resourceUrl: this.serverUrl,
          redirectUri: new URL(this.oauthRedirectUri, document.baseURI).href,
          openAuthorizationUrl: popupAuthorization(),
          autoSignIn: false,
          ...(this.requireIss ? { requireIss: true } : {}),
          // OAuth's developer warnings go where the client's go.
          ...(this.clientOptions?.onWarning ? { onWarning: this.clientOptions.onWarning } : {}),
        });
        this.#turnkey = { key, auth: created };
      }
      auth = this.#turnkey!.auth;
    }
    if (auth !== this.#authFor) {
      for (const off of this.#authOff) off();
      this.#authOff = [];
      this.#authFor = auth;
      this._authStatus = auth?.status;
      if (auth) {
        this.#authOff.push(
          auth.on('status', ({ status }) => (this._authStatus = status)),
          auth.on('token', ({ kind }) => {
            // Signed in (e.g. through the button): connect with the new token.
            if (kind === 'authorized' && this._status !== 'connected' && this._status !== 'connecting') void this.connect().catch(() => {});
          }),
        );
      }
    }
    return auth;
  }

  /** Starts signing in (call from a user action: it may open a popup). */
  signIn(): Promise<void> {
    const auth = this.#authFor;
    if (!auth) return Promise.reject(new McpClientError('auth', '<mcp-connection> has no OAuth configured', { url: this.serverUrl }));
    return auth.signIn();
  }

  /** Signs out (tokens are deleted and revoked) and reconnects without them. */
  async signOut(): Promise<void> {
    await this.#authFor?.signOut();
    await this.connect().catch(() => {});
  }

  /** The OAuth in use (`.auth`, or the turnkey one), once the connection has started. */
  get oauth(): OAuth | undefined {
    return this.#authFor;
  }

  /** OAuth status, when the connection uses OAuth: `signed_out`, `authorizing`, `signed_in` or `needs_sign_in`. */
  get authStatus(): OAuthStatus | undefined {
    return this._authStatus;
  }

  /** Closes the connection. */
  async disconnect(): Promise<void> {
    this.#attempt++;
    const had = this.client !== undefined;
    await this.#teardown();
    this.#setStatus('idle');
    if (had) this.dispatchEvent(new McpDisconnectEvent('client'));
  }

  /**
   * Measures the round trip to the server, in ms: `ping` on a legacy server; on
   * 2026-07-28, which has no `ping`, an uncached `server/discover` (the lightest
   * request it has).
   * @throws the typed error of the request (not connected: `closed`).
   */
  async ping(): Promise<number> {
    const client = this.client;
    if (!client) throw new McpClientError('closed', '<mcp-connection> is not connected', { url: this.serverUrl });
    await client.connect();
    const start = performance.now();
    if (client.server?.era === 'legacy') await client.request('ping');
    else await client.discover({ fresh: true });
    return performance.now() - start;
  }

  /** Reloads the server description and the tool list, bypassing caches. */
  async refresh(): Promise<void> {
    const client = this.client;
    if (!client || this._status !== 'connected') return this.connect();
    try {
      await client.discover({ fresh: true }).catch(() => undefined);
      this._server = client.server;
      await this.#loadTools(client, true);
    } catch (error) {
      const failure = McpError.isInstance(error) ? error : new McpClientError('protocol', String(error), { url: this.serverUrl });
      this.dispatchEvent(new McpErrorEvent(failure, 'refresh'));
    }
  }

  async #loadTools(client: McpClient, fresh = false): Promise<void> {
    if (client.server?.capabilities.tools === undefined) {
      this._tools = [];
      return;
    }
    try {
      const tools = await client.listTools({ fresh });
      if (client !== this.client) return;
      this._tools = tools;
      this.dispatchEvent(new McpToolsChangedEvent(tools));
    } catch (error) {
      if (client !== this.client) return;
      const failure = McpError.isInstance(error) ? error : new McpClientError('protocol', String(error), { url: this.serverUrl });
      this.dispatchEvent(new McpErrorEvent(failure, 'tools/list'));
    }
  }

  #listen(client: McpClient, server: ServerDescription): void {
    if (this.noListen) return;
    const caps = server.capabilities;
    const filter = {
      ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    if (Object.keys(filter).length === 0) return;
    this.#subscription = client.listen(filter, {
      onState: (state) => {
        this._listening = state === 'open';
        if (this._listening) this.#internals.states.add('listening');
        else this.#internals.states.delete('listening');
      },
    });
  }

  /** Whether a `subscriptions/listen` stream is open (list changes arrive as they happen). */
  get listening(): boolean {
    return this._listening;
  }

  async #teardown(): Promise<void> {
    for (const off of this.#unsubscribe) off();
    this.#unsubscribe = [];
    this.#subscription?.close();
    this.#subscription = undefined;
    this._listening = false;
    this.#internals.states.delete('listening');
    const client = this.client;
    this.client = undefined;
    this._server = undefined;
    this._tools = [];
    await client?.close();
  }

  #fail(error: McpError, during: string): void {
    this._error = error;
    this.#setStatus('error');
    this.dispatchEvent(new McpErrorEvent(error, during));
  }

  #setStatus(status: ConnectionStatus): void {
    this._status = status;
    for (const name of ['connecting', 'connected', 'error']) {
      if (name === status) this.#internals.states.add(name);
      else this.#internals.states.delete(name);
    }
  }

  protected override render() {
    const server = this._server;
    // Server-sent: shown cut (a 5 MiB name must not take over the status bar or the layout).
    const name = clip(server?.serverInfo ? [server.serverInfo.title ?? server.serverInfo.name, server.serverInfo.version].filter(Boolean).join(' ') : this.#host(), NAME_CHARS);
    const statusText =
      this._status === 'connected'
        ? `Connected · ${this._tools.length} tool${this._tools.length === 1 ? '' : 's'}`
        : this._status === 'connecting'
          ? 'Connecting…'
          : this._status === 'error'
            ? 'Connection failed'
            : 'Not connected';
    return html`
      <slot name="status">
        <div part="status" role="status" aria-live="polite">
          <span part="indicator" aria-hidden="true"></span>
          <span part="server-name" title=${maskUrlSecrets(this.serverUrl)}>${name}</span>
          ${server ? html`<span part="era">${server.era} · ${server.protocolVersion}</span>` : nothing}
          <span part="status-text">${statusText}</span>
          ${this._authStatus === 'needs_sign_in' || (this._authStatus === 'authorizing' && this._status !== 'connected')
            ? html`<button part="sign-in-button" type="button" ?disabled=${this._authStatus === 'authorizing'} @click=${this.#onSignIn}>Sign in</button>`
            : nothing}
          ${this._authStatus === 'signed_in' ? html`<button part="sign-out-button" type="button" @click=${this.#onSignOut}>Sign out</button>` : nothing}
          <button part="reconnect-button" type="button" ?disabled=${!this.serverUrl || this._status === 'connecting'} @click=${this.#onReconnect}>
            ${this._status === 'connected' ? 'Reconnect' : 'Connect'}
          </button>
        </div>
        ${this._error && !this.#waitingForSignIn()
          ? html`<div part="error" role="alert">${clip(this._error.message, 2000)}</div>`
          : this.#waitingForSignIn()
            ? html`<div part="notice" role="status">This server requires signing in.</div>`
            : nothing}
      </slot>
      <slot></slot>
    `;
  }

  #host(): string {
    try {
      return new URL(this.serverUrl).host;
    } catch {
      return maskUrlSecrets(this.serverUrl) || 'No server';
    }
  }

  #waitingForSignIn(): boolean {
    return this._authStatus === 'needs_sign_in' || (this._authStatus === 'authorizing' && this._status !== 'connected');
  }

  #onSignIn = () => {
    // Synchronously inside the click: the popup must open from the user's gesture.
    void this.signIn().catch((error: unknown) => {
      const failure = McpError.isInstance(error) ? error : new McpClientError('auth', String(error), { url: this.serverUrl });
      this.#fail(failure, 'sign-in');
    });
  };

  #onSignOut = () => {
    void this.signOut();
  };

  #onReconnect = () => {
    void this.connect().catch(() => {
      /* shown in the error part */
    });
  };
}

defineElement('mcp-connection', McpConnection);

declare global {
  interface HTMLElementTagNameMap {
    'mcp-connection': McpConnection;
  }
}
