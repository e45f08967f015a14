/**
 * What `<mcp-elicitation-dialog>` (mcp-elicitation-dialog.ts) and its body
 * (dialog-body.ts, loaded with `import()`) share: the element as the body sees
 * it, what the element lends the body, and the types of the element's answer
 * settings. Declared here, not in the element's module, so that the body does
 * not import the element back.
 *
 * @module
 */
import type { ReactiveElement } from 'lit';
import type { CreateMessageRequestParams, CreateMessageResult, InputContext, InputRequest, InputResponse, McpClient, Root, RoundEvent } from '../../src/index.js';
import type { McpErrorEvent, McpToolResultEvent } from '../events.js';

/** An automatic answer policy: a named one, or a function returning a response (or undefined to ask the user). */
export type InputPolicy =
  | 'ask'
  | 'accept-defaults'
  | 'decline'
  | 'cancel'
  | ((request: InputRequest, context: InputContext) => InputResponse | undefined | Promise<InputResponse | undefined>);

/** A host's model call for sampling: its answer is shown as an editable draft. */
export type SamplingDraft = (params: CreateMessageRequestParams, context: InputContext) => Promise<CreateMessageResult>;

/** `<mcp-elicitation-dialog>` as its body sees it: its settings, its update cycle and shadow root. */
export interface DialogElement extends ReactiveElement {
  /** The client to answer for. */
  readonly client: McpClient | undefined;
  /** Automatic answers (the body applies `accept-defaults`). */
  readonly policy: InputPolicy;
  /** A host's model call, for sampling drafts. */
  readonly samplingHandler: SamplingDraft | undefined;
  /** Don't store rounds for resume. */
  readonly noResume: boolean;
  /** Show requests in the page flow (a non-modal dialog). */
  readonly inline: boolean;
  /** Requests whose form answer must be reviewed before it is sent (the host's policy marks them sensitive). */
  readonly reviewRequired: ((request: InputRequest, context: InputContext) => boolean) | undefined;
}

/** What the element lends its body: its state kept before the body loaded, and what only it may do. */
export interface DialogHost {
  internals: ElementInternals;
  /** Round events per call (`callKey`). */
  rounds: Map<string, RoundEvent[]>;
  /** Rounds refused as a whole (`roundKey`). */
  refused: Map<string, 'decline' | 'cancel'>;
  /** Roots to offer: the element's, else its connection's. */
  roots(): Root[] | undefined;
  /** Shows a notice beside the page. */
  tell(text: string): void;
  /** Fires one of the element's events (a resumed call's result or failure). */
  emit(event: McpToolResultEvent | McpErrorEvent): void;
}
