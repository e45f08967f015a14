/**
 * The SSE throughput server in its own process (bench/sse.ts): one raw node:http
 * server per stream size given as arguments in MiB, each sending `sseBody` of that
 * size to every POST. Prints `READY <url> <url> …` in argument order; ends when
 * its stdin closes.
 */
import { startSseServer } from './servers.js';
import { sseBody, EVENT_BYTES } from './sse.js';

const servers = await Promise.all(process.argv.slice(2).map((mib) => startSseServer(sseBody((Number(mib) * 1024 * 1024) / EVENT_BYTES))));
process.stdout.write(`READY ${servers.map((s) => s.url).join(' ')}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void Promise.all(servers.map((s) => s.close())).then(() => process.exit(0));
});
