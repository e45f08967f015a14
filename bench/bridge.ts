/**
 * The bridge's cost per call: `tools/call` of `echo` on one stdio server
 * (bench/stdio-echo-server.ts, the official SDK), reached
 * - directly by the official client's stdio transport (the floor: no hop), and
 * - through the bridge (bench/bridge-host.ts, its own process, as the CLI runs
 *   it) by the official client's Streamable HTTP transport, and by the kit;
 * - for reference, the official client's Streamable HTTP transport to the same
 *   tool served over HTTP by the SDK (bench/echo-server.ts --legacy, its own
 *   process): what HTTP costs by itself, so that bridge ÷ HTTP is the hop's own
 *   share (an HTTP client in Node costs far more per call than a pipe).
 *
 * Same server code, same run, rounds alternated as in bench/calls.ts: the ratio
 * is calls/s through the bridge ÷ calls/s direct, the median [IQR] of the
 * per-round ratios, sequentially and with 16 calls in flight. Each candidate has
 * its own child (a session per client), started before the first round.
 */
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpClient, type ToolCallResult } from '../src/index.js';
import { spawnServer } from './child.js';
import type { Candidate } from './entries/candidate.js';
import { callLoop } from './loop.js';
import { median, percentile, rotation, round, spread, type Spread } from './stats.js';

export const BRIDGE_CANDIDATES = ['direct', 'bridge', 'kitBridge', 'http'] as const;
export type BridgeCandidate = (typeof BRIDGE_CANDIDATES)[number];

export const BRIDGE_NAMES: Record<BridgeCandidate, string> = {
  direct: 'official client 2.4.0, stdio transport, no bridge',
  bridge: 'official client 2.4.0, Streamable HTTP, through the bridge',
  kitBridge: 'mcp-web-elements core, through the bridge',
  http: 'official client 2.4.0, Streamable HTTP, the SDK serving HTTP itself (no stdio, no bridge)',
};

export interface BridgePlan {
  rounds: number;
  sequential: number;
  concurrent: number;
  concurrency: number;
  warmup: number;
}

type Mode = 'sequential' | 'concurrent';

export interface BridgeResult {
  plan: BridgePlan;
  candidates: Record<BridgeCandidate, Record<Mode, { callsPerSecond: number; p50Ms: number; p99Ms: number }>>;
  /**
   * calls/s through the bridge ÷ calls/s direct (official client both ways; and the kit
   * through the bridge), and through the bridge ÷ the SDK serving HTTP itself.
   */
  ratios: Record<Mode, { bridgeToDirect: Spread; kitBridgeToDirect: Spread; bridgeToHttp: Spread }>;
  /** What the bridge adds to one sequential call, in ms (median p50 through the bridge − direct). */
  addedMs: number;
  /** Set by the README's writer when the section comes from another (newer `--only bridge`) run: its file and commit. */
  from?: { file: string; commit: string; date: string; load: number[] };
}

const serverScript = fileURLToPath(new URL('stdio-echo-server.ts', import.meta.url));
const serverCommand = [process.execPath, '--import', 'tsx', serverScript];

function official(client: Client): Candidate {
  return {
    listTools: async () => (await client.listTools()).tools,
    call: async (text) => {
      const result = await client.callTool({ name: 'echo', arguments: { text } });
      const first = result.content[0];
      return first?.type === 'text' ? first.text : '';
    },
    close: () => client.close(),
  };
}

async function openDirect(): Promise<Candidate> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const [command, ...args] = serverCommand;
  await client.connect(new StdioClientTransport({ command: command!, args, stderr: 'ignore' }));
  return official(client);
}

async function openBridged(url: string): Promise<Candidate> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return official(client);
}

async function openKit(url: string): Promise<Candidate> {
  const client = new McpClient(url, { protocol: 'legacy' });
  await client.connect();
  return {
    listTools: () => client.listTools({ fresh: true }),
    call: async (text) => {
      const first = ((await client.callTool('echo', { text })) as ToolCallResult).content?.[0];
      return first?.type === 'text' ? String(first.text) : '';
    },
    close: () => client.close(),
  };
}

