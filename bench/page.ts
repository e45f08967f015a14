/**
 * The Chromium side of the benchmarks, built by Vite into the bench page and
 * driven by Playwright from bench/run.ts. It loads the very bundles the size
 * section measured (`/<name>/<name>.js`) and runs the loops in the page, so
 * Playwright's round trips stay outside every timed region.
 */
import type { Candidate, OpenCandidate } from './entries/candidate.js';
import { hostilePage } from './hostile-page.js';
import { callLoop, type LoopResult } from './loop.js';

export interface FormSample {
  /** Native controls (`input`, `select`, `textarea`) the form rendered in its shadow root. */
  controls: number;
  /** Time to render `<mcp-tool-form>`, in ms (append → settled update → layout). */
  formMs: number;
  /** Time to render `controls` labelled native inputs the plain way, in ms (append → layout). */
  baselineMs: number;
}

const candidates = new Map<string, Candidate>();

async function settle(element: HTMLElement & { updateComplete: Promise<boolean>; isUpdatePending: boolean }): Promise<void> {
  // Until no update is pending: the first render and any update it requested (validator ready, model set-up).
  for (let i = 0; i < 5; i++) {
    while (!(await element.updateComplete));
    await Promise.resolve();
    if (!element.isUpdatePending) return;
  }
}

async function timeForm(inputSchema: unknown): Promise<{ ms: number; controls: number }> {
  const host = document.createElement('div');
  const form = document.createElement('mcp-tool-form') as HTMLElement & {
    noDrafts: boolean;
    tool: unknown;
    updateComplete: Promise<boolean>;
    isUpdatePending: boolean;
  };
  form.noDrafts = true;
  // A fresh copy each time: the validator cache is keyed by schema object, and a form for a just-listed tool compiles anew.
  form.tool = { name: 'bench_tool', inputSchema: structuredClone(inputSchema) };
  const start = performance.now();
  host.append(form);
  document.body.append(host);
  await settle(form);
  void host.offsetHeight; // style and layout, as the user would wait for them
  const ms = performance.now() - start;
  const controls = form.shadowRoot?.querySelectorAll('input, select, textarea').length ?? 0;
  host.remove();
  return { ms, controls };
}

function timeBaseline(controls: number): number {
  const start = performance.now();
  const host = document.createElement('div');
  const root = host.attachShadow({ mode: 'open' });
  const form = document.createElement('form');
  for (let i = 0; i < controls; i++) {
    const row = document.createElement('div');
    const label = document.createElement('label');
    label.htmlFor = `f${i}`;
    label.textContent = `Field ${i}`;
    const input = document.createElement('input');
    input.id = `f${i}`;
    input.name = `f${i}`;
    row.append(label, input);
    form.append(row);
  }
  root.append(form);
  document.body.append(host);
  void host.offsetHeight;
  const ms = performance.now() - start;
  host.remove();
  return ms;
}

const page = {
  /** Hostile inputs (issue 19): see hostile-page.ts. */
  hostile: hostilePage,
  /** Loads a candidate bundle and connects it to `url`. */
  async open(name: string, url: string): Promise<void> {
    const module = (await import(/* @vite-ignore */ `/${name}/${name}.js`)) as { open: OpenCandidate };
    candidates.set(name, await module.open(url));
  },
  async loop(name: string, n: number, concurrency: number): Promise<LoopResult> {
    return callLoop(candidates.get(name)!, n, concurrency);
  },
  async close(): Promise<void> {
    for (const candidate of candidates.values()) await candidate.close();
    candidates.clear();
  },
  /** Loads the full-kit bundle (registers the elements). */
  async loadKit(): Promise<void> {
    const url = '/full-kit/full-kit.js';
    await import(/* @vite-ignore */ url);
    await customElements.whenDefined('mcp-tool-form');
  },
  /**
   * Renders the form for `inputSchema` and the plain baseline with as many
   * inputs, `repeats` times each, alternating which goes first.
   */
  async renderForm(inputSchema: unknown, repeats: number): Promise<FormSample[]> {
    const samples: FormSample[] = [];
    for (let r = 0; r < repeats; r++) {
      let form: { ms: number; controls: number };
      let baselineMs: number;
      if (r % 2 === 0) {
        form = await timeForm(inputSchema);
        baselineMs = timeBaseline(form.controls);
      } else {
        const probe = samples[0]?.controls ?? (await timeForm(inputSchema)).controls;
        baselineMs = timeBaseline(probe);
        form = await timeForm(inputSchema);
      }
      samples.push({ controls: form.controls, formMs: form.ms, baselineMs });
    }
    return samples;
  },
};

export type BenchPage = typeof page;

declare global {
  interface Window {
    benchPage?: BenchPage;
  }
}

window.benchPage = page;
