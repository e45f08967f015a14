/**
 * The shapes of `McpClient`'s surface: its options, statuses, events and the
 * result and options of `callTool`, with the defaults they name. Kept apart
 * from the class so the parts of the client read them without importing it.
 *
 * @module
 */
import type { McpError, McpWarning } from '../protocol/errors.js';
import type { EraCache } from '../protocol/era.js';
import type { CallToolResult, ClientCapabilities, Implementation, JsonRpcNotification, LoggingLevel, LoggingMessageNotificationParams, Tool } from '../protocol/types.js';
import type { InputRequiredOptions, RoundEvent } from '../rounds/options.js';
import type { OutputValidation } from '../schema/schema.js';
import type { TaskCallOptions, TaskEvent, TaskOptions } from '../tasks/task-types.js';
import type { TrafficEvent } from '../transport/session.js';
import type { FetchLike } from '../transport/transport.js';

/** Version reported in `clientInfo` by default. */
export const KIT_VERSION = '0.1.0';

/** Connection status of a client. */
export type ClientStatus = 'idle' | 'connecting' | 'connected' | 'error' | 'closed';

/** Which protocol era to use: detect (`auto`, default), or pin one. */
export type ProtocolPreference = 'auto' | 'modern' | 'legacy';

/** Default of {@link McpClientOptions.maxPages}. */
export const DEFAULT_MAX_PAGES = 500;
/** Default of {@link McpClientOptions.maxListItems}. */
export const DEFAULT_MAX_LIST_ITEMS = 10_000;
/** Default of {@link McpClientOptions.maxCursorBytes}: 64 KiB. */
export const DEFAULT_MAX_CURSOR_BYTES = 64 * 1024;
/** Default of {@link McpClientOptions.maxListBytes}: 64 MiB, the default cap on one response body. */
export const DEFAULT_MAX_LIST_BYTES = 64 * 1024 * 1024;

