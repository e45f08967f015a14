/**
 * The call-overhead server in its own process, as a real server would be: the
 * official SDK with one `echo` tool (bench/servers.ts `startEchoServer`,
 * `responseMode: 'json'`). Prints `READY <url>` on stdout; request counters are
 * at `GET /__counts`. Ends when its stdin closes (the bench exited).
 */
import { startEchoServer } from './servers.js';

const server = await startEchoServer({ responseMode: 'json' });
process.stdout.write(`READY ${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().then(() => process.exit(0));
});
