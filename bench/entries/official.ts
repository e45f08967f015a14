/**
 * Candidate (b), the official client (`@modelcontextprotocol/client` v2): the
 * same minimal entry as kit.ts. Pinned to 2026-07-28 so it skips the legacy
 * `initialize` handshake and speaks the same revision as the kit.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Candidate } from './candidate.js';

export async function open(url: string): Promise<Candidate> {
  const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    listTools: async () => (await client.listTools(undefined, { cacheMode: 'refresh' })).tools,
    call: async (text) => {
      const result = await client.callTool({ name: 'echo', arguments: { text } });
      const first = result.content[0];
      return first?.type === 'text' ? first.text : '';
    },
    close: () => client.close(),
  };
}
