/**
 * Runs the demo MCP server from the command line:
 *   tsx demo/server/main.ts [--port 3001] [--host 127.0.0.1] [--allow-origin https://example.com] [--private-token <token>]
 *
 * `--private-token` also serves `/private/mcp`, which needs `Authorization: Bearer <token>`.
 */
import { startDemoServer } from './server.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const extraOrigins = args.flatMap((arg, i) => (arg === '--allow-origin' && args[i + 1] ? [args[i + 1]!] : []));
const local = (origin: string) => /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin);

const server = await startDemoServer({
  port: Number(flag('--port') ?? process.env.DEMO_SERVER_PORT ?? 3001),
  host: flag('--host') ?? '127.0.0.1',
  allowedOrigins: (origin) => local(origin) || extraOrigins.includes(origin),
  verbose: args.includes('--verbose'),
  privateToken: flag('--private-token'),
});
console.log(`Demo MCP server listening at ${server.url}`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
