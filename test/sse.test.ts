/**
 * The SSE reader (src/transport/sse.ts) on exact byte sequences: how the network cuts a
 * stream into reads must never change the events (issue 18 made each read's
 * decoding take a faster path when the read ends on a whole character). The
 * reader's input is a `ReadableStream` of reads, so each test builds one from
 * the bytes and cuts it wants; the transport tests go through a real `Response`.
 */
import { describe, expect, test } from 'vitest';
import { consumeSse, DEFAULT_MAX_EVENT_CHARS, readSse, type SseEvent } from '../src/transport/sse.js';
import { HttpTransport } from '../src/transport/transport.js';
import { reads } from './support/streams.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytesOf = (...parts: (string | number[])[]) => {
  const all = parts.flatMap((part) => (typeof part === 'string' ? [...utf8(part)] : part));
  return Uint8Array.from(all);
};

/** Every event's fields, as the consumer sees them. */
async function eventsOf(chunks: Uint8Array[], options: Parameters<typeof readSse>[1] = {}): Promise<Pick<SseEvent, 'id' | 'event' | 'data'>[]> {
  const out: Pick<SseEvent, 'id' | 'event' | 'data'>[] = [];
  for await (const { id, event, data } of readSse(reads(chunks), options)) out.push({ id, event, data });
  return out;
}

async function consumed(chunks: Uint8Array[], options: Parameters<typeof consumeSse>[2] = {}): Promise<string[]> {
  const out: string[] = [];
  await consumeSse(reads(chunks), (event) => void out.push(event.data), options);
  return out;
}

