/**
 * A hostile MCP server (2026-07-28, raw `node:http`, CORS open) for the
 * element tests of issue 19: it sends what no real server SDK can be made to
 * send. Started in Node by the global setup; the tests get its URL through
 * `inject('hostileServerUrl')`.
 *
 * Tools:
 * - `flood`: one `input_required` round of 1,000 elicitation requests;
 * - `five_questions`: one round of 5 elicitation requests;
 * - `one_question`: one elicitation request with a text and a number field;
 * - `long_question`: one elicitation request with a choice of 150 values and
 *   a multiple choice of 120 (each searched: more than SEARCH_OVER);
 * - `huge_question`: one elicitation request too big to show as it is (5 MiB
 *   message, 1,000,000 choices, 100,000 tags, a 1 MiB default);
 * each answers the retry with a summary of the `inputResponses` it received
 * (`"1000 answers: decline ×1000"`);
 * - `task_flood`: runs as a task (Tasks extension) whose `tasks/get` asks for
 *   1,000 inputs at once; the `tasks/update` that answers them completes it,
 *   with the same summary as its result.
 *
 * - `method_flood`: answers on an SSE stream that first carries 3,000
 *   notifications, each with a method name of its own
 *   (`notifications/flood/<i>`, the last one 100,000 characters long).
 *
 * `resources/read` of `hostile://many` answers with 50,000 contents.
 *
 * `/huge/mcp` is the same server whose `server/discover` carries a 5 MiB name
 * and 10 MiB of instructions, and whose tools have 5 MiB descriptions.
 *
 * `/completions/mcp` also offers completions: `completion/complete` answers
 * with 100 values of 50,000 characters each and a `total` of a billion; its
 * `prompts/get` answers with a 1 MiB description and a 100,000-character role.
 *
 * `/templates/mcp` offers completions and 500 resource templates that each
 * match any text (`{v0}`, `{v1}`…: no literal start), one resource whose
 * URI, name, title, description and MIME type are each a megabyte, and a tool
 * `open_uri` with a URI field; `completion/complete` answers with one short value.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const MiB = 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const question = (i: number) => ({
  method: 'elicitation/create',
  params: { message: `Question ${i + 1}: your answer?`, requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: `Answer ${i + 1}` } } } },
});

function round(count: number): Record<string, unknown> {
  const requests: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) requests[`q${i}`] = question(i);
  return requests;
}

/** One question that is too big to show: a 5 MiB message, 1,000,000 choices, 100,000 tags, a 1 MiB default. */
function hugeQuestion(): Record<string, unknown> {
  return {
    big: {
      method: 'elicitation/create',
      params: {
        message: `Pick one. ${'m'.repeat(5 * MiB)}`,
        requestedSchema: {
          type: 'object',
          properties: {
            city: { type: 'string', title: 'City', description: `Where. ${'d'.repeat(MiB)}`, enum: Array.from({ length: 1_000_000 }, (_, i) => `city-${i}`) },
            tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: Array.from({ length: 100_000 }, (_, i) => `tag-${i}`) } },
            note: { type: 'string', title: 'Note', default: `n${'o'.repeat(MiB)}` },
          },
          required: ['city'],
        },
      },
    },
  };
}

const ROUNDS: Record<string, () => Record<string, unknown>> = {
  huge_question: hugeQuestion,
  flood: () => round(1000),
  five_questions: () => round(5),
  one_question: () => ({
    details: {
      method: 'elicitation/create',
      params: {
        message: 'Tell us about the trip.',
        requestedSchema: {
          type: 'object',
          properties: { city: { type: 'string', title: 'City' }, nights: { type: 'integer', title: 'Nights' } },
          required: ['city'],
        },
      },
    },
  }),
  long_question: () => ({
    pick: {
      method: 'elicitation/create',
      params: {
        message: 'Where to?',
        requestedSchema: {
          type: 'object',
          properties: {
            city: { type: 'string', title: 'City', enum: Array.from({ length: 150 }, (_, i) => `city-${i}`) },
            tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: Array.from({ length: 120 }, (_, i) => `tag-${i}`) } },
          },
          required: ['city'],
        },
      },
    },
  }),
};

