#!/usr/bin/env node
/**
 * `npm start`: runs the bundled demo MCP server, the kit's bridge in front of a
 * stdio server (server-everything), and the demo pages (Vite dev server), and
 * prints the URLs to open. Installs dependencies first when the checkout has
 * none. Ports: DEMO_SERVER_PORT (default 3001) and DEMO_PORT (default 5173); a
 * busy port is replaced by a free one; the bridge takes a free one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

if (!existsSync(bin('vite')) || !existsSync(bin('tsx'))) {
  console.log('Installing dependencies (npm install)…');
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
}

/** The preferred port if free, else one the OS picks. */
function freePort(preferred) {
  return new Promise((resolvePort) => {
    const probe = createServer();
    probe.once('error', () => {
      const fallback = createServer();
      fallback.listen(0, '127.0.0.1', () => {
        const { port } = fallback.address();
        fallback.close(() => resolvePort(port));
      });
    });
    probe.listen(preferred, '127.0.0.1', () => probe.close(() => resolvePort(preferred)));
  });
}

const serverPort = await freePort(Number(process.env.DEMO_SERVER_PORT ?? 3001));
const pagePort = await freePort(Number(process.env.DEMO_PORT ?? 5173));
const mcpUrl = `http://127.0.0.1:${serverPort}/mcp`;
const children = [];

function run(command, args, env = {}) {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  children.push(child);
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`${args[0] ?? command} exited (${code}); stopping the demo.`);
      stop(code ?? 1);
    }
  });
  return child;
}

/** Resolves with the first match of `pattern` in the child's output. */
function waitForLine(child, pattern) {
  return new Promise((resolveLine) => {
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const match = pattern.exec(buffer);
      if (match) resolveLine(match);
      if (process.env.DEMO_VERBOSE) process.stdout.write(chunk);
    });
  });
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 300);
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

const server = run(bin('tsx'), ['demo/server/main.ts', '--port', String(serverPort)]);
await waitForLine(server, /listening at/);
// A stdio server through the bridge (the playground's "Local server (stdio)" choice); its log goes to stderr.
const everything = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const pageOrigins = [`http://127.0.0.1:${pagePort}`, `http://localhost:${pagePort}`].flatMap((origin) => ['--allow-origin', origin]);
const bridge = run(bin('tsx'), ['bridge/main.ts', 'bridge', ...pageOrigins, '--', process.execPath, everything, 'stdio']);
const [bridgeUrl] = await waitForLine(bridge, /http:\/\/\S+\/mcp\?token=\S+/);
const vite = run(bin('vite'), ['--port', String(pagePort), '--strictPort'], { VITE_MCP_SERVER_URL: mcpUrl, VITE_MCP_BRIDGE_URL: bridgeUrl, DEMO_PORT: String(pagePort) });
await waitForLine(vite, /ready in|Local:/);

console.log(`
  mcp-web-elements demo
  Playground:   http://127.0.0.1:${pagePort}/
  Chat sample:  http://127.0.0.1:${pagePort}/chat.html
  MCP server:   ${mcpUrl}
  stdio server: ${bridgeUrl}
                (server-everything over stdio through the kit's bridge:
                 "Local server (stdio)" in the playground)

  Press Ctrl+C to stop.
`);
