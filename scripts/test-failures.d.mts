/** Types of scripts/test-failures.mjs (for the test that reads it). */
export declare function vitestFailures(report: unknown, root?: string): string[];
export declare function playwrightFailures(report: unknown): string[];
