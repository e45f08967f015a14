/**
 * Issue 19, item 5: typed input survives reloads, broken storage and a second
 * tab. Real Chromium; each page under test is components/test-support/frame.html
 * in an iframe, reloaded for real, with the browser's storage broken the way
 * private windows and storage settings break it.
 */
import { afterEach, describe, expect, inject, test, vi } from 'vitest';
import { draftKey, loadDraft } from '../internal/drafts.js';
import { clearAllPending } from '../mcp-elicitation-dialog/pending.js';
import type { McpElicitationDialog } from '../mcp-elicitation-dialog/mcp-elicitation-dialog.js';
import type { McpToolResultEvent } from '../events.js';
import type { McpToolForm } from './mcp-tool-form.js';

const server = 'https://drafts.example/mcp';
const hostile = inject('hostileServerUrl');

type FrameWindow = Window & { frameReady?: Promise<void> };
/** Generous: frames load and storage answers slowly on a busy machine. */
const WAIT = { timeout: 10_000 };

afterEach(() => document.body.replaceChildren());

async function ready(frame: HTMLIFrameElement): Promise<void> {
  await vi.waitFor(() => expect((frame.contentWindow as FrameWindow | null)?.frameReady).toBeDefined(), { timeout: 20_000 });
  await (frame.contentWindow as FrameWindow).frameReady;
}

async function openFrame(query: Record<string, string>): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.src = `/components/test-support/frame.html?${new URLSearchParams(query)}`;
  frame.style.cssText = 'width: 900px; height: 700px';
  document.body.append(frame);
  await ready(frame);
  return frame;
}

/** Reloads the frame's page now (in this very task) and waits for the new page to be set up. */
async function reload(frame: HTMLIFrameElement): Promise<void> {
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.contentWindow!.location.reload();
  await loaded;
  await ready(frame);
}

const formsIn = (frame: HTMLIFrameElement) => [...frame.contentDocument!.querySelectorAll<McpToolForm>('mcp-tool-form')];
const inputOf = (form: McpToolForm, pointer: string) => form.shadowRoot!.querySelector<HTMLInputElement>(`[data-pointer="${pointer}"] input`)!;
/** What typing does to a control: a new value and an `input` event. */
function typeIn(input: HTMLInputElement, text: string): void {
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}
const partIn = (form: McpToolForm, name: string) => form.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const uniqueTool = () => `trip_${Math.random().toString(36).slice(2)}`;

describe('tool-form drafts', () => {
  test('a draft typed a moment before a reload comes back: written on input, flushed on pagehide', async () => {
    const tool = uniqueTool();
    const frame = await openFrame({ kind: 'form', server, tool });
    const [form] = formsIn(frame);
    typeIn(inputOf(form!, '/title'), 'Lisbon in spring');
    await form!.updateComplete;
    typeIn(inputOf(form!, '/nights'), '4');
    // No wait between the last keystroke and the reload: well under a second.
    await reload(frame);
    const [after] = formsIn(frame);
    await vi.waitFor(() => expect(inputOf(after!, '/title').value).toBe('Lisbon in spring'), WAIT);
    expect(inputOf(after!, '/nights').value).toBe('4');
    expect(after!.value).toEqual({ title: 'Lisbon in spring', nights: 4 });
    // It was stored for good, not only carried over once.
    await vi.waitFor(async () => expect((await loadDraft(draftKey(server, tool))).stored?.draft).toBeDefined(), WAIT);
    await reload(frame);
    await vi.waitFor(() => expect(inputOf(formsIn(frame)[0]!, '/title').value).toBe('Lisbon in spring'), WAIT);
    expect(partIn(formsIn(frame)[0]!, 'draft-notice')).toBeNull();
  });

  test('IndexedDB that never answers: the draft is written to the tab\'s journal on pagehide and comes back after the reload', async () => {
    const tool = uniqueTool();
    const frame = await openFrame({ kind: 'form', server, tool, storage: 'hung-idb' });
    typeIn(inputOf(formsIn(frame)[0]!, '/title'), 'only in the journal');
    await reload(frame);
    // The new page gives up on IndexedDB after its time budget, then reads the journal.
    await vi.waitFor(() => expect(inputOf(formsIn(frame)[0]!, '/title').value).toBe('only in the journal'), { timeout: 20_000 });
  });

  test('IndexedDB refused (as in a private window): drafts go to sessionStorage, survive a reload, and the user is told once', async () => {
    const tool = uniqueTool();
    const frame = await openFrame({ kind: 'form', server, tool, forms: '2', storage: 'no-idb' });
    const [first, second] = formsIn(frame);
    typeIn(inputOf(first!, '/title'), 'kept in this tab');
    await vi.waitFor(() => expect(formsIn(frame).filter((form) => partIn(form, 'draft-notice')).length).toBe(1), WAIT);
    const notice = formsIn(frame).map((form) => partIn(form, 'draft-notice')).find(Boolean)!;
    expect(notice.getAttribute('role')).toBe('status');
    expect(notice.textContent).toContain('kept in this tab only, and are lost when it is closed');
    // Told once: typing in the other form does not tell it again.
    typeIn(inputOf(second!, '/title'), 'kept in this tab');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(formsIn(frame).filter((form) => partIn(form, 'draft-notice')).length).toBe(1);
    await reload(frame);
    await vi.waitFor(() => expect(inputOf(formsIn(frame)[0]!, '/title').value).toBe('kept in this tab'), WAIT);
  });

  test('a quota error on every write: the same fallback, nothing lost across a reload', async () => {
    const tool = uniqueTool();
    const frame = await openFrame({ kind: 'form', server, tool, storage: 'quota' });
    typeIn(inputOf(formsIn(frame)[0]!, '/title'), 'over quota');
    await vi.waitFor(() => expect(partIn(formsIn(frame)[0]!, 'draft-notice')?.textContent).toContain('kept in this tab only'), WAIT);
    await reload(frame);
    await vi.waitFor(() => expect(inputOf(formsIn(frame)[0]!, '/title').value).toBe('over quota'), WAIT);
  });

  test('no storage at all: drafts live in memory, and the user is told they will not survive a reload', async () => {
    const tool = uniqueTool();
    const frame = await openFrame({ kind: 'form', server, tool, storage: 'no-idb,no-session' });
    const [form] = formsIn(frame);
    typeIn(inputOf(form!, '/title'), 'in memory');
    await vi.waitFor(() => expect(partIn(form!, 'draft-notice')?.textContent).toContain('will not survive a reload'), WAIT);
    // Within the page, a form shown again gets it back.
    form!.remove();
    const again = frame.contentDocument!.createElement('mcp-tool-form') as McpToolForm;
    again.client = form!.client;
    again.tool = form!.tool;
    frame.contentDocument!.body.append(again);
    await vi.waitFor(() => expect(inputOf(again, '/title').value).toBe('in memory'), WAIT);
  });
});

