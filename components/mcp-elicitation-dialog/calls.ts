/**
 * Small helpers the dialog's shell (mcp-elicitation-dialog.ts) and its lazily
 * loaded body (dialog-body.ts) share: how calls and rounds are keyed, and the
 * answer to a request refused unasked.
 */
import { McpClientError, type InputContext, type InputResponse, type McpClient } from '../../src/index.js';

/**
 * Requests the dialog lets wait at once (legacy servers send their requests
 * side by side); more are declined without asking, like a flood round.
 */
export const MAX_WAITING = 16;

/** Marks the responses of a round the client declined for asking too much (see `maxInputRequests`). */
export const DECLINED_ROUND = Symbol.for('mcp-web-elements.declined-round');

const clientIds = new WeakMap<McpClient, number>();
let nextClientId = 1;

/** Identifies one call across clients: call ids are numbered per client. */
export function callKey(client: McpClient, callId: number): string {
  let id = clientIds.get(client);
  if (id === undefined) clientIds.set(client, (id = nextClientId++));
  return `${id}:${callId}`;
}

/** Identifies one round of one call. */
export function roundKey(client: McpClient, context: InputContext): string {
  return `${callKey(client, context.callId)}#${context.round}`;
}

/** The answer to a request refused unasked: elicitation `decline`/`cancel`, no roots; sampling has none (an error). */
export function refusalSync(method: string, action: 'decline' | 'cancel', context: InputContext): InputResponse {
  if (method === 'elicitation/create') return { action };
  if (method === 'roots/list') return { roots: [] };
  throw new McpClientError('declined', 'You declined the sampling request', { key: context.key });
}

export async function refusal(method: string, action: 'decline' | 'cancel', context: InputContext): Promise<InputResponse> {
  return refusalSync(method, action, context);
}
