/**
 * Answering input requests (spec: basic/patterns/mrtr "Client Requirements";
 * client/elicitation, client/sampling, client/roots) through the handlers
 * registered with `McpClient.setInputHandler`. Loaded lazily by the client the
 * first time a server asks for input.
 *
 * @module
 */
import { McpClientError, McpError, type McpRpcError } from '../protocol/errors.js';
import { untilAborted } from '../util/sleep.js';
import type { HandlerLookup, InputContext, RoundLimits } from './handlers.js';
import { isObject, type CreateMessageRequestParams, type ElicitRequestParams, type ElicitResult, type InputRequest, type InputRequests, type InputResponse, type InputResponses, type JsonObject } from '../protocol/types.js';


/**
 * Checks that a request can be answered — known method, declared capability and
 * mode — before the user is asked anything (MRTR-11 of the client checklist).
 * Also checks the params every UI relies on: `message` (and `url` or an object
 * `requestedSchema`) of an elicitation, `messages` of a sampling request.
 * @throws McpClientError `protocol` for a malformed request, `input_unsupported` for an undeclared one.
 */
export function checkAnswerable(lookup: HandlerLookup, url: string, key: string, request: unknown): InputRequest {
  if (!isObject(request) || typeof request.method !== 'string') {
    throw new McpClientError('protocol', `Input request "${key}" is not a request object`, { url, key });
  }
  if (request.params !== undefined && !isObject(request.params)) {
    throw new McpClientError('protocol', `Input request "${key}" has non-object params`, { url, key });
  }
  const method = request.method;
  const params = (request.params ?? {}) as JsonObject;
  const malformed = (what: string) => new McpClientError('protocol', `Input request "${key}" (${method}) is malformed: ${what}`, { url, key, inputMethod: method });
  const refuse = (what: string, data: JsonObject = {}) =>
    new McpClientError('input_unsupported', `The server asked for ${what} ("${key}"), which this client did not declare`, { url, key, ...data });
  if (method === 'elicitation/create') {
    const mode = params.mode ?? 'form';
    if (mode !== 'form' && mode !== 'url') throw new McpClientError('input_unsupported', `Input request "${key}" asks for elicitation mode ${JSON.stringify(mode)}`, { url, key, mode });
    if (!lookup('elicitation/create')?.modes.includes(mode)) throw refuse(`${mode}-mode elicitation`, { mode });
    // The shapes every UI relies on (schema.json ElicitRequestFormParams / ElicitRequestURLParams).
    if (typeof params.message !== 'string') throw malformed('"message" is not a string');
    if (mode === 'url' && typeof params.url !== 'string') throw malformed('"url" is not a string');
    if (mode === 'form') {
      const schema = params.requestedSchema;
      if (!isObject(schema) || (schema.properties !== undefined && !isObject(schema.properties))) throw malformed('"requestedSchema" is not an object schema with object "properties"');
    }
  } else if (method === 'sampling/createMessage') {
    const handler = lookup('sampling/createMessage');
    if (!handler) throw refuse('sampling');
    if (params.tools !== undefined && !handler.tools) throw refuse('sampling with tools');
    const messages = params.messages;
    if (!Array.isArray(messages) || !messages.every((m) => isObject(m) && typeof m.role === 'string' && (isObject(m.content) || Array.isArray(m.content)))) {
      throw malformed('"messages" is not an array of { role, content }');
    }
  } else if (method === 'roots/list') {
    if (!lookup('roots/list')) throw refuse('roots');
  } else {
    throw new McpClientError('input_unsupported', `Input request "${key}" has unknown method ${JSON.stringify(method)}`, { url, key, inputMethod: method });
  }
  return request as InputRequest;
}

/** Default cap on the input requests of one round (`maxInputRequests`). */
export const DEFAULT_MAX_INPUT_REQUESTS = 16;

/**
 * Marks the responses of a round declined for asking too much (see
 * {@link answerAll}): the number of requests it carried. A symbol, so no
 * server-chosen key can clash with it; `RoundEvent.inputResponses` carries it.
 */
