/**
 * The OAuth layer against a real authorization server: the protected demo
 * (demo/server/protected.ts) with oidc-provider, signed in through its login
 * page by a headless form submitter. Sign in, call a tool, reload, expire,
 * step up, sign out, and a refused sign-in.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startProtectedDemo, type ProtectedDemo } from '../demo/server/protected.js';
import { McpClient } from '../src/index.js';
import { createOAuth, McpAuthError, MemoryAuthStorage, type AuthorizationOpener } from '../src/auth/index.js';
import { headlessLogin } from './support/auth-servers.js';

const REDIRECT = 'http://localhost:5173/oauth/callback';
let demo: ProtectedDemo;

beforeAll(async () => {
  demo = await startProtectedDemo({ port: 0, authPort: 0, accessTokenTtlSeconds: 600 });
});
afterAll(async () => {
  await demo?.close();
});

function connect(storage: MemoryAuthStorage, opener: AuthorizationOpener) {
  const auth = createOAuth({ resourceUrl: demo.url, redirectUri: REDIRECT, storage, openAuthorizationUrl: opener, clientName: 'kit test' });
  const client = new McpClient(demo.url, { fetch: auth.fetch, authContext: auth.authContext, onWarning: () => {} });
  return { auth, client };
}

describe('against oidc-provider', () => {
  test('sign in, call a tool, reload, expire, step up, sign out', async () => {
    const storage = new MemoryAuthStorage();
    const login = headlessLogin();
    const first = connect(storage, login);

    // Sign in through the login page, then call a tool.
    const weather = await first.client.callTool('get_weather', { city: 'Lyon' });
    expect(weather).toMatchObject({ structuredContent: { city: 'Lyon' } });
    expect(login.visits.some((v) => v.startsWith('POST /interaction/'))).toBe(true);
    expect(first.auth.session).toMatchObject({ issuer: demo.issuer, resource: demo.url, tokenType: 'Bearer', refreshable: true, scopes: ['mcp:tools'] });
    await first.client.close();

    // Reload: the stored token is used as it is.
    const reloadLogin = headlessLogin();
    const second = connect(storage, reloadLogin);
    await second.auth.ready;
    expect(second.auth.status).toBe('signed_in');
    const before = demo.requests.length;
    await second.client.callTool('get_weather', { city: 'Nantes' });
    expect(reloadLogin.visits).toEqual([]);
    expect(demo.requests.slice(before).every((r) => r.scheme === 'Bearer' && r.status === 200)).toBe(true);

    // The server stops accepting the token: it is refreshed, without the login page.
    const refreshed: string[] = [];
    second.auth.on('token', ({ kind }) => refreshed.push(kind));
    demo.expireAccessTokens();
    await second.client.callTool('get_weather', { city: 'Brest' });
    expect(refreshed).toEqual(['refreshed']);
    expect(reloadLogin.visits).toEqual([]);

    // A destructive tool needs mcp:admin: step up through the login page, keeping mcp:tools.
    const deleted = await second.client.callTool('delete_notes', {});
    expect(deleted).toMatchObject({ content: [{ type: 'text' }] });
    expect(second.auth.session?.scopes).toEqual(expect.arrayContaining(['mcp:tools', 'mcp:admin']));
    expect(reloadLogin.visits.filter((v) => v === 'GET /auth').length).toBe(1);

    // Sign out: tokens are gone locally and revoked at the server.
    const tokensKey = `mcp-oauth:tokens:${demo.issuer} ${demo.url}`;
    const held = (await storage.get(tokensKey)) as { refreshToken: string };
    const binding = (await storage.get(`mcp-oauth:binding:${demo.url}`)) as { client: { clientId: string } };
    await second.auth.signOut();
    const reuse = await fetch(`${demo.issuer}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: held.refreshToken, client_id: binding.client.clientId, resource: demo.url }),
    });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
    expect(second.auth.status).toBe('signed_out');
    expect(await storage.get(tokensKey)).toBeUndefined();
    const after = headlessLogin();
    const third = connect(storage, after);
    await third.client.callTool('get_weather', { city: 'Paris' });
    expect(after.visits.some((v) => v === 'GET /auth')).toBe(true);
    await second.client.close();
    await third.client.close();
  });

  test('the user cancels at the login page: a typed access_denied error', async () => {
    const { client, auth } = connect(new MemoryAuthStorage(), headlessLogin({ decision: 'deny' }));
    const error = await client.listTools().catch((e: unknown) => e);
    expect(McpAuthError.isInstance(error)).toBe(true);
    expect((error as McpAuthError).reason).toBe('authorization_error');
    expect((error as McpAuthError).data.oauthError).toBe('access_denied');
    expect(auth.status).toBe('signed_out');
    await client.close();
  });
});
