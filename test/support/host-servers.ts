/**
 * Small official-SDK servers (2026-07-28, loopback, port 0) for the host and
 * adapter tests: each names itself in its answers, so a test sees which
 * server a call reached. `echo` is on every one (the clash the host names).
 */
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { acceptedContent, createMcpHandler, fromJsonSchema, inputRequired, inputResponse, McpServer, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import { McpClient } from '../../src/index.js';
import { McpHost } from '../../src/host/index.js';
import { applyCors, closeServer, listen, readJsonBody, type CorsPolicy } from './http.js';

export interface ToolServer {
  url: string;
  /** Names of the tools called, in order. */
  calls: string[];
  close(): Promise<void>;
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const schema = (json: Record<string, unknown>) => fromJsonSchema(json as never);

/**
 * A server named `label` with `echo` and `lookup_<label>` (a string `id`, required), plus `extra` tools;
 * `cors`: answered preflights and allowed origins, for pages (element tests). Default: none.
 */
export async function startToolServer(label: string, extra: (server: McpServer, calls: string[]) => void = () => {}, cors?: CorsPolicy): Promise<ToolServer> {
  const calls: string[] = [];
  const build = () => {
    const server = new McpServer({ name: `${label}-server`, version: '1.0.0' }, { capabilities: {} });
    server.registerTool(
      'echo',
      { description: `Echoes text (${label})`, inputSchema: schema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }) },
      async (args: any) => {
        calls.push('echo');
        return text(`${label} echo: ${args.text}`);
      },
    );
    server.registerTool(
      `lookup_${label}`,
      { description: `Looks an id up on ${label}`, inputSchema: schema({ type: 'object', properties: { id: { type: 'string', minLength: 2 }, verbose: { type: 'boolean' } }, required: ['id'] }) },
      async (args: any) => {
        calls.push(`lookup_${label}`);
        return text(`${label} record ${args.id}${args.verbose === undefined ? '' : ` verbose=${args.verbose}`}`);
      },
    );
    extra(server, calls);
    return server;
  };
  const handler = createMcpHandler(build, { legacy: 'reject' });
  const node = toNodeHandler(handler);
  const http = createServer(async (req, res) => {
    if (cors && applyCors(req, res, cors)) return;
    return node(req as never, res as never, await readJsonBody(req));
  });
  const origin = await listen(http);
  return {
    url: `${origin}/mcp`,
    calls,
    async close() {
      await handler.close();
      await closeServer(http);
    },
  };
}

/**
 * Extra tools: `ask`, which asks the user one question (form elicitation, a
 * boolean `ok`) naming the server, then says which server got which answer.
 */
export function withAsk(label: string): (server: McpServer, calls: string[]) => void {
  return (server, calls) => {
    server.registerTool('ask', { description: `Asks a question (${label})`, inputSchema: schema({ type: 'object', properties: {} }) }, async (_args: any, ctx: any): Promise<CallToolResult | InputRequiredResult> => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'question');
      if (view.kind === 'elicit') {
        calls.push('ask');
        if (view.action !== 'accept') return text(`${label} answered: ${view.action}`);
        return text(`${label} answered: ok=${acceptedContent<{ ok: boolean }>(ctx.mcpReq.inputResponses, 'question')?.ok}`);
      }
      return inputRequired({ inputRequests: { question: inputRequired.elicit({ message: `Go ahead on ${label}?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', title: 'OK' } }, required: ['ok'] } }) } });
    });
  };
}

/** A server with one prompt and no tools (it declares no `tools` capability, so it refuses `tools/list`). */
export async function startPromptOnlyServer(): Promise<ToolServer> {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'prompts-server', version: '1.0.0' }, { capabilities: {} });
    server.registerPrompt('greet', { description: 'Says hello' }, async () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }));
    return server;
  }, { legacy: 'reject' });
  const node = toNodeHandler(handler);
  const http = createServer(async (req, res) => node(req as never, res as never, await readJsonBody(req)));
  const origin = await listen(http);
  return {
    url: `${origin}/mcp`,
    calls: [],
    async close() {
      await handler.close();
      await closeServer(http);
    },
  };
}

/**
 * A raw `node:http` 2026-07-28 server (no SDK) for tools the official SDK cannot serve: a tool named
 * `__proto__` makes its own `server/discover` fail. Answers `server/discover`, `tools/list` (`tools`, each
 * with `inputSchema`, default an empty object schema; a string is sent as that JSON text) and `tools/call` (`<name> ran`); the `calls` are the
 * tools called.
 */
export async function startRawToolServer(tools: string[], inputSchema: unknown = { type: 'object', properties: {} }): Promise<ToolServer> {
  const calls: string[] = [];
  const http = createServer(async (req, res) => {
    const message = ((await readJsonBody(req)) ?? {}) as { id?: number; method?: string; params?: { name?: string } };
    const answer = (result: unknown) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...(result as object) } }));
    };
    if (message.method === 'server/discover') return answer({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'raw-server', version: '1.0.0' } });
    if (message.method === 'tools/list') {
      // A schema given as text is sent as it is (JSON.stringify cannot write one nested deeper than its stack).
      if (typeof inputSchema !== 'string') return answer({ tools: tools.map((name) => ({ name, inputSchema })) });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"resultType":"complete","tools":[${tools.map((name) => `{"name":${JSON.stringify(name)},"inputSchema":${inputSchema}}`).join(',')}]}}`);
      return;
    }
    if (message.method === 'tools/call') {
      calls.push(String(message.params?.name));
      return answer({ content: [{ type: 'text', text: `${message.params?.name} ran` }] });
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } }));
  });
  const origin = await listen(http);
  return { url: `${origin}/mcp`, calls, close: () => closeServer(http) };
}

/** A host of the servers at `urls` (keyed by the object's keys, in its order), modern era, warnings quiet, listed. */
export async function listedHost(urls: Record<string, string>): Promise<McpHost> {
  const host = new McpHost();
  for (const [key, url] of Object.entries(urls)) host.add(new McpClient(url, { protocol: 'modern', onWarning: () => {} }), { key });
  await host.refresh();
  return host;
}
