/**
 * A hostile app's flood costs the host page a count, not work (issue 27): of
 * 10,000 `tools/call` messages, the host reads (deserializes) only what its rate
 * admits — a burst, then so many a second — and drops the rest unread and
 * unanswered. Counted, not timed: the host's reads of `MessageEvent.data` during
 * the flood are held to the rate's bound for however long the flood took, so a
 * busy machine (a slower flood) loosens the bound only as the rate itself does.
 * How long the page was blocked is the bench's to measure (bench/, never a timed
 * assert here: one long task of 224 ms on a loaded CI machine failed the old test).
 */
import { afterEach, expect, inject, test } from 'vitest';
import { McpClient } from '../../src/index.js';
import { nextEvent } from '../test-support/dom.js';
import { probeResource } from '../test-support/probe-app.js';
import './mcp-app-frame.js';

afterEach(() => document.body.replaceChildren());

const client = new McpClient(inject('demoServerUrl'), { onWarning: () => {} });
const COUNT = 10_000;
// The channel's defaults (channel.ts): a burst of 200 admitted and 300 refusals answered, then
// both refill at 100 a second.
const BURST = 200;
const REFUSALS = 300;
const REFILL_PER_SECOND = 2 * 100;

test('10,000 tools/call messages from an app: the host reads only what its rate admits and drops the rest unread', async () => {
  const dataGetter = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data')!.get!;
  let counting = false;
  let reads = 0;
  const frame = document.createElement('mcp-app-frame');
  // Every read of a message's data by the kit while the flood runs.
  Object.defineProperty(MessageEvent.prototype, 'data', {
    configurable: true,
    get(this: MessageEvent) {
      // The kit's reads only (its channel and frame): any other listener on the page (the test
      // runner has one) reads every message, which is not the kit's cost.
      if (counting && /\/(mcp-app-frame|channel)\.ts/.test(new Error().stack ?? '')) reads++;
      return dataGetter.call(this);
    },
  });
  const marks: Record<string, number> = {};
  frame.addEventListener('mcp-app-log', (event) => {
    const data = event.detail.data as Record<string, unknown>;
    // The probe logs each action's outcome: the flood starts once the first action (ping) is done.
    if (event.detail.logger === 'probe' && data.action === 0 && marks.start === undefined) {
      marks.start = performance.now();
      counting = true;
    }
  });
  let summary: { answered: number; pongs: number; errors: string[] } | undefined;
  frame.addEventListener('mcp-app-model-context', (event) => {
    event.preventDefault();
    counting = false;
    marks.end = performance.now();
    summary = event.detail.structuredContent as typeof summary;
  });
  const warn = console.warn;
  console.warn = () => {};
  try {
    frame.client = client;
    frame.resource = probeResource();
    frame.arguments = { actions: [{ do: 'request', method: 'ping', params: {} }, { do: 'flood-calls', count: COUNT }, { do: 'request', method: 'ping', params: {}, retry: true }, { do: 'summary' }] };
    const ready = nextEvent(frame, 'mcp-app-ready', 15_000);
    document.body.append(frame);
    await ready;
    await expect.poll(() => summary, { timeout: 120_000 }).toBeDefined();
  } finally {
    console.warn = warn;
    Object.defineProperty(MessageEvent.prototype, 'data', { configurable: true, enumerable: true, get: dataGetter });
  }
  const seconds = (marks.end! - marks.start!) / 1000;
  // Everything the rate admits or refuses in that time, and a few messages of the probe's own
  // around the flood (its log lines and the summary's retried request).
  const bound = BURST + REFUSALS + REFILL_PER_SECOND * seconds + 20;
  console.log(JSON.stringify({ seconds: Number(seconds.toFixed(2)), reads, bound: Math.round(bound), answered: summary!.answered }));
  expect(reads).toBeGreaterThan(0);
  expect(reads).toBeLessThanOrEqual(bound);
  // The ping after the flood was answered once admitted, after every answer to the flood (the host
  // answers in order): what the app got back is what was read, refusals included, no more.
  expect(summary!.answered).toBeLessThanOrEqual(reads);
  expect(summary!.errors).toContain('Too many messages: at most 100 a second');
  // The host still answers the app after the flood (the summary is a request it answered).
  expect(frame.status).toBe('ready');
}, 180_000);
