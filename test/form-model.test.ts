/**
 * The tool form's schema engine (components/mcp-tool-form/{resolve,model,draft}.ts)
 * in Node: which field each schema shape becomes, the argument-building rules,
 * and the work bounds. The same rules are exercised through the real element in
 * Chromium (components/mcp-tool-form/mcp-tool-form.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cfworkerCompiler } from '../src/schema/cfworker.js';
import { compileSchemaSync, ensureValidator, useSchemaCompiler } from '../src/index.js';
import { formIssues } from '../components/mcp-tool-form/issues.js';
import { FormModel, type ArrayField, type EnumField, type Field, type JsonField, type ObjectField, type StringField, type UnionField } from '../components/mcp-tool-form/model.js';
import {
  buildArguments,
  matchVariant,
  showsAsChoices,
  type UnionChoice,
  itemField,
  memberField,
  valueToDraft,
  variantField,
  withItems,
  withMember,
  withRows,
  withChoice,
  withVariantDraft,
  type Draft,
} from '../components/mcp-tool-form/draft.js';
import { sampleDraft, sampleFromPattern } from '../components/mcp-tool-form/samples.js';
import { mayHaveLongChoice } from '../components/mcp-tool-form/long-choices.js';

beforeAll(async () => {
  await ensureValidator();
});

/** The field of root member `key` (with the draft of that member, for conditionals). */
function member(model: FormModel, key: string, draft?: Draft): Field {
  const root = model.root() as ObjectField;
  const entry = root.properties.find((p) => p.key === key);
  if (!entry) throw new Error(`no member ${key}`);
  return memberField(model, root, key, entry.schema, draft);
}

/** Builds arguments from a root draft given as `{member: draft}`. */
function args(model: FormModel, members: Record<string, Draft> = {}): { arguments: Record<string, unknown>; issues: { pointer: string; message: string }[] } {
  let draft: Draft | undefined;
  for (const [key, value] of Object.entries(members)) draft = withMember(draft, key, value);
  return buildArguments(model, draft);
}

const typed = (v: string | number | boolean | null): Draft => ({ k: 'v', v });
const text = (t: string): Draft => ({ k: 'text', text: t });
const clear: Draft = { k: 'clear' };


