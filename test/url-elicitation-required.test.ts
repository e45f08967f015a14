/**
 * Regression: a legacy server's `-32042` URL elicitation required error
 * (2025-11-25 client/elicitation "URL Elicitation Required Error") reached the
 * caller as a raw error. Now its URLs go to the registered URL-mode
 * `elicitation/create` handler — the consent UI a URL-mode elicitation gets —
 * and the call is retried once the user accepted. Against the official SDK
 * serving 2025-11-25 (`UrlElicitationRequiredError`).
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { McpClient, McpClientError, McpRpcError, type ElicitRequestParams, type InputContext, type McpWarning } from '../src/index.js';
import { startUrlElicitationServer, type UrlElicitationServer } from './support/url-elicitation-server.js';

let server: UrlElicitationServer;
const clients: McpClient[] = [];
beforeEach(async () => {
  server = await startUrlElicitationServer();
});
afterEach(async () => {
  while (clients.length) await clients.pop()!.close();
  await server.close();
});

interface Asked {
  params: ElicitRequestParams;
  context: InputContext;
}

/** A legacy client whose URL-mode handler records what it was asked and answers with `answer`. */
function clientWith(answer: (asked: Asked) => Promise<'accept' | 'decline' | 'cancel'>, options: { maxRounds?: number; modes?: ('form' | 'url')[] } = {}) {
  const warnings: McpWarning[] = [];
  const client = new McpClient(server.url, { protocol: 'legacy', onWarning: (w) => warnings.push(w), ...(options.maxRounds ? { maxRounds: options.maxRounds } : {}) });
  clients.push(client);
  const asked: Asked[] = [];
  client.setInputHandler('elicitation/create', {
    modes: options.modes ?? ['form', 'url'],
    handle: async (params, context) => {
      asked.push({ params, context });
      return { action: await answer({ params, context }) };
    },
  });
  return { client, asked, warnings };
}

/** What the user does after consenting: opens the page (here, fetches it). */
const visit = async ({ params }: Asked) => {
  await (await fetch((params as { url: string }).url)).text();
  return 'accept' as const;
};

const textOf = (result: unknown) => ((result as { content: { text: string }[] }).content[0]!).text;

describe('URL elicitation required (-32042) on a legacy server', () => {
  test('the URL is offered through the URL-mode elicitation handler; after consent the call is retried and succeeds', async () => {
    const { client, asked, warnings } = clientWith(visit);
    const result = await client.callTool('open_vault', {});
    expect(textOf(result)).toBe('vault opened');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.params).toEqual({ mode: 'url', elicitationId: 'vault-access', url: server.consentUrl, message: 'Allow this app to open your vault.' });
    expect(asked[0]!.context).toMatchObject({ key: 'vault-access', method: 'tools/call', target: 'open_vault', index: 0, total: 1, url: server.url });
    expect(server.calls).toEqual(['open_vault', 'open_vault']);
    expect(client.server?.era).toBe('legacy');
    expect(warnings).toEqual([]);
  });

  test.each(['decline', 'cancel'] as const)('the user answers %s: a typed declined error carrying the server error, no retry', async (action) => {
    const { client } = clientWith(async () => action);
    const error = await client.callTool('open_vault', {}).catch((e: unknown) => e);
    expect(McpClientError.isInstance(error) && error.code).toBe('declined');
    const declined = error as McpClientError;
    expect(declined.data).toMatchObject({ method: 'tools/call', action, url: server.url });
    expect(McpRpcError.isInstance(declined.cause) && declined.cause.code).toBe(-32042);
    expect(declined.message).toContain(new URL(server.consentUrl).host);
    expect(server.calls).toEqual(['open_vault']);
  });

  test('without a URL-mode handler the server error reaches the caller as it was', async () => {
    const { client, asked } = clientWith(visit, { modes: ['form'] });
    const error = await client.callTool('open_vault', {}).catch((e: unknown) => e);
    expect(McpRpcError.isInstance(error) && error.code).toBe(-32042);
    expect((error as McpRpcError).data).toMatchObject({ elicitations: [{ elicitationId: 'vault-access', url: server.consentUrl }] });
    expect(asked).toEqual([]);
  });

  test('a user who accepts but never finishes: asked again each round, at most maxRounds times', async () => {
    const { client, asked } = clientWith(async () => 'accept', { maxRounds: 3 });
    const error = await client.callTool('open_vault', {}).catch((e: unknown) => e);
    expect(McpRpcError.isInstance(error) && error.code).toBe(-32042);
    expect(asked.map((a) => a.context.round)).toEqual([0, 1, 2]);
    expect(server.calls).toHaveLength(4);
  });

  test('careless entries (no mode, no elicitationId, no message) are offered anyway, with a warning', async () => {
    const { client, asked, warnings } = clientWith(visit);
    expect(textOf(await client.callTool('open_vault_sloppy', {}))).toBe('vault opened');
    expect(asked[0]!.params).toMatchObject({ mode: 'url', url: server.consentUrl, message: 'The vault needs your consent first' });
    expect(asked[0]!.context.key).toBe('elicitation-1');
    expect(warnings.map((w) => w.code)).toEqual(['url-elicitation-malformed']);
    expect(warnings[0]!.message).toMatch(/mode.*elicitationId.*message/);
  });
});
