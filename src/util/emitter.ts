/**
 * A tiny typed event emitter (the core has no DOM, and `EventTarget` typing is
 * clumsy). Listener errors are reported, never thrown into the protocol code.
 *
 * @module
 */

export type Listener<T> = (event: T) => void;

export class Emitter<Events extends { [K in keyof Events]: unknown }> {
  readonly #listeners = new Map<keyof Events, Set<Listener<never>>>();

  /**
   * Adds a listener.
   * @returns a function that removes it.
   */
  on<K extends keyof Events>(type: K, listener: Listener<Events[K]>): () => void {
    let set = this.#listeners.get(type);
    if (!set) this.#listeners.set(type, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  /** Whether anyone listens to `type` (lets hot paths skip building events). */
  has<K extends keyof Events>(type: K): boolean {
    return (this.#listeners.get(type)?.size ?? 0) > 0;
  }

  emit<K extends keyof Events>(type: K, event: Events[K]): void {
    const set = this.#listeners.get(type);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[K]>)(event);
      } catch (error) {
        // A broken listener must not break the client; surface it asynchronously.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
