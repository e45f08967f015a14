/**
 * Dynamic Client Registration and client authentication at the token endpoint
 * (RFC 7591, RFC 8414, RFC 6749 §2.3), against the test authorization server in
 * its strict mode: it holds each client to exactly the method its registration
 * response names (or RFC 7591's default, `client_secret_basic`, when a secret
 * comes without one), refuses a request that uses two methods, and can forget a
 * registration as a real server does when one expires or is deleted.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient } from '../src/index.js';
import { createOAuth, followRedirects, MemoryAuthStorage, type OAuthOptions } from '../src/auth/index.js';
import { authError, startAuthServer, startProtectedServer, type AuthServer, type AuthServerOptions, type Recorded } from './support/auth-servers.js';

const REDIRECT = 'http://localhost:5173/oauth/callback';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(asOptions: AuthServerOptions, oauth: Partial<OAuthOptions> = {}) {
  const as = await startAuthServer(asOptions);
  const rs = await startProtectedServer({ authorizationServers: () => [as.issuer], authServer: as });
  cleanups.push(() => as.close(), () => rs.close());
  const warnings: string[] = [];
  const storage = new MemoryAuthStorage();
  const newClient = () => {
    const auth = createOAuth({ resourceUrl: rs.url, redirectUri: REDIRECT, storage, openAuthorizationUrl: followRedirects(), onWarning: (w) => warnings.push(`${w.code}: ${w.message}`), ...oauth });
    const client = new McpClient(rs.url, { fetch: auth.fetch, authContext: auth.authContext, onWarning: () => {} });
    cleanups.push(() => client.close());
    return { auth, client };
  };
  return { as, rs, warnings, storage, newClient, ...newClient() };
}

const tokenRequests = (as: AuthServer): Recorded[] => as.requests.filter((r) => r.path === '/token');
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${new URLSearchParams({ v: id }).toString().slice(2)}:${new URLSearchParams({ v: secret }).toString().slice(2)}`).toString('base64')}`;
/** How many client authentication methods one token request used (RFC 6749 §2.3: at most one). */
const methodsIn = (r: Recorded) => [r.headers.authorization?.toString().startsWith('Basic '), r.body.client_secret !== undefined, r.body.client_assertion !== undefined].filter(Boolean).length;

