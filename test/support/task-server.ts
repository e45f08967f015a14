/**
 * A 2026-07-28 server with the Tasks extension for the core tests: the
 * official SDK (`createMcpHandler`, `McpServer`) serving the protocol, the
 * extension from `demo/server/tasks.ts` (the SDK has no runtime for it), and a
 * recorder of every HTTP request (headers and parsed body).
 *
 * Tools (each runs as a task when the request declares the extension, inline otherwise):
 * - `long_job` `{ steps, delayMs }`: reports "step i of n" as the status message, then "done after n steps";
 * - `approval` `{ change }`: asks for an approval (form elicitation) while `input_required`;
 * - `failing_job`: fails with JSON-RPC error -32603 "The build broke" (`data: { step: 'compile' }`);
 * - `gated_job` `{ gates }`: waits at each gate until the test calls `release()` (or the task is cancelled), reporting "passed gate i of n";
 * - `questions` `{ count }`: asks `count` questions at once while `input_required`, then reports the answers ("3 answers: decline ×3");
 * - `quick`: never a task.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { declaresTasks, TaskFailure, TaskRegistry, TASKS_EXTENSION, type TaskContext } from '../../demo/server/tasks.js';
import { closeServer, listen, readJsonBody } from './http.js';
import type { RecordedRequest, RunningServer } from './servers.js';

export interface TaskServer extends RunningServer {
  /** Every HTTP request, with the time it arrived (ms since the epoch). */
  requests: (RecordedRequest & { time: number })[];
  registry: TaskRegistry;
  /** Lets every `gated_job` waiting now finish. */
  release(): void;
  /** How many `gated_job` tasks are waiting at the gate. */
  readonly gated: number;
  /** Stops listening and drops every connection (an outage); the tasks stay in `registry`. */
  stop(): Promise<void>;
  /** Listens again on the same port, with the same tasks (the end of an outage). */
  restart(): Promise<void>;
}

export interface TaskServerOptions {
  /** Suggested polling interval, ms; default 20. */
  pollIntervalMs?: number;
  /** Task TTL, ms; default 60,000. */
  ttlMs?: number;
  /** Serve notifications/tasks on subscriptions/listen; default false. */
  notifications?: boolean;
  /** Port to listen on; default 0 (a free one). A restarted server takes the port its first run got. */
  port?: number;
}