/** A union of two objects told apart by the const `kind`. */
const circleOrSquare = {
  oneOf: [
    { type: 'object', properties: { kind: { const: 'circle' }, radius: { type: 'number' } }, required: ['kind', 'radius'] },
    { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number' } }, required: ['kind', 'side'] },
  ],
};

describe('controls per schema shape', () => {
  test('strings map formats to native inputs and keep their constraints', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        alarm: { type: 'string', format: 'time' },
        mail: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        ref: { type: 'string', format: 'uuid' },
        code: { type: 'string', minLength: 2, maxLength: 6, pattern: '^[A-Z]+$' },
      },
    });
    const input = (key: string) => (member(model, key) as StringField).input;
    expect([input('when'), input('at'), input('alarm'), input('mail'), input('site'), input('ref')]).toEqual(['date', 'datetime-local', 'time', 'email', 'url', 'text']);
    expect(member(model, 'ref')).toMatchObject({ kind: 'string', format: 'uuid' });
    expect(member(model, 'code')).toMatchObject({ kind: 'string', minLength: 2, maxLength: 6, pattern: '^[A-Z]+$', acceptsEmpty: false });
  });

  test('integer and number are told apart; boolean; title and description label the field', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: 1, maximum: 9, title: 'How many', description: 'Copies to print' },
        ratio: { type: 'number', exclusiveMaximum: 1 },
        loud: { type: 'boolean' },
      },
    });
    expect(member(model, 'count')).toMatchObject({ kind: 'number', integer: true, minimum: 1, maximum: 9, label: 'How many', description: 'Copies to print' });
    expect(member(model, 'ratio')).toMatchObject({ kind: 'number', integer: false, exclusiveMaximum: 1, label: 'ratio' });
    expect(member(model, 'loud').kind).toBe('boolean');
  });

  test('enums: radio group for small sets, select for larger; titled oneOf/anyOf and legacy enumNames give labels', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        size: { type: 'string', enum: ['s', 'm', 'l'] },
        planet: { type: 'string', enum: ['mercury', 'venus', 'earth', 'mars', 'jupiter'] },
        tone: { oneOf: [{ const: 'warm', title: 'Warm colours' }, { const: 'cool', title: 'Cool colours' }] },
        pet: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cat', 'Dog'] },
        level: { anyOf: [{ const: 1, title: 'Low' }, { const: 2, title: 'High' }] },
      },
    });
    expect(member(model, 'size')).toMatchObject({ kind: 'enum', widget: 'radio' });
    expect(member(model, 'planet')).toMatchObject({ kind: 'enum', widget: 'select' });
    expect((member(model, 'tone') as EnumField).options).toEqual([
      { value: 'warm', label: 'Warm colours' },
      { value: 'cool', label: 'Cool colours' },
    ]);
    expect((member(model, 'pet') as EnumField).options.map((o) => o.label)).toEqual(['Cat', 'Dog']);
    expect((member(model, 'level') as EnumField).options.map((o) => o.value)).toEqual([1, 2]);
  });

  test('past SEARCH_OVER values a choice is searched; the check that loads its combobox (long-choices.ts) finds every such field, and stays bounded', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
    const titled = (n: number) => values(n).map((v) => ({ const: v, title: v.toUpperCase() }));
    const searched: Record<string, unknown>[] = [
      { type: 'string', enum: values(101) },
      { type: ['string', 'null'], enum: [...values(101), null] },
      { oneOf: titled(101) },
      { anyOf: [...titled(101), { type: 'null' }] },
      { $ref: '#/$defs/city' },
      { allOf: [{ enum: values(150) }, { enum: values(120) }] },
      { type: 'array', uniqueItems: true, items: { enum: values(101) } },
      { type: 'array', items: { $ref: '#/$defs/city' } },
    ];
    for (const a of searched) {
      const schema = { type: 'object', properties: { a }, $defs: { city: { type: 'string', enum: values(150) } } };
      const model = new FormModel(schema);
      const field = member(model, 'a');
      // A list of more than SEARCH_OVER enumerated values is a list of searched pickers, not a wall of checkboxes.
      const chosen = field.kind === 'array' ? itemField(model, field, 0, undefined)! : field;
      expect(chosen, JSON.stringify(a).slice(0, 80)).toMatchObject({ kind: 'enum', widget: 'search' });
      expect(mayHaveLongChoice(schema)).toBe(true);
    }
    // 100 values are a select: no combobox to load.
    const short = { type: 'object', properties: { a: { enum: values(100) }, b: { oneOf: titled(100) }, c: { type: 'array', uniqueItems: true, items: { enum: values(100) } } } };
    expect(member(new FormModel(short), 'a')).toMatchObject({ kind: 'enum', widget: 'select' });
    expect(member(new FormModel(short), 'b')).toMatchObject({ kind: 'enum', widget: 'select' });
    expect(mayHaveLongChoice(short)).toBe(false);
    // A walk with a stack, not recursion; below its budget the answer is exact, however deep.
    let deep: Record<string, unknown> = { enum: values(101) };
    let shallow: Record<string, unknown> = { enum: values(100) };
    for (let i = 0; i < 5_000; i++) {
      deep = { items: deep };
      shallow = { items: shallow };
    }
    expect(mayHaveLongChoice(deep)).toBe(true);
    expect(mayHaveLongChoice(shallow)).toBe(false);
    // A cyclic value (a caller-made schema) or one of too many objects: the walk stops and answers "may".
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(mayHaveLongChoice(cyclic)).toBe(true);
    expect(mayHaveLongChoice({ type: 'object', properties: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, { type: 'string' }])) })).toBe(true);
  });

  test('const, readOnly and default', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        version: { const: 'v2' },
        id: { type: 'string', readOnly: true, default: 'fixed-7' },
        pages: { type: 'integer', default: 3 },
        broken: { type: 'integer', default: 'three' },
      },
    });
    expect(member(model, 'version')).toMatchObject({ kind: 'const', value: 'v2' });
    expect(member(model, 'id')).toMatchObject({ readOnly: true, default: { value: 'fixed-7' } });
    expect(member(model, 'pages').default).toEqual({ value: 3 });
    // A default of the wrong type does not pre-fill the field.
    expect(member(model, 'broken').default).toBeUndefined();
  });

  test('nested objects, arrays of primitives and of objects, tuples, maps', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        owner: { type: 'object', properties: { first: { type: 'string' }, last: { type: 'string' } }, required: ['last'] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 },
        legs: { type: 'array', items: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } } } },
        point: { type: 'array', prefixItems: [{ type: 'number', title: 'x' }, { type: 'number', title: 'y' }], items: false },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        toppings: { type: 'array', items: { type: 'string', enum: ['olives', 'basil', 'chili'] }, uniqueItems: true },
      },
    });
    const owner = member(model, 'owner') as ObjectField;
    expect(owner.kind).toBe('object');
    expect(owner.properties.map((p) => [p.key, p.required])).toEqual([
      ['first', false],
      ['last', true],
    ]);
    const tags = member(model, 'tags') as ArrayField;
    expect(tags).toMatchObject({ kind: 'array', minItems: 1, maxItems: 5 });
    expect(itemField(model, tags, 0, undefined)?.kind).toBe('string');
    const legs = member(model, 'legs') as ArrayField;
    expect(itemField(model, legs, 3, undefined)?.kind).toBe('object');
    const point = member(model, 'point') as ArrayField;
    expect(point.prefix).toHaveLength(2);
    expect(point.items).toBeUndefined();
    expect(itemField(model, point, 1, undefined)?.label).toBe('y');
    expect(itemField(model, point, 2, undefined)).toBeUndefined();
    const headers = member(model, 'headers') as ObjectField;
    expect(headers).toMatchObject({ kind: 'object', properties: [], additional: { type: 'string' } });
    expect((member(model, 'toppings') as ArrayField).choices?.map((c) => c.value)).toEqual(['olives', 'basil', 'chili']);
  });

  test('draft-07 tuples (items as an array, additionalItems)', () => {
    const model = new FormModel({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: { type: 'boolean' } } },
    });
    const pair = member(model, 'pair') as ArrayField;
    expect([0, 1, 2].map((i) => itemField(model, pair, i, undefined)?.kind)).toEqual(['string', 'number', 'boolean']);
  });

  test('nullable: type lists and anyOf with null become the non-null control, flagged nullable', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null },
        c: { anyOf: [{ type: 'string', enum: ['up', 'down'] }, { type: 'null' }] },
        d: { type: ['string', 'null'], enum: ['x', 'y', null] },
        e: { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
      },
    });
    expect(member(model, 'a')).toMatchObject({ kind: 'string', nullable: true });
    expect(member(model, 'b')).toMatchObject({ kind: 'number', integer: true, nullable: true });
    expect(member(model, 'b').default).toBeUndefined();
    expect(member(model, 'c')).toMatchObject({ kind: 'enum', nullable: true });
    expect((member(model, 'd') as EnumField).options.map((o) => o.value)).toEqual(['x', 'y']);
    expect(member(model, 'd').nullable).toBe(true);
    expect(member(model, 'e')).toMatchObject({ kind: 'array', nullable: true });
  });

  test('unions of objects get a variant picker; a shared const property is the discriminator', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        shape: circleOrSquare,
        target: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        mixed: { type: ['string', 'number', 'boolean', 'null'] },
      },
    });
    const shape = member(model, 'shape') as UnionField;
    expect(shape.kind).toBe('union');
    expect(shape.discriminator).toBe('kind');
    expect(shape.variants.map((v) => v.label)).toEqual(['circle', 'square']);
    const target = member(model, 'target') as UnionField;
    expect(target.variants.map((v) => v.label)).toEqual(['text', 'list of text']);
    const mixed = member(model, 'mixed') as UnionField;
    expect(mixed).toMatchObject({ kind: 'union', nullable: true });
    expect(mixed.variants.map((v) => v.label)).toEqual(['string', 'number', 'boolean']);
  });

  test('allOf is merged: members united, required united, bounds tightened', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        box: {
          allOf: [
            { type: 'object', properties: { w: { type: 'integer', minimum: 0 } }, required: ['w'] },
            { properties: { h: { type: 'integer' }, w: { maximum: 50 } }, required: ['h'] },
          ],
        },
      },
    });
    const box = member(model, 'box') as ObjectField;
    expect(box.kind).toBe('object');
    expect(box.properties.map((p) => [p.key, p.required])).toEqual([
      ['w', true],
      ['h', true],
    ]);
    const w = memberField(model, box, 'w', box.properties[0]!.schema, undefined);
    expect(w).toMatchObject({ kind: 'number', integer: true, minimum: 0, maximum: 50 });
  });

  test('if/then/else is evaluated against the live value', () => {
    const model = new FormModel({
      type: 'object',
      properties: { delivery: { type: 'string', enum: ['post', 'pickup'], default: 'post' } },
      if: { properties: { delivery: { const: 'post' } } },
      then: { properties: { street: { type: 'string' } }, required: ['street'] },
      else: { properties: { store: { type: 'string', enum: ['north', 'south'] } } },
    });
    const keys = (value: unknown) => (model.root(value) as ObjectField).properties.map((p) => p.key);
    // Untouched: the default ("post") decides.
    expect(keys(undefined)).toEqual(['delivery', 'street']);
    expect(keys({ delivery: 'pickup' })).toEqual(['delivery', 'store']);
    expect(keys({ delivery: 'post' })).toEqual(['delivery', 'street']);
    expect((model.root({ delivery: 'post' }) as ObjectField).conditional).toBe(true);
  });

  test('if/then/else that uses $ref into the same document', () => {
    const model = new FormModel({
      type: 'object',
      $defs: { isPro: { properties: { plan: { const: 'pro' } } } },
      properties: { plan: { type: 'string' } },
      if: { $ref: '#/$defs/isPro' },
      then: { properties: { seats: { type: 'integer' } } },
    });
    expect((model.root({ plan: 'pro' }) as ObjectField).properties.map((p) => p.key)).toEqual(['plan', 'seats']);
    expect((model.root({ plan: 'free' }) as ObjectField).properties.map((p) => p.key)).toEqual(['plan']);
  });

  test('local $ref: $defs, refs into sibling properties (with their own description), $anchor and $id-relative refs', () => {
    const model = new FormModel({
      type: 'object',
      $defs: { money: { type: 'object', properties: { amount: { type: 'number' }, currency: { type: 'string', enum: ['EUR', 'USD'] } } } },
      properties: {
        price: { $ref: '#/$defs/money' },
        top: { type: 'object', properties: { style: { type: 'string' } }, description: 'Top edge' },
        bottom: { $ref: '#/properties/top', description: 'Bottom edge' },
        named: { $ref: '#colour' },
        nested: { $id: 'https://schemas.example.test/nested', $defs: { leaf: { type: 'boolean' } }, type: 'object', properties: { flag: { $ref: '#/$defs/leaf' } } },
      },
      $comment: 'anchor below',
      definitions: { c: { $anchor: 'colour', type: 'string', enum: ['red', 'green'] } },
    });
    expect((member(model, 'price') as ObjectField).properties.map((p) => p.key)).toEqual(['amount', 'currency']);
    expect(member(model, 'bottom')).toMatchObject({ kind: 'object', description: 'Bottom edge' });
    expect(member(model, 'named')).toMatchObject({ kind: 'enum' });
    const nested = member(model, 'nested') as ObjectField;
    expect(memberField(model, nested, 'flag', nested.properties[0]!.schema, undefined).kind).toBe('boolean');
  });

  test('recursive $ref expands one level at a time and is marked recursive', () => {
    const model = new FormModel({
      type: 'object',
      $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
      properties: { tree: { $ref: '#/$defs/node' } },
    });
    const tree = member(model, 'tree') as ObjectField;
    expect(tree.recursive).toBe(false);
    const children = memberField(model, tree, 'children', tree.properties[1]!.schema, undefined) as ArrayField;
    const childNode = itemField(model, children, 0, undefined) as ObjectField;
    expect(childNode).toMatchObject({ kind: 'object', recursive: true });
  });

  test('unknown dialect: a clear message and the whole arguments object as JSON', () => {
    const model = new FormModel({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties: { a: { type: 'string' } } });
    expect(model.problem?.message).toMatch(/2019-09.*not supported/);
    expect(model.root()).toMatchObject({ kind: 'json', reason: 'fallback', expects: 'object' });
  });

  test('a bare schema (no type) is an object with no declared arguments, with a notice', () => {
    const model = new FormModel({ $schema: 'http://json-schema.org/draft-07/schema#' });
    expect(model.problem).toBeUndefined();
    expect(model.notice?.message).toMatch(/does not describe an object/);
    expect(model.root()).toMatchObject({ kind: 'object', properties: [] });
  });

  test('only what cannot be rendered falls back to JSON, with the keyword and reason', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        remote: { $ref: 'https://schemas.example.test/thing.json' },
        never: false,
        loop: { $ref: '#/properties/loop' },
        odd: { type: 'whatever' },
        anything: {},
        bag: { type: 'object' },
        fine: { type: 'string' },
      },
    });
    const fallback = (key: string) => member(model, key) as JsonField;
    expect(fallback('remote')).toMatchObject({ kind: 'json', reason: 'fallback', problem: { keyword: '$ref' } });
    expect(fallback('remote').problem?.message).toMatch(/never fetched/);
    expect(fallback('never')).toMatchObject({ reason: 'fallback', problem: { keyword: 'false' } });
    expect(fallback('loop')).toMatchObject({ reason: 'fallback', problem: { keyword: '$ref' } });
    expect(fallback('odd')).toMatchObject({ reason: 'fallback', problem: { keyword: 'type' } });
    // Free-form by design: JSON is the right editor, not a fallback.
    expect(fallback('anything')).toMatchObject({ kind: 'json', reason: 'free' });
    expect(fallback('bag')).toMatchObject({ kind: 'json', reason: 'free', expects: 'object' });
    expect(member(model, 'fine').kind).toBe('string');
  });
});

