/**
 * One stdio MCP server process (spec 2025-11-25 basic/transports "stdio";
 * basic/lifecycle "Shutdown"): spawned with an argument vector (never a shell),
 * newline-delimited JSON-RPC on stdin/stdout, stderr kept for the log.
 *
 * Bounds, so that a misbehaving child cannot make the bridge buffer without end:
 * - a stdout line longer than `maxLineBytes` is dropped as it streams (only its
 *   first and last bytes are kept, to tell which request it answered);
 * - writes to stdin resolve only once the pipe accepted them ('drain'), and a
 *   write that would push the pipe's backlog over `maxPendingBytes` is refused;
 * - stderr lines are cut to {@link STDERR_LINE_CHARS} and only the last
 *   `stderrLines` of them are kept for crash reports.
 *
 * A byte-order mark at the start of a line (some runtimes write one before their
 * first output) is not part of the message: it is dropped before parsing.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** A stdio server to start: the command and its arguments, passed as they are (no shell). */
export interface StdioServerSpec {
  /** The program: a path or a name looked up in `PATH` (never interpreted by a shell). */
  command: string;
  /** Its arguments, each reaching the program verbatim. */
  args?: readonly string[];
  /**
   * Variables for the child, on top of a minimal base taken from the bridge's
   * environment ({@link BASE_ENV_VARS}): the rest of the bridge's environment
   * (tokens, keys) is not passed on unless named here.
   */
  env?: Readonly<Record<string, string>>;
  /** Working directory; default the bridge's. */
  cwd?: string;
}

/** How a child ended. */
export interface ChildExit {
  /** Exit code, or null when a signal ended it or it never started. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why it could not be started (`spawn … ENOENT`), when it could not. */
  startError?: string;
  /** Its last stderr lines (at most `stderrLines`, each at most {@link STDERR_LINE_CHARS} characters). */
  stderr: string[];
  /** Whether the bridge asked it to stop (DELETE, idle timeout, shutdown); false for a crash. */
  requested: boolean;
}

/** A stdout line over the cap, as far as it was seen. */
export interface OversizeLine {
  /** Its length in bytes (without the newline). */
  bytes: number;
  /** Its first and last {@link EDGE_BYTES} bytes, decoded leniently. */
  head: string;
  tail: string;
}

export interface ChildLimits {
  /** Longest stdout line accepted, in bytes. */
  maxLineBytes: number;
  /** Most bytes waiting in the stdin pipe before writes are refused. */
  maxPendingBytes: number;
  /** stderr lines kept for crash reports. */
  stderrLines: number;
  /** Wait after closing stdin before SIGTERM, and after SIGTERM before SIGKILL, in ms. */
  shutdownGraceMs: number;
}

export interface ChildHandlers {
  /** A parsed stdout line (any JSON value: the caller checks it is JSON-RPC), and its text (BOM and CR dropped). */
  message(value: unknown, text: string): void;
  /**
   * A stdout line that is not JSON: a server that logs to stdout by mistake, or a
   * message cut short or malformed (the whole line, at most `maxLineBytes`).
   */
  noise(line: string): void;
  oversize(line: OversizeLine): void;
  stderr(line: string): void;
  /** The child stopped reading: `bytes` wait in its stdin pipe (once per stall). */
  stalled(bytes: number): void;
  exit(exit: ChildExit): void;
}

/**
 * What a child inherits from the bridge's environment without being told: enough
 * to find programs and a home folder (as desktop MCP hosts do), nothing secret.
 */
