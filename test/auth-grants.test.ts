/**
 * The machine-to-machine grants of the OAuth layer (`createOAuth({ grant })`),
 * end to end in Node: the real client core against the SDK server behind the
 * resource-server guard (auth-servers.ts), with
 *
 * - oidc-provider issuing client credentials tokens, verifying Basic secrets
 *   and `private_key_jwt` assertions itself;
 * - a JWT bearer authorization server and an enterprise IdP
 *   (grant-servers.ts) for workload identity and enterprise-managed
 *   authorization, which oidc-provider does not implement.
 *
 * Each test asserts what went over the wire.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient } from '../src/index.js';
import { createOAuth, type OAuthGrant, type OAuthOptions } from '../src/auth/index.js';
import { authError, startProtectedServer, type AuthServer, type ProtectedServer } from './support/auth-servers.js';
import { JWT_BEARER, startJwtGrantServers, startOidcGrantServer, testKeyPair, verifyTestJwt, type OidcGrantServer, type TestKeyType } from './support/grant-servers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function connect(rs: ProtectedServer, grant: OAuthGrant, extra: Partial<OAuthOptions> = {}) {
  const auth = createOAuth({ resourceUrl: rs.url, grant, storage: 'memory', ...extra });
  const client = new McpClient(rs.url, { fetch: auth.fetch, authContext: auth.authContext, onWarning: () => {} });
  cleanups.push(() => client.close());
  return { auth, client };
}

async function protect(authServer: AuthServer, scopesSupported?: string[]): Promise<ProtectedServer> {
  const rs = await startProtectedServer({ authorizationServers: () => [authServer.issuer], authServer, ...(scopesSupported ? { scopesSupported } : {}) });
  cleanups.push(() => rs.close());
  return rs;
}

/** A JWT's header and claims. */
const decode = (jwt: string) => jwt.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))) as [Record<string, any>, Record<string, any>];
const mcpPosts = (rs: ProtectedServer) => rs.requests.filter((r) => r.path === '/mcp');