describe('work bounds on hostile schemas', () => {
  test('a schema over the node or depth bound is refused with a message, without recursion', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10_000; i++) deep = { type: 'object', properties: { x: deep } };
    const model = new FormModel(deep);
    expect(model.problem?.keyword).toBe('bounds');
    expect(model.problem?.message).toMatch(/too large.*deeper than 64/);
    expect(model.root().kind).toBe('json');
  });

  test('nesting beyond the form depth turns the rest into JSON', () => {
    // A recursive reference nests without end while the document itself stays tiny.
    const model = new FormModel({ $ref: '#/$defs/box', $defs: { box: { type: 'object', properties: { x: { $ref: '#/$defs/box' } } } } });
    let field: Field = model.root();
    let depth = 0;
    while (field.kind === 'object') {
      field = memberField(model, field, 'x', field.properties[0]!.schema, undefined);
      depth++;
    }
    expect(field).toMatchObject({ kind: 'json', reason: 'fallback', problem: { keyword: 'depth' } });
    expect(depth).toBe(33);
  });

  test('exponential allOf/$ref fan-out stops at the step budget with a message', () => {
    // Each level refers to the next one twice: 2^30 expansions if nothing stops it.
    const defs: Record<string, unknown> = { l30: { type: 'string' } };
    for (let i = 29; i >= 0; i--) defs[`l${i}`] = { allOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] };
    const model = new FormModel({ type: 'object', $defs: defs, properties: { x: { $ref: '#/$defs/l0' } } }, { limits: { maxDepth: 32, maxSteps: 5000, maxMs: 60_000 } });
    const x = member(model, 'x');
    expect(x).toMatchObject({ kind: 'json', reason: 'fallback', problem: { keyword: 'budget' } });
    expect(model.document.steps).toBeLessThanOrEqual(0);
  });

  test('the same fan-out stops at the time budget when the step budget is generous', () => {
    const defs: Record<string, unknown> = { l40: { type: 'string' } };
    for (let i = 39; i >= 0; i--) defs[`l${i}`] = { allOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] };
    const model = new FormModel({ type: 'object', $defs: defs, properties: { x: { $ref: '#/$defs/l0' } } }, { limits: { maxDepth: 32, maxSteps: 1e12, maxMs: 50 } });
    const x = member(model, 'x');
    expect(x).toMatchObject({ kind: 'json', reason: 'fallback', problem: { keyword: 'budget' } });
    expect(x.kind === 'json' && x.problem?.message).toMatch(/50 ms/);
  });

  test('re-rendering does not use up the budget (results are cached)', () => {
    // Regression: every render used to spend steps on each union alternative.
    const model = new FormModel(
      {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`u${i}`, { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'object', properties: { a: { type: 'string' } } }] }])),
      },
      { limits: { maxDepth: 32, maxSteps: 200, maxMs: 60_000 } },
    );
    for (let render = 0; render < 2000; render++) {
      const root = model.root({}) as ObjectField;
      for (const entry of root.properties) memberField(model, root, entry.key, entry.schema, undefined);
    }
    expect(member(model, 'u5').kind).toBe('union');
  });
});

