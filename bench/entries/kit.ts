/**
 * Candidate (a), mcp-web-elements core: the minimal entry of a page that connects,
 * lists tools and calls one. Built with Vite for the size benchmark, loaded as
 * that bundle in Chromium and from source in Node for the call loops.
 */
import { McpClient, type ToolCallResult } from '../../src/index.js';
import type { Candidate } from './candidate.js';

export async function open(url: string): Promise<Candidate> {
  const client = new McpClient(url, { protocol: 'modern' });
  await client.connect();
  return {
    listTools: () => client.listTools({ fresh: true }),
    call: async (text) => {
      const result = await client.callTool('echo', { text });
      const first = (result as ToolCallResult).content?.[0];
      return first?.type === 'text' ? String(first.text) : '';
    },
    close: () => client.close(),
  };
}