/** Measures the three candidates; the bridge runs in its own process for the whole section. */
export async function measureBridge(plan: BridgePlan, log: (line: string) => void): Promise<BridgeResult> {
  const host = await spawnServer('bridge-host.ts', [JSON.stringify(serverCommand)], () => {});
  let http: Awaited<ReturnType<typeof spawnServer>> | undefined;
  const opened = new Map<BridgeCandidate, Candidate>();
  try {
    http = await spawnServer('echo-server.ts', ['--legacy'], () => {});
    opened.set('direct', await openDirect());
    opened.set('bridge', await openBridged(host.urls[0]!));
    opened.set('kitBridge', await openKit(host.urls[0]!));
    opened.set('http', await openBridged(http.urls[0]!));
    for (const candidate of opened.values()) {
      await callLoop(candidate, plan.warmup, 1);
      await callLoop(candidate, plan.warmup, plan.concurrency);
    }
    const rates = new Map<string, number[]>();
    const latencies = new Map<string, number[]>();
    for (let r = 0; r < plan.rounds; r++) {
      for (const [mode, n, concurrency] of [
        ['sequential', plan.sequential, 1],
        ['concurrent', plan.concurrent, plan.concurrency],
      ] as const) {
        for (const name of rotation(BRIDGE_CANDIDATES, r)) {
          const result = await callLoop(opened.get(name)!, n, concurrency);
          const key = `${name} ${mode}`;
          rates.set(key, [...(rates.get(key) ?? []), (n / result.elapsedMs) * 1000]);
          latencies.set(key, [...(latencies.get(key) ?? []), ...result.latencies]);
        }
      }
    }
    const candidates = Object.fromEntries(
      BRIDGE_CANDIDATES.map((name) => [
        name,
        Object.fromEntries(
          (['sequential', 'concurrent'] as const).map((mode) => {
            const key = `${name} ${mode}`;
            return [mode, { callsPerSecond: round(median(rates.get(key)!), 1), p50Ms: round(percentile(latencies.get(key)!, 50)), p99Ms: round(percentile(latencies.get(key)!, 99)) }];
          }),
        ),
      ]),
    ) as BridgeResult['candidates'];
    const paired = (mode: Mode, name: BridgeCandidate, base: BridgeCandidate = 'direct') => {
      const under = rates.get(`${base} ${mode}`)!;
      return spread(rates.get(`${name} ${mode}`)!.map((rate, i) => rate / under[i]!));
    };
    const ratios = Object.fromEntries(
      (['sequential', 'concurrent'] as const).map((mode) => [mode, { bridgeToDirect: paired(mode, 'bridge'), kitBridgeToDirect: paired(mode, 'kitBridge'), bridgeToHttp: paired(mode, 'bridge', 'http') }]),
    ) as BridgeResult['ratios'];
    const result: BridgeResult = { plan, candidates, ratios, addedMs: round(candidates.bridge.sequential.p50Ms - candidates.direct.sequential.p50Ms) };
    for (const mode of ['sequential', 'concurrent'] as const) {
      const rates = BRIDGE_CANDIDATES.map((name) => `${name} ${candidates[name][mode].callsPerSecond}`).join(', ');
      const r = ratios[mode];
      log(`  ${mode}: calls/s ${rates}; bridge ÷ direct ${r.bridgeToDirect.median} [${r.bridgeToDirect.p25}–${r.bridgeToDirect.p75}], kit through the bridge ÷ direct ${r.kitBridgeToDirect.median}, bridge ÷ HTTP ${r.bridgeToHttp.median}`);
    }
    log(`  the bridge adds ${result.addedMs} ms to a sequential call (p50)`);
    return result;
  } finally {
    for (const candidate of opened.values()) await candidate.close().catch(() => {});
    await host.close();
    await http?.close();
  }
}

/** Issue 30's goal: a call through the bridge costs at most 1.3× a direct stdio call (calls/s ratio ≥ 1/1.3). */
export const BRIDGE_GOAL = 1 / 1.3;

const range = (s: Spread) => `${s.median} [${s.p25}–${s.p75}]`;

/** The bridge's rows of the floor table (bench/report.ts `floorRows`). */
export function bridgeRows(result: BridgeResult | undefined): { id: string; measure: string; value: string; goal: string; met: boolean | null }[] {
  return (['sequential', 'concurrent'] as const).map((mode) => {
    const r = result?.ratios[mode];
    return {
      id: `floor-bridge-${mode}`,
      measure: `a call through \`mcp-web-elements bridge\` ÷ the official stdio client direct, same server (calls/s), ${mode === 'sequential' ? 'sequential' : `${result?.plan.concurrency ?? 16} in flight`}`,
      value: r ? `${range(r.bridgeToDirect)} (×${round(1 / r.bridgeToDirect.median, 1)} the time); the kit through the bridge ${range(r.kitBridgeToDirect)}` : 'not measured',
      goal: `≥ ${round(BRIDGE_GOAL, 2)} (≤ 1.3× the time)`,
      met: r ? r.bridgeToDirect.median >= BRIDGE_GOAL : null,
    };
  });
}

/** The bridge's section of bench/README.md. */
export function renderBridge(result: BridgeResult): string[] {
  const rows = (['sequential', 'concurrent'] as const).flatMap((mode) =>
    BRIDGE_CANDIDATES.map((name) => {
      const c = result.candidates[name][mode];
      return `| ${mode === 'sequential' ? 'sequential' : `${result.plan.concurrency} in flight`} · ${BRIDGE_NAMES[name]} | ${c.callsPerSecond} | ${c.p50Ms} | ${c.p99Ms} |`;
    }),
  );
  const r = result.ratios;
  const from = result.from;
  return [
    '### The stdio bridge (Node)',
    '',
    ...(from ? [`From run \`${from.file}\` (\`--only bridge\`), ${from.date.slice(0, 16).replace('T', ' ')} UTC, of commit ${from.commit}; load average at start ${from.load.join(' / ')}.`, ''] : []),
    '| Mode · candidate | calls/s (median of rounds) | p50 ms | p99 ms |',
    '| --- | ---: | ---: | ---: |',
    ...rows,
    '',
    `Ratios of calls/s, median of the per-round ratios [interquartile range]: through the bridge ÷ direct, sequential ${range(r.sequential.bridgeToDirect)}, ${result.plan.concurrency} in flight ${range(r.concurrent.bridgeToDirect)}; the kit through the bridge ÷ direct ${range(r.sequential.kitBridgeToDirect)} and ${range(r.concurrent.kitBridgeToDirect)}; through the bridge ÷ the SDK serving HTTP itself ${range(r.sequential.bridgeToHttp)} and ${range(r.concurrent.bridgeToHttp)}. The bridge adds ${result.addedMs} ms to a sequential call (p50). One stdio server (the official SDK, \`serveStdio\`, one \`echo\` tool); the bridge in its own process, as the command line runs it; ${result.plan.rounds} rounds of ${result.plan.sequential} sequential and ${result.plan.concurrent} concurrent calls per candidate, order rotated each round. Much of what remains is the HTTP client itself: a Node \`fetch\` costs far more per call than a write to a pipe.`,
  ];
}
