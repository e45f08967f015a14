/**
 * Candidate (c), raw `fetch`: a hand-written JSON-RPC POST with the headers and
 * `_meta` a 2026-07-28 server requires, and nothing else — no streaming, no
 * pagination, no validation, no error mapping. The floor the kit is measured
 * against; not something to ship.
 */
import type { Candidate } from './candidate.js';

const VERSION = '2026-07-28';

export async function open(url: string): Promise<Candidate> {
  let id = 0;
  const rpc = async (method: string, params: Record<string, unknown>, name?: string): Promise<any> => {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': VERSION,
      'Mcp-Method': method,
    };
    if (name) headers['Mcp-Name'] = name;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: ++id,
      method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} } },
    });
    const response = await fetch(url, { method: 'POST', headers, body });
    const message = await response.json();
    if (message.error) throw new Error(message.error.message);
    return message.result;
  };
  await rpc('server/discover', {});
  return {
    listTools: async () => {
      const tools: unknown[] = [];
      let cursor: string | undefined;
      do {
        const page = await rpc('tools/list', cursor === undefined ? {} : { cursor });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return tools;
    },
    call: async (text) => (await rpc('tools/call', { name: 'echo', arguments: { text } }, 'echo')).content[0].text,
    close: async () => {},
  };
}
