import { describe, expect, test } from 'vitest';
import { McpClientError } from '../src/index.js';
import { parseMessage, parseMessageText } from '../src/protocol/jsonrpc.js';
import { parseJson, resultChars } from '../src/protocol/types.js';

describe('strict JSON-RPC parsing', () => {
  test('accepts each message kind', () => {
    expect(parseMessage({ jsonrpc: '2.0', id: 7, result: { ok: true } }).kind).toBe('response');
    expect(parseMessage({ jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'nope' } }).kind).toBe('response');
    expect(parseMessage({ jsonrpc: '2.0', error: { code: -32700, message: 'unreadable' } }).kind).toBe('response');
    expect(parseMessage({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'unreadable' } }).kind).toBe('response');
    expect(parseMessage({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }).kind).toBe('notification');
    expect(parseMessage({ jsonrpc: '2.0', id: 3, method: 'ping' }).kind).toBe('request');
  });

  const malformed: [string, unknown, RegExp][] = [
    ['a batch', [{ jsonrpc: '2.0', id: 1, result: {} }], /JSON array \(a batch\)/],
    ['a string', 'hello', /got string "hello", expected a JSON object/],
    ['null', null, /got null/],
    ['wrong version', { jsonrpc: '1.0', id: 1, result: {} }, /"jsonrpc" is string "1.0", expected "2.0"/],
    ['missing version', { id: 1, result: {} }, /"jsonrpc" is undefined/],
    ['result and error', { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } }, /has both "result" and "error"/],
    ['neither', { jsonrpc: '2.0', id: 1 }, /neither "method", "result" nor "error"/],
    ['array result', { jsonrpc: '2.0', id: 1, result: [1, 2] }, /"result" is an array, expected an object/],
    ['null result', { jsonrpc: '2.0', id: 1, result: null }, /"result" is null, expected an object/],
    ['fractional id', { jsonrpc: '2.0', id: 1.5, result: {} }, /"id" of a result is number 1.5/],
    ['null id on a result', { jsonrpc: '2.0', id: null, result: {} }, /"id" of a result is null/],
    ['string error code', { jsonrpc: '2.0', id: 1, error: { code: '-32000', message: 'x' } }, /"error.code" is string "-32000", expected an integer/],
    ['missing error message', { jsonrpc: '2.0', id: 1, error: { code: -32000 } }, /"error.message" is undefined, expected a string/],
    ['error not an object', { jsonrpc: '2.0', id: 1, error: 'boom' }, /"error" is string "boom"/],
    ['empty method', { jsonrpc: '2.0', method: '' }, /"method" is string "", expected a non-empty string/],
    ['params array', { jsonrpc: '2.0', method: 'x', params: [1] }, /"params" of x is an array, expected an object/],
    ['request id object', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, /"id" of request ping is an object/],
  ];
  test.each(malformed)('rejects %s with a typed error naming the problem', (_name, value, message) => {
    let error: unknown;
    try {
      parseMessage(value, { url: 'http://example.test/mcp' });
    } catch (e) {
      error = e;
    }
    expect(McpClientError.isInstance(error)).toBe(true);
    expect((error as McpClientError).code).toBe('protocol');
    expect((error as McpClientError).message).toMatch(message);
    expect((error as McpClientError).data.url).toBe('http://example.test/mcp');
  });

  test('rejects text that is not JSON, quoting its start', () => {
    expect(() => parseMessageText('<html>sign in</html>')).toThrow(/not valid JSON \(starts with "<html>sign in<\/html>"\)/);
  });

  test('notes the length of the text a result arrived in (what a listing counts against maxListBytes), for results only', () => {
    const text = '{ "jsonrpc": "2.0", "id": 1, "result": { "tools": [] } }  ';
    const parsed = parseMessageText(text);
    expect(resultChars.get((parsed.message as { result: object }).result)).toBe(text.length);
    const error = parseJson('{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}') as { error: object };
    expect(resultChars.has(error.error)).toBe(false);
    expect(parseJson('[1]')).toEqual([1]);
  });
});
