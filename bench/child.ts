/**
 * Bench servers in their own Node process, as a real server would be: the
 * client under test then has the event loop (and, on two cores, a core) to
 * itself, and the server's writes are not timed as the reader's work.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ChildServer {
  /** The words after `READY` on the child's first ready line (its URLs). */
  urls: string[];
  /** Closes the child's stdin (its cue to close and exit); kills it after 5 s. */
  close(): Promise<void>;
}

/**
 * Starts `bench/<script>` under tsx with `args` and waits for it to print `READY <url> …`.
 * `onStderr` receives each non-empty stderr line (default: shown with the script's name).
 * Rejects if the child exits before it is ready.
 */
export async function spawnServer(script: string, args: string[] = [], onStderr?: (line: string) => void): Promise<ChildServer> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', path, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    for (const line of text.split('\n')) if (line.trim()) (onStderr ?? ((l) => process.stderr.write(`${script}: ${l}\n`)))(line);
  });
  const urls = await new Promise<string[]>((resolveUrls, reject) => {
    let buffered = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      buffered += text;
      const match = /READY ([^\n]+)\n/.exec(buffered);
      if (match) resolveUrls(match[1]!.trim().split(/\s+/));
    });
    child.once('exit', (code) => reject(new Error(`bench/${script} exited with ${code} before it was ready`)));
  });
  return {
    urls,
    close: () =>
      new Promise<void>((resolveClose) => {
        if (child.exitCode !== null) return resolveClose();
        const timer = setTimeout(() => child.kill(), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolveClose();
        });
        child.stdin.end();
      }),
  };
}