describe('C26 dynamic client registration: ask for a public client explicitly, then authenticate exactly as registered', () => {
  test('public client: registers as "none" explicitly; the token request carries client_id only', async () => {
    const { as, client } = await setup({ authMethods: ['none', 'client_secret_basic'] });
    await client.callTool('echo', { text: 'public' });
    const registration = as.requests.find((r) => r.path === '/register')!;
    const authorize = as.requests.find((r) => r.path === '/authorize')!;
    expect(registration.body).toMatchObject({ token_endpoint_auth_method: 'none', redirect_uris: [authorize.query.redirect_uri] });
    expect(registration.body.grant_types).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(authorize.query.redirect_uri!.startsWith(REDIRECT)).toBe(true);
    const [token] = tokenRequests(as);
    expect(Object.keys(token!.body)).toEqual(expect.arrayContaining(['client_id', 'code_verifier', 'resource']));
    expect(token!.headers.authorization).toBeUndefined();
    expect(token!.body.client_secret).toBeUndefined();
  });

  test('a secret registered for client_secret_post goes in the body, and nowhere else', async () => {
    const { as, client } = await setup({
      authMethods: ['client_secret_post'],
      registrationReply: (_body, n) => ({ client_id: `form-app-${n}`, client_secret: 'p0st+/=secret', token_endpoint_auth_method: 'client_secret_post' }),
    });
    await client.callTool('echo', { text: 'post' });
    expect(as.requests.find((r) => r.path === '/register')!.body.token_endpoint_auth_method).toBe('client_secret_post');
    const [token] = tokenRequests(as);
    expect(token!.body).toMatchObject({ client_id: 'form-app-1', client_secret: 'p0st+/=secret' });
    expect(token!.headers.authorization).toBeUndefined();
  });

  test('a secret registered for client_secret_basic goes in the Basic header, form-encoded; no client_id or secret in the body', async () => {
    const { as, client } = await setup({
      authMethods: ['client_secret_basic'],
      registrationReply: (_body, n) => ({ client_id: `app:${n}`, client_secret: 'k3y:w/ @chars', token_endpoint_auth_method: 'client_secret_basic' }),
    });
    await client.callTool('echo', { text: 'basic' });
    const [token] = tokenRequests(as);
    expect(token!.headers.authorization).toBe(basic('app:1', 'k3y:w/ @chars'));
    expect(token!.body.client_id).toBeUndefined();
    expect(token!.body.client_secret).toBeUndefined();
  });

  test('a secret without a method, metadata without methods: the RFC 7591 default client_secret_basic, with a warning', async () => {
    const { as, client, warnings } = await setup({ authMethods: null, registrationReply: (_body, n) => ({ client_id: `quiet-${n}`, client_secret: 'handed-out' }) });
    const result = await client.callTool('echo', { text: 'default method' });
    expect(result).toMatchObject({ content: [{ text: 'echo: default method' }] });
    const tokens = tokenRequests(as);
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.headers.authorization).toBe(basic('quiet-1', 'handed-out'));
    expect(methodsIn(tokens[0]!)).toBe(1);
    expect(as.count('/authorize')).toBe(1);
    expect(warnings.join('\n')).toMatch(/registration-method-missing: .*client_secret_basic/);
  });

  test('a secret without a method, metadata listing neither secret method: still the RFC 7591 default client_secret_basic (not client_secret_post), and the warning says so', async () => {
    const { as, client, warnings } = await setup({ authMethods: ['private_key_jwt'], registrationReply: (_body, n) => ({ client_id: `jwt-only-${n}`, client_secret: 'handed-out-anyway' }) });
    expect(await client.callTool('echo', { text: 'neither listed' })).toMatchObject({ content: [{ text: 'echo: neither listed' }] });
    const [token] = tokenRequests(as);
    expect(token!.headers.authorization).toBe(basic('jwt-only-1', 'handed-out-anyway'));
    expect(token!.body.client_secret).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/registration-method-missing: .*client_secret_basic, the RFC 7591 default/);
  });

  test('the app retries twice more: nothing new is registered and nobody is sent to sign in again', async () => {
    const { as, client } = await setup({ authMethods: null, registrationReply: (_body, n) => ({ client_id: `quiet-${n}`, client_secret: 'handed-out' }) });
    for (const text of ['one', 'two', 'three']) await client.callTool('echo', { text });
    expect(as.count('/register')).toBe(1);
    expect(as.count('/authorize')).toBe(1);
  });

  test('a public registration that also hands out a secret: registered as "none", so the secret is never sent', async () => {
    const { as, client, warnings } = await setup({
      authMethods: ['none', 'client_secret_post'],
      registrationReply: (_body, n) => ({ client_id: `open-${n}`, client_secret: 'not-for-public-clients', token_endpoint_auth_method: 'none' }),
    });
    await client.callTool('echo', { text: 'stray' });
    const [token] = tokenRequests(as);
    expect(token!.body.client_id).toBe('open-1');
    expect(methodsIn(token!)).toBe(0);
    expect(warnings.join('\n')).toMatch(/client_secret/);
  });

  test.each([
    ['a secret method without a secret', { client_id: 'half-1', token_endpoint_auth_method: 'client_secret_basic' }, /client_secret_basic.*no client_secret/],
    ['a method this client cannot use', { client_id: 'mtls-1', token_endpoint_auth_method: 'tls_client_auth' }, /tls_client_auth/],
  ])('%s: a clear registration error before anyone is sent to sign in', async (_name, reply, message) => {
    const { as, client } = await setup({ authMethods: ['client_secret_basic', 'tls_client_auth'], registrationReply: () => reply });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('registration_failed');
    expect(error.message).toMatch(message);
    expect(error.data.url).toBe(`${as.issuer}/register`);
    expect(as.count('/authorize')).toBe(0);
  });
});

