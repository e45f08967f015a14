/**
 * The inspector elements — `<mcp-prompt-form>`, `<mcp-resource-list>`,
 * `<mcp-protocol-log>`, `<mcp-roots-editor>` and `<mcp-call-history>` — registered together
 * (`import 'mcp-web-elements/inspector'`). Each also has an entry of its own
 * (`mcp-web-elements/prompt-form`, `…/resource-list`, `…/protocol-log`,
 * `…/roots-editor`). They are not part of `mcp-web-elements/elements`, so a page
 * that only calls tools never downloads them.
 *
 * @module
 */
export { McpPromptForm } from './mcp-prompt-form/mcp-prompt-form.js';
export { McpResourceList } from './mcp-resource-list/mcp-resource-list.js';
export { McpProtocolLog, type LogRecord, type SessionFile } from './mcp-protocol-log/mcp-protocol-log.js';
export { McpRootsEditor } from './mcp-roots-editor/mcp-roots-editor.js';
export { McpCallHistory, McpHistoryRerunEvent, McpHistoryEditEvent, type CallRecord, type CallKind, type CallOutcome } from './mcp-call-history/mcp-call-history.js';
export { serverCompletions, type CompletionSource, type Suggestions } from './internal/completion.js';
