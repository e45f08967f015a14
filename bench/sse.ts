/**
 * SSE throughput: one `text/event-stream` of 1 KiB JSON-RPC notification
 * events (ending with the response) from a raw node:http server, read four ways
 * on the same bytes:
 *
 * - `drain`: the body's bytes read and dropped (the floor: loopback + streams);
 * - `eventsource-parser`: TextDecoder + the parser alone, counting events;
 * - `parser+JSON.parse`: the same, plus `JSON.parse` of each event's data — the
 *   floor for any reader that hands over messages (issue 18);
 * - `readSse`: the kit's SSE reader (src/transport/sse.ts) around the same parser;
 * - `transport`: `HttpTransport.request()`, the kit's whole reply path (each
 *   event JSON-parsed, checked as JSON-RPC and handed to `onMessage`).
 *
 * Run at N and 2N bytes to show the cost is linear.
 */
import { createParser, type ParserCallbacks } from 'eventsource-parser';
import { readSse } from '../src/transport/sse.js';
import { HttpTransport } from '../src/transport/transport.js';
import { spawnServer } from './child.js';
import { median, rotation, round, spread, type Spread } from './stats.js';

export const READERS = ['drain', 'eventsource-parser', 'parser+JSON.parse', 'readSse', 'transport'] as const;
export type ReaderName = (typeof READERS)[number];

export const EVENT_BYTES = 1024;

export interface SsePlan {
  /** Stream sizes in MiB; the second must be twice the first. */
  sizesMiB: [number, number];
  rounds: number;
}

export interface SseAtSize {
  mib: number;
  events: number;
  readers: Record<ReaderName, { ms: number; roundsMs: number[]; mibPerSecond: number }>;
  /** Time over eventsource-parser's alone (1 = no overhead). */
  overParser: { readSse: number; transport: number };
  /** Throughput of the whole transport ÷ eventsource-parser's alone, per round (time(parser) / time(transport)): median, IQR, p95. */
  transportShare?: Spread;
  /** The same against eventsource-parser + JSON.parse of each event (what any message reader must do at least). */
  transportShareOfJson?: Spread;
}

export interface SseResult {
  plan: SsePlan;
  /**
   * How each round orders the reads (see {@link sseOrder}); absent in runs made before it was
   * recorded, whose rounds ran the readers in rotated order, each at both sizes.
   */
  order?: 'parser-transport-adjacent';
  sizes: [SseAtSize, SseAtSize];
  /** Median over rounds of time(2N) / time(N), per reader (both sizes run back to back each round): 2 is linear. */
  scaling: Record<ReaderName, number>;
}

/** `count` events of exactly EVENT_BYTES bytes: notifications, then the response to request id 1. */
export function sseBody(count: number): Buffer {
  const event = (head: string, tail: string) => head + 'x'.repeat(EVENT_BYTES - head.length - tail.length) + tail;
  const out = Buffer.alloc(count * EVENT_BYTES);
  for (let i = 0; i < count - 1; i++) {
    out.write(event(`data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"bench","data":"${i}:`, '"}}\n\n'), i * EVENT_BYTES, 'latin1');
  }
  out.write(event('data: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"', '"}]}}\n\n'), (count - 1) * EVENT_BYTES, 'latin1');
  return out;
}

async function post(url: string): Promise<ReadableStream<Uint8Array>> {
  const response = await fetch(url, { method: 'POST', body: '{}' });
  return response.body!;
}

/** Reads the stream at `url` with `reader`; resolves to the number of events (or bytes for `drain`). */
/** The reference reader: eventsource-parser fed by a streaming TextDecoder, `onEvent` its own callback (no wrapper in between). */
async function parseWithEventsourceParser(url: string, onEvent: ParserCallbacks['onEvent']): Promise<void> {
  const body = (await post(url)).getReader();
  const parser = createParser({ onEvent });
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await body.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}

async function read(reader: ReaderName, url: string): Promise<number> {
  switch (reader) {
    case 'drain': {
      const body = (await post(url)).getReader();
      let bytes = 0;
      for (;;) {
        const { value, done } = await body.read();
        if (done) return bytes;
        bytes += value.byteLength;
      }
    }
    case 'eventsource-parser': {
      let events = 0;
      await parseWithEventsourceParser(url, () => events++);
      return events;
    }
    case 'parser+JSON.parse': {
      let events = 0;
      await parseWithEventsourceParser(url, (event) => {
        if (JSON.parse(event.data) !== null) events++;
      });
      return events;
    }
    case 'readSse': {
      let events = 0;
      for await (const _event of readSse(await post(url))) events++;
      return events;
    }
    case 'transport': {
      let notifications = 0;
      const transport = new HttpTransport({ url });
      const { response } = await transport.request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'stream' } }, { onMessage: () => notifications++ });
      if (!('result' in response)) throw new Error('the stream did not end with the result');
      return notifications + 1;
    }
  }
}

