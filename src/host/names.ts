/**
 * Model-facing tool names for a host of several servers: the tool's own name
 * while no other server has it, `<server key>__<tool>` only on a clash, every
 * name inside what chat APIs accept (OpenAI and Anthropic: `^[a-zA-Z0-9_-]{1,64}$`;
 * MCP tool names may also hold `.` and `/`, spec: server/tools "Tool Names").
 *
 * Stability is the point: a name a model has seen must keep meaning the same
 * tool. Names once given are remembered (per host, and in a {@link NameStore}
 * across reloads) and win over any new assignment; a remembered name is only
 * given up when another remembered one takes it first, and a name remembered
 * for a tool that is away is not given to another. New names are decided
 * in the order servers were added, then in each server's listing order, so the
 * same servers added in the same order get the same names even with no store.
 *
 * @module
 */

/** Longest name chat APIs accept for a function tool. */
export const MAX_MODEL_NAME = 64;
/** Longest server prefix put before a clashing tool's name. */
const MAX_PREFIX = 20;

/**
 * Where a host remembers the names it gave, so a reload gives the same ones
 * (e.g. `localStorage`). Synchronous, so a host's first catalogue already has them.
 */
export interface NameStore {
  /** The remembered names, by `serverKey + '\u0000' + toolName`; `undefined` when none. */
  load(): Record<string, string> | undefined;
  save(names: Record<string, string>): void;
}

/** One tool of one server, in host order. */
export interface NamedEntry {
  serverKey: string;
  toolName: string;
}

/** Whether `value` is a name chat APIs accept for a function tool (`^[a-zA-Z0-9_-]{1,64}$`). */
export const isModelName = (value: unknown): value is string => typeof value === 'string' && /^[a-zA-Z0-9_-]{1,64}$/.test(value);

/** The identity of an entry in the remembered table. */
export const entryId = (serverKey: string, toolName: string): string => `${serverKey}\u0000${toolName}`;

/** `text` with every character a chat API refuses replaced by `_`, at most `max` characters (the cut ends in a short hash, so two long names stay apart). */
export function sanitizeName(text: string, max = MAX_MODEL_NAME): string {
  const clean = text.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
  if (clean.length <= max) return clean;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  const tag = (h >>> 0).toString(36);
  return `${clean.slice(0, max - tag.length - 1)}_${tag}`;
}

/**
 * A short key for a server from its endpoint, for pages that give none: the
 * host name's distinctive label (`mcp.github.com` → `github`), `local<port>` on
 * loopback, always the same for the same URL.
 */
export function serverKeyFromUrl(url: string | URL): string {
  const { hostname, port } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || /^127\./.test(host) || host === '::1' || /^[\d.]+$/.test(host) || host.includes(':')) return `local${port}`;
  const labels = host.split('.').filter((label) => !/^(www|mcp|api|app)$/i.test(label));
  const label = labels.length > 1 ? labels[labels.length - 2]! : (labels[0] ?? host);
  return sanitizeName(label.toLowerCase(), MAX_PREFIX);
}

/**
 * Names for `entries` (in host order): remembered names kept first, then the
 * tool's own name for the first server that has it, a server prefix for the rest.
 * Returns the names by entry id; `remembered` is updated with every name given.
 */
export function assignNames(entries: readonly NamedEntry[], remembered: Map<string, string>): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const entry of entries) {
    const id = entryId(entry.serverKey, entry.toolName);
    const name = remembered.get(id);
    if (name !== undefined && !taken.has(name)) {
      names.set(id, name);
      taken.add(name);
    }
  }
  // A name remembered for a tool that is away (its server reconnecting, or not listed yet) stays its own.
  const reserved = new Map<string, string>();
  for (const [id, name] of remembered) reserved.set(name, id);
  const free = (name: string, id: string) => !taken.has(name) && (reserved.get(name) ?? id) === id;
  const suffixes = new Map<string, number>();
  for (const entry of entries) {
    const id = entryId(entry.serverKey, entry.toolName);
    if (names.has(id)) continue;
    const own = sanitizeName(entry.toolName);
    const prefixed = sanitizeName(`${sanitizeName(entry.serverKey, MAX_PREFIX)}__${entry.toolName}`);
    let name = free(own, id) ? own : prefixed;
    // Numbers go on from the last one tried for this prefix (names only get taken within a call): many
    // tools whose names clean to the same text cost one step each, not one per earlier one.
    let n = suffixes.get(prefixed) ?? 2;
    for (; !free(name, id); n++) name = sanitizeName(`${prefixed.slice(0, MAX_MODEL_NAME - String(n).length - 1)}_${n}`);
    suffixes.set(prefixed, n);
    names.set(id, name);
    taken.add(name);
    remembered.set(id, name);
  }
  return names;
}
