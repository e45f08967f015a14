/**
 * The searched list of a long choice (internal/combobox.ts) loads on demand.
 * When its chunk cannot load (offline), the form shows the tool anyway: the
 * searched field is a plain text input whose text is still checked against the
 * values (a value typed in full is sent, other text is flagged and never
 * sent), nothing is left unhandled, and the next form or tool that needs the
 * combobox tries again. Every import() of the chunk fails while `offline`
 * (test-support/lazy-imports.ts); this file runs in its own page, so the chunk
 * has not been loaded before.
 */
import { afterEach, expect, test } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../index.js';
import { offlineImport } from '../test-support/lazy-imports.js';
import { errorOf, field, mount, part, submitted, tool } from '../test-support/tool-form.js';

const combobox = offlineImport(/combobox/, true);

afterEach(() => document.body.replaceChildren());

const cities = Array.from({ length: 150 }, (_, i) => `city-${i}`);
const trip = () => tool('trip', { type: 'object', properties: { city: { type: 'string', enum: cities }, note: { type: 'string' } }, required: ['city'] });

test('the combobox cannot load: the long choice is a text input checked against the values; back online, the next form or tool has the combobox', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (event: PromiseRejectionEvent) => {
    unhandled.push(event.reason);
    event.preventDefault();
  };
  window.addEventListener('unhandledrejection', onUnhandled);
  try {
    const form = await mount({ tool: trip() });
    expect(combobox.attempts).toBe(1);
    const input = field(form, '/city').querySelector<HTMLInputElement>('input')!;
    expect(input.getAttribute('role')).toBeNull();
    expect(input.getAttribute('part')).toBe('control search');
    expect(part(field(form, '/city'), 'hint').textContent).toContain('150 allowed values: type one in full');
    expect(field(form, '/note').querySelector('input')).not.toBeNull();

    // A value typed in full (spaces around it aside) is that value.
    await userEvent.fill(input, ' city-42 ');
    await userEvent.tab();
    await form.updateComplete;
    expect(form.value).toEqual({ city: 'city-42' });
    expect(await submitted(form)).toEqual({ city: 'city-42' });
    // Other text is kept as typed, flagged, and never sent.
    await userEvent.fill(input, 'Atlantis');
    await userEvent.tab();
    await form.updateComplete;
    expect(await submitted(form)).toBeUndefined();
    expect(errorOf(form, '/city')).toContain('“Atlantis” is not one of the allowed values');
    expect(input.value).toBe('Atlantis');
    // The form does not ask again for the tool it shows.
    expect(combobox.attempts).toBe(1);

    // Back online: the next form loads it; the first keeps its plain input for this tool (no control changes under the user's typing).
    combobox.offline = false;
    const next = await mount({ tool: trip() });
    expect(combobox.attempts).toBe(2);
    expect(field(next, '/city').querySelector('input[role="combobox"]')).not.toBeNull();
    await userEvent.fill(input, 'city-4');
    await form.updateComplete;
    expect(field(form, '/city').querySelector('input')!.getAttribute('role')).toBeNull();
    // Another tool with a long choice shows it with the combobox.
    form.tool = tool('stay', { type: 'object', properties: { hotel: { enum: cities.map((city) => `hotel in ${city}`) } } });
    await form.updateComplete;
    expect(field(form, '/hotel').querySelector('input[role="combobox"]')).not.toBeNull();
    // A macrotask for a rejection nobody handled to be reported.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(unhandled).toEqual([]);
  } finally {
    window.removeEventListener('unhandledrejection', onUnhandled);
  }
});
