/**
 * The Chromium side of the benchmarks, built by Vite into the bench page and
 * driven by Playwright from bench/run.ts. It loads the very bundles the size
 * section measured (`/<name>/<name>.js`) and runs the loops in the page, so
 * Playwright's round trips stay outside every timed region.
 */
import type { Candidate, OpenCandidate } from './entries/candidate.js';
import { timeHandwritten, timeNativeForm, type BenchTool } from './handwritten-form.js';
import { hostilePage } from './hostile-page.js';
import { callLoop, type LoopResult } from './loop.js';

export interface FormSample {
  /** Native controls (`input`, `select`, `textarea`) the form rendered in its shadow root. */
  controls: number;
  /** Time to render `<mcp-tool-form>`, in ms (append → settled update → layout). */
  formMs: number;
  /** Time to render `controls` labelled native inputs the plain way, in ms (append → layout). */
  baselineMs: number;
  /** Time to render the hand-written equivalent form (handwritten-form.ts), in ms (append → layout). */
  handMs: number;
}

/** One keystroke's time in the form and in the native baseline, in ms. */
export interface KeystrokeSample {
  formMs: number;
  baselineMs: number;
}

/** Native keystrokes timed together for one baseline sample. */
const NATIVE_BATCH = 20;

const candidates = new Map<string, Candidate>();

async function settle(element: HTMLElement & { updateComplete: Promise<boolean>; isUpdatePending: boolean }): Promise<void> {
  // Until no update is pending: the first render and any update it requested (validator ready, model set-up).
  for (let i = 0; i < 5; i++) {
    while (!(await element.updateComplete));
    await Promise.resolve();
    if (!element.isUpdatePending) return;
  }
}

async function timeForm(tool: BenchTool): Promise<{ ms: number; controls: number }> {
  const host = document.createElement('div');
  const form = document.createElement('mcp-tool-form') as HTMLElement & {
    noDrafts: boolean;
    tool: unknown;
    updateComplete: Promise<boolean>;
    isUpdatePending: boolean;
  };
  form.noDrafts = true;
  // A fresh copy each time: the validator cache is keyed by schema object, and a form for a just-listed tool compiles anew.
  form.tool = { ...tool, inputSchema: structuredClone(tool.inputSchema) };
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

/** `controls` rows of a label and a plain text input (`f0`, `f1`…): the native baseline's form. */
function appendLabelledInputs(form: HTMLFormElement, controls: number): void {
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
}

const timeBaseline = (controls: number): number => timeNativeForm((form) => appendLabelledInputs(form, controls));

type FormElement = HTMLElement & { noDrafts: boolean; tool: unknown; updateComplete: Promise<boolean>; isUpdatePending: boolean };

/** Text inputs of a form's shadow root, in document order (the fields a user types into). */
function textInputs(root: ParentNode): HTMLInputElement[] {
  return [...root.querySelectorAll<HTMLInputElement>('input')].filter((input) => input.type === 'text' || input.type === 'search' || input.type === '');
}

/** One keystroke: the value grows by a character and an `input` event fires, as typing does. */
function type(input: HTMLInputElement, char: string): void {
  input.value += char;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, data: char, inputType: 'insertText' }));
}

/**
 * The native baseline of a keystroke: as many labelled inputs as the form has
 * controls, whose form keeps the arguments object up to date on each input (the
 * least a form that sends arguments does), then layout.
 */
function nativeForm(controls: number): { host: HTMLElement; inputs: HTMLInputElement[] } {
  const host = document.createElement('div');
  const root = host.attachShadow({ mode: 'open' });
  const form = document.createElement('form');
  const args: Record<string, string> = {};
  form.addEventListener('input', (event) => {
    const input = event.target as HTMLInputElement;
    args[input.name] = input.value;
  });
  appendLabelledInputs(form, controls);
  root.append(form);
  document.body.append(host);
  return { host, inputs: [...form.querySelectorAll('input')] };
}

/** Native renders timed together for one corpus baseline sample (one is near the clock's resolution). */
const BASELINE_BATCH = 5;

/** One tool of a corpus, rendered: its controls and the median of its paired per-render ratios. */
export interface CorpusSample {
  controls: number;
  formMs: number;
  /** The bare baseline: as many labelled text inputs as the form rendered controls (at least one). */
  baselineMs: number;
  /** Median of formMs / baselineMs of each render and its paired baseline. */
  ratio: number;
  /** The hand-written equivalent (handwritten-form.ts). */
  handMs: number;
  /** Median of formMs / handMs of each render and its paired hand-written form. */
  handRatio: number;
}

