/**
 * What the client declares to the server on each request (spec: basic/index
 * "_meta": capabilities are per request): the input handlers registered, the
 * newest per method answering, and the extensions declared (extensions
 * overview "Negotiation"), turned into the `ClientCapabilities` sent.
 *
 * @module
 */
import type { ClientCapabilities, InputRequestMethod, JsonObject } from '../protocol/types.js';
import type { InputHandlers } from '../rounds/handlers.js';

export class Declarations {
  readonly #handlers: Partial<{ [K in InputRequestMethod]: InputHandlers[K][] }> = {};
  /** Declared extensions, newest last per id. */
  readonly #extensions: [id: string, settings: JsonObject][] = [];

  /**
   * Registers a handler; it answers `method` until removed (or a later one is registered).
   * @returns a function that removes it, and says whether it was still registered.
   */
  addHandler<K extends InputRequestMethod>(method: K, handler: InputHandlers[K]): () => boolean {
    const list = (this.#handlers[method] ??= []) as InputHandlers[K][];
    list.push(handler);
    return () => {
      const index = list.lastIndexOf(handler);
      if (index >= 0) list.splice(index, 1);
      return index >= 0;
    };
  }

  /** The handler answering `method` now: the newest registered. */
  handler<K extends InputRequestMethod>(method: K): InputHandlers[K] | undefined {
    const list = this.#handlers[method] as InputHandlers[K][] | undefined;
    return list?.[list.length - 1];
  }

  /**
   * Declares an extension; declarations of one id stack (the newest settings apply).
   * @returns a function that removes it, and says whether it was still declared.
   */
  declare(id: string, settings: JsonObject): () => boolean {
    const entry: [string, JsonObject] = [id, settings];
    this.#extensions.push(entry);
    return () => {
      const index = this.#extensions.indexOf(entry);
      if (index >= 0) this.#extensions.splice(index, 1);
      return index >= 0;
    };
  }

  /**
   * The capabilities to declare now: `base` (the `capabilities` option) plus exactly the
   * input requests a handler can answer, and the extensions. `legacy`: a legacy server,
   * to which roots are declared with `listChanged`.
   */
  capabilities(base: ClientCapabilities | undefined, legacy: boolean): ClientCapabilities {
    // Sent with every request: a copy only when there is something to copy (a clone per request showed in a browser's profile).
    const capabilities: ClientCapabilities = base ? structuredClone(base) : {};
    const elicitation = this.handler('elicitation/create');
    if (elicitation && elicitation.modes.length > 0) {
      capabilities.elicitation ??= {};
      for (const mode of elicitation.modes) capabilities.elicitation[mode] = {};
    }
    const sampling = this.handler('sampling/createMessage');
    if (sampling) capabilities.sampling = { ...capabilities.sampling, ...(sampling.tools ? { tools: {} } : {}) };
    if (this.handler('roots/list')) capabilities.roots = legacy ? { listChanged: true } : { ...capabilities.roots };
    if (this.#extensions.length > 0) {
      // Later declarations win; ids are the page's, so "__proto__" stays an own key.
      const extensions: Record<string, JsonObject> = { ...capabilities.extensions };
      for (const [id, settings] of this.#extensions) Object.defineProperty(extensions, id, { value: settings, enumerable: true, writable: true, configurable: true });
      capabilities.extensions = extensions;
    }
    return capabilities;
  }
}
