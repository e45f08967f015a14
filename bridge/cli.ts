/**
 * The package's command line (`bin/mcp-web-elements.js`):
 *
 *   mcp-web-elements bridge [options] -- <command> [args…]
 *   mcp-web-elements bridge [options] --config <file>
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import type { StdioServerSpec } from './child.js';
import { parseConfig } from './config.js';
import { isLoopback, parseOriginPattern } from './guard.js';
import { DEFAULT_ALLOWED_ORIGINS, startBridge, type Bridge } from './server.js';

export const USAGE = `Usage:
  mcp-web-elements bridge [options] -- <command> [args…]
  mcp-web-elements bridge [options] --config <file>

Runs stdio MCP servers and serves each as a Streamable HTTP endpoint that pages
on this machine can use (one child process per MCP session).

Options:
  --port <n>             port to listen on (default: a free one)
  --host <address>       address to listen on (default 127.0.0.1; anything else
                         exposes the commands to the network)
  --allow-origin <o>     a page origin allowed to call, repeatable: exact
                         (https://app.example) or any port (http://localhost:*);
                         not null (file: pages, sandboxed frames);
                         default ${DEFAULT_ALLOWED_ORIGINS.join(' and ')} (the demo)
  --env KEY=VALUE        environment variable for the servers, repeatable; --env KEY
                         passes the bridge's own KEY (servers get only PATH, HOME
                         and a few more of the bridge's variables otherwise)
  --cwd <dir>            working directory of the servers
  --config <file>        several servers: { "mcpServers": { "<name>": { "command",
                         "args", "env", "cwd" } } }, each at /mcp/<name>
  --idle-timeout <s>     end a session idle this long (default 600)
  --max-message-bytes <n> longest message either way (default 8388608)
  --max-sessions <n>     concurrent sessions (default 16); at the limit the one
                         whose client left longest ago makes room
  -h, --help             this text
`;

/** What the command line asks for. */
export interface CliOptions {
  servers: { server?: StdioServerSpec; servers?: Record<string, StdioServerSpec> };
  skipped: { name: string; reason: string }[];
  host: string;
  port: number;
  allowedOrigins: string[];
  idleTimeoutMs?: number;
  maxMessageBytes?: number;
  maxSessions?: number;
}

function positiveInteger(flag: string, text: string | undefined, allowZero = false): number {
  const value = Number(text);
  if (text === undefined || !Number.isInteger(value) || value < (allowZero ? 0 : 1)) throw new Error(`${flag} needs a ${allowZero ? 'non-negative' : 'positive'} integer`);
  return value;
}

/**
 * Parses `bridge` arguments (without the `bridge` word). Arguments after `--`
 * (or from the first one that is not an option) are the command and its
 * arguments, passed to the child verbatim.
 * @throws Error with a message for the user on malformed arguments.
 */
