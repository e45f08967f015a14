/**
 * Big list: `tools/list` of N and 2N tools with 20-property schemas, through
 * each client's list call. The results were recorded once from the official
 * SDK server and are replayed from memory, so the time is the client's (plus a
 * loopback transfer that raw fetch (c) shows on its own).
 *
 * Both sizes are served at once. Every round lists at both sizes (which size
 * comes first alternates), and at each size the kit and raw fetch run back to
 * back (which of the two goes first alternates too), with the official client
 * just before or just after them: kit ÷ raw is a ratio of adjacent calls, and
 * time(2N)/time(N) a ratio of calls in the same round (see {@link listOrder}).
 */
import { open as openKit } from './entries/kit.js';
import { open as openOfficial } from './entries/official.js';
import { open as openRaw } from './entries/raw.js';
import type { Candidate, OpenCandidate } from './entries/candidate.js';
import { startEchoServer, startReplayServer } from './servers.js';
import { canCollect, collect, median, round, spread, type Spread } from './stats.js';
import { CANDIDATES, type CandidateName } from './calls.js';

const OPEN: Record<CandidateName, OpenCandidate> = { kit: openKit, official: openOfficial, raw: openRaw };

export interface ListPlan {
  /** Tool counts; the second must be twice the first. */
  sizes: [number, number];
  /** Properties per tool schema. */
  props: number;
  rounds: number;
  /** Fresh clients per candidate and size for the retained-heap measurement. */
  memoryRepeats: number;
}

export interface ListAtSize {
  tools: number;
  /** Bytes of the `tools/list` result on the wire. */
  resultBytes: number;
  candidates: Record<
    CandidateName,
    {
      /** Median time of one `listTools()` (request, read, parse, checks), in ms. */
      ms: number;
      roundsMs: number[];
      /** `ms` minus raw fetch's: the client's own work beyond fetch + JSON.parse. */
      overRawMs: number;
      /** Median heap retained by a connected client plus the list it returned (after full GC), in bytes; null without --expose-gc. */
      retainedBytes: number | null;
    }
  >;
  /** time(kit) / time(raw fetch) per round (the two run back to back since `order` was recorded): median, IQR, p95. */
  kitToRaw?: Spread;
  /** time(kit) / time(official client) per round (absent from older runs): median, IQR, p95. */
  kitToOfficial?: Spread;
  /** `tools/list` pages the official SDK server answered with (absent from older runs). */
  pages?: number;
}

export interface ListResult {
  plan: ListPlan;
  /**
   * How each round orders the calls (see {@link listOrder}); absent in runs made before it was
   * recorded, whose rounds ran the candidates in rotated order, each at both sizes.
   */
  order?: 'kit-raw-adjacent';
  sizes: [ListAtSize, ListAtSize];
  /** Median over rounds of time(2N) / time(N), per candidate: 2 is linear. */
  scaling: Record<CandidateName, number>;
}

/**
 * The calls of round `r`, in order: both sizes (the first alternates every round) and, at each,
 * the kit and raw fetch back to back, so noise that drifts between calls hits a kit call and its
 * paired raw call alike. Which of the two goes first alternates with the round and size, and the
 * official client runs before or after the pair (alternating every two rounds), so neither a
 * position nor the call before it favours one candidate.
 */
export function listOrder(r: number): { name: CandidateName; size: 0 | 1 }[] {
  const calls: { name: CandidateName; size: 0 | 1 }[] = [];
  for (const size of r % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
    const pair: CandidateName[] = (r + size) % 2 === 0 ? ['kit', 'raw'] : ['raw', 'kit'];
    const names: CandidateName[] = Math.floor(r / 2) % 2 === 0 ? [...pair, 'official'] : ['official', ...pair];
    for (const name of names) calls.push({ name, size });
  }
  return calls;
}

async function retained(open: OpenCandidate, url: string, expected: number): Promise<number> {
  collect();
  const before = process.memoryUsage().heapUsed;
  const candidate = await open(url);
  const tools = await candidate.listTools();
  collect();
  const after = process.memoryUsage().heapUsed;
  if (tools.length !== expected) throw new Error(`listed ${tools.length} tools, expected ${expected}`);
  await candidate.close();
  return after - before;
}

