/**
 * `ui/download-file` (spec: ext-apps, `App.downloadFile`): files an app offers
 * the user, as embedded resources (`{ type: 'resource', resource: { uri, text |
 * blob, mimeType } }`). Checked and bounded here; the frame asks the user (the
 * server's host, each file's name and size) before anything is saved, and saves
 * through an `<a download>` of a `blob:` URL, never navigating the page.
 *
 * @module
 */
import { isRecord } from '../internal/json.js';
import { AppRpcError, RpcCode } from './channel.js';

/** One file to save. */
export interface AppFile {
  /** The file name offered: the last segment of the resource URI, cleaned. */
  name: string;
  /** Size in bytes. */
  size: number;
  blob: Blob;
}

/** Most files in one request, and most bytes in all of them. */
const MAX_FILES = 20;
const MAX_BYTES = 20 * 1024 * 1024;

/**
 * A file name safe to offer: no path, no control or invisible format characters
 * (a right-to-left override shows `report\u202Efdp.exe` as `reportexe.pdf` in the
 * question and the save dialog), at most 200 characters.
 */
function fileName(uri: string): string {
  let last = uri.split(/[?#]/)[0]!.split('/').pop() ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // Kept as written.
  }
  const clean = [
    ...last
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '_')
      .replace(/^\.+/, ''),
  ]
    // By code point: a cut must not leave half a surrogate pair.
    .slice(0, 200)
    .join('');
  return clean || 'download';
}

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The files of a `ui/download-file` request; throws {@link AppRpcError} for anything else. */
export function appFiles(params: Record<string, unknown>): AppFile[] {
  const contents = params.contents;
  if (!Array.isArray(contents) || contents.length === 0 || contents.length > MAX_FILES) throw new AppRpcError(RpcCode.invalidParams, `contents must be 1 to ${MAX_FILES} embedded resources`);
  let total = 0;
  return contents.map((item: unknown) => {
    const resource = isRecord(item) && item.type === 'resource' && isRecord(item.resource) ? item.resource : undefined;
    if (!resource || typeof resource.uri !== 'string' || resource.uri.length > 2048) {
      throw new AppRpcError(RpcCode.invalidParams, 'Only embedded resources (type "resource" with a uri and text or blob) can be downloaded');
    }
    const type = typeof resource.mimeType === 'string' && resource.mimeType.length <= 200 ? resource.mimeType : 'application/octet-stream';
    const length = typeof resource.text === 'string' ? resource.text.length : typeof resource.blob === 'string' ? resource.blob.length : -1;
    if (length < 0) throw new AppRpcError(RpcCode.invalidParams, 'An embedded resource needs text or blob');
    // Checked before decoding: base64 is 4 characters for 3 bytes, UTF-8 at least a byte a character.
    if (length > (typeof resource.text === 'string' ? MAX_BYTES : (MAX_BYTES * 4) / 3)) throw new AppRpcError(RpcCode.refused, `The files are larger than ${MAX_BYTES} bytes`);
    let blob: Blob;
    try {
      blob = new Blob([typeof resource.text === 'string' ? resource.text : bytesOf(resource.blob as string)], { type });
    } catch {
      throw new AppRpcError(RpcCode.invalidParams, 'blob is not base64');
    }
    total += blob.size;
    if (total > MAX_BYTES) throw new AppRpcError(RpcCode.refused, `The files are larger than ${MAX_BYTES} bytes`);
    return { name: fileName(resource.uri), size: blob.size, blob };
  });
}

/** Saves `files` (after the user said yes). */
export function saveFiles(files: AppFile[]): void {
  for (const file of files) {
    const url = URL.createObjectURL(file.blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = file.name;
    link.rel = 'noopener';
    link.click();
    // The download has started from the URL; it can go once this task is over.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
