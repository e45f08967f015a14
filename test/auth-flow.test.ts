/**
 * The OAuth layer end to end in Node: the real client core against the SDK
 * server behind a resource-server guard and the configurable test
 * authorization server (test/support/auth-servers.ts). Each test asserts what
 * went over the wire.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient } from '../src/index.js';
import { createOAuth, followRedirects, MemoryAuthStorage, type AuthorizationOpener, type OAuthOptions } from '../src/auth/index.js';
import { authError, startAuthServer, startProtectedServer, type AuthServer, type AuthServerOptions, type ProtectedServer, type ProtectedServerOptions } from './support/auth-servers.js';
import { startRawServer } from './support/servers.js';

const REDIRECT = 'http://localhost:5173/oauth/callback';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(
  options: { as?: AuthServerOptions; rs?: Partial<ProtectedServerOptions>; oauth?: Partial<OAuthOptions> } = {},
): Promise<{ as: AuthServer; rs: ProtectedServer; auth: ReturnType<typeof createOAuth>; client: McpClient; storage: MemoryAuthStorage; newClient(oauth?: Partial<OAuthOptions>): { auth: ReturnType<typeof createOAuth>; client: McpClient } }> {
  const as = await startAuthServer(options.as);
  const rs = await startProtectedServer({ authorizationServers: () => [as.issuer], authServer: as, ...options.rs });
  const storage = new MemoryAuthStorage();
  const newClient = (oauth: Partial<OAuthOptions> = {}) => {
    const auth = createOAuth({ resourceUrl: rs.url, redirectUri: REDIRECT, storage, openAuthorizationUrl: followRedirects(), ...options.oauth, ...oauth });
    const client = new McpClient(rs.url, { fetch: auth.fetch, authContext: auth.authContext, onWarning: () => {} });
    cleanups.push(() => client.close());
    return { auth, client };
  };
  const { auth, client } = newClient();
  cleanups.push(() => as.close(), () => rs.close());
  return { as, rs, auth, client, storage, newClient };
}

const sha256 = async (text: string) => Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString('base64url');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mcpPosts = (rs: ProtectedServer) => rs.requests.filter((r) => r.path === '/mcp');

describe('the authorization code flow', () => {
  test('401 → metadata → registration → PKCE authorization → token, then Bearer on every request', async () => {
    const { as, rs, auth, client } = await setup({ rs: { challengeScope: 'mcp:read' } });
    const result = await client.callTool('echo', { text: 'hi' });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'echo: hi' }] });

    // Discovery went to the hinted Protected Resource Metadata, then the AS metadata.
    expect(rs.requests.filter((r) => r.path.startsWith('/.well-known')).map((r) => r.path)).toEqual(['/.well-known/oauth-protected-resource/mcp']);
    expect(as.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /.well-known/oauth-authorization-server',
      'POST /register',
      'GET /authorize',
      'POST /token',
    ]);
    const [, registration, authorize, token] = as.requests;
    // The redirect URI names the issuer (per-issuer redirect URIs, RFC 9700 §4.4.2).
    const redirect = registration!.body.redirect_uris[0];
    expect(redirect).toBe(`${REDIRECT}?mcp_as=${(await sha256(as.issuer)).slice(0, 16)}`);
    expect(registration!.body).toMatchObject({
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native', // a localhost redirect URI
    });
    const q = authorize!.query;
    expect(q).toMatchObject({ response_type: 'code', client_id: 'client-1', redirect_uri: redirect, code_challenge_method: 'S256', resource: rs.url, scope: 'mcp:read' });
    expect(q.state).toMatch(/^[\w-]{32}$/);
    expect(q.code_challenge).toBe(await sha256(token!.body.code_verifier));
    expect(token!.body).toMatchObject({ grant_type: 'authorization_code', redirect_uri: redirect, resource: rs.url, client_id: 'client-1' });

    // The first POST went without a token; every later one with it.
    const posts = mcpPosts(rs);
    expect(posts[0]!.headers.authorization).toBeUndefined();
    expect(posts.slice(1).length).toBeGreaterThanOrEqual(2);
    for (const post of posts.slice(1)) expect(post.headers.authorization).toBe(`Bearer ${[...as.tokens.keys()][0]}`);
    expect(auth.status).toBe('signed_in');
    expect(auth.session).toMatchObject({ issuer: as.issuer, resource: rs.url, tokenType: 'Bearer', scopes: ['mcp:read'], refreshable: true });
  });

  test('without a hint, the path-based well-known URL is tried before the root one', async () => {
    const { rs, client } = await setup({ rs: { hint: false, prmAt: 'root' } });
    await client.listTools();
    expect(rs.requests.filter((r) => r.path.startsWith('/.well-known')).map((r) => r.path)).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]);
  });

  test('resource is sent exactly as the metadata publishes it (no slash added to a bare origin)', async () => {
    const { as, rs, client } = await setup({ rs: { resource: (url) => new URL(url).origin } });
    // The guard only accepts tokens for its /mcp URL; what matters here is what was requested.
    await client.listTools().catch(() => {});
    const authorize = as.requests.find((r) => r.path === '/authorize')!;
    const token = as.requests.find((r) => r.path === '/token')!;
    expect(authorize.query.resource).toBe(rs.origin);
    expect(token.body.resource).toBe(rs.origin);
  });

  test('a metadata document for another resource stops the flow before any authorization', async () => {
    const { as, rs, client } = await setup({ rs: { resource: () => 'https://elsewhere.test/mcp' } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('resource_mismatch');
    expect(error.data.url).toBe(rs.prmUrl);
    expect(error.message).toContain('https://elsewhere.test/mcp');
    expect(as.requests).toEqual([]);
  });

  test.each([
    ['oauth-authorization-server with path insertion', 'oauth', ['/.well-known/oauth-authorization-server/tenant']],
    ['openid-configuration with path insertion', 'openid-inserted', ['/.well-known/oauth-authorization-server/tenant', '/.well-known/openid-configuration/tenant']],
    [
      'openid-configuration appended to the path',
      'openid-appended',
      ['/.well-known/oauth-authorization-server/tenant', '/.well-known/openid-configuration/tenant', '/tenant/.well-known/openid-configuration'],
    ],
  ] as const)('authorization server metadata of an issuer with a path: %s', async (_name, metadataAt, expected) => {
    const { as, client } = await setup({ as: { issuerPath: '/tenant', metadataAt } });
    await client.listTools();
    expect(as.requests.filter((r) => r.method === 'GET' && r.path.includes('.well-known')).map((r) => r.path)).toEqual(expected);
  });

  test('metadata whose issuer differs is refused, and none of its endpoints is used', async () => {
    const { as, client } = await setup({ as: { metadataIssuer: 'https://attacker.test' } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('issuer_mismatch');
    expect(error.data.url).toBe(`${as.origin}/.well-known/oauth-authorization-server`);
    expect(as.requests.every((r) => r.method === 'GET' && r.path.includes('.well-known'))).toBe(true);
  });

  test.each([
    ['absent', null],
    ['without S256', ['plain']],
  ])('PKCE methods %s: refused before registering or authorizing', async (_name, methods) => {
    const { as, client } = await setup({ as: { codeChallengeMethods: methods } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('pkce_unsupported');
    expect(as.count('/register') + as.count('/authorize')).toBe(0);
  });

  test('an authorization endpoint over plain http on a public host is refused', async () => {
    const { as, client } = await setup({ as: { endpoints: { authorization_endpoint: 'http://auth.example.test/authorize' } } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('insecure_endpoint');
    expect(error.data.url).toBe('http://auth.example.test/authorize');
    expect(as.count('/register')).toBe(0);
  });
});

/**
 * Regression: WWW-Authenticate leniency. Real servers quote with single quotes,
 * or spread the parameters over several challenges or headers; the kit kept the
 * quotes (and resolved them as a relative URL) or read only the DPoP challenge,
 * losing the metadata URL and the scope. The metadata sits at a custom path
 * here, so only the challenge can lead to it.
 */
