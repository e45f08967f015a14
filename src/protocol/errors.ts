/**
 * Error types of the kit.
 *
 * Two families, kept apart on purpose (spec: basic/index "Error Codes" says local
 * failures must not be mistaken for errors received from the peer):
 *
 * - {@link McpRpcError}: a JSON-RPC error object the server sent (numeric `code`,
 *   `message`, optional `data`).
 * - {@link McpClientError}: something that went wrong on this side of the wire
 *   (timeout, abort, network, malformed server output…), with a string `code`.
 *
 * Both extend {@link McpError}, so `catch (e) { if (McpError.isInstance(e)) … }`
 * handles either, even when two copies of the kit are loaded on one page.
 *
 * @module
 */

const BRAND = Symbol.for('mcp-web-elements.McpError');

// Names of query parameters that carry credentials in server URLs: a bridge's `token`, API keys, SAS
// signatures, Azure Functions' `code` (its function key).
const SECRET_PARAMS = 'token|access_token|api[_-]?key|key|auth|password|secret|client_secret|sig|signature|code';
const URL_SECRETS = new RegExp(`([?&](?:${SECRET_PARAMS})=)[^&#\\s"'<>)]+|(\\/\\/)[^/@\\s"'<>]+@`, 'gi');
const SECRET_PARAM = new RegExp(`^(?:${SECRET_PARAMS})$`, 'i');

/** Whether a URL query parameter of this name carries a credential (masked by {@link maskUrlSecrets}). */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAM.test(name);
}

/**
 * `text` with the credentials of any URL in it masked (`?token=…`, `//user:pass@`
 * → `//…@`): error messages and warnings are shown on screens and in logs, and a
 * server URL may carry a bridge's token or an API key. `data.url` keeps the URL.
 */
export function maskUrlSecrets(text: string): string {
  return text.replace(URL_SECRETS, (_match, parameter: string | undefined, slashes: string | undefined) => (parameter ? `${parameter}…` : `${slashes}…@`));
}

/** Local failure codes of {@link McpClientError}. */
export type McpClientErrorCode =
  /** The request exceeded its timeout (per-request or total cap). */
  | 'timeout'
  /** The caller aborted the request through its `AbortSignal`. */
  | 'aborted'
  /** The server answered with an HTTP error status and no JSON-RPC error body. */
  | 'http'
  /** `fetch` failed before any response: network down, DNS, refused; in a page, maybe a refused origin (`data.cors`). */
  | 'network'
  /** A browser blocked the request through CORS; `data.cors` (`CorsFacts`) lists the headers it sent that the server must allow. */
  | 'cors'
  /** The server redirected a request to another origin (`data.location`), or to a target a page cannot see; nothing was sent there. */
  | 'redirect'
  /** The user declined an input request that has no decline answer (sampling, roots). */
  | 'declined'
  /** The server sent something that is not valid MCP/JSON-RPC (wrong shape, content type, stream end…). */
  | 'protocol'
  /** No protocol version is supported by both sides. */
  | 'unsupported_version'
  /** A multi round-trip request needed more rounds than `maxRounds` allowed. */
  | 'rounds_exceeded'
  /** The server asked for input the client has no handler for (or did not declare). */
  | 'input_unsupported'
  /** A response or stream exceeded a size limit. */
  | 'too_large'
  /** Pagination did not terminate within the page cap. */
  | 'pagination'
  /** A JSON Schema could not be used (unsupported dialect, unresolved `$ref`, over the work bounds). */
  | 'schema'
  /** Call arguments cannot be sent as given (e.g. a header-mirrored integer outside ±(2^53−1)). */
  | 'invalid_arguments'
  /** A request header the caller configured cannot be sent by `fetch` (`data.header` names it). */
  | 'invalid_header'
  /** The client was closed, or is not connected. */
  | 'closed'
  /** Authorization failed or is required. */
  | 'auth'
  /** A task ended as `cancelled` without this client cancelling it (Tasks extension "Task Status"). */
  | 'task_cancelled'
  /** The server does not know a task id (any more): it expired (TTL, `data.expired`), the server lost it (seen running within its TTL, `data.lost`), or it never existed; `data.taskId`. */
  | 'task_not_found'
  /** The caller stopped waiting for a task (`handle.detach()`); the task goes on at the server (`data.taskId`). */
  | 'detached';

/** Extra facts attached to errors; every field is optional. */
export interface McpErrorData {
  /** The URL the failing request went to. */
  url?: string;
  /** HTTP status of the response, when there was one. */
  status?: number;
  /** JSON-RPC method of the failing request. */
  method?: string;
  /** `Content-Type` of the response, when relevant. */
  contentType?: string;
  /** The JSON-RPC error object from the response body, when there was one. */
  body?: unknown;
  /** Anything else specific to the error. */
  [key: string]: unknown;
}

/**
 * Base class of every error the kit throws. `code` is a number for peer JSON-RPC
 * errors and a string for local failures.
 */
export class McpError extends Error {
  /** Numeric JSON-RPC code (peer error) or string code (local failure). */
  readonly code: number | string;
  /** Additional data: the peer's `error.data`, or {@link McpErrorData} for local failures. */
  readonly data: unknown;

  constructor(code: number | string, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(maskUrlSecrets(message), options);
    this.name = 'McpError';
    this.code = code;
    this.data = data;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for any kit error, including ones from another copy of the kit. */
  static isInstance(value: unknown): value is McpError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/**
 * A JSON-RPC error sent by the server (spec: basic/index "Error Responses").
 * `httpStatus` and `url` say where it came from.
 */
export class McpRpcError extends McpError {
  declare readonly code: number;
  /** HTTP status of the response that carried the error (e.g. 400 for -32022). */
  readonly httpStatus: number | undefined;
  /** URL of the endpoint that answered. */
  readonly url: string | undefined;

  constructor(code: number, message: string, data?: unknown, where?: { httpStatus?: number; url?: string }) {
    super(code, message, data);
    this.name = 'McpRpcError';
    this.httpStatus = where?.httpStatus;
    this.url = where?.url;
  }

  static override isInstance(value: unknown): value is McpRpcError {
    return McpError.isInstance(value) && typeof value.code === 'number';
  }
}

/** A failure on the client side of the wire. See {@link McpClientErrorCode}. */
export class McpClientError extends McpError {
  declare readonly code: McpClientErrorCode;
  declare readonly data: McpErrorData;

  constructor(code: McpClientErrorCode, message: string, data: McpErrorData = {}, options?: { cause?: unknown }) {
    super(code, message, data, options);
    this.name = 'McpClientError';
  }

  static override isInstance(value: unknown): value is McpClientError {
    return McpError.isInstance(value) && typeof value.code === 'string';
  }
}

/** Well-known JSON-RPC and MCP error codes (spec: basic/index "Error Codes"). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy (2025-11-25 and earlier) "resource not found"; still accepted from old servers. */
  LegacyResourceNotFound: -32002,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  /** 2025-11-25 only: URL elicitation required. */
  UrlElicitationRequired: -32042,
} as const;

/** Whether `error` is the abort/timeout rejection the kit raises for a cancelled request. */
export function isAbortError(error: unknown): boolean {
  return McpClientError.isInstance(error) && (error.code === 'aborted' || error.code === 'timeout');
}

/** A developer-facing warning (also printed with `console.warn` unless `onWarning` is set). */
export interface McpWarning {
  code: string;
  message: string;
}
