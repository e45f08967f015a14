/**
 * MCP protocol types used by the kit, written from the normative
 * `schema.json` of revision 2026-07-28 (and 2025-11-25 where the legacy era
 * differs). Only what the kit reads or writes is typed precisely; every object
 * stays open (`[key: string]: unknown`) because servers may add fields.
 *
 * @module
 */

/** The current ("modern") protocol revision this kit targets. */
export const LATEST_PROTOCOL_VERSION = '2026-07-28';
/** Modern revisions (per-request `_meta`, no `initialize`), newest first. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];
/** Legacy revisions (`initialize` handshake) the kit speaks, newest first. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** `_meta` keys reserved by the spec (basic/index "_meta"). */
export const MetaKey = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  /** 2025-11-25: the task a message belongs to, `{ taskId }` (basic/utilities/tasks "Related Task Metadata"). */
  relatedTask: 'io.modelcontextprotocol/related-task',
} as const;

/** The Tasks extension's identifier, declared in per-request capabilities (ext-tasks "Extension Identifier"). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object as parsed from the wire: its values are not trusted to have any shape. */
export type JsonObject = { [key: string]: unknown };

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The length of the JSON text (UTF-16 code units) each parsed `result` arrived
 * in, the whole message's text: what a listing's `maxListBytes` bound counts
 * (client/listing.ts) without walking the page it has just parsed, which took
 * a 2,000-tool listing half again raw `fetch`'s time (issue 30). Set by
 * {@link parseJson}, which every transport parses a server's message with (a
 * JSON body, an SSE event); a listing serialises a page it finds no length for.
 */
export const resultChars = new WeakMap<object, number>();

/**
 * `JSON.parse(text)`, noting the text's length for the `result` it holds (see {@link resultChars}).
 * @throws SyntaxError when `text` is not JSON.
 */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (isObject(value) && isObject(value.result)) resultChars.set(value.result, text.length);
  return value;
}

/** JSON-RPC request id: a string or an integer, never null (basic/index "Requests"). */
export type RequestId = string | number;
export type ProgressToken = string | number;

/** A JSON-RPC 2.0 request (spec: basic/index "Requests"; schema.json JSONRPCRequest). */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

/** A JSON-RPC 2.0 notification: no `id`, no answer (spec: basic/index "Notifications"). */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** Absent (or null) when the server could not read the request id. */
  id?: RequestId | null;
  error: JsonRpcErrorObject;
}