describe('a validator that cannot be loaded', () => {
  test('the form says so and stays usable, instead of retrying in a loop that froze the page', async () => {
    const frame = await openFrame({ kind: 'form', server, tool: uniqueTool(), validator: 'broken' });
    const [form] = formsIn(frame);
    // The validator loads on the first check (issue 18): the first edit asks for it.
    await vi.waitFor(() => expect(inputOf(form!, '/title')).toBeTruthy(), WAIT);
    typeIn(inputOf(form!, '/title'), 'still');
    await vi.waitFor(() => expect(partIn(form!, 'notice')?.textContent).toContain('the schema validator could not be loaded'), WAIT);
    typeIn(inputOf(form!, '/title'), 'still works');
    expect(form!.value).toEqual({ title: 'still works' });
  });

  test('a submit before any edit sends the arguments unchecked, and the user is told so before they go', async () => {
    const frame = await openFrame({ kind: 'form', server, tool: uniqueTool(), validator: 'broken' });
    const [form] = formsIn(frame);
    await vi.waitFor(() => expect(inputOf(form!, '/title')).toBeTruthy(), WAIT);
    const noticeAtCall: (string | undefined)[] = [];
    form!.addEventListener('mcp-tool-call', (event) => {
      noticeAtCall.push(partIn(form!, 'notice')?.textContent ?? undefined);
      event.preventDefault(); // the arguments are what this test is about, not the call
    });
    await form!.submit();
    expect(noticeAtCall).toHaveLength(1);
    expect(noticeAtCall[0]).toContain('the schema validator could not be loaded');
    expect(noticeAtCall[0]).toContain('arguments are sent without checking');
  });
});

describe('the form\'s parts cannot be loaded (issue 18: they load when the form connects)', () => {
  test('the form says why it cannot be shown, and nothing else breaks', async () => {
    const frame = await openFrame({ kind: 'form', server, tool: uniqueTool(), parts: 'broken' });
    const [form] = formsIn(frame);
    await vi.waitFor(() => expect(partIn(form!, 'call-error')?.textContent).toContain('The form cannot be shown: Failed to fetch dynamically imported module'), WAIT);
    expect(partIn(form!, 'call-error')!.getAttribute('role')).toBe('alert');
    expect(form!.value).toEqual({});
    expect(form!.shadowRoot!.querySelector('input')).toBeNull();
  });
});

