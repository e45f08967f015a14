/**
 * The content of `<mcp-tool-form>`'s arguments preview, rendered while the
 * preview is open (loaded with the form's parts: a closed preview needs none of it).
 *
 * @module
 */
import { html, nothing, type TemplateResult } from 'lit';
import { encodeHeaderValue } from '../../src/index.js';
import type { HeaderBindingsCheck } from '../../src/transport/header-bindings.js';
import { isRecord, stringifyBounded, type JsonRecord } from '../internal/json.js';

/**
 * The arguments JSON, and the values the client will mirror into `Mcp-Param-*`
 * headers (basic/transports/streamable-http "Custom Headers from Tool
 * Parameters") when `bindings` lists any. Server-defined text is rendered as text.
 */
export function previewContent(args: JsonRecord, bindings: HeaderBindingsCheck | undefined): TemplateResult {
  const headers: string[] = [];
  if (bindings?.ok) {
    for (const binding of bindings.bindings) {
      let value: unknown = args;
      for (const key of binding.path) value = isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
      if (value !== undefined && value !== null && typeof value !== 'object') headers.push(`Mcp-Param-${binding.name}: ${encodeHeaderValue(String(value))}`);
    }
  }
  return html`<pre part="preview-json">${stringifyBounded(args).text}</pre>
    ${headers.length > 0 ? html`<p class="note">Also sent as HTTP headers (visible to proxies):</p><pre part="preview-headers">${headers.join('\n')}</pre>` : nothing}`;
}