/** Options of {@link McpClient}. Times are in milliseconds, sizes in bytes. */
export interface McpClientOptions {
  /** `fetch` to use (auth wrappers, proxies, tests). Default: the global `fetch`, looked up per call. */
  fetch?: FetchLike;
  /** Extra headers for every request, or a function returning them (called per request). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** `clientInfo` sent on every request; `false` to omit it. Default `{ name: 'mcp-web-elements', version }`. */
  clientInfo?: Implementation | false;
  /** Era selection; default `auto` (spec: basic/versioning "Backward Compatibility"). */
  protocol?: ProtocolPreference;
  /** Timeout of one request, reset by progress notifications; default 60,000 ms. */
  requestTimeoutMs?: number;
  /** Hard cap on one request whatever its progress; default 600,000 ms. */
  maxTotalTimeoutMs?: number;
  /** Cap on input_required rounds of one call, and on the input rounds of one task (`tasks/update`); default 10. */
  maxRounds?: number;
  /**
   * Cap on the input requests of one round; default 16. A round asking for more
   * is declined without asking anyone (elicitations `decline`, roots empty,
   * sampling left out), with an `input-flood` warning; the `inputResponses`
   * of its `answered` round event carry `[Symbol.for('mcp-web-elements.declined-round')]`,
   * the number of requests (for a UI to tell the user).
   */
  maxInputRequests?: number;
  /**
   * Cap on pages followed by one listing (`listTools`, `listResources`…); default 500.
   * Over it the listing fails with `McpClientError` `pagination`.
   */
  maxPages?: number;
  /**
   * Cap on items kept from one listing, all pages together; default 10,000 (the
   * largest real catalogues list a few hundred tools). Over it the listing stops
   * following pages and returns the first `maxListItems` items, with a
   * `list-truncated` warning, so a server cannot make the client hold an
   * unbounded list.
   */
  maxListItems?: number;
  /**
   * Cap on one `nextCursor`, in UTF-8 bytes; default 64 KiB (65,536). Cursors are
   * opaque tokens (server/utilities/pagination); real ones are tens to hundreds of
   * bytes, and a listing keeps every cursor it followed (to notice a stuck
   * server), so a server sending huge ones would make the client hold them all.
   * A longer cursor fails the listing with `McpClientError` `too_large`
   * (`data.limit` = this number, `data.option` = `'maxCursorBytes'`).
   */
  maxCursorBytes?: number;
  /**
   * Cap on the size of one listing, all pages together, measured as the length
   * of the JSON text each page arrived in (the whole message as sent: whitespace
   * and `\uXXXX` escapes count, since the client reads and holds them, so a
   * pretty-printed, escaped catalogue counts 2–4 times its compact size; UTF-16
   * code units, which is bytes for ASCII text); default 64 MiB (67,108,864), as
   * much as one response body may hold (`maxBodyBytes`): paging must not let a server make the client hold more
   * than one unpaged answer could. Real catalogues are a few MiB at most. Over
   * it the listing fails with `McpClientError` `too_large` (`data.limit` = this
   * number, `data.option` = `'maxListBytes'`).
   */
  maxListBytes?: number;
  /**
   * Capabilities to declare in addition to those of the registered input handlers —
   * for apps that answer input requests themselves (`inputRequired: 'manual'`).
   */
  capabilities?: ClientCapabilities;
  /** Opt in to log notifications at this level (deprecated feature; off by default). */
  logLevel?: LoggingLevel;
  /** Cache results per `ttlMs`/`cacheScope`; default true. */
  cache?: boolean;
  /** Identifies the authorization context for private cache entries and stored tasks; default: a hash of the credential headers (`Authorization`, `X-Api-Key`…). */
  authContext?: () => string | undefined;
  /** Cap on a JSON response body; default 64 MiB. */
  maxBodyBytes?: number;
  /** Cap on one SSE event, in characters; default 16 Mi. */
  maxEventChars?: number;
  /** Where the detected era is remembered per endpoint; default: IndexedDB in browsers (`idb-keyval`), memory elsewhere. */
  eraCache?: EraCache;
  /** Receives warnings instead of `console.warn`. */
  onWarning?: (warning: McpWarning) => void;
  /**
   * Long-running calls (tasks). `true` or options: declare the 2026-07-28 Tasks
   * extension on every request and follow task results to their outcome;
   * on 2025-11-25 servers, call tools whose `execution.taskSupport` is
   * `required` as tasks. Default off (the elements turn it on). See {@link TaskOptions}.
   */
  tasks?: boolean | TaskOptions;
}

/** A tool result plus the kit's output validation (non-enumerable, not from the server). */
export type ToolCallResult = CallToolResult & { readonly outputValidation?: OutputValidation };

/** Options of {@link McpClient.callTool}: those of any input-capable request, plus the tool definition if the caller has one. */
export interface CallToolOptions extends InputRequiredOptions {
  /** The tool definition, if the caller has it (otherwise the last listing is used). */
  tool?: Tool;
  /** When the server runs the call as a task (`tasks` client option): the handle, status updates, detaching. */
  task?: TaskCallOptions;
}

/** Events of {@link McpClient}. */
export interface ClientEvents {
  status: { status: ClientStatus; error?: McpError };
  /** Every JSON-RPC message sent or received. */
  traffic: TrafficEvent;
  round: RoundEvent;
  /** Server notifications from listen streams (and legacy streams). */
  notification: JsonRpcNotification;
  log: LoggingMessageNotificationParams;
  toolsChanged: Record<string, never>;
  promptsChanged: Record<string, never>;
  resourcesChanged: Record<string, never>;
  resourceUpdated: { uri: string };
  /** The declared client capabilities changed (a handler was added or removed). */
  capabilities: { capabilities: ClientCapabilities };
  /** A task was created, changed status, needed input, ended… (see {@link TaskEvent}). */
  task: TaskEvent;
  warning: McpWarning;
}
