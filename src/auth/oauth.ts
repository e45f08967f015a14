/**
 * Browser-first OAuth 2.1 for protected MCP servers (spec: basic/authorization).
 *
 * {@link createOAuth} returns an {@link OAuth} whose `fetch` is handed to the
 * client; auth stays outside the transport:
 *
 * @example
 * ```ts
 * const auth = createOAuth({
 *   resourceUrl: 'https://mcp.example.com/mcp',
 *   redirectUri: `${location.origin}/oauth/callback.html`,
 *   clientMetadataUrl: 'https://app.example.com/oauth/client.json',
 *   openAuthorizationUrl: popupAuthorization(),
 * });
 * const client = new McpClient(auth.resourceUrl, { fetch: auth.fetch, authContext: auth.authContext });
 * signInButton.onclick = () => auth.signIn();
 * ```
 *
 * The wrapper adds `Authorization: Bearer` (or `DPoP` with a fresh proof) to
 * every request to the MCP server; on `401` it discovers and authorizes, on `403
 * insufficient_scope` it re-authorizes with the union of scopes, at most three
 * authorizations per request; it refreshes shortly before expiry, once at a
 * time across tabs (Web Locks). The discovery and token code is loaded on
 * demand. With a `grant` (Node and backends), the same wrapper gets its tokens
 * from a machine-to-machine grant (grants.ts) instead of a user. Threat model:
 * docs/oauth.md.
 *
 * This module is the {@link OAuth} class; its options, status and events are
 * declared in `./options.ts`, the decisions about using tokens that need none
 * of its state are in `./token-use.ts`, and what it loads on demand is
 * `./flow.ts` (and `./grants.ts`, `./dpop.ts`).
 *
 * @module
 */
import { hashKey } from '../util/hash.js';
import { Emitter } from '../util/emitter.js';
import { untilAborted } from '../util/sleep.js';
import type { FetchLike } from '../transport/fetch.js';
import { challengeParams, parseWwwAuthenticate, splitScopes, type AuthChallenge } from './challenge.js';
import { randomToken } from './encoding.js';
import { McpAuthError } from './errors.js';
import { storageKeys } from './keys.js';
import type { AuthorizationOpener } from './opener.js';
import type { OAuthEvents, OAuthOptions, OAuthSession, OAuthStatus } from './options.js';
import { defaultAuthStorage, IndexedDbAuthStorage, MemoryAuthStorage, type AuthStorage } from './storage.js';
import { dueForRefresh, isReplayable, wantsDpop, withLock } from './token-use.js';
import type { Binding, FlowContext, PendingAuthorization, ResourceMetadata, TokenSet } from './types.js';

interface AuthorizeInput {
  challenge?: AuthChallenge;
  interactive: boolean;
  scopes?: string[];
  signal?: AbortSignal;
}

type Flow = typeof import('./flow.js');

function loadFlow(): Promise<Flow> {
  return import('./flow.js');
}

function asAuthError(error: unknown, url: string): McpAuthError {
  if (McpAuthError.isInstance(error)) return error;
  return new McpAuthError('invalid_response', `Authorization failed: ${(error as Error)?.message ?? String(error)}`, { url }, { cause: error });
}

/**
 * OAuth 2.1 for one MCP endpoint. Create it with {@link createOAuth}; pass
 * `fetch` and `authContext` to the client.
 */
export class OAuth {
  /** The MCP endpoint. */
  readonly resourceUrl: URL;
  /** The redirect URI; undefined with a machine-to-machine `grant`. */
  readonly redirectUri: string | undefined;
  readonly #options: OAuthOptions;
  readonly #opener: AuthorizationOpener | undefined;
  readonly #emitter = new Emitter<OAuthEvents>();
  readonly #nonces = new Map<string, string>();
  readonly #dpopKeys = new Map<string, CryptoKeyPair>();
  #storage: AuthStorage;
  #binding: Binding | undefined;
  #tokens: TokenSet | undefined;
  #status: OAuthStatus = 'signed_out';
  #lastError: McpAuthError | undefined;
  #authorizing: Promise<void> | undefined;
  #refreshing: Promise<TokenSet | undefined> | undefined;
  readonly #warned = new Set<string>();
  /** Per issuer: why no client can get tokens there (a refused fresh or configured client). Ends every later attempt before any sign-in. */
  readonly #rejected = new Map<string, McpAuthError>();
  /** Scopes a blocked authorization needed, and its challenge: `signIn()` continues with them. */
  #wanted: { scopes: string[]; challenge?: AuthChallenge } = { scopes: [] };
  readonly #loaded: Promise<void>;