/** "3 answers: decline ×2, accept ×1" — what the retry carried, in the order first seen. */
function summary(responses: Record<string, { action?: string; content?: unknown }>): string {
  const counts = new Map<string, number>();
  for (const response of Object.values(responses)) {
    const what = response.action === 'accept' ? `accept ${JSON.stringify(response.content ?? {})}` : (response.action ?? 'other');
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  return `${Object.keys(responses).length} answers: ${[...counts].map(([what, n]) => `${what} ×${n}`).join(', ')}`;
}

/** `task_flood` tasks: id → the summary of the `tasks/update` that answered them, once one did. */
const floodTasks = new Map<string, string | undefined>();

/** A `task_flood` task as `tasks/get` sends it: 1,000 input requests until answered, then completed. */
function floodTask(taskId: string): Record<string, unknown> {
  const time = new Date().toISOString();
  const base = { resultType: 'complete', taskId, createdAt: time, lastUpdatedAt: time, ttlMs: 60_000, pollIntervalMs: 20 };
  const answered = floodTasks.get(taskId);
  return answered === undefined
    ? { ...base, status: 'input_required', statusMessage: 'Needs answers', inputRequests: round(1000) }
    : { ...base, status: 'completed', result: { resultType: 'complete', content: [{ type: 'text', text: answered }] } };
}

function handle(path: string, message: { id?: number; method?: string; params?: Record<string, any> }): unknown {
  const huge = path.startsWith('/huge/');
  const templates = path.startsWith('/templates/');
  const completions = path.startsWith('/completions/') || templates;
  switch (message.method) {
    case 'tasks/get': {
      const taskId = String(message.params?.taskId);
      return floodTasks.has(taskId) ? floodTask(taskId) : undefined;
    }
    case 'tasks/update': {
      const taskId = String(message.params?.taskId);
      if (!floodTasks.has(taskId)) return undefined;
      floodTasks.set(taskId, summary((message.params?.inputResponses ?? {}) as Record<string, { action?: string }>));
      return { resultType: 'complete' };
    }
    case 'server/discover':
      return {
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: templates ? { tools: {}, resources: {}, completions: {} } : completions ? { tools: {}, prompts: {}, completions: {} } : { tools: {} },
        serverInfo: huge ? { name: `Huge ${'n'.repeat(5 * MiB)}`, version: '1.0.0' } : { name: 'hostile-test-server', version: '1.0.0' },
        ...(huge ? { instructions: 'i'.repeat(10 * MiB) } : {}),
      };
    case 'tools/list':
      if (templates) return { resultType: 'complete', tools: [{ name: 'open_uri', inputSchema: { type: 'object', properties: { uri: { type: 'string', format: 'uri' } } } }] };
      return {
        resultType: 'complete',
        tools: [...Object.keys(ROUNDS), 'task_flood', 'method_flood', 'quiet'].map((name, i) => ({
          name,
          description: huge ? `${i} ${'d'.repeat(5 * MiB)}` : `Asks for input (${name}).`,
          inputSchema: { type: 'object', properties: {} },
        })),
      };
    case 'tools/call': {
      const name = String(message.params?.name);
      const responses = message.params?.inputResponses as Record<string, { action?: string }> | undefined;
      if (responses) return { resultType: 'complete', content: [{ type: 'text', text: summary(responses) }] };
      if (name === 'task_flood') {
        const taskId = `flood-task-${floodTasks.size + 1}`;
        floodTasks.set(taskId, undefined);
        const time = new Date().toISOString();
        return { resultType: 'task', taskId, status: 'working', createdAt: time, lastUpdatedAt: time, ttlMs: 60_000, pollIntervalMs: 20 };
      }
      // `flood_<anything>`: the flood under a name of the test's choosing (megabytes long, say).
      const make = ROUNDS[name] ?? (name.startsWith('flood_') ? ROUNDS.flood : undefined);
      if (!make) return { resultType: 'complete', content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true };
      return { resultType: 'input_required', inputRequests: make(), requestState: `state-of-${name}` };
    }
    case 'resources/read':
      // One read answered with 50,000 contents.
      if (message.params?.uri === 'hostile://many') {
        return { resultType: 'complete', contents: Array.from({ length: 50_000 }, (_, i) => ({ uri: `hostile://many/${i}`, mimeType: 'text/plain', text: `content ${i}` })) };
      }
      return undefined;
    case 'resources/list':
      // One resource whose every text is a megabyte.
      return templates
        ? { resultType: 'complete', resources: [{ uri: `hostile://${'u'.repeat(MiB)}`, name: `Big ${'n'.repeat(MiB)}`, title: `Big ${'t'.repeat(MiB)}`, description: 'd'.repeat(MiB), mimeType: `text/${'m'.repeat(MiB)}` }] }
        : undefined;
    case 'resources/templates/list':
      return templates ? { resultType: 'complete', resourceTemplates: Array.from({ length: 500 }, (_, i) => ({ name: `t${i}`, uriTemplate: `{v${i}}` })) } : undefined;
    case 'prompts/get':
      // A description of a megabyte and a role of 100,000 characters.
      if (!completions) return undefined;
      return { resultType: 'complete', description: 'd'.repeat(MiB), messages: [{ role: 'r'.repeat(100_000), content: { type: 'text', text: 'hello' } }] };
    case 'completion/complete':
      if (templates) return { resultType: 'complete', completion: { values: [`${String(message.params?.argument?.value ?? '')}-done`] } };
      if (!completions) return undefined;
      return {
        resultType: 'complete',
        completion: { values: Array.from({ length: 100 }, (_, i) => `${i} ${'w'.repeat(50_000)}`), total: 1_000_000_000, hasMore: true },
      };
    default:
      return undefined;
  }
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, GET, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Expose-Headers': '*',
};

export async function startHostileServer(): Promise<{ url: string; hugeUrl: string; close(): Promise<void> }> {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, CORS);
      res.end();
      return;
    }
    const message = JSON.parse(await readBody(req)) as { id?: number; method?: string; params?: Record<string, unknown> };
    if (message.method === 'tools/call' && message.params?.name === 'method_flood') {
      res.writeHead(200, { ...CORS, 'Content-Type': 'text/event-stream' });
      const events: string[] = [];
      for (let i = 0; i < 3000; i++) {
        const method = i === 2999 ? `notifications/flood/${'m'.repeat(100_000)}` : `notifications/flood/${i}`;
        events.push(`data: ${JSON.stringify({ jsonrpc: '2.0', method, params: { i } })}\n\n`);
      }
      events.push(`data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', content: [{ type: 'text', text: 'flooded' }] } })}\n\n`);
      res.end(events.join(''));
      return;
    }
    const result = handle(req.url ?? '/', message);
    res.writeHead(200, { ...CORS, 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify(
        result === undefined
          ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } }
          : { jsonrpc: '2.0', id: message.id, result },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    hugeUrl: `${origin}/huge/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