describe('argument building (C15, C17 rules)', () => {
  // Own fixture in the spirit of C15: optional number/array/object, a required string, a required integer.
  const schema = {
    type: 'object',
    properties: {
      keyword: { type: 'string', description: 'may be empty' },
      budget: { type: 'integer', minimum: 0 },
      colours: { type: 'array', items: { type: 'string' } },
      period: { type: 'object', properties: { from: { type: 'string', format: 'date' }, until: { type: 'string', format: 'date' } }, required: ['from', 'until'] },
      extras: { type: 'object', additionalProperties: true },
      count: { type: 'integer' },
    },
    required: ['keyword', 'count'],
  };

  // One deliberate difference from C15 (issue 12, item 17): an untouched required string is missing,
  // so the validator flags it as a native required input would be; emptied on purpose it goes as "".
  test('C15 untouched optional fields are omitted; a required string goes as "" once emptied on purpose, and is flagged while untouched', () => {
    const model = new FormModel(schema);
    expect(args(model, { count: text('7'), keyword: clear }).arguments).toEqual({ keyword: '', count: 7 });
    const untouched = args(model, { count: text('7') }).arguments;
    expect(untouched).toEqual({ count: 7 });
    const outcome = compileSchemaSync(schema)(untouched);
    expect(!outcome.valid && outcome.issues.map((i) => [i.path, i.keyword])).toEqual([['/keyword', 'required']]);
  });

  test('C15 a typed-then-cleared optional number is omitted, not ""', () => {
    const model = new FormModel(schema);
    expect(args(model, { count: text('7'), budget: text(''), keyword: clear }).arguments).toEqual({ keyword: '', count: 7 });
  });

  test('C15 a typed-then-cleared required string goes as ""', () => {
    const model = new FormModel(schema);
    expect(args(model, { count: text('7'), keyword: clear }).arguments).toEqual({ keyword: '', count: 7 });
  });

  test('C15 an optional array emptied again is omitted; with one item it is sent', () => {
    const model = new FormModel(schema);
    expect(args(model, { count: text('7'), colours: withItems([]), keyword: clear }).arguments).toEqual({ keyword: '', count: 7 });
    expect(args(model, { count: text('7'), colours: withItems([typed('teal')]), keyword: clear }).arguments).toEqual({ keyword: '', count: 7, colours: ['teal'] });
  });

  test('C15 a partly filled optional object is sent and the validator flags the missing member', () => {
    const model = new FormModel(schema);
    const built = args(model, { count: text('7'), period: withMember(undefined, 'from', typed('2026-05-01')), keyword: clear });
    expect(built.arguments).toEqual({ keyword: '', count: 7, period: { from: '2026-05-01' } });
    const outcome = compileSchemaSync(schema)(built.arguments);
    expect(outcome.valid).toBe(false);
    expect(!outcome.valid && outcome.issues.map((i) => [i.path, i.keyword])).toEqual([['/period/until', 'required']]);
  });

  test('C15 a cleared free-form object is omitted; a missing required integer is reported as missing', () => {
    const model = new FormModel(schema);
    expect(args(model, { count: text('7'), extras: { k: 'json', text: '' }, keyword: clear }).arguments).toEqual({ keyword: '', count: 7 });
    const empty = args(model, { keyword: clear }).arguments;
    expect(empty).toEqual({ keyword: '' });
    const outcome = compileSchemaSync(schema)(empty);
    expect(!outcome.valid && outcome.issues.map((i) => i.path)).toEqual(['/count']);
  });

  const nullable = {
    type: 'object',
    properties: {
      side: { anyOf: [{ type: 'string', enum: ['left', 'right'] }, { type: 'null' }] },
      note: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Note' },
      teams: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }], default: null },
      max: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null },
      speed: { type: ['string', 'null'], enum: ['slow', 'quick', null] },
    },
  };

  test('C17 nullable fields: untouched → {}, null only when chosen, values typed as JSON types', () => {
    const model = new FormModel(nullable);
    expect(args(model).arguments).toEqual({});
    expect(args(model, { side: typed('right') }).arguments).toEqual({ side: 'right' });
    expect(args(model, { note: typed('hello') }).arguments).toEqual({ note: 'hello' });
    expect(args(model, { note: clear }).arguments).toEqual({});
    expect(args(model, { teams: withItems([typed('ops')]) }).arguments).toEqual({ teams: ['ops'] });
    expect(args(model, { max: text('25') }).arguments).toEqual({ max: 25 });
    expect(args(model, { note: { k: 'null' } }).arguments).toEqual({ note: null });
    expect(args(model, { speed: typed('quick') }).arguments).toEqual({ speed: 'quick' });
  });

  test('integers outside ±(2^53−1) are refused, not rounded; bad number text is reported', () => {
    const model = new FormModel(schema);
    const big = args(model, { count: text('9007199254740993') });
    expect(big.arguments).toEqual({});
    expect(big.issues).toEqual([{ pointer: '/count', message: expect.stringMatching(/between −9007199254740991 and 9007199254740991/) }]);
    expect(args(model, { count: text('9007199254740991') }).arguments.count).toBe(9007199254740991);
    expect(args(model, { count: text('12abc') }).issues[0]).toEqual({ pointer: '/count', message: 'Enter a number.' });
    expect(args(model, { count: { k: 'text', text: '', bad: true } }).issues[0]?.message).toBe('Enter a number.');
  });

  test('defaults pre-fill and are sent with their object; optional objects with defaults inside are not invented', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        level: { type: 'integer', default: 2 },
        extra: { type: 'object', properties: { mode: { type: 'string', default: 'fast' }, label: { type: 'string' } } },
      },
    });
    expect(args(model).arguments).toEqual({ level: 2 });
    // Filling one member of the optional object sends it, with its defaults.
    expect(args(model, { extra: withMember(undefined, 'label', typed('x')) }).arguments).toEqual({ level: 2, extra: { mode: 'fast', label: 'x' } });
  });

  test('required arrays start with minItems items; array items that are empty block sending', () => {
    const model = new FormModel({
      type: 'object',
      properties: { stops: { type: 'array', minItems: 1, items: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }, ids: { type: 'array', items: { type: 'integer' } } },
      required: ['stops'],
    });
    // The untouched required city is missing (the validator flags it), not "".
    expect(args(model).arguments).toEqual({ stops: [{}] });
    const holes = args(model, { ids: withItems([text('1'), undefined]) });
    expect(holes.arguments.ids).toEqual([1, null]);
    expect(holes.issues).toEqual([{ pointer: '/ids/1', message: 'Enter a value or remove this item.' }]);
  });

  test('map rows: named entries are sent, unnamed or duplicate ones are reported; __proto__ is an ordinary key', () => {
    const model = new FormModel({ type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'string' } } } });
    const rows = (list: [string, string][]) => withRows(undefined, list.map(([key, value]) => ({ key, value: typed(value) })));
    expect(args(model, { env: rows([['HOME', '/root'], ['__proto__', 'x']]) }).arguments).toEqual(JSON.parse('{"env":{"HOME":"/root","__proto__":"x"}}'));
    expect(args(model, { env: rows([['', 'orphan']]) }).issues).toEqual([{ pointer: '/env', message: 'Entry 1 needs a name.' }]);
    expect(args(model, { env: rows([['A', '1'], ['A', '2']]) }).issues).toEqual([{ pointer: '/env', message: 'The name "A" is used twice.' }]);
  });

  test('unions build the chosen variant; the discriminator const is sent; switching keeps each variant\'s input', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        shape: circleOrSquare,
      },
      required: ['shape'],
    });
    let shape: Draft = withVariantDraft(undefined, 0, withMember(undefined, 'radius', text('2')));
    expect(args(model, { shape }).arguments).toEqual({ shape: { kind: 'circle', radius: 2 } });
    shape = withVariantDraft(withChoice(shape, 1), 1, withMember(undefined, 'side', text('3')));
    expect(args(model, { shape }).arguments).toEqual({ shape: { kind: 'square', side: 3 } });
    expect(args(model, { shape: withChoice(shape, 0) }).arguments).toEqual({ shape: { kind: 'circle', radius: 2 } });
  });

  test('raw JSON for a subtree keeps the text and reports parse errors', () => {
    const model = new FormModel(schema);
    const bad = args(model, { count: text('1'), period: { k: 'json', text: '{"from": "2026-01-01",' } });
    expect(bad.issues).toEqual([{ pointer: '/period', message: expect.stringMatching(/^Not valid JSON/) }]);
    expect(bad.arguments).toEqual({ count: 1 });
    const good = args(model, { count: text('1'), period: { k: 'json', text: '{"from": "2026-01-01", "until": "2026-01-09"}' } });
    expect(good.arguments.period).toEqual({ from: '2026-01-01', until: '2026-01-09' });
  });

  test('valueToDraft round-trips arguments through the form, and keeps what the form cannot show as JSON', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        name: { type: 'string' },
        qty: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string' } },
        where: { type: 'object', properties: { lat: { type: 'number' } }, additionalProperties: false },
        shape: { oneOf: [{ type: 'string' }, { type: 'object', properties: { r: { type: 'number' } } }] },
      },
    });
    const value = { name: 'Ada', qty: 3, tags: ['a', 'b'], where: { lat: 1.5, extra: true }, shape: { r: 2 } };
    const draft = valueToDraft(model, model.root(value), value);
    expect(buildArguments(model, draft).arguments).toEqual(value);
    expect(draft.k === 'obj' && draft.p.where).toEqual({ k: 'json', text: JSON.stringify({ lat: 1.5, extra: true }, null, 2) });
  });
});

