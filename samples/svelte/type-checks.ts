/**
 * What the Svelte types must refuse (each line fails the typecheck if it is
 * accepted), written against the tags' types directly: svelte-check has no
 * expect-error comment for markup.
 */
import type { SvelteHTMLElements } from 'svelte/elements';
import type {} from 'mcp-web-elements/svelte';
import type { McpToolResultEvent } from 'mcp-web-elements/elements';

type ToolForm = SvelteHTMLElements['mcp-tool-form'];
type Connection = SvelteHTMLElements['mcp-connection'];

export const accepted: ToolForm[] = [
  { 'tool-name': 'get_weather', noDrafts: true, 'onmcp-tool-result': (event: McpToolResultEvent) => event.detail.result.content },
  { tool: { name: 'echo', inputSchema: { type: 'object' } }, 'onmcp-tool-call': (event) => event.detail.arguments },
];

// @ts-expect-error: a property takes the element's own type
export const wrongProperty: ToolForm = { tool: 42 };
// @ts-expect-error: the listener gets the kit's event class
export const wrongListener: ToolForm = { 'onmcp-tool-result': (event: MouseEvent) => event.clientX };
// @ts-expect-error: protocol is auto, modern or legacy
export const wrongAttribute: Connection = { protocol: '2026' };
