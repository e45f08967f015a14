/**
 * The drafts of `<mcp-tool-form>`: what the user typed, stored per server and
 * tool as it is typed (IndexedDB through internal/drafts.ts, loaded when a form
 * with drafts connects), written to the tab's journal when the page goes away,
 * and restored when the form shows that tool again. Two tabs never overwrite
 * each other's draft silently: a newer draft of another tab is a conflict the
 * user resolves. The form keeps the draft itself; this keeps it stored.
 *
 * @module
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { journalDraft, revisionOf, type StoredDraft } from '../internal/draft-journal.js';
import { onPageLeave } from '../internal/journal.js';
import type { Draft } from './draft.js';

/**
 * Draft storage (internal/drafts.ts with the store and idb-keyval), loaded when
 * a form with drafts connects: a page whose forms keep no drafts never does.
 * The journal written on `pagehide` (draft-journal.ts) is here at once.
 */
type Drafts = typeof import('../internal/drafts.js');
let drafts: Drafts | undefined;
let draftsLoading: Promise<Drafts | undefined> | undefined;
const loadDrafts = () =>
  (draftsLoading ??= (async () => import('../internal/drafts.js'))().then(
    (module) => (drafts = module),
    () => {
      // A chunk that cannot load (offline): no drafts now; the next form to connect tries again.
      draftsLoading = undefined;
      return undefined;
    },
  ));

/** What the drafts read and change of the form. */
export interface DraftForm {
  /** The draft the form shows. */
  draft(): Draft | undefined;
  /** Shows a stored draft in the form. */
  show(draft: Draft | undefined): void;
  /** The model the form shows (a draft read for another one is not shown). */
  model(): unknown;
  /** The other tab's draft was taken in place of this one (shown already). */
  took(): void;
}

/** Keeps the draft of one `<mcp-tool-form>` stored (see the module). */
export class FormDrafts implements ReactiveController {
  readonly #host: ReactiveControllerHost & { readonly noDrafts: boolean };
  readonly #form: DraftForm;
  /** Something was edited since the form was set up: a stored draft read after that does not replace it. */
  edited = false;
  /** The server and tool (as a draft key) of what the form shows: set with the model, and when the first client comes. */
  shownFor: string | undefined;
  /** Revision of the stored draft the one in the form started from (`''`: none was stored). */
  #draftBase = '';
  /** Edits not stored yet. */
  #unsaved = false;
  #saving: Promise<void> | undefined;
  #saveAgain = false;
  /** Another tab stored a newer draft of this tool: nothing is saved until the user picks one. */
  #conflict: StoredDraft<Draft> | undefined;
  /** Drafts cannot be stored durably here (told once per page). */
  #storageNotice: string | undefined;
  #stopLeave: (() => void) | undefined;

  constructor(host: ReactiveControllerHost & { readonly noDrafts: boolean }, form: DraftForm) {
    this.#host = host;
    this.#form = form;
    host.addController(this);
  }

  hostConnected(): void {
    // Before the page goes away, what is unsaved goes to the tab's journal.
    this.#stopLeave = onPageLeave(this.flush);
    if (!this.#host.noDrafts) void loadDrafts();
  }

  hostDisconnected(): void {
    this.#stopLeave?.();
    this.flush();
  }

  /** Starts over for a model shown under the draft key `shownFor`: nothing stored yet, no conflict; `edited` when arguments were set for it. */
  start(shownFor: string | undefined, edited: boolean): void {
    this.shownFor = shownFor;
    this.#setConflict(undefined);
    this.edited = edited;
    this.#draftBase = '';
    this.#unsaved = false;
  }

  /** The key of the draft shown: the server and the tool the form was set up for. */
  #draftStorageKey(): string | undefined {
    return this.#host.noDrafts ? undefined : this.shownFor;
  }

