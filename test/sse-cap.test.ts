/**
 * The SSE event cap (`maxEventChars`) counts an event's data, however the
 * network cuts the stream into reads: the field lines around the data (`id:`,
 * `event:`, a comment) do not count against it, and an event one character
 * over the cap is refused at every cut.
 */
import { describe, expect, test } from 'vitest';
import { McpClientError } from '../src/protocol/errors.js';
import { readSse } from '../src/transport/sse.js';
import { reads } from './support/streams.js';

/** The events' data and ids, or the error's code. */
async function outcome(chunks: Uint8Array[], maxEventChars: number): Promise<{ data: string; id: string | undefined }[] | string> {
  const out: { data: string; id: string | undefined }[] = [];
  try {
    for await (const event of readSse(reads(chunks), { maxEventChars })) out.push({ data: event.data, id: event.id });
  } catch (error) {
    if (error instanceof McpClientError) return error.code;
    throw error;
  }
  return out;
}

const MAX = 24;
// Data of exactly MAX UTF-16 units: 2-, 3- and 4-byte UTF-8 characters, and two data lines (the line feed between them counts).
const bodies = { '2-byte': 'é'.repeat(MAX), '3-byte': '€'.repeat(MAX), '4-byte': '😀'.repeat(MAX / 2), 'two lines': `${'a'.repeat(10)}\n${'€'.repeat(MAX - 11)}` };
// What may follow the data lines of an event before its blank line.
const tails = { 'an id line': 'id: 0123456789abcdef\n\n', 'an event line': 'event: message\n\n', 'a comment': ': keep-alive from a proxy\n\n', 'nothing': '\n' };

describe('an event of exactly maxEventChars passes at every cut, whatever field lines follow its data', () => {
  for (const [kind, body] of Object.entries(bodies)) {
    test(`${kind} data`, async () => {
      expect(body.length).toBe(MAX);
      const data = body
        .split('\n')
        .map((line) => `data: ${line}\n`)
        .join('');
      for (const [name, tail] of Object.entries(tails)) {
        const bytes = new TextEncoder().encode(`${data}${tail}data: next\n\n`);
        const id = name === 'an id line' ? '0123456789abcdef' : undefined;
        const expected = [
          { data: body, id },
          { data: 'next', id: undefined },
        ];
        for (let cut = 0; cut <= bytes.length; cut++) {
          expect(await outcome([bytes.subarray(0, cut), bytes.subarray(cut)], MAX), `${name}, cut at byte ${cut}`).toEqual(expected);
        }
        // Many tiny reads: one byte each.
        expect(await outcome([...bytes].map((byte) => Uint8Array.of(byte)), MAX), `${name}, one byte per read`).toEqual(expected);
      }
    });
  }

  test('one character more is refused at every cut', async () => {
    for (const body of Object.values(bodies)) {
      const bytes = new TextEncoder().encode(`data: ${body.replace('\n', '\ndata: ')}x\nid: 7\n\n`);
      for (let cut = 0; cut <= bytes.length; cut++) {
        expect(await outcome([bytes.subarray(0, cut), bytes.subarray(cut)], MAX), `cut at byte ${cut}`).toBe('too_large');
      }
    }
  });
});