export const DECLINED_ROUND = Symbol.for('mcp-web-elements.declined-round');

/**
 * Answers every request of one round, in order, after checking all of them.
 *
 * A round with more than `maxInputRequests` requests is a flood (a thousand
 * dialogs, one after another): no handler is called and the round is declined
 * — every elicitation answered `decline`, every roots request with no roots; a
 * sampling request has no refusal answer and is left out (basic/patterns/mrtr
 * lets the server ask again for what is missing). The caller sends that back,
 * so the server learns the round was refused; an `input-flood` warning and
 * {@link DECLINED_ROUND} on the responses let a UI tell the user.
 * @returns the responses keyed exactly like the requests.
 */
export async function answerAll(
  lookup: HandlerLookup,
  requests: InputRequests,
  base: Omit<InputContext, 'key' | 'index' | 'total'>,
  options: RoundLimits = {},
): Promise<InputResponses> {
  const keys = Object.keys(requests);
  const responses: InputResponses = {};
  // Keys are the server's: "__proto__" must become an own key, not the prototype.
  const put = (key: string, value: InputResponse) => Object.defineProperty(responses, key, { value, enumerable: true, writable: true, configurable: true });
  const max = options.maxInputRequests ?? DEFAULT_MAX_INPUT_REQUESTS;
  if (keys.length > max) {
    for (const key of keys) {
      const method = (requests[key] as { method?: unknown } | undefined)?.method;
      if (method === 'elicitation/create') put(key, { action: 'decline' });
      else if (method === 'roots/list') put(key, { roots: [] });
    }
    const message = `${base.method} asked for ${keys.length} inputs in one round (more than maxInputRequests, ${max}); declined them all without asking`;
    // The client's own warning path, here so that it loads only with floods.
    if (options.onWarning) options.onWarning({ code: 'input-flood', message });
    else console.warn(`[mcp-web-elements] ${message}`);
    Object.defineProperty(responses, DECLINED_ROUND, { value: keys.length });
    return responses;
  }
  const entries = keys.map((key) => [key, checkAnswerable(lookup, base.url, key, requests[key])] as const);
  let index = 0;
  for (const [key, request] of entries) {
    if (base.signal.aborted) throw new McpClientError('aborted', `${base.method} was aborted`, { url: base.url, method: base.method });
    put(key, await answerOne(lookup, request, { ...base, key, index: index++, total: entries.length }));
  }
  return responses;
}

/** How a round is answered on behalf of a request or a task (see {@link answerRound}). */
export interface RoundRun {
  /** The caller's signal (a call's, or a task wait's), if any. */
  signal?: AbortSignal;
  /** The client's controllers that `close()` aborts: the round's joins them while it runs. */
  inflight: Set<AbortController>;
  /** Maps an abort reason to the error the round rejects with; default: the reason itself. */
  abortReason?: (reason: unknown) => unknown;
}

/**
 * Answers one round of input requests, for a multi round-trip request and for
 * a task in `input_required` alike (basic/patterns/mrtr "Client Requirements";
 * Tasks extension "Task Update Requests"). The handlers' signal is the
 * caller's plus the client's `close()` (a dialog must not stay open on a
 * closed client), and the answers are raced with it: a handler that ignores
 * its signal (awaits a user forever) cannot hold the call.
 * @returns the responses keyed exactly like the requests.
 * @throws the reason of an abort (through `run.abortReason`), or what
 *   {@link answerAll} throws.
 */
export async function answerRound(
  lookup: HandlerLookup,
  requests: InputRequests,
  base: Omit<InputContext, 'key' | 'index' | 'total' | 'signal'>,
  limits: RoundLimits,
  run: RoundRun,
): Promise<InputResponses> {
  const handlers = new AbortController();
  run.inflight.add(handlers);
  const signal = run.signal ? AbortSignal.any([run.signal, handlers.signal]) : handlers.signal;
  try {
    return await untilAborted(answerAll(lookup, requests, { ...base, signal }, limits), signal, run.abortReason);
  } catch (error) {
    throw signal.aborted && McpError.isInstance(signal.reason) ? signal.reason : error;
  } finally {
    run.inflight.delete(handlers);
  }
}