const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

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
   * Keystrokes in the rendered form for `inputSchema` against the native
   * baseline with as many controls: `count` keystrokes spread over the text
   * fields in view (a user types into a field they see; the form lays out
   * members far below the view only when they come near it), each focused
   * first (untimed: a user types into the field that has focus), each timed from
   * the input event to the settled update and layout, alternating which goes
   * first. The first keystroke (the first check: it may load the validator) is
   * made before timing and not counted.
   */
  async keystrokes(inputSchema: unknown, count: number): Promise<{ controls: number; samples: KeystrokeSample[] }> {
    const holder = document.createElement('div');
    const form = document.createElement('mcp-tool-form') as FormElement;
    form.noDrafts = true;
    form.tool = { name: 'bench_tool', inputSchema: structuredClone(inputSchema) };
    holder.append(form);
    document.body.append(holder);
    await settle(form);
    // The form shows members a page at a time: show them all, as a user filling a wide form does.
    for (let i = 0; i < 20; i++) {
      const more = form.shadowRoot?.querySelector<HTMLButtonElement>('[part~="show-more-button"]');
      if (!more) break;
      more.click();
      await settle(form);
    }
    const controls = form.shadowRoot?.querySelectorAll('input, select, textarea').length ?? 0;
    const inView = textInputs(form.shadowRoot!).filter((input) => input.getBoundingClientRect().bottom <= innerHeight);
    const fields = inView.length > 0 ? inView : textInputs(form.shadowRoot!);
    const native = nativeForm(controls);
    void native.host.offsetHeight;
    if (fields.length === 0) throw new Error('the form has no text field to type into');
    type(fields[0]!, 'w');
    await settle(form);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the validator chunk, when the first check loads it
    await settle(form);
    const samples: KeystrokeSample[] = [];
    for (let k = 0; k < count; k++) {
      // Fields spread over the whole form: the first, last and middle ones all cost.
      const field = fields[Math.floor((k * 7919) % fields.length)]!;
      const timeForm = async () => {
        // A user types into the field that has focus; moving focus there is not part of the keystroke.
        field.focus();
        void holder.offsetHeight;
        const start = performance.now();
        type(field, String.fromCharCode(97 + (k % 26)));
        await settle(form);
        void holder.offsetHeight;
        return performance.now() - start;
      };
      // A native keystroke takes about as long as the page's clock resolution (0.1 ms without
      // cross-origin isolation): the mean of a batch, each with its own layout, is timed instead.
      const timeNative = () => {
        const start = performance.now();
        for (let b = 0; b < NATIVE_BATCH; b++) {
          type(native.inputs[(k * 7919 + b * 31) % native.inputs.length]!, String.fromCharCode(97 + (b % 26)));
          void native.host.offsetHeight;
        }
        return (performance.now() - start) / NATIVE_BATCH;
      };
      if (k % 2 === 0) {
        const formMs = await timeForm();
        samples.push({ formMs, baselineMs: timeNative() });
      } else {
        const baselineMs = timeNative();
        samples.push({ formMs: await timeForm(), baselineMs });
      }
    }
    holder.remove();
    native.host.remove();
    return { controls, samples };
  },
  /**
   * The corpus row: each tool's form rendered `repeats` times, each render
   * paired with two native baselines, each timed as the mean of a batch of
   * {@link BASELINE_BATCH} renders, alternating which goes first: the bare one,
   * as many labelled text inputs as it rendered controls (at least one: a tool
   * without arguments still has something to press), and the hand-written
   * equivalent of the same content (handwritten-form.ts).
   */
  async renderCorpus(tools: BenchTool[], repeats: number): Promise<CorpusSample[]> {
    const out: CorpusSample[] = [];
    const baseline = (controls: number) => {
      let ms = 0;
      for (let b = 0; b < BASELINE_BATCH; b++) ms += timeBaseline(Math.max(1, controls));
      return ms / BASELINE_BATCH;
    };
    const handwritten = (tool: BenchTool) => {
      let ms = 0;
      for (let b = 0; b < BASELINE_BATCH; b++) ms += timeHandwritten(tool);
      return ms / BASELINE_BATCH;
    };
    for (const tool of tools) {
      const forms: number[] = [];
      const baselines: number[] = [];
      const ratios: number[] = [];
      const hands: number[] = [];
      const handRatios: number[] = [];
      let controls = -1;
      for (let r = 0; r < repeats; r++) {
        let form: { ms: number; controls: number };
        let baselineMs: number;
        let handMs: number;
        if (r % 2 === 0 || controls < 0) {
          form = await timeForm(tool);
          baselineMs = baseline(form.controls);
          handMs = handwritten(tool);
        } else {
          handMs = handwritten(tool);
          baselineMs = baseline(controls);
          form = await timeForm(tool);
        }
        controls = form.controls;
        forms.push(form.ms);
        baselines.push(baselineMs);
        ratios.push(form.ms / baselineMs);
        hands.push(handMs);
        handRatios.push(form.ms / handMs);
      }
      out.push({ controls, formMs: middle(forms), baselineMs: middle(baselines), ratio: middle(ratios), handMs: middle(hands), handRatio: middle(handRatios) });
    }
    return out;
  },
  /** Renders the form for `tool` `count` times, one after another (bench/profile-form.ts profiles this); mean ms. */
  async renderForms(tool: BenchTool, count: number): Promise<number> {
    let ms = 0;
    for (let i = 0; i < count; i++) ms += (await timeForm(tool)).ms;
    return ms / count;
  },
  /**
   * Renders the form for `tool`, the plain baseline with as many inputs and the
   * hand-written equivalent, `repeats` times each, alternating which goes first.
   */
  async renderForm(tool: BenchTool, repeats: number): Promise<FormSample[]> {
    const samples: FormSample[] = [];
    for (let r = 0; r < repeats; r++) {
      let form: { ms: number; controls: number };
      let baselineMs: number;
      let handMs: number;
      if (r % 2 === 0) {
        form = await timeForm(tool);
        baselineMs = timeBaseline(form.controls);
        handMs = timeHandwritten(tool);
      } else {
        const probe = samples[0]?.controls ?? (await timeForm(tool)).controls;
        handMs = timeHandwritten(tool);
        baselineMs = timeBaseline(probe);
        form = await timeForm(tool);
      }
      samples.push({ controls: form.controls, formMs: form.ms, baselineMs, handMs });
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