test('a value with empty arrays and objects keeps them through the form; emptying them by hand still omits them', () => {
  // Regression (corpus run): `.arguments = {path, exclude: []}` came back without `exclude`.
  const model = new FormModel({
    type: 'object',
    properties: {
      path: { type: 'string' },
      exclude: { type: 'array', items: { type: 'string' }, default: [] },
      links: { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } },
    },
  });
  const value = { path: '/srv', exclude: [], links: { ids: [] } };
  const draft = valueToDraft(model, model.root(value), value);
  expect(buildArguments(model, draft).arguments).toEqual(value);
  const emptied = withMember(draft, 'links', withMember(draft.k === 'obj' ? draft.p.links : undefined, 'ids', withItems([])));
  expect(buildArguments(model, emptied).arguments).toEqual({ path: '/srv', exclude: [] });
});

describe('samples', () => {
  test('patterns of the kind real tools use', () => {
    for (const pattern of ['^[a-zA-Z0-9_-]+\\/[a-zA-Z0-9_-]+$', '^#[a-fA-F0-9]{6}$', '^\\d+[hdw]$', '^(today|\\d{4}-\\d{2}-\\d{2})$', '^I?\\d+[:|-]\\d+(?:;\\d+[:|-]\\d+)*$']) {
      const sample = sampleFromPattern(pattern);
      expect(sample, pattern).toBeDefined();
      expect(new RegExp(pattern, 'u').test(sample!)).toBe(true);
    }
    expect(sampleFromPattern('^(?=x)a$')).toBeUndefined();
  });

  test('filling every field of a rich schema yields arguments the validator accepts', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        n: { type: 'integer', exclusiveMinimum: 0, multipleOf: 5 },
        tags: { type: 'array', items: { type: 'string', minLength: 3 }, minItems: 2, uniqueItems: true },
        kind: { oneOf: [{ const: 'a', title: 'A' }, { const: 'b', title: 'B' }] },
        shape: { anyOf: [{ type: 'object', properties: { r: { type: 'number' } }, required: ['r'] }, { type: 'string' }] },
        maybe: { type: ['integer', 'null'] },
      },
      required: ['id', 'n', 'tags', 'kind', 'shape'],
    };
    const model = new FormModel(schema);
    const draft = sampleDraft(model, model.root(), { all: true });
    const built = buildArguments(model, draft);
    expect(built.issues).toEqual([]);
    expect(compileSchemaSync(schema)(built.arguments)).toEqual({ valid: true });
  });

  test('required members that branch without end (two, each the whole schema again) give no sample, in bounded work (issue 30)', () => {
    // Regression: past maxDepth the filler follows required members for 64 more levels, so this schema
    // (no finite value exists) asked for 2^72 fields and never returned.
    const schema = { type: 'object', properties: { a: { $ref: '#' }, b: { $ref: '#' }, note: { type: 'string' } }, required: ['a', 'b'] };
    const model = new FormModel(schema);
    for (const all of [false, true]) expect(sampleDraft(model, model.root(), { all })).toBeUndefined();
  });

  test('a recursive required filter gets a sample the validator accepts: recursion stops only where the schema allows (an empty array, an optional member) (issue 30)', () => {
    // Regression: below a fixed depth the filler returned nothing, so required members were missing
    // three levels down (filters → filters → …) and the validator refused the sample.
    const filter = {
      type: 'object',
      properties: {
        field: { type: 'string', minLength: 1 },
        op: { enum: ['and', 'or', 'eq'] },
        filters: { type: 'array', items: { $ref: '#/$defs/filter' } },
        not: { $ref: '#/$defs/filter' },
        group: { type: 'object', properties: { of: { $ref: '#/$defs/filter' }, label: { type: 'string' } }, required: ['of'] },
      },
      required: ['field', 'op', 'filters'],
    };
    const schemas = [
      { type: 'object', $defs: { filter }, properties: { filter: { $ref: '#/$defs/filter' } }, required: ['filter'] },
      // The same, with each level's list required non-empty down to a level that ends it.
      { type: 'object', $defs: { filter, leaf: { type: 'object', properties: { field: { type: 'string' } }, required: ['field'] } }, properties: { filter: { $ref: '#/$defs/filter' }, chain: nested(12) }, required: ['filter', 'chain'] },
    ];
    for (const schema of schemas) {
      for (const all of [false, true]) {
        const model = new FormModel(schema);
        const built = buildArguments(model, sampleDraft(model, model.root(), { all }));
        expect({ all, issues: built.issues }).toEqual({ all, issues: [] });
        expect({ all, outcome: compileSchemaSync(schema)(built.arguments) }).toEqual({ all, outcome: { valid: true } });
      }
    }
    function nested(levels: number): Record<string, unknown> {
      let inner: Record<string, unknown> = { $ref: '#/$defs/leaf' };
      for (let level = 0; level < levels; level++) inner = { type: 'object', properties: { next: { type: 'array', items: inner, minItems: 1 }, note: { type: 'string' } }, required: ['next'] };
      return inner;
    }
  });
});

