/**
 * Holds or fails the lazily loaded chunks a test names. In Vitest's browser mode
 * every `import()` goes through the runner's `wrapDynamicImport` (see
 * frame.html); these wrap it once for the test file's page. Call one at the top of
 * a test file that runs in its own page, so the chunk has not loaded yet.
 */
type Load = () => Promise<unknown>;

/** Puts `wrap` in front of the runner's import(): `wrap` gets the loader and the runner's own way to load it. */
function wrapImports(wrap: (load: Load, passThrough: (load: Load) => Promise<unknown>) => Promise<unknown>): void {
  const runner = (globalThis as unknown as { __vitest_browser_runner__: { wrapDynamicImport: (load: Load) => Promise<unknown> } }).__vitest_browser_runner__;
  const passThrough = runner.wrapDynamicImport.bind(runner);
  runner.wrapDynamicImport = (load: Load) => wrap(load, passThrough);
}

export interface HeldImport {
  /** How many imports of a matching chunk were asked for so far. */
  readonly requested: number;
  /** Lets every held and later import of the chunk through. */
  release(): void;
}

/** Holds each `import()` whose loader's source matches `pattern` (e.g. /form-parts/) until `release()`. */
export function holdImport(pattern: RegExp): HeldImport {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requested = 0;
  wrapImports((load, passThrough) => {
    if (!pattern.test(String(load))) return passThrough(load);
    requested++;
    return released.then(() => passThrough(load));
  });
  return {
    get requested() {
      return requested;
    },
    release,
  };
}

export interface OfflineImport {
  /** While true, every matching import() fails as it does in a browser that is offline. */
  offline: boolean;
  /** How many imports of a matching chunk were asked for so far (failed or not). */
  readonly attempts: number;
}

/** Fails each `import()` whose loader's source matches `pattern` with a TypeError (`message`) while `offline` is true. */
export function offlineImport(pattern: RegExp, offline: boolean, message = 'Failed to fetch dynamically imported module (test: offline)'): OfflineImport {
  let attempts = 0;
  const state: OfflineImport = {
    offline,
    get attempts() {
      return attempts;
    },
  };
  wrapImports((load, passThrough) => {
    if (!pattern.test(String(load))) return passThrough(load);
    attempts++;
    return state.offline ? Promise.reject(new TypeError(message)) : passThrough(load);
  });
  return state;
}