describe('WWW-Authenticate leniency: parameters wherever the server put them', () => {
  test.each([
    ['single-quoted resource_metadata', ({ prmUrl }: { prmUrl: string }) => `Bearer realm="mcp", resource_metadata='${prmUrl}', scope='notes:read'`],
    ['DPoP algs first, the Bearer challenge with scope and metadata second', ({ prmUrl }: { prmUrl: string }) => `DPoP algs="ES256", Bearer scope="notes:read", resource_metadata="${prmUrl}"`],
    ['the same in two headers', ({ prmUrl }: { prmUrl: string }) => ['DPoP algs="ES256"', `Bearer scope="notes:read", resource_metadata="${prmUrl}"`]],
  ])('%s', async (_name, challengeHeader) => {
    const warnings: string[] = [];
    const { as, rs, client } = await setup({ rs: { prmAt: 'custom', challengeHeader }, oauth: { onWarning: (w) => warnings.push(`${w.code}: ${w.message}`) } });
    await client.callTool('echo', { text: 'lenient' });
    expect(rs.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual(['/meta/resource.json']);
    expect(as.requests.find((r) => r.path === '/authorize')!.query.scope).toBe('notes:read');
    if (_name.startsWith('single')) expect(warnings.join('\n')).toMatch(/www-authenticate.*resource_metadata is in single quotes/i);
    else expect(warnings).toEqual([]);
  });

  test('a relative resource_metadata is resolved against the MCP URL, with a warning', async () => {
    const warnings: string[] = [];
    const { rs, client } = await setup({ rs: { prmAt: 'custom', challengeHeader: () => 'Bearer resource_metadata="/meta/resource.json"' }, oauth: { onWarning: (w) => warnings.push(w.message) } });
    await client.listTools();
    expect(rs.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual(['/meta/resource.json']);
    expect(warnings.join('\n')).toMatch(/not an absolute URL/);
  });
});

describe('the authorization response (RFC 9207)', () => {
  test.each([
    ['a wrong iss', { iss: 'wrong' }],
    ['the issuer with a trailing slash (no normalization)', { iss: 'trailing-slash' }],
    ['no iss although promised', { iss: 'omit', issSupported: true }],
    ['a wrong iss on an error response', { iss: 'wrong', authorizeError: 'access_denied' }],
  ] as const)('%s: the code is never redeemed', async (_name, asOptions) => {
    const { as, client } = await setup({ as: asOptions });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('iss_mismatch');
    // The error names the callback without its query (the code), and does not repeat the server's error.
    expect(error.data.url).toBe(REDIRECT);
    expect(error.message).not.toContain('access_denied');
    expect(as.count('/authorize')).toBe(1);
    expect(as.count('/token')).toBe(0);
  });

  test('no iss and none promised: proceeds', async () => {
    const { as, client } = await setup({ as: { iss: 'omit', issSupported: false } });
    await client.listTools();
    expect(as.count('/token')).toBe(1);
  });

  test('an error response with the right iss is reported as the server sent it', async () => {
    const { client } = await setup({ as: { authorizeError: 'access_denied' } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('authorization_error');
    expect(error.data).toMatchObject({ oauthError: 'access_denied', oauthErrorDescription: 'the test server said no' });
  });

  test('a response with another state is discarded', async () => {
    const headless = followRedirects();
    const forged: AuthorizationOpener = {
      async open(url, request) {
        const callback = new URL(await headless.open(url, request));
        callback.searchParams.set('state', 'forged');
        return callback;
      },
    };
    const { as, client } = await setup({ oauth: { openAuthorizationUrl: forged } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('state_mismatch');
    expect(as.count('/token')).toBe(0);
  });
});

/**
 * Regression: OAuth mix-up without `iss` (RFC 9700 §4.4). The attacker's
 * authorization server, asked to authorize, relays the user to an honest one
 * that sends no `iss`; the honest code came back with the attacker's flow
 * state and was sent to the attacker's token endpoint, with the PKCE verifier.
 * With per-issuer redirect URIs the honest server can only send its response
 * to its own redirect URI, which the attacker's flow does not accept.
 */
describe('OAuth mix-up without iss: per-issuer redirect URIs', () => {
  async function mixUp(relayRedirect: 'honest' | 'attacker') {
    const honest = await startAuthServer({ iss: 'omit', issSupported: false, clientPrefix: 'honest-client' });
    const honestRs = await startProtectedServer({ authorizationServers: () => [honest.issuer], authServer: honest });
    const relay: { to?: (q: URLSearchParams) => string } = {};
    const attacker = await startAuthServer({ iss: 'omit', issSupported: false, clientPrefix: 'attacker-client', authorizeRelay: (q) => relay.to!(q) });
    const attackerRs = await startProtectedServer({ authorizationServers: () => [attacker.issuer], authServer: attacker });
    cleanups.push(() => honest.close(), () => honestRs.close(), () => attacker.close(), () => attackerRs.close());
    const storage = new MemoryAuthStorage();
    const connect = (rs: ProtectedServer) => {
      const auth = createOAuth({ resourceUrl: rs.url, redirectUri: REDIRECT, storage, openAuthorizationUrl: followRedirects() });
      const client = new McpClient(rs.url, { fetch: auth.fetch, authContext: auth.authContext, onWarning: () => {} });
      cleanups.push(() => client.close());
      return client;
    };
    // The user has used the honest server: the app is registered there.
    await connect(honestRs).listTools();
    const honestRegistration = honest.requests.find((r) => r.path === '/register')!.body;
    // The attacker relays our authorization request to the honest server, with our state and PKCE challenge.
    relay.to = (q) => {
      const url = new URL(`${honest.issuer}/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: [...honest.clients.keys()][0]!,
        redirect_uri: relayRedirect === 'honest' ? honestRegistration.redirect_uris[0] : q.get('redirect_uri')!,
        state: q.get('state')!,
        code_challenge: q.get('code_challenge')!,
        code_challenge_method: 'S256',
        resource: honestRs.url,
      }).toString();
      return url.href;
    };
    const error = await authError(connect(attackerRs).listTools());
    return { honest, attacker, error };
  }

  test("relayed with the honest server's redirect URI: the response does not complete the attacker's flow", async () => {
    const { honest, attacker, error } = await mixUp('honest');
    // The honest server did issue a code (two authorizations there, the second relayed)…
    expect(honest.count('/authorize')).toBe(2);
    // …but it never reached the attacker's token endpoint.
    expect(attacker.count('/token')).toBe(0);
    expect(error.reason).toBe('iss_mismatch');
    expect(error.message).toMatch(/redirect URI/);
  });

  test("relayed with the attacker's redirect URI: the honest server refuses it, so no code exists", async () => {
    const { honest, attacker, error } = await mixUp('attacker');
    expect(honest.count('/token')).toBe(1); // only the user's own sign-in
    expect(attacker.count('/token')).toBe(0);
    expect(error.reason).toBe('needs_user_gesture'); // the honest server showed an error page instead of redirecting
  });

  test('each issuer gets its own redirect URI, registered and used for the whole flow', async () => {
    const { as, client } = await setup();
    await client.listTools();
    const registered = as.requests.find((r) => r.path === '/register')!.body.redirect_uris;
    const authorize = as.requests.find((r) => r.path === '/authorize')!.query;
    const token = as.requests.find((r) => r.path === '/token')!.body;
    expect(registered).toHaveLength(1);
    const uri = new URL(registered[0]);
    expect(`${uri.origin}${uri.pathname}`).toBe(REDIRECT);
    expect(uri.searchParams.get('mcp_as')).toMatch(/^[\w-]{16}$/);
    expect(authorize.redirect_uri).toBe(registered[0]);
    expect(token.redirect_uri).toBe(registered[0]);
    const elsewhere = await setup({ as: { issuerPath: '/tenant-b' } });
    await elsewhere.client.listTools();
    expect(elsewhere.as.requests.find((r) => r.path === '/tenant-b/register')!.body.redirect_uris[0]).not.toBe(registered[0]);
  });

  test.each([
    ['another issuer\'s tag', `${REDIRECT}?mcp_as=AAAAAAAAAAAAAAAA&code=c&state=s1`, `${REDIRECT}?mcp_as=BBBBBBBBBBBBBBBB`],
    ['a tag where the flow has none (a pre-registered or CIMD client)', `${REDIRECT}?mcp_as=AAAAAAAAAAAAAAAA&code=c&state=s1`, REDIRECT],
    ['no tag where the flow has one', `${REDIRECT}?code=c&state=s1`, `${REDIRECT}?mcp_as=BBBBBBBBBBBBBBBB`],
    ['a query parameter of the redirect URI lost', `${REDIRECT}?code=c&state=s1`, `${REDIRECT}?tenant=7`],
  ])('a response at the wrong redirect URI is refused before its code is looked at: %s', async (_name, callback, redirectUri) => {
    const { checkCallback } = await import('../src/auth/flow.js');
    const pending = { state: 's1', redirectUri, issuer: 'https://as.example.test', issParameterSupported: false, as: { issuer: 'https://as.example.test', token_endpoint: 'https://as.example.test/token' } } as never;
    expect(() => checkCallback(pending, callback)).toThrow(/another authorization server/);
    expect(checkCallback({ ...(pending as object), redirectUri: callback.replace(/[?&]code=.*$/, '') } as never, callback)).toBe('c');
  });

  test('perIssuerRedirectUri: false registers the redirect URI as configured', async () => {
    const { as, client } = await setup({ oauth: { perIssuerRedirectUri: false } });
    await client.listTools();
    expect(as.requests.find((r) => r.path === '/register')!.body.redirect_uris).toEqual([REDIRECT]);
  });
});

describe('client identity', () => {
  test('a pre-registered confidential client authenticates with HTTP Basic and never registers', async () => {
    const { as, client } = await setup({ as: { registration: false, authMethods: ['client_secret_basic'] }, oauth: { clientId: 'pre id', clientSecret: 's3cr:t' } });
    // The test server does not know "pre id", so Basic is accepted as given; what matters is the header.
    await client.listTools();
    const token = as.requests.find((r) => r.path === '/token')!;
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from('pre+id:s3cr%3At').toString('base64')}`);
    expect(token.body.client_id).toBeUndefined();
    expect(as.requests.find((r) => r.path === '/authorize')!.query.client_id).toBe('pre id');
  });

  test('a pre-registered client bound to another issuer is not used', async () => {
    const { as, client } = await setup({ oauth: { clientId: 'pre', clientIssuer: 'https://other-as.test' } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('client_mismatch');
    expect(as.count('/authorize')).toBe(0);
  });

  test('a Client ID Metadata Document URL is the client_id when the server supports it', async () => {
    const cimd = 'https://app.example.test/oauth/client.json';
    const { as, client } = await setup({ as: { cimd: true }, oauth: { clientMetadataUrl: cimd } });
    await client.listTools();
    expect(as.count('/register')).toBe(0);
    expect(as.requests.find((r) => r.path === '/authorize')!.query.client_id).toBe(cimd);
    expect(as.requests.find((r) => r.path === '/token')!.body.client_id).toBe(cimd);
  });

  test('a dynamic registration is kept per issuer and reused (a hosted app registers as "web")', async () => {
    const { as, newClient } = await setup({ oauth: { redirectUri: 'https://app.example.test/callback' } });
    const first = newClient();
    await first.client.listTools().catch(() => {});
    await first.auth.signOut();
    const second = newClient();
    await second.client.listTools().catch(() => {});
    expect(as.count('/register')).toBe(1);
    expect(as.requests.find((r) => r.path === '/register')!.body.application_type).toBe('web');
    expect(as.requests.filter((r) => r.path === '/authorize').map((r) => r.query.client_id)).toEqual(['client-1', 'client-1']);
  });

  test('a refused registration names the endpoint and the OAuth error', async () => {
    const { as, client } = await setup({ as: { registrationError: 'invalid_redirect_uri' } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('registration_failed');
    expect(error.data).toMatchObject({ url: `${as.issuer}/register`, oauthError: 'invalid_redirect_uri', status: 400 });
    expect(error.message).toContain(REDIRECT);
  });
});

describe('scopes', () => {
  test('from the challenge; else all of scopes_supported; else omitted', async () => {
    const challenged = await setup({ rs: { challengeScope: 'a:read b:write', scopesSupported: ['x'] } });
    await challenged.client.listTools();
    expect(challenged.as.requests.find((r) => r.path === '/authorize')!.query.scope).toBe('a:read b:write');

    const supported = await setup({ rs: { scopesSupported: ['x', 'y'] } });
    await supported.client.listTools();
    expect(supported.as.requests.find((r) => r.path === '/authorize')!.query.scope).toBe('x y');

    const none = await setup();
    await none.client.listTools();
    expect('scope' in none.as.requests.find((r) => r.path === '/authorize')!.query).toBe(false);
  });

  test('offline_access only when the authorization server lists it', async () => {
    const listed = await setup({ as: { scopesSupported: ['offline_access'] }, rs: { challengeScope: 'mcp' } });
    await listed.client.listTools();
    expect(listed.as.requests.find((r) => r.path === '/authorize')!.query.scope).toBe('mcp offline_access');

    const unlisted = await setup({ as: { scopesSupported: ['mcp'] }, rs: { challengeScope: 'mcp' } });
    await unlisted.client.listTools();
    expect(unlisted.as.requests.find((r) => r.path === '/authorize')!.query.scope).toBe('mcp');
  });

  test('403 insufficient_scope: re-authorizes with the union of scopes and retries the call', async () => {
    const { as, rs, auth, client } = await setup({ rs: { challengeScope: 'mcp:basic', toolScopes: { echo: ['mcp:write'] } } });
    const result = await client.callTool('echo', { text: 'up' });
    expect(result).toMatchObject({ content: [{ text: 'echo: up' }] });
    expect(as.requests.filter((r) => r.path === '/authorize').map((r) => r.query.scope)).toEqual(['mcp:basic', 'mcp:basic mcp:write']);
    expect(auth.session?.scopes).toEqual(['mcp:basic', 'mcp:write']);
    expect(mcpPosts(rs).filter((r) => r.body?.method === 'tools/call').length).toBe(2);
  });

  test('a scope that is never granted: at most three authorizations, then a typed error', async () => {
    const { as, client } = await setup({ as: { denyScopes: ['mcp:admin'] }, rs: { toolScopes: { echo: ['mcp:admin'] } } });
    await client.listTools();
    const error = await authError(client.callTool('echo', { text: 'x' }));
    expect(error.reason).toBe('insufficient_scope');
    expect(error.data.scopes).toEqual(['mcp:admin']);
    // One authorization for the listing, then three for the call.
    expect(as.count('/authorize')).toBe(4);
  });
});

describe('tokens over time', () => {
  test('a token about to expire is refreshed first, once for concurrent requests, with resource', async () => {
    const { as, rs, client } = await setup({ as: { accessTokenTtl: 1, refreshDelayMs: 150 } });
    await client.listTools({ fresh: true });
    expect(as.requests.filter((r) => r.body.grant_type === 'refresh_token')).toEqual([]);
    const oldToken = [...as.tokens.keys()].at(-1)!;
    // Inside the last half of the 1 s lifetime: the next requests refresh first.
    await sleep(600);
    await Promise.all([1, 2, 3, 4].map((n) => client.callTool('echo', { text: `c${n}` })));
    const refreshes = as.requests.filter((r) => r.path === '/token' && r.body.grant_type === 'refresh_token');
    expect(refreshes.length).toBe(1);
    expect(refreshes[0]!.body).toMatchObject({ resource: rs.url, client_id: 'client-1' });
    const calls = mcpPosts(rs).filter((r) => r.body?.method === 'tools/call');
    expect(calls.length).toBe(4);
    for (const call of calls) expect(call.headers.authorization).not.toBe(`Bearer ${oldToken}`);
    expect(as.count('/authorize')).toBe(1);
  });

  test('a 401 with a token refreshes and retries without a new authorization', async () => {
    const { as, rs, client } = await setup();
    await client.listTools();
    for (const token of as.tokens.keys()) rs.rejected.add(token);
    await client.callTool('echo', { text: 'again' });
    expect(as.requests.filter((r) => r.path === '/token').map((r) => r.body.grant_type)).toEqual(['authorization_code', 'refresh_token']);
    expect(as.count('/authorize')).toBe(1);
  });

  test('a spent refresh token leads to a new authorization', async () => {
    const { as, rs, auth, client } = await setup();
    await client.listTools();
    as.refreshTokens.clear();
    for (const token of as.tokens.keys()) rs.rejected.add(token);
    const statuses: string[] = [];
    auth.on('status', ({ status }) => statuses.push(status));
    await client.callTool('echo', { text: 'x' });
    expect(as.count('/authorize')).toBe(2);
    expect(statuses).toEqual(['signed_out', 'authorizing', 'signed_in']);
  });

  test('a reload reuses the stored token: no discovery, no authorization', async () => {
    const { as, rs, client, newClient } = await setup();
    await client.listTools();
    const before = as.requests.length;
    const reloaded = newClient();
    await reloaded.auth.ready;
    expect(reloaded.auth.status).toBe('signed_in');
    await reloaded.client.callTool('echo', { text: 'after reload' });
    expect(as.requests.length).toBe(before);
    expect(mcpPosts(rs).at(-1)!.headers.authorization).toBe(`Bearer ${[...as.tokens.keys()][0]}`);
  });

  test('another tab refreshed meanwhile: its rotated tokens are adopted, the spent refresh token is never sent', async () => {
    const { as, client, newClient } = await setup({ as: { accessTokenTtl: 1 } });
    await client.listTools({ fresh: true });
    await sleep(600);
    const other = newClient();
    await other.auth.ready;
    await other.client.callTool('echo', { text: 'tab 2' }); // tab 2 refreshes (and rotates the refresh token)
    await client.callTool('echo', { text: 'tab 1' }); // tab 1 must not reuse the old one
    const refreshes = as.requests.filter((r) => r.path === '/token' && r.body.grant_type === 'refresh_token');
    expect(new Set(refreshes.map((r) => r.body.refresh_token)).size).toBe(refreshes.length);
    expect(as.count('/authorize')).toBe(1);
  });

  test('authContext identifies the grant: stable across refreshes, new on a new sign-in, undefined when signed out', async () => {
    const { rs, as, auth, client } = await setup();
    expect(auth.authContext()).toBeUndefined();
    await client.listTools();
    const first = auth.authContext();
    expect(first).toMatch(/\S/);
    for (const token of as.tokens.keys()) rs.rejected.add(token);
    await client.callTool('echo', { text: 'refresh' });
    expect(auth.authContext()).toBe(first);
    await auth.signOut();
    expect(auth.authContext()).toBeUndefined();
    await client.callTool('echo', { text: 'new grant' });
    expect(auth.authContext()).not.toBe(first);
  });

  test('sign-out forgets the tokens and revokes the refresh token', async () => {
    const { as, auth, client } = await setup();
    await client.listTools();
    const refresh = [...as.refreshTokens.keys()][0]!;
    await auth.signOut();
    expect(auth.status).toBe('signed_out');
    expect(auth.session).toBeUndefined();
    expect(as.revoked).toEqual([refresh]);
    await client.callTool('echo', { text: 'x' });
    expect(as.count('/authorize')).toBe(2);
  });

  test('the authorization server moved: register again there, never show it the old client id', async () => {
    const as1 = await startAuthServer({ clientPrefix: 'as1-client' });
    const as2 = await startAuthServer({ clientPrefix: 'as2-client' });
    let moved = false;
    const rs = await startProtectedServer({ authorizationServers: () => [moved ? as2.issuer : as1.issuer], authServer: () => (moved ? as2 : as1) });
    cleanups.push(() => as1.close(), () => as2.close(), () => rs.close());
    const auth = createOAuth({ resourceUrl: rs.url, redirectUri: REDIRECT, storage: 'memory', openAuthorizationUrl: followRedirects() });
    const client = new McpClient(rs.url, { fetch: auth.fetch, authContext: auth.authContext, onWarning: () => {} });
    cleanups.push(() => client.close());
    await client.listTools();
    moved = true;
    await client.callTool('echo', { text: 'moved' });
    expect(auth.session?.issuer).toBe(as2.issuer);
    expect(as2.count('/register')).toBe(1);
    const idsShownToAs2 = as2.requests.flatMap((r) => [r.query.client_id, r.body.client_id]).filter(Boolean);
    expect(idsShownToAs2.length).toBeGreaterThan(0);
    expect(idsShownToAs2.every((id) => id === 'as2-client-1')).toBe(true);
    // The old grant is not refreshed at the new server either.
    expect(as2.requests.filter((r) => r.path === '/token').map((r) => r.body.grant_type)).toEqual(['authorization_code']);
  });
});

describe('DPoP (RFC 9449)', () => {
  test('a DPoP-bound token with a non-extractable key and a fresh proof per request', async () => {
    const { as, rs, auth, client, storage } = await setup({ as: { dpop: true }, rs: { dpop: true } });
    await client.callTool('echo', { text: 'bound' });
    expect(auth.session?.tokenType).toBe('DPoP');
    const posts = mcpPosts(rs).slice(1);
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const post of posts) {
      expect(post.headers.authorization).toMatch(/^DPoP at-/);
      expect(post.headers.dpop).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    }
    expect(new Set(posts.map((p) => p.headers.dpop)).size).toBe(posts.length);
    // The token request carried a proof and the authorization request the key's thumbprint.
    const token = as.requests.find((r) => r.path === '/token')!;
    expect(token.headers.dpop).toBeDefined();
    expect(as.tokens.get(posts[0]!.headers.authorization!.toString().slice(5))!.jkt).toBe(as.requests.find((r) => r.path === '/authorize')!.query.dpop_jkt);
    const pair = (await storage.get(`mcp-oauth:dpop:${as.issuer} ${rs.url}`)) as CryptoKeyPair;
    expect(pair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', pair.privateKey)).rejects.toThrow();
  });

  test('server-provided nonces: the token request and the MCP request are retried with them', async () => {
    const { as, rs, client } = await setup({ as: { dpop: true, dpopNonce: 'as-nonce-1' }, rs: { dpop: true, dpopNonce: 'rs-nonce-1' } });
    await client.listTools();
    const tokenRequests = as.requests.filter((r) => r.path === '/token');
    expect(tokenRequests.length).toBe(2);
    const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims(tokenRequests[0]!.headers.dpop as string).nonce).toBeUndefined();
    expect(claims(tokenRequests[1]!.headers.dpop as string).nonce).toBe('as-nonce-1');
    const withToken = mcpPosts(rs).filter((r) => r.headers.authorization);
    expect(claims(withToken[0]!.headers.dpop as string).nonce).toBeUndefined();
    expect(claims(withToken[1]!.headers.dpop as string).nonce).toBe('rs-nonce-1');
    expect(as.count('/authorize')).toBe(1);
  });
});

describe('the fetch wrapper', () => {
  test('never sends the token to another origin', async () => {
    const other = await startRawServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end(String(req.headers.authorization ?? 'none'));
    });
    cleanups.push(() => other.close());
    const { auth, client } = await setup();
    await client.listTools();
    const response = await auth.fetch(`${other.origin}/icon.png`, { headers: { 'X-Test': '1' } });
    expect(await response.text()).toBe('none');
  });

  test('autoSignIn: false — a request needing authorization fails with needs_user_gesture until signIn()', async () => {
    const { as, auth, client } = await setup({ oauth: { autoSignIn: false } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('needs_user_gesture');
    expect(auth.status).toBe('needs_sign_in');
    expect(as.count('/authorize')).toBe(0);
    await auth.signIn();
    expect(auth.status).toBe('signed_in');
    await client.reconnect();
    expect((await client.listTools()).length).toBeGreaterThan(0);
    expect(as.count('/authorize')).toBe(1);
  });

  test('without an opener the failure says how to fix it', async () => {
    const { client } = await setup({ oauth: { openAuthorizationUrl: undefined } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('needs_user_gesture');
    expect(error.message).toContain('openAuthorizationUrl');
  });

  test('an unreachable token endpoint is a network error naming its URL', async () => {
    const closed = await startRawServer(() => {});
    const dead = `${closed.origin}/token`;
    await closed.close();
    const { client } = await setup({ as: { endpoints: { token_endpoint: dead } } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('network');
    expect(error.data).toMatchObject({ url: dead, endpoint: 'token endpoint' });
    expect(error.message).toContain(dead);
    expect(error.message).toContain('CORS');
  });

  test.each([307, 308])('a token endpoint that redirects (%i) to another origin: the code, its verifier and the client go nowhere else, a typed error names both URLs', async (status) => {
    // Whatever reaches this second origin would be a leak: it records every request.
    const elsewhere = await startRawServer((_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"access_token":"stolen","token_type":"Bearer"}'));
    const redirector = await startRawServer((_req, res) => void res.writeHead(status, { Location: `${elsewhere.origin}/collect` }).end());
    cleanups.push(() => elsewhere.close(), () => redirector.close());
    const { as, client } = await setup({ as: { endpoints: { token_endpoint: `${redirector.origin}/token` } } });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('redirected');
    expect(error.data).toMatchObject({ url: `${redirector.origin}/token`, endpoint: 'token endpoint', location: `${elsewhere.origin}/collect` });
    expect(error.message).toContain(`${elsewhere.origin}/collect`);
    // The token request did reach the configured endpoint, once, with the code and verifier…
    expect(redirector.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /token']);
    expect(String(redirector.requests[0]!.body)).toMatch(/code_verifier=/);
    // …and nothing went on from there.
    expect(elsewhere.requests).toEqual([]);
    expect(as.tokens.size).toBe(0);
  });

  test('full-page redirect mode: the pending authorization survives the reload and finishes there', async () => {
    let leftFor: URL | undefined;
    const redirect: AuthorizationOpener = {
      open(url) {
        leftFor = url;
        return new Promise(() => {}); // the page unloads
      },
    };
    const { as, rs, newClient } = await setup();
    const before = newClient({ openAuthorizationUrl: redirect });
    void before.client.listTools().catch(() => {});
    await expect.poll(() => leftFor).toBeDefined();
    // The authorization server sends the browser back with the code.
    const callback = await followRedirects().open(leftFor!, { state: leftFor!.searchParams.get('state')!, redirectUri: REDIRECT, signal: new AbortController().signal, interactive: true });
    const after = newClient();
    expect(await after.auth.handleRedirect('http://localhost:5173/somewhere-else?code=x&state=y')).toBe(false);
    expect(await after.auth.handleRedirect(callback)).toBe(true);
    expect(after.auth.status).toBe('signed_in');
    // The same response cannot be redeemed twice.
    expect(await after.auth.handleRedirect(callback)).toBe(false);
    await after.client.callTool('echo', { text: 'back' });
    expect(as.count('/token')).toBe(1);
    expect(mcpPosts(rs).at(-1)!.headers.authorization).toMatch(/^Bearer /);
  });
});
