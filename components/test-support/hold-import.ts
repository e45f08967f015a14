/**
 * Holds the lazily loaded chunks a test names until it releases them. In Vitest's
 * browser mode every `import()` goes through the runner's `wrapDynamicImport`
 * (see frame.html); this wraps it once for the test file's page. Call it at the
 * top of a test file that runs in its own page, so the chunk has not loaded yet.
 */
type Load = () => Promise<unknown>;

export interface HeldImport {
  /** How many imports of a matching chunk were asked for so far. */
  readonly requested: number;
  /** Lets every held and later import of the chunk through. */
  release(): void;
}

/** Holds each `import()` whose loader's source matches `pattern` (e.g. /form-parts/) until `release()`. */
export function holdImport(pattern: RegExp): HeldImport {
  const runner = (globalThis as unknown as { __vitest_browser_runner__: { wrapDynamicImport: (load: Load) => Promise<unknown> } }).__vitest_browser_runner__;
  const passThrough = runner.wrapDynamicImport.bind(runner);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requested = 0;
  runner.wrapDynamicImport = (load: Load) => {
    if (!pattern.test(String(load))) return passThrough(load);
    requested++;
    return released.then(() => passThrough(load));
  };
  return {
    get requested() {
      return requested;
    },
    release,
  };
}
