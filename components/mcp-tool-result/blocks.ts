/**
 * What `<mcp-tool-result>` shows for each content block of a tool result
 * (spec: server/tools "Tool Result"), decided without the DOM so that every
 * rule about untrusted content is in one place:
 *
 * - text is text (never parsed as HTML);
 * - images and audio only from base64 `data` with an allow-listed MIME type
 *   (no SVG: it can carry script), shown through a `data:` URL built here from
 *   the MIME type and the checked base64, never from a URL the server sent;
 * - a well-formed `data:<same type>;base64,` prefix a server put in `data` by
 *   mistake is stripped (never doubled);
 * - links open only for `http:`/`https:`; other URIs are shown as text and may
 *   be read through the client (`resources/read`), on request only;
 * - an unknown or malformed block becomes a placeholder; it never hides the others.
 *
 * @module
 */
import { isRecord, stringifyBounded } from '../internal/json.js';

/** Image types shown inline (raster formats only). */
export const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);
/** Audio types given to `<audio>`. */
export const AUDIO_TYPES: ReadonlySet<string> = new Set([
  'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/mpeg', 'audio/mp3', 'audio/ogg', 'audio/webm', 'audio/flac', 'audio/x-flac', 'audio/aac', 'audio/mp4', 'audio/x-m4a',
]);
/** Content blocks `<mcp-tool-result>` shows at first, and adds with each "Show more". */
export const BLOCKS_PER_PAGE = 100;
/** Media larger than this (decoded bytes) is not inlined. */
export const MAX_MEDIA_BYTES = 16 * 1024 * 1024;

/** The typed view of one content block. */
export type BlockView =
  | { kind: 'text'; text: string; audience?: string[] }
  | { kind: 'image' | 'audio'; src: string; mimeType: string; bytes: number; audience?: string[] }
  | { kind: 'media-problem'; type: 'image' | 'audio'; mimeType: string; reason: string }
  | { kind: 'link'; uri: string; name: string; title?: string; description?: string; mimeType?: string; size?: number; href?: string }
  | ResourceView
  | { kind: 'unknown'; type: string; json: string }
  | { kind: 'invalid'; reason: string; json: string };

/** The view of an embedded resource or of one `resources/read` content. */
export type ResourceView =
  | { kind: 'resource-text'; uri: string; mimeType?: string; text: string }
  | { kind: 'resource-blob'; uri: string; mimeType?: string; bytes: number; base64: string; image?: string };

function mime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.split(';')[0]!.trim().toLowerCase() || undefined;
}

/**
 * Checks base64 text and measures it.
 * @returns the canonical base64 (whitespace removed, URL-safe alphabet mapped,
 *   padding added) and the decoded size in bytes, or why it is unusable.
 */
export function checkBase64(data: string, expectedMime?: string): { base64: string; bytes: number } | { reason: string } {
  let text = data;
  const prefix = /^data:([^;,]*)((?:;[^;,]*)*);base64,/i.exec(text.trimStart());
  if (prefix) {
    // A full data: URI in `data` (a common server mistake): accept it when it names the same type.
    if (expectedMime && mime(prefix[1]) !== expectedMime) return { reason: `the data is a data: URI of another type (${prefix[1] || 'none'})` };
    text = text.trimStart().slice(prefix[0].length);
  } else if (/^data:/i.test(text.trimStart())) {
    return { reason: 'the data is a data: URI that is not base64' };
  }
  text = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return { reason: 'the data is not valid base64' };
  const unpadded = text.replace(/=+$/, '');
  const padded = unpadded + '='.repeat((4 - (unpadded.length % 4)) % 4);
  const bytes = Math.floor((unpadded.length * 3) / 4);
  return { base64: padded, bytes };
}

function audienceOf(block: Record<string, unknown>): string[] | undefined {
  const annotations = block.annotations;
  if (!isRecord(annotations) || !Array.isArray(annotations.audience)) return undefined;
  const audience = annotations.audience.filter((a): a is string => typeof a === 'string');
  return audience.length > 0 ? audience : undefined;
}

