/**
 * The bridge in its own Node process, as `mcp-web-elements bridge` runs it,
 * relaying bench/stdio-echo-server.ts. Prints `READY <url>` (the endpoint with
 * its token) on stdout; ends when its stdin closes.
 */
import { startBridge } from '../bridge/index.js';

const [command, ...args] = JSON.parse(process.argv[2]!) as string[];
const bridge = await startBridge({ server: { command: command!, args }, log: (line) => process.stderr.write(`${line}\n`) });
process.stdout.write(`READY ${bridge.endpoints[0]!.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void bridge.close().then(() => process.exit(0));
});