  /** @see createOAuth */
  constructor(options: OAuthOptions) {
    this.resourceUrl = new URL(options.resourceUrl);
    // A grant's own fields are checked when it first runs (grants.ts), so their code stays out of this entry.
    if (!options.grant && options.redirectUri === undefined) throw new TypeError('createOAuth: redirectUri or grant is required');
    this.redirectUri = options.redirectUri === undefined ? undefined : new URL(options.redirectUri).href;
    this.#options = options;
    const open = options.openAuthorizationUrl;
    this.#opener = typeof open === 'function' ? { open } : open;
    this.#storage = options.storage === 'memory' ? new MemoryAuthStorage() : options.storage === 'indexeddb' ? new IndexedDbAuthStorage() : (options.storage ?? defaultAuthStorage());
    this.#loaded = this.#load();
  }

  // --- public surface ---------------------------------------------------------------------------

  /**
   * The `fetch` to give the client: adds the token to every request to the MCP
   * server's origin and handles 401/403 challenges (see the module docs). Other
   * URLs pass through untouched, never with a token.
   *
   * @throws McpAuthError when authorization is needed and fails (`needs_user_gesture`,
   *   `insufficient_scope`, `unauthorized`, discovery and token errors…).
   */
  readonly fetch: FetchLike = (input, init) => this.#fetch(input, init);

  /**
   * Identifies the authorization context for the client's private cache entries:
   * changes with every new sign-in, stays across refreshes; undefined when signed out.
   */
  readonly authContext = (): string | undefined => {
    const binding = this.#binding;
    return binding && this.#tokens ? hashKey(`${binding.issuer} ${binding.resource} ${binding.grantId}`) : undefined;
  };

  /** Whether strict mode is on (`requireIss` option): only authorization servers that send `iss` are used. */
  get requireIss(): boolean {
    return this.#options.requireIss === true;
  }

  /** Current status (see {@link OAuthStatus}). */
  get status(): OAuthStatus {
    return this.#status;
  }

  /** The last authorization failure, if the last attempt failed. */
  get lastError(): McpAuthError | undefined {
    return this.#lastError;
  }

  /** The current authorization, without token values; undefined when signed out. */
  get session(): OAuthSession | undefined {
    const binding = this.#binding;
    const tokens = this.#tokens;
    if (!binding || !tokens) return undefined;
    return {
      issuer: binding.issuer,
      resource: binding.resource,
      scopes: tokens.scopes,
      tokenType: tokens.tokenType,
      ...(tokens.expiresAt !== undefined ? { expiresAt: tokens.expiresAt } : {}),
      refreshable: tokens.refreshToken !== undefined,
    };
  }

  /** Resolves once stored tokens have been loaded. */
  get ready(): Promise<void> {
    return this.#loaded;
  }

  /**
   * Adds an event listener.
   * @returns a function that removes it.
   */
  on<K extends keyof OAuthEvents>(type: K, listener: (event: OAuthEvents[K]) => void): () => void {
    return this.#emitter.on(type, listener);
  }

  /**
   * Signs in: discovers the server's authorization server and sends the user
   * there. Call it from a user gesture (a click): the opener's `prepare()` runs
   * synchronously first, so a popup is not blocked. Continues with the scopes a
   * blocked authorization needed, if any.
   *
   * @param options.scopes - extra scopes to request this time.
   * @param options.signal - aborts the sign-in.
   * @throws McpAuthError for every failure (`cancelled`, `timeout`, discovery, token errors…).
   */
  signIn(options: { scopes?: string[]; signal?: AbortSignal } = {}): Promise<void> {
    // Before any await: this must run inside the user's gesture.
    this.#opener?.prepare?.();
    return this.#loaded.then(() => this.#authorize({ challenge: this.#wanted.challenge, interactive: true, scopes: options.scopes, signal: options.signal }));
  }

