import { describe, expect, test } from 'vitest';
import { encodeHeaderValue, McpClientError } from '../src/index.js';
import { checkHeaderBindings, paramHeaders } from '../src/transport/header-bindings.js';
import { mentionsHeaderBindings } from '../src/transport/headers.js';

const b64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe('header value encoding (streamable-http "Value Encoding")', () => {
  const rows: [string, string][] = [
    ['eu-central-2', 'eu-central-2'],
    ['two words inside', 'two words inside'],
    ['Gdańsk', b64('Gdańsk')],
    ['雪', b64('雪')],
    [' leading', b64(' leading')],
    ['trailing ', b64('trailing ')],
    ['tab\there', b64('tab\there')],
    ['new\nline', b64('new\nline')],
    ['cr\r\nlf', b64('cr\r\nlf')],
    ['=?base64?looks-encoded?=', b64('=?base64?looks-encoded?=')],
    ['', '=?base64??='],
    ['a', 'a'],
    ['~!#$%&*+-.^_`|', '~!#$%&*+-.^_`|'],
  ];
  test.each(rows)('%j → %j', (input, expected) => {
    expect(encodeHeaderValue(input)).toBe(expected);
  });

  test('every encoded value is a legal header value for fetch', () => {
    for (const [input] of rows) {
      expect(() => new Headers({ 'Mcp-Param-X': encodeHeaderValue(input) })).not.toThrow();
      // fetch would trim surrounding whitespace; an encoded value has none.
      expect(encodeHeaderValue(input)).toBe(encodeHeaderValue(input).trim());
    }
  });
});

describe('x-mcp-header annotations (server/tools "x-mcp-header")', () => {
  const valid = {
    type: 'object',
    properties: {
      zone: { type: 'string', 'x-mcp-header': 'Zone' },
      count: { type: 'integer', 'x-mcp-header': 'Count' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      maybe: { type: ['string', 'null'], 'x-mcp-header': 'Maybe' },
      nested: { type: 'object', properties: { inner: { type: 'string', 'x-mcp-header': 'Inner' } } },
      // A property *named* x-mcp-header is a name, not an annotation.
      'x-mcp-header': { type: 'string' },
      text: { type: 'string', default: { 'x-mcp-header': 'data, not an annotation' } },
    },
  };

  test('finds every valid binding with its path', () => {
    const check = checkHeaderBindings(valid);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.bindings).toEqual([
      { name: 'Zone', path: ['zone'], type: 'string' },
      { name: 'Count', path: ['count'], type: 'integer' },
      { name: 'Verbose', path: ['verbose'], type: 'boolean' },
      { name: 'Maybe', path: ['maybe'], type: 'string' },
      { name: 'Inner', path: ['nested', 'inner'], type: 'string' },
    ]);
  });

  const invalid: [string, Record<string, unknown>, RegExp][] = [
    ['empty', { a: { type: 'string', 'x-mcp-header': '' } }, /empty/],
    ['space', { a: { type: 'string', 'x-mcp-header': 'Two Words' } }, /not an HTTP token/],
    ['colon', { a: { type: 'string', 'x-mcp-header': 'A:B' } }, /not an HTTP token/],
    ['non-ASCII', { a: { type: 'string', 'x-mcp-header': 'Zoné' } }, /not an HTTP token/],
    ['tab', { a: { type: 'string', 'x-mcp-header': 'A\tB' } }, /not an HTTP token/],
    ['not a string', { a: { type: 'string', 'x-mcp-header': 7 } }, /empty or not a string/],
    ['number type', { a: { type: 'number', 'x-mcp-header': 'Ratio' } }, /not string, integer or boolean/],
    ['object type', { a: { type: 'object', 'x-mcp-header': 'Obj' } }, /not string, integer or boolean/],
    ['array type', { a: { type: 'array', 'x-mcp-header': 'Arr' } }, /not string, integer or boolean/],
    ['null type', { a: { type: 'null', 'x-mcp-header': 'Nil' } }, /not string, integer or boolean/],
    ['two non-null types', { a: { type: ['string', 'integer'], 'x-mcp-header': 'Mixed' } }, /not string, integer or boolean/],
    ['duplicate, same case', { a: { type: 'string', 'x-mcp-header': 'Dup' }, b: { type: 'string', 'x-mcp-header': 'Dup' } }, /duplicates/],
    ['duplicate, other case', { a: { type: 'string', 'x-mcp-header': 'Dup' }, b: { type: 'string', 'x-mcp-header': 'DUP' } }, /case-insensitive/],
    ['under items', { list: { type: 'array', items: { type: 'object', properties: { v: { type: 'string', 'x-mcp-header': 'V' } } } } }, /not on a property reachable/],
    ['under oneOf', { u: { oneOf: [{ type: 'object', properties: { v: { type: 'string', 'x-mcp-header': 'V' } } }] } }, /not on a property reachable/],
    ['under if/then', { c: { type: 'object', if: { required: ['x'] }, then: { properties: { v: { type: 'string', 'x-mcp-header': 'V' } } } } }, /not on a property reachable/],
  ];
  test.each(invalid)('rejects an annotation that is %s', (_name, properties, reason) => {
    const check = checkHeaderBindings({ type: 'object', properties });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });

  test('rejects an annotation inside $defs even when referenced from a property', () => {
    const check = checkHeaderBindings({
      type: 'object',
      $defs: { zone: { type: 'string', 'x-mcp-header': 'Zone' } },
      properties: { zone: { $ref: '#/$defs/zone' } },
    });
    expect(check).toEqual({ ok: false, reason: expect.stringMatching(/#\/\$defs\/zone/) });
  });

  test('a hostile 50,000-level schema neither overflows the stack nor hides a valid tool', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 50_000; i++) deep = { type: 'object', properties: { next: deep } };
    expect(checkHeaderBindings(deep)).toEqual({ ok: false, reason: expect.stringMatching(/more than 10000 subschemas/) });
    let nested: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5_000; i++) nested = { anyOf: [nested] };
    expect(checkHeaderBindings({ type: 'object', properties: { x: nested } }, 100_000)).toEqual({ ok: true, bindings: [] });
  });

  test('bounds its walk on huge schemas', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 200; i++) properties[`p${i}`] = { type: 'string' };
    expect(checkHeaderBindings({ type: 'object', properties }, 50)).toEqual({ ok: false, reason: expect.stringMatching(/more than 50/) });
  });
});

