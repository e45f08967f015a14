/**
 * Setup for every Vitest project: `vi.waitFor` waits up to 10 s unless a test says otherwise
 * (its default is 1 s). On a busy two-core machine a lazily loaded chunk or a server round
 * trip can take seconds; the wait still ends as soon as the condition holds.
 */
import { vi } from 'vitest';

const waitFor = vi.waitFor.bind(vi);
vi.waitFor = ((callback: Parameters<typeof waitFor>[0], options?: Parameters<typeof waitFor>[1]) =>
  waitFor(callback, typeof options === 'number' ? options : { timeout: 10_000, ...options })) as typeof vi.waitFor;
