/**
 * JSON Schema handling (spec: basic/index "JSON Schema Usage"): dialects,
 * `$ref` rules, work bounds. The same expectations hold for ajv (the default)
 * and for `@cfworker/json-schema` plugged in with `useSchemaCompiler`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fanOutSchema, graphLikeSchema } from '../components/test-support/fixtures.js';
import { cfworkerCompiler } from '../src/schema/cfworker.js';
import { compileSchema, compileSchemaSync, DEFAULT_SCHEMA_LIMITS, ensureValidator, McpClientError, schemaDialect, checkSchemaBounds, useSchemaCompiler, type SchemaCompiler } from '../src/index.js';
import { startRawServer } from './support/servers.js';

const NativeRegExp = RegExp;

const IMPLEMENTATIONS: [string, SchemaCompiler | undefined][] = [
  ['ajv', undefined],
  ['@cfworker/json-schema', cfworkerCompiler],
];

describe.each(IMPLEMENTATIONS)('with %s', (_name, compiler) => {
  beforeAll(() => useSchemaCompiler(compiler));
  afterAll(() => useSchemaCompiler(undefined));

  describe('dialects', () => {
    test('2020-12 is the default; prefixItems is understood', async () => {
      const validate = await compileSchema({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false });
      expect(validate(['a', 1])).toEqual({ valid: true });
      expect(validate(['a', 'b']).valid).toBe(false);
      expect(validate(['a', 1, 2]).valid).toBe(false);
    });

    test('draft-07 when declared: array-form items is understood', async () => {
      const validate = await compileSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false });
      expect(validate(['a', 1])).toEqual({ valid: true });
      expect(validate(['a', 1, 2]).valid).toBe(false);
    });

    test('an unknown dialect is refused with a clear error', async () => {
      expect(schemaDialect({ $schema: 'http://json-schema.org/draft-04/schema#' })).toEqual({ unsupported: 'http://json-schema.org/draft-04/schema#' });
      // A $schema naming an Object.prototype member is just another unknown dialect.
      for (const name of ['constructor', 'toString', '__proto__']) expect(schemaDialect({ $schema: name })).toEqual({ unsupported: name });
      const error = await compileSchema({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }).catch((e) => e);
      expect(McpClientError.isInstance(error) && error.code).toBe('schema');
      expect(error.message).toMatch(/dialect "http:\/\/json-schema.org\/draft-04\/schema#" is not supported \(supported: 2020-12, draft-07\)/);
    });

    test('non-standard keywords from real servers are tolerated', async () => {
      const validate = await compileSchema({
        type: 'object',
        properties: { pet: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Rex', 'Tom'] }, zone: { type: 'string', 'x-mcp-header': 'Zone' } },
      });
      expect(validate({ pet: 'p1', zone: 'z' })).toEqual({ valid: true });
    });

    test('formats are checked (date, date-time, email, uri, uuid)', async () => {
      const validate = await compileSchema({
        type: 'object',
        properties: { d: { format: 'date' }, t: { format: 'date-time' }, e: { format: 'email' }, u: { format: 'uri' }, id: { format: 'uuid' } },
      });
      expect(validate({ d: '2026-02-28', t: '2026-02-28T10:15:00Z', e: 'ana@example.org', u: 'https://example.org/x', id: '0b5c7f3e-2a7f-4d5e-9c2b-6f1f2a3b4c5d' })).toEqual({ valid: true });
      const bad = validate({ d: '2026-02-30', t: '2026-02-28T10:15', e: 'not-an-email', u: 'relative/path', id: 'nope' });
      expect(bad.valid).toBe(false);
      if (!bad.valid) expect(bad.issues.map((i) => i.path).sort()).toEqual(['/d', '/e', '/id', '/t', '/u']);
    });

    test('issues are located by JSON Pointer; a missing required property points at that property', async () => {
      const validate = await compileSchema({ type: 'object', properties: { a: { type: 'object', properties: { 'x/y': { type: 'integer' } }, required: ['x/y'] } }, required: ['a'] });
      const result = validate({ a: {} });
      expect(result).toEqual({ valid: false, issues: [expect.objectContaining({ path: '/a/x~1y', keyword: 'required', message: 'is required' })] });
    });
  });

  describe('$ref resolution', () => {
    test('local $defs, $anchor and recursive references work', async () => {
      const validate = await compileSchema({
        $defs: { node: { $anchor: 'node', type: 'object', properties: { value: { type: 'integer' }, next: { $ref: '#node' } } } },
        $ref: '#/$defs/node',
      });
      expect(validate({ value: 1, next: { value: 2, next: { value: 3 } } })).toEqual({ valid: true });
      expect(validate({ value: 1, next: { value: 'two' } }).valid).toBe(false);
    });

    test('a network $ref is never fetched, and the schema is rejected rather than treated as permissive', async () => {
      const canary = await startRawServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"type":"string"}');
      });
      try {
        const error = await compileSchema({ type: 'object', properties: { profile: { $ref: `${canary.origin}/schemas/profile.json` } } }).catch((e) => e);
        expect(error.code).toBe('schema');
        expect(error.message).toMatch(/not inside the schema \(network references are never fetched\)/);
        await new Promise((r) => setTimeout(r, 50));
        expect(canary.requests).toHaveLength(0);
      } finally {
        await canary.close();
      }
    });

    test('two schemas may reuse one $id', async () => {
      const a = await compileSchema({ $id: 'https://example.org/shared.json', type: 'string' });
      const b = await compileSchema({ $id: 'https://example.org/shared.json', type: 'integer' });
      expect(a('x')).toEqual({ valid: true });
      expect(b(3)).toEqual({ valid: true });
      expect(b('x').valid).toBe(false);
    });
  });

    describe('hostile references and values', () => {
    test('a local $ref to a member the schema does not have is refused, also one named like an Object.prototype member', async () => {
      for (const ref of ['#/constructor', '#/__proto__', '#/properties/constructor', '#/$defs/missing', 'https://github.com/cfworker', '#/properties/a~1b']) {
        const error = await compileSchema({ type: 'object', properties: { a: { type: 'string' }, x: { $ref: ref } } }).catch((e) => e);
        expect({ ref, code: error.code, missingRef: error.data?.missingRef }).toEqual({ ref, code: 'schema', missingRef: ref });
        expect(error.message).toMatch(/not inside the schema/);
      }
    });

    test('a member named like a keyword is a member: its reference and pattern are checked like any other', async () => {
      const inherited = await compileSchema({ type: 'object', properties: { default: { $ref: '#/constructor' } } }).catch((e) => e);
      expect(inherited.data?.missingRef).toBe('#/constructor');
      const nested = await compileSchema({ type: 'object', $defs: { other: { $id: 'https://example.org/other.json' } }, properties: { a: { $ref: '#/__proto__' } } }).catch((e) => e);
      expect(nested.data?.missingRef).toBe('#/__proto__');
      const validate = await compileSchema({ type: 'object', properties: { default: { type: 'string', pattern: '^(a+)+$' }, enum: { type: 'string', pattern: '^(b+)+$' } } });
      expect(validate.skipped).toBeUndefined();
      expect(validate({ default: 'a'.repeat(40) + '!', enum: 'b'.repeat(40) + '!' })).toMatchObject({ valid: false, issues: [{ path: '/default', keyword: 'pattern' }, { path: '/enum', keyword: 'pattern' }] });
      expect(validate({ default: 'aaa', enum: 'bb' })).toEqual({ valid: true });
    });

    test('a reference into data is refused: a library would compile it as a schema nobody checked', async () => {
      const draft07 = 'http://json-schema.org/draft-07/schema#';
      const cases: [Record<string, unknown>, string][] = [
        [{ default: { type: 'string', pattern: '^(a+)+$' }, $ref: '#/default' }, '#/default'],
        [{ enum: [{ pattern: '^(a+)+$' }], $ref: '#/enum/0' }, '#/enum/0'],
        [{ examples: [{ pattern: '^(a+)+$' }], $ref: '#/examples/0' }, '#/examples/0'],
        [{ const: { pattern: '^(a+)+$' }, properties: { a: { $ref: '#/%63onst' } } }, '#/%63onst'],
        [{ properties: { x: { default: { pattern: '^(a+)+$' } }, y: { $ref: '#/properties/x/default' } } }, '#/properties/x/default'],
        [{ $schema: draft07, definitions: { a: { default: { patternProperties: { '^(a+)+$': {} } } } }, $ref: '#/definitions/a/default' }, '#/definitions/a/default'],
      ];
      for (const [schema, ref] of cases) {
        const error = await compileSchema(schema).catch((e) => e);
        expect({ ref, code: error.code, missingRef: error.data?.missingRef }).toEqual({ ref, code: 'schema', missingRef: ref });
        expect(error.message).toMatch(/points into the data of "(default|enum|examples|const)", not to a subschema/);
      }
      // Members that only share a data keyword's name, and vendor keywords, are fine to point at.
      const validate = await compileSchema({ properties: { default: { type: 'string', minLength: 2 } }, 'x-shared': { short: { maxLength: 3 } }, $defs: { a: { $ref: '#/properties/default' }, b: { $ref: '#/x-shared/short' } }, allOf: [{ $ref: '#/$defs/a' }, { $ref: '#/$defs/b' }] });
      expect(validate('a')).toMatchObject({ valid: false, issues: [{ keyword: 'minLength' }] });
      expect(validate('abcd')).toMatchObject({ valid: false, issues: [{ keyword: 'maxLength' }] });
      expect(validate('abc')).toEqual({ valid: true });
    });

    test('"$id": "" starts no resource of its own: its pointers are read against the enclosing one', async () => {
      const error = await compileSchema({ $defs: { a: { $id: '', constructor: { type: 'string' }, $ref: '#/constructor' } }, $ref: '#/$defs/a' }).catch((e) => e);
      expect(error.data?.missingRef).toBe('#/constructor');
    });

    test('relative $ids resolve between the schema\'s own resources', async () => {
      expect((await compileSchema({ $id: 'tool-input.json', type: 'object', properties: { a: { type: 'string' } } }))({ a: 1 }).valid).toBe(false);
      const validate = await compileSchema({ type: 'object', $defs: { a: { $id: 'a.json', type: 'string', minLength: 2 } }, properties: { x: { $ref: 'a.json' } } });
      expect(validate({ x: 'ok' })).toEqual({ valid: true });
      expect(validate({ x: 'k' })).toMatchObject({ valid: false, issues: [{ path: '/x', keyword: 'minLength' }] });
    });

    test('references the checks never follow do not make a schema invalid: unknown keywords, unused definitions', async () => {
      const schemas = [
        { 'x-ref': { $ref: '#/components/schemas/Foo' }, type: 'object', properties: { a: { type: 'string' } } },
        { discriminator: { mapping: { a: { $ref: '#/nope' } } }, type: 'object' },
        { $defs: { unused: { $ref: '#/$defs/missing' } }, type: 'object' },
        { $schema: 'http://json-schema.org/draft-07/schema#', definitions: { unused: { $ref: '#/definitions/missing' } }, type: 'object' },
      ];
      for (const schema of schemas) expect((await compileSchema(schema))({})).toEqual({ valid: true });
    });

    test('a relative reference has nothing to resolve against and is refused', async () => {
      for (const ref of ['/', '.', './#/$defs/s', 'other.json']) {
        const error = await compileSchema({ type: 'object', $defs: { s: { type: 'string' } }, properties: { a: { $ref: ref } } }).catch((e) => e);
        expect({ ref, code: error.code }).toEqual({ ref, code: 'schema' });
      }
    });

    test('data that looks like a reference is data', async () => {
      const validate = await compileSchema({ type: 'object', properties: { a: { const: { $ref: '' } }, b: { enum: [{ $ref: '' }] } } });
      expect(validate({ a: { $ref: '' }, b: { $ref: '' } })).toEqual({ valid: true });
      expect(validate({ a: { $ref: '#' } }).valid).toBe(false);
    });

    test('"$ref": "" is the schema itself', async () => {
      const validate = await compileSchema({ type: 'object', properties: { child: { $ref: '' } } });
      expect(validate({ child: { child: {} } })).toEqual({ valid: true });
      expect(validate({ child: 1 })).toMatchObject({ valid: false, issues: [{ path: '/child', keyword: 'type' }] });
    });

    test('a member named like an Object.prototype member is required like any other', async () => {
      const validate = await compileSchema({ type: 'object', required: ['constructor', '__proto__', 'toString'] });
      expect(validate({})).toMatchObject({ valid: false, issues: [{ path: '/constructor' }, { path: '/__proto__' }, { path: '/toString' }] });
    });

    test('a schema that applies itself to the same value without end is refused: no library could finish a check', async () => {
      const loops = [{ $ref: '#' }, { $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' }, { if: { $ref: '#' } }];
      for (const schema of loops) {
        const error = await compileSchema(schema).catch((e) => e);
        expect({ schema, code: error.code, circular: error.data?.circular }).toEqual({ schema, code: 'schema', circular: true });
        expect(error.message).toMatch(/applies itself to the same value without end/);
      }
      // Recursion that moves into members is a tree, checked as deep as the value goes.
      const tree = await compileSchema({ type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } } });
      expect(tree({ label: 'a', children: [{ label: 'b', children: [{ label: 3 }] }] })).toMatchObject({ valid: false, issues: [{ path: '/children/0/children/0/label' }] });
    });

    test('compiling again with other limits applies them', async () => {
      const schema = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } } } };
      await compileSchema(schema);
      expect((await compileSchema(schema, { limits: { maxDepth: 2, maxNodes: 100 } }).catch((e) => e)).message).toMatch(/nests deeper than 2 levels/);
    });
  });

describe('work bounds (basic/index "Composition-Keyword Resource Use")', () => {
    test('a hostile 20,000-deep schema is refused without overflowing the stack', async () => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < 20_000; i++) schema = { anyOf: [schema] };
      expect(checkSchemaBounds(schema)).toMatch(/nests deeper than 64 levels/);
      const error = await compileSchema(schema).catch((e) => e);
      expect(error.code).toBe('schema');
      expect(error.message).toMatch(/too complex to check safely/);
    });

    test('a schema with too many parts is refused', async () => {
      const schema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
      expect(checkSchemaBounds(schema)).toMatch(/more than 5000 parts/);
      expect(checkSchemaBounds(schema, { maxDepth: 64, maxNodes: 10_000 })).toBeUndefined();
    });

    test('patterns run on a linear-time engine: catastrophic ones (issue "Hardening…", item 4) are checked on long values and enforced', async () => {
      const schema = {
        type: 'object',
        properties: {
          code: { type: 'string', pattern: '^(x+)+$' },
          a: { type: 'string', pattern: 'a*a*b' },
          d: { type: 'string', pattern: '\\d+\\d+x' },
          e: { type: 'string', pattern: '.*.*=.*' },
          s: { type: 'string', pattern: '^(\\s*a\\s*)+$' },
          zip: { type: 'string', pattern: '^\\d{5}$' },
        },
        patternProperties: { '^(k+)+$': { type: 'number' } },
        additionalProperties: false,
      };
      const before = JSON.stringify(schema);
      const validate = await compileSchema(schema);
      expect(validate.skipped).toBeUndefined();
      // Each would take minutes or more on a backtracking engine.
      const long = { code: 'x'.repeat(30_000) + '!', a: 'a'.repeat(30_000), d: '1'.repeat(30_000), e: 'y'.repeat(30_000), s: ' a'.repeat(15_000) + '!' };
      const result = validate(long);
      expect(result.valid ? [] : result.issues.map((issue) => `${issue.path} ${issue.keyword}`).sort()).toEqual(['/a pattern', '/code pattern', '/d pattern', '/e pattern', '/s pattern']);
      expect(validate({ code: 'x'.repeat(30_000), a: 'a'.repeat(30_000) + 'b', d: '12x', e: 'a=b', s: ' a'.repeat(15_000), zip: '12345' })).toEqual({ valid: true });
      expect(validate({ zip: '1234' })).toMatchObject({ valid: false, issues: [{ path: '/zip', keyword: 'pattern' }] });
      // patternProperties keys run on it too: a matching name is checked against its schema, others are additional.
      expect(validate({ ['k'.repeat(30_000)]: 1 })).toEqual({ valid: true });
      expect(validate({ ['k'.repeat(30_000)]: 'one' })).toMatchObject({ valid: false, issues: [{ keyword: 'type' }] });
      expect(validate({ ['k'.repeat(30_000) + '!']: 1 })).toMatchObject({ valid: false, issues: [{ keyword: 'additionalProperties' }] });
      // The caller's schema is untouched.
      expect(JSON.stringify(schema)).toBe(before);
    });

    test('safe real-world patterns are checked, not skipped (issue "Interop…", item 20): delimited repeats, ISO 8601 durations', async () => {
      const validate = await compileSchema({
        type: 'object',
        properties: { filter: { type: 'string', pattern: '^[a-z]+([=!,]{1,2}[a-z]+)+$' }, every: { type: 'string', pattern: '^P(?!$)(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+S)?)?$' } },
      });
      expect(validate.skipped).toBeUndefined();
      expect(validate({ filter: 'status!=done,owner=ana', every: 'P1DT12H' })).toEqual({ valid: true });
      const bad = validate({ filter: 'status=', every: 'PT' });
      expect(bad.valid ? [] : bad.issues.map((issue) => `${issue.path} ${issue.keyword}`).sort()).toEqual(['/every pattern', '/filter pattern']);
    });

    test('a pattern the engine cannot express (a back-reference) runs natively when its shape is safe, and is left out with a notice for users when not', async () => {
      const validate = await compileSchema({
        type: 'object',
        properties: { pair: { type: 'string', pattern: '^(\\w)\\1$' }, code: { type: 'string', pattern: '^(a+)+\\1$', maxLength: 50 } },
        patternProperties: { '^(k+)+\\1$': { type: 'number' } },
        additionalProperties: false,
      });
      expect(validate({ pair: 'zz' })).toEqual({ valid: true });
      expect(validate({ pair: 'zy' })).toMatchObject({ valid: false, issues: [{ path: '/pair', keyword: 'pattern' }] });
      expect(validate.skipped).toEqual([
        'The names allowed for the entries of this value cannot be checked safely on this page, so they are not checked here.',
        'The format required for "code" cannot be checked safely on this page, so it is not checked here.',
      ]);
      expect(validate.skippedChecks).toEqual([
        {
          keyword: 'patternProperties',
          at: '#/',
          pattern: '^(k+)+\\1$',
          reason: expect.stringMatching(/^patternProperties "\^\(k\+\)\+\\\\1\$" at #\/ is not checked: the linear-time engine cannot run it \(it refers back to a group \(a back-reference\)\) and /),
          notice: validate.skipped![0],
        },
        { keyword: 'pattern', at: '#/properties/code', pattern: '^(a+)+\\1$', reason: expect.stringMatching(/^pattern "\^\(a\+\)\+\\\\1\$" at #\/properties\/code is not checked: .*back-reference/), notice: validate.skipped![1] },
      ]);
      // The unsafe checks are left out, the rest stays.
      expect(validate({ code: 'a'.repeat(40) + '!' })).toEqual({ valid: true });
      expect(validate({ code: 'a'.repeat(60) })).toMatchObject({ valid: false, issues: [{ keyword: 'maxLength' }] });
      expect(validate({ kkk: 'not checked either' })).toEqual({ valid: true });
    });

    test('a $ref fan-out that doubles the work per level is refused before compiling (issue "Hardening…", item 3), with anyOf and with allOf', async () => {
      for (const keyword of ['anyOf', 'allOf'] as const) {
        const schema = fanOutSchema(26, keyword);
        expect(JSON.stringify(schema).length).toBeLessThan(2048);
        const error = await compileSchema(schema).catch((e) => e);
        expect({ keyword, code: error.code }).toEqual({ keyword, code: 'schema' });
        expect(error.message).toBe('The schema is too costly to check safely: checking one value could take more than 10000 evaluations of its parts (its references branch out)');
        expect(error.data.evaluations).toBe(10_001);
        // A shallow one is checked as before.
        const shallow = await compileSchema(fanOutSchema(6, keyword));
        expect(shallow('ab')).toEqual({ valid: true });
        const failed = shallow('a');
        expect(failed.valid ? [] : [...new Set(failed.issues.map((issue) => issue.keyword))]).toContain('minLength');
      }
      // The budget is a limit like the others.
      const error = await compileSchema(fanOutSchema(6, 'anyOf'), { limits: { ...DEFAULT_SCHEMA_LIMITS, maxEvaluations: 100 } }).catch((e) => e);
      expect(error.message).toMatch(/more than 100 evaluations/);
    });

    test('a fan-out that compounds through a member (each branch applies the next level to the same member) is refused too', async () => {
      const $defs: Record<string, unknown> = { n26: { type: 'string' } };
      for (let level = 0; level < 26; level++) {
        const branch = { type: 'object', properties: { a: { $ref: `#/$defs/n${level + 1}` } } };
        $defs[`n${level}`] = { anyOf: [branch, { ...branch, required: ['a'] }] };
      }
      const error = await compileSchema({ $defs, $ref: '#/$defs/n0' }).catch((e) => e);
      expect(error.message).toMatch(/^The schema is too costly to check safely/);
    });

    test('member names are counted against patternProperties: a value with long names under many patterns is skipped, not checked for seconds', async () => {
      // Regression: the per-value count ignored member names, so 10 names of 200,000 characters under
      // 200 patterns counted about 4,000 steps while every library matched 400 million characters.
      const patternProperties = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`^(a|b)*c${i}$`, { type: 'string' }]));
      const validate = await compileSchema({ type: 'object', patternProperties });
      const value = Object.fromEntries(Array.from({ length: 10 }, (_, i) => ['a'.repeat(200_000) + i, 1]));
      expect(validate(value)).toEqual({ valid: true, skipped: expect.stringMatching(/too large to check/) });
      expect(validate({ ac0: 'x', bc1: 2 })).toMatchObject({ valid: false });
    });

    test('a definition with 40,000 members applied 3,000 times in place is refused at once: the estimate does not read its members 3,000 times (issue 30)', async () => {
      // Regression: telling the places of a value apart read every member of every applied node before
      // counting them, 120 million entries, about 70 s of CPU to refuse it (past this test's timeout).
      const properties = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`p${i}`, true]));
      const schema = { $defs: { wide: { properties } }, allOf: Array.from({ length: 3000 }, () => ({ $ref: '#/$defs/wide' })) };
      const error = await compileSchema(schema).catch((e) => e);
      expect(error.message).toMatch(/^The schema is too costly to check safely/);
    });

    test('one large definition referenced from 200 members (about 108 KB) compiles in bounded work, each reference not a copy of it (issue 30)', async () => {
      // Regression: the estimate counts a shared definition once per place of a value, so this passes it;
      // ajv then copied the 4,000-property definition's code into all 200 references and compiled for
      // minutes (past this test's timeout). Now only small definitions are copied.
      const properties = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`p${i}`, { type: 'string' }]));
      const members = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`q${i}`, { $ref: '#/$defs/big' }]));
      const validate = await compileSchema({ type: 'object', $defs: { big: { type: 'object', properties } }, properties: members });
      expect(validate({ q0: { p0: 'x' }, q199: { p3999: 'y' } })).toEqual({ valid: true });
      const bad = validate({ q7: { p12: 5 } });
      expect(bad.valid ? [] : bad.issues.map((issue) => `${issue.path} ${issue.keyword}`)).toEqual(['/q7/p12 type']);
    });

    test('a large honest schema built like a Microsoft Graph tool\'s (about 88 KB, hundreds of shared definitions reached through $ref from many places) compiles and checks values (issue 30)', async () => {
      // Regression: the estimate summed every path through members (each shared definition once per
      // place that references it, recursion through members included) and refused it as too costly.
      const schema = graphLikeSchema();
      const text = JSON.stringify(schema);
      expect(text.length).toBeGreaterThan(80_000);
      expect(Object.keys(schema.$defs).length).toBeGreaterThanOrEqual(150);
      expect(text.match(/"\$ref"/g)!.length).toBeGreaterThan(500);
      const validate = await compileSchema(schema);
      expect(validate({ 'site-id': 'root', body: { displayName: 'Tasks' } })).toEqual({ valid: true });
      const entity = Object.entries(schema.$defs).find(([, def]) => (def as { allOf?: unknown }).allOf)![0].replace('graph.type', '');
      const deep = { 'site-id': 'root', body: { displayName: 'Tasks', [`children${entity}`]: [] }, select: ['id'] };
      expect(validate(deep).valid).toBe(true);
      const bad = validate({ 'site-id': 5, body: { displayName: '' } });
      expect(bad.valid ? [] : bad.issues.map((issue) => `${issue.path} ${issue.keyword}`).sort()).toEqual(['/body/displayName minLength', '/site-id type']);
    });

    test('a big flat schema is not a fan-out: 4,900 properties and a 50,000-value enum are checked, not refused as too costly', async () => {
      // Regression: the cost gate counted the schema's own size, so a wide but linear schema (within maxNodes) was refused.
      const properties = Object.fromEntries(Array.from({ length: 4900 }, (_, i) => [`p${i}`, { type: 'string', description: `Field ${i}` }]));
      const wide = await compileSchema({ type: 'object', properties, required: ['p4899'] });
      expect(wide({})).toMatchObject({ valid: false, issues: [{ keyword: 'required', params: { missingProperty: 'p4899' } }] });
      expect(wide({ p4899: 'x' })).toEqual({ valid: true });
      const long = await compileSchema({ type: 'string', enum: Array.from({ length: 50_000 }, (_, i) => `v${i}`) });
      expect(long('v49999')).toEqual({ valid: true });
      expect(long('w')).toMatchObject({ valid: false, issues: [{ keyword: 'enum' }] });
    });

    test('a value that would take more than the check budget is not checked, and the result says so', async () => {
      const validate = await compileSchema({ type: 'array', $defs: fanOutSchema(6, 'anyOf').$defs, items: { $ref: '#/$defs/n0' } });
      expect(validate(Array.from({ length: 10 }, () => 'ab'))).toEqual({ valid: true });
      const failed = validate(['ab', 'a']);
      expect(failed.valid ? [] : [...new Set(failed.issues.map((issue) => `${issue.path} ${issue.keyword}`))]).toContain('/1 minLength');
      const big = Array.from({ length: 5000 }, () => 'a');
      expect(validate(big)).toEqual({ valid: true, skipped: 'This value is too large to check against its schema on this page (more than 1000000 steps), so it was not checked.' });
      // Pairwise uniqueness counts too.
      const unique = await compileSchema({ type: 'array', uniqueItems: true }, { limits: { ...DEFAULT_SCHEMA_LIMITS, maxCheckSteps: 10_000 } });
      expect(unique([1, 2, 1])).toMatchObject({ valid: false, issues: [{ keyword: 'uniqueItems' }] });
      expect(unique(Array.from({ length: 2000 }, (_, i) => [i]))).toMatchObject({ valid: true, skipped: expect.stringMatching(/more than 10000 steps/) });
      // A comparison of two items is as deep as the items: 1,000 arrays of 1,000 numbers (10 s
      // in @cfworker/json-schema when only the pairs were counted) is over the default budget,
      // while 100 arrays of 100 numbers is checked.
      const uniqueDefault = await compileSchema({ type: 'array', uniqueItems: true });
      const rows = (n: number) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => i * n + j));
      expect(uniqueDefault(rows(1000))).toMatchObject({ valid: true, skipped: expect.stringMatching(/more than 1000000 steps/) });
      expect(uniqueDefault(rows(100))).toEqual({ valid: true });
      expect(uniqueDefault([...rows(100), [0, ...rows(100)[0]!.slice(1)]])).toMatchObject({ valid: false, issues: [{ keyword: 'uniqueItems' }] });
    });
  });
});

describe('ajv only', () => {
  test('a schema that breaks its dialect\'s meta-schema is refused as invalid, in both dialects', async () => {
    // The meta-schemas are what catch these: without them ajv compiles all three silently.
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'object', properties: { a: { type: 'string', minLength: -1 } } }, /^The schema is invalid: .*minLength must be >= 0/],
      [{ type: 'object', properties: { a: 5 } }, /^The schema is invalid: .*properties\/a must be object,boolean/],
      [{ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: ['a', 'a'] }, /^The schema is invalid: .*required must NOT have duplicate items/],
    ];
    for (const [schema, message] of cases) {
      const error = await compileSchema(schema).catch((e) => e);
      expect(McpClientError.isInstance(error) && error.code).toBe('schema');
      expect(error.message).toMatch(message);
    }
  });
});

describe('plugging a library in with useSchemaCompiler', () => {
  afterAll(() => useSchemaCompiler(undefined));

  test('the plugged compiler gets the schema only after the shared checks, and each schema object once', async () => {
    const seen: [Record<string, unknown>, string][] = [];
    const engines: unknown[] = [];
    useSchemaCompiler((schema, dialect, options) => {
      seen.push([schema, dialect]);
      engines.push(options?.regExp);
      return cfworkerCompiler(schema, dialect, options);
    });
    expect((await compileSchema({ $schema: 'https://example.org/my-dialect', type: 'string' }).catch((e) => e)).message).toMatch(/is not supported/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) deep = { anyOf: [deep] };
    expect((await compileSchema(deep).catch((e) => e)).message).toMatch(/too complex to check safely/);
    expect(seen).toEqual([]);

    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { code: { type: 'string', pattern: '^(x+)+\\1$', minLength: 2 }, tag: { type: 'string', pattern: '^(t+)+$' } } };
    const validate = await compileSchema(schema);
    expect(await compileSchema(schema)).toBe(validate);
    expect(seen).toEqual([[{ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { code: { type: 'string', minLength: 2 }, tag: { type: 'string', pattern: '^(t+)+$' } } }, 'draft-07']]);
    expect(validate.skippedChecks).toEqual([expect.objectContaining({ keyword: 'pattern', at: '#/properties/code', pattern: '^(x+)+\\1$' })]);
    expect(validate({ code: 'x'.repeat(40) + '!' })).toEqual({ valid: true });
    // The compiler is given the linear-time engine for the patterns that stay, and cfworker runs them on it.
    expect(engines).toEqual([expect.any(Function)]);
    expect(validate({ tag: 't'.repeat(30_000) + '!' })).toMatchObject({ valid: false, issues: [{ path: '/tag', keyword: 'pattern' }] });
    expect(globalThis.RegExp).toBe(NativeRegExp);
    await compileSchema({ type: 'string', minLength: 1 });
    expect(engines).toEqual([expect.any(Function), undefined]);
    // cfworker marks the objects it reads; the caller's schema stays as it was.
    expect(Object.getOwnPropertyNames(schema)).toEqual(['$schema', 'type', 'properties']);
    expect(Object.getOwnPropertyNames(schema.properties.code)).toEqual(['type', 'pattern', 'minLength']);
  });

  test('the cfworker adapter lends the engine as RegExp only while a check runs, and puts the original back even when the check throws', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^a+$' } } };
    const lent: string[] = [];
    const check = cfworkerCompiler(structuredClone(schema), '2020-12', {
      regExp: (pattern) => {
        lent.push(pattern);
        expect(globalThis.RegExp).not.toBe(NativeRegExp);
        return { test: (text: string) => /^a+$/.test(text) };
      },
    });
    expect(check({ a: 'aaa' })).toEqual({ valid: true });
    expect(check({ a: 'b' })).toMatchObject({ valid: false, issues: [{ keyword: 'pattern' }] });
    expect(lent).toEqual(['^a+$', '^a+$']);
    expect(globalThis.RegExp).toBe(NativeRegExp);
    const failing = cfworkerCompiler(structuredClone(schema), '2020-12', {
      regExp: () => {
        throw new Error('engine failure');
      },
    });
    expect(() => failing({ a: 'x' })).toThrow('engine failure');
    expect(globalThis.RegExp).toBe(NativeRegExp);
    // Without patterns nothing is lent.
    const plain = cfworkerCompiler({ type: 'string', format: 'regex' }, '2020-12', {});
    expect(plain('(')).toMatchObject({ valid: false, issues: [{ keyword: 'format' }] });
  });

  test('switching libraries takes effect for the next schema, and undefined goes back to ajv', async () => {
    // Only ajv checks a schema against its meta-schema: the library that ran shows in the answer.
    const invalid = { type: 'string', minLength: -1 };
    useSchemaCompiler(cfworkerCompiler);
    expect(() => compileSchemaSync(invalid)).toThrow(/not loaded yet/);
    await ensureValidator();
    expect(compileSchemaSync(invalid)('')).toEqual({ valid: true });
    useSchemaCompiler(undefined);
    expect((await compileSchema({ ...invalid }).catch((e) => e)).message).toMatch(/^The schema is invalid: .*minLength must be >= 0/);
  });

  test('a faulty compiler is contained: typed errors while compiling, an issue at the root while checking', async () => {
    useSchemaCompiler(() => {
      throw new Error('unknown keyword "frobnicate"');
    });
    const thrown = await compileSchema({ type: 'string' }).catch((e) => e);
    expect(McpClientError.isInstance(thrown) && thrown.code).toBe('schema');
    expect(thrown.message).toBe('The schema is invalid: unknown keyword "frobnicate"');
    expect(thrown.cause).toEqual(new Error('unknown keyword "frobnicate"'));

    useSchemaCompiler(() => 'not a function' as never);
    expect((await compileSchema({ type: 'string' }).catch((e) => e)).message).toBe('The schema compiler did not return a function');

    const answers: unknown[] = [
      () => {
        throw new TypeError('boom');
      },
      () => ({ valid: false }),
      () => null,
      () => ({ valid: false, issues: [{ path: 7, message: { text: 'x' }, keyword: null, params: 'p' }, null] }),
    ];
    const results = [];
    for (const answer of answers) {
      useSchemaCompiler(() => answer as never);
      results.push((await compileSchema({ type: 'string' }))('x'));
    }
    const atRoot = (message: string) => ({ valid: false, issues: [{ path: '', message, keyword: 'schema', params: {} }] });
    expect(results).toEqual([
      atRoot('could not be checked: boom'),
      atRoot('is invalid'),
      atRoot('is invalid'),
      {
        valid: false,
        issues: [
          { path: '', message: 'is invalid', keyword: '', params: {} },
          { path: '', message: 'is invalid', keyword: '', params: {} },
        ],
      },
    ]);
  });

  test('the cfworker compiler reports what ajv reports: paths, keywords, params and messages the elements read', async () => {
    const schema = {
      type: 'object',
      required: ['title', 'a/b'],
      additionalProperties: false,
      $defs: { short: { type: 'string', minLength: 3, maxLength: 8 } },
      properties: {
        title: { $ref: '#/$defs/short' },
        'a/b': { type: 'integer', minimum: 1 },
        size: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 },
        mail: { type: 'string', format: 'email' },
        when: { type: ['string', 'null'], format: 'date' },
        tags: { type: 'array', uniqueItems: true, minItems: 1, maxItems: 3, items: { enum: ['red', 'green'] } },
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        kind: { const: 'box' },
        mode: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        pair: { type: 'object', properties: { from: { type: 'string' } }, dependentRequired: { from: ['to'] }, minProperties: 1 },
      },
    };
    const values = [
      { title: 'ab', size: -1.2, mail: 'nope', when: 7, tags: ['red', 'red', 'blue', 'green'], code: 'ab', kind: 'bag', mode: true, pair: { from: 'x' }, extra: 1 },
      { title: 'a much too long title', 'a/b': 0, tags: [], pair: {}, when: '2026-02-30' },
      { title: 'fine', 'a/b': 2 },
    ];
    const sorted = (result: ReturnType<Awaited<ReturnType<typeof compileSchema>>>) =>
      result.valid ? [] : result.issues.map((i) => JSON.stringify(i)).sort();
    useSchemaCompiler(undefined);
    const ajv = await compileSchema(structuredClone(schema));
    useSchemaCompiler(cfworkerCompiler);
    const cfworker = await compileSchema(structuredClone(schema));
    for (const value of values) expect(sorted(cfworker(value))).toEqual(sorted(ajv(value)));
    expect(values.map((value) => sorted(ajv(value)).length)).toEqual([16, 5, 0]);
  });

  test('the cfworker compiler matches ajv where cfworker wraps what ajv reports once (applicators, false schemas, contains, property names)', async () => {
    const draft07 = 'http://json-schema.org/draft-07/schema#';
    const cases: [Record<string, unknown>, unknown][] = [
      [{ type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false }, { a: 'x', b: 1, c: 2 }],
      [{ type: 'array', prefixItems: [{ type: 'string' }], items: false }, ['a', 2, 3]],
      [{ $schema: draft07, type: 'array', items: [{ type: 'string' }], additionalItems: false }, ['a', 1, 2]],
      [{ type: 'array', prefixItems: [{ type: 'string' }], unevaluatedItems: false }, ['a', 1]],
      [{ type: 'array', contains: { type: 'integer' }, minContains: 2 }, [1, 'a']],
      [{ type: 'array', contains: { type: 'integer' }, maxContains: 1 }, [1, 2]],
      [{ type: 'array', contains: { type: 'integer' } }, []],
      [{ type: 'object', propertyNames: { pattern: '^[a-z]+$', maxLength: 3 } }, { Abcd: 1, ok: 2 }],
      [{ type: 'object', propertyNames: false }, { A: 1 }],
      [{ type: 'object', propertyNames: { maxLength: 2 }, additionalProperties: false, properties: { abc: { type: 'string' } } }, { abc: 1, 'x/y~z': 2 }],
      [{ type: 'object', properties: { n: false } }, { n: 1 }],
      [{ not: { type: 'string' } }, 'x'],
      [{ oneOf: [{ type: 'integer' }, { type: 'string' }] }, true],
      [{ if: { properties: { k: { const: 1 } } }, then: { required: ['v'] }, else: { required: ['w'] } }, { k: 1 }],
      [{ type: 'object', dependentSchemas: { a: { required: ['b'] } } }, { a: 1 }],
      [{ $schema: draft07, type: 'object', dependencies: { a: ['b'], c: { required: ['d'] } } }, { a: 1, c: 2 }],
      [{ type: 'string', maxLength: 2 }, '😀😀😀'],
      [{ enum: [{ a: 1 }, [1, 2]] }, { a: 2 }],
      // Keyword values found through anchors, $id-relative and absolute references.
      [{ type: 'object', $defs: { c: { $anchor: 'code', type: 'string', minLength: 3 } }, properties: { code: { $ref: '#code' } } }, { code: 'x' }],
      [{ $id: 'https://example.org/root', $defs: { c: { minimum: 99 } }, properties: { a: { $id: 'https://example.org/a', properties: { b: { $ref: '#/$defs/c' } }, $defs: { c: { type: 'integer', minimum: 10 } } } } }, { a: { b: 1 } }],
      [{ $id: 'mcp-form:///input-schema', $defs: { n: { type: 'string', minLength: 3 } }, properties: { a: { $ref: 'mcp-form:///input-schema#/$defs/n' } } }, { a: 'x' }],
      [{ type: 'object', $defs: { strict: { $anchor: 'strict', type: 'object', additionalProperties: false } }, properties: { a: { $ref: '#strict' } } }, { a: { y: 1 } }],
      [{ $schema: draft07, type: 'object', dependencies: { a: ['b', 'c'] } }, { a: 1 }],
      // Members whose value is undefined are absent, as in the JSON that is sent.
      [{ type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'string' } } }, { a: undefined, b: 'x' }],
    ];
    const sorted = (result: ReturnType<Awaited<ReturnType<typeof compileSchema>>>) => (result.valid ? [] : result.issues.map((i) => JSON.stringify(i)).sort());
    for (const [schema, value] of cases) {
      useSchemaCompiler(undefined);
      const ajv = sorted((await compileSchema(structuredClone(schema)))(value));
      useSchemaCompiler(cfworkerCompiler);
      const cfworker = sorted((await compileSchema(structuredClone(schema)))(value));
      expect({ schema, issues: cfworker }).toEqual({ schema, issues: ajv });
      expect(ajv.length).toBeGreaterThan(0);
    }
  });

  test('the cfworker compiler lists the precise issue before "no alternative matched", as ajv does (the dialog shows the first)', async () => {
    const schema = { type: 'object', properties: { a: { anyOf: [{ type: 'string', minLength: 3 }, { type: 'number' }] } } };
    const first: string[] = [];
    for (const compiler of [undefined, cfworkerCompiler]) {
      useSchemaCompiler(compiler);
      const result = (await compileSchema(structuredClone(schema)))({ a: 'x' });
      first.push(result.valid ? '' : result.issues[0]!.keyword);
    }
    expect(first).toEqual(['minLength', 'minLength']);
  });
});
