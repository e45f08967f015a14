/**
 * The calls `<mcp-elicitation-dialog>` is asking about, stored so that a
 * reload can resume them (pending.ts holds the records): one record per call,
 * written each round, its answers written as they are typed, one write at a
 * time per call, and the tab's journal written when the page goes away. A
 * call's record goes when the call ends; a record whose call this tab still
 * asks about is held (locked) so that no other tab offers it.
 *
 * @module
 */
import type { InputContext, InputRequiredResult, McpClient, RoundEvent } from '../../src/index.js';
import { takeStorageNotice } from '../internal/store.js';
import type { Ask } from './ask.js';
import { callKey } from './calls.js';
import type { DialogElement, DialogHost } from './dialog-host.js';
import { clearPending, holdPending, journalPending, saveAnswers, savePending, type PendingCall, type SavedAnswer } from './pending.js';

/** A call the dialog keeps for resume: its record id, the lock that marks it alive, and its writes. */
interface StoredCall {
  id: string;
  release: () => void;
  record?: PendingCall;
  saving?: Promise<void>;
  again?: boolean;
  /** The record itself (not only its answers) has changed since it was last written. */
  callDirty?: boolean;
  /** The record itself was stored (only its answers may be behind). */
  callStored?: boolean;
}


/** The stored calls of one dialog. */
export class ResumeStore {
  readonly #el: DialogElement;
  readonly #host: DialogHost;
  /** Calls this dialog is asking about, stored for resume: record id and the lock that marks them alive. */
  readonly #calls = new Map<string, StoredCall>();

  constructor(element: DialogElement, host: DialogHost) {
    this.#el = element;
    this.#host = host;
  }

  /** A round event of a call: a finished call's record goes. */
  onRound(key: string, event: RoundEvent): void {
    const stored = this.#calls.get(key);
    if (stored && (event.phase === 'complete' || event.phase === 'error')) {
      this.#calls.delete(key);
      stored.release();
      void clearPending(stored.id);
    }
  }

  /** The dialog left the page: the records stay, to be offered again, and their locks go. */
  release(): void {
    for (const { release } of this.#calls.values()) release();
    this.#calls.clear();
  }

  /**
   * Stores the round the user is being asked about, so a reload can resume it. Only
   * rounds this dialog shows are stored — not manual-mode calls, nor ones a host or
   * a policy answered — one record per call, updated each round.
   */
  persist(client: McpClient, context: InputContext): void {
    if (this.#el.noResume) return;
    const key = callKey(client, context.callId);
    const round = this.#host.rounds.get(key)?.findLast((event) => event.phase === 'input_required');
    if (!round) return;
    let stored = this.#calls.get(key);
    if (!stored) {
      const id = crypto.randomUUID();
      stored = { id, release: holdPending(id) };
      this.#calls.set(key, stored);
    }
    const interim: InputRequiredResult = {
      resultType: 'input_required',
      ...(round.inputRequests ? { inputRequests: round.inputRequests } : {}),
      ...(round.requestState !== undefined ? { requestState: round.requestState } : {}),
    };
    // A new round keeps no answers of the last one (its requests are new).
    const answers = stored.record && stored.record.interim.requestState === interim.requestState && stored.record.interim.inputRequests === interim.inputRequests ? stored.record.answers : undefined;
    stored.record = { id: stored.id, url: client.url.href, method: round.method, target: round.target, params: round.params, interim, ...(answers ? { answers } : {}), savedAt: Date.now() };
    this.#write(stored);
  }

  /**
   * Stores a call's record (`what: 'call'`, once a round: it holds the
   * server's requests, which may be large) or only its answers (on every
   * change), one write at a time per call; a change made meanwhile is written
   * right after.
   */
  #write(stored: StoredCall, what: 'call' | 'answers' = 'call'): void {
    if (what === 'call') {
      stored.callDirty = true;
      stored.callStored = false;
    }
    if (stored.saving) {
      stored.again = true;
      return;
    }
    const record = stored.record;
    if (!record) return;
    const whole = stored.callDirty === true;
    stored.callDirty = false;
    stored.saving = (whole ? savePending(record).then(() => {
          stored.callStored = true;
        }) : saveAnswers(record.id, record.answers ?? {})).finally(() => {
      stored.saving = undefined;
      const notice = takeStorageNotice();
      if (notice) this.#host.tell(notice);
      if (stored.again) {
        stored.again = false;
        this.#write(stored, 'answers');
      }
    });
  }

  /** Records what the user typed for `ask` with its call, as it is typed (a reload must not lose it). */
  saveAnswer(ask: Ask): void {
    const stored = this.#calls.get(callKey(ask.client, ask.context.callId));
    if (!stored?.record) return;
    const answer: SavedAnswer = { values: [...ask.values], typed: [...ask.typed], ...(ask.draft ? { reply: ask.draft.text } : {}) };
    const answers: Record<string, SavedAnswer> = {};
    for (const [key, value] of Object.entries(stored.record.answers ?? {})) Object.defineProperty(answers, key, { value, enumerable: true, writable: true, configurable: true });
    Object.defineProperty(answers, ask.context.key, { value: answer, enumerable: true, writable: true, configurable: true });
    stored.record = { ...stored.record, answers, savedAt: Date.now() };
    this.#write(stored, 'answers');
  }

  /** Writes every stored call to this tab's journal (from `pagehide`: synchronous, the page may be gone before an IndexedDB write ends). */
  journal(): void {
    for (const stored of this.#calls.values()) if (stored.record) journalPending(stored.record, !stored.callStored || stored.callDirty === true);
  }
}