describe('client credentials against oidc-provider', () => {
  const keys = Object.fromEntries((['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'] as const).map((alg) => [alg, testKeyPair(alg)])) as Record<TestKeyType, ReturnType<typeof testKeyPair>>;

  async function setup(): Promise<{ op: OidcGrantServer; rs: ProtectedServer }> {
    let url = '';
    const op = await startOidcGrantServer({
      resource: () => url,
      clients: [{ clientId: 'nightly-report', secret: 'correct horse battery staple' }, ...Object.values(keys).map((key) => ({ clientId: `svc-${key.alg}`, key }))],
    });
    cleanups.push(() => op.close());
    // The resource publishes its scope: the grant asks for it.
    const rs = await protect(op.authServer, ['mcp:tools']);
    url = rs.url;
    return { op, rs };
  }

  test('client_secret_basic: the grant runs on the first 401, then every request carries the token', async () => {
    const { op, rs } = await setup();
    const { auth, client } = connect(rs, { type: 'client_credentials', clientId: 'nightly-report', clientSecret: 'correct horse battery staple' });
    const result = await client.callTool('echo', { text: 'hi' });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'echo: hi' }] });

    // Discovery, then one token request: no authorization endpoint, no registration.
    expect(op.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /.well-known/oauth-authorization-server', 'POST /token']);
    expect(op.grants).toEqual([
      expect.objectContaining({ outcome: 'success', clientId: 'nightly-report', authMethod: 'client_secret_basic', params: expect.objectContaining({ grant_type: 'client_credentials', resource: rs.url, scope: 'mcp:tools' }) }),
    ]);
    expect(op.grants[0]!.authorization).toMatch(/^Basic /);
    const [token] = [...op.authServer.tokens.keys()];
    const posts = mcpPosts(rs);
    expect(posts[0]!.headers.authorization).toBeUndefined();
    for (const post of posts.slice(1)) expect(post.headers.authorization).toBe(`Bearer ${token}`);
    expect(auth.status).toBe('signed_in');
    expect(auth.session).toMatchObject({ issuer: op.issuer, resource: rs.url, tokenType: 'Bearer', scopes: ['mcp:tools'], refreshable: false });
  });

  test.each(['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'] as const)('private_key_jwt with a PKCS#8 PEM key (%s), verified by oidc-provider', async (alg) => {
    const { op, rs } = await setup();
    const { client } = connect(rs, { type: 'client_credentials', clientId: `svc-${alg}`, privateKey: keys[alg].pem, ...(alg === 'PS256' ? { signingAlgorithm: 'PS256' as const } : {}) });
    await client.listTools();
    expect(op.grants).toEqual([expect.objectContaining({ outcome: 'success', clientId: `svc-${alg}`, authMethod: 'private_key_jwt' })]);
    const { params, authorization } = op.grants[0]!;
    expect(authorization).toBeUndefined();
    expect(params.client_assertion_type).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const [header, claims] = decode(params.client_assertion!);
    expect(header).toMatchObject({ alg, typ: 'JWT' });
    expect(claims).toMatchObject({ iss: `svc-${alg}`, sub: `svc-${alg}`, aud: op.issuer });
    expect(claims.exp - claims.iat).toBe(60);
    expect(claims.jti).toMatch(/^[\w-]{22}$/);
  });

  test('private_key_jwt with a private JWK and with a CryptoKey', async () => {
    const { op, rs } = await setup();
    const jwk = keys.ES256.privateKey.export({ format: 'jwk' });
    await connect(rs, { type: 'client_credentials', clientId: 'svc-ES256', privateKey: jwk }).client.listTools();
    const cryptoKey = await crypto.subtle.importKey('pkcs8', keys.RS256.privateKey.export({ type: 'pkcs8', format: 'der' }), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
    await connect(rs, { type: 'client_credentials', clientId: 'svc-RS256', privateKey: cryptoKey }).client.listTools();
    expect(op.grants.map((g) => `${g.outcome} ${g.clientId} ${decode(g.params.client_assertion!)[0].alg}`)).toEqual(['success svc-ES256 ES256', 'success svc-RS256 RS256']);
  });

  test('a refused secret: one token request, a typed error, no retry', async () => {
    const { op, rs } = await setup();
    const { auth, client } = connect(rs, { type: 'client_credentials', clientId: 'nightly-report', clientSecret: 'wrong' });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('token_failed');
    expect(error.data).toMatchObject({ url: `${op.issuer}/token`, endpoint: 'token endpoint', status: 401, oauthError: 'invalid_client' });
    expect(error.message).toContain('client credentials grant');
    expect(op.requests.filter((r) => r.path === '/token')).toHaveLength(1);
    expect(auth.status).toBe('signed_out');
  });

  test('a token the resource stops accepting: the grant runs again, without anyone', async () => {
    const { op, rs } = await setup();
    const { auth, client } = connect(rs, { type: 'client_credentials', clientId: 'svc-ES256', privateKey: keys.ES256.pem });
    await client.callTool('echo', { text: 'one' });
    const kinds: string[] = [];
    auth.on('token', ({ kind }) => kinds.push(kind));
    const [first] = [...op.authServer.tokens.keys()];
    rs.rejected.add(first!);
    await client.callTool('echo', { text: 'two' });
    expect(kinds).toEqual(['authorized']);
    expect(op.grants.map((g) => g.outcome)).toEqual(['success', 'success']);
    // A fresh assertion each time: its jti is single-use.
    const [a, b] = op.grants.map((g) => decode(g.params.client_assertion!)[1].jti);
    expect(a).not.toBe(b);
    expect(mcpPosts(rs).at(-1)!.headers.authorization).toBe(`Bearer ${[...op.authServer.tokens.keys()][1]}`);
  });

  test('credentials pinned to their authorization server are never sent to another one', async () => {
    const { op, rs } = await setup();
    const { client } = connect(rs, { type: 'client_credentials', clientId: 'nightly-report', clientSecret: 'correct horse battery staple' }, { clientIssuer: 'https://login.example.test' });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('client_mismatch');
    expect(error.message).toContain('no credentials were sent');
    expect(op.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  test('a key WebCrypto cannot import: a typed error naming the fix, nothing sent', async () => {
    const { op, rs } = await setup();
    const pkcs1 = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const { client } = connect(rs, { type: 'client_credentials', clientId: 'svc-RS256', privateKey: pkcs1 });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('invalid_credentials');
    expect(error.message).toContain('"RSA PRIVATE KEY"');
    expect(error.message).toContain('PKCS#8');
    expect(op.requests.filter((r) => r.method === 'POST')).toEqual([]);
    // An EC key declared as RS256 is refused the same way.
    const wrongAlg = connect(rs, { type: 'client_credentials', clientId: 'svc-ES256', privateKey: keys.ES256.pem, signingAlgorithm: 'RS256' });
    expect((await authError(wrongAlg.client.listTools())).reason).toBe('invalid_credentials');
    expect(op.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });
});

describe('workload identity: the JWT bearer grant', () => {
  async function setup(options?: { accessTokenTtl?: number }) {
    const servers = await startJwtGrantServers(options);
    cleanups.push(() => servers.close());
    const rs = await protect(servers.as);
    return { ...servers, rs };
  }

  test('the workload JWT is the grant: no client authentication, resource as published, no authorization endpoint needed', async () => {
    const { as, rs, workloadJwt } = await setup();
    const targets: unknown[] = [];
    const { auth, client } = connect(rs, {
      type: 'jwt_bearer',
      assertion: (target) => {
        targets.push(target);
        return workloadJwt();
      },
    });
    const result = await client.callTool('echo', { text: 'from a workload' });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'echo: from a workload' }] });
    expect(targets).toEqual([{ issuer: as.issuer, tokenEndpoint: `${as.issuer}/token`, resource: rs.url, scopes: [], signal: expect.any(AbortSignal) }]);
    const token = as.requests.filter((r) => r.path === '/token');
    expect(token).toHaveLength(1);
    expect(token[0]!.body).toEqual({ grant_type: JWT_BEARER, assertion: expect.any(String), resource: rs.url });
    expect(token[0]!.headers.authorization).toBeUndefined();
    expect(auth.session).toMatchObject({ issuer: as.issuer, resource: rs.url, tokenType: 'Bearer' });
  });

  test.each([
    ['expired', { exp: Math.floor(Date.now() / 1000) - 60 }, 'expired'],
    ['for another audience', { aud: 'https://elsewhere.example.test' }, 'aud'],
  ])('a workload JWT that is %s: the refusal is reported once, nothing is retried', async (_name, claims, description) => {
    const { as, rs, workloadJwt } = await setup();
    const { auth, client } = connect(rs, { type: 'jwt_bearer', assertion: workloadJwt(claims) });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('token_failed');
    expect(error.data).toMatchObject({ oauthError: 'invalid_grant', status: 400 });
    expect(error.data.oauthErrorDescription).toContain(description);
    expect(error.message).toContain('JWT bearer grant');
    // One token request, and no other grant type tried instead.
    expect(as.requests.filter((r) => r.method === 'POST').map((r) => r.body.grant_type)).toEqual([JWT_BEARER]);
    expect(mcpPosts(rs)).toHaveLength(1);
    expect(auth.status).toBe('signed_out');
  });

  test('shortly before the token expires, the grant runs again with a fresh workload JWT (no 401 first)', async () => {
    const { as, rs, workloadJwt } = await setup({ accessTokenTtl: 2 });
    let calls = 0;
    const { client } = connect(rs, {
      type: 'jwt_bearer',
      assertion: () => {
        calls++;
        return workloadJwt();
      },
    });
    await client.callTool('echo', { text: 'one' });
    const before = mcpPosts(rs).length;
    // Refresh window: half of a 2 s lifetime.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await client.callTool('echo', { text: 'two' });
    expect(calls).toBe(2);
    expect(as.count('/token')).toBe(2);
    const later = mcpPosts(rs).slice(before);
    expect(later.length).toBeGreaterThan(0);
    for (const post of later) expect(post.headers.authorization).toBe('Bearer at-2');
  });

  test('an assertion source that fails: a typed error, no token request', async () => {
    const { as, rs } = await setup();
    const { client } = connect(rs, {
      type: 'jwt_bearer',
      assertion: () => {
        throw new Error('the token file /var/run/secrets/token is missing');
      },
    });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('invalid_credentials');
    expect(error.message).toContain('/var/run/secrets/token is missing');
    expect(as.count('/token')).toBe(0);
  });
});

