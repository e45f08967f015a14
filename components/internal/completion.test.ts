/**
 * The completion controller behind every combobox of the kit: requests are
 * debounced, the one in flight is aborted when the value changes, and a late
 * answer to an older value is never shown.
 */
import { LitElement } from 'lit';
import { describe, expect, test, vi } from 'vitest';
import { CompletionController, type ComboboxField, type Suggestions } from './completion.js';

class Host extends LitElement {
  readonly completions = new CompletionController(this, 100);
}
customElements.define('completion-host', Host);

describe('CompletionController', () => {
  test('debounces: several keystrokes within the pause ask once, for the last value', async () => {
    const host = document.body.appendChild(new Host());
    const asked: string[] = [];
    const field: ComboboxField = { id: 'f', source: async (value) => (asked.push(value), { values: [`${value}!`] }), pick: () => {} };
    for (const value of ['p', 'py', 'pyt']) host.completions.input(field, value);
    await vi.waitFor(() => expect(host.completions.isOpen('f')).toBe(true), { timeout: 10_000 });
    expect(asked).toEqual(['pyt']);
    expect(host.completions.suggestions('f')).toEqual(['pyt!']);
    host.remove();
  });

  test('a newer value aborts the request in flight; its late answer is dropped', async () => {
    const host = document.body.appendChild(new Host());
    const signals: AbortSignal[] = [];
    let releaseFirst!: (value: Suggestions) => void;
    const field: ComboboxField = {
      id: 'g',
      source: (value, signal) => {
        signals.push(signal);
        if (value === 'a') return new Promise<Suggestions>((resolve) => (releaseFirst = resolve));
        return Promise.resolve({ values: ['ab', 'abc'] });
      },
      pick: () => {},
    };
    host.completions.input(field, 'a');
    await vi.waitFor(() => expect(signals).toHaveLength(1), { timeout: 10_000 });
    host.completions.input(field, 'ab');
    expect(signals[0]!.aborted).toBe(true);
    await vi.waitFor(() => expect(host.completions.suggestions('g')).toEqual(['ab', 'abc']), { timeout: 10_000 });
    releaseFirst({ values: ['stale'] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.completions.suggestions('g')).toEqual(['ab', 'abc']);
    host.completions.close('g');
    expect(host.completions.isOpen('g')).toBe(false);
    host.remove();
  });
});