describe('Mcp-Param-* headers of a call', () => {
  const bindings = [
    { name: 'Zone', path: ['zone'], type: 'string' as const },
    { name: 'Count', path: ['count'], type: 'integer' as const },
    { name: 'Verbose', path: ['verbose'], type: 'boolean' as const },
    { name: 'Inner', path: ['nested', 'inner'], type: 'string' as const },
  ];

  test('mirrors present values, encodes them, omits missing and null ones', () => {
    expect(paramHeaders(bindings, { zone: 'Gdańsk', count: -7, verbose: false, nested: { inner: 'x' } })).toEqual({
      'Mcp-Param-Zone': b64('Gdańsk'),
      'Mcp-Param-Count': '-7',
      'Mcp-Param-Verbose': 'false',
      'Mcp-Param-Inner': 'x',
    });
    expect(paramHeaders(bindings, { zone: null, nested: {} })).toEqual({});
    expect(paramHeaders(bindings, {})).toEqual({});
  });

  test('refuses an integer outside ±(2^53−1) instead of corrupting it', () => {
    expect(() => paramHeaders(bindings, { count: 2 ** 53 })).toThrow(McpClientError);
    expect(() => paramHeaders(bindings, { count: 2 ** 53 })).toThrow(/outside ±\(2\^53−1\)/);
  });

  test('refuses a value whose type does not match the declared primitive', () => {
    expect(() => paramHeaders(bindings, { count: 1.5 })).toThrow(/must be a integer/);
    expect(() => paramHeaders(bindings, { verbose: 'yes' })).toThrow(/must be a boolean/);
  });

  test('reads own argument keys only: a binding path through __proto__ or constructor finds nothing inherited', () => {
    const hostile = [
      { name: 'Proto', path: ['__proto__', 'polluted'], type: 'string' as const },
      { name: 'Ctor', path: ['constructor'], type: 'string' as const },
    ];
    // Following inherited properties would find Object and fail the call ("got function").
    expect(paramHeaders(hostile, {})).toEqual({});
    const args = JSON.parse('{"__proto__": {"polluted": "own value"}}') as Record<string, unknown>;
    expect(paramHeaders(hostile, args)).toEqual({ 'Mcp-Param-Proto': 'own value' });
  });
});

