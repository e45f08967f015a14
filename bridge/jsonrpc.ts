/**
 * The little JSON-RPC 2.0 the bridge needs to route messages: their kind and
 * id. Bodies are relayed as they are; the bridge never interprets params beyond
 * `progressToken` and the cancelled `requestId`.
 *
 * @module
 */

export type RequestId = string | number;

export type Message =
  | { kind: 'request'; id: RequestId; method: string; value: Record<string, unknown> }
  | { kind: 'notification'; method: string; value: Record<string, unknown> }
  | { kind: 'response'; id: RequestId | null; value: Record<string, unknown> };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/** Classifies a parsed value, or returns why it is not one JSON-RPC 2.0 message. */
export function classify(value: unknown): Message | string {
  if (Array.isArray(value)) return 'JSON-RPC batches are not part of this protocol revision; send one message per request';
  if (!isRecord(value) || value.jsonrpc !== '2.0') return 'not a JSON-RPC 2.0 message';
  if ('method' in value) {
    if (typeof value.method !== 'string') return '"method" is not a string';
    if (value.params !== undefined && !isRecord(value.params)) return '"params" is not an object';
    if (!('id' in value)) return { kind: 'notification', method: value.method, value };
    if (!isId(value.id)) return '"id" of a request must be a string or an integer';
    return { kind: 'request', id: value.id, method: value.method, value };
  }
  if ('result' in value === 'error' in value) return 'a response has exactly one of "result" and "error"';
  if (value.id !== null && !isId(value.id)) return '"id" of a response must be a string, an integer or null';
  return { kind: 'response', id: value.id as RequestId | null, value };
}

/** A map key that keeps `1` and `"1"` apart. */
export function idKey(id: RequestId): string {
  return `${typeof id}:${id}`;
}

/** A JSON-RPC error response. */
export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** JSON-RPC codes the bridge answers with. */
export const Codes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  InternalError: -32603,
  /** Implementation-defined server error: transport-level refusals (as the official SDK uses it). */
  ServerError: -32000,
  /** Unknown or ended session (as the official SDK uses it). */
  SessionNotFound: -32001,
} as const;