export type Recorded = Awaited<ReturnType<typeof startReplayServer>>;

/** Records `tools` wide tools (the echo tool among them) from the official SDK server, to replay them. */
export async function record(tools: number, props: number) {
  const source = await startEchoServer({ tools: tools - 1, props });
  return startReplayServer(source.url).finally(() => source.close());
}

/**
 * @param recorded replay servers already recorded at `plan.sizes` (the caller closes them); recorded
 *   and closed here when absent.
 */
export async function measureList(plan: ListPlan, log: (line: string) => void, recorded?: readonly [Recorded, Recorded]): Promise<ListResult> {
  const servers = recorded ?? ([await record(plan.sizes[0], plan.props), await record(plan.sizes[1], plan.props)] as const);
  try {
    const opened = new Map<string, Candidate>();
    for (const [s, server] of servers.entries()) {
      for (const name of CANDIDATES) {
        const candidate = await OPEN[name](server.url);
        for (let i = 0; i < 2; i++) {
          const listed = await candidate.listTools();
          if (listed.length !== plan.sizes[s]) throw new Error(`${name} listed ${listed.length} tools, expected ${plan.sizes[s]}`);
        }
        opened.set(`${name} ${s}`, candidate);
      }
    }
    const times = new Map<string, number[]>([...opened.keys()].map((key) => [key, []]));
    for (let r = 0; r < plan.rounds; r++) {
      for (const { name, size } of listOrder(r)) {
        collect(); // garbage left by the previous measurement must not be collected inside this one
        const start = performance.now();
        await opened.get(`${name} ${size}`)!.listTools();
        times.get(`${name} ${size}`)!.push(performance.now() - start);
      }
    }
    for (const candidate of opened.values()) await candidate.close();
    opened.clear();

    const sizes = servers.map((server, s): ListAtSize => {
      const rawMs = median(times.get(`raw ${s}`)!);
      const candidates = Object.fromEntries(
        CANDIDATES.map((name) => {
          const list = times.get(`${name} ${s}`)!;
          const ms = median(list);
          return [name, { ms: round(ms, 2), roundsMs: list.map((v) => round(v, 2)), overRawMs: round(ms - rawMs, 2), retainedBytes: null }];
        }),
      ) as ListAtSize['candidates'];
      const kit = times.get(`kit ${s}`)!;
      const raw = times.get(`raw ${s}`)!;
      const official = times.get(`official ${s}`)!;
      return { tools: plan.sizes[s]!, resultBytes: server.bytes, pages: server.pages, candidates, kitToRaw: spread(kit.map((t, i) => t / raw[i]!)), kitToOfficial: spread(kit.map((t, i) => t / official[i]!)) };
    }) as [ListAtSize, ListAtSize];

    if (canCollect()) {
      for (const [s, size] of sizes.entries()) {
        for (const name of CANDIDATES) {
          const bytes: number[] = [];
          for (let r = 0; r < plan.memoryRepeats; r++) bytes.push(await retained(OPEN[name], servers[s]!.url, size.tools));
          size.candidates[name].retainedBytes = Math.round(median(bytes));
        }
      }
    }
    for (const size of sizes) log(`  ${size.tools} tools: ${CANDIDATES.map((name) => `${name} ${size.candidates[name].ms} ms`).join(', ')}; kit/raw ${size.kitToRaw!.median} [${size.kitToRaw!.p25}–${size.kitToRaw!.p75}]`);
    const scaling = Object.fromEntries(
      CANDIDATES.map((name) => {
        const small = times.get(`${name} 0`)!;
        const large = times.get(`${name} 1`)!;
        return [name, round(median(large.map((t, i) => t / small[i]!)), 2)];
      }),
    ) as ListResult['scaling'];
    return { plan, order: 'kit-raw-adjacent', sizes, scaling };
  } finally {
    if (!recorded) for (const server of servers) await server.close();
  }
}
