/**
 * The page side of the hostile-inputs section (issue 19, item 2): renders each
 * input a hostile server can send and measures how long the main thread was
 * blocked, side by side with a page that renders nothing. Loaded by the bench
 * page (bench/page.ts); the kit comes from the full-kit bundle it loads.
 */

export interface HostileSample {
  /** The longest stretch the main thread could not run a task, in ms (a setTimeout(0) heartbeat's largest gap). */
  longestBlockMs: number;
  /** The longest task the browser reported (Long Tasks API, tasks over 50 ms), in ms; 0 when none. */
  longestTaskMs: number;
  /** From the start until the element settled and laid out, in ms. */
  totalMs: number;
  /** DOM nodes the element rendered (shadow trees included). */
  nodes: number;
}

const MiB = 1024 * 1024;

type Kit = HTMLElement & { updateComplete: Promise<boolean>; isUpdatePending: boolean };

function nodeCount(node: Node): number {
  let count = 1;
  for (const child of node.childNodes) count += nodeCount(child);
  const shadow = (node as Element).shadowRoot;
  if (shadow) count += nodeCount(shadow);
  return count;
}

/** Until no update is pending in `element` or the kit elements inside its shadow tree. */
async function settle(element: Element): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const kit = [element, ...element.querySelectorAll('*'), ...(element.shadowRoot?.querySelectorAll('*') ?? [])].filter((e): e is Kit => 'updateComplete' in e);
    await Promise.all(kit.map((e) => e.updateComplete));
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (!kit.some((e) => e.isUpdatePending)) return;
  }
}

const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));

/** Runs `work` with a heartbeat and a long-task observer; the sample covers until two frames after it settled. */
async function measure(work: () => Promise<Element | undefined>): Promise<HostileSample> {
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  try {
    observer.observe({ type: 'longtask', buffered: false });
  } catch {
    // Long Tasks API missing: the heartbeat still measures.
  }
  let last = performance.now();
  let longestBlockMs = 0;
  let beating = true;
  const beat = () => {
    const now = performance.now();
    longestBlockMs = Math.max(longestBlockMs, now - last);
    last = now;
    if (beating) setTimeout(beat, 0);
  };
  setTimeout(beat, 0);
  const start = performance.now();
  const element = await work();
  if (element) {
    await settle(element);
    void (element as HTMLElement).offsetHeight;
  }
  await frame();
  await frame();
  const totalMs = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, 20));
  beating = false;
  observer.disconnect();
  return { longestBlockMs, longestTaskMs: tasks.length ? Math.max(...tasks) : 0, totalMs, nodes: element ? nodeCount(element) : 0 };
}

function form(inputSchema: unknown, extra: Record<string, unknown> = {}): Element {
  const element = document.createElement('mcp-tool-form') as HTMLElement & { noDrafts: boolean; tool: unknown };
  element.noDrafts = true;
  element.tool = { name: 'hostile', inputSchema, ...extra };
  return element;
}

/** Each input: prepared outside the measurement, then appended (and, for some, used) inside it. */
const INPUTS: Record<string, (host: HTMLElement, hugeUrl: string) => () => Promise<Element | undefined>> = {
  nothing: () => async () => undefined,
  'enum of 1,000,000 values': (host) => {
    const element = form({ type: 'object', properties: { city: { type: 'string', enum: Array.from({ length: 1_000_000 }, (_, i) => `city-${i}`) } } });
    return async () => (host.append(element), element);
  },
  'enum of 1,000,000 values: typing a search': (host) => {
    const element = form({ type: 'object', properties: { city: { type: 'string', enum: Array.from({ length: 1_000_000 }, (_, i) => `city-${i}`) } } });
    host.append(element);
    return async () => {
      await settle(element);
      const input = element.shadowRoot!.querySelector<HTMLInputElement>('input[role="combobox"]')!;
      input.focus();
      for (const text of ['c', 'ci', 'city-4', 'city-42', 'city-424']) {
        input.value = text;
        input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
        await settle(element);
      }
      return element;
    };
  },
  'array default of 1,000,000 items': (host) => {
    const element = form({ type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' }, default: Array.from({ length: 1_000_000 }, (_, i) => i) } } });
    return async () => (host.append(element), element);
  },
  'recursive $defs with required children': (host) => {
    const node = { type: 'object', required: ['name', 'left', 'right'], properties: { name: { type: 'string' }, left: { $ref: '#/$defs/node' }, right: { $ref: '#/$defs/node' } } };
    const element = form({ type: 'object', $defs: { node }, properties: { root: { $ref: '#/$defs/node' } }, required: ['root'] });
    return async () => (host.append(element), element);
  },
  '4,900 properties': (host) => {
    const element = form({ type: 'object', properties: Object.fromEntries(Array.from({ length: 4900 }, (_, i) => [`p${i}`, { type: 'string', description: `Field ${i}` }])) });
    return async () => (host.append(element), element);
  },
  'four tools with 5 MiB descriptions': (host) => {
    const wrapper = document.createElement('div');
    for (let i = 0; i < 4; i++) wrapper.append(form({ type: 'object', properties: { q: { type: 'string', description: 'd'.repeat(5 * MiB) } } }, { description: `${i} ${'w'.repeat(5 * MiB)}` }));
    return async () => (host.append(wrapper), wrapper);
  },
  'result of 50,000 content blocks': (host) => {
    const element = document.createElement('mcp-tool-result') as HTMLElement & { result: unknown };
    element.result = { content: Array.from({ length: 50_000 }, (_, i) => ({ type: 'text', text: `block ${i}` })) };
    return async () => (host.append(element), element);
  },
  '5 MiB server name, 10 MiB instructions (connect and show)': (host, hugeUrl) => async () => {
    const element = document.createElement('mcp-connection');
    element.setAttribute('server-url', hugeUrl);
    element.setAttribute('no-listen', '');
    const connected = new Promise((resolve) => element.addEventListener('mcp-connect', resolve, { once: true }));
    host.append(element);
    await connected;
    return element;
  },
};

export const hostilePage = {
  /** The inputs measured, in order (the first is the page that renders nothing). */
  inputs(): string[] {
    return Object.keys(INPUTS);
  },
  async run(input: string, hugeUrl: string): Promise<HostileSample> {
    const host = document.createElement('div');
    document.body.append(host);
    try {
      const work = INPUTS[input]!(host, hugeUrl);
      return await measure(work);
    } finally {
      host.remove();
    }
  },
};
