/**
 * Node command-line adapter that lets the official MCP conformance suite drive
 * the kit's client core (`npm run conformance-client -- <server-url>`).
 *
 * Contract (from @modelcontextprotocol/conformance): the server URL is the last
 * argument; `MCP_CONFORMANCE_SCENARIO` names the scenario,
 * `MCP_CONFORMANCE_PROTOCOL_VERSION` the revision under test, and
 * `MCP_CONFORMANCE_CONTEXT` (JSON) carries scenario data. The client always runs
 * in `auto` era mode: it detects modern or legacy servers itself.
 *
 * Exit status: 0 when the scenario's flow completed, 1 otherwise (the suite
 * judges by what it observed on the wire, not by the exit status).
 */
import { McpClient, type InputHandlers, type McpClientOptions, type Tool } from '../src/index.js';
import { authScenario } from './auth.js';

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, any>;

function log(...args: unknown[]): void {
  console.error(`[conformance-client] ${scenario}:`, ...args);
}

/** Elicitation answers for scenarios: accept, filling every schema default (SEP-1034 defaults). */
const elicitation: InputHandlers['elicitation/create'] = {
  modes: ['form', 'url'],
  async handle(params) {
    if (params.mode === 'url') return { action: 'accept' };
    const content: Record<string, any> = {};
    for (const [key, schema] of Object.entries(params.requestedSchema?.properties ?? {})) {
      const s = schema as Record<string, any>;
      if (s.default !== undefined) content[key] = s.default;
      else if (s.type === 'boolean') content[key] = true;
      else if (s.type === 'number' || s.type === 'integer') content[key] = 1;
      else if (s.type === 'array') content[key] = [];
      else if (Array.isArray(s.enum)) content[key] = s.enum[0];
      else content[key] = 'conformance';
    }
    return { action: 'accept', content };
  },
};

function newClient(options: McpClientOptions = {}): McpClient {
  const client = new McpClient(url!, { protocol: 'auto', clientInfo: { name: 'mcp-web-elements-conformance', version: '0.1.0' }, onWarning: (w) => log('warning:', w.message), ...options });
  client.setInputHandler('elicitation/create', elicitation);
  client.setInputHandler('sampling/createMessage', {
    handle: async () => ({ role: 'assistant', content: { type: 'text', text: 'conformance sample' }, model: 'conformance-model', stopReason: 'endTurn' }),
  });
  client.setInputHandler('roots/list', { handle: async () => ({ roots: [{ uri: 'file:///tmp/conformance', name: 'conformance' }] }) });
  return client;
}

/** Sample arguments for a tool from its input schema (required properties only). */
function sampleArguments(tool: Tool): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const name of (tool.inputSchema.required as string[] | undefined) ?? []) {
    const schema = properties[name] ?? {};
    args[name] = schema.type === 'number' || schema.type === 'integer' ? 1 : schema.type === 'boolean' ? true : 'value';
  }
  return args;
}

const scenarios: Record<string, (client: McpClient) => Promise<void>> = {
  async initialize(client) {
    await client.connect();
    await client.listTools();
  },
  async tools_call(client) {
    await client.listTools();
    const result = await client.callTool('add_numbers', { a: 5, b: 3 });
    log('result', JSON.stringify(result));
  },
  async 'elicitation-sep1034-client-defaults'(client) {
    await client.listTools();
    const result = await client.callTool('test_client_elicitation_defaults', {});
    log('result', JSON.stringify(result));
  },
  async 'sse-retry'(client) {
    await client.listTools();
    const result = await client.callTool('test_reconnection', {});
    log('result', JSON.stringify(result));
  },
  async 'request-metadata'(client) {
    await client.connect();
    const tools = await client.listTools();
    for (const tool of tools) await client.callTool(tool.name, sampleArguments(tool));
  },
  async 'sep-2322-client-request-state'(client) {
    const tools = await client.listTools();
    for (const tool of tools.filter((t) => t.name.startsWith('test_mrtr_'))) {
      const result = await client.callTool(tool.name, sampleArguments(tool));
      log(tool.name, JSON.stringify(result));
    }
  },
  async 'http-standard-headers'(client) {
    const tools = await client.listTools();
    for (const tool of tools) await client.callTool(tool.name, sampleArguments(tool)).catch((e) => log(tool.name, e.message));
    const resources = await client.listResources().catch(() => []);
    for (const resource of resources) await client.readResource(resource.uri).catch((e) => log(resource.uri, e.message));
    const prompts = await client.listPrompts().catch(() => []);
    for (const prompt of prompts) {
      const args: Record<string, string> = {};
      for (const arg of prompt.arguments ?? []) if (arg.required) args[arg.name] = 'value';
      await client.getPrompt(prompt.name, args).catch((e) => log(prompt.name, e.message));
    }
  },
  async 'http-custom-headers'(client) {
    await client.listTools();
    for (const call of (context.toolCalls ?? []) as { name: string; arguments: Record<string, unknown> }[]) {
      await client.callTool(call.name, call.arguments).catch((e) => log(call.name, e.message));
    }
  },
  async 'http-invalid-tool-headers'(client) {
    const tools = await client.listTools();
    log('kept', tools.map((t) => t.name).join(', '), '| rejected', client.rejectedTools.map((t) => `${t.name}: ${t.reason}`).join('; '));
    for (const tool of tools) await client.callTool(tool.name, sampleArguments(tool));
  },
  async 'json-schema-ref-no-deref'(client) {
    const tools = await client.listTools();
    // Compiling validators must not dereference network $refs either.
    const { compileSchema } = await import('../src/index.js');
    for (const tool of tools) await compileSchema(tool.inputSchema).catch((e) => log(tool.name, e.message));
  },
  async 'json-schema-2020-12-preservation'(client) {
    const tools = await client.listTools();
    const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('json_schema_2020_12_tool not listed');
    await client.callTool('json_schema_echo', { schema: focal.inputSchema });
  },
};

async function main(): Promise<number> {
  if (!url || !/^https?:\/\//.test(url)) {
    log('usage: conformance-client <server-url> (with MCP_CONFORMANCE_SCENARIO set)');
    return 2;
  }
  if (scenario.startsWith('auth/')) return authScenario({ url, scenario, context, newClient, log });
  const run = scenarios[scenario];
  if (!run) {
    log('unknown scenario');
    return 2;
  }
  const client = newClient();
  try {
    await run(client);
    return 0;
  } catch (error) {
    log('failed:', error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    return 1;
  } finally {
    await client.close();
  }
}

process.exitCode = await main();