/**
 * How the client authenticates at the token endpoint, one choice for every
 * client: what a Dynamic Client Registration asks for, and how a client that
 * holds a secret (pre-registered here; the machine-to-machine grants and a
 * registration answered without a method make the same choice) sends it.
 *
 * - RFC 8414 §2: metadata without `token_endpoint_auth_methods_supported`
 *   means `client_secret_basic`.
 * - RFC 7591 §2: the registration requests a method (`none` is a public
 *   client); the server may refuse it or register another, and its response
 *   says which (tested above).
 * - RFC 6749 §2.3.1 (OAuth 2.1 §2.4.1): a server MUST accept HTTP Basic from a
 *   client it issued a secret to; the body is the fallback for servers that
 *   cannot take Basic (listing `client_secret_post` without it).
 * - The MCP authorization spec names no method (client-registration); where
 *   the RFCs leave the choice open, the kit picks the one a server that
 *   follows them has to accept.
 *
 * Regression: a registration asked for a public client (`none`) from servers
 * that never offered one — metadata without the list, or listing only
 * methods the kit cannot use — while a secret was then sent with
 * `client_secret_basic` (a second copy of the choice, which disagreed).
 */
describe('token endpoint auth method: what a registration asks for, and how a secret is sent', () => {
  test.each([
    ['the server lists none (and client_secret_basic): a public client, as befits a page', ['none', 'client_secret_basic'], 'none'],
    ['the server lists only none: a public client', ['none'], 'none'],
    ['the metadata has no list: client_secret_basic, the one method RFC 8414 §2 says such a server supports (it never offered none)', null, 'client_secret_basic'],
    ['the server lists only client_secret_basic: client_secret_basic', ['client_secret_basic'], 'client_secret_basic'],
    ['the server lists only client_secret_post: client_secret_post', ['client_secret_post'], 'client_secret_post'],
    ['the server lists both secret methods, not none: client_secret_basic, which RFC 6749 §2.3.1 makes every server accept', ['client_secret_post', 'client_secret_basic'], 'client_secret_basic'],
    [
      'the server lists only methods this client cannot use (private_key_jwt): client_secret_basic, which a server that issues secrets must accept (RFC 6749 §2.3.1), not a public client it never offered',
      ['private_key_jwt'],
      'client_secret_basic',
    ],
  ] as const)('registration: %s', async (_name, authMethods, requested) => {
    // The test server registers what was asked for, issues a secret for a secret method and holds the client to it.
    const { as, client } = await setup({ authMethods: authMethods === null ? null : [...authMethods] });
    expect(await client.callTool('echo', { text: 'registered' })).toMatchObject({ content: [{ text: 'echo: registered' }] });
    const registration = as.requests.find((r) => r.path === '/register')!;
    expect(registration.body.token_endpoint_auth_method).toBe(requested);
    const [token] = tokenRequests(as);
    expect(methodsIn(token!)).toBe(requested === 'none' ? 0 : 1);
    if (requested === 'client_secret_basic') expect(token!.headers.authorization).toMatch(/^Basic /);
    if (requested === 'client_secret_post') expect(token!.body.client_secret).toBeDefined();
  });

  test.each([
    ['the metadata has no list: HTTP Basic (RFC 8414 §2)', null, 'basic'],
    ['the server lists client_secret_basic: HTTP Basic', ['client_secret_basic'], 'basic'],
    ['the server lists only client_secret_post: the secret in the body', ['client_secret_post'], 'post'],
    ['the server lists both: HTTP Basic (RFC 6749 §2.3.1: the body is NOT RECOMMENDED)', ['client_secret_post', 'client_secret_basic'], 'basic'],
    ['the server lists only none: HTTP Basic, which it must accept from a client it gave a secret (RFC 6749 §2.3.1)', ['none'], 'basic'],
    ['the server lists only private_key_jwt: HTTP Basic, for the same reason', ['private_key_jwt'], 'basic'],
  ] as const)('a pre-registered client with a secret: %s', async (_name, authMethods, sent) => {
    const { as, client } = await setup({ registration: false, authMethods: authMethods === null ? null : [...authMethods] }, { clientId: 'pre-1', clientSecret: 'pre-secret' });
    await client.callTool('echo', { text: 'pre-registered' });
    const [token] = tokenRequests(as);
    expect(methodsIn(token!)).toBe(1);
    if (sent === 'basic') expect(token!.headers.authorization).toBe(basic('pre-1', 'pre-secret'));
    else expect(token!.body).toMatchObject({ client_id: 'pre-1', client_secret: 'pre-secret' });
  });

  test('a pre-registered client without a secret is a public client whatever the server lists: client_id only', async () => {
    const { as, client } = await setup({ registration: false, authMethods: ['client_secret_basic'] }, { clientId: 'pre-public' });
    await client.callTool('echo', { text: 'public' });
    const [token] = tokenRequests(as);
    expect(token!.body.client_id).toBe('pre-public');
    expect(methodsIn(token!)).toBe(0);
  });
});