describe('deciding whether the x-mcp-header checker is needed', () => {
  test('only schemas that mention the annotation load it', () => {
    expect(mentionsHeaderBindings({ type: 'object', properties: { q: { type: 'string' } } })).toBe(false);
    expect(mentionsHeaderBindings({ type: 'object', properties: { q: { type: 'string', 'x-mcp-header': 'Q' } } })).toBe(true);
    // A description quoting the word is not an annotation.
    expect(mentionsHeaderBindings({ type: 'object', description: 'no x-mcp-header here' })).toBe(false);
  });

  test('an annotation in a nested schema is found; a schema nested too deep, or with no end (a cyclic caller-made object), counts as mentioning it (the bounded checker then decides)', () => {
    let nested: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'Deep' };
    for (let i = 0; i < 500; i++) nested = { type: 'object', properties: { next: nested } };
    expect(mentionsHeaderBindings(nested)).toBe(true);
    let plain: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 300; i++) plain = { type: 'object', properties: { next: plain } };
    expect(mentionsHeaderBindings(plain)).toBe(false);
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 200_000; i++) deep = { not: deep };
    expect(mentionsHeaderBindings(deep)).toBe(true);
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(mentionsHeaderBindings(cyclic)).toBe(true);
  });

  test('its bounds are exact: 1,000 levels and 1,000,000 objects are walked, one more counts as mentioning it; a wide cyclic value ends too', () => {
    const nest = (levels: number) => {
      let value: Record<string, unknown> = { type: 'string' };
      for (let i = 1; i < levels; i++) value = { items: value };
      return value;
    };
    expect(mentionsHeaderBindings(nest(1000))).toBe(false);
    expect(mentionsHeaderBindings(nest(1001))).toBe(true);
    // The schema and the array count as two.
    expect(mentionsHeaderBindings({ enum: Array.from({ length: 999_998 }, () => ({})) })).toBe(false);
    expect(mentionsHeaderBindings({ enum: Array.from({ length: 999_999 }, () => ({})) })).toBe(true);
    const wide: Record<string, unknown> = {};
    for (let i = 0; i < 2000; i++) wide[`k${i}`] = wide;
    expect(mentionsHeaderBindings(wide)).toBe(true);
  });

  test('one queue passed for many schemas in a row (as a listing does) gives each its own answer', () => {
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: 'array', items: { type: 'string' } }])) };
    const annotated = { type: 'object', properties: { q: { type: 'string', 'x-mcp-header': 'Q' } } };
    const small = { type: 'object', properties: { q: { type: 'string' } } };
    const deep = (levels: number) => {
      let value: Record<string, unknown> = { type: 'string' };
      for (let i = 1; i < levels; i++) value = { items: value };
      return value;
    };
    const queue: unknown[] = [];
    const schemas = [big, small, annotated, small, big, deep(1001), small, deep(1000), annotated, big];
    expect(schemas.map((schema) => mentionsHeaderBindings(schema, queue))).toEqual(schemas.map((schema) => mentionsHeaderBindings(schema)));
    expect(schemas.map((schema) => mentionsHeaderBindings(schema))).toEqual([false, false, true, false, false, true, false, false, true, false]);
  });

  test('a key inherited from a prototype is not an annotation; one in an array item or a $defs entry is', () => {
    expect(mentionsHeaderBindings(Object.create({ 'x-mcp-header': 'Q' }) as object)).toBe(false);
    expect(mentionsHeaderBindings({ type: 'object', allOf: [{ properties: { q: { 'x-mcp-header': 'Q' } } }] })).toBe(true);
    expect(mentionsHeaderBindings({ $defs: { a: { 'x-mcp-header': 'Q' } } })).toBe(true);
  });
});

describe('which request headers need a CORS preflight (src/transport/cors.ts)', () => {
  test('the kit\'s Accept is safelisted, application/json and every Mcp-* or custom header are not', async () => {
    const { preflightHeaders } = await import('../src/transport/cors.js');
    expect(
      preflightHeaders({
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'X-Tenant': 'blue',
      }),
    ).toEqual(['Content-Type', 'MCP-Protocol-Version', 'Mcp-Method', 'X-Tenant']);
    expect(preflightHeaders({ 'Content-Type': 'text/plain;charset=UTF-8', 'Accept-Language': 'fr' })).toEqual([]);
    // A safelisted name with an unsafe value needs permission after all.
    expect(preflightHeaders({ Accept: 'text/{weird}' })).toEqual(['Accept']);
    expect(preflightHeaders(new Headers({ 'mcp-session-id': 's' }))).toEqual(['mcp-session-id']);
  });
});