const schema = (json: Record<string, unknown>) => fromJsonSchema(json as never);
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export async function startTaskServer(options: TaskServerOptions = {}): Promise<TaskServer> {
  const registry = new TaskRegistry({ pollIntervalMs: options.pollIntervalMs ?? 20, ttlMs: options.ttlMs ?? 60_000, notifications: options.notifications ?? false });
  const gates: (() => void)[] = [];

  /** Runs `work` as a task when the client declared the extension, else inline (the server decides). */
  const asTask = async (ctx: any, work: (task: TaskContext) => Promise<CallToolResult>): Promise<CallToolResult> => {
    if (declaresTasks(ctx)) return registry.start(work, 'Started');
    const inline: TaskContext = {
      taskId: '',
      signal: ctx.mcpReq.signal,
      progress: () => {},
      input: async () => {
        throw new Error('this tool needs the Tasks extension to ask for input');
      },
    };
    try {
      return await work(inline);
    } catch (error) {
      return { content: [{ type: 'text', text: (error as Error).message }], isError: true };
    }
  };

  const build = () => {
    const server = new McpServer({ name: 'kit-task-server', version: '1.0.0' }, { capabilities: { extensions: { [TASKS_EXTENSION]: {} } } as never });
    server.registerTool(
      'long_job',
      { description: 'A job of several steps', inputSchema: schema({ type: 'object', properties: { steps: { type: 'integer' }, delayMs: { type: 'integer' } } }) },
      (args: any, ctx: any) =>
        asTask(ctx, async (task) => {
          const steps = args.steps ?? 3;
          for (let i = 1; i <= steps; i++) {
            await sleep(args.delayMs ?? 30, task.signal);
            task.progress(`step ${i} of ${steps}`);
          }
          return text(`done after ${steps} steps`);
        }),
    );
    server.registerTool(
      'approval',
      { description: 'Asks for an approval while it runs', inputSchema: schema({ type: 'object', properties: { change: { type: 'string' } } }) },
      (args: any, ctx: any) =>
        asTask(ctx, async (task) => {
          task.progress('checking the change');
          const answer = await task.input(
            'approve',
            {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: `Approve ${args.change ?? 'the change'}?`,
                requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve' }, comment: { type: 'string' } }, required: ['approve'] },
              },
            },
            'Waiting for approval',
          );
          const content = (answer.content ?? {}) as { approve?: boolean; comment?: string };
          task.progress('applying');
          return text(answer.action === 'accept' && content.approve ? `approved ${args.change ?? ''} (${content.comment ?? 'no comment'})` : `not approved: ${String(answer.action)}`);
        }),
    );
    server.registerTool('failing_job', { description: 'Fails with a JSON-RPC error', inputSchema: schema({ type: 'object', properties: {} }) }, (_args: any, ctx: any) =>
      asTask(ctx, async (task) => {
        task.progress('building');
        await sleep(10, task.signal);
        throw new TaskFailure(-32603, 'The build broke', { step: 'compile' });
      }),
    );
    server.registerTool('gated_job', { description: 'Runs until released at each gate', inputSchema: schema({ type: 'object', properties: { gates: { type: 'integer' } } }) }, (args: any, ctx: any) =>
      asTask(ctx, async (task) => {
        const count = args.gates ?? 1;
        task.progress('waiting at the gate');
        for (let i = 1; i <= count; i++) {
          await new Promise<void>((resolve, reject) => {
            gates.push(resolve);
            task.signal.addEventListener('abort', () => reject(task.signal.reason), { once: true });
          });
          task.progress(`passed gate ${i} of ${count}`);
        }
        return text('released');
      }),
    );
    server.registerTool('questions', { description: 'Asks several questions at once', inputSchema: schema({ type: 'object', properties: { count: { type: 'integer' } } }) }, (args: any, ctx: any) =>
      asTask(ctx, async (task) => {
        const count = args.count ?? 2;
        const question = (i: number) => ({ method: 'elicitation/create', params: { mode: 'form', message: `Question ${i + 1}?`, requestedSchema: { type: 'object', properties: { answer: { type: 'string' } } } } });
        const answers = await Promise.all(Array.from({ length: count }, (_, i) => task.input(`q${i}`, question(i), 'Waiting for answers')));
        const counts = new Map<string, number>();
        for (const answer of answers) counts.set(String(answer.action), (counts.get(String(answer.action)) ?? 0) + 1);
        return text(`${answers.length} answers: ${[...counts].map(([action, n]) => `${action} ×${n}`).join(', ')}`);
      }),
    );
    server.registerTool('quick', { description: 'Never a task', inputSchema: schema({ type: 'object', properties: {} }) }, async () => text('quick answer'));
    registry.install(server);
    return server;
  };

  const handler = createMcpHandler(build, { legacy: 'reject' });
  const node = toNodeHandler(handler);
  const requests: (RecordedRequest & { time: number })[] = [];
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readJsonBody(req);
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body, time: Date.now() });
    if (registry.wantsListen(body)) return registry.serveListen(body, res);
    await node(req as never, res as never, body);
  });
  const origin = await listen(http, options.port ?? 0);
  const port = Number(new URL(origin).port);
  return {
    url: `${origin}/mcp`,
    origin,
    requests,
    bodies: () => requests.filter((r) => r.method === 'POST').map((r) => r.body),
    registry,
    release() {
      for (const open of gates.splice(0)) open();
    },
    get gated() {
      return gates.length;
    },
    stop: () => closeServer(http),
    async restart() {
      await listen(http, port);
    },
    async close() {
      await handler.close();
      await closeServer(http);
    },
  };
}