function media(block: Record<string, unknown>, type: 'image' | 'audio'): BlockView {
  const mimeType = mime(block.mimeType) ?? '';
  const allowed = type === 'image' ? IMAGE_TYPES : AUDIO_TYPES;
  if (!allowed.has(mimeType)) {
    return { kind: 'media-problem', type, mimeType, reason: mimeType ? `${mimeType} is not shown inline` : 'no MIME type given' };
  }
  if (typeof block.data !== 'string') return { kind: 'media-problem', type, mimeType, reason: 'the block has no base64 data' };
  const checked = checkBase64(block.data, mimeType);
  if ('reason' in checked) return { kind: 'media-problem', type, mimeType, reason: checked.reason };
  if (checked.bytes > MAX_MEDIA_BYTES) return { kind: 'media-problem', type, mimeType, reason: `too large to show (${checked.bytes} bytes)` };
  const audience = audienceOf(block);
  return { kind: type, src: `data:${mimeType};base64,${checked.base64}`, mimeType, bytes: checked.bytes, ...(audience ? { audience } : {}) };
}

/** Only web links open in the browser; `file:`, `javascript:`, custom schemes… do not. */
export function webHref(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The view of a resource's contents (embedded, or read with `resources/read`). */
export function describeResource(resource: unknown): ResourceView | { kind: 'invalid'; reason: string; json: string } {
  if (!isRecord(resource) || typeof resource.uri !== 'string') {
    return { kind: 'invalid', reason: 'a resource without a uri', json: stringifyBounded(resource, 2000).text };
  }
  const mimeType = mime(resource.mimeType);
  if (typeof resource.text === 'string') return { kind: 'resource-text', uri: resource.uri, text: resource.text, ...(mimeType ? { mimeType } : {}) };
  if (typeof resource.blob === 'string') {
    const checked = checkBase64(resource.blob);
    if ('reason' in checked) return { kind: 'invalid', reason: `resource ${resource.uri}: ${checked.reason}`, json: stringifyBounded(resource, 2000).text };
    const image = mimeType && IMAGE_TYPES.has(mimeType) && checked.bytes <= MAX_MEDIA_BYTES ? `data:${mimeType};base64,${checked.base64}` : undefined;
    return { kind: 'resource-blob', uri: resource.uri, bytes: checked.bytes, base64: checked.base64, ...(mimeType ? { mimeType } : {}), ...(image ? { image } : {}) };
  }
  return { kind: 'invalid', reason: `resource ${resource.uri} has neither text nor blob`, json: stringifyBounded(resource, 2000).text };
}

/** The view of one content block; never throws. */
export function describeBlock(block: unknown): BlockView {
  if (!isRecord(block) || typeof block.type !== 'string') {
    return { kind: 'invalid', reason: 'a content block without a type', json: stringifyBounded(block, 2000).text };
  }
  switch (block.type) {
    case 'text': {
      if (typeof block.text !== 'string') return { kind: 'invalid', reason: 'a text block without text', json: stringifyBounded(block, 2000).text };
      const audience = audienceOf(block);
      return { kind: 'text', text: block.text, ...(audience ? { audience } : {}) };
    }
    case 'image':
      return media(block, 'image');
    case 'audio':
      return media(block, 'audio');
    case 'resource_link': {
      if (typeof block.uri !== 'string') return { kind: 'invalid', reason: 'a resource_link without a uri', json: stringifyBounded(block, 2000).text };
      const view: BlockView = { kind: 'link', uri: block.uri, name: typeof block.name === 'string' ? block.name : block.uri };
      if (typeof block.title === 'string') view.title = block.title;
      if (typeof block.description === 'string') view.description = block.description;
      const type = mime(block.mimeType);
      if (type) view.mimeType = type;
      if (typeof block.size === 'number' && Number.isFinite(block.size) && block.size >= 0) view.size = block.size;
      const href = webHref(block.uri);
      if (href) view.href = href;
      return view;
    }
    case 'resource':
      return describeResource(block.resource);
    default:
      return { kind: 'unknown', type: block.type, json: stringifyBounded(block, 4000).text };
  }
}