/**
 * The reads of round `r`, in order: both sizes (the first alternates every round) and, at each,
 * eventsource-parser and the transport back to back, so noise that drifts between reads hits a
 * transport read and its paired parser read alike (the share is a per-round ratio of the two).
 * Which of the pair goes first alternates with the round and size; the other readers run in
 * rotated order before or after the pair (alternating every two rounds).
 */
export function sseOrder(r: number): { name: ReaderName; size: 0 | 1 }[] {
  const reads: { name: ReaderName; size: 0 | 1 }[] = [];
  const others = rotation(['drain', 'parser+JSON.parse', 'readSse'] as const, r);
  for (const size of r % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
    const pair: ReaderName[] = (r + size) % 2 === 0 ? ['eventsource-parser', 'transport'] : ['transport', 'eventsource-parser'];
    const names: ReaderName[] = Math.floor(r / 2) % 2 === 0 ? [...pair, ...others] : [...others, ...pair];
    for (const name of names) reads.push({ name, size });
  }
  return reads;
}

export async function measureSse(plan: SsePlan, log: (line: string) => void): Promise<SseResult> {
  const counts = plan.sizesMiB.map((mib) => (mib * 1024 * 1024) / EVENT_BYTES);
  const bytes = counts.map((events) => events * EVENT_BYTES);
  // The server runs in its own process (bench/sse-server.ts), so its writes are not timed as reading.
  const server = await spawnServer('sse-server.ts', plan.sizesMiB.map(String));
  const urls = server.urls;
  try {
    const times = new Map<string, number[]>();
    for (const name of READERS) for (const s of [0, 1]) times.set(`${name} ${s}`, []);
    for (const name of READERS) await read(name, urls[0]!); // warm-up
    // Each read starts on a collected heap, so one reader's garbage is not charged to the next.
    const collect = (globalThis as { gc?: () => void }).gc;
    for (let r = 0; r < plan.rounds; r++) {
      for (const { name, size: s } of sseOrder(r)) {
        collect?.();
        const start = performance.now();
        const got = await read(name, urls[s]!);
        times.get(`${name} ${s}`)!.push(performance.now() - start);
        const expected = name === 'drain' ? bytes[s] : counts[s];
        if (got !== expected) throw new Error(`${name} read ${got}, expected ${expected}`);
      }
    }
    const sizes = plan.sizesMiB.map((mib, s): SseAtSize => {
      const readers = Object.fromEntries(
        READERS.map((name) => {
          const list = times.get(`${name} ${s}`)!;
          const ms = median(list);
          return [name, { ms: round(ms, 1), roundsMs: list.map((v) => round(v, 1)), mibPerSecond: round(mib / (ms / 1000), 1) }];
        }),
      ) as SseAtSize['readers'];
      const parserMs = readers['eventsource-parser'].ms;
      log(`  ${mib} MiB: ${READERS.map((name) => `${name} ${readers[name].mibPerSecond} MiB/s`).join(', ')}`);
      const parser = times.get(`eventsource-parser ${s}`)!;
      const transportTimes = times.get(`transport ${s}`)!;
      const transportShare = spread(transportTimes.map((t, i) => parser[i]! / t));
      const withJson = times.get(`parser+JSON.parse ${s}`)!;
      const transportShareOfJson = spread(transportTimes.map((t, i) => withJson[i]! / t));
      return { mib, events: counts[s]!, readers, overParser: { readSse: round(readers.readSse.ms / parserMs, 2), transport: round(readers.transport.ms / parserMs, 2) }, transportShare, transportShareOfJson };
    }) as [SseAtSize, SseAtSize];
    const scaling = Object.fromEntries(
      READERS.map((name) => {
        const small = times.get(`${name} 0`)!;
        const large = times.get(`${name} 1`)!;
        return [name, round(median(large.map((t, i) => t / small[i]!)), 2)];
      }),
    ) as SseResult['scaling'];
    return { plan, order: 'parser-transport-adjacent', sizes, scaling };
  } finally {
    await server.close();
  }
}