export const BASE_ENV_VARS: readonly string[] =
  process.platform === 'win32'
    ? ['APPDATA', 'COMSPEC', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PATHEXT', 'PROCESSOR_ARCHITECTURE', 'PROGRAMDATA', 'PROGRAMFILES', 'PROGRAMFILES(X86)', 'PROGRAMW6432', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'TMP', 'USERNAME', 'USERPROFILE', 'WINDIR']
    : ['HOME', 'LANG', 'LC_ALL', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'TMPDIR', 'USER'];

/** The child's environment: the base variables the bridge has (shell functions left out), then `extra`. */
export function childEnvironment(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of BASE_ENV_VARS) {
    const value = process.env[name];
    // Exported shell functions look like "() { …": never handed on.
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  return { ...env, ...extra };
}

/** Longest stderr line kept, in characters. */
export const STDERR_LINE_CHARS = 1000;
/** Bytes kept from each end of an oversize stdout line. */
export const EDGE_BYTES = 512;
const NEWLINE = 0x0a;

/** Thrown by {@link StdioChild.write} when the child's stdin is too far behind or gone. */
export class ChildBusyError extends Error {
  constructor(
    message: string,
    readonly gone: boolean,
  ) {
    super(message);
    this.name = 'ChildBusyError';
  }
}

/** A spawned stdio server. */
export class StdioChild {
  readonly #process: ChildProcess;
  readonly #limits: ChildLimits;
  readonly #handlers: ChildHandlers;
  /** Own process group on POSIX, so `npx`-style launchers and their children stop together. */
  readonly #group = process.platform !== 'win32';
  readonly #stderr: string[] = [];
  #stderrPartial = '';
  #parts: Buffer[] = [];
  #partBytes = 0;
  /** Set while an oversize line is being skipped. */
  #skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;
  #requested = false;
  #startError: string | undefined;
  #exited = false;
  #pauses = 0;
  #stalled = false;
  readonly exited: Promise<ChildExit>;
  #resolveExit!: (exit: ChildExit) => void;

  constructor(spec: StdioServerSpec, limits: ChildLimits, handlers: ChildHandlers) {
    this.#limits = limits;
    this.#handlers = handlers;
    this.exited = new Promise((resolve) => (this.#resolveExit = resolve));
    this.#process = spawn(spec.command, [...(spec.args ?? [])], {
      cwd: spec.cwd,
      env: childEnvironment(spec.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      detached: this.#group,
    });
    const child = this.#process;
    child.stdout!.on('data', (chunk: Buffer) => this.#onStdout(chunk));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => this.#onStderr(text));
    // EPIPE after the child died: the exit handler reports it.
    child.stdin!.on('error', () => {});
    child.stdout!.on('error', () => {});
    child.on('error', (error) => {
      if (child.pid === undefined) {
        this.#startError = error.message;
        this.#finish(null, null);
      }
    });
    let exitTimer: NodeJS.Timeout | undefined;
    child.on('exit', (code, signal) => {
      // 'close' follows once stdout is drained; a grandchild holding the pipe must not delay the report.
      exitTimer = setTimeout(() => this.#finish(code, signal), 500);
      exitTimer.unref();
      child.once('close', () => {
        clearTimeout(exitTimer);
        this.#finish(code, signal);
      });
    });
  }

  get pid(): number | undefined {
    return this.#process.pid;
  }

  get alive(): boolean {
    return !this.#exited;
  }

  /**
   * Writes one message as a line: `text` (its JSON as received) when it has no
   * line break, else the message serialized. Resolves once the pipe took it (at
   * once, or after 'drain' when its buffer is full: the caller's HTTP answer waits too).
   * @throws ChildBusyError when the child is gone or its stdin backlog would
   *   exceed `maxPendingBytes`.
   */
  write(message: unknown, text?: string): Promise<void> {
    const stdin = this.#process.stdin!;
    if (this.#exited || !stdin.writable) return Promise.reject(new ChildBusyError('the stdio server is not running', true));
    // A line holds one message (stdio transport): a received text with a line break in its
    // whitespace is serialized again (JSON.stringify escapes control characters).
    const line = `${text !== undefined && !/[\r\n]/.test(text) ? text : JSON.stringify(message)}\n`;
    const bytes = Buffer.byteLength(line);
    if (stdin.writableLength > 0 && stdin.writableLength + bytes > this.#limits.maxPendingBytes) {
      return Promise.reject(new ChildBusyError(`the stdio server is not reading its input (${stdin.writableLength} bytes waiting)`, false));
    }
    if (stdin.write(line)) return Promise.resolve();
    if (!this.#stalled) {
      this.#stalled = true;
      this.#handlers.stalled(stdin.writableLength);
    }
    return new Promise((resolve, reject) => {
      const done = () => {
        this.#stalled = false;
        stdin.off('drain', done);
        clearInterval(watch);
        if (this.#exited) reject(new ChildBusyError('the stdio server exited before reading its input', true));
        else resolve();
      };
      stdin.on('drain', done);
      const watch = setInterval(() => this.#exited && done(), 200);
      watch.unref();
    });
  }

  /** Stops reading stdout (a reader of the bridge is slow); counted, so nested pauses need as many resumes. */
  pause(): void {
    if (this.#pauses++ === 0) this.#process.stdout!.pause();
  }

  resume(): void {
    if (this.#pauses > 0 && --this.#pauses === 0) this.#process.stdout!.resume();
  }

  /**
   * Stops the child as the stdio lifecycle describes: close stdin, then SIGTERM,
   * then SIGKILL, each after `shutdownGraceMs`.
   */
  stop(): Promise<ChildExit> {
    if (this.#exited) return this.exited;
    this.#requested = true;
    this.#process.stdin!.end();
    const grace = this.#limits.shutdownGraceMs;
    const term = setTimeout(() => this.#signal('SIGTERM'), grace);
    const kill = setTimeout(() => this.#signal('SIGKILL'), grace * 3);
    void this.exited.then(() => {
      clearTimeout(term);
      clearTimeout(kill);
    });
    return this.exited;
  }

  /** Immediate SIGKILL of the child's group, for a bridge that is exiting right now. */
  killNow(): void {
    this.#requested = true;
    this.#signal('SIGKILL');
  }

  #signal(signal: NodeJS.Signals): void {
    const pid = this.#process.pid;
    if (pid === undefined) return;
    try {
      if (this.#group) process.kill(-pid, signal);
      else this.#process.kill(signal);
    } catch {
      /* already gone */
    }
  }

  #finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exited) return;
    this.#exited = true;
    if (this.#stderrPartial) this.#keepStderr(this.#stderrPartial);
    this.#stderrPartial = '';
    // Anything the server left running in its group goes with it.
    if (this.#group && this.#process.pid !== undefined) {
      try {
        process.kill(-this.#process.pid, 'SIGTERM');
      } catch {
        /* none left */
      }
    }
    const exit: ChildExit = { code, signal, stderr: [...this.#stderr], requested: this.#requested };
    if (this.#startError !== undefined) exit.startError = this.#startError;
    this.#resolveExit(exit);
    this.#handlers.exit(exit);
  }

  #onStdout(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#append(chunk.subarray(start, end));
      if (newline === -1) break;
      this.#endLine();
      start = newline + 1;
    }
  }

  #append(piece: Buffer): void {
    if (piece.length === 0) return;
    const skipping = this.#skipping;
    if (skipping) {
      skipping.bytes += piece.length;
      skipping.tail = Buffer.concat([skipping.tail, piece]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.#partBytes + piece.length <= this.#limits.maxLineBytes) {
      this.#parts.push(piece);
      this.#partBytes += piece.length;
      return;
    }
    // Over the cap: keep only the edges from here on.
    const seen = Buffer.concat([...this.#parts, piece]);
    this.#skipping = { bytes: seen.length, head: Buffer.from(seen.subarray(0, EDGE_BYTES)), tail: Buffer.from(seen.subarray(-EDGE_BYTES)) };
    this.#parts = [];
    this.#partBytes = 0;
  }

  #endLine(): void {
    const skipping = this.#skipping;
    if (skipping) {
      this.#skipping = undefined;
      this.#handlers.oversize({ bytes: skipping.bytes, head: skipping.head.toString('utf8'), tail: skipping.tail.toString('utf8') });
      return;
    }
    const line = Buffer.concat(this.#parts).toString('utf8');
    this.#parts = [];
    this.#partBytes = 0;
    let text = line.endsWith('\r') ? line.slice(0, -1) : line;
    // A UTF-8 byte-order mark (U+FEFF once decoded) is no JSON: JSON.parse refuses it (RFC 8259 §8.1: ignore it).
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#handlers.noise(text);
      return;
    }
    this.#handlers.message(value, text);
  }

  #onStderr(text: string): void {
    const lines = (this.#stderrPartial + text).split('\n');
    this.#stderrPartial = lines.pop()!.slice(0, STDERR_LINE_CHARS);
    for (const line of lines) this.#keepStderr(line);
  }

  #keepStderr(raw: string): void {
    const line = raw.replace(/\r$/, '').slice(0, STDERR_LINE_CHARS);
    this.#stderr.push(line);
    if (this.#stderr.length > this.#limits.stderrLines) this.#stderr.shift();
    this.#handlers.stderr(line);
  }
}
