/**
 * Tiny media generators for the demo server: a PNG and a WAV built in code, so
 * the repository ships no binary files. Plain `Uint8Array`s and no Node
 * built-ins: the same code runs in Node and in the browser's demo server
 * (a Service Worker).
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

function u32be(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const body = concat([ascii(type), data]);
  return concat([u32be(data.length), body, u32be(crc32(body))]);
}

/** A zlib stream of stored (uncompressed) deflate blocks: valid PNG data without a compressor. */
function zlibStored(raw: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [new Uint8Array([0x78, 0x01])];
  for (let at = 0; at < raw.length || at === 0; at += 0xffff) {
    const block = raw.subarray(at, at + 0xffff);
    const last = at + 0xffff >= raw.length ? 1 : 0;
    parts.push(new Uint8Array([last, block.length & 0xff, block.length >>> 8, ~block.length & 0xff, (~block.length >>> 8) & 0xff]), block);
    if (last) break;
  }
  let a = 1;
  let b = 0;
  for (const byte of raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  parts.push(u32be(((b << 16) | a) >>> 0));
  return concat(parts);
}

/** A `size`×`size` RGB PNG: a diagonal gradient between two colours. */
export function gradientPng(size = 64, from: [number, number, number] = [37, 99, 235], to: [number, number, number] = [16, 185, 129]): Uint8Array {
  const raw = new Uint8Array((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * (size - 1));
      const offset = y * (size * 3 + 1) + 1 + x * 3;
      for (let c = 0; c < 3; c++) raw[offset + c] = Math.round(from[c]! + (to[c]! - from[c]!) * t);
    }
  }
  const ihdr = new Uint8Array(13);
  ihdr.set(u32be(size), 0);
  ihdr.set(u32be(size), 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return concat([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlibStored(raw)), chunk('IEND', new Uint8Array())]);
}

/** A mono 8-bit PCM WAV: a short sine beep. */
export function beepWav(ms = 300, hz = 660, rate = 8000): Uint8Array {
  const samples = Math.round((rate * ms) / 1000);
  const out = new Uint8Array(44 + samples);
  const view = new DataView(out.buffer);
  out.set(ascii('RIFF'), 0);
  view.setUint32(4, 36 + samples, true);
  out.set(ascii('WAVE'), 8);
  out.set(ascii('fmt '), 12);
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  out.set(ascii('data'), 36);
  view.setUint32(40, samples, true);
  for (let i = 0; i < samples; i++) {
    const fade = Math.min(1, i / 200, (samples - i) / 200);
    out[44 + i] = 128 + Math.round(100 * fade * Math.sin((2 * Math.PI * hz * i) / rate));
  }
  return out;
}

/** Base64 of bytes (`btoa` exists in Node ≥ 16 and in workers). */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