describe('enterprise-managed authorization: ID token → ID-JAG at the IdP → access token', () => {
  async function setup() {
    const servers = await startJwtGrantServers();
    cleanups.push(() => servers.close());
    const rs = await protect(servers.as);
    return { ...servers, rs };
  }

  test('the token exchange at the IdP, then the JWT bearer grant with the client\'s credentials', async () => {
    const { as, idp, client: registered, rs, idToken } = await setup();
    const idTokenValue = idToken();
    const { auth, client } = connect(rs, {
      type: 'enterprise_managed',
      clientId: registered.clientId,
      clientSecret: registered.clientSecret,
      idp: { tokenEndpoint: idp.tokenEndpoint, clientId: idp.clientId, clientSecret: idp.clientSecret },
      subjectToken: idTokenValue,
    });
    await client.callTool('echo', { text: 'on behalf of an employee' });

    expect(idp.requests).toHaveLength(1);
    expect(idp.requests[0]!.body).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: as.issuer,
      resource: rs.url,
      subject_token: idTokenValue,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    });
    expect(idp.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`${idp.clientId}:${idp.clientSecret}`).toString('base64')}`);

    const [grant] = as.requests.filter((r) => r.path === '/token');
    expect(grant!.body).toEqual({ grant_type: JWT_BEARER, assertion: expect.any(String), resource: rs.url });
    expect(grant!.headers.authorization).toBe(`Basic ${Buffer.from(`${registered.clientId}:${registered.clientSecret}`).toString('base64')}`);
    const [header, claims] = decode(grant!.body.assertion);
    expect(header.typ).toBe('oauth-id-jag+jwt');
    expect(claims).toMatchObject({ iss: idp.issuer, sub: 'employee-4711', aud: as.issuer, resource: rs.url, client_id: registered.clientId });
    expect([...as.tokens.values()]).toEqual([expect.objectContaining({ clientId: `employee-4711 via ${registered.clientId}`, resource: rs.url })]);
    expect(auth.status).toBe('signed_in');
  });

  test('the IdP refuses the ID token: a typed error naming the IdP, the authorization server is never asked', async () => {
    const { as, idp, client: registered, rs, idToken } = await setup();
    const { client } = connect(rs, {
      type: 'enterprise_managed',
      clientId: registered.clientId,
      clientSecret: registered.clientSecret,
      idp: { tokenEndpoint: idp.tokenEndpoint, clientId: idp.clientId, clientSecret: idp.clientSecret },
      subjectToken: idToken({ aud: 'some-other-app' }),
    });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('token_failed');
    expect(error.data).toMatchObject({ url: idp.tokenEndpoint, endpoint: 'identity provider token endpoint', oauthError: 'invalid_grant' });
    expect(error.message).toContain('ID-JAG');
    expect(as.count('/token')).toBe(0);
  });
});

describe('configuration', () => {
  test('neither a redirect URI nor a grant: refused at once', () => {
    expect(() => createOAuth({ resourceUrl: 'http://127.0.0.1:9/mcp' })).toThrow(TypeError);
  });

  test('an incomplete grant is refused before anything is sent to the token endpoint', async () => {
    const servers = await startJwtGrantServers();
    cleanups.push(() => servers.close());
    const rs = await protect(servers.as);
    const { client } = connect(rs, { type: 'client_credentials', clientId: 'chat-app' } as OAuthGrant);
    const error = await authError(client.listTools());
    expect(error.reason).toBe('invalid_credentials');
    expect(error.message).toContain('clientSecret or privateKey');
    expect(servers.as.count('/token')).toBe(0);
  });
});

test('the signing key types round-trip through node:crypto verification', async () => {
  // Independent of any server: the kit's assertion verifies with node:crypto for each key type.
  const { importSigningKey, clientAssertion } = await import('../src/auth/jwt.js');
  for (const alg of ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'] as const) {
    const key = testKeyPair(alg);
    const signing = await importSigningKey(key.pem, alg === 'PS256' ? 'PS256' : undefined);
    expect(signing.alg).toBe(alg);
    const jwt = await clientAssertion(signing, { clientId: 'svc', audience: 'https://as.example.test' });
    const checked = verifyTestJwt(jwt, () => key, 'https://as.example.test');
    expect(checked, alg).toMatchObject({ ok: true, claims: { iss: 'svc', sub: 'svc' } });
  }
});
