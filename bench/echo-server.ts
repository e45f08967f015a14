/**
 * The call-overhead server in its own process, as a real server would be: the
 * official SDK with one `echo` tool (bench/servers.ts `startEchoServer`,
 * `responseMode: 'json'`; `--legacy` serves 2025-era clients too, statelessly; `--legacy-only` only them).
 * Prints `READY <url>` on stdout; request counters are at `GET /__counts`. Ends
 * when its stdin closes (the bench exited).
 */
import { startEchoServer } from './servers.js';

const server = await startEchoServer({ responseMode: 'json', legacy: process.argv.includes('--legacy-only') ? 'only' : process.argv.includes('--legacy') ? 'stateless' : 'reject' });
process.stdout.write(`READY ${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().then(() => process.exit(0));
});
