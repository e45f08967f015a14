/**
 * `<mcp-tool-form>` re-renders only what changed (issue 18: a keystroke must
 * not re-render every field nor rebuild every argument). These tests go after
 * what such caching could get wrong: a field skipped by a render whose
 * listeners still hold an earlier render's state, a built branch reused after
 * its value changed, a place reused by another item or another tool. Each
 * asserts the real arguments and controls, in real Chromium.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { McpToolCallEvent } from '../events.js';
import { clear, click, control, errorOf, field, itemButton, mount, openPreview, ownButton, part, submitted, tool, type } from '../test-support/tool-form.js';

afterEach(() => {
  document.body.replaceChildren();
});

const trip = tool('trip', {
  type: 'object',
  properties: {
    title: { type: 'string' },
    guests: { type: 'integer', minimum: 1 },
    notes: { type: 'string' },
    stay: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        nights: { type: 'integer' },
        room: { type: 'object', properties: { floor: { type: 'integer' }, view: { type: 'string' } } },
      },
    },
    stops: { type: 'array', items: { type: 'string' } },
  },
  required: ['title'],
});

describe('fields a render skips keep working with the latest arguments', () => {
  test('typing in one field, then in its siblings and cousins, keeps every value', async () => {
    const form = await mount({ tool: trip });
    await type(form, '/title', 'Spring');
    await type(form, '/stay/city', 'Porto');
    // The sibling fields were skipped by the last two renders: their listeners must still see both values.
    await type(form, '/notes', 'window seat');
    await type(form, '/stay/nights', '3');
    await type(form, '/guests', '2');
    await type(form, '/title', 'Spring break');
    expect(form.value).toEqual({ title: 'Spring break', guests: 2, notes: 'window seat', stay: { city: 'Porto', nights: 3 } });
    expect(await submitted(form)).toEqual({ title: 'Spring break', guests: 2, notes: 'window seat', stay: { city: 'Porto', nights: 3 } });
    expect(control(form, '/stay/city').value).toBe('Porto');
  });

  test('a collapsed object opened, typed into, then its parent edited: the value stays, and the preview says so', async () => {
    const form = await mount({ tool: trip });
    await click(form, ownButton(form, '/stay/room', 'add-button'));
    await type(form, '/stay/room/floor', '4');
    await type(form, '/stay/city', 'Lyon');
    await type(form, '/stay/room/view', 'river');
    await type(form, '/title', 'Autumn');
    expect(form.value).toEqual({ title: 'Autumn', stay: { city: 'Lyon', room: { floor: 4, view: 'river' } } });
    expect(JSON.parse(part(await openPreview(form), 'preview-json').textContent!)).toEqual(form.value);
    // Cleared again: the emptied members are omitted, the open object stays open.
    await clear(form, '/stay/room/floor');
    await clear(form, '/stay/room/view');
    expect(form.value).toEqual({ title: 'Autumn', stay: { city: 'Lyon' } });
    expect(control(form, '/stay/room/floor').value).toBe('');
  });

  test('an item removed, then the item now in its place typed into', async () => {
    const form = await mount({ tool: trip });
    const add = () => ownButton(form, '/stops', 'add-button');
    await click(form, add());
    await type(form, '/stops/0', 'Ghent');
    await click(form, add());
    await type(form, '/stops/1', 'Bruges');
    await click(form, add());
    await type(form, '/stops/2', 'Ypres');
    await click(form, itemButton(form, '/stops', 0, 'remove-button'));
    expect([0, 1].map((i) => control(form, `/stops/${i}`).value)).toEqual(['Bruges', 'Ypres']);
    await type(form, '/stops/0', 'Bruges-Centrum');
    await type(form, '/stops/1', 'Ieper');
    expect(form.value).toEqual({ stops: ['Bruges-Centrum', 'Ieper'] });
    await click(form, itemButton(form, '/stops', 1, 'move-button'));
    await type(form, '/stops/1', 'Brugge');
    expect(form.value).toEqual({ stops: ['Ieper', 'Brugge'] });
  });

  test('two map rows with the same name each keep their own value', async () => {
    const form = await mount({ tool: tool('env', { type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'string' } } } }) });
    const addRow = () => field(form, '/env').querySelector<HTMLButtonElement>(':scope > [part~="rows"] > [part~="add-button"]')!;
    await click(form, addRow());
    await click(form, addRow());
    const keys = () => field(form, '/env').querySelectorAll<HTMLInputElement>('input[part~="key"]');
    await userEvent.fill(keys()[0]!, 'MODE');
    await userEvent.fill(keys()[1]!, 'MODE');
    await form.updateComplete;
    const values = () => [...field(form, '/env').querySelectorAll<HTMLInputElement>('[part~="row"] input:not([part~="key"])')];
    await userEvent.fill(values()[0]!, 'fast');
    await userEvent.fill(values()[1]!, 'safe');
    await form.updateComplete;
    expect(values().map((input) => input.value)).toEqual(['fast', 'safe']);
    expect(errorOf(form, '/env')).toBeUndefined();
    expect(await submitted(form)).toBeUndefined();
    expect(errorOf(form, '/env')).toContain('"MODE" is used twice');
    await userEvent.fill(keys()[1]!, 'LEVEL');
    await form.updateComplete;
    expect(await submitted(form)).toEqual({ env: { MODE: 'fast', LEVEL: 'safe' } });
  });

  test('a union variant typed into after its sibling changed, and after switching back (the focused field the switch removes writes nothing)', async () => {
    const form = await mount({
      tool: tool('pay', {
        type: 'object',
        properties: {
          memo: { type: 'string' },
          method: {
            oneOf: [
              { type: 'object', title: 'card', properties: { number: { type: 'string' }, holder: { type: 'string' } }, required: ['number'] },
              { type: 'object', title: 'iban', properties: { iban: { type: 'string' } }, required: ['iban'] },
            ],
          },
        },
      }),
    });
    await type(form, '/method/number', '4111');
    await type(form, '/memo', 'rent');
    await type(form, '/method/holder', 'A. Lee');
    expect(form.value).toEqual({ memo: 'rent', method: { number: '4111', holder: 'A. Lee' } });
    await userEvent.selectOptions(part<HTMLSelectElement>(field(form, '/method'), 'variant-picker'), 'iban');
    await form.updateComplete;
    await type(form, '/method/iban', 'DE89');
    await type(form, '/memo', 'rent june');
    await userEvent.selectOptions(part<HTMLSelectElement>(field(form, '/method'), 'variant-picker'), 'card');
    await form.updateComplete;
    await type(form, '/method/holder', 'B. Lee');
    expect(form.value).toEqual({ memo: 'rent june', method: { number: '4111', holder: 'B. Lee' } });
  });
});

describe('problems shown move with the values', () => {
  test('after a refused submit, fixing one field clears its error only; a new problem shows at once', async () => {
    const form = await mount({ tool: trip });
    await type(form, '/guests', '0');
    expect(await submitted(form)).toBeUndefined();
    expect(errorOf(form, '/title')).toBe('Required.');
    expect(errorOf(form, '/guests')).toBe('Must be at least 1.');
    await type(form, '/title', 'Winter');
    expect(errorOf(form, '/title')).toBeUndefined();
    expect(errorOf(form, '/guests')).toBe('Must be at least 1.');
    expect(control(form, '/guests').getAttribute('aria-invalid')).toBe('true');
    await type(form, '/guests', '2');
    expect(errorOf(form, '/guests')).toBeUndefined();
    expect(control(form, '/guests').hasAttribute('aria-invalid')).toBe(false);
    // A new problem shows at once, at its field only.
    await type(form, '/guests', '-3');
    expect(errorOf(form, '/guests')).toBe('Must be at least 1.');
    expect(errorOf(form, '/title')).toBeUndefined();
    await type(form, '/guests', '3');
    expect(await submitted(form)).toEqual({ title: 'Winter', guests: 3 });
  });
});

describe('after a refused submit, a keystroke checks its field alone (issue 30)', () => {
  test('what the key changes elsewhere (a member it makes required) shows on blur, not per key; the field\'s own problem shows at once', async () => {
    const form = await mount({
      tool: tool('span', {
        type: 'object',
        properties: { title: { type: 'string' }, from: { type: 'string', minLength: 3 }, to: { type: 'string' }, guests: { type: 'integer', minimum: 1 } },
        required: ['title'],
        dependentRequired: { from: ['to'] },
      }),
    });
    await type(form, '/guests', '3');
    // The problem "from" makes (at the arguments object: "to" is required when "from" is given).
    const requiresTo = () => form.issues.some((issue) => issue.pointer === '' && issue.message.includes('"to"'));
    expect(await submitted(form)).toBeUndefined();
    expect(errorOf(form, '/title')).toBe('Required.');
    expect(requiresTo()).toBe(false);
    await userEvent.click(control(form, '/from'));
    await userEvent.keyboard('R');
    await form.updateComplete;
    // Its own problem at once; checked alone, without a whole-form pass, so the member "from" makes
    // required is not flagged yet, and the other problems stay.
    expect(errorOf(form, '/from')).toMatch(/3/);
    expect(requiresTo()).toBe(false);
    expect(errorOf(form, '/title')).toBe('Required.');
    await userEvent.keyboard('ome');
    await form.updateComplete;
    expect(errorOf(form, '/from')).toBeUndefined();
    expect(requiresTo()).toBe(false);
    expect(errorOf(form, '/title')).toBe('Required.');
    // Blur: the whole form again.
    await userEvent.click(control(form, '/guests'));
    await form.updateComplete;
    expect(requiresTo()).toBe(true);
    expect(errorOf(form, '/title')).toBe('Required.');
    await userEvent.keyboard('{Backspace}0');
    await form.updateComplete;
    expect(errorOf(form, '/guests')).toBe('Must be at least 1.');
    expect(requiresTo()).toBe(true);
    await type(form, '/title', 'Trip');
    await type(form, '/to', 'Oslo');
    await type(form, '/guests', '2');
    expect(await submitted(form)).toEqual({ title: 'Trip', from: 'Rome', to: 'Oslo', guests: 2 });
  });
});

describe('values set from outside, and another tool', () => {
  test('.arguments set while fields were typed into replaces them all; typing goes on from there', async () => {
    const form = await mount({ tool: trip });
    await type(form, '/title', 'Draft');
    await type(form, '/notes', 'old note');
    form.arguments = { title: 'Saved', stay: { city: 'Oslo', nights: 2 } };
    await form.updateComplete;
    expect(control(form, '/title').value).toBe('Saved');
    expect(control(form, '/notes').value).toBe('');
    expect(control(form, '/stay/city').value).toBe('Oslo');
    await type(form, '/stay/nights', '5');
    await type(form, '/notes', 'new note');
    expect(form.value).toEqual({ title: 'Saved', notes: 'new note', stay: { city: 'Oslo', nights: 5 } });
    form.reset();
    await form.updateComplete;
    expect(control(form, '/title').value).toBe('');
    expect(control(form, '/stay/city').value).toBe('');
    expect(form.value).toEqual({});
    await type(form, '/stay/city', 'Bergen');
    expect(form.value).toEqual({ stay: { city: 'Bergen' } });
  });

  test('switching the tool while typing: the new tool starts empty, the old values do not leak into it', async () => {
    const form = await mount({ tool: trip });
    await type(form, '/title', 'Old trip');
    await type(form, '/stay/city', 'Riga');
    // Same member names, another tool.
    form.tool = tool('trip2', { type: 'object', properties: { title: { type: 'string' }, stay: { type: 'object', properties: { city: { type: 'string' } } } } });
    await form.updateComplete;
    expect(control(form, '/title').value).toBe('');
    expect(control(form, '/stay/city').value).toBe('');
    expect(form.value).toEqual({});
    await type(form, '/stay/city', 'Vilnius');
    expect(form.value).toEqual({ stay: { city: 'Vilnius' } });
    form.tool = trip;
    await form.updateComplete;
    expect(control(form, '/stay/city').value).toBe('');
    await type(form, '/title', 'Back');
    expect(form.value).toEqual({ title: 'Back' });
  });

  test('arguments a listener changes after a call do not come back in later arguments', async () => {
    const form = await mount({ tool: trip });
    await type(form, '/title', 'Kept');
    await type(form, '/stay/city', 'Turku');
    form.addEventListener(
      'mcp-tool-call',
      (event: McpToolCallEvent) => {
        const args = event.detail.arguments as { stay: { city: string } };
        args.stay.city = 'changed by a listener';
      },
      { once: true, capture: true },
    );
    expect(await submitted(form)).toEqual({ title: 'Kept', stay: { city: 'changed by a listener' } });
    await type(form, '/notes', 'x');
    expect(form.value).toEqual({ title: 'Kept', notes: 'x', stay: { city: 'Turku' } });
    expect(JSON.parse(part(await openPreview(form), 'preview-json').textContent!)).toEqual({ title: 'Kept', notes: 'x', stay: { city: 'Turku' } });
  });
});

describe('wide objects', () => {
  test('members past the first 30 are laid out only near the view (content-visibility), and are typed into and sent like the others', async () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++) properties[`m${i}`] = { type: 'string', description: `Member ${i}` };
    const form = await mount({ tool: tool('wide', { type: 'object', properties }) });
    expect(getComputedStyle(field(form, '/m3')).contentVisibility).toBe('visible');
    expect(getComputedStyle(field(form, '/m45')).contentVisibility).toBe('auto');
    await type(form, '/m45', 'far down');
    await type(form, '/m2', 'near the top');
    await type(form, '/m59', 'last');
    expect(form.value).toEqual({ m2: 'near the top', m45: 'far down', m59: 'last' });
    expect(control(form, '/m45').value).toBe('far down');
  });
});

describe('the focused text field', () => {
  test('is held at its size while focused (typing lays it out alone), and released on blur; what is typed is kept', async () => {
    const form = await mount({ tool: trip });
    const input = control(form, '/stay/city');
    const height = input.getBoundingClientRect().height;
    await userEvent.click(input);
    expect(input.style.contain).toBe('size layout');
    expect(parseFloat(input.style.blockSize)).toBeCloseTo(height, 2);
    await userEvent.keyboard('Nantes');
    await form.updateComplete;
    expect(input.getBoundingClientRect().height).toBeCloseTo(height, 2);
    await userEvent.click(control(form, '/notes'));
    expect(input.style.contain).toBe('');
    expect(input.style.blockSize).toBe('');
    expect(control(form, '/notes').style.contain).toBe('size layout');
    expect(form.value).toEqual({ stay: { city: 'Nantes' } });
    // Not a textarea (the user may resize it), nor a checkbox.
    const editor = await mount({ tool: tool('free', { type: 'object', properties: { meta: { type: 'object' }, ok: { type: 'boolean' } } }) });
    await userEvent.click(control<HTMLTextAreaElement>(editor, '/meta', 'textarea'));
    expect(control<HTMLTextAreaElement>(editor, '/meta', 'textarea').style.contain).toBe('');
    await userEvent.click(control(editor, '/ok'));
    expect(control(editor, '/ok').style.contain).toBe('');
  });

  test('reused by a render for a field of another type (a tool switch keeps the focused input), it is held at the size of the new field', async () => {
    const form = await mount({ tool: tool('one', { type: 'object', properties: { a: { type: 'string' } } }) });
    const input = control(form, '/a');
    await userEvent.click(input);
    expect(input.style.contain).toBe('size layout');
    form.tool = tool('two', { type: 'object', properties: { d: { type: 'string', format: 'date' }, e: { type: 'string', format: 'date' } } });
    await form.updateComplete;
    // Lit kept the focused <input> and made it a date input: a date input is taller than a text input.
    const held = control(form, '/d');
    expect(held).toBe(input);
    expect(held.type).toBe('date');
    expect(held.style.contain).toBe('size layout');
    expect(held.getBoundingClientRect().height).toBeCloseTo(control(form, '/e').getBoundingClientRect().height, 2);
    const natural = control(form, '/e').getBoundingClientRect().height;
    await userEvent.click(control(form, '/e'));
    expect(held.style.contain).toBe('');
    expect(held.getBoundingClientRect().height).toBeCloseTo(natural, 2);
  });
});

describe('what a keystroke leaves alone', () => {
  test('the form\'s states: an update that changes none sets none (setting a state the element has restyles it in Chromium), and a change still shows', async () => {
    const form = await mount({ tool: trip });
    await type(form, '/title', 'Spring');
    const add = vi.spyOn(CustomStateSet.prototype, 'add');
    const remove = vi.spyOn(CustomStateSet.prototype, 'delete');
    try {
      await type(form, '/title', 'Spring break');
      await type(form, '/stay/city', 'Porto');
      expect(add).not.toHaveBeenCalled();
      expect(remove).not.toHaveBeenCalled();
      await type(form, '/guests', '0');
      form.validate();
      await form.updateComplete;
      expect(form.matches(':state(invalid)')).toBe(true);
      expect(add.mock.calls).toEqual([['invalid']]);
      await type(form, '/guests', '2');
      expect(form.matches(':state(invalid)')).toBe(false);
      expect(form.matches(':state(ready)')).toBe(true);
    } finally {
      add.mockRestore();
      remove.mockRestore();
    }
  });
});

describe('several fields filled in one task (a browser or password manager autofilling the form)', () => {
  const fill = (form: Awaited<ReturnType<typeof mount>>, values: Record<string, string>) => {
    // All in one task, no render between them: each input event must add to what the one before did.
    for (const [pointer, value] of Object.entries(values)) {
      const input = control(form, pointer);
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    }
  };

  test('siblings at the top level and inside a nested object, and a list item, all arrive', async () => {
    const form = await mount({ tool: trip });
    await click(form, ownButton(form, '/stops', 'add-button'));
    await type(form, '/stay/city', 'Oslo');
    fill(form, { '/title': 'Fjords', '/notes': 'aisle', '/stay/city': 'Bergen', '/stay/nights': '2', '/stops/0': 'Flåm' });
    await form.updateComplete;
    expect(form.value).toEqual({ title: 'Fjords', notes: 'aisle', stay: { city: 'Bergen', nights: 2 }, stops: ['Flåm'] });
    expect(await submitted(form)).toEqual({ title: 'Fjords', notes: 'aisle', stay: { city: 'Bergen', nights: 2 }, stops: ['Flåm'] });
  });
});

describe('boxes ticked in one task (a script or an extension ticking several choices)', () => {
  test('every box ticked or unticked before the next render counts, in the schema order', async () => {
    const form = await mount({
      tool: tool('extras', { type: 'object', properties: { extras: { type: 'array', items: { type: 'string', enum: ['wifi', 'parking', 'breakfast', 'late checkout'] }, uniqueItems: true } } }),
    });
    const boxes = field(form, '/extras').querySelectorAll<HTMLInputElement>('input[type="checkbox"]');
    await click(form, boxes[1]!);
    // Three changes with no render between them.
    for (const [index, checked] of [
      [3, true],
      [0, true],
      [1, false],
    ] as const) {
      boxes[index]!.checked = checked;
      boxes[index]!.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
    }
    await form.updateComplete;
    expect(form.value).toEqual({ extras: ['wifi', 'late checkout'] });
    expect(await submitted(form)).toEqual({ extras: ['wifi', 'late checkout'] });
  });
});
