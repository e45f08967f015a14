/**
 * Error messages and warnings are shown on screens and in logs: a server URL's
 * credentials (a bridge's `?token=`, API keys in the query, userinfo) never
 * appear in them; `data.url` keeps the URL for the program. Regression: a page
 * that the bridge refused showed its whole `?token=…` URL in the CORS error.
 */
import { describe, expect, test } from 'vitest';
import { McpClient, McpClientError } from '../src/index.js';
import { maskUrlSecrets } from '../src/protocol/errors.js';
import { startRawServer } from './support/servers.js';

describe('credentials in server URLs', () => {
  test('are masked in messages, whatever the parameter and wherever the URL stands', () => {
    expect(maskUrlSecrets('POST http://127.0.0.1:4000/mcp?token=Zk3-secret_1 failed')).toBe('POST http://127.0.0.1:4000/mcp?token=… failed');
    expect(maskUrlSecrets('at https://api.example.test/mcp?team=7&api_key=abc123#x (tools/call)')).toBe('at https://api.example.test/mcp?team=7&api_key=…#x (tools/call)');
    expect(maskUrlSecrets('"https://me:hunter2@example.test/mcp"')).toBe('"https://…@example.test/mcp"');
    expect(maskUrlSecrets('https://example.test/mcp?tokenizer=word&keyword=a')).toBe('https://example.test/mcp?tokenizer=word&keyword=a');
    // Azure Functions' function key (?code=), a SAS signature, an OAuth client secret.
    expect(maskUrlSecrets('https://fn.example.test/api/mcp?code=fk_9Zq==&sv=2024&sig=Ab%2Fc&client_secret=cs1')).toBe('https://fn.example.test/api/mcp?code=…&sv=2024&sig=…&client_secret=…');
  });

  test('an unreachable server: the error names the URL without its token, data.url keeps it', async () => {
    const closed = await startRawServer(() => {});
    await closed.close();
    const url = `${closed.origin}/mcp?token=s3cr3t-bridge-token`;
    const client = new McpClient(url, { onWarning: () => {} });
    const error = (await client.listTools().catch((e: unknown) => e)) as McpClientError;
    expect(McpClientError.isInstance(error)).toBe(true);
    expect(error.message).toContain(`${closed.origin}/mcp?token=…`);
    expect(error.message).not.toContain('s3cr3t');
    expect(error.data).toMatchObject({ url });
    await client.close();
  });

  test('warnings do not show it either', async () => {
    // A modern server without server/discover: usable, with a warning that names the server's URL.
    const server = await startRawServer((req, res) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const { id, method } = req.json ?? {};
      const body =
        method === 'server/discover'
          ? { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } }
          : { jsonrpc: '2.0', id, result: { resultType: 'complete', tools: [{ name: 'a', inputSchema: { type: 'object' } }] } };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
    const url = `${server.url}?token=s3cr3t-bridge-token`;
    const warnings: string[] = [];
    const client = new McpClient(url, { protocol: 'modern', onWarning: (warning) => warnings.push(warning.message) });
    await client.listTools();
    expect(warnings).toContain(`${server.url}?token=… does not implement server/discover; continuing without its description`);
    for (const message of warnings) expect(message).not.toContain('s3cr3t');
    await client.close();
    await server.close();
  });
});
