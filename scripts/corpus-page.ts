/**
 * The page side of `npm run corpus` (served by Vite, driven by Playwright from
 * scripts/corpus.ts): renders one `<mcp-tool-form>` per tool, fills it with the
 * tool's sample arguments and checks that the form's own submit path sends
 * exactly those arguments.
 */
import '../components/mcp-tool-form/mcp-tool-form.js';
import type { McpToolForm } from '../components/mcp-tool-form/mcp-tool-form.js';
import { jsonEqual } from '../components/internal/json.js';

export interface CorpusEntry {
  server: string;
  name: string;
  inputSchema: unknown;
  /** Arguments to fill in, or null for "render only". */
  sample: Record<string, unknown> | null;
}

export interface CorpusOutcome {
  tool: string;
  /** Raw-JSON fallback fields in the rendered form. */
  fallbacks: number;
  /** Render + fill + submit time, in ms. */
  ms: number;
  error?: string;
}

async function settle(form: McpToolForm): Promise<void> {
  // The first render, the validator becoming ready, and what `.arguments` changes.
  for (let i = 0; i < 3; i++) await form.updateComplete;
}

async function check(entry: CorpusEntry, main: HTMLElement): Promise<CorpusOutcome> {
  const started = performance.now();
  const tool = `${entry.server}/${entry.name}`;
  const form = document.createElement('mcp-tool-form');
  try {
    form.noDrafts = true;
    form.noConfirm = true;
    form.tool = { name: entry.name, inputSchema: entry.inputSchema as Record<string, unknown> };
    main.append(form);
    await settle(form);
    const fallbacks = form.shadowRoot!.querySelectorAll('[data-json="fallback"]').length;
    if (!form.shadowRoot!.querySelector('[part~="submit-button"]')) throw new Error('no submit button was rendered');
    let error: string | undefined;
    if (entry.sample) {
      form.arguments = entry.sample;
      await settle(form);
      let sent: Record<string, unknown> | undefined;
      form.addEventListener(
        'mcp-tool-call',
        (event) => {
          event.preventDefault();
          sent = event.detail.arguments;
        },
        { once: true },
      );
      await form.submit();
      await settle(form);
      if (!sent) error = `the filled form refused to submit: ${form.issues.map((issue) => `${issue.pointer} ${issue.message}`).join('; ')}`;
      else if (!jsonEqual(sent, entry.sample)) error = `the form sent ${JSON.stringify(sent).slice(0, 300)} instead of ${JSON.stringify(entry.sample).slice(0, 300)}`;
    }
    return { tool, fallbacks, ms: performance.now() - started, ...(error ? { error } : {}) };
  } catch (error) {
    return { tool, fallbacks: 0, ms: performance.now() - started, error: String((error as Error)?.stack ?? error) };
  } finally {
    form.remove();
  }
}

/** Checks a batch of tools one after the other. */
async function checkBatch(entries: CorpusEntry[]): Promise<CorpusOutcome[]> {
  const main = document.querySelector('main')!;
  const outcomes: CorpusOutcome[] = [];
  for (const entry of entries) outcomes.push(await check(entry, main));
  return outcomes;
}

declare global {
  interface Window {
    corpusCheck?: typeof checkBatch;
  }
}

window.corpusCheck = checkBatch;
