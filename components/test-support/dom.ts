/**
 * Helpers for the element tests (real Chromium): mounting markup, waiting for
 * events, and an axe accessibility check.
 */
import axe from 'axe-core';

/** Appends an element built from `markup` to the document and returns it. */
export function mount<T extends Element = HTMLElement>(markup: string): T {
  const template = document.createElement('template');
  template.setHTMLUnsafe(markup);
  const element = template.content.firstElementChild as T;
  document.body.append(element);
  return element;
}

/** Resolves with the next `type` event on `target` (rejects after `timeoutMs`). */
export function nextEvent<T extends Event = Event>(target: EventTarget, type: string, timeoutMs = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} event within ${timeoutMs} ms`)), timeoutMs);
    target.addEventListener(type, (event) => {
      clearTimeout(timer);
      resolve(event as T);
    }, { once: true });
  });
}

/** Runs axe on the document and returns the violations (ids and targets), for `toEqual([])`. */
export async function axeViolations(context: axe.ElementContext = document): Promise<{ id: string; targets: string[] }[]> {
  const result = await axe.run(context, { resultTypes: ['violations'] });
  return result.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** Removes everything a test mounted. */
export function cleanup(): void {
  document.body.replaceChildren();
}