/** The problems the form would show for a root draft: built, validated against the whole schema, refined. */
function problems(model: FormModel, draft: Draft | undefined): { pointer: string; message: string }[] {
  const unions: UnionChoice[] = [];
  const built = buildArguments(model, draft, unions);
  return formIssues(model, compileSchemaSync(model.inputSchema)(built.arguments), unions, built.issues);
}

/** A report tool: a root-level oneOf next to root members and a root allOf (the shape of field case C24). */
const report = {
  type: 'object',
  properties: { heading: { type: 'string' } },
  required: ['heading'],
  allOf: [{ properties: { owner: { type: 'string' } }, required: ['owner'] }],
  oneOf: [
    { properties: { kind: { const: 'bug' }, steps: { type: 'string' } }, required: ['kind', 'steps'] },
    { properties: { kind: { const: 'idea' }, benefit: { type: 'string' } }, required: ['kind', 'benefit'] },
  ],
};

for (const library of ['ajv', '@cfworker/json-schema'] as const) {
  describe(`form problems inside unions, checked with ${library}`, () => {
    beforeAll(async () => {
      if (library !== 'ajv') useSchemaCompiler(cfworkerCompiler);
      await ensureValidator();
    });
    afterAll(async () => {
      useSchemaCompiler(undefined);
      await ensureValidator();
    });

    test('every error in one pass: the union\'s own members and the chosen variant\'s, without the other variant\'s', () => {
      const model = new FormModel(report);
      expect(problems(model, undefined).map((issue) => issue.pointer).sort()).toEqual(['/heading', '/owner', '/steps']);
      const idea = withChoice(undefined, 1);
      expect(problems(model, idea).map((issue) => issue.pointer).sort()).toEqual(['/benefit', '/heading', '/owner']);
    });

    test('a oneOf value that fits two variants is refused at the union, naming both', () => {
      const model = new FormModel({
        type: 'object',
        properties: { pick: { oneOf: [{ type: 'object', properties: { code: { type: 'string' } }, required: ['code'] }, { type: 'object', properties: { label: { type: 'string' } } }] } },
      });
      const pick = withVariantDraft(undefined, 0, withMember(undefined, 'code', typed('x1')));
      const found = problems(model, withMember(undefined, 'pick', pick));
      expect(found).toHaveLength(1);
      expect(found[0]!.pointer).toBe('/pick');
      expect(found[0]!.message).toMatch(/more than one of the options \(object with code, object with label\)/);
    });

    test('a not beside an anyOf is reported, not taken for an alternative\'s noise', () => {
      const model = new FormModel({ type: 'object', properties: { mode: { anyOf: [{ type: 'string' }, { type: 'integer' }], not: { const: 'off' } } } });
      expect(problems(model, withMember(undefined, 'mode', withVariantDraft(undefined, 0, typed('off'))))).toEqual([{ pointer: '/mode', message: 'This value is not allowed.' }]);
      expect(problems(model, withMember(undefined, 'mode', withVariantDraft(undefined, 0, typed('eco'))))).toEqual([]);
    });

    test('a restored value lands in the variant it validates against', () => {
      const model = new FormModel({ type: 'object', properties: { when: { anyOf: [{ type: 'string', format: 'date' }, { type: 'string' }] } } });
      const when = member(model, 'when') as UnionField;
      expect(matchVariant(when, 'next week', model)).toBe(1);
      expect(matchVariant(when, '2026-03-01', model)).toBe(0);
    });
  });
}

