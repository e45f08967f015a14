/**
 * The demo server's long-running tool, `run_pipeline`: it runs as a task
 * (Tasks extension, `./tasks.ts`) with status messages and asks for an
 * approval while it runs. Node only (the task registry keeps tasks in this
 * process and streams `notifications/tasks` on a Node response), so `server.ts`
 * adds it to the shared definitions of `demo-server.ts`.
 */
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { object, sleep, text } from './demo-server.js';
import { declaresTasks, type TaskRegistry } from './tasks.js';

/** Builds counted across the server instances (the handler builds one per request). */
let builds = 0;

/** Registers `run_pipeline` and the `tasks/*` methods of `tasks` on one server instance. */
export function addPipeline(server: McpServer, tasks: TaskRegistry): void {
  // A long-running call: a task with status messages that asks for an approval halfway.
  server.registerTool(
    'run_pipeline',
    {
      title: 'Run a pipeline',
      description: 'Builds, tests and deploys a service as a task: progress in status messages, an approval asked while it runs, Cancel stops it.',
      inputSchema: object(
        {
          service: { type: 'string', title: 'Service', default: 'web' },
          stepMs: { type: 'integer', title: 'Step duration (ms)', minimum: 50, maximum: 600_000, default: 1500 },
          approval: { type: 'boolean', title: 'Ask for an approval before deploying', default: true },
        },
        ['service'],
      ),
    },
    async (args: any, ctx: any): Promise<CallToolResult> => {
      if (!declaresTasks(ctx)) {
        return { content: [{ type: 'text', text: 'run_pipeline runs as a task: this client did not declare the Tasks extension (io.modelcontextprotocol/tasks).' }], isError: true };
      }
      const service = String(args.service ?? 'web');
      const stepMs = Number(args.stepMs ?? 1500);
      return tasks.start(async (task) => {
        const build = ++builds;
        for (const step of ['Checking out', 'Building', 'Running tests']) {
          task.progress(`${step} ${service}…`);
          await sleep(stepMs, task.signal);
        }
        const answer = args.approval === false ? { action: 'accept', content: { approve: true } } : await task.input(
          `approve-${build}`,
          {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: `Build #${build} of ${service} passed its tests. Deploy it to production?`,
              requestedSchema: {
                type: 'object',
                properties: { approve: { type: 'boolean', title: 'Deploy to production', default: true }, note: { type: 'string', title: 'Release note' } },
                required: ['approve'],
              },
            },
          },
          'Waiting for approval',
        );
        const content = (answer.content ?? {}) as { approve?: boolean; note?: string };
        if (answer.action !== 'accept' || !content.approve) return text(`Build #${build} of ${service} was not deployed (${answer.action === 'accept' ? 'not approved' : answer.action}).`);
        task.progress(`Deploying ${service}…`);
        await sleep(stepMs, task.signal);
        return {
          content: [{ type: 'text', text: `Deployed ${service} build #${build}${content.note ? `: ${content.note}` : ''}.` }],
          structuredContent: { service, build, deployed: true },
        } as CallToolResult;
      }, `Queued ${service}`);
    },
  );
  tasks.install(server);
}
