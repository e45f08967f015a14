/**
 * The client core's SSE reader is a chunk of its own, loaded with the first
 * request. A load that fails (offline for a moment, a deploy replacing the
 * chunks) must fail only the replies that needed it: once the chunk can be
 * fetched, the next request loads it again (issue 30, review finding F1: when
 * the load a reply asked for failed after the request's early one had, the
 * failure was kept, and every later event-stream reply failed for the page's
 * life). The Chromium these tests run in fetches a failed dynamic import again
 * when asked again (checked by hand: an import aborted once, then asked twice,
 * loaded); browsers that keep the failure fail again whatever the kit does. The
 * chunk fails through the runner's `wrapDynamicImport`
 * (components/test-support/frame.html). This file runs in its own page: the
 * reader has not been loaded before.
 */
import { expect, inject, test } from 'vitest';
import { McpClient, type ToolCallResult } from '../src/index.js';
import { offlineImport } from './test-support/lazy-imports.js';

const reader = offlineImport(/transport\/sse\.(?:js|ts)/, true);

test('offline, a reply on an event stream fails with the load failure as its cause; back online, the next request loads the reader and reads its stream', async () => {
  // This server answers the tool `method_flood` on an event stream (notifications, then the result).
  const client = new McpClient(inject('hostileServerUrl'), { protocol: 'modern', onWarning: () => {} });
  const call = async () => {
    const first = ((await client.callTool('method_flood', {})) as ToolCallResult).content?.[0];
    return first?.type === 'text' ? first.text : undefined;
  };
  const offline = await call().catch((error: unknown) => error);
  expect(offline).toMatchObject({ name: 'McpClientError' });
  expect(String((offline as Error).cause)).toContain('Failed to fetch dynamically imported module (test: offline)');
  const failed = reader.attempts;
  // The requests' early loads and the one the reply asked for.
  expect(failed).toBeGreaterThanOrEqual(3);

  reader.offline = false;
  expect(await call()).toBe('flooded');
  expect(await call()).toBe('flooded');
  expect(reader.attempts).toBe(failed + 1);
  await client.close();
});
