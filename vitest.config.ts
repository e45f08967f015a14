import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { chromiumLaunchOptions } from './scripts/browser.js';

/**
 * Two test projects:
 * - `core`: the client core in Node, against real servers on loopback (test/).
 * - `elements`: the custom elements in a real Chromium (components/).
 */
export default defineConfig({
  test: {
    // Two cores on CI: keep parallelism modest.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'core',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          // A busy machine (two cores, several runs) can take seconds where an idle one takes
          // milliseconds: polls wait up to 10 s, not the default 1 s.
          expect: { poll: { timeout: 10_000 } },
          setupFiles: ['test/setup/patient-waits.ts'],
          hookTimeout: 90_000,
        },
      },
      {
        // Pre-bundle every browser dependency up front: discovering one mid-run reloads the
        // test page, which can fail a test that was running.
        optimizeDeps: {
          include: ['lit', 'lit/decorators.js', 'lit/directives/if-defined.js', '@lit/context', 'idb-keyval', 'axe-core', 'eventsource-parser', 'ajv', 'ajv/dist/2020.js', 'ajv-formats', '@cfworker/json-schema'],
        },
        test: {
          name: 'elements',
          include: ['components/**/*.test.ts'],
          globalSetup: ['test/support/elements-global-setup.ts'],
          testTimeout: 60_000,
          expect: { poll: { timeout: 10_000 } },
          setupFiles: ['test/setup/patient-waits.ts'],
          hookTimeout: 90_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({ launchOptions: chromiumLaunchOptions() }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
