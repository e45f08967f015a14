/**
 * Connect latency: from a new client to its tools listed (connect + `tools/list`
 * + close), the kit against the official client, on a 2026-07-28 server
 * (bench/echo-server.ts) and on a legacy-only one (the same tool behind the
 * SDK's `legacyStatelessFallback`: echo-server.ts --legacy-only), each client
 * in `auto` mode, without and with its era cache (the kit's `eraCache`, warmed
 * by one connect; the official client's `connect({ prior })` from one connect).
 * Node; both servers in their own processes. Rounds rotate the candidates; the
 * ratios are kit ÷ official connect time per round, median [IQR].
 */
import { Client, StreamableHTTPClientTransport, type DiscoverResult } from '@modelcontextprotocol/client';
import { McpClient, MemoryEraCache } from '../src/index.js';
import { spawnServer } from './child.js';
import { median, rotation, round, spread, type Spread } from './stats.js';

export interface ConnectPlan {
  rounds: number;
  /** Connects per candidate per round (their mean is the round's time). */
  connects: number;
}

type Era = 'modern' | 'legacy';
const CANDIDATES = ['kit', 'kitCached', 'official', 'officialCached'] as const;
type Candidate = (typeof CANDIDATES)[number];

export interface ConnectResult {
  plan: ConnectPlan;
  /** Median over rounds of the mean connect → tools listed time, in ms. */
  ms: Record<Era, Record<Candidate, number>>;
  /** kit ÷ official time per round (lower is faster), without and with the era caches. */
  ratios: Record<Era, { uncached: Spread; cached: Spread }>;
  /** Set by the README's writer when the rows come from another (newer `--only connect`) run: its file. */
  from?: string;
}

/** One connect → tools listed → close of each candidate, given what its cache holds. */
function connectors(url: string, era: Era): Record<Candidate, () => Promise<void>> {
  const cache = new MemoryEraCache();
  let prior: { kind: 'modern'; discover: DiscoverResult } | { kind: 'legacy' } | undefined;
  const kit = async (eraCache: MemoryEraCache) => {
    const client = new McpClient(url, { eraCache, onWarning: () => {} });
    await client.connect();
    if ((await client.listTools()).length === 0) throw new Error('no tools listed');
    await client.close();
  };
  const official = async (cached: boolean) => {
    const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)), cached && prior ? { prior } : {});
    if ((await client.listTools()).tools.length === 0) throw new Error('no tools listed');
    if (cached && !prior) {
      const discover = client.getDiscoverResult();
      prior = era === 'modern' && discover ? { kind: 'modern', discover } : { kind: 'legacy' };
    }
    await client.close();
  };
  return {
    kit: () => kit(new MemoryEraCache()),
    kitCached: () => kit(cache),
    official: () => official(false),
    officialCached: () => official(true),
  };
}

/** Measures both eras. */
export async function measureConnect(plan: ConnectPlan, log: (line: string) => void): Promise<ConnectResult> {
  const ms = {} as ConnectResult['ms'];
  const ratios = {} as ConnectResult['ratios'];
  for (const era of ['modern', 'legacy'] as const) {
    const server = await spawnServer('echo-server.ts', era === 'legacy' ? ['--legacy-only'] : [], () => {});
    try {
      const run = connectors(server.urls[0]!, era);
      // Warm-up, which also fills the caches.
      for (const name of CANDIDATES) for (let i = 0; i < 3; i++) await run[name]();
      const times = new Map<Candidate, number[]>(CANDIDATES.map((name) => [name, []]));
      for (let r = 0; r < plan.rounds; r++) {
        for (const name of rotation(CANDIDATES, r)) {
          const start = performance.now();
          for (let i = 0; i < plan.connects; i++) await run[name]();
          times.get(name)!.push((performance.now() - start) / plan.connects);
        }
      }
      const paired = (a: Candidate, b: Candidate) => spread(times.get(a)!.map((t, i) => t / times.get(b)![i]!));
      ms[era] = Object.fromEntries(CANDIDATES.map((name) => [name, round(median(times.get(name)!), 2)])) as Record<Candidate, number>;
      ratios[era] = { uncached: paired('kit', 'official'), cached: paired('kitCached', 'officialCached') };
      log(`  ${era}: ms kit ${ms[era].kit}, with cache ${ms[era].kitCached}; official ${ms[era].official}, with prior ${ms[era].officialCached}; kit ÷ official ${ratios[era].uncached.median}, cached ${ratios[era].cached.median}`);
    } finally {
      await server.close();
    }
  }
  return { plan, ms, ratios };
}

const range = (s: Spread) => `${s.median} [${s.p25}–${s.p75}]`;

/** Connect latency's rows of the floor table (bench/report.ts `floorRows`): the kit at most as slow as the official client. */
export function connectRows(result: ConnectResult | undefined): { id: string; measure: string; value: string; goal: string; met: boolean | null }[] {
  return (['modern', 'legacy'] as const).map((era) => {
    const r = result?.ratios[era];
    return {
      id: `floor-connect-${era}`,
      measure: `connect → tools listed (Node), kit ÷ official client (time), ${era === 'modern' ? '2026-07-28' : 'legacy-only'} server, without / with each one's era cache`,
      value: r ? `${range(r.uncached)} / ${range(r.cached)} (${result!.ms[era].kit} / ${result!.ms[era].kitCached} ms vs ${result!.ms[era].official} / ${result!.ms[era].officialCached} ms${result!.from ? `; run \`${result!.from}\`` : ''})` : 'not measured',
      goal: '≤ 1',
      met: r ? r.uncached.median <= 1 && r.cached.median <= 1 : null,
    };
  });
}
