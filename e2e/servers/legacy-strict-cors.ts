/**
 * A 2025-era server with an explicit CORS allow-list, for the end-to-end test of
 * reaching it from the playground in `auto` mode: the official SDK serving
 * legacy sessions, allowing only the headers the legacy handshake needs
 * (test/support/wire-lab.ts, LEGACY_ALLOW_LIST).
 *
 * Usage: tsx e2e/servers/legacy-strict-cors.ts --port <port>
 */
import { LEGACY_ALLOW_LIST } from '../../test/support/wire-lab.js';
import { startLegacySdkServer } from '../../test/support/legacy-servers.js';

const at = process.argv.indexOf('--port');
const port = at > 0 ? Number(process.argv[at + 1]) : 0;
const server = await startLegacySdkServer('sessions', { port, cors: { allowHeaders: LEGACY_ALLOW_LIST, exposeHeaders: ['Mcp-Session-Id'] } });
process.stdout.write(`legacy server with a strict CORS allow-list at ${server.url}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