/** Cuts `bytes` before each of the given offsets. */
function cutAt(bytes: Uint8Array, ...offsets: number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const offset of offsets) {
    chunks.push(bytes.subarray(start, offset));
    start = offset;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

describe('an event stream cut into reads anywhere gives the same events (issue 18)', () => {
  // A BOM, two- three- and four-byte characters, CRLF and CR line ends, multi-line data, id and event
  // fields, a comment, and a U+FEFF inside the data (a character there, not a BOM).
  const body = bytesOf(
    '\uFEFFid: 1\r\nevent: message\r\ndata: {"text":"naïve ☕ 北京 🌋"}\r\n\r\n',
    ': keep-alive\n',
    'data: first line é\ndata: \uFEFFsecond 🌈\n\n',
    'event: other\rdata: Ω\r\r',
    'data: {"end":"✓"}\n\n',
  );
  const expected = [
    { id: '1', event: 'message', data: '{"text":"naïve ☕ 北京 🌋"}' },
    { id: undefined, event: undefined, data: 'first line é\n\uFEFFsecond 🌈' },
    { id: undefined, event: 'other', data: 'Ω' },
    { id: undefined, event: undefined, data: '{"end":"✓"}' },
  ];

  test('one read', async () => {
    expect(await eventsOf([body])).toEqual(expected);
  });

  test('two reads, cut at every byte', async () => {
    for (let at = 0; at <= body.length; at++) {
      expect(await eventsOf(cutAt(body, at)), `cut at byte ${at}`).toEqual(expected);
    }
  });

  test('three reads, every pair of cuts inside the multi-byte characters and the BOM', async () => {
    // Offsets inside a character (continuation bytes): cutting there leaves a character unfinished.
    const inside = [...body.keys()].filter((i) => (body[i]! & 0xc0) === 0x80);
    for (const a of inside) {
      for (const b of inside) {
        if (b > a) expect(await eventsOf(cutAt(body, a, b)), `cuts at ${a} and ${b}`).toEqual(expected);
      }
    }
  });

  test('one byte per read, and empty reads between them', async () => {
    expect(await eventsOf([...body].map((b) => Uint8Array.of(b)))).toEqual(expected);
    expect(await eventsOf([...body].flatMap((b) => [new Uint8Array(0), Uint8Array.of(b)]))).toEqual(expected);
  });

  test('consumeSse sees the same data at every cut', async () => {
    const data = expected.map((e) => e.data);
    for (let at = 0; at <= body.length; at++) expect(await consumed(cutAt(body, at)), `cut at byte ${at}`).toEqual(data);
  });
});

describe('byte order marks and invalid UTF-8 at read boundaries', () => {
  test('a BOM split over the first reads is dropped', async () => {
    expect(await eventsOf([Uint8Array.of(0xef), Uint8Array.of(0xbb), bytesOf([0xbf], 'data: x\n\n')])).toEqual([{ id: undefined, event: undefined, data: 'x' }]);
  });

  test('a U+FEFF that starts a later read is data, not a BOM', async () => {
    expect(await consumed([bytesOf('data: a'), bytesOf('\uFEFFb\n\n')])).toEqual(['a\uFEFFb']);
    expect(await consumed([bytesOf('data: a\n\n'), bytesOf('\uFEFFdata: b\n\ndata: c\n\n')])).toEqual(['a', 'c']);
  });

  test('only the first of two leading BOMs is dropped: the second starts an unknown field name', async () => {
    expect(await consumed([bytesOf('\uFEFF\uFEFFdata: x\n\ndata: y\n\n')])).toEqual(['y']);
  });

  test('invalid and unfinished sequences become U+FFFD exactly as decoding the whole stream at once', async () => {
    // A lone continuation byte, a sequence cut short by an ASCII byte, an overlong form, a
    // surrogate's encoding, and a three-byte character left unfinished at the very end.
    const body = bytesOf('data: a', [0x80], 'b', [0xe2, 0x82], 'c', [0xc0, 0xaf], [0xed, 0xa0, 0x80], 'd\n\ndata: e', [0xe2, 0x82], '\n\ndata: tail', [0xf0, 0x9f, 0x8c]);
    const whole = new TextDecoder().decode(body);
    const expected = whole.split('\n\n').slice(0, 2).map((event) => event.slice('data: '.length));
    expect(expected[0]).toContain('\uFFFD');
    for (let at = 0; at <= body.length; at++) {
      for (const at2 of [at, Math.min(body.length, at + 1), Math.min(body.length, at + 2)]) {
        expect(await consumed(cutAt(body, at, at2)), `cuts at ${at} and ${at2}`).toEqual(expected);
      }
    }
  });
});

describe('the event cap at exactly maxEventChars (issue 18)', () => {
  const max = 1000;
  // The big event sits between two small ones; `end` is the offset of its line end.
  const stream = (chars: number) => {
    const text = `data: a\n\ndata: ${'x'.repeat(chars)}\n\ndata: b\n\n`;
    return { bytes: utf8(text), end: text.indexOf('\n\ndata: b') };
  };

  test.each([
    ['in one read', ({ bytes }: ReturnType<typeof stream>) => [bytes]],
    ['cut in the middle of its data', ({ bytes }: ReturnType<typeof stream>) => cutAt(bytes, 500)],
    ['cut just before its line end (the whole line waits in the buffer)', ({ bytes, end }: ReturnType<typeof stream>) => cutAt(bytes, end)],
    ['cut between its two line ends', ({ bytes, end }: ReturnType<typeof stream>) => cutAt(bytes, end + 1)],
    ['one byte per read', ({ bytes }: ReturnType<typeof stream>) => [...bytes].map((b) => Uint8Array.of(b))],
  ])('%s: exactly the cap is delivered, one character more is too_large', async (_name, split) => {
    expect(await consumed(split(stream(max)), { maxEventChars: max })).toEqual(['a', 'x'.repeat(max), 'b']);
    const seen: string[] = [];
    const error = await consumeSse(reads(split(stream(max + 1))), (e) => void seen.push(e.data), { maxEventChars: max }).catch((e) => e);
    expect(error.code).toBe('too_large');
    expect(seen).toEqual(['a']);
  });

  test('data over several lines counts its line feeds: the cap holds for the joined data', async () => {
    const lines = (a: number, b: number) => utf8(`data: ${'y'.repeat(a)}\ndata: ${'z'.repeat(b)}\n\n`);
    for (const at of [700, 6 + 499 + 1 + 6 + 500]) {
      expect(await consumed(cutAt(lines(499, 500), at), { maxEventChars: max })).toEqual([`${'y'.repeat(499)}\n${'z'.repeat(500)}`]);
      const error = await consumed(cutAt(lines(500, 500), at), { maxEventChars: max }).catch((e) => e);
      expect(error.code).toBe('too_large');
    }
  });

  test('a comment line left unterminated over more than twice the cap is refused (nothing buffers without bound)', async () => {
    const error = await consumed(cutAt(utf8(`: ${'c'.repeat(2 * max + 10)}\n\ndata: a\n\n`), 300, 2 * max + 12), { maxEventChars: max }).catch((e) => e);
    expect(error.code).toBe('too_large');
  });

  test('the default cap, 16 MiB, in 64 KiB reads with the line end in a read of its own: exactly 16 MiB is delivered, 16 MiB + 1 is too_large', async () => {
    const size = DEFAULT_MAX_EVENT_CHARS;
    expect(size).toBe(16 * 1024 * 1024);
    const body = (chars: number) => {
      const line = new Uint8Array(6 + chars);
      line.set(utf8('data: '), 0);
      line.fill(0x78, 6);
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < line.length; at += 65536) chunks.push(line.subarray(at, at + 65536));
      chunks.push(utf8('\n\ndata: b\n\n'));
      return chunks;
    };
    const lengths: number[] = [];
    await consumeSse(reads(body(size)), (e) => void lengths.push(e.data.length));
    expect(lengths).toEqual([size, 1]);
    const error = await consumeSse(reads(body(size + 1)), () => {}).catch((e) => e);
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(`exceeded ${size} characters`);
  });
});

