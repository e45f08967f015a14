/**
 * `<mcp-tool-form>` in a host page, for keyboard and screen-reader users
 * (issue 17): where focus goes after a call (success, error, cancel), one
 * polite announcement per outcome, required fields announced as required
 * (Chromium's accessibility tree), and no duplicate landmarks with several
 * forms and results on a page. Real Chromium, the real demo MCP server.
 */
import axe from 'axe-core';
import { afterEach, beforeAll, describe, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { McpClient } from '../../src/index.js';
import '../index.js';
import { requiredNodes } from '../test-support/ax.js';
import { cleanup } from '../test-support/dom.js';
import { mount, part, root, tool } from '../test-support/tool-form.js';
import type { McpToolForm } from './mcp-tool-form.js';

const url = inject('demoServerUrl');
let client: McpClient;

beforeAll(async () => {
  client = new McpClient(url);
  await client.listTools();
});
afterEach(() => cleanup());

/** The focused element, through shadow roots. */
function focused(): Element | null {
  let element = document.activeElement;
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
  return element;
}

/** Every element a screen reader treats as a live region, through shadow roots. */
function liveRegions(scope: ParentNode = document): Element[] {
  const found: Element[] = [];
  for (const element of scope.querySelectorAll('*')) {
    const role = element.getAttribute('role');
    const live = element.getAttribute('aria-live');
    if (role === 'alert' || role === 'status' || role === 'log' || (live && live !== 'off')) found.push(element);
    if (element.shadowRoot) found.push(...liveRegions(element.shadowRoot));
  }
  return found;
}

/**
 * Records what the page's live regions come to say about outcomes: each
 * region's text after every change (a region appearing with text counts as one
 * announcement). The progress line while a call runs is left out: it is about
 * the call, not its outcome.
 */
function recordAnnouncements(): { said: () => { text: string; polite: boolean }[]; stop: () => void } {
  const said: { text: string; polite: boolean }[] = [];
  const last = new Map<Element, string>();
  const check = () => {
    for (const region of liveRegions()) {
      if (region.closest('[part~="progress"]')) continue;
      const text = region.textContent!.replace(/\s+/g, ' ').trim();
      if (text && text !== last.get(region)) said.push({ text, polite: region.getAttribute('role') !== 'alert' && region.getAttribute('aria-live') !== 'assertive' });
      last.set(region, text);
    }
  };
  for (const region of liveRegions()) last.set(region, region.textContent!.replace(/\s+/g, ' ').trim());
  const timer = setInterval(check, 5);
  return {
    said: () => (check(), said),
    stop: () => clearInterval(timer),
  };
}

async function weatherForm(): Promise<McpToolForm> {
  const form = await mount({ toolName: 'get_weather', client });
  await vi.waitFor(() => expect(root(form).querySelector('[part~="submit-button"]')).not.toBeNull());
  return form;
}

describe('focus after a call', () => {
  test('success: to the result heading, never <body>', async () => {
    const form = await weatherForm();
    const submit = part<HTMLButtonElement>(root(form), 'submit-button');
    const result = new Promise((resolve) => form.addEventListener('mcp-tool-result', resolve, { once: true }));
    await userEvent.click(submit);
    await result;
    await vi.waitFor(() => expect(focused()).toBe(part(root(form), 'result-heading')));
    expect(part(root(form), 'result-heading').textContent).toBe('Result');
  });

  test('error: back to the submit button', async () => {
    const form = await mount({ tool: tool('no_such_tool', { type: 'object', properties: {} }), client });
    await vi.waitFor(() => expect(root(form).querySelector('[part~="submit-button"]')).not.toBeNull());
    const failed = new Promise((resolve) => form.addEventListener('mcp-error', resolve, { once: true }));
    await userEvent.click(part(root(form), 'submit-button'));
    await failed;
    await vi.waitFor(() => expect(focused()).toBe(part(root(form), 'submit-button')));
  });

  test('cancel: focus waits on Cancel during the call, then goes back to the submit button', async () => {
    const form = await mount({ toolName: 'long_task', client, drafts: false });
    await vi.waitFor(() => expect(root(form).querySelector('[part~="submit-button"]')).not.toBeNull());
    form.arguments = { steps: 40, stepMs: 250 };
    await form.updateComplete;
    await userEvent.click(part(root(form), 'submit-button'));
    await vi.waitFor(() => expect(focused()).toBe(root(form).querySelector('[part~="cancel-button"]')));
    expect(focused()).not.toBe(document.body);
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(form.phase).toBe('idle'));
    await vi.waitFor(() => expect(focused()).toBe(part(root(form), 'submit-button')));
  });

  test('focus the user moved elsewhere during the call stays there', async () => {
    const form = await mount({ toolName: 'long_task', client, drafts: false });
    const elsewhere = document.createElement('input');
    elsewhere.setAttribute('aria-label', 'Chat');
    document.body.append(elsewhere);
    await vi.waitFor(() => expect(root(form).querySelector('[part~="submit-button"]')).not.toBeNull());
    form.arguments = { steps: 3, stepMs: 200 };
    await form.updateComplete;
    const result = new Promise((resolve) => form.addEventListener('mcp-tool-result', resolve, { once: true }));
    await userEvent.click(part(root(form), 'submit-button'));
    await userEvent.click(elsewhere);
    await result;
    await form.updateComplete;
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(focused()).toBe(elsewhere);
  });
});

