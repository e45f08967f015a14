/**
 * mcp-web-elements client core: a Model Context Protocol client over Streamable
 * HTTP that needs nothing but `fetch`. No DOM, no Lit.
 *
 * @module
 */
export { McpClient } from './client.js';
export { KIT_VERSION, type CallToolOptions, type ClientEvents, type ClientStatus, type McpClientOptions, type ProtocolPreference, type ToolCallResult } from './client/options.js';
export type { ElicitationHandler, InputContext, InputHandlers, RootsHandler, SamplingHandler } from './rounds/handlers.js';
export type { InputRequiredOptions, ListenOptions, RequestOptions, RoundEvent, Subscription } from './rounds/options.js';
export type {
  StoredTask,
  StoredTasks,
  TaskCallOptions,
  TaskEvent,
  TaskHandle,
  TaskInfo,
  TaskOptions,
  TaskPhase,
  TaskState,
  TaskStatus,
  TaskStore,
  TaskWaitOptions,
} from './tasks/task-types.js';
export { McpError, McpRpcError, McpClientError, ErrorCode, isAbortError, type McpClientErrorCode, type McpErrorData, type McpWarning } from './protocol/errors.js';
export { HttpTransport, type FetchLike } from './transport/transport.js';
export type { ServerDescription, TrafficEvent } from './transport/session.js';
export { encodeHeaderValue } from './transport/headers.js';
export type { HeaderBinding, RejectedTool } from './transport/header-bindings.js';
export type { CorsFacts } from './transport/cors.js';
export { compileSchema, compileSchemaSync, ensureValidator, useSchemaCompiler, schemaDialect, checkSchemaBounds, DEFAULT_SCHEMA_LIMITS, type SchemaCompiler, type SchemaCompilerOptions, type SchemaDialect, type SchemaLimits, type SkippedCheck, type ValidationIssue, type ValidationResult, type Validator, type OutputValidation } from './schema/schema.js';
export { MemoryEraCache, type EraCache } from './protocol/era.js';
export {
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  LEGACY_PROTOCOL_VERSIONS,
  type CallToolResult,
  type ClientCapabilities,
  type ContentBlock,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type DiscoverResult,
  type ElicitRequestParams,
  type ElicitRequestFormParams,
  type ElicitRequestUrlParams,
  type ElicitResult,
  type GetPromptResult,
  type Implementation,
  type InputRequest,
  type InputRequests,
  type InputRequiredResult,
  type InputResponse,
  type InputResponses,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonSchema,
  type ListRootsResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Root,
  type ServerCapabilities,
  type SubscriptionFilter,
  type Tool,
} from './protocol/types.js';