describe('the transport reads a long stream of notifications and its reply (issue 18)', () => {
  const transport = new HttpTransport({ url: 'http://127.0.0.1:9/mcp' });
  const reply = (body: Uint8Array[]) => new Response(reads(body), { headers: { 'Content-Type': 'text/event-stream' } });

  test('2,000 notifications cut into odd-sized reads, each parsed once and in order, then the reply', async () => {
    const notes = Array.from({ length: 2000 }, (_, i) => `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"n${i} é"}}\n\n`);
    const bytes = utf8(notes.join('') + 'data: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n\n');
    const chunks: Uint8Array[] = [];
    for (let at = 0, size = 1; at < bytes.length; at += size, size = 1 + ((size * 7 + 3) % 4099)) chunks.push(bytes.subarray(at, at + size));
    const seen: unknown[] = [];
    const { response } = await transport.readReply(reply(chunks), { id: 1, method: 'tools/call' }, { onMessage: (m) => seen.push(m.kind === 'notification' ? m.message.params?.data : m) });
    expect(response).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    expect(seen).toEqual(notes.map((_, i) => `n${i} é`));
  });

  test('a malformed message among them fails the request as protocol, naming what was wrong', async () => {
    const bytes = utf8('data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\ndata: {"jsonrpc":"2.0","method":7}\n\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
    const error = await transport.readReply(reply(cutAt(bytes, 40, 90)), { id: 1, method: 'tools/call' }, { onMessage: () => {} }).catch((e) => e);
    expect(error.code).toBe('protocol');
    expect(error.message).toMatch(/"method" is number 7/);
  });
});

describe('an event with an id and no data sets the last event id (SSE "dispatch the event"), however the reads cut it', () => {
  // Priming events of every shape: id only, id with retry, "id:" with no value, an id with a NUL
  // (ignored, as the parser ignores it), ids between data events, CR and CRLF line ends, a BOM.
  const body = bytesOf(
    '\uFEFFid: p-1\r\nretry: 250\r\n\r\n',
    'data: one\nid: e-2\n\n',
    'id: p-3\n\n',
    'id: p-4\rid: p-5\r\r',
    ': comment\nid: \n\n',
    'id: bad\u0000id\n\n',
    'event: ping\nid: p-6\n\n',
    'id: e-7\ndata: two\n\n',
    'data: three\n\n',
    'id: p-8\n',
  );
  const expected = [
    { id: 'p-1', event: undefined, data: '' },
    { id: 'e-2', event: undefined, data: 'one' },
    { id: 'p-3', event: undefined, data: '' },
    { id: 'p-5', event: undefined, data: '' },
    { id: '', event: undefined, data: '' },
    { id: 'p-6', event: undefined, data: '' },
    { id: 'e-7', event: undefined, data: 'two' },
    { id: undefined, event: undefined, data: 'three' },
    // The stream ends after a whole line: its last event is dispatched (with a warning).
    { id: 'p-8', event: undefined, data: '' },
  ];

  test('one read, and the retry hint is heard', async () => {
    const retries: number[] = [];
    const warnings: string[] = [];
    expect(await eventsOf([body], { onRetry: (ms) => retries.push(ms), onWarning: (code) => warnings.push(code) })).toEqual(expected);
    expect(retries).toEqual([250]);
    expect(warnings).toEqual(['sse-unterminated-event']);
  });

  test('two reads cut at every byte, and three reads at every pair of cuts near the id lines', async () => {
    for (let at = 0; at <= body.length; at++) expect(await eventsOf(cutAt(body, at)), `cut at byte ${at}`).toEqual(expected);
    for (let a = 0; a < 60; a++) {
      for (let b = a; b <= 60; b++) expect(await eventsOf(cutAt(body, a, b)), `cuts at ${a} and ${b}`).toEqual(expected);
    }
  });

  test('one byte per read, with empty reads between them', async () => {
    expect(await eventsOf([...body].flatMap((b) => [new Uint8Array(0), Uint8Array.of(b)]))).toEqual(expected);
  });

  test('what follows an id line decides: a data line, a bare "data" line, or a field that only starts with "data"', async () => {
    const body = bytesOf('id: a\ndata\n\nid: b\ndatum: 1\n\nid: c\ndata:x\n\nid: d\ndata', '\n\n');
    expect(await eventsOf([body])).toEqual([
      { id: 'a', event: undefined, data: '' },
      { id: 'b', event: undefined, data: '' },
      { id: 'c', event: undefined, data: 'x' },
      { id: 'd', event: undefined, data: '' },
    ]);
    for (let at = 0; at <= body.length; at++) expect((await eventsOf(cutAt(body, at))).map((e) => e.id), `cut at byte ${at}`).toEqual(['a', 'b', 'c', 'd']);
  });

  test('data that merely contains "id:" is no id line', async () => {
    expect(await eventsOf([bytesOf('data: paid: yes\ndata: id: no\n\n:id: 9\n\nxid: 1\n\n')])).toEqual([{ id: undefined, event: undefined, data: 'paid: yes\nid: no' }]);
  });

  test('an id line left unterminated over more than twice the cap is too_large, like any buffered line', async () => {
    const error = await eventsOf(cutAt(bytesOf(`id: ${'9'.repeat(2 * 40 + 10)}\n\ndata: x\n\n`), 30, 2 * 40 + 12), { maxEventChars: 40 }).catch((e) => e);
    expect(error.code).toBe('too_large');
  });

  test('the transport hears the id of a data-less priming event on a reply stream', async () => {
    const transport = new HttpTransport({ url: 'http://127.0.0.1:9/mcp' });
    const ids: string[] = [];
    const bytes = bytesOf('id: prime-1\n\nid: prime-2\r\n\r\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
    for (let at = 0; at <= bytes.length; at++) {
      ids.length = 0;
      await transport.readReply(new Response(reads(cutAt(bytes, at)), { headers: { 'Content-Type': 'text/event-stream' } }), { id: 1, method: 'tools/call' }, { onEventId: (id) => ids.push(id) });
      expect(ids, `cut at byte ${at}`).toEqual(['prime-1', 'prime-2']);
    }
  });
});

describe('random streams of id, data, event, retry and comment lines against a line-by-line reading of the SSE rules', () => {
  /** A reference reading of the whole text: what the reader must give however the reads cut it. */
  function reference(text: string) {
    const out: Pick<SseEvent, 'id' | 'event' | 'data'>[] = [];
    const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
    const endsWhole = /[\r\n]$/.test(text);
    if (!endsWhole) lines.pop(); // a line cut off at the end is dropped
    else lines.pop(); // the empty string after the last line end
    let data: string[] = [];
    let id: string | undefined;
    let idLine = false;
    let event: string | undefined;
    const dispatch = () => {
      if (data.length > 0) out.push({ id, event, data: data.join('\n') });
      else if (idLine) out.push({ id, event: undefined, data: '' });
      data = [];
      id = undefined;
      idLine = false;
      event = undefined;
    };
    for (const line of lines) {
      if (line === '') dispatch();
      else if (line.startsWith(':')) continue;
      else {
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value || undefined;
        // A bare "id" line empties the id; an event whose only field is one is not handed on.
        else if (field === 'id' && !value.includes('\0')) {
          id = value;
          idLine ||= colon !== -1;
        }
      }
    }
    // The stream ended after a whole line: its last event is dispatched (the kit's leniency).
    if (endsWhole) dispatch();
    return out;
  }

  test('300 streams, each read whole, at two random cuts and a byte at a time', async () => {
    let seed = 18;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed % n);
    const pieces = ['id: ', 'id:', 'data: ', 'data:', 'data', 'event: e', 'retry: 5', ': c', 'id: 7', 'idx: 1', 'dat', 'é', '€', '😀', 'id', ':', 'x'];
    const ends = ['\n', '\r', '\r\n'];
    for (let n = 0; n < 300; n++) {
      let text = random(5) === 0 ? '\uFEFF' : '';
      const lines = 1 + random(12);
      for (let l = 0; l < lines; l++) {
        const parts = random(3);
        for (let p = 0; p < parts; p++) text += pieces[random(pieces.length)];
        text += ends[random(ends.length)];
        if (random(3) === 0) text += ends[random(ends.length)];
      }
      if (random(4) === 0) text += pieces[random(pieces.length)];
      const bytes = utf8(text);
      const expected = reference(text);
      expect(await eventsOf([bytes]), JSON.stringify(text)).toEqual(expected);
      const a = random(bytes.length + 1);
      const b = a + random(bytes.length + 1 - a);
      expect(await eventsOf(cutAt(bytes, a, b)), `${JSON.stringify(text)} cut at ${a} and ${b}`).toEqual(expected);
      expect(await eventsOf([...bytes].map((byte) => Uint8Array.of(byte))), `${JSON.stringify(text)} a byte at a time`).toEqual(expected);
    }
  });
});
