/**
 * What the renderer of `<mcp-tool-result>` (result-body.ts) uses of the element:
 * the result and tool it shows, and the element's update cycle and shadow root.
 * The element loads the renderer with `import()`; typed by this interface rather
 * than by the element's class, the renderer does not import the element back.
 *
 * @module
 */
import type { ReactiveElement } from 'lit';
import type { CallToolResult, Tool } from '../../src/index.js';

/** `<mcp-tool-result>` as its renderer sees it. */
export interface ResultHost extends ReactiveElement {
  /** The `CallToolResult` to show. */
  readonly result: CallToolResult | undefined;
  /** The tool definition, for the `outputSchema` check. */
  readonly tool: Tool | undefined;
}