describe('two tabs editing the same tool', () => {
  test("a save that would overwrite the other tab's newer draft is held, and the user chooses which to keep", async () => {
    const tool = uniqueTool();
    const key = draftKey(server, tool);
    const stored = async () => (await loadDraft<{ k: string; p: Record<string, { v: string }> }>(key)).stored?.draft.p.title?.v;
    const a = await openFrame({ kind: 'form', server, tool });
    const [formA] = formsIn(a);
    typeIn(inputOf(formA!, '/title'), 'from A');
    await vi.waitFor(async () => expect(await stored()).toBe('from A'), WAIT);
    // B opens on A's draft; then A goes on typing.
    const b = await openFrame({ kind: 'form', server, tool });
    const [formB] = formsIn(b);
    await vi.waitFor(() => expect(inputOf(formB!, '/title').value).toBe('from A'), WAIT);
    typeIn(inputOf(formA!, '/title'), 'from A, more');
    await vi.waitFor(async () => expect(await stored()).toBe('from A, more'), WAIT);
    // B's draft is behind: saving it would silently replace what A wrote since.
    typeIn(inputOf(formB!, '/title'), 'from B');
    await vi.waitFor(() => expect(partIn(formB!, 'draft-conflict')).not.toBeNull(), WAIT);
    expect(partIn(formB!, 'draft-conflict')!.getAttribute('role')).toBe('alert');
    expect(partIn(formB!, 'draft-conflict')!.textContent).toContain('also edited in another tab');
    expect(await stored()).toBe('from A, more');
    // B takes A's draft, then edits on from it.
    partIn(formB!, 'load-draft-button')!.click();
    await formB!.updateComplete;
    expect(inputOf(formB!, '/title').value).toBe('from A, more');
    expect(partIn(formB!, 'draft-conflict')).toBeNull();
    typeIn(inputOf(formB!, '/title'), 'from A, then B');
    await vi.waitFor(async () => expect(await stored()).toBe('from A, then B'), WAIT);
    // Now A is the one behind: asked too; it keeps its own.
    typeIn(inputOf(formA!, '/title'), 'A again');
    await vi.waitFor(() => expect(partIn(formA!, 'draft-conflict')).not.toBeNull(), WAIT);
    expect(await stored()).toBe('from A, then B');
    partIn(formA!, 'keep-draft-button')!.click();
    await vi.waitFor(async () => expect(await stored()).toBe('A again'), WAIT);
    await reload(b);
    await vi.waitFor(() => expect(inputOf(formsIn(b)[0]!, '/title').value).toBe('A again'), WAIT);
  });
});

describe('half-typed answers in the input dialog', () => {
  async function callAndType(frame: HTMLIFrameElement): Promise<McpElicitationDialog> {
    const form = formsIn(frame)[0]!;
    await vi.waitFor(() => expect(partIn(form, 'submit-button')).not.toBeNull(), { timeout: 10_000 });
    partIn(form, 'submit-button')!.click();
    const dialog = frame.contentDocument!.querySelector('mcp-elicitation-dialog') as McpElicitationDialog;
    await vi.waitFor(() => expect(dialog.shadowRoot!.querySelector<HTMLInputElement>('#f0')).not.toBeNull(), { timeout: 10_000 });
    return dialog;
  }

  async function resumeAndFinish(frame: HTMLIFrameElement): Promise<string> {
    const dialog = frame.contentDocument!.querySelector('mcp-elicitation-dialog') as McpElicitationDialog;
    const finished = new Promise<McpToolResultEvent>((resolve) => dialog.addEventListener('mcp-tool-result', (event) => resolve(event as McpToolResultEvent), { once: true }));
    await vi.waitFor(() => expect(dialog.shadowRoot!.querySelector('[data-action="resume"]')).not.toBeNull(), { timeout: 10_000 });
    dialog.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="resume"]')!.click();
    await vi.waitFor(() => expect(dialog.shadowRoot!.querySelector<HTMLInputElement>('#f0')?.value).toBe('Lisb'), { timeout: 10_000 });
    expect(dialog.shadowRoot!.querySelector<HTMLInputElement>('#f1')!.value).toBe('3');
    typeIn(dialog.shadowRoot!.querySelector<HTMLInputElement>('#f0')!, 'Lisbon');
    await dialog.updateComplete;
    dialog.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="review"]')!.click();
    await vi.waitFor(() => expect(dialog.shadowRoot!.querySelector('[data-action="accept"]')).not.toBeNull(), WAIT);
    dialog.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="accept"]')!.click();
    const event = await finished;
    return (event.detail.result.content![0] as { text: string }).text;
  }

  test('an answer typed just before a reload comes back when the call is resumed', async () => {
    await clearAllPending(hostile);
    const frame = await openFrame({ kind: 'dialog', server: hostile, tool: 'one_question' });
    const dialog = await callAndType(frame);
    typeIn(dialog.shadowRoot!.querySelector<HTMLInputElement>('#f0')!, 'Lisb');
    typeIn(dialog.shadowRoot!.querySelector<HTMLInputElement>('#f1')!, '3');
    await reload(frame);
    expect(await resumeAndFinish(frame)).toBe('1 answers: accept {"city":"Lisbon","nights":3} ×1');
  });

  test('without IndexedDB the resume record and the answer fall back to sessionStorage', async () => {
    await clearAllPending(hostile);
    const frame = await openFrame({ kind: 'dialog', server: hostile, tool: 'one_question', storage: 'no-idb' });
    const dialog = await callAndType(frame);
    typeIn(dialog.shadowRoot!.querySelector<HTMLInputElement>('#f0')!, 'Lisb');
    typeIn(dialog.shadowRoot!.querySelector<HTMLInputElement>('#f1')!, '3');
    await vi.waitFor(() => expect(dialog.shadowRoot!.querySelector('[part="notice"]')?.textContent).toContain('kept in this tab only'), WAIT);
    await reload(frame);
    expect(await resumeAndFinish(frame)).toBe('1 answers: accept {"city":"Lisbon","nights":3} ×1');
  });
});
