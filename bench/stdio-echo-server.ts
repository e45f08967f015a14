/**
 * The bridge section's stdio server: the official SDK (`serveStdio`) with the
 * same `echo` tool as bench/echo-server.ts, on stdin/stdout. The bench starts
 * it directly (the official stdio client) and behind the bridge.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { echoServer } from './servers.js';

serveStdio(() => echoServer());