describe('announcements', () => {
  test('a result is announced once, politely, with the tool and the start of its text', async () => {
    const form = await weatherForm();
    const recording = recordAnnouncements();
    try {
      await form.submit();
      await vi.waitFor(() => expect(recording.said().length).toBeGreaterThan(0));
      await form.updateComplete;
      await new Promise((resolve) => setTimeout(resolve, 50));
      const said = recording.said();
      expect(said).toHaveLength(1);
      expect(said[0]!.polite).toBe(true);
      expect(said[0]!.text).toMatch(/^Result of Weather: .*Lisbon/);
      // Nothing in the result itself is an alert that would say it a second time.
      expect(liveRegions(form.shadowRoot!).filter((region) => region.getAttribute('role') === 'alert')).toEqual([]);

      // The same result again is announced again (a new call, a new announcement).
      await form.submit();
      await vi.waitFor(() => expect(recording.said()).toHaveLength(2));
      expect(recording.said()[1]!.text).toBe(said[0]!.text);
    } finally {
      recording.stop();
    }
  });

  test('a failed call is announced once, politely', async () => {
    const form = await mount({ tool: tool('no_such_tool', { type: 'object', properties: {} }), client });
    await vi.waitFor(() => expect(root(form).querySelector('[part~="submit-button"]')).not.toBeNull());
    const recording = recordAnnouncements();
    try {
      await form.submit();
      await vi.waitFor(() => expect(recording.said().length).toBeGreaterThan(0));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(recording.said()).toEqual([{ text: expect.stringMatching(/^The call to no_such_tool failed\. /), polite: true }]);
    } finally {
      recording.stop();
    }
  });
});

describe('required fields are announced', () => {
  test('every control and group marked * is required in the accessibility tree, and nothing else', async () => {
    const form = await mount({
      tool: tool('book', {
        type: 'object',
        properties: {
          title: { type: 'string', title: 'Title' },
          note: { type: 'string', title: 'Note' },
          // "" is valid: the native attribute alone would not say required.
          code: { type: 'string', title: 'Code', minLength: 0 },
          guests: { type: 'integer', title: 'Guests' },
          area: { type: 'string', title: 'Area', enum: ['inside', 'terrace'] },
          city: { type: 'string', title: 'City', enum: ['Lisbon', 'Porto', 'Faro', 'Braga', 'Coimbra', 'Évora'] },
          vegan: { type: 'boolean', title: 'Vegan' },
          extras: { type: 'object', title: 'Extras', additionalProperties: true },
          tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: ['quiet', 'view'] }, uniqueItems: true },
          contact: { type: 'object', title: 'Contact', properties: { phone: { type: 'string', title: 'Phone' }, email: { type: 'string', title: 'Email' } }, required: ['phone'] },
        },
        required: ['title', 'code', 'guests', 'area', 'city', 'vegan', 'extras', 'tags', 'contact'],
      }),
    });
    await vi.waitFor(() => expect(root(form).querySelector('[part~="submit-button"]')).not.toBeNull());
    expect((await requiredNodes()).sort()).toEqual(['textbox: Title', 'textbox: Code', 'spinbutton: Guests', 'radiogroup: Area', 'textbox: Extras', 'textbox: Phone'].sort());
    // Chromium's tree lists no required property for a <select> or a checkbox, even a plain
    // <select required> (its DevTools protocol omits it for those roles): their attributes then.
    const select = root(form).querySelector('[data-pointer="/city"] select')!;
    const checkbox = root(form).querySelector<HTMLInputElement>('[data-pointer="/vegan"] input[type="checkbox"]')!;
    expect([select.getAttribute('aria-required'), checkbox.getAttribute('aria-required')]).toEqual(['true', 'true']);
    expect(root(form).querySelectorAll('[aria-required="true"]')).toHaveLength(8);
    // Groups that cannot carry aria-required say it in their name.
    const legends = [...root(form).querySelectorAll('fieldset:not([role="radiogroup"]) > legend')].map((legend) => legend.textContent!.replace(/\s+/g, ' ').trim());
    expect(legends).toEqual(expect.arrayContaining(['Tags* (required)', 'Contact* (required)']));
  });
});

describe('landmarks', () => {
  test('two forms with results on a page add no banner and no identical regions', async () => {
    const first = await weatherForm();
    const second = await weatherForm();
    await first.submit();
    await second.submit();
    await vi.waitFor(() => expect(root(second).querySelector('mcp-tool-result')).not.toBeNull());
    const run = await axe.run(document, { runOnly: ['landmark-unique', 'landmark-no-duplicate-banner', 'landmark-no-duplicate-contentinfo', 'landmark-banner-is-top-level'], resultTypes: ['violations'] });
    expect(run.violations.map((v) => v.id)).toEqual([]);
    const landmarks = ['banner', 'contentinfo', 'region', 'complementary', 'navigation', 'main'];
    const { accessibilityTree } = await import('../test-support/ax.js');
    expect((await accessibilityTree()).filter((node) => landmarks.includes(node.role)).map((node) => `${node.role}: ${node.name}`)).toEqual([]);
  });
});
