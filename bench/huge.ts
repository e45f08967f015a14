/**
 * A 10,000-tool server (issue 30): `tools/list` of 5,000 and 10,000 wide tools (20-property
 * schemas, as the big-list section's) through each client in Node — the big-list method
 * (bench/list.ts) at these sizes, so kit ÷ official client and kit ÷ raw fetch are ratios of calls
 * in the same round, and retained heap after a full collection — and the playground's sidebar
 * tool list rendered in Chromium from a listing of 10,000 tools (bench/sidebar-page.ts).
 *
 * The tools are recorded from the official SDK server (`McpServer`, which answers `tools/list`
 * with every tool in one page) and replayed from memory.
 */
import { join } from 'node:path';
import { build } from 'vite';
import type { BenchBrowser } from './chromium.js';
import { measureList, record, type ListPlan, type ListResult } from './list.js';
import { round, spread, type Spread } from './stats.js';

export interface HugePlan {
  list: ListPlan;
  /** Sidebar renders in Chromium, each after its own listing. */
  sidebarRepeats: number;
}

export interface SidebarResult {
  tools: number;
  /** Rows the sidebar rendered (it lists at most this many; its filter finds the others). */
  rows: number;
  /** List in hand → sidebar rendered and laid out: median and spread of the repeats, in ms. */
  renderMs: Spread;
  /** A keystroke in the sidebar's filter → rendered and laid out, in ms. */
  filterMs: Spread;
  repeats: number;
}

export interface HugeResult {
  /** The big-list measurement at 5,000 and 10,000 tools. */
  list: ListResult;
  /** Absent when Chromium did not run. */
  sidebar?: SidebarResult;
}

/** Builds bench/sidebar-page.ts into `www/sidebar/` (the bench page imports it). */
async function buildSidebarPage(root: string, www: string): Promise<void> {
  await build({
    configFile: false,
    root,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: { outDir: join(www, 'sidebar'), emptyOutDir: true, minify: true, target: 'es2022', lib: { entry: join(root, 'bench/sidebar-page.ts'), formats: ['es'], fileName: 'sidebar-page' } },
  });
}

export async function measureHuge(plan: HugePlan, root: string, www: string, bench: BenchBrowser | undefined, log: (line: string) => void): Promise<HugeResult> {
  log(`  recording ${plan.list.sizes.join(' and ')} tools from the official SDK server`);
  const servers = [await record(plan.list.sizes[0], plan.list.props), await record(plan.list.sizes[1], plan.list.props)] as const;
  try {
    log(`  ${servers.map((s, i) => `${plan.list.sizes[i]} tools: ${(s.bytes / 1024 ** 2).toFixed(1)} MiB in ${s.pages} page${s.pages === 1 ? '' : 's'}`).join('; ')}`);
    const list = await measureList(plan.list, log, servers);
    for (const size of list.sizes) log(`  ${size.tools} tools: kit ÷ official ${size.kitToOfficial!.median} [${size.kitToOfficial!.p25}–${size.kitToOfficial!.p75}]; retained ${heapLine(size)}`);
    if (!bench) return { list };
    await buildSidebarPage(root, www);
    const url = servers[1].url;
    const samples = await bench.page.evaluate(
      async ([n, u, module]) => {
        if (!window.benchSidebar) await import(/* @vite-ignore */ module);
        return window.benchSidebar!.measure(u, n);
      },
      [plan.sidebarRepeats, url, '/sidebar/sidebar-page.js'] as const,
    );
    const sidebar: SidebarResult = {
      tools: samples[0]!.tools,
      rows: samples[0]!.rows,
      renderMs: spread(samples.map((s) => s.renderMs), 2),
      filterMs: spread(samples.map((s) => s.filterMs), 2),
      repeats: plan.sidebarRepeats,
    };
    log(`  playground sidebar, ${sidebar.tools} tools (${sidebar.rows} rows): render ${sidebar.renderMs.median} ms [${sidebar.renderMs.p25}–${sidebar.renderMs.p75}], filter keystroke ${sidebar.filterMs.median} ms`);
    return { list, sidebar };
  } finally {
    for (const server of servers) await server.close();
  }
}

function heapLine(size: ListResult['sizes'][number]): string {
  const kib = (b: number | null) => (b === null ? '–' : `${round(b / 1024, 0)} KiB`);
  return `kit ${kib(size.candidates.kit.retainedBytes)}, official ${kib(size.candidates.official.retainedBytes)}, raw ${kib(size.candidates.raw.retainedBytes)}`;
}