/** Answers one request with its handler. */
export async function answerOne(lookup: HandlerLookup, request: InputRequest, context: InputContext): Promise<InputResponse> {
  const params = (request.params ?? {}) as JsonObject;
  const missing = (what: string) => new McpClientError('input_unsupported', `No ${what} handler is registered`, { url: context.url });
  switch (request.method) {
    case 'elicitation/create': {
      const handler = lookup('elicitation/create');
      if (!handler) throw missing('elicitation');
      const answer = await handler.handle(params as unknown as ElicitRequestParams, context);
      if (!isObject(answer) || !['accept', 'decline', 'cancel'].includes(answer.action as string)) {
        throw new McpClientError('protocol', 'The elicitation handler returned no valid action', { key: context.key });
      }
      return answer;
    }
    case 'sampling/createMessage': {
      const handler = lookup('sampling/createMessage');
      if (!handler) throw missing('sampling');
      return handler.handle(params as unknown as CreateMessageRequestParams, context);
    }
    case 'roots/list': {
      const handler = lookup('roots/list');
      if (!handler) throw missing('roots');
      return handler.handle(request.params, context);
    }
    default:
      throw new McpClientError('input_unsupported', `Unknown input request method ${JSON.stringify((request as { method: unknown }).method)}`, { url: context.url });
  }
}

/**
 * The pages a 2025-11-25 `-32042` error asks the user to visit (client/elicitation
 * "URL Elicitation Required Error"), as URL-mode `elicitation/create` requests
 * keyed by `elicitationId`: the same consent the URL-mode handler gives a server's
 * own request. Entries lacking `mode`, `elicitationId` or `message` are offered
 * anyway (the error only carries URL mode; the key becomes `elicitation-<n>`, the
 * message the error's) with one developer warning.
 *
 * @returns undefined when nothing can be offered: no URL-mode handler, no
 *   entries, or an entry without a string `url` (the error then stands as sent).
 */
export function urlElicitations(lookup: HandlerLookup, error: McpRpcError, warn: (code: string, message: string) => void): InputRequests | undefined {
  const list = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!lookup('elicitation/create')?.modes.includes('url') || !Array.isArray(list) || list.length === 0) return undefined;
  const requests: InputRequests = {};
  const missing = new Set<string>();
  for (let index = 0; index < list.length; index++) {
    const entry: unknown = list[index];
    if (!isObject(entry) || typeof entry.url !== 'string') return undefined;
    if (entry.mode !== 'url') missing.add('mode');
    if (typeof entry.elicitationId !== 'string') missing.add('elicitationId');
    if (typeof entry.message !== 'string') missing.add('message');
    const key = typeof entry.elicitationId === 'string' ? entry.elicitationId : `elicitation-${index + 1}`;
    const params = { ...entry, mode: 'url', message: typeof entry.message === 'string' ? entry.message : error.message };
    // Keys are the server's: "__proto__" must become an own key, not the prototype.
    Object.defineProperty(requests, key, { value: { method: 'elicitation/create', params }, enumerable: true, writable: true, configurable: true });
  }
  if (missing.size > 0) warn('url-elicitation-malformed', `A -32042 error lists elicitations without ${[...missing].join(', ')} (2025-11-25 client/elicitation); offered to the user anyway`);
  return requests;
}

/**
 * After the user answered the pages of a `-32042` error: returns when every one
 * was accepted (the call is then retried).
 * @throws McpClientError `declined` (cause: the server's error) when one was declined or cancelled.
 */
export function requireAccepted(requests: InputRequests, responses: InputResponses, error: McpRpcError, url: string, method: string): void {
  for (const [key, response] of Object.entries(responses)) {
    const action = (response as ElicitResult).action;
    if (action === 'accept') continue;
    const page = String((requests[key]?.params as { url?: unknown } | undefined)?.url);
    throw new McpClientError('declined', `${method} needs a visit to ${URL.canParse(page) ? new URL(page).host : page} first, and the user answered ${action}`, { url, method, action, key }, { cause: error });
  }
}
