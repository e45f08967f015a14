/**
 * Era-specific wire behaviour behind {@link McpClient}. A session turns
 * "call method M with params P" into HTTP exchanges for one protocol era:
 *
 * - {@link ModernSession}: 2026-07-28, stateless; every request carries `_meta`
 *   (protocol version, client capabilities, client info) and the mirrored
 *   `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` headers
 *   (basic/index "_meta", basic/transports/streamable-http "Request Metadata").
 * - a legacy session (2025-11-25 and earlier; `initialize`, `Mcp-Session-Id`),
 *   in `./legacy/`.
 *
 * @module
 */
import { ErrorCode, McpClientError, McpRpcError } from '../protocol/errors.js';
import { encodeHeaderValue } from './headers.js';
import type { IncomingMessage } from '../protocol/jsonrpc.js';
import type { HttpTransport } from './transport.js';
import {
  MetaKey,
  MODERN_PROTOCOL_VERSIONS,
  type ClientCapabilities,
  type DiscoverResult,
  type Implementation,
  type JsonObject,
  type JsonRpcMessage,
  type LoggingLevel,
  type RequestId,
  type ServerCapabilities,
  type SubscriptionFilter,
} from '../protocol/types.js';

/** What the client knows about the server it is connected to. */
export interface ServerDescription {
  /** `modern` (2026-07-28+) or `legacy` (`initialize`-based). */
  era: 'modern' | 'legacy';
  /** The protocol version in use. */
  protocolVersion: string;
  /** Versions the server says it supports (modern `server/discover`; legacy: the negotiated one). */
  supportedVersions: string[];
  /** Self-reported identity; for display only, never for trust decisions. */
  serverInfo?: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** Traffic record for protocol logs (the demo's log, debugging). */
export interface TrafficEvent {
  /**
   * `out`: sent; `in`: received; `failed`: the request in `message` (its `id`) ended
   * without a response — `error` says why. Every request sent ends with a response or a
   * `failed` event, never with neither.
   */
  direction: 'out' | 'in' | 'failed';
  message: JsonRpcMessage;
  /**
   * With `direction: 'failed'`: the error the request failed with, normally an `McpClientError`
   * (`timeout`, `aborted`, `http` with `data.status`, `network`, `cors`…) or an `McpRpcError`
   * that came without the request's id (its `httpStatus`).
   */
  error?: Error;
  /** Request id this message belongs to, when known. */
  requestId?: RequestId;
  /** Wall-clock time in ms. */
  time: number;
  /**
   * The HTTP headers of an outgoing request as the client set them (its own and
   * the page's; not those a `fetch` wrapper such as OAuth adds). Secrets included:
   * mask them before showing or exporting.
   */
  headers?: Record<string, string>;
}

/** What a session needs from its client. */
export interface SessionHost {
  transport: HttpTransport;
  nextId(): number;
  /** Capabilities declared right now (derived from the registered input handlers). */
  capabilities(): ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LoggingLevel | undefined;
  /** User-supplied headers for every request. */
  userHeaders(): Promise<Record<string, string>>;
  /**
   * Receives a traffic record; undefined while nobody listens, so that sessions call it as
   * `host.traffic?.({…})` and build no record then (the argument is not evaluated).
   */
  readonly traffic: ((event: TrafficEvent) => void) | undefined;
  warn(code: string, message: string): void;
}

export interface SessionRequestOptions {
  signal?: AbortSignal;
  /** Extra headers for this request (`Mcp-Param-*`). */
  headers?: Record<string, string>;
  /** Extra `_meta` entries (e.g. `progressToken`). */
  meta?: JsonObject;
  /** Messages on the request's stream before its response. */
  onMessage?: (message: IncomingMessage) => void;
  /** Called with the JSON-RPC id assigned to this request (listen uses it as the subscription id). */
  onId?: (id: RequestId) => void;
  /**
   * Legacy era: the `Mcp-Session-Id` of an earlier session with the same server (a task's,
   * picked up after a reload) to send this request on instead of the current one. A 404 then
   * fails the request with `http` (`data.sessionExpired`, `data.earlierSession`): no new
   * session is started and nothing is sent again.
   */
  sessionId?: string;
}

/** A completed request: the result object and the id it was sent with. */
export interface SessionResponse {
  id: RequestId;
  result: JsonObject;
}

/** Era-specific request machinery. */
export interface Session {
  readonly description: ServerDescription;
  /** Legacy era: the `Mcp-Session-Id` the server issued, if any. */
  readonly sessionId?: string | undefined;
  /**
   * Sends one request and returns its result.
   * @throws McpRpcError for a JSON-RPC error response; McpClientError for local failures.
   */
  request(method: string, params: JsonObject, options?: SessionRequestOptions): Promise<SessionResponse>;
  /**
   * Opens a change-notification stream and resolves when it ends gracefully.
   * @throws when the stream drops unexpectedly or is aborted.
   */
  listen(filter: SubscriptionFilter, options: SessionRequestOptions): Promise<void>;
  /** Ends the session (legacy: `DELETE`). Never throws. */
  close(): Promise<void>;
}

/** Methods whose `Mcp-Name` header mirrors `params.name` or `params.uri`. */
const NAME_PARAM: Record<string, 'name' | 'uri'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/**
 * Picks the newest version both sides support.
 * @returns undefined when there is none.
 */
export function pickVersion(offered: readonly unknown[], ours: readonly string[]): string | undefined {
  return ours.find((version) => offered.includes(version));
}

/** 2026-07-28 session: stateless requests with per-request `_meta`. */
/**
 * A server's `Implementation` (schema.json; basic/lifecycle) as UIs can trust it:
 * the string fields only (`name` required), and `icons` with a string `src`.
 * Anything else a server put there is dropped, so it never reaches a page as
 * `[object Object]` or markup.
 */
export function implementationInfo(value: unknown): Implementation | undefined {
  if (typeof value !== 'object' || value === null || typeof (value as JsonObject).name !== 'string') return undefined;
  const source = value as JsonObject;
  const info: JsonObject = {};
  for (const key of ['name', 'version', 'title', 'description', 'websiteUrl']) if (typeof source[key] === 'string') info[key] = source[key];
  if (Array.isArray(source.icons)) info.icons = source.icons.filter((icon) => typeof icon === 'object' && icon !== null && typeof (icon as JsonObject).src === 'string');
  return info as Implementation;
}

export class ModernSession implements Session {
  readonly #host: SessionHost;
  #version: string;
  #description: ServerDescription;

  constructor(host: SessionHost, protocolVersion: string = MODERN_PROTOCOL_VERSIONS[0]!) {
    this.#host = host;
    this.#version = protocolVersion;
    this.#description = { era: 'modern', protocolVersion, supportedVersions: [protocolVersion], capabilities: {} };
  }

  get description(): ServerDescription {
    return this.#description;
  }

  /** Uses a `server/discover` result as the description of the server. */
  adopt(result: DiscoverResult): void {
    const serverInfo = implementationInfo(result._meta?.[MetaKey.serverInfo] ?? (result as { serverInfo?: unknown }).serverInfo);
    this.#description = {
      era: 'modern',
      protocolVersion: this.#version,
      supportedVersions: Array.isArray(result.supportedVersions) ? result.supportedVersions.filter((v): v is string => typeof v === 'string') : [this.#version],
      serverInfo,
      capabilities: result.capabilities && typeof result.capabilities === 'object' ? result.capabilities : {},
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    };
  }

  async request(method: string, params: JsonObject, options: SessionRequestOptions = {}): Promise<SessionResponse> {
    // One retry after version negotiation (basic/versioning "Protocol Version Negotiation").
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#send(method, params, options);
      } catch (error) {
        if (attempt === 0 && McpRpcError.isInstance(error) && error.code === ErrorCode.UnsupportedProtocolVersion) {
          const supported = (error.data as { supported?: unknown })?.supported;
          const next = Array.isArray(supported) ? pickVersion(supported, MODERN_PROTOCOL_VERSIONS) : undefined;
          if (next !== undefined) {
            this.#version = next;
            this.#description = { ...this.#description, protocolVersion: next, supportedVersions: supported as string[] };
            continue;
          }
          throw new McpClientError(
            'unsupported_version',
            `The server supports protocol versions ${JSON.stringify(supported)}, none of which this client speaks on the modern era (${MODERN_PROTOCOL_VERSIONS.join(', ')})`,
            { url: this.#host.transport.url.href, method, supported, status: error.httpStatus },
            { cause: error },
          );
        }
        throw error;
      }
    }
  }

  async listen(filter: SubscriptionFilter, options: SessionRequestOptions): Promise<void> {
    await this.request('subscriptions/listen', { notifications: filter }, options);
  }

  async close(): Promise<void> {
    // Stateless: nothing to end (no sessions on 2026-07-28).
  }

  async #send(method: string, params: JsonObject, options: SessionRequestOptions): Promise<SessionResponse> {
    const host = this.#host;
    const id = host.nextId();
    options.onId?.(id);
    const meta: JsonObject = { ...(params._meta as JsonObject | undefined), ...options.meta };
    meta[MetaKey.protocolVersion] = this.#version;
    meta[MetaKey.clientCapabilities] = host.capabilities();
    if (host.clientInfo) meta[MetaKey.clientInfo] = host.clientInfo;
    if (host.logLevel) meta[MetaKey.logLevel] = host.logLevel;
    const message = { jsonrpc: '2.0' as const, id, method, params: { ...params, _meta: meta } };

    const headers: Record<string, string> = {
      ...(await host.userHeaders()),
      'MCP-Protocol-Version': this.#version,
      'Mcp-Method': method,
    };
    const nameParam = NAME_PARAM[method];
    if (nameParam && typeof params[nameParam] === 'string') headers['Mcp-Name'] = encodeHeaderValue(params[nameParam] as string);
    Object.assign(headers, options.headers);

    host.traffic?.({ direction: 'out', message, requestId: id, time: Date.now(), headers });
    const { response, status } = await host.transport
      .request(message, {
        signal: options.signal,
        headers,
        onMessage: (incoming) => {
          host.traffic?.({ direction: 'in', message: incoming.message, requestId: id, time: Date.now() });
          if (incoming.kind === 'request') {
            // Modern servers must not send requests on a stream; never answer one (MRTR replaces them).
            host.warn('server-request-on-modern-stream', `Ignored a "${incoming.message.method}" request the server sent on the stream of ${method}; 2026-07-28 servers ask for input in input_required results`);
            return;
          }
          options.onMessage?.(incoming);
        },
      })
      .catch((error: Error) => {
        // No response to log (e.g. a legacy server's HTTP 400 to the server/discover probe): the entry must still end.
        host.traffic?.({ direction: 'failed', message, requestId: id, time: Date.now(), error });
        throw error;
      });
    host.traffic?.({ direction: 'in', message: response, requestId: id, time: Date.now() });
    if ('error' in response) {
      const { code, message: text, data } = response.error;
      throw new McpRpcError(code, text, data, { httpStatus: status, url: host.transport.url.href });
    }
    const serverInfo = implementationInfo((response.result._meta as JsonObject | undefined)?.[MetaKey.serverInfo]);
    if (serverInfo && !this.#description.serverInfo) this.#description = { ...this.#description, serverInfo };
    return { id, result: response.result };
  }
}
