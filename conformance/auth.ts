/**
 * Authorization scenarios of the conformance suite (`auth/*`): the kit's OAuth
 * layer (`createOAuth`) in Node, with the headless opener that follows the test
 * authorization server's immediate redirect (see ../shared/docs/conformance.md §3).
 *
 * Every scenario runs the same client flow — connect, list tools, call the first
 * tool — and the suite judges what it saw on the wire. The scenarios that must
 * refuse (resource mismatch, issuer mismatch, the `iss` negatives) end with the
 * kit's typed error, which is logged. The machine-to-machine extensions
 * (client credentials, enterprise-managed authorization, workload identity) use
 * the `grant` option with the credentials the suite puts in the context.
 */
import type { McpClient, McpClientOptions } from '../src/index.js';
import { createOAuth, followRedirects, McpAuthError, type OAuthGrant, type OAuthOptions } from '../src/auth/index.js';

export interface AuthScenarioInput {
  url: string;
  scenario: string;
  context: Record<string, any>;
  newClient(options?: McpClientOptions): McpClient;
  log(...args: unknown[]): void;
}

/** The Client ID Metadata Document URL the suite expects (auth/basic-cimd). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Any absolute redirect URI: the suite's authorization server never calls it. */
const REDIRECT_URI = 'http://localhost:3000/callback';

/** The machine-to-machine extension scenarios: a grant from the context's credentials, no authorization code. */
function grantFor(input: AuthScenarioInput): OAuthGrant | undefined {
  const c = input.context;
  switch (input.scenario) {
    case 'auth/client-credentials-basic':
      return { type: 'client_credentials', clientId: c.client_id, clientSecret: c.client_secret };
    case 'auth/client-credentials-jwt':
      return { type: 'client_credentials', clientId: c.client_id, privateKey: c.private_key_pem, ...(c.signing_algorithm ? { signingAlgorithm: c.signing_algorithm } : {}) };
    case 'auth/enterprise-managed-authorization':
      return {
        type: 'enterprise_managed',
        clientId: c.client_id,
        clientSecret: c.client_secret,
        idp: { tokenEndpoint: c.idp_token_endpoint, clientId: c.idp_client_id },
        subjectToken: c.idp_id_token,
      };
    case 'auth/wif-jwt-bearer':
      // Only the valid workload token is presented; the wrong-audience and expired ones are there to catch a client that tries them all.
      return { type: 'jwt_bearer', clientId: c.client_id, assertion: c.valid_jwt };
    default:
      return undefined;
  }
}

function oauthOptions(input: AuthScenarioInput): OAuthOptions {
  const grant = grantFor(input);
  if (grant) return { resourceUrl: input.url, grant, storage: 'memory' };
  const options: OAuthOptions = {
    resourceUrl: input.url,
    redirectUri: REDIRECT_URI,
    clientName: 'mcp-web-elements-conformance',
    clientMetadataUrl: CLIENT_METADATA_URL,
    storage: 'memory',
    openAuthorizationUrl: followRedirects(),
  };
  if (input.scenario === 'auth/pre-registration') {
    // The context's pre-registered confidential client, bound to its issuer; no DCR.
    options.clientId = input.context.client_id;
    options.clientSecret = input.context.client_secret;
    if (typeof input.context.issuer === 'string') options.clientIssuer = input.context.issuer;
  }
  return options;
}

export async function authScenario(input: AuthScenarioInput): Promise<number> {
  const auth = createOAuth(oauthOptions(input));
  auth.on('status', ({ status, error }) => input.log('oauth status', status, error ? `${error.reason}: ${error.message}` : ''));
  auth.on('token', ({ kind, session }) => input.log('oauth token', kind, session.tokenType, session.scopes.join(' ')));
  const client = input.newClient({ fetch: auth.fetch, authContext: auth.authContext });
  try {
    await client.connect();
    const tools = await client.listTools();
    const tool = tools[0];
    if (tool) {
      const result = await client.callTool(tool.name, {});
      input.log('result', JSON.stringify(result));
    }
    return 0;
  } catch (error) {
    if (McpAuthError.isInstance(error)) input.log(`refused (${error.reason}): ${error.message}`);
    else input.log('failed:', error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    return 1;
  } finally {
    await client.close();
  }
}
