/**
 * The browser pieces of the OAuth layer in real Chromium, against the protected
 * demo (oidc-provider, sign-in approved without a page, and
 * `Cross-Origin-Opener-Policy` on the authorization server, which cuts
 * `window.opener`): popup sign-in from a click, the callback page handing the
 * response back over BroadcastChannel, tokens in IndexedDB reused after a
 * "reload", a blocked popup turning into `needs_sign_in`, redirect-mode state
 * surviving in IndexedDB, and a non-extractable DPoP key stored there.
 */
import { afterEach, describe, expect, inject, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { McpClient } from '../../src/index.js';
import { createOAuth, IndexedDbAuthStorage, McpAuthError, type OAuth } from '../../src/auth/index.js';
import { createDpopProof, generateDpopKey } from '../../src/auth/dpop.js';
import { completeAuthorizationCallback } from './callback.js';
import { DEFAULT_CHANNEL } from './messages.js';
import { popupAuthorization } from './popup.js';
import { completeRedirectAuthorization, redirectAuthorization } from './redirect.js';
import { cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';

const serverUrl = inject('protectedServerUrl');
const redirectUri = new URL('/components/auth/test-callback.html', location.origin).href;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A fresh IndexedDB database per test, deleted afterwards. */
function freshStorage(): { storage: IndexedDbAuthStorage; name: string } {
  const name = `mcp-web-elements-oauth-test-${crypto.randomUUID()}`;
  cleanups.push(() => indexedDB.deleteDatabase(name));
  return { storage: new IndexedDbAuthStorage(name), name };
}

/** A Sign in button whose click calls `auth.signIn()`, as a page would have it. */
function signInButton(auth: OAuth): { signedIn: () => Promise<void> } {
  let result: Promise<void> | undefined;
  const button = document.createElement('button');
  button.textContent = 'Sign in';
  button.addEventListener('click', () => {
    result = auth.signIn();
  });
  document.body.append(button);
  cleanups.push(() => button.remove());
  return { signedIn: () => result ?? Promise.reject(new Error('not clicked')) };
}

function client(auth: OAuth): McpClient {
  const mcp = new McpClient(serverUrl, { fetch: auth.fetch, authContext: auth.authContext, onWarning: () => {} });
  cleanups.push(() => mcp.close());
  return mcp;
}

describe('popup sign-in', () => {
  test('from a click, through an authorization server with COOP; tokens are reused from IndexedDB after a reload', async () => {
    const { storage, name } = freshStorage();
    const auth = createOAuth({ resourceUrl: serverUrl, redirectUri, storage, openAuthorizationUrl: popupAuthorization() });
    const button = signInButton(auth);
    await userEvent.click(page.getByRole('button', { name: 'Sign in' }));
    await button.signedIn();
    expect(auth.status).toBe('signed_in');
    expect(auth.session).toMatchObject({ resource: serverUrl, tokenType: 'Bearer', refreshable: true });

    const result = await client(auth).callTool('get_weather', { city: 'Oslo' });
    expect(result).toMatchObject({ structuredContent: { city: 'Oslo' } });

    // "Reload": a new instance reading the same database signs in without any window.
    const opened: string[] = [];
    const reloaded = createOAuth({
      resourceUrl: serverUrl,
      redirectUri,
      storage: new IndexedDbAuthStorage(name),
      openAuthorizationUrl: popupAuthorization({ openWindow: (url) => (opened.push(url), null) }),
    });
    await reloaded.ready;
    expect(reloaded.status).toBe('signed_in');
    await client(reloaded).callTool('get_weather', { city: 'Bergen' });
    expect(opened).toEqual([]);
  });

  test('a blocked popup outside a gesture becomes needs_sign_in; the Sign in click then completes it', async () => {
    const { storage } = freshStorage();
    let blocked = true;
    const auth = createOAuth({
      resourceUrl: serverUrl,
      redirectUri,
      storage,
      // What a browser does with window.open outside a user gesture: returns null.
      openAuthorizationUrl: popupAuthorization({ openWindow: (url, target, features) => (blocked ? null : window.open(url, target, features)) }),
    });
    const mcp = client(auth);
    const error = await mcp.listTools().catch((e: unknown) => e);
    expect(McpAuthError.isInstance(error) && error.reason).toBe('needs_user_gesture');
    expect(auth.status).toBe('needs_sign_in');

    blocked = false;
    const button = signInButton(auth);
    await userEvent.click(page.getByRole('button', { name: 'Sign in' }));
    await button.signedIn();
    expect(auth.status).toBe('signed_in');
    await mcp.reconnect();
    expect((await mcp.listTools()).length).toBeGreaterThan(0);
  });

  test('COOP really cuts window.opener here: without the BroadcastChannel the response never arrives', async () => {
    const { storage } = freshStorage();
    // The opener listens on a channel the callback page does not post to: only window.opener could deliver.
    const auth = createOAuth({ resourceUrl: serverUrl, redirectUri, storage, openAuthorizationUrl: popupAuthorization({ channel: 'not-the-callback-channel' }) });
    let result: Promise<void> | undefined;
    const button = document.createElement('button');
    button.textContent = 'Sign in (opener only)';
    button.addEventListener('click', () => {
      result = auth.signIn({ signal: AbortSignal.timeout(3000) });
    });
    document.body.append(button);
    cleanups.push(() => button.remove());
    await userEvent.click(page.getByRole('button', { name: 'Sign in (opener only)' }));
    const error = await result!.catch((e: unknown) => e);
    expect(McpAuthError.isInstance(error) && error.reason).toBe('cancelled');
    expect(auth.status).toBe('signed_out');
  });
});

describe('redirect mode', () => {
  test('the pending authorization is kept in IndexedDB and finished by handleRedirect() after the return', async () => {
    const { storage, name } = freshStorage();
    let leftFor: string | undefined;
    const before = createOAuth({ resourceUrl: serverUrl, redirectUri, storage, openAuthorizationUrl: redirectAuthorization({ navigate: (href) => (leftFor = href) }) });
    void before.signIn().catch(() => {});
    await expect.poll(() => leftFor, { timeout: 10_000 }).toBeDefined();
    // The flow uses this issuer's own redirect URI (mix-up defence, RFC 9700 §4.4.2); the callback page keeps its query.
    const flowRedirect = new URL(new URL(leftFor!).searchParams.get('redirect_uri')!);
    expect(`${flowRedirect.origin}${flowRedirect.pathname}`).toBe(redirectUri);
    expect(flowRedirect.searchParams.get('mcp_as')).toMatch(/^[\w-]{16}$/);

    // Stand in for the page's trip: the authorization server sends the browser to the redirect URI.
    const channel = new BroadcastChannel(DEFAULT_CHANNEL);
    cleanups.push(() => channel.close());
    const returned = new Promise<string>((resolve) => channel.addEventListener('message', (event) => resolve(event.data.url)));
    const trip = window.open(leftFor, 'redirect-trip', 'popup=yes,width=400,height=400');
    cleanups.push(() => trip?.close());
    const callback = await returned;

    // After the "reload": a new instance, same database; the address bar carries the response.
    const original = location.href;
    cleanups.push(() => history.replaceState(history.state, '', original));
    const withResponse = new URL(original);
    for (const [key, value] of new URL(callback).searchParams) withResponse.searchParams.set(key, value);
    history.replaceState(history.state, '', withResponse.href);
    const after = createOAuth({ resourceUrl: serverUrl, redirectUri, storage: new IndexedDbAuthStorage(name), openAuthorizationUrl: redirectAuthorization() });
    expect(await completeRedirectAuthorization(after, callback)).toBe(true);
    expect(after.status).toBe('signed_in');
    // The one-time code is gone from the address bar; the page's own parameters stay.
    expect(new URL(location.href).searchParams.has('code')).toBe(false);
    expect(new URL(location.href).searchParams.has('state')).toBe(false);
    expect(location.href).toBe(original);
    await client(after).callTool('get_weather', { city: 'Turku' });
  });
});

describe('the callback page module', () => {
  test('hands a response over the BroadcastChannel and ignores a page without one', async () => {
    const channel = new BroadcastChannel('callback-test');
    cleanups.push(() => channel.close());
    const received = new Promise<unknown>((resolve) => channel.addEventListener('message', (event) => resolve(event.data)));
    expect(completeAuthorizationCallback({ channel: 'callback-test', close: false, url: `${redirectUri}?error=x` })).toBe(false);
    const response = `${redirectUri}?code=abc&state=s1&iss=https%3A%2F%2Fas.test`;
    expect(completeAuthorizationCallback({ channel: 'callback-test', close: false, url: response })).toBe(true);
    expect(await received).toEqual({ type: 'mcp-oauth-callback', url: response });
  });
});

describe('DPoP keys in IndexedDB', () => {
  test('stay non-extractable across a reload and still sign proofs', async () => {
    const { storage, name } = freshStorage();
    await storage.set('key', await generateDpopKey());
    const pair = (await new IndexedDbAuthStorage(name).get('key')) as CryptoKeyPair;
    expect(pair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', pair.privateKey)).rejects.toThrow();
    const proof = await createDpopProof(pair, { method: 'POST', url: serverUrl, accessToken: 'token' });
    expect(proof.split('.')).toHaveLength(3);
  });
});

describe('<mcp-connection require-iss> (OAuth strict mode, issue 29 item 1)', () => {
  test('the turnkey OAuth is strict, and signing in with a server that sends iss (oidc-provider) works from the Sign in button', async () => {
    await import('../index.js');
    const connection = mount<McpConnection>(`<mcp-connection server-url="${serverUrl}" oauth-redirect-uri="${redirectUri}" require-iss no-listen></mcp-connection>`);
    cleanups.push(() => cleanup());
    await expect.poll(() => connection.oauth?.status, { timeout: 15_000 }).toBe('needs_sign_in');
    expect(connection.oauth!.requireIss).toBe(true);
    const connected = nextEvent(connection, 'mcp-connect', 30_000);
    await userEvent.click(page.getByRole('button', { name: 'Sign in' }));
    await connected;
    expect(connection.status).toBe('connected');
    await connection.oauth!.signOut();
  });

  test('an .auth created without requireIss is refused rather than used less strictly than asked', async () => {
    await import('../index.js');
    const { storage } = freshStorage();
    const connection = mount<McpConnection>(`<mcp-connection no-auto-connect require-iss no-listen></mcp-connection>`);
    cleanups.push(() => cleanup());
    connection.auth = createOAuth({ resourceUrl: serverUrl, redirectUri, storage, openAuthorizationUrl: popupAuthorization() });
    connection.serverUrl = serverUrl;
    const error = await connection.connect().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'auth', message: expect.stringMatching(/without requireIss/) });
    expect(connection.status).toBe('error');
  });
});