/** A JSON-RPC 2.0 response: a result or an error for one request `id` (spec: basic/index "Responses"). */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
/** Any JSON-RPC 2.0 message the transport carries. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** `{name, version, …}` identifying a client or a server. */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  [key: string]: unknown;
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Capabilities a client declares on each request (modern) or at `initialize` (legacy). */
export interface ClientCapabilities {
  elicitation?: { form?: JsonObject; url?: JsonObject };
  sampling?: { tools?: JsonObject; context?: JsonObject };
  roots?: { listChanged?: boolean };
  experimental?: Record<string, JsonObject>;
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

/** What a server offers (spec: basic/lifecycle "Capability Negotiation"; schema.json ServerCapabilities), from `server/discover` or `initialize`. */
export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  resources?: { listChanged?: boolean; subscribe?: boolean };
  completions?: JsonObject;
  logging?: JsonObject;
  experimental?: Record<string, JsonObject>;
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Fields common to every result (basic/index "ResultType", server/utilities/caching). */
export interface ResultBase {
  /** `complete` or `input_required`; absent on legacy servers (= `complete`). */
  resultType?: string;
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface CacheableResult extends ResultBase {
  /** Freshness hint in milliseconds (server/utilities/caching). */
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

/** `server/discover` result (server/discover). */
export interface DiscoverResult extends CacheableResult {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}

// --- tools -------------------------------------------------------------------------

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** A JSON Schema object. The kit never trusts its shape. */
export type JsonSchema = { [key: string]: unknown };

/** A tool definition as listed by the server (server/tools "Tool"). */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface ListToolsResult extends CacheableResult {
  tools: Tool[];
  nextCursor?: string;
}

export interface Annotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ImageContent {
  type: 'image';
  /** Base64-encoded image bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface AudioContent {
  type: 'audio';
  /** Base64-encoded audio bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size of the raw resource in bytes, if known. */
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: JsonObject;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64-encoded bytes. */
  blob: string;
  _meta?: JsonObject;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** A content block of a tool result, prompt message or sampling message. Unknown future types are allowed. */
export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ResourceLink
  | EmbeddedResource
  | { type: string; [key: string]: unknown };

/** Final result of `tools/call` (server/tools "Tool Result"). */
export interface CallToolResult extends ResultBase {
  content?: ContentBlock[];
  /** Any JSON value; checked against the tool's `outputSchema` when one exists. */
  structuredContent?: unknown;
  isError?: boolean;
}

// --- resources and prompts ---------------------------------------------------------

/** One entry of `resources/list` (spec: server/resources; schema.json Resource). */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  [key: string]: unknown;
}

/** One entry of `resources/templates/list`: an RFC 6570 `uriTemplate` (spec: server/resources "Resource Templates"). */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  [key: string]: unknown;
}

export interface ListResourcesResult extends CacheableResult {
  resources: Resource[];
  nextCursor?: string;
}

export interface ListResourceTemplatesResult extends CacheableResult {
  resourceTemplates: ResourceTemplate[];
  nextCursor?: string;
}

/** The result of `resources/read`: text or base64 `blob` contents (spec: server/resources "Reading Resources"). */
export interface ReadResourceResult extends CacheableResult {
  contents: ResourceContents[];
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** One entry of `prompts/list`, with its arguments (spec: server/prompts; schema.json Prompt). */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  [key: string]: unknown;
}

export interface ListPromptsResult extends CacheableResult {
  prompts: Prompt[];
  nextCursor?: string;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** The result of `prompts/get`: the prompt's messages (spec: server/prompts "Getting a Prompt"). */
export interface GetPromptResult extends ResultBase {
  description?: string;
  messages: PromptMessage[];
}

export interface CompleteResult extends ResultBase {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

// --- multi round-trip requests (basic/patterns/mrtr) --------------------------------

/** A restricted elicitation field schema (client/elicitation "Requested Schema"). */
export type PrimitiveSchemaDefinition = JsonSchema;

/** A form-mode elicitation: a message and a flat object `requestedSchema` of primitive fields (spec: client/elicitation "Form Mode"). */
export interface ElicitRequestFormParams {
  mode?: 'form';
  message: string;
  requestedSchema: {
    $schema?: string;
    type: 'object';
    properties: Record<string, PrimitiveSchemaDefinition>;
    required?: string[];
  };
  [key: string]: unknown;
}

/** A URL-mode elicitation: the user is sent to `url` (spec: client/elicitation "URL Mode", "Safe URL Handling"). */
export interface ElicitRequestUrlParams {
  mode: 'url';
  message: string;
  url: string;
  /** Legacy (2025-11-25) only. */
  elicitationId?: string;
  [key: string]: unknown;
}

/** The params of an `elicitation/create` request, either mode (`mode` absent means form). */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestUrlParams;

/** The answer to an elicitation: `accept` (with `content` in form mode), `decline` or `cancel` (spec: client/elicitation "Response Actions"). */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
  [key: string]: unknown;
}

export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: ContentBlock | ContentBlock[];
  [key: string]: unknown;
}

export interface ModelPreferences {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** The params of `sampling/createMessage`: messages, `maxTokens` (tokens), model preferences (spec: client/sampling). */
export interface CreateMessageRequestParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: ModelPreferences;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: 'none' | 'thisServer' | 'allServers';
  metadata?: JsonObject;
  tools?: unknown[];
  toolChoice?: unknown;
  [key: string]: unknown;
}

/** The answer to a sampling request: one assistant message and the model that wrote it (spec: client/sampling). */
export interface CreateMessageResult {
  role: 'assistant' | 'user';
  content: ContentBlock | ContentBlock[];
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** A root the client shares: a `file://` URI and an optional name (spec: client/roots). */
export interface Root {
  uri: string;
  name?: string;
  [key: string]: unknown;
}

/** The answer to `roots/list` (spec: client/roots "Listing Roots"). */
export interface ListRootsResult {
  roots: Root[];
  [key: string]: unknown;
}

/** One server-to-client request embedded in an `InputRequiredResult`. */
export type InputRequest =
  | { method: 'elicitation/create'; params: ElicitRequestParams }
  | { method: 'sampling/createMessage'; params: CreateMessageRequestParams }
  | { method: 'roots/list'; params?: JsonObject };

export type InputRequestMethod = InputRequest['method'];

/** The client's answer to one {@link InputRequest}. */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/** Map of server-assigned keys to input requests. */
export type InputRequests = Record<string, InputRequest>;
/** Map of the same keys to the client's answers. */
export type InputResponses = Record<string, InputResponse>;

/** `resultType: "input_required"` (basic/patterns/mrtr "InputRequiredResult"). */
export interface InputRequiredResult extends ResultBase {
  resultType: 'input_required';
  inputRequests?: InputRequests;
  /** Opaque; echoed byte for byte on the retry. */
  requestState?: string;
}

// --- notifications ----------------------------------------------------------------

export interface ProgressNotificationParams {
  progressToken: ProgressToken;
  progress: number;
  total?: number;
  message?: string;
  [key: string]: unknown;
}

export interface LoggingMessageNotificationParams {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
  [key: string]: unknown;
}

/** `subscriptions/listen` filter (basic/patterns/subscriptions "Notification Filter"). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** Tasks extension: `notifications/tasks` for these task ids ("Task Status Notifications"). */
  taskIds?: string[];
}