  async restore(): Promise<void> {
    const key = this.#draftStorageKey();
    const model = this.#form.model();
    if (!key || !(await loadDrafts())) return;
    const { stored, journal } = await drafts!.loadDraft<Draft>(key);
    this.#takeStorageNotice();
    if (this.#form.model() !== model || this.#draftStorageKey() !== key) return;
    if (this.edited) {
      // Typing that came before the stored draft was read wins, as the user sees it.
      this.#draftBase = revisionOf(stored);
      return;
    }
    if (journal) {
      // Input a reload interrupted before it was stored: this tab's latest; stored now (a newer draft of another tab is a conflict).
      this.#form.show(journal.draft);
      // What the interrupted page stored itself is no other tab's.
      this.#draftBase = stored && stored.writer !== undefined && stored.writer === journal.writer ? revisionOf(stored) : (journal.base ?? '');
      this.#unsaved = true;
      this.#save();
    } else if (stored) {
      this.#form.show(stored.draft);
      this.#draftBase = revisionOf(stored);
    }
  }

  /** The form's draft changed (an edit, or a reset that clears it): stored at once, not after a pause (a reload a moment later must not lose it). */
  changed(): void {
    this.edited = true;
    this.#unsaved = true;
    this.#save();
  }

  /** The form was reset: a conflict is dropped, and this tab's stored draft deleted (another tab's newer one stays: it is not this form's to delete). */
  cleared(): void {
    this.#setConflict(undefined);
    this.changed();
  }

  /** Stores the draft now, one write at a time (edits made meanwhile are stored right after). */
  #save(): void {
    if (this.#saving) {
      this.#saveAgain = true;
      return;
    }
    this.#saving = this.#writeDraft().finally(() => {
      this.#saving = undefined;
      if (this.#saveAgain) {
        this.#saveAgain = false;
        this.#save();
      }
    });
  }

  async #writeDraft(force = false): Promise<void> {
    const key = this.#draftStorageKey();
    if (!key || (this.#conflict && !force) || !this.#unsaved || !(await loadDrafts())) return;
    const draft = this.#form.draft();
    const outcome = await drafts!.saveDraft(key, draft, this.#draftBase, force);
    this.#takeStorageNotice();
    if (this.#draftStorageKey() !== key) return;
    if (outcome.saved) {
      this.#draftBase = outcome.rev;
      if (this.#form.draft() === draft) this.#unsaved = false;
    } else {
      this.#setConflict(outcome.conflict);
    }
  }

  /** Writes unsaved input to the tab's journal (synchronous) and starts storing it. */
  readonly flush = (): void => {
    const key = this.#draftStorageKey();
    if (!key || !this.#unsaved) return;
    journalDraft(key, this.#form.draft(), this.#draftBase);
    this.#save();
  };

  #setConflict(conflict: StoredDraft<Draft> | undefined): void {
    if (conflict === this.#conflict) return;
    this.#conflict = conflict;
    this.#host.requestUpdate();
  }

  #setStorageNotice(notice: string | undefined): void {
    if (notice === this.#storageNotice) return;
    this.#storageNotice = notice;
    this.#host.requestUpdate();
  }

  #takeStorageNotice(): void {
    const notice = drafts?.takeStorageNotice();
    if (notice) this.#setStorageNotice(notice);
  }

  /** Resolves a draft conflict: keep what this tab has (stored over the other), or take the other tab's. */
  #resolveConflict(keep: 'mine' | 'theirs'): void {
    const conflict = this.#conflict;
    if (!conflict) return;
    this.#draftBase = revisionOf(conflict);
    this.#setConflict(undefined);
    if (keep === 'theirs') {
      this.#form.show(conflict.draft);
      this.#unsaved = false;
      this.edited = true;
      this.#form.took();
    } else {
      this.#unsaved = true;
      this.#save();
    }
  }

  /** The conflict with another tab's draft, and the notice that drafts are not stored durably, when there are. */
  notices(): TemplateResult {
    const conflict = this.#conflict;
    return html`${conflict
      ? html`<div part="draft-conflict" role="alert">
          <p>
            These arguments were also edited in another tab (its draft was saved at ${new Date(conflict.savedAt).toLocaleTimeString()}). Nothing is saved here
            until you choose which draft to keep.
          </p>
          <button type="button" part="keep-draft-button" @click=${() => this.#resolveConflict('mine')}>Keep this tab's</button>
          <button type="button" part="load-draft-button" @click=${() => this.#resolveConflict('theirs')}>Use the other tab's</button>
        </div>`
      : nothing}
    ${this.#storageNotice
      ? html`<div part="draft-notice" role="status">
          ${this.#storageNotice}
          <button type="button" part="dismiss-button" class="small" @click=${() => this.#setStorageNotice(undefined)}>Dismiss</button>
        </div>`
      : nothing}`;
  }
}