  /**
   * Signs out: forgets this server's tokens and DPoP key (the client
   * registration stays, it identifies the app, not the user) and, unless
   * `revoke: false`, asks the authorization server to revoke the refresh token.
   */
  async signOut(options: { revoke?: boolean } = {}): Promise<void> {
    await this.#loaded;
    const binding = this.#binding;
    const tokens = this.#tokens;
    await this.#forget();
    this.#wanted = { scopes: [] };
    this.#lastError = undefined;
    this.#setStatus('signed_out');
    // A grant's client keeps no secret in the store, so it cannot authenticate a revocation: its token just expires.
    if (binding?.client && !this.#options.grant && tokens && options.revoke !== false && binding.as.revocation_endpoint) {
      const flow = await loadFlow();
      const token = tokens.refreshToken ?? tokens.accessToken;
      await flow.revokeToken(this.#context(), { as: binding.as, client: binding.client, token, hint: tokens.refreshToken ? 'refresh_token' : 'access_token' });
    }
  }

  /**
   * Finishes a full-page-redirect authorization after the return: call it when
   * the app loads at the redirect URI. Looks up the pending authorization by its
   * `state`, checks the response and redeems the code.
   *
   * @param url - the URL the page was loaded with; default `location.href`.
   * @returns true when the URL was this server's authorization response and
   *   tokens were obtained; false when the URL is not one (nothing to do).
   * @throws McpAuthError when it was one and failed (`iss_mismatch`, `authorization_error`, `token_failed`…).
   */
  async handleRedirect(url?: string | URL): Promise<boolean> {
    const href = url ?? (globalThis as { location?: { href: string } }).location?.href;
    if (!href || !this.redirectUri) return false;
    const callback = new URL(href);
    const redirect = new URL(this.redirectUri);
    if (callback.origin !== redirect.origin || callback.pathname !== redirect.pathname) return false;
    // Checked without loading the flow code: most page loads carry no authorization response.
    const state = callback.searchParams.get('state') ?? new URLSearchParams(callback.hash.replace(/^#/, '')).get('state');
    if (!state) return false;
    await this.#loaded;
    const key = storageKeys.pending(state);
    const pending = (await this.#storage.get(key)) as PendingAuthorization | undefined;
    // Another server's authorization (several OAuth instances share one store) is not ours.
    if (!pending || pending.resourceUrl !== this.resourceUrl.href) return false;
    const flow = await loadFlow();
    if (Date.now() - pending.createdAt > (this.#options.authorizationTimeoutMs ?? 600_000)) {
      await this.#storage.delete(key);
      throw this.#fail(new McpAuthError('timeout', `The authorization for ${this.resourceUrl.href} expired before the return to ${this.redirectUri}`, { url: this.redirectUri }));
    }
    this.#setStatus('authorizing');
    try {
      await this.#finish(flow, pending, callback, this.#context());
      return true;
    } catch (error) {
      throw this.#fail(asAuthError(error, this.redirectUri));
    }
  }

  // --- the fetch wrapper ----------------------------------------------------------------------------------

  get #rawFetch(): FetchLike {
    return this.#options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  async #fetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
    const url = new URL(input);
    // Tokens go to the MCP server's origin only (basic/authorization "Token Requirements").
    if (url.origin !== this.resourceUrl.origin) return this.#rawFetch(input, init);
    await this.#loaded;
    const replayable = isReplayable(init.body);
    const method = (init.method ?? 'GET').toUpperCase();
    const maxAuthorizations = this.#options.maxAuthorizations ?? 3;
    let authorizations = 0;
    let nonceRetried = false;
    let recovered = false;
    for (;;) {
      const tokens = await this.#usableTokens();
      const headers = new Headers(init.headers);
      if (tokens) await this.#present(headers, tokens, method, url);
      const response = await this.#rawFetch(input, { ...init, headers });
      const nonce = response.headers.get('dpop-nonce');
      if (nonce) this.#nonces.set(url.origin, nonce);
      if ((response.status !== 401 && response.status !== 403) || !replayable) return response;

      const challenges = parseWwwAuthenticate(response.headers.get('www-authenticate'), (note) =>
        this.#warn('www-authenticate-malformed', `${url.origin} sent a malformed WWW-Authenticate header (${note}); it was read anyway`),
      );
      // Each parameter from the challenge that carries it; the scheme of the token in use wins ties.
      const challenge = challengeParams(challenges, tokens?.tokenType);
      if (response.status === 403) {
        // Only a scope challenge is ours; any other 403 (Origin refused…) goes to the client as is.
        if (challenge?.params.error !== 'insufficient_scope') return response;
        await response.body?.cancel().catch(() => {});
        if (authorizations >= maxAuthorizations) {
          const scopes = splitScopes(challenge.params.scope);
          throw this.#fail(
            new McpAuthError('insufficient_scope', `${url.href} still requires more scope (${scopes.join(' ') || 'unspecified'}) after ${authorizations} authorizations; giving up`, {
              url: url.href,
              scopes,
              status: 403,
            }),
          );
        }
        authorizations++;
        await untilAborted(this.#authorize({ challenge, interactive: false, scopes: splitScopes(challenge.params.scope), signal: undefined }), init.signal);
        continue;
      }
      // 401: a DPoP nonce request is answered by retrying with the nonce (RFC 9449 §9).
      if (tokens?.tokenType === 'DPoP' && challenge?.params.error === 'use_dpop_nonce' && nonce && !nonceRetried) {
        nonceRetried = true;
        await response.body?.cancel().catch(() => {});
        continue;
      }
      await response.body?.cancel().catch(() => {});
      if (tokens && !recovered) {
        recovered = true;
        if (await untilAborted(this.#recover(tokens, challenge), init.signal)) continue;
      }
      if (authorizations >= maxAuthorizations) {
        throw this.#fail(new McpAuthError('unauthorized', `${url.href} still answers 401 after ${authorizations} authorizations`, { url: url.href, status: 401 }));
      }
      authorizations++;
      await untilAborted(this.#authorize({ challenge, interactive: false }), init.signal);
    }
  }

  /** Adds the token (and for DPoP a fresh proof bound to it) to a request. */
  async #present(headers: Headers, tokens: TokenSet, method: string, url: URL): Promise<void> {
    if (tokens.tokenType !== 'DPoP') {
      headers.set('Authorization', `Bearer ${tokens.accessToken}`);
      return;
    }
    const binding = this.#binding!;
    const key = await this.#dpopKey(binding.issuer, binding.resource, false);
    if (!key) throw new McpAuthError('dpop_failed', `The DPoP key for ${binding.resource} is gone; sign in again`, { url: url.href });
    const { createDpopProof } = await import('./dpop.js');
    headers.set('Authorization', `DPoP ${tokens.accessToken}`);
    headers.set('DPoP', await createDpopProof(key, { method, url, accessToken: tokens.accessToken, nonce: this.#nonces.get(url.origin) }));
  }

  /** The tokens to send now: refreshed first when about to expire; undefined when none are usable. */
  async #usableTokens(): Promise<TokenSet | undefined> {
    const tokens = this.#tokens;
    if (!tokens) return undefined;
    if (!dueForRefresh(tokens, this.#options)) return tokens;
    const unexpired = (tokens.expiresAt ?? Infinity) > Date.now();
    if (!tokens.refreshToken && this.#options.grant) {
      // Machine-to-machine grants are simply run again (no refresh token is kept).
      try {
        await this.#authorize({ interactive: false });
        return this.#tokens;
      } catch (error) {
        if (unexpired) return tokens;
        throw error;
      }
    }
    if (!tokens.refreshToken) return unexpired ? tokens : undefined;
    try {
      return await this.#refresh(tokens);
    } catch (error) {
      // The token endpoint is unreachable: the old token may still be good for a moment.
      if (unexpired) return tokens;
      throw error;
    }
  }

  /**
   * After a 401 to a request that carried a token: adopt tokens another tab
   * stored meanwhile; notice that the resource moved to another authorization
   * server (then nothing of the old one is reused); else refresh.
   * @returns true when the request should simply be retried.
   */
  async #recover(failed: TokenSet, challenge: AuthChallenge | undefined): Promise<boolean> {
    const binding = this.#binding;
    if (!binding) return false;
    const stored = (await this.#storage.get(storageKeys.tokens(binding.issuer, binding.resource))) as TokenSet | undefined;
    if (stored && stored.accessToken !== failed.accessToken) {
      this.#tokens = stored;
      return true;
    }
    const flow = await loadFlow();
    let resource: ResourceMetadata;
    try {
      resource = (await flow.discoverResource(this.#context(), challenge?.params.resource_metadata)).metadata;
    } catch {
      return false; // the authorization that follows reports discovery problems
    }
    if (!resource.authorization_servers.includes(binding.issuer) || resource.resource !== binding.resource) {
      // Spec: client-registration "Authorization Server Binding".
      await this.#forget();
      return false;
    }
    if (!failed.refreshToken) return false;
    try {
      return (await this.#refresh(failed)) !== undefined;
    } catch {
      return false;
    }
  }

  // --- authorization --------------------------------------------------------------------------------

  /** One authorization at a time: concurrent callers share it. */
  #authorize(input: AuthorizeInput): Promise<void> {
    this.#authorizing ??= this.#runAuthorization(input).finally(() => {
      this.#authorizing = undefined;
    });
    return this.#authorizing;
  }

  async #runAuthorization(input: AuthorizeInput): Promise<void> {
    const scopes = [...new Set([...this.#wanted.scopes, ...(input.scopes ?? [])])];
    const challenge = input.challenge ?? this.#wanted.challenge;
    const grant = this.#options.grant;
    if (!input.interactive && this.#options.autoSignIn === false && !grant) {
      this.#wanted = { scopes, challenge };
      throw this.#fail(
        new McpAuthError('needs_user_gesture', `${this.resourceUrl.href} requires signing in; call signIn() from a user action`, { url: this.resourceUrl.href, scopes }),
        'needs_sign_in',
      );
    }
    const timeoutMs = this.#options.authorizationTimeoutMs ?? 600_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout;
    const previousStatus = this.#status;
    this.#setStatus('authorizing');
    try {
      const flow = await loadFlow();
      const ctx = this.#context(signal);
      const { metadata: prm, url: prmUrl } = await flow.discoverResource(ctx, challenge?.params.resource_metadata);
      const current = this.#binding;
      const issuer = current && prm.authorization_servers.includes(current.issuer) ? current.issuer : prm.authorization_servers[0]!;
      const as = await flow.discoverAuthorizationServer(ctx, issuer, { authorizationCode: !grant });
      const sameGrant = current !== undefined && current.issuer === as.issuer && current.resource === prm.resource;
      // A new authorization server or resource: nothing of the old grant carries over.
      if (current && !sameGrant) await this.#forget();
      const selected = flow.selectScopes({
        challenge,
        resource: prm,
        as,
        previous: sameGrant ? current.scopes : undefined,
        extra: [...(this.#options.scopes ?? []), ...scopes],
        // A machine grant is run again instead of refreshed.
        offlineAccess: !grant && this.#options.offlineAccess !== false,
      });
      if (grant) {
        const { requestGrant } = await import('./grants.js');
        const { tokens, client } = await requestGrant(ctx, { grant, as, resource: prm.resource, scopes: selected, clientIssuer: this.#options.clientIssuer });
        return await this.#adopt({ issuer: as.issuer, resource: prm.resource, prmUrl, as, client, scopes: selected, grantId: randomToken(12), dpop: false }, tokens);
      }
      if (this.#options.requireIss && as.authorization_response_iss_parameter_supported !== true) {
        // Checked before registering or opening anything: in strict mode, a response from this server could not be told from another's.
        throw new McpAuthError(
          'iss_unsupported',
          `${as.issuer} does not declare authorization_response_iss_parameter_supported (RFC 9207), and requireIss is on: its authorization responses could not be told apart from another server's (mix-up), so no authorization was started there`,
          { url: as.issuer, endpoint: 'authorization-server-metadata', issuer: as.issuer },
        );
      }
      // A stored registration the token endpoint refuses is replaced once (see #finish); never more.
      for (let attempt = 0; ; attempt++) {
        const rejected = this.#rejected.get(as.issuer);
        if (rejected) throw rejected;
        const { client, fresh } = await flow.resolveClient(ctx, as);
        const dpopKey = wantsDpop(this.#options, challenge, prm, as) ? await this.#dpopKey(as.issuer, prm.resource, true) : undefined;
        const { url, pending } = await flow.prepareAuthorization({ resourceUrl: this.resourceUrl, redirectUri: this.redirectUri!, as, client, resource: prm.resource, prmUrl, scopes: selected, dpopKey });
        if (fresh) pending.clientFresh = true;
        // Persisted before leaving, so a full-page redirect can finish after the return.
        await this.#storage.set(storageKeys.pending(pending.state), pending);
        if (!this.#opener) {
          throw new McpAuthError('needs_user_gesture', `${this.resourceUrl.href} requires authorization, but no openAuthorizationUrl is configured to show the authorization page`, {
            url: this.resourceUrl.href,
            scopes: selected,
          });
        }
        let callback: string | URL;
        try {
          callback = await untilAborted(this.#opener.open(url, { state: pending.state, redirectUri: pending.redirectUri, signal, interactive: input.interactive }), signal);
        } catch (error) {
          await this.#storage.delete(storageKeys.pending(pending.state));
          if (timeout.aborted && !McpAuthError.isInstance(error)) {
            throw new McpAuthError('timeout', `The authorization at ${as.issuer} did not complete within ${timeoutMs} ms`, { url: as.authorization_endpoint!, endpoint: 'authorization' });
          }
          if (signal.aborted && !McpAuthError.isInstance(error)) {
            throw new McpAuthError('cancelled', `The authorization at ${as.issuer} was cancelled`, { url: as.authorization_endpoint!, endpoint: 'authorization' }, { cause: error });
          }
          throw error;
        }
        try {
          await this.#finish(flow, pending, callback, ctx);
          return;
        } catch (error) {
          if (attempt === 0 && McpAuthError.isInstance(error) && error.data.registrationDiscarded === true) continue;
          throw error;
        }
      }
    } catch (error) {
      const failure = asAuthError(error, this.resourceUrl.href);
      if (failure.reason === 'needs_user_gesture') {
        this.#wanted = { scopes, challenge };
        throw this.#fail(failure, 'needs_sign_in');
      }
      // A refused client cannot be helped by signing in: no Sign in button for it.
      const hopeless = [...this.#rejected.values()].includes(failure);
      throw this.#fail(failure, this.#tokens ? 'signed_in' : previousStatus === 'needs_sign_in' && !hopeless ? 'needs_sign_in' : 'signed_out');
    } finally {
      // Also when prepare() opened a window but the flow failed before showing it.
      this.#opener?.done?.();
    }
  }

  /**
   * Checks the callback, redeems the code, stores the grant. When the token
   * endpoint refuses the client itself (`invalid_client`), a stored dynamic
   * registration is forgotten (`data.registrationDiscarded`: registering again
   * may help); a fresh registration or a configured client is remembered as
   * refused, so later attempts stop before sending anyone to sign in.
   */
  async #finish(flow: Flow, pending: PendingAuthorization, callback: string | URL, ctx: FlowContext): Promise<void> {
    try {
      const code = flow.checkCallback(pending, callback, { requireIss: this.#options.requireIss === true });
      const dpopKey = pending.dpop ? await this.#dpopKey(pending.issuer, pending.resource, false) : undefined;
      if (pending.dpop && !dpopKey) throw new McpAuthError('dpop_failed', `The DPoP key of this authorization is gone`, { url: pending.as.token_endpoint });
      let tokens: TokenSet;
      try {
        tokens = await flow.redeemCode(ctx, pending, code, dpopKey);
      } catch (error) {
        if (flow.isInvalidClient(error)) throw await this.#clientRefused(flow, pending, error);
        throw error;
      }
      const binding: Binding = {
        issuer: pending.issuer,
        resource: pending.resource,
        prmUrl: pending.prmUrl,
        as: pending.as,
        client: pending.client,
        scopes: pending.scopes,
        grantId: randomToken(12),
        dpop: tokens.tokenType === 'DPoP',
      };
      await this.#adopt(binding, tokens);
    } finally {
      await this.#storage.delete(storageKeys.pending(pending.state));
    }
  }

  /** The error to report after `invalid_client` at the token endpoint (see {@link #finish}). */
  async #clientRefused(flow: Flow, pending: PendingAuthorization, error: McpAuthError): Promise<McpAuthError> {
    const { client, issuer } = pending;
    const data = { ...error.data, url: pending.as.token_endpoint, endpoint: 'token endpoint', clientId: client.clientId };
    if (client.source === 'dynamic-registration') {
      await flow.forgetRegistration(this.#storage, client, pending.redirectUri);
      if (!pending.clientFresh) {
        return new McpAuthError('token_failed', `The token endpoint ${pending.as.token_endpoint} no longer accepts the stored client ${client.clientId} (invalid_client); the registration was discarded and the next authorization registers again`, { ...data, registrationDiscarded: true }, { cause: error });
      }
    }
    const stop =
      client.source === 'dynamic-registration'
        ? new McpAuthError(
            'registration_failed',
            `The token endpoint ${pending.as.token_endpoint} refused the client ${client.clientId} that ${issuer} had just registered (invalid_client${error.data.oauthErrorDescription ? `: ${error.data.oauthErrorDescription}` : ''}). Signing in again would fail the same way, so it is not offered; the server needs a pre-registered clientId instead`,
            data,
            { cause: error },
          )
        : new McpAuthError(
            'token_failed',
            `The token endpoint ${pending.as.token_endpoint} refused the client ${client.clientId} (invalid_client${error.data.oauthErrorDescription ? `: ${error.data.oauthErrorDescription}` : ''}); check its clientId, clientSecret and tokenEndpointAuthMethod. Signing in again would fail the same way, so it is not offered`,
            data,
            { cause: error },
          );
    this.#rejected.set(issuer, stop);
    return stop;
  }

  /** Stores a new grant's tokens and announces them. */
  async #adopt(binding: Binding, tokens: TokenSet): Promise<void> {
    await this.#save(binding, tokens);
    this.#wanted = { scopes: [] };
    this.#lastError = undefined;
    this.#setStatus('signed_in');
    this.#emitter.emit('token', { kind: 'authorized', session: this.session! });
  }

  /** Refreshes once at a time in this page, and once at a time across tabs (Web Locks). */
  #refresh(stale: TokenSet): Promise<TokenSet | undefined> {
    const binding = this.#binding;
    if (!binding) return Promise.resolve(undefined);
    this.#refreshing ??= withLock(`mcp-web-elements-oauth ${binding.issuer} ${binding.resource}`, async () => {
      const key = storageKeys.tokens(binding.issuer, binding.resource);
      // Another tab may have refreshed while we waited for the lock: use its tokens
      // (refresh tokens rotate, so ours may already be spent).
      const current = ((await this.#storage.get(key)) as TokenSet | undefined) ?? stale;
      if (current.accessToken !== stale.accessToken) {
        this.#tokens = current;
        if (!dueForRefresh(current, this.#options)) return current;
      }
      if (!current.refreshToken || !binding.client) return undefined;
      const flow = await loadFlow();
      const dpopKey = binding.dpop ? await this.#dpopKey(binding.issuer, binding.resource, false) : undefined;
      try {
        const next = await flow.refreshTokens(this.#context(), { as: binding.as, client: binding.client, resource: binding.resource, tokens: current, dpopKey });
        await this.#save(binding, next);
        this.#emitter.emit('token', { kind: 'refreshed', session: this.session! });
        return next;
      } catch (error) {
        if (McpAuthError.isInstance(error) && error.reason === 'refresh_failed') {
          // The grant is gone (expired, revoked, rotated away): a new sign-in is needed —
          // with a new registration if the server no longer knows ours.
          if (flow.isInvalidClient(error)) await flow.forgetRegistration(this.#storage, binding.client, this.redirectUri);
          this.#tokens = undefined;
          await this.#storage.delete(key);
          this.#lastError = error;
          this.#setStatus('signed_out', error);
          return undefined;
        }
        throw error;
      }
    }).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #dpopKey(issuer: string, resource: string, create: boolean): Promise<CryptoKeyPair | undefined> {
    const key = storageKeys.dpopKey(issuer, resource);
    let pair = this.#dpopKeys.get(key) ?? ((await this.#storage.get(key)) as CryptoKeyPair | undefined);
    if (!pair && create) {
      const { generateDpopKey } = await import('./dpop.js');
      pair = await generateDpopKey();
      await this.#storage.set(key, pair);
    }
    if (pair) this.#dpopKeys.set(key, pair);
    return pair;
  }

  // --- state ----------------------------------------------------------------------------------------

  #warn(code: string, message: string): void {
    if (this.#warned.has(message)) return;
    if (this.#warned.size > 100) this.#warned.clear();
    this.#warned.add(message);
    if (this.#options.onWarning) this.#options.onWarning({ code, message });
    else console.warn(`[mcp-web-elements] ${message}`);
  }

  #context(signal?: AbortSignal): FlowContext {
    const o = this.#options;
    // Unset options stay undefined: the flow reads each field, never the keys.
    return {
      fetch: this.#rawFetch,
      warn: (code, message) => this.#warn(code, message),
      resourceUrl: this.resourceUrl,
      redirectUri: this.redirectUri,
      storage: this.#storage,
      nonces: this.#nonces,
      clientName: o.clientName ?? 'mcp-web-elements',
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      clientIssuer: o.clientIssuer,
      tokenEndpointAuthMethod: o.tokenEndpointAuthMethod,
      clientMetadataUrl: o.clientMetadataUrl,
      applicationType: o.applicationType,
      perIssuerRedirectUri: o.perIssuerRedirectUri,
      signal,
    };
  }

  #bindingKey(): string {
    return storageKeys.binding(this.resourceUrl.href);
  }

  async #load(): Promise<void> {
    try {
      const binding = (await this.#storage.get(this.#bindingKey())) as Binding | undefined;
      if (binding && typeof binding.issuer === 'string' && typeof binding.resource === 'string') {
        this.#binding = binding;
        this.#tokens = (await this.#storage.get(storageKeys.tokens(binding.issuer, binding.resource))) as TokenSet | undefined;
      }
    } catch (error) {
      // Storage unavailable (e.g. IndexedDB blocked in a private window): keep going in memory.
      this.#storage = new MemoryAuthStorage();
      this.#emitter.emit('status', {
        status: this.#status,
        error: new McpAuthError('invalid_response', `Token storage is unavailable (${(error as Error)?.message ?? error}); tokens are kept in memory only`, { url: this.resourceUrl.href }),
      });
    }
    if (this.#tokens) this.#setStatus('signed_in');
  }

  async #save(binding: Binding, tokens: TokenSet): Promise<void> {
    await this.#storage.set(storageKeys.tokens(binding.issuer, binding.resource), tokens);
    await this.#storage.set(this.#bindingKey(), binding);
    this.#binding = binding;
    this.#tokens = tokens;
  }

  /** Forgets the tokens, DPoP key and binding of this endpoint (the client registration stays). */
  async #forget(): Promise<void> {
    const binding = this.#binding;
    this.#binding = undefined;
    this.#tokens = undefined;
    if (!binding) return;
    const dpopKey = storageKeys.dpopKey(binding.issuer, binding.resource);
    this.#dpopKeys.delete(dpopKey);
    await this.#storage.delete(storageKeys.tokens(binding.issuer, binding.resource));
    await this.#storage.delete(dpopKey);
    await this.#storage.delete(this.#bindingKey());
  }

  #fail(error: McpAuthError, status: OAuthStatus = this.#tokens ? 'signed_in' : 'signed_out'): McpAuthError {
    this.#lastError = error;
    this.#setStatus(status, error);
    return error;
  }

  #setStatus(status: OAuthStatus, error?: McpAuthError): void {
    if (status === this.#status && !error) return;
    this.#status = status;
    this.#emitter.emit('status', { status, ...(error ? { error } : {}) });
  }
}

/**
 * Creates the OAuth layer for one MCP endpoint (spec: basic/authorization):
 * the user's authorization code flow (`redirectUri`, `openAuthorizationUrl`),
 * or, in Node and backends, a machine-to-machine `grant` (docs/oauth.md).
 *
 * @returns an {@link OAuth}: pass `auth.fetch` and `auth.authContext` to `new McpClient(url, …)`;
 *   `auth.signIn()` from a click; `auth.signOut()`; `auth.status` and `auth.on('status', …)`.
 * @throws TypeError without `redirectUri` and without `grant`.
 */
export function createOAuth(options: OAuthOptions): OAuth {
  return new OAuth(options);
}
