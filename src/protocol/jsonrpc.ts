/**
 * Strict parsing of JSON-RPC 2.0 messages received from a server
 * (spec: basic/index "Messages"). Everything a server sends is untrusted: a
 * message that does not have the exact JSON-RPC shape is rejected with an
 * {@link McpClientError} (`code: 'protocol'`) whose message names what was wrong.
 *
 * @module
 */
import { McpClientError, type McpErrorData } from './errors.js';
import { isObject, parseJson, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse, type RequestId } from './types.js';

/** A parsed incoming message, tagged by kind. */
export type IncomingMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse };


function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}

function fail(what: string, context: McpErrorData): never {
  throw new McpClientError('protocol', `Malformed JSON-RPC message from the server: ${what}`, context);
}

/** Whether `id` is a valid request id: a string or an integer (never null, never fractional). */
export function isRequestId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

/**
 * Validates one decoded JSON value as a JSON-RPC message.
 *
 * @param value - the result of `JSON.parse` on one message.
 * @param context - facts added to the error (URL, method) when it throws.
 * @returns the message tagged with its kind.
 * @throws McpClientError `protocol` naming the first problem found (e.g. "`result` is an array, expected an object").
 */
export function parseMessage(value: unknown, context: McpErrorData = {}): IncomingMessage {
  if (Array.isArray(value)) fail('got a JSON array (a batch); MCP sends one message per frame', context);
  if (!isObject(value)) fail(`got ${describe(value)}, expected a JSON object`, context);
  if (value.jsonrpc !== '2.0') fail(`"jsonrpc" is ${describe(value.jsonrpc)}, expected "2.0"`, context);

  if ('method' in value) {
    if (typeof value.method !== 'string' || value.method === '') fail(`"method" is ${describe(value.method)}, expected a non-empty string`, context);
    if ('params' in value && value.params !== undefined && !isObject(value.params)) {
      fail(`"params" of ${value.method} is ${describe(value.params)}, expected an object`, context);
    }
    if ('id' in value && value.id !== undefined) {
      if (!isRequestId(value.id)) fail(`"id" of request ${value.method} is ${describe(value.id)}, expected a string or an integer`, context);
      return { kind: 'request', message: value as unknown as JsonRpcRequest };
    }
    return { kind: 'notification', message: value as unknown as JsonRpcNotification };
  }

  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) fail(hasResult ? 'has both "result" and "error"' : 'has neither "method", "result" nor "error"', context);

  if (hasResult) {
    if (!isRequestId(value.id)) fail(`"id" of a result is ${describe(value.id)}, expected a string or an integer`, context);
    if (!isObject(value.result)) fail(`"result" is ${describe(value.result)}, expected an object`, context);
    return { kind: 'response', message: value as unknown as JsonRpcResponse };
  }
  // Error responses may lack an id when the server could not read the request (basic/index).
  if ('id' in value && value.id !== null && value.id !== undefined && !isRequestId(value.id)) {
    fail(`"id" of an error is ${describe(value.id)}, expected a string, an integer or null`, context);
  }
  const error = value.error;
  if (!isObject(error)) fail(`"error" is ${describe(error)}, expected an object`, context);
  if (typeof error.code !== 'number' || !Number.isInteger(error.code)) fail(`"error.code" is ${describe(error.code)}, expected an integer`, context);
  if (typeof error.message !== 'string') fail(`"error.message" is ${describe(error.message)}, expected a string`, context);
  return { kind: 'response', message: value as unknown as JsonRpcResponse };
}

/**
 * Parses JSON text as one JSON-RPC message.
 * @throws McpClientError `protocol` when the text is not JSON or not a JSON-RPC message.
 */
export function parseMessageText(text: string, context: McpErrorData = {}): IncomingMessage {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    fail(`not valid JSON (starts with ${JSON.stringify(text.slice(0, 60))})`, context);
  }
  return parseMessage(value, context);
}

/** Whether a parsed response is an error response. */
export function isErrorResponse(message: JsonRpcResponse): message is Extract<JsonRpcResponse, { error: unknown }> {
  return 'error' in message;
}

/** Serialises a message for the wire. */
export function serialize(message: JsonRpcMessage): string {
  return JSON.stringify(message);
}
