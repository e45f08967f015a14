/**
 * The config file of `mcp-web-elements bridge --config <file>`: the `mcpServers`
 * object that desktop MCP hosts use (a `servers` object, as some editors write
 * it, is read the same way). Each stdio entry becomes its own endpoint.
 *
 * ```json
 * { "mcpServers": { "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": { "DEBUG": "1" }, "cwd": "." } } }
 * ```
 *
 * @module
 */
import { isAbsolute, resolve } from 'node:path';
import type { StdioServerSpec } from './child.js';

/** The stdio servers of a config file, and the entries left out with why. */
export interface BridgeConfig {
  servers: Record<string, StdioServerSpec>;
  skipped: { name: string; reason: string }[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a config file's text.
 * @param text - the file's content (JSON).
 * @param file - its path: relative `cwd` values are resolved against its folder; named in errors.
 * @throws Error naming the file and the entry when the JSON or an entry is malformed.
 */
export function parseConfig(text: string, file: string): BridgeConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message})`);
  }
  const entries = isRecord(json) ? (json.mcpServers ?? json.servers) : undefined;
  if (!isRecord(entries)) throw new Error(`${file}: expected an object with "mcpServers": { "<name>": { "command": "…", "args": […] } }`);
  const config: BridgeConfig = { servers: {}, skipped: [] };
  const folder = resolve(file, '..');
  for (const [name, entry] of Object.entries(entries)) {
    const where = `${file}: server ${JSON.stringify(name)}`;
    if (!name.trim()) throw new Error(`${file}: a server has an empty name`);
    if (!isRecord(entry)) throw new Error(`${where} is not an object`);
    if (entry.disabled === true) {
      config.skipped.push({ name, reason: 'disabled' });
      continue;
    }
    if (entry.url !== undefined || (typeof entry.type === 'string' && entry.type !== 'stdio')) {
      config.skipped.push({ name, reason: 'not a stdio server (it has a URL: connect to it directly)' });
      continue;
    }
    if (typeof entry.command !== 'string' || !entry.command.trim()) throw new Error(`${where} has no "command"`);
    const spec: StdioServerSpec = { command: entry.command };
    if (entry.args !== undefined) {
      if (!Array.isArray(entry.args) || !entry.args.every((arg) => typeof arg === 'string')) throw new Error(`${where}: "args" must be an array of strings`);
      spec.args = entry.args as string[];
    }
    if (entry.env !== undefined) {
      if (!isRecord(entry.env) || !Object.values(entry.env).every((value) => typeof value === 'string')) throw new Error(`${where}: "env" must map names to strings`);
      spec.env = entry.env as Record<string, string>;
    }
    if (entry.cwd !== undefined) {
      if (typeof entry.cwd !== 'string') throw new Error(`${where}: "cwd" must be a string`);
      spec.cwd = isAbsolute(entry.cwd) ? entry.cwd : resolve(folder, entry.cwd);
    }
    config.servers[name] = spec;
  }
  return config;
}