export function parseBridgeArgs(
  argv: readonly string[],
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
  environment: Readonly<Record<string, string | undefined>> = process.env,
): CliOptions {
  const origins: string[] = [];
  const env: Record<string, string> = {};
  let cwd: string | undefined;
  let config: string | undefined;
  let command: string[] = [];
  const options: CliOptions = { servers: {}, skipped: [], host: '127.0.0.1', port: 0, allowedOrigins: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    if (arg === '--') {
      command = argv.slice(i + 1) as string[];
      break;
    }
    if (!arg.startsWith('-')) {
      command = argv.slice(i) as string[];
      break;
    }
    switch (flag) {
      case '--port':
        options.port = positiveInteger('--port', value(), true);
        break;
      case '--host':
        options.host = value();
        break;
      case '--allow-origin': {
        const origin = value();
        parseOriginPattern(origin);
        origins.push(origin);
        break;
      }
      case '--env': {
        const pair = value();
        const eq = pair.indexOf('=');
        if (eq === 0) throw new Error(`--env ${JSON.stringify(pair)}: expected KEY=VALUE or KEY`);
        if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
        else {
          // KEY alone: this one variable of the bridge's own environment.
          const inherited = environment[pair];
          if (inherited === undefined) throw new Error(`--env ${pair}: not set in this environment`);
          env[pair] = inherited;
        }
        break;
      }
      case '--cwd':
        cwd = value();
        break;
      case '--config':
        config = value();
        break;
      case '--idle-timeout':
        options.idleTimeoutMs = positiveInteger('--idle-timeout', value()) * 1000;
        break;
      case '--max-message-bytes':
        options.maxMessageBytes = positiveInteger('--max-message-bytes', value());
        break;
      case '--max-sessions':
        options.maxSessions = positiveInteger('--max-sessions', value());
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  options.allowedOrigins = origins.length ? origins : [...DEFAULT_ALLOWED_ORIGINS];
  const withDefaults = (spec: StdioServerSpec): StdioServerSpec => ({
    ...spec,
    ...(Object.keys(env).length ? { env: { ...spec.env, ...env } } : {}),
    ...(cwd !== undefined && spec.cwd === undefined ? { cwd } : {}),
  });
  if (config !== undefined) {
    if (command.length) throw new Error('give either --config <file> or a command after --, not both');
    const parsed = parseConfig(readFile(config), config);
    if (Object.keys(parsed.servers).length === 0) throw new Error(`${config}: no stdio server to run`);
    options.servers.servers = Object.fromEntries(Object.entries(parsed.servers).map(([name, spec]) => [name, withDefaults(spec)]));
    options.skipped = parsed.skipped;
  } else {
    if (command.length === 0) throw new Error('no command: mcp-web-elements bridge -- <command> [args…]');
    options.servers.server = withDefaults({ command: command[0]!, args: command.slice(1) });
  }
  return options;
}

/** What {@link main} writes to; the process's streams by default. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: CliIo = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/** The start banner: the URLs with their token, once. */
export function banner(bridge: Bridge, skipped: CliOptions['skipped']): string {
  const width = Math.max(...bridge.endpoints.map((e) => e.name.length));
  const lines = [
    `mcp-web-elements bridge: ${bridge.endpoints.length} stdio server${bridge.endpoints.length === 1 ? '' : 's'} at ${bridge.origin}`,
    '',
    ...bridge.endpoints.flatMap((e) => [`  ${e.name.padEnd(width)}  ${e.url}`, `  ${' '.repeat(width)}  ${e.command}`]),
    ...skipped.map((s) => `  (skipped ${s.name}: ${s.reason})`),
    '',
    `Token (changes on every start): ${bridge.token}`,
    `  Paste the URL above, or send "Authorization: Bearer <token>".`,
    `Pages allowed: ${bridge.allowedOrigins.join(', ')} (add more with --allow-origin <origin>)`,
    'Each MCP session runs its own child; their stderr is logged below. Ctrl+C stops everything.',
    '',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Runs the command line. `bridge` keeps running until SIGINT or SIGTERM.
 * @returns the exit code.
 */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === '-h' || subcommand === '--help' || subcommand === 'help') {
    io.out(USAGE);
    return subcommand === undefined ? 1 : 0;
  }
  if (subcommand !== 'bridge') {
    io.err(`mcp-web-elements: unknown command ${JSON.stringify(subcommand)}\n\n${USAGE}`);
    return 1;
  }
  if (rest[0] === '-h' || rest[0] === '--help') {
    io.out(USAGE);
    return 0;
  }
  let options: CliOptions;
  try {
    options = parseBridgeArgs(rest);
  } catch (error) {
    io.err(`mcp-web-elements bridge: ${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (!isLoopback(options.host)) {
    io.err(
      `Warning: listening on ${options.host}, not loopback: other machines can reach the bridge, and through it run the server commands; only the token stands in the way.\n`,
    );
  }
  let bridge: Bridge;
  try {
    bridge = await startBridge({ ...options.servers, host: options.host, port: options.port, allowedOrigins: options.allowedOrigins, idleTimeoutMs: options.idleTimeoutMs, maxMessageBytes: options.maxMessageBytes, maxSessions: options.maxSessions, log: (line) => io.err(`${line}\n`) });
  } catch (error) {
    io.err(`mcp-web-elements bridge: ${(error as Error).message}\n`);
    return 1;
  }
  io.out(banner(bridge, options.skipped));
  let closing = () => {};
  await new Promise<void>((resolve) => {
    // SIGHUP too: a closed terminal must not leave the children (in their own process groups) behind.
    // A second signal while the servers stop (Ctrl+C reaches the whole foreground group, and a parent such as
    // `npm start` sends SIGTERM too) exits at once: process.exit runs the bridge's exit hook, which kills every
    // child's group. Left to the default action, it killed the bridge alone, and a child that had not exited yet
    // (one waiting on a request, or ignoring SIGTERM) stayed behind in its own process group.
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        io.err(`${signal}: stopping the servers now\n`);
        process.exit(128 + (constants.signals[signal] ?? 0));
      }
      stopping = true;
      io.err(`${signal}: stopping the servers…\n`);
      resolve();
    };
    for (const name of signals) process.on(name, stop);
    closing = () => {
      for (const name of signals) process.off(name, stop);
    };
  });
  await bridge.close();
  closing();
  return 0;
}
