/**
 * A hostile app's flood costs the host page almost nothing (issue 27): the host
 * page's long tasks (PerformanceObserver `longtask`, the page's own) while an app
 * posts 10,000 `tools/call` messages, against the same page while the app posts
 * the same messages to itself, in one run. A count and a ratio, no time budget.
 */
import { afterEach, expect, inject, test } from 'vitest';
import { McpClient } from '../../src/index.js';
import { nextEvent } from '../test-support/dom.js';
import { probeResource } from '../test-support/probe-app.js';
import './mcp-app-frame.js';

afterEach(() => document.body.replaceChildren());

const client = new McpClient(inject('demoServerUrl'), { onWarning: () => {} });
const COUNT = Number(import.meta.env.VITE_FLOOD_COUNT ?? 10_000);

test('10,000 tools/call messages from an app add no long task over 200 ms to the host page', async () => {
  const longTasks: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries()));
  observer.observe({ type: 'longtask', buffered: false });
  const marks: Record<string, number> = {};
  const frame = document.createElement('mcp-app-frame');
  frame.addEventListener('mcp-app-log', (event) => {
    const data = event.detail.data as Record<string, unknown>;
    if (event.detail.logger === 'probe' && typeof data.action === 'number') marks[`action${data.action}`] ??= performance.now();
  });
  let summary: unknown;
  frame.addEventListener('mcp-app-model-context', (event) => {
    event.preventDefault();
    marks.summary = performance.now();
    summary = event.detail.structuredContent;
  });
  const warn = console.warn;
  console.warn = () => {};
  try {
    frame.client = client;
    frame.resource = probeResource();
    frame.arguments = {
      actions: [
        { do: 'request', method: 'ping', params: {} },
        { do: 'flood-self', count: COUNT },
        { do: 'flood-calls', count: COUNT },
        { do: 'summary' },
      ],
    };
    const ready = nextEvent(frame, 'mcp-app-ready', 15_000);
    document.body.append(frame);
    await ready;
    await expect.poll(() => summary, { timeout: 120_000 }).toBeDefined();
  } finally {
    console.warn = warn;
  }
  // Let the observer deliver the last entries.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100)));
  observer.disconnect();
  const within = (from: number, to: number) => longTasks.filter((t) => t.name === 'self' && t.startTime + t.duration > from && t.startTime < to);
  const baseline = within(marks.action0!, marks.action1!);
  const flood = within(marks.action1!, marks.summary!);
  const over = (tasks: PerformanceEntry[]) => tasks.filter((t) => t.duration > 200).length;
  const longest = (tasks: PerformanceEntry[]) => Math.max(0, ...tasks.map((t) => t.duration));
  const report = {
    baseline: { spanMs: Math.round(marks.action1! - marks.action0!), longTasks: baseline.length, longestMs: Math.round(longest(baseline)) },
    flood: { spanMs: Math.round(marks.summary! - marks.action1!), longTasks: flood.length, longestMs: Math.round(longest(flood)) },
    all: longTasks.map((t) => `${t.name} ${Math.round(t.duration)}`).slice(0, 20),
  };
  console.log(JSON.stringify(report));
  expect(over(flood) - over(baseline)).toBeLessThanOrEqual(0);
  // The host's blocked time during the flood, as a share of the flood: small.
  const blocked = flood.reduce((sum, t) => sum + t.duration, 0);
  expect(blocked / (marks.summary! - marks.action1!)).toBeLessThan(0.5);
}, 180_000);
