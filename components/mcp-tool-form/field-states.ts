/**
 * What the user opened in the fields of `<mcp-tool-form>`: the folded objects,
 * long descriptions and long values shown (by JSON Pointer, with a `#…`
 * suffix for the last two; the tool's description too), the objects shown past
 * their first page of members. Forgotten with each new tool. With the
 * problems to show and the suggestions of URI fields, it is what the field
 * renderer asks of the form (RenderHost). The searches of long choices are
 * kept with their combobox, which loads on demand (long-choices.ts).
 *
 * @module
 */
import type { ReactiveControllerHost } from 'lit';
import { tokens } from '../internal/json.js';
import type { RenderHost } from './field-scope.js';
import type { FormIssue } from './issues.js';
import type { FormModel } from './model.js';

/** Keeps what the user opened in the fields of one `<mcp-tool-form>` (see the module). */
export class FieldStates {
  readonly #host: ReactiveControllerHost;
  #expanded = new Set<string>();
  /** Declared members shown per object (by pointer), past the first page. */
  #shownMembers = new Map<string, number>();

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
  }

  /** What the renderer's skipping depends on besides drafts and problems (each replaced, never changed, when it changes). */
  get states(): readonly unknown[] {
    return [this.#expanded, this.#shownMembers];
  }

  isExpanded(key: string): boolean {
    return this.#expanded.has(key);
  }

  setExpanded(key: string, open: boolean): void {
    const next = new Set(this.#expanded);
    if (open) next.add(key);
    else next.delete(key);
    this.#setExpanded(next);
  }

  toggle(key: string): void {
    const next = new Set(this.#expanded);
    if (!next.delete(key)) next.add(key);
    this.#setExpanded(next);
  }

  #setExpanded(next: Set<string>): void {
    this.#expanded = next;
    this.#host.requestUpdate();
  }

  /** Forgets what was opened: everything (another tool), or what is expanded (a reset). */
  reset(all: boolean): void {
    this.#expanded = new Set();
    if (all) this.#shownMembers = new Map();
    this.#host.requestUpdate();
  }

  /**
   * The form as the field renderer sees it: `model`, the problems at each
   * pointer (`issues`), the suggestions of URI fields (`completion`), and what
   * is opened here; an object shows `membersPerPage` members at first.
   */
  host(model: FormModel, issues: readonly FormIssue[], completion: RenderHost['completion'], membersPerPage: number): RenderHost {
    return {
      model,
      errorsAt: (pointer, claims) => {
        const out: string[] = [];
        for (const issue of issues) {
          if (issue.pointer === pointer) out.push(issue.message);
          else if (claims !== 'none' && issue.pointer.startsWith(`${pointer}/`)) {
            const next = tokens(issue.pointer.slice(pointer.length))[0] ?? '';
            if (claims === 'all' || claims(next)) out.push(issue.message);
          }
        }
        return out;
      },
      completion,
      isExpanded: (pointer) => this.isExpanded(pointer),
      setExpanded: (pointer, open) => this.setExpanded(pointer, open),
      shownMembers: (pointer) => this.#shownMembers.get(pointer) ?? membersPerPage,
      setShownMembers: (pointer, count) => {
        this.#shownMembers = new Map(this.#shownMembers).set(pointer, count);
        this.#host.requestUpdate();
      },
      update: () => this.#host.requestUpdate(),
    };
  }
}
