/**
 * The page's colour scheme, which every kit element follows (never the system
 * preference alone).
 *
 * The elements do not declare a `color-scheme` of their own: they inherit the
 * page's (`color-scheme` on the root or any ancestor, or
 * `<meta name="color-scheme">`), and their `light-dark()` and system colours
 * resolve against it. A page that declares nothing is light, as browsers
 * render it; the system preference matters only where the page says
 * `light dark`. Many pages switch themes with a class or attribute instead,
 * without touching `color-scheme`: `class="dark"` / `class="light"`,
 * `data-theme`, `data-bs-theme` (Bootstrap) or `data-color-scheme` set to
 * `dark` or `light` on `<html>` or `<body>` (`<body>` wins). Those set the
 * `scheme-dark` / `scheme-light` state on each element, and
 * {@link schemeStyles} turn it into its `color-scheme`.
 *
 * @module
 */
import { css, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { toggleState } from './dom.js';

/** The attributes whose `dark` / `light` value names the page's scheme. */
const ATTRIBUTES = ['data-theme', 'data-bs-theme', 'data-color-scheme'];

/** The states' effect; put first in an element's `styles`. */
export const schemeStyles = css`
  :host(:state(scheme-light)) {
    color-scheme: light;
  }
  :host(:state(scheme-dark)) {
    color-scheme: dark;
  }
`;

function schemeOf(element: Element | null | undefined): 'light' | 'dark' | undefined {
  if (!element) return undefined;
  for (const name of ATTRIBUTES) {
    const value = element.getAttribute(name)?.trim().toLowerCase();
    if (value === 'dark' || value === 'light') return value;
  }
  if (element.classList.contains('dark')) return 'dark';
  if (element.classList.contains('light')) return 'light';
  return undefined;
}

/** The scheme the page names by class or attribute on `<body>` or `<html>`, if any. */
export function declaredScheme(): 'light' | 'dark' | undefined {
  return schemeOf(document.body) ?? schemeOf(document.documentElement);
}

/**
 * The scheme `element` is drawn in: its `light-dark()` colours resolved, so
 * the page's `color-scheme` (inherited, or from `<meta name="color-scheme">`),
 * the class conventions and, where the page allows both, the system's choice
 * all count.
 */
export function usedScheme(element: HTMLElement): 'light' | 'dark' {
  const probe = document.createElement('span');
  probe.hidden = true;
  probe.style.color = 'light-dark(rgb(0, 0, 0), rgb(255, 255, 255))';
  (element.shadowRoot ?? element).append(probe);
  const dark = getComputedStyle(probe).color === 'rgb(255, 255, 255)';
  probe.remove();
  return dark ? 'dark' : 'light';
}

const followers = new Set<() => void>();
let observer: MutationObserver | undefined;
let observedBody: HTMLElement | null = null;

function observe(): void {
  observer ??= new MutationObserver(() => {
    if (document.body !== observedBody) observe();
    for (const follow of followers) follow();
  });
  observer.disconnect();
  const options = { attributes: true, attributeFilter: ['class', ...ATTRIBUTES] };
  observer.observe(document.documentElement, { ...options, childList: true });
  observedBody = document.body;
  if (observedBody) observer.observe(observedBody, options);
}

/**
 * Keeps an element's `scheme-dark` / `scheme-light` state in step with the
 * page's class or attribute convention (one observer for all elements).
 * `onChange` runs after each change of the page's theme markers.
 */
export class PageSchemeController implements ReactiveController {
  readonly #internals: ElementInternals;
  readonly #onChange: (() => void) | undefined;
  readonly #follow = (): void => {
    const scheme = declaredScheme();
    toggleState(this.#internals, 'scheme-dark', scheme === 'dark');
    toggleState(this.#internals, 'scheme-light', scheme === 'light');
    this.#onChange?.();
  };

  constructor(host: ReactiveControllerHost, internals: ElementInternals, onChange?: () => void) {
    this.#internals = internals;
    this.#onChange = onChange;
    host.addController(this);
  }

  hostConnected(): void {
    // One observer for the page, kept once made (issue 30): a page that shows one element after another
    // (a chat's tool forms) re-observed <html> and <body> on each first render; with no element it has an empty set to call.
    if (!observer || document.body !== observedBody) observe();
    followers.add(this.#follow);
    this.#follow();
  }

  hostDisconnected(): void {
    followers.delete(this.#follow);
  }
}