/**
 * Regression: after `invalid_client` at the token endpoint, the kit kept the
 * dead registration, so every retry sent the user to sign in again with a
 * client that could never get a token. Now a stored registration that is
 * refused is forgotten and replaced once; a fresh one that is refused stops
 * with a clear error, and later attempts fail the same way without anybody
 * being sent to the authorization page.
 */
describe('invalid_client after dynamic registration: no sign-in loop', () => {
  test('a stored registration the server forgot: registered once more, and the call succeeds', async () => {
    const { as, newClient, client, auth } = await setup({ authMethods: ['none'] });
    await client.listTools();
    await auth.signOut();
    as.dropClient('client-1');
    const again = newClient();
    await again.client.callTool('echo', { text: 'after the server forgot us' });
    const [, second] = [...as.clients.keys()];
    expect(as.count('/register')).toBe(2);
    // One authorization with the dead client (refused at the token endpoint), one with the new one.
    expect(as.requests.filter((r) => r.path === '/authorize').map((r) => r.query.client_id)).toEqual(['client-1', 'client-1', second]);
    expect(tokenRequests(as).map((r) => r.body.client_id)).toEqual(['client-1', 'client-1', second]);
  });

  test('a fresh registration the token endpoint refuses: a clear error, then no more sign-ins or registrations', async () => {
    // The server registers the client but refuses it at the token endpoint (it expects another method).
    const { as, client, auth } = await setup({ authMethods: ['none'], registrationReply: (_body, n) => ({ client_id: `doomed-${n}`, token_endpoint_auth_method: 'none' }) });
    as.options.registrationReply = (_body, n) => {
      as.dropClient(`doomed-${n}`);
      return { client_id: `doomed-${n}`, token_endpoint_auth_method: 'none' };
    };
    const first = await authError(client.listTools());
    expect(first.reason).toBe('registration_failed');
    expect(first.message).toMatch(/invalid_client/);
    expect(first.message).toMatch(/doomed-1/);
    expect(first.data).toMatchObject({ url: `${as.issuer}/token`, oauthError: 'invalid_client' });
    for (let i = 0; i < 2; i++) {
      const again = await authError(client.callTool('echo', { text: `retry ${i}` }));
      expect(again.reason).toBe('registration_failed');
    }
    expect(as.count('/register')).toBe(1);
    expect(as.count('/authorize')).toBe(1);
    expect(auth.status).toBe('signed_out');
  });

  test('with a Sign in button (autoSignIn: false): after the refusal the status is signed_out, not needs_sign_in', async () => {
    const { as, client, auth } = await setup({ authMethods: ['none'] }, { autoSignIn: false });
    as.options.registrationReply = (_body, n) => {
      as.dropClient(`doomed-${n}`);
      return { client_id: `doomed-${n}`, token_endpoint_auth_method: 'none' };
    };
    expect((await authError(client.listTools())).reason).toBe('needs_user_gesture');
    expect(auth.status).toBe('needs_sign_in');
    expect((await authError(auth.signIn())).reason).toBe('registration_failed');
    expect(auth.status).toBe('signed_out');
    expect((await authError(auth.signIn())).reason).toBe('registration_failed');
    expect(as.count('/authorize')).toBe(1);
  });

  test('a refresh refused with invalid_client: the registration is dropped, the next sign-in registers again', async () => {
    const { as, rs, client } = await setup({ authMethods: ['none'] });
    await client.listTools();
    as.dropClient('client-1');
    for (const token of as.tokens.keys()) rs.rejected.add(token);
    await client.callTool('echo', { text: 'after refresh failed' });
    const [, second] = [...as.clients.keys()];
    expect(tokenRequests(as).map((r) => `${r.body.grant_type} ${r.body.client_id}`)).toEqual(['authorization_code client-1', 'refresh_token client-1', `authorization_code ${second}`]);
    expect(as.count('/register')).toBe(2);
  });
});
