/**
 * Registers a custom element once. Two copies of the kit on one page are
 * realistic (a host app and a widget), and `customElements.define` throws on a
 * second registration of the same tag.
 */
export function defineElement(tag: string, constructor: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, constructor);
}