describe('arrays of enum values', () => {
  test('checkboxes only with uniqueItems, and only for values they can show', () => {
    const model = new FormModel({
      type: 'object',
      properties: {
        listed: { type: 'array', items: { enum: ['a', 'b'] } },
        set: { type: 'array', items: { enum: ['a', 'b'] }, uniqueItems: true },
      },
    });
    expect((member(model, 'listed') as ArrayField).choices).toBeUndefined();
    const set = member(model, 'set') as ArrayField;
    expect(showsAsChoices(set, withItems([typed('b'), typed('a')]))).toBe(true);
    expect(showsAsChoices(set, withItems([typed('a'), typed('a')]))).toBe(false);
    expect(showsAsChoices(set, withItems([typed('c')]))).toBe(false);
    // Whatever the control, the value keeps its order and repeats.
    for (const value of [['b', 'a'], ['a', 'a', 'b'], ['c']]) {
      const draft = valueToDraft(model, model.root(), { set: value, listed: value });
      expect(buildArguments(model, draft).arguments).toEqual({ set: value, listed: value });
    }
  });
});

// Keep the imported helpers honest about their types.
void variantField;

describe('fields built once per place (issue 18: a keystroke does not rebuild every field)', () => {
  test('a member without conditions is the same field on every render, whatever the value; one under if/then/else follows the value', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        address: { type: 'object', properties: { street: { type: 'string' } } },
        delivery: {
          type: 'object',
          properties: { kind: { enum: ['post', 'pickup'] } },
          if: { properties: { kind: { const: 'pickup' } }, required: ['kind'] },
          then: { properties: { store: { type: 'string' } } },
          else: { properties: { street: { type: 'string' } } },
        },
      },
    };
    const model = new FormModel(schema);
    const root = model.root({}) as ObjectField;
    const entry = (key: string) => root.properties.find((p) => p.key === key)!;
    const first = memberField(model, root, 'address', entry('address').schema, undefined);
    const again = memberField(model, model.root({ name: 'x' }) as ObjectField, 'address', entry('address').schema, { k: 'obj', p: {}, rows: [] } as unknown as Draft);
    expect(again).toBe(first);
    // Its members are cached below it too (they share its ancestors).
    const street = memberField(model, first as ObjectField, 'street', (first as ObjectField).properties[0]!.schema, undefined);
    expect(memberField(model, again as ObjectField, 'street', (again as ObjectField).properties[0]!.schema, undefined)).toBe(street);

    const keys = (value: unknown) => (model.field(entry('delivery').schema, { key: 'delivery', depth: 1, ancestors: root.ancestors, value }) as ObjectField).properties.map((p) => p.key);
    expect(keys({ kind: 'pickup' })).toEqual(['kind', 'store']);
    expect(keys({ kind: 'post' })).toEqual(['kind', 'street']);
    expect(keys({ kind: 'pickup' })).toEqual(['kind', 'store']);
  });
});
