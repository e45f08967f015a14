/**
 * `<mcp-tool-form>` in real Chromium against the kinds of schema and call
 * failure real servers produce (issue 12, "Forms and dialog"), and field case
 * C24 (a root-level `oneOf` with a const discriminator next to root members and
 * a root `allOf`). One `describe` per kind of fault; the values are our own.
 */
import { afterEach, describe, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { compileSchemaSync, McpClient, type FetchLike } from '../../src/index.js';
import { axeViolations } from '../test-support/dom.js';
import { clear, click, control, errorOf, field, mount, ownButton, part, root, submitted, tool, type } from '../test-support/tool-form.js';
import type { McpToolForm } from './mcp-tool-form.js';

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

async function pick(form: McpToolForm, pointer: string, label: string): Promise<void> {
  await userEvent.selectOptions(part<HTMLSelectElement>(field(form, pointer), 'variant-picker'), label);
  await form.updateComplete;
}

const pickerLabels = (form: McpToolForm, pointer: string) => [...part<HTMLSelectElement>(field(form, pointer), 'variant-picker').options].map((o) => o.textContent!.trim());
const pickerChoice = (form: McpToolForm, pointer: string) => {
  const picker = part<HTMLSelectElement>(field(form, pointer), 'variant-picker');
  return picker.options[picker.selectedIndex]!.textContent!.trim();
};
const pointers = (form: McpToolForm) => form.issues.map((issue) => issue.pointer).sort();

// First in this file (each test file runs in a page of its own): nothing has loaded the validator yet.
describe('arguments are never sent unchecked', () => {
  test('a submit before the validator has loaded waits for it, and arguments the schema rejects are refused', async () => {
    const form = await mount({
      tool: tool('early', {
        type: 'object',
        properties: { copies: { type: 'integer', minimum: 10 }, when: { anyOf: [{ type: 'string', format: 'date' }, { type: 'string' }] } },
        required: ['copies'],
      }),
    });
    form.arguments = { copies: 3, when: 'next week' };
    // The precondition of this test: the form appeared, and its validator is still on the way.
    expect(() => compileSchemaSync({ type: 'object' })).toThrow(/not loaded/);
    const sent: unknown[] = [];
    form.addEventListener('mcp-tool-call', (event) => {
      event.preventDefault();
      sent.push(event.detail.arguments);
    });
    expect(await form.submit()).toBeUndefined();
    expect(sent).toEqual([]);
    expect(form.issues).toEqual([{ pointer: '/copies', message: 'Must be at least 10.' }]);
    // Arguments set before the validator was there are placed in the union variant it accepts once it is.
    expect(pickerChoice(form, '/when')).toBe('text');
    expect(form.value).toEqual({ copies: 3, when: 'next week' });
  });
});

describe('field case C24: a root-level oneOf with a const discriminator next to root members and a root allOf', () => {
  // Our own notification tool with the shape of C24.
  const notify = () =>
    tool('notify', {
      type: 'object',
      properties: { body: { type: 'string', minLength: 1 } },
      required: ['body'],
      allOf: [{ properties: { level: { type: 'integer', minimum: 1, maximum: 4 } } }],
      oneOf: [
        {
          type: 'object',
          properties: { route: { type: 'string', const: 'inbox' }, mailbox: { type: 'string', format: 'email' } },
          required: ['route', 'mailbox'],
        },
        {
          type: 'object',
          properties: { route: { type: 'string', const: 'pager' }, pagerNumber: { type: 'string', pattern: '^\\+[0-9]{7,14}$' } },
          required: ['route', 'pagerNumber'],
        },
      ],
    });

  test('C24 the root variant picker offers the two discriminator values; root members show in both; the discriminator is no free text box', async () => {
    const form = await mount({ tool: notify() });
    expect(pickerLabels(form, '')).toEqual(['inbox', 'pager']);
    for (const variant of ['inbox', 'pager']) {
      await pick(form, '', variant);
      expect(field(form, '/body').dataset.kind).toBe('string');
      expect(field(form, '/level').dataset.kind).toBe('number');
      expect(control(form, '/route').readOnly).toBe(true);
      expect(control(form, '/route').value).toBe(variant);
    }
    expect(root(form).querySelector('[data-pointer="/mailbox"]')).toBeNull();
    expect(field(form, '/pagerNumber')).toBeTruthy();
  });

  test('C24 inbox', async () => {
    const form = await mount({ tool: notify() });
    await pick(form, '', 'inbox');
    await type(form, '/body', 'hello');
    await type(form, '/mailbox', 'ops@example.test');
    expect(await submitted(form)).toEqual({ body: 'hello', route: 'inbox', mailbox: 'ops@example.test' });
  });

  test('C24 pager', async () => {
    const form = await mount({ tool: notify() });
    await pick(form, '', 'pager');
    await type(form, '/body', 'hello');
    await type(form, '/pagerNumber', '+4420555');
    expect(await submitted(form)).toEqual({ body: 'hello', route: 'pager', pagerNumber: '+4420555' });
  });

  test('C24 switching the variant drops the other variant\'s values', async () => {
    const form = await mount({ tool: notify() });
    await pick(form, '', 'inbox');
    await type(form, '/mailbox', 'ops@example.test');
    await pick(form, '', 'pager');
    await type(form, '/pagerNumber', '+4420555');
    await type(form, '/body', 'hello');
    expect(await submitted(form)).toEqual({ body: 'hello', route: 'pager', pagerNumber: '+4420555' });
  });

  test('C24 root members keep what was typed when the variant changes', async () => {
    const form = await mount({ tool: notify() });
    await type(form, '/body', 'hello');
    await type(form, '/level', '2');
    await pick(form, '', 'pager');
    expect(control(form, '/body').value).toBe('hello');
    await type(form, '/pagerNumber', '+4420555');
    expect(await submitted(form)).toEqual({ body: 'hello', level: 2, route: 'pager', pagerNumber: '+4420555' });
  });

  test('C24 with the member from the root allOf, sent as a number', async () => {
    const form = await mount({ tool: notify() });
    await pick(form, '', 'inbox');
    await type(form, '/body', 'hello');
    await type(form, '/mailbox', 'ops@example.test');
    await type(form, '/level', '3');
    expect(await submitted(form)).toEqual({ body: 'hello', route: 'inbox', mailbox: 'ops@example.test', level: 3 });
  });

  test('C24 a missing member of the chosen variant: not sent, "Required." at it, the rest kept', async () => {
    const form = await mount({ tool: notify() });
    await pick(form, '', 'pager');
    await type(form, '/body', 'hello');
    expect(await submitted(form)).toBeUndefined();
    expect(errorOf(form, '/pagerNumber')).toBe('Required.');
    expect(control(form, '/body').value).toBe('hello');
    expect(pointers(form)).toEqual(['/pagerNumber']);
  });

  test('C24 untouched: not sent; the shown variant\'s member and the root member are flagged on the first submit', async () => {
    const form = await mount({ tool: notify() });
    expect(await submitted(form)).toBeUndefined();
    expect(pointers(form)).toEqual(['/body', '/mailbox']);
    expect(errorOf(form, '/body')).toBe('Required.');
    expect(errorOf(form, '/mailbox')).toBe('Required.');
  });
});

describe('every error in one pass: a union beside members of its own', () => {
  test('a root-level oneOf with root members and a root allOf: every missing required member is flagged on the first submit', async () => {
    const form = await mount({
      tool: tool('file_report', {
        type: 'object',
        properties: { heading: { type: 'string' } },
        required: ['heading'],
        allOf: [{ properties: { owner: { type: 'string' } }, required: ['owner'] }],
        oneOf: [
          { properties: { kind: { const: 'bug' }, steps: { type: 'string' } }, required: ['kind', 'steps'] },
          { properties: { kind: { const: 'idea' }, benefit: { type: 'string' } }, required: ['kind', 'benefit'] },
        ],
      }),
    });
    expect(await submitted(form)).toBeUndefined();
    expect(pointers(form)).toEqual(['/heading', '/owner', '/steps']);
    await type(form, '/heading', 'Crash on save');
    expect(await submitted(form)).toBeUndefined();
    expect(pointers(form)).toEqual(['/owner', '/steps']);
    await type(form, '/owner', 'sam');
    await type(form, '/steps', 'Save twice');
    expect(await submitted(form)).toEqual({ heading: 'Crash on save', owner: 'sam', kind: 'bug', steps: 'Save twice' });
  });

  test('a nested union with members of its own: its members and the chosen variant\'s are flagged together', async () => {
    const form = await mount({
      tool: tool('ship', {
        type: 'object',
        properties: {
          parcel: {
            type: 'object',
            properties: { reference: { type: 'string' }, weight: { type: 'number', exclusiveMinimum: 0 } },
            required: ['reference', 'weight'],
            oneOf: [
              { properties: { via: { const: 'road' }, depot: { type: 'string' } }, required: ['via', 'depot'] },
              { properties: { via: { const: 'air' }, airport: { type: 'string', minLength: 3 } }, required: ['via', 'airport'] },
            ],
          },
        },
        required: ['parcel'],
      }),
    });
    await pick(form, '/parcel', 'air');
    await type(form, '/parcel/weight', '0');
    expect(await submitted(form)).toBeUndefined();
    expect(pointers(form)).toEqual(['/parcel/airport', '/parcel/reference', '/parcel/weight']);
    expect(errorOf(form, '/parcel/weight')).toBe('Must be greater than 0.');
  });
});

describe('a failed call leaves no result that looks current', () => {
  test('the previous result is marked stale when the next call fails, and current again after a success', async () => {
    let failing = false;
    const wrapped: FetchLike = (input, init) => (failing ? Promise.reject(new TypeError('Failed to fetch')) : fetch(input, init));
    const client = new McpClient(inject('demoServerUrl'), { fetch: wrapped });
    const main = document.createElement('main');
    main.append(Object.assign(document.createElement('h1'), { textContent: 'Weather' }));
    document.body.append(main);
    const form = await mount({ toolName: 'get_weather', client, into: main });
    await expect.poll(() => root(form).querySelector('[data-pointer="/city"]'), { timeout: 10_000 }).not.toBeNull();
    await click(form, part(root(form), 'submit-button'));
    await expect.poll(() => form.result, { timeout: 10_000 }).toBeDefined();
    const view = part(root(form), 'result');
    expect(view.matches('[part~="result-stale"]')).toBe(false);
    expect(root(form).querySelector('[part~="stale-note"]')).toBeNull();

    failing = true;
    await type(form, '/city', 'Porto');
    await click(form, part(root(form), 'submit-button'));
    await expect.poll(() => root(form).querySelector('[part~="call-error"]'), { timeout: 10_000 }).not.toBeNull();
    // Still there to compare with, but marked as an earlier call's, not the answer to "Porto".
    expect(part(root(form), 'result').matches('[part~="result-stale"]')).toBe(true);
    expect(part(root(form), 'stale-note').textContent).toMatch(/earlier call/);
    expect(form.resultStale).toBe(true);
    expect(await axeViolations()).toEqual([]);

    failing = false;
    await click(form, part(root(form), 'submit-button'));
    await expect.poll(() => (form.result?.structuredContent as { city?: string } | undefined)?.city, { timeout: 10_000 }).toBe('Porto');
    expect(part(root(form), 'result').matches('[part~="result-stale"]')).toBe(false);
    expect(root(form).querySelector('[part~="stale-note"]')).toBeNull();
    expect(form.resultStale).toBe(false);
  });
});

describe('a union whose own keyword fails is never sent', () => {
  test('oneOf matched by two variants at once: refused, with the union-level error at the field', async () => {
    const form = await mount({
      tool: tool('tag_item', {
        type: 'object',
        properties: {
          pick: {
            oneOf: [
              { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
              { type: 'object', properties: { label: { type: 'string' } } },
            ],
          },
        },
        required: ['pick'],
      }),
    });
    await type(form, '/pick/code', 'x1');
    expect(await submitted(form)).toBeUndefined();
    expect(pointers(form)).toEqual(['/pick']);
    expect(errorOf(form, '/pick')).toMatch(/more than one of the options/);
    expect(errorOf(form, '/pick')).toContain('object with code');
    expect(errorOf(form, '/pick')).toContain('object with label');
  });

  test('anyOf with a sibling not: the excluded value is refused at the field; another is sent', async () => {
    const form = await mount({
      tool: tool('set_mode', {
        type: 'object',
        properties: { mode: { anyOf: [{ type: 'string' }, { type: 'integer' }], not: { const: 'off' } } },
        required: ['mode'],
      }),
    });
    await userEvent.fill(control(form, '/mode', 'input'), 'off');
    expect(await submitted(form)).toBeUndefined();
    expect(pointers(form)).toEqual(['/mode']);
    expect(errorOf(form, '/mode')).toBe('This value is not allowed.');
    await userEvent.fill(control(form, '/mode', 'input'), 'eco');
    expect(await submitted(form)).toEqual({ mode: 'eco' });
  });

  test('a not on an object is reported together with the errors of its members', async () => {
    const form = await mount({
      tool: tool('book_range', {
        type: 'object',
        properties: {
          range: {
            type: 'object',
            properties: { first: { type: 'integer' }, last: { type: 'integer' } },
            required: ['first', 'last'],
            not: { properties: { first: { const: 0 } }, required: ['first'] },
          },
        },
        required: ['range'],
      }),
    });
    await type(form, '/range/first', '0');
    expect(await submitted(form)).toBeUndefined();
    expect(pointers(form)).toEqual(['/range', '/range/last']);
    expect(errorOf(form, '/range')).toBe('This value is not allowed.');
  });
});

describe('an untouched empty required text field is flagged like a native required input', () => {
  test('flagged at submit and marked required for the browser; explicitly cleared to "" it may be sent', async () => {
    const form = await mount({ tool: tool('find', { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }) });
    expect(control(form, '/q').required).toBe(true);
    expect(control(form, '/q').validity.valueMissing).toBe(true);
    expect(await submitted(form)).toBeUndefined();
    expect(errorOf(form, '/q')).toBe('Required.');
    expect(root(form).activeElement).toBe(control(form, '/q'));
    // Typed and cleared again: "" is what the user chose, and the schema allows it.
    await type(form, '/q', 'x');
    await clear(form, '/q');
    expect(control(form, '/q').required).toBe(false);
    expect(await submitted(form)).toEqual({ q: '' });
  });

  test('calendar-like members of a required object are flagged together, not sent as ""', async () => {
    const form = await mount({
      tool: tool('add_event', {
        type: 'object',
        properties: { event: { type: 'object', properties: { title: { type: 'string' }, start: { type: 'string' }, end: { type: 'string' } }, required: ['title', 'start', 'end'] } },
        required: ['event'],
      }),
    });
    await type(form, '/event/title', 'Standup');
    expect(await submitted(form)).toBeUndefined();
    expect(pointers(form)).toEqual(['/event/end', '/event/start']);
  });

  test('an added list item left empty is flagged, not sent as ""', async () => {
    const form = await mount({ tool: tool('tag', { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } }) });
    await click(form, ownButton(form, '/tags', 'add-button'));
    expect(await submitted(form)).toBeUndefined();
    expect(pointers(form)).toEqual(['/tags/0']);
    await type(form, '/tags/0', 'blue');
    expect(await submitted(form)).toEqual({ tags: ['blue'] });
  });

  test('a value restored as "" stays "" (the user or a saved call chose it)', async () => {
    const form = await mount({ tool: tool('find', { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }) });
    form.arguments = { q: '' };
    await form.updateComplete;
    expect(await submitted(form)).toEqual({ q: '' });
  });
});

describe('arrays of enum values keep order and repeats', () => {
  const sizes = { type: 'array', items: { type: 'string', enum: ['small', 'medium', 'large'] } };
  const setOf = { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['first', 'second', 'third'] } };

  test('without uniqueItems an ordered list: repeats and order are shown and sent as given', async () => {
    const form = await mount({ tool: tool('order', { type: 'object', properties: { sizes } }) });
    expect(field(form, '/sizes').querySelector('input[type="checkbox"]')).toBeNull();
    form.arguments = { sizes: ['large', 'small', 'large'] };
    await form.updateComplete;
    expect(field(form, '/sizes').querySelectorAll(':scope > ol > li')).toHaveLength(3);
    expect(await submitted(form)).toEqual({ sizes: ['large', 'small', 'large'] });
    await click(form, ownButton(form, '/sizes', 'add-button'));
    await userEvent.click(field(form, '/sizes/3').querySelector('label[part~="option"] input')!);
    await form.updateComplete;
    expect(await submitted(form)).toEqual({ sizes: ['large', 'small', 'large', 'small'] });
  });

  test('with uniqueItems checkboxes; a restored order is kept, and a ticked box joins in schema order', async () => {
    const form = await mount({ tool: tool('rank', { type: 'object', properties: { picks: setOf } }) });
    form.arguments = { picks: ['third', 'first'] };
    await form.updateComplete;
    const boxes = () => [...field(form, '/picks').querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
    expect(boxes().map((box) => box.checked)).toEqual([true, false, true]);
    expect(await submitted(form)).toEqual({ picks: ['third', 'first'] });
    const fresh = await mount({ tool: tool('rank', { type: 'object', properties: { picks: setOf } }) });
    const freshBoxes = [...field(fresh, '/picks').querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
    await click(fresh, freshBoxes[2]!);
    await click(fresh, freshBoxes[0]!);
    expect(await submitted(fresh)).toEqual({ picks: ['first', 'third'] });
  });

  test('a value checkboxes cannot show (a repeat, an unknown value) is kept in an ordered list, and refused with the reason', async () => {
    const form = await mount({ tool: tool('rank', { type: 'object', properties: { picks: setOf } }) });
    form.arguments = { picks: ['first', 'first'] };
    await form.updateComplete;
    expect(form.value).toEqual({ picks: ['first', 'first'] });
    expect(field(form, '/picks').querySelector('input[type="checkbox"]')).toBeNull();
    expect(field(form, '/picks').querySelectorAll(':scope > ol > li')).toHaveLength(2);
    expect(await submitted(form)).toBeUndefined();
    expect(errorOf(form, '/picks')).toMatch(/same/);
    form.arguments = { picks: ['second', 'fourth'] };
    await form.updateComplete;
    expect(form.value).toEqual({ picks: ['second', 'fourth'] });
    expect(await submitted(form)).toBeUndefined();
  });
});

describe('a restored value lands in the union variant it validates against', () => {
  test('free text in a date-or-text union shows in the text variant; a date in the date variant', async () => {
    const schema = { type: 'object', properties: { when: { anyOf: [{ type: 'string', format: 'date' }, { type: 'string' }] } } };
    const form = await mount({ tool: tool('remind', schema) });
    form.arguments = { when: 'next week' };
    await form.updateComplete;
    expect(pickerChoice(form, '/when')).toBe('text');
    expect(control(form, '/when', 'input:not([part~="variant-picker"])').value).toBe('next week');
    expect(await submitted(form)).toEqual({ when: 'next week' });
    form.arguments = { when: '2026-03-01' };
    await form.updateComplete;
    expect(pickerChoice(form, '/when')).toBe('date');
    expect(control(form, '/when', 'input').type).toBe('date');
    expect(control(form, '/when', 'input').value).toBe('2026-03-01');
  });

  test('objects: the variant whose member types fit, not the first with the same member names; defaults too', async () => {
    const schema = {
      type: 'object',
      properties: {
        limit: {
          oneOf: [
            { title: 'Named', type: 'object', properties: { size: { type: 'string', enum: ['s', 'm'] } }, additionalProperties: false },
            { title: 'Exact', type: 'object', properties: { size: { type: 'integer' } }, required: ['size'], additionalProperties: false },
          ],
          default: { size: 12 },
        },
      },
    };
    const form = await mount({ tool: tool('cap', schema) });
    expect(pickerChoice(form, '/limit')).toBe('Exact');
    expect(control(form, '/limit/size').value).toBe('12');
    form.arguments = { limit: { size: 40 } };
    await form.updateComplete;
    expect(pickerChoice(form, '/limit')).toBe('Exact');
    expect(await submitted(form)).toEqual({ limit: { size: 40 } });
  });
});
