/**
 * The protocol log's data side: the ring buffer, secret masking, `curl`
 * quoting and the checks on session files (untrusted input).
 */
import { describe, expect, test } from 'vitest';
import { ENTRY_CHARS, maskHeaders, parseSession, RecordRing, toCurl, toJson, type LogRecord } from './records.js';

const record = (seq: number, extra: Partial<LogRecord> = {}): LogRecord => ({ seq, time: 1_700_000_000_000 + seq, direction: 'out', kind: 'request', client: 1, message: { jsonrpc: '2.0', id: seq, method: 'ping' }, ...extra });

describe('protocol log records', () => {
  test('the ring keeps the newest records and counts the dropped ones', () => {
    const ring = new RecordRing(3);
    const evicted = [1, 2, 3, 4, 5].map((n) => ring.push(record(n)));
    expect(ring.toArray().map((r) => r.seq)).toEqual([3, 4, 5]);
    expect(ring.dropped).toBe(2);
    expect(evicted.map((r) => r?.seq)).toEqual([undefined, undefined, undefined, 1, 2]);
    expect(ring.resized(2).toArray().map((r) => r.seq)).toEqual([4, 5]);
  });

  test('secret headers are masked; others are kept', () => {
    expect(
      maskHeaders({
        Authorization: 'Bearer abc.def',
        'X-Api-Key': 'k-123',
        Cookie: 'sid=1',
        'Mcp-Session-Id': 'sess-9',
        'Proxy-Authorization': 'Basic Zm9v',
        'MCP-Protocol-Version': '2026-07-28',
        'X-Tenant': 'blue',
        // API keys under names without "api" (Azure Functions, API Management) and other credential names.
        'X-Functions-Key': 'fk-1',
        'Ocp-Apim-Subscription-Key': 'sub-2',
        'X-Access-Key': 'ak-3',
        'X-Passphrase': 'pp-4',
        'X-Signature': 'sig-5',
      }),
    ).toEqual({
      Authorization: 'Bearer <redacted>',
      'X-Api-Key': '<redacted>',
      Cookie: '<redacted>',
      'Mcp-Session-Id': '<redacted>',
      'Proxy-Authorization': 'Basic <redacted>',
      'MCP-Protocol-Version': '2026-07-28',
      'X-Tenant': 'blue',
      'X-Functions-Key': '<redacted>',
      'Ocp-Apim-Subscription-Key': '<redacted>',
      'X-Access-Key': '<redacted>',
      'X-Passphrase': '<redacted>',
      'X-Signature': '<redacted>',
    });
  });

  test('the credentials of a server URL are masked in a curl copy and in an imported session', () => {
    const url = 'https://user:pw-1@example.com/mcp?token=tok-2&api_key=key-3&tenant=blue';
    const curl = toCurl(record(3, { url }));
    for (const secret of ['pw-1', 'tok-2', 'key-3']) expect(curl).not.toContain(secret);
    expect(curl).toContain(`curl 'https://…@example.com/mcp?token=…&api_key=…&tenant=blue'`);
    const file = { format: 'mcp-web-elements-protocol-log', version: 1, dropped: 0, records: [record(1, { url })] };
    expect(parseSession(JSON.stringify(file), 10).records[0]!.url).toBe('https://…@example.com/mcp?token=…&api_key=…&tenant=blue');
  });

  test('a session saved before the package was renamed (format mcp-elements-protocol-log) still imports; another format does not', () => {
    const records = [record(1), record(2)];
    expect(parseSession(JSON.stringify({ format: 'mcp-elements-protocol-log', version: 1, dropped: 0, records }), 10).records).toHaveLength(2);
    expect(() => parseSession(JSON.stringify({ format: 'other-log', version: 1, dropped: 0, records }), 10)).toThrow(/not a protocol log session/);
  });

  test('an imported session is numbered afresh: duplicate or huge seq and client numbers (1e400 reads as Infinity) do not collide', () => {
    const one = (seq: string, client: string, id: number) =>
      `{"seq":${seq},"time":1700000000000,"direction":"out","kind":"request","client":${client},"message":{"jsonrpc":"2.0","id":${id},"method":"ping"}}`;
    const text = `{"format":"mcp-web-elements-protocol-log","version":1,"dropped":0,"records":[${one('1e400', '1e400', 1)},${one('1e400', '7', 1)},${one('5', '1e400', 2)},${one('5', '0', 3)}]}`;
    const { records } = parseSession(text, 10);
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    // The same client value stays one client (its requests still pair); others are told apart.
    expect(records.map((r) => r.client)).toEqual([1, 2, 1, 0]);
  });

  test('curl quotes single quotes for the shell', () => {
    const text = toCurl(record(7, { url: "https://example.com/m'cp", headers: { 'X-Note': "it's" }, message: { text: "a'b" } }));
    expect(text).toContain(`curl 'https://example.com/m'\\''cp'`);
    expect(text).toContain(`-H 'X-Note: it'\\''s'`);
    expect(text).toContain(`--data-raw '{"text":"a'\\''b"}'`);
  });

  test('a message of megabytes is printed up to ENTRY_CHARS (20,000), with a line saying it was cut', () => {
    const tools = Array.from({ length: 50_000 }, (_, i) => ({ name: `tool_${i}`, description: 'x'.repeat(100) }));
    const text = toJson(record(9, { direction: 'in', kind: 'response', message: { jsonrpc: '2.0', id: 9, result: { tools } } }));
    expect(ENTRY_CHARS).toBe(20_000);
    expect(text.length).toBeGreaterThan(ENTRY_CHARS);
    expect(text.length).toBeLessThan(ENTRY_CHARS + 100);
    expect(text).toMatch(/\n… \(cut at 20,000 characters\)$/);
    expect(toJson(record(10))).toBe(JSON.stringify(record(10).message, null, 2));
  });

  test('a session file is checked, its headers masked again, and cut to the capacity', () => {
    const file = { format: 'mcp-web-elements-protocol-log', version: 1, dropped: 4, records: [record(1, { headers: { Authorization: 'Bearer leaked' } }), record(2), record(3)] };
    const { records, dropped } = parseSession(JSON.stringify(file), 2);
    expect(records.map((r) => r.seq)).toEqual([2, 3]);
    expect(dropped).toBe(5);
    expect(parseSession(JSON.stringify(file), 10).records[0]!.headers).toEqual({ Authorization: 'Bearer <redacted>' });
    expect(() => parseSession('{', 10)).toThrow(/not JSON/);
    expect(() => parseSession(JSON.stringify({ ...file, version: 2 }), 10)).toThrow(/Unknown session version 2/);
    expect(() => parseSession(JSON.stringify({ ...file, records: [{ ...record(1), time: 'noon' }] }), 10)).toThrow(/Record 0 has no numeric seq and time/);
  });
});
