/**
 * `<mcp-tool-form>` in real Chromium: every control kind, the argument-building
 * rules (field cases C15 and C17, one test per flow), validation and its
 * accessibility, and real calls to the demo MCP server (progress, cancel,
 * errors, destructive confirmation, drafts, context from `<mcp-connection>`).
 *
 * Fixtures are our own; where a test needs a tool result it calls the demo
 * server started by the global setup.
 */
import { afterEach, beforeEach, describe, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { McpClient, type Tool } from '../../src/index.js';
import '../index.js';
import type { McpToolCallEvent } from '../events.js';
import { axeViolations } from '../test-support/dom.js';
import { conditionalTool, fanOutSchema, graphLikeSchema } from '../test-support/fixtures.js';
import { chooseRadio, clear, click, control, errorOf, field, itemButton, mount, openPreview, ownButton, part, root, submitted, tool, type } from '../test-support/tool-form.js';
import type { McpToolForm } from './mcp-tool-form.js';

const demoUrl = () => inject('demoServerUrl');

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe('controls for each kind of schema', () => {
  test('strings: formats become native inputs; date, date-time and time are sent in RFC 3339', async () => {
    const form = await mount({
      tool: tool('formats', {
        type: 'object',
        properties: {
          day: { type: 'string', format: 'date' },
          at: { type: 'string', format: 'date-time' },
          alarm: { type: 'string', format: 'time' },
          mail: { type: 'string', format: 'email' },
          site: { type: 'string', format: 'uri' },
          ref: { type: 'string', format: 'uuid' },
          code: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[A-Z]+$' },
          slug: { type: 'string', pattern: '[a-z-]+' },
        },
      }),
    });
    expect(['/day', '/at', '/alarm', '/mail', '/site', '/ref'].map((p) => control(form, p).type)).toEqual(['date', 'datetime-local', 'time', 'email', 'url', 'text']);
    expect(control(form, '/code').maxLength).toBe(5);
    expect(control(form, '/code').minLength).toBe(2);
    // Native constraints mirror the schema, so checkValidity() and :invalid work for hosts; the pattern
    // is checked by the kit's linear-time engine and set as custom validity.
    await type(form, '/code', 'ab');
    await vi.waitFor(() => expect(control(form, '/code').validity.customError).toBe(true));
    expect(control(form, '/code').validationMessage).toBe('Match the requested format.');
    expect(control(form, '/code').matches(':invalid')).toBe(true);
    await type(form, '/code', 'AB');
    expect(control(form, '/code').validity.valid).toBe(true);
    await type(form, '/slug', 'UPPER');
    expect(control(form, '/slug').validity.customError).toBe(true);
    await clear(form, '/slug');
    expect(control(form, '/slug').validity.valid).toBe(true);
    // No control carries the HTML pattern attribute, which the browser runs on its backtracking engine.
    expect(root(form).querySelectorAll('[pattern]')).toHaveLength(0);
    await clear(form, '/code');
    expect(field(form, '/ref').textContent).toContain('format: uuid');
    await type(form, '/day', '2026-04-02');
    await type(form, '/at', '2026-04-02T08:15');
    await type(form, '/alarm', '07:45');
    const args = await submitted(form);
    expect(args?.day).toBe('2026-04-02');
    expect(args?.at).toMatch(/^2026-04-02T08:15:00(Z|[+-]\d\d:\d\d)$/);
    expect(args?.alarm).toMatch(/^07:45:00(Z|[+-]\d\d:\d\d)$/);
    // The input still shows what the user picked.
    expect(control(form, '/at').value).toBe('2026-04-02T08:15');
  });

  test('numbers: integers are sent as JSON numbers; integers outside ±(2^53−1) are refused, not rounded', async () => {
    const form = await mount({ tool: tool('numbers', { type: 'object', properties: { count: { type: 'integer', minimum: 1 }, ratio: { type: 'number' } }, required: ['count'] }) });
    expect(control(form, '/count').type).toBe('number');
    expect(control(form, '/count').step).toBe('1');
    expect(control(form, '/ratio').step).toBe('any');
    await type(form, '/count', '42');
    await type(form, '/ratio', '0.25');
    expect(await submitted(form)).toEqual({ count: 42, ratio: 0.25 });
    await type(form, '/count', '9007199254740993');
    expect(await submitted(form)).toBeUndefined();
    expect(errorOf(form, '/count')).toMatch(/between −9007199254740991 and 9007199254740991/);
    expect(control(form, '/count').value).toBe('9007199254740993');
  });

  test('booleans: a required one is a checkbox sent as false; an optional one starts unset and can be unset again', async () => {
    const form = await mount({ tool: tool('flags', { type: 'object', properties: { agree: { type: 'boolean' }, notify: { type: 'boolean' } }, required: ['agree'] }) });
    const notify = control(form, '/notify');
    expect(notify.type).toBe('checkbox');
    expect(notify.indeterminate).toBe(true);
    expect(await submitted(form)).toEqual({ agree: false });
    await click(form, notify);
    await click(form, notify);
    expect(await submitted(form)).toEqual({ agree: false, notify: false });
    await click(form, ownButton(form, '/notify', 'clear-button'));
    expect(control(form, '/notify').indeterminate).toBe(true);
    expect(await submitted(form)).toEqual({ agree: false });
  });

  test('enums: a radio group for small sets, a select for larger ones; titled oneOf and enumNames labels; default pre-selected', async () => {
    const form = await mount({
      tool: tool('enums', {
        type: 'object',
        properties: {
          size: { type: 'string', enum: ['s', 'm', 'l'], default: 'm' },
          city: { type: 'string', enum: ['Porto', 'Braga', 'Faro', 'Évora', 'Coimbra'] },
          tone: { title: 'Tone', oneOf: [{ const: 'warm', title: 'Warm colours' }, { const: 'cool', title: 'Cool colours' }] },
          pet: { type: 'string', enum: ['p1', 'p2', 'p3', 'p4', 'p5'], enumNames: ['Cat', 'Dog', 'Fish', 'Bird', 'Horse'] },
        },
      }),
    });
    // An enum with a default offers no "not set" (issue 33): it always has a value.
    expect([...field(form, '/size').querySelectorAll('input[type="radio"]')].map((r) => r.parentElement!.textContent!.trim())).toEqual(['s', 'm', 'l']);
    expect(field(form, '/size').querySelector<HTMLInputElement>('input[type="radio"]:checked')!.parentElement!.textContent!.trim()).toBe('m');
    const city = control<HTMLSelectElement>(form, '/city', 'select');
    expect([...city.options].map((o) => o.textContent!.trim())).toEqual(['— not set —', 'Porto', 'Braga', 'Faro', 'Évora', 'Coimbra']);
    expect([...field(form, '/tone').querySelectorAll('label[part~="option"]')].map((l) => l.textContent!.trim())).toEqual(['Warm colours', 'Cool colours', 'not set']);
    const pet = control<HTMLSelectElement>(form, '/pet', 'select');
    expect([...pet.options].map((o) => o.textContent!.trim()).slice(1)).toEqual(['Cat', 'Dog', 'Fish', 'Bird', 'Horse']);
    await userEvent.selectOptions(city, 'Faro');
    await chooseRadio(form, '/tone', 'Cool colours');
    await userEvent.selectOptions(pet, 'Dog');
    expect(await submitted(form)).toEqual({ size: 'm', city: 'Faro', tone: 'cool', pet: 'p2' });
  });

  test('const: a required constant is shown read-only and sent; an optional one is opt-in', async () => {
    const form = await mount({ tool: tool('consts', { type: 'object', properties: { version: { const: 'v2' }, beta: { const: true } }, required: ['version'] }) });
    expect(control(form, '/version').readOnly).toBe(true);
    expect(control(form, '/version').value).toBe('v2');
    expect(await submitted(form)).toEqual({ version: 'v2' });
    await click(form, control(form, '/beta'));
    expect(await submitted(form)).toEqual({ version: 'v2', beta: true });
  });

  test('nested objects are fieldsets; readOnly is disabled for editing; title and description are label and hint', async () => {
    const form = await mount({
      tool: tool('nested', {
        type: 'object',
        properties: {
          owner: {
            type: 'object',
            title: 'Owner',
            properties: { first: { type: 'string', title: 'First name', description: 'As on the passport' }, id: { type: 'string', readOnly: true, default: 'u-17' } },
            required: ['first'],
          },
        },
        required: ['owner'],
      }),
    });
    const owner = field(form, '/owner');
    expect(owner.tagName).toBe('FIELDSET');
    expect(owner.querySelector('legend')!.textContent).toContain('Owner');
    const first = control(form, '/owner/first');
    expect(root(form).querySelector(`label[for="${first.id}"]`)!.textContent).toContain('First name');
    const hint = root(form).getElementById(first.getAttribute('aria-describedby')!.split(' ')[0]!)!;
    expect(hint.textContent).toContain('As on the passport');
    expect(control(form, '/owner/id').readOnly).toBe(true);
    expect(control(form, '/owner/id').value).toBe('u-17');
    await type(form, '/owner/first', 'Rosa');
    expect(await submitted(form)).toEqual({ owner: { first: 'Rosa', id: 'u-17' } });
  });

  test('arrays of primitives: add, reorder, remove; minItems and maxItems limit the buttons', async () => {
    const form = await mount({ tool: tool('list', { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 } } }) });
    const add = () => ownButton(form, '/tags', 'add-button');
    await click(form, add());
    await type(form, '/tags/0', 'red');
    await click(form, add());
    await type(form, '/tags/1', 'green');
    await click(form, add());
    await type(form, '/tags/2', 'blue');
    expect(root(form).querySelector('[data-pointer="/tags"] > [part~="add-button"]')).toBeNull();
    await click(form, itemButton(form, '/tags', 2, 'move-button'));
    expect(await submitted(form)).toEqual({ tags: ['red', 'blue', 'green'] });
    await click(form, itemButton(form, '/tags', 0, 'remove-button'));
    await click(form, itemButton(form, '/tags', 0, 'remove-button'));
    expect(itemButton(form, '/tags', 0, 'remove-button').disabled).toBe(true);
    expect(await submitted(form)).toEqual({ tags: ['green'] });
  });

  test('arrays of objects, tuples (prefixItems) and arrays of enum values (checkboxes)', async () => {
    const form = await mount({
      tool: tool('lists', {
        type: 'object',
        properties: {
          legs: { type: 'array', items: { type: 'object', properties: { from: { type: 'string' }, nights: { type: 'integer', default: 1 } }, required: ['from'] } },
          point: { type: 'array', prefixItems: [{ type: 'number', title: 'Longitude' }, { type: 'number', title: 'Latitude' }], items: false },
          extras: { type: 'array', items: { type: 'string', enum: ['wifi', 'parking', 'breakfast'] }, uniqueItems: true },
        },
        required: ['point'],
      }),
    });
    await click(form, ownButton(form, '/legs', 'add-button'));
    await type(form, '/legs/0/from', 'Lisbon');
    await click(form, ownButton(form, '/legs', 'add-button'));
    await type(form, '/legs/1/from', 'Madrid');
    await type(form, '/legs/1/nights', '3');
    expect(root(form).querySelector(`label[for="${control(form, '/point/0').id}"]`)!.textContent).toContain('Longitude');
    await type(form, '/point/0', '-9.14');
    await type(form, '/point/1', '38.72');
    const boxes = field(form, '/extras').querySelectorAll<HTMLInputElement>('input[type="checkbox"]');
    await click(form, boxes[2]!);
    await click(form, boxes[0]!);
    expect(await submitted(form)).toEqual({
      legs: [
        { from: 'Lisbon', nights: 1 },
        { from: 'Madrid', nights: 3 },
      ],
      point: [-9.14, 38.72],
      extras: ['wifi', 'breakfast'],
    });
  });

  test('maps (additionalProperties as a schema) are key/value rows', async () => {
    const form = await mount({ tool: tool('maps', { type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'integer' } } } }) });
    const addRow = () => field(form, '/env').querySelector<HTMLButtonElement>(':scope > [part~="rows"] > [part~="add-button"]')!;
    await click(form, addRow());
    await click(form, addRow());
    const keys = field(form, '/env').querySelectorAll<HTMLInputElement>('input[part~="key"]');
    await userEvent.fill(keys[0]!, 'WORKERS');
    await userEvent.fill(keys[1]!, 'RETRIES');
    await form.updateComplete;
    await type(form, '/env/WORKERS', '4');
    await type(form, '/env/RETRIES', '2');
    expect(await submitted(form)).toEqual({ env: { WORKERS: 4, RETRIES: 2 } });
  });

  test('unions of objects: a variant picker; the discriminator is detected; switching back keeps what was typed', async () => {
    const form = await mount({
      tool: tool('shapes', {
        type: 'object',
        properties: {
          shape: {
            title: 'Shape',
            oneOf: [
              { type: 'object', properties: { kind: { const: 'circle' }, radius: { type: 'number' } }, required: ['kind', 'radius'] },
              { type: 'object', properties: { kind: { const: 'rect' }, width: { type: 'number' }, height: { type: 'number' } }, required: ['kind', 'width', 'height'] },
            ],
          },
        },
        required: ['shape'],
      }),
    });
    const picker = part<HTMLSelectElement>(field(form, '/shape'), 'variant-picker');
    expect([...picker.options].map((o) => o.textContent!.trim())).toEqual(['circle', 'rect']);
    expect(root(form).querySelector(`label[for="${picker.id}"]`)!.textContent).toBe('kind');
    await type(form, '/shape/radius', '2.5');
    await userEvent.selectOptions(picker, 'rect');
    await form.updateComplete;
    await type(form, '/shape/width', '4');
    await type(form, '/shape/height', '3');
    expect(await submitted(form)).toEqual({ shape: { kind: 'rect', width: 4, height: 3 } });
    await userEvent.selectOptions(part<HTMLSelectElement>(field(form, '/shape'), 'variant-picker'), 'circle');
    await form.updateComplete;
    expect(control(form, '/shape/radius').value).toBe('2.5');
    expect(await submitted(form)).toEqual({ shape: { kind: 'circle', radius: 2.5 } });
  });

  test('a union error names the chosen variant only', async () => {
    const form = await mount({
      tool: tool('shapes', {
        type: 'object',
        properties: {
          shape: {
            oneOf: [
              { type: 'object', properties: { kind: { const: 'circle' }, radius: { type: 'number' } }, required: ['kind', 'radius'] },
              { type: 'object', properties: { kind: { const: 'rect' }, width: { type: 'number' } }, required: ['kind', 'width'] },
            ],
          },
        },
        required: ['shape'],
      }),
    });
    expect(await submitted(form)).toBeUndefined();
    expect(form.issues).toEqual([{ pointer: '/shape/radius', message: 'Required.' }]);
    expect(errorOf(form, '/shape/radius')).toBe('Required.');
  });

  test('allOf is merged into one group of fields', async () => {
    const form = await mount({
      tool: tool('merged', {
        type: 'object',
        properties: { box: { allOf: [{ type: 'object', properties: { w: { type: 'integer' } }, required: ['w'] }, { properties: { h: { type: 'integer' } }, required: ['h'] }] } },
        required: ['box'],
      }),
    });
    await type(form, '/box/w', '2');
    await type(form, '/box/h', '5');
    expect(field(form, '/box').querySelectorAll('[data-pointer]')).toHaveLength(2);
    expect(await submitted(form)).toEqual({ box: { w: 2, h: 5 } });
  });

  test('if/then/else is evaluated against the live value', async () => {
    const form = await mount({ tool: conditionalTool() });
    await expect.poll(() => root(form).querySelector('[data-pointer="/street"]')).not.toBeNull();
    expect(root(form).querySelector('[data-pointer="/store"]')).toBeNull();
    await chooseRadio(form, '/delivery', 'pickup');
    expect(root(form).querySelector('[data-pointer="/street"]')).toBeNull();
    await chooseRadio(form, '/store', 'south');
    expect(await submitted(form)).toEqual({ delivery: 'pickup', store: 'south' });
  });

  test('$ref and $defs, including recursion: a recursive member is added on request, one level at a time', async () => {
    const form = await mount({
      tool: tool('tree', {
        type: 'object',
        $defs: { node: { type: 'object', properties: { label: { type: 'string' }, child: { $ref: '#/$defs/node' } } } },
        properties: { root: { $ref: '#/$defs/node' }, mirror: { $ref: '#/properties/root', title: 'Mirror' } },
        required: ['root'],
      }),
    });
    await type(form, '/root/label', 'top');
    const add = ownButton(form, '/root/child', 'add-button');
    expect(add.getAttribute('aria-expanded')).toBe('false');
    await click(form, add);
    await type(form, '/root/child/label', 'inner');
    expect(root(form).querySelector('[data-pointer="/root/child/child"] [data-pointer="/root/child/child/label"]')).toBeNull();
    expect(field(form, '/mirror').querySelector('legend')!.textContent).toContain('Mirror');
    expect(await submitted(form)).toEqual({ root: { label: 'top', child: { label: 'inner' } } });
  });

  test('optional objects below the first level start collapsed; opened on request, and one holding a value (arguments set) is shown open with it (issue 18)', async () => {
    const place = { type: 'object', properties: { street: { type: 'string' }, geo: { type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } } } } };
    const schema = { type: 'object', properties: { name: { type: 'string' }, home: place, work: place } };
    const form = await mount({ tool: tool('where', schema) });
    // The first level is open; its optional objects wait behind a button, with no controls rendered.
    expect(control(form, '/home/street')).toBeTruthy();
    const addGeo = ownButton(form, '/home/geo', 'add-button');
    expect(addGeo.getAttribute('aria-expanded')).toBe('false');
    expect(root(form).querySelector('[data-pointer="/home/geo/lat"]')).toBeNull();
    await click(form, addGeo);
    await type(form, '/home/geo/lat', '47.4');
    // Values set from outside open what holds them, and keep them.
    form.arguments = { work: { geo: { lon: 8.5 } } };
    await form.updateComplete;
    expect(control(form, '/work/geo/lon').value).toBe('8.5');
    expect(await submitted(form)).toEqual({ work: { geo: { lon: 8.5 } } });
  });

  test('a free-form object is a JSON editor that keeps the raw text and reports parse errors inline', async () => {
    const form = await mount({ tool: tool('free', { type: 'object', properties: { meta: { type: 'object', description: 'anything' } } }) });
    const editor = control<HTMLTextAreaElement>(form, '/meta', 'textarea');
    await userEvent.fill(editor, '{"a": [1, 2');
    await form.updateComplete;
    expect(errorOf(form, '/meta')).toMatch(/^Not valid JSON/);
    expect(editor.value).toBe('{"a": [1, 2');
    expect(await submitted(form)).toBeUndefined();
    await userEvent.fill(editor, '{"a": [1, 2], "b": "x\\"y"}');
    await form.updateComplete;
    expect(await submitted(form)).toEqual({ meta: { a: [1, 2], b: 'x"y' } });
  });

  test('any subtree can be edited as JSON and back', async () => {
    const form = await mount({ tool: tool('raw', { type: 'object', properties: { box: { type: 'object', properties: { w: { type: 'integer' } } } } }) });
    await type(form, '/box/w', '3');
    await click(form, ownButton(form, '/box', 'raw-toggle'));
    const editor = control<HTMLTextAreaElement>(form, '/box', 'textarea');
    expect(JSON.parse(editor.value)).toEqual({ w: 3 });
    await userEvent.fill(editor, '{"w": 8}');
    await form.updateComplete;
    await click(form, ownButton(form, '/box', 'raw-toggle'));
    expect(control(form, '/box/w').value).toBe('8');
    expect(await submitted(form)).toEqual({ box: { w: 8 } });
  });

  test('an unsupported dialect: a clear message, and the arguments can still be entered as JSON', async () => {
    const form = await mount({ tool: tool('old', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { q: { type: 'string' } } }) });
    expect(part(root(form), 'notice').textContent).toMatch(/draft-04.*not supported/);
    const editor = control<HTMLTextAreaElement>(form, '', 'textarea');
    await userEvent.fill(editor, '{"q": "hello"}');
    await form.updateComplete;
    expect(await submitted(form)).toEqual({ q: 'hello' });
  });

  test('a hostile schema over the work bounds gets a message instead of a frozen page', async () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5000; i++) deep = { type: 'object', properties: { x: deep } };
    const form = await mount({ tool: tool('deep', deep) });
    expect(part(root(form), 'notice').textContent).toMatch(/too large to turn into a form safely/);
    expect(control(form, '', 'textarea')).toBeTruthy();
  });
});

describe('server patterns and costly schemas (issue "Hardening…", items 3 and 4; issue "Interop…", item 20)', () => {
  test('patterns that would freeze a backtracking engine are checked on the linear-time engine: by the control\'s validity and by the validator; the value is flagged, not sent', async () => {
    const form = await mount({
      tool: tool('slug', {
        type: 'object',
        properties: { slug: { type: 'string', pattern: '^([a-z]+)+$' }, note: { type: 'string', pattern: '^(\\s*a\\s*)+$', maxLength: 40_000 }, filter: { type: 'string', pattern: '^[a-z]+([=!,]{1,2}[a-z]+)+$' } },
        required: ['slug'],
      }),
    });
    // Each would freeze the tab for minutes if the browser's engine ran it on these values.
    const slug = 'a'.repeat(30_000) + '!';
    await type(form, '/slug', slug);
    await vi.waitFor(() => expect(control(form, '/slug').validity.customError).toBe(true));
    await type(form, '/filter', 'status=');
    expect(control(form, '/filter').validity.customError).toBe(true);
    expect(await submitted(form)).toBeUndefined();
    expect(form.issues.map((issue) => issue.pointer).sort()).toEqual(['/filter', '/slug']);
    expect(root(form).querySelector('[part~="notice"]')).toBeNull();
    await type(form, '/slug', 'a'.repeat(30_000));
    await type(form, '/filter', 'status!=done,owner=ana');
    expect(control(form, '/slug').validity.valid).toBe(true);
    expect(await submitted(form)).toEqual({ slug: 'a'.repeat(30_000), filter: 'status!=done,owner=ana' });
  });

  test('a pattern the kit cannot run safely (a back-reference that could backtrack) is left out with a notice in plain words, and the value is sent', async () => {
    const form = await mount({ tool: tool('pair', { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+\\1$' }, country: { type: 'string', pattern: '^[A-Z]{3}$' } }, required: ['code'] }) });
    // The validator (which finds the pattern it cannot run) loads once the user starts on the form.
    control(form, '/code').focus();
    await vi.waitFor(() => expect(part(root(form), 'notice').textContent).toBe('The format required for "code" cannot be checked safely on this page, so it is not checked here.'));
    const value = 'a'.repeat(40) + '!';
    await type(form, '/code', value);
    expect(control(form, '/code').validity.valid).toBe(true);
    // The other pattern is still a native constraint.
    await type(form, '/country', 'de');
    expect(control(form, '/country').validity.customError).toBe(true);
    await type(form, '/country', 'DEU');
    expect(await submitted(form)).toEqual({ code: value, country: 'DEU' });
  });

  test('an input schema whose references branch out (2^26 paths) is not checked: the form says so and the first submit sends at once', async () => {
    const fan = fanOutSchema(26, 'anyOf');
    const form = await mount({ tool: tool('fan', { type: 'object', $defs: fan.$defs, properties: { name: { $ref: '#/$defs/n0' } }, required: ['name'] }) });
    control(form, '/name').focus();
    await vi.waitFor(() => expect(part(root(form), 'notice').textContent).toMatch(/^The input schema cannot be checked \(The schema is too costly to check safely: .*\); arguments are sent without checking\.$/));
    form.arguments = { name: 'x' };
    await form.updateComplete;
    expect(await submitted(form)).toEqual({ name: 'x' });
  });
  test('a large honest schema built like a Microsoft Graph tool\'s (about 88 KB, hundreds of shared definitions) is a checked form, not refused (issue 30)', async () => {
    const schema = graphLikeSchema();
    expect(JSON.stringify(schema).length).toBeGreaterThan(80_000);
    const form = await mount({ tool: tool('create-list', schema) });
    control(form, '/site-id').focus();
    await type(form, '/site-id', 'root');
    await type(form, '/body/displayName', 'Tasks');
    expect(await submitted(form)).toEqual({ 'site-id': 'root', body: { displayName: 'Tasks' } });
    // Checked: no notice that the schema cannot be checked, and a missing required member is an error.
    expect(root(form).querySelector('[part~="notice"]')?.textContent ?? '').not.toMatch(/cannot be checked/);
    await clear(form, '/body/displayName');
    expect(await submitted(form)).toBeUndefined();
    expect(errorOf(form, '/body/displayName')).toBeTruthy();
  });
});

describe('a tool definition set directly (not checked by the client)', () => {
  test('a title or name that is an object, even one shaped like a Lit template, is shown as text', async () => {
    const template = { _$litType$: 1, strings: ['<img src=x data-injected>'], values: [] };
    const hostile = { name: 'plain', title: template, inputSchema: { type: 'object', properties: { a: { type: 'string' } } } } as unknown as Tool;
    const form = await mount({ tool: hostile });
    expect(part(root(form), 'title').textContent).toBe('plain');
    expect(root(form).querySelector('[data-injected]')).toBeNull();
    expect(field(form, '/a')).toBeTruthy();
    // A name that is not a string: no form (it could not be called), a clear message.
    const odd = await mount({ tool: { name: { toString: 'x' }, inputSchema: { type: 'object', properties: { b: { type: 'string' } } } } as unknown as Tool });
    expect(part(root(odd), 'call-error').textContent).toBe('The tool definition has no string name or no object inputSchema.');
    expect(root(odd).querySelector('input')).toBeNull();
  });
});

describe('lists that would start with too many controls', () => {
  test('a required list with minItems 100000 is a JSON editor with the reason, not 100000 inputs', async () => {
    const form = await mount({ tool: tool('bulk', { type: 'object', properties: { ids: { type: 'array', items: { type: 'string' }, minItems: 100_000 } }, required: ['ids'] }) });
    expect(field(form, '/ids').textContent).toMatch(/starts with 100000 items, too many to show as fields \(at most 200\); enter it as JSON/);
    expect(root(form).querySelectorAll('input').length).toBeLessThan(10);
    await type(form, '/ids', '["a","b"]');
    // Sent as typed; the server's schema check (minItems) is reported by the validator, not by a frozen page.
    expect(form.value).toEqual({ ids: ['a', 'b'] });
  });

  test('a default of 5000 items takes the JSON editor too; 200 items still get fields', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `item-${i}`);
    const big = await mount({ tool: tool('big', { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, default: many } } }) });
    // The JSON editor, previewed first (the default is long: issue 19, item 2).
    await click(big, ownButton(big, '/tags', 'show-all-button'));
    expect(control(big, '/tags', 'textarea')).toBeTruthy();
    const fine = await mount({ tool: tool('fine', { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, minItems: 200 } }, required: ['tags'] }) });
    expect(field(fine, '/tags').querySelectorAll('input').length).toBe(200);
  });
});

describe('field case C15: empty and omitted arguments', () => {
  // Our own fixture teaching the same rules as C15. One deliberate difference (issue 12, item 17):
  // a required string the user never touched is flagged, as a native required input would be, not
  // sent as ""; "" is sent when the user empties the field on purpose. The flows whose expected
  // arguments carry keyword "" therefore empty it first.
  const schema = {
    type: 'object',
    properties: {
      keyword: { type: 'string', description: 'empty means everything' },
      budget: { type: 'integer', minimum: 0 },
      colours: { type: 'array', items: { type: 'string' } },
      period: { type: 'object', properties: { from: { type: 'string', format: 'date' }, until: { type: 'string', format: 'date' } }, required: ['from', 'until'] },
      extras: { type: 'object', additionalProperties: true, description: 'free-form' },
      count: { type: 'integer' },
    },
    required: ['keyword', 'count'],
  };
  let form: McpToolForm;
  beforeEach(async () => {
    form = await mount({ tool: tool('search_items', schema) });
  });
  /** The user empties the keyword on purpose: "" means everything. */
  const emptyKeyword = async () => {
    await type(form, '/keyword', 'x');
    await clear(form, '/keyword');
  };

  test('C15 untouched: optional fields are omitted; the untouched required string is flagged, and goes as "" once emptied on purpose', async () => {
    await type(form, '/count', '10');
    expect(await submitted(form)).toBeUndefined();
    expect(form.issues).toEqual([{ pointer: '/keyword', message: 'Required.' }]);
    await emptyKeyword();
    expect(await submitted(form)).toEqual({ keyword: '', count: 10 });
  });

  test('C15 typed-then-cleared number is omitted, not ""', async () => {
    await emptyKeyword();
    await type(form, '/count', '10');
    await type(form, '/budget', '5');
    await clear(form, '/budget');
    expect(await submitted(form)).toEqual({ keyword: '', count: 10 });
  });

  test('C15 typed-then-cleared required string goes as ""', async () => {
    await type(form, '/count', '10');
    await type(form, '/keyword', 'x');
    await clear(form, '/keyword');
    expect(await submitted(form)).toEqual({ keyword: '', count: 10 });
  });

  test('C15 array add-then-remove is omitted; one item is sent', async () => {
    await emptyKeyword();
    await type(form, '/count', '10');
    await click(form, ownButton(form, '/colours', 'add-button'));
    await type(form, '/colours/0', 'teal');
    await click(form, itemButton(form, '/colours', 0, 'remove-button'));
    expect(await submitted(form)).toEqual({ keyword: '', count: 10 });
    await click(form, ownButton(form, '/colours', 'add-button'));
    await type(form, '/colours/0', 'teal');
    expect(await submitted(form)).toEqual({ keyword: '', count: 10, colours: ['teal'] });
  });

  test('C15 nested object partly filled: not sent, inline "required" on the missing member, input kept', async () => {
    await type(form, '/count', '10');
    await type(form, '/period/from', '2026-01-01');
    expect(await submitted(form)).toBeUndefined();
    expect(errorOf(form, '/period/until')).toBe('Required.');
    expect(control(form, '/period/from').value).toBe('2026-01-01');
    expect(control(form, '/count').value).toBe('10');
  });

  test('C15 free-form object typed then cleared is omitted', async () => {
    await emptyKeyword();
    await type(form, '/count', '10');
    await userEvent.fill(control(form, '/extras', 'textarea'), '{"a":1}');
    await userEvent.clear(control(form, '/extras', 'textarea'));
    await form.updateComplete;
    expect(await submitted(form)).toEqual({ keyword: '', count: 10 });
  });

  test('C15 required integer empty: not sent, inline "required", focus on it', async () => {
    await emptyKeyword();
    expect(await submitted(form)).toBeUndefined();
    const count = control(form, '/count');
    expect(errorOf(form, '/count')).toBe('Required.');
    expect(count.getAttribute('aria-invalid')).toBe('true');
    expect(count.getAttribute('aria-describedby')!.split(' ').map((id) => root(form).getElementById(id)?.textContent?.trim())).toContain('Required.');
    expect(root(form).activeElement).toBe(count);
  });

  test('C15 resubmit after a successful call: the second call differs only by what changed (real server)', async () => {
    const client = new McpClient(demoUrl());
    const ticket = await mount({ toolName: 'create_ticket', client });
    await expect.poll(() => root(ticket).querySelector('[data-pointer="/title"]')).not.toBeNull();
    await type(ticket, '/title', 'Broken lamp');
    await type(ticket, '/estimate', '5');
    await click(ticket, part(root(ticket), 'submit-button'));
    await expect.poll(() => ticket.result).toBeDefined();
    // create_ticket echoes the arguments it received in structuredContent.
    const { id: _first, ...received } = ticket.result!.structuredContent as Record<string, unknown>;
    expect(received).toEqual({ title: 'Broken lamp', priority: 'medium', urgent: false, estimate: 5 });
    const firstResult = ticket.result;
    await clear(ticket, '/estimate');
    await click(ticket, part(root(ticket), 'submit-button'));
    await expect.poll(() => ticket.result).not.toBe(firstResult);
    const { id: _second, ...again } = ticket.result!.structuredContent as Record<string, unknown>;
    expect(again).toEqual({ title: 'Broken lamp', priority: 'medium', urgent: false });
  });
});

describe('field case C17: nullable fields', () => {
  // Our own fixture with the shapes of C17 (Zod .nullish(), Python `T | None = None`).
  const schema = {
    type: 'object',
    properties: {
      side: { anyOf: [{ type: 'string', enum: ['left', 'right'] }, { type: 'null' }] },
      note: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Note' },
      teams: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }], default: null },
      max: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null },
      speed: { type: ['string', 'null'], enum: ['slow', 'quick', null] },
    },
  };
  let form: McpToolForm;
  let consoleErrors: ReturnType<typeof vi.spyOn>;
  beforeEach(async () => {
    consoleErrors = vi.spyOn(console, 'error');
    form = await mount({ tool: tool('list_moves', schema) });
  });
  afterEach(() => {
    expect(consoleErrors).not.toHaveBeenCalled();
  });

  test('C17 renders the non-null control for each field, never a JSON textarea', () => {
    const labels = (pointer: string) => [...field(form, pointer).querySelectorAll('label[part~="option"]')].map((l) => l.textContent!.trim());
    expect(labels('/side')).toEqual(['left', 'right', 'not set', 'null']);
    expect(control(form, '/note').type).toBe('text');
    expect(root(form).querySelector(`label[for="${control(form, '/note').id}"]`)!.textContent).toContain('Note');
    expect(field(form, '/teams').dataset.kind).toBe('array');
    expect(control(form, '/max').type).toBe('number');
    expect(labels('/speed')).toEqual(['slow', 'quick', 'not set', 'null']);
    expect(root(form).querySelector('textarea')).toBeNull();
  });

  test('C17 untouched sends {}', async () => {
    expect(await submitted(form)).toEqual({});
  });

  test('C17 pick an enum value', async () => {
    await chooseRadio(form, '/side', 'right');
    expect(await submitted(form)).toEqual({ side: 'right' });
  });

  test('C17 type then clear a string: sent, then omitted; typing never adds quotes or backslashes', async () => {
    await type(form, '/note', 'say "hi" \\ bye');
    expect(await submitted(form)).toEqual({ note: 'say "hi" \\ bye' });
    expect(control(form, '/note').value).toBe('say "hi" \\ bye');
    await clear(form, '/note');
    expect(await submitted(form)).toEqual({});
  });

  test('C17 add to a nullable list', async () => {
    await click(form, ownButton(form, '/teams', 'add-button'));
    await type(form, '/teams/0', 'ops');
    expect(await submitted(form)).toEqual({ teams: ['ops'] });
  });

  test('C17 a nullable integer is sent as a number', async () => {
    await type(form, '/max', '25');
    expect(await submitted(form)).toEqual({ max: 25 });
  });

  test('C17 explicit null only when chosen, and back', async () => {
    await click(form, ownButton(form, '/note', 'null-button'));
    expect(control(form, '/note').disabled).toBe(true);
    expect(await submitted(form)).toEqual({ note: null });
    await click(form, ownButton(form, '/note', 'null-button'));
    expect(await submitted(form)).toEqual({});
  });

  test('C17 a type-array enum', async () => {
    await chooseRadio(form, '/speed', 'quick');
    expect(await submitted(form)).toEqual({ speed: 'quick' });
    await chooseRadio(form, '/speed', 'null');
    expect(await submitted(form)).toEqual({ speed: null });
  });
});

describe('validation and accessibility', () => {
  test('nothing is sent while invalid: inline errors with aria-invalid and aria-describedby, a summary, focus on the first error', async () => {
    const client = new McpClient(demoUrl());
    const calls: string[] = [];
    client.on('traffic', (event) => {
      const message = (event as { message?: { method?: string } }).message;
      if (message?.method === 'tools/call') calls.push(message.method);
    });
    const form = await mount({ toolName: 'create_ticket', client });
    await expect.poll(() => root(form).querySelector('[data-pointer="/title"]')).not.toBeNull();
    await type(form, '/title', 'ab');
    await type(form, '/reporter', 'not-an-email');
    await click(form, part(root(form), 'submit-button'));
    expect(calls).toEqual([]);
    expect(form.issues.map((i) => i.pointer).sort()).toEqual(['/reporter', '/title']);
    expect(errorOf(form, '/title')).toBe('Enter at least 3 characters.');
    expect(errorOf(form, '/reporter')).toBe('Enter a valid email.');
    expect(form.matches(':state(invalid)')).toBe(true);
    expect(part(root(form), 'error-summary').getAttribute('role')).toBe('alert');
    expect(root(form).activeElement).toBe(control(form, '/title'));
    // Fixing the fields clears the errors as the user types.
    await type(form, '/title', 'abc');
    await type(form, '/reporter', 'ana@example.com');
    expect(root(form).querySelector('[data-invalid]')).toBeNull();
    await click(form, part(root(form), 'submit-button'));
    await expect.poll(() => form.result).toBeDefined();
    expect(calls).toEqual(['tools/call']);
  });

  test('axe finds no violations on a large form with errors shown and a rich result', async () => {
    const main = document.createElement('main');
    const heading = document.createElement('h1');
    heading.textContent = 'Tool form accessibility';
    main.append(heading);
    document.body.append(main);
    const form = await mount({
      into: main,
      tool: tool(
        'everything',
        {
          type: 'object',
          properties: {
            title: { type: 'string', title: 'Title', minLength: 3, description: 'A short name' },
            body: { type: 'string', maxLength: 2000 },
            when: { type: 'string', format: 'date' },
            at: { type: 'string', format: 'date-time' },
            count: { type: 'integer', minimum: 1, maximum: 9 },
            ratio: { type: ['number', 'null'] },
            urgent: { type: 'boolean' },
            size: { type: 'string', enum: ['s', 'm', 'l'] },
            city: { type: 'string', enum: ['Porto', 'Braga', 'Faro', 'Évora', 'Coimbra'] },
            tone: { oneOf: [{ const: 'warm', title: 'Warm' }, { const: 'cool', title: 'Cool' }] },
            tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
            stops: { type: 'array', items: { type: 'object', properties: { city: { type: 'string' }, nights: { type: 'integer' } } } },
            extras: { type: 'array', items: { type: 'string', enum: ['wifi', 'parking'] } },
            amenities: { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['pool', 'gym'] } },
            env: { type: 'object', additionalProperties: { type: 'string' } },
            owner: { type: 'object', properties: { name: { type: 'string' }, mail: { type: 'string', format: 'email' } }, required: ['name'] },
            shape: { oneOf: [{ type: 'object', properties: { kind: { const: 'a' }, r: { type: 'number' } } }, { type: 'object', properties: { kind: { const: 'b' }, s: { type: 'number' } } }] },
            meta: { type: 'object' },
            region: { type: 'string', 'x-mcp-header': 'Region' },
          },
          required: ['title', 'count', 'tags'],
        },
        { title: 'Everything at once', description: 'A tool with every kind of field.', annotations: { destructiveHint: true } },
      ),
    });
    await click(form, ownButton(form, '/stops', 'add-button'));
    await click(form, field(form, '/env').querySelector<HTMLButtonElement>(':scope > [part~="rows"] > [part~="add-button"]')!);
    await type(form, '/title', 'ab');
    expect(await submitted(form)).toBeUndefined();
    const result = document.createElement('mcp-tool-result');
    result.result = {
      content: [
        { type: 'text', text: 'Done <b>really</b>' },
        { type: 'image', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'https://example.com/report.pdf', name: 'report.pdf', mimeType: 'application/pdf', size: 1200 },
        { type: 'resource', resource: { uri: 'mem://note', mimeType: 'text/plain', text: 'A note' } },
        { type: 'mystery', value: 1 },
      ],
      structuredContent: [{ ok: true }],
    };
    main.append(result);
    await result.updateComplete;
    expect(await axeViolations(document)).toEqual([]);
  });
});

describe('calling tools on the demo server', () => {
  test('progress bar and message while running; Cancel aborts and keeps the input', async () => {
    const client = new McpClient(demoUrl());
    const form = await mount({ toolName: 'long_task', client });
    await expect.poll(() => root(form).querySelector('[data-pointer="/steps"]')).not.toBeNull();
    await type(form, '/steps', '40');
    await type(form, '/stepMs', '150');
    await click(form, part(root(form), 'submit-button'));
    expect(form.issues).toEqual([]);
    expect(form.phase).toBe('pending');
    expect(form.matches(':state(pending)')).toBe(true);
    await expect.poll(() => root(form).querySelector<HTMLProgressElement>('[part~="progress-bar"]')?.value ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(part(root(form), 'progress-bar').getAttribute('max')).toBe('40');
    expect(part(root(form), 'progress-message').textContent).toMatch(/^Step \d+ of 40$/);
    expect(control(form, '/steps').matches(':disabled')).toBe(true);
    await click(form, part(root(form), 'cancel-button'));
    await expect.poll(() => form.phase).toBe('idle');
    expect(form.result).toBeUndefined();
    expect(part(root(form), 'status').textContent).toMatch(/Cancelled/);
    expect(control(form, '/steps').value).toBe('40');
    expect(control(form, '/steps').matches(':disabled')).toBe(false);
  });

  test('a server error is shown in the form, the input is kept, and mcp-error is sent', async () => {
    const client = new McpClient(demoUrl());
    // A tool the server does not have: the server answers with a JSON-RPC error.
    const form = await mount({ tool: tool('no_such_tool', { type: 'object', properties: { q: { type: 'string' } } }), client });
    const errors: unknown[] = [];
    form.addEventListener('mcp-error', (event) => errors.push(event.detail.error));
    await type(form, '/q', 'keep me');
    await click(form, part(root(form), 'submit-button'));
    await expect.poll(() => root(form).querySelector('[part~="call-error"]')).not.toBeNull();
    expect(part(root(form), 'call-error').textContent).toMatch(/no_such_tool|not found|unknown/i);
    expect(errors).toHaveLength(1);
    expect(form.matches(':state(error)')).toBe(true);
    expect(control(form, '/q').value).toBe('keep me');
  });

  test('a destructive tool asks first: "Don\'t call" sends nothing, confirming calls it', async () => {
    const client = new McpClient(demoUrl());
    const calls: unknown[] = [];
    client.on('traffic', (event) => {
      const message = (event as { message?: { method?: string } }).message;
      if (message?.method === 'tools/call') calls.push(message);
    });
    // The demo server's delete_notes is marked destructive.
    const real = await mount({ toolName: 'delete_notes', client });
    await expect.poll(() => real.effectiveTool?.annotations?.destructiveHint).toBe(true);
    await click(real, part(root(real), 'submit-button'));
    expect(real.matches(':state(confirming)')).toBe(true);
    expect(part(root(real), 'confirm').textContent).toMatch(/destructive/);
    expect(root(real).activeElement).toBe(part(root(real), 'confirm-cancel'));
    await click(real, part(root(real), 'confirm-cancel'));
    expect(calls).toEqual([]);
    expect(real.result).toBeUndefined();
    real.remove();
    // Confirming: a harmless tool with the same hint, so the shared demo notes stay intact.
    const weather = await mount({ tool: tool('get_weather', { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, { annotations: { destructiveHint: true } }), client });
    await type(weather, '/city', 'Faro');
    await click(weather, part(root(weather), 'submit-button'));
    expect(part(root(weather), 'confirm-arguments').textContent).toContain('"city": "Faro"');
    await click(weather, part(root(weather), 'confirm-button'));
    await expect.poll(() => weather.result).toBeDefined();
    expect(calls).toHaveLength(1);
  });

  test('mcp-tool-call is cancelable; mcp-tool-result carries the arguments and result; the result renders underneath', async () => {
    const client = new McpClient(demoUrl());
    const form = await mount({ toolName: 'get_weather', client });
    await expect.poll(() => root(form).querySelector('[data-pointer="/city"]')).not.toBeNull();
    expect(control(form, '/city').value).toBe('Lisbon');
    const stop = (event: McpToolCallEvent) => event.preventDefault();
    form.addEventListener('mcp-tool-call', stop, { once: true });
    await click(form, part(root(form), 'submit-button'));
    expect(form.result).toBeUndefined();
    const results: { tool: string; arguments: Record<string, unknown> }[] = [];
    form.addEventListener('mcp-tool-result', (event) => results.push(event.detail));
    await click(form, part(root(form), 'submit-button'));
    await expect.poll(() => results).toHaveLength(1);
    expect(results[0]!.tool).toBe('get_weather');
    expect(results[0]!.arguments).toEqual({ city: 'Lisbon' });
    const view = part(root(form), 'result');
    await (view as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    expect(view.shadowRoot!.querySelector('[part~="validation"]')!.textContent).toMatch(/Matches the tool's outputSchema/);
  });

  test('the arguments JSON and the mirrored HTTP headers are shown before calling (TOOL-2, HDR-8)', async () => {
    const form = await mount({
      tool: tool('route', { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, q: { type: 'string' } }, required: ['region'] }),
    });
    expect(field(form, '/region').querySelector('[part~="header-badge"]')!.textContent).toContain('sent as HTTP header Mcp-Param-Region');
    expect(field(form, '/q').querySelector('[part~="header-badge"]')).toBeNull();
    await type(form, '/region', 'Zürich');
    await type(form, '/q', 'cafés');
    expect(part(root(form), 'preview-toggle').getAttribute('aria-expanded')).toBe('false');
    const preview = await openPreview(form);
    expect(JSON.parse(part(preview, 'preview-json').textContent!)).toEqual({ region: 'Zürich', q: 'cafés' });
    // Non-ASCII header values are base64-encoded (streamable-http "Value Encoding").
    expect(part(preview, 'preview-headers').textContent).toBe(`Mcp-Param-Region: =?base64?${btoa(String.fromCharCode(...new TextEncoder().encode('Zürich')))}?=`);
  });

  test('the arguments preview is built while it is open: closed, it is one disclosure button and typing builds no JSON; opened, the button controls the region that shows the arguments and follows the typing (issue 30)', async () => {
    const form = await mount({ tool: tool('note', { type: 'object', properties: { title: { type: 'string' }, pages: { type: 'integer' } } }) });
    const toggle = part<HTMLButtonElement>(root(form), 'preview-toggle');
    await type(form, '/title', 'Draft');
    // Closed: the button alone, saying so, and no region to build on each keystroke (nor a dangling aria-controls).
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.hasAttribute('aria-controls')).toBe(false);
    expect(root(form).querySelector('[part~="preview"]')).toBeNull();
    expect(root(form).querySelector('[part~="preview-json"], details')).toBeNull();
    const preview = await openPreview(form);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-controls')).toBe(preview.id);
    expect(preview.getAttribute('role')).toBe('region');
    expect(document.activeElement === form && root(form).activeElement).toBe(toggle);
    expect(JSON.parse(part(preview, 'preview-json').textContent!)).toEqual({ title: 'Draft' });
    await type(form, '/pages', '3');
    expect(JSON.parse(part(root(form), 'preview-json').textContent!)).toEqual({ title: 'Draft', pages: 3 });
    // The keyboard closes it as it opened it (a button: Enter and Space).
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => root(form).querySelector('[part~="preview"]')).toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await userEvent.keyboard(' ');
    await expect.poll(() => root(form).querySelector('[part~="preview-json"]')?.textContent).toBe(JSON.stringify({ title: 'Draft', pages: 3 }, null, 2));
    // A definition the form cannot show removes the fields and the preview; the next tool's starts closed, with nothing built.
    form.tool = { name: 'broken' } as Tool;
    await form.updateComplete;
    expect(root(form).querySelector('[part~="preview"], [part~="preview-toggle"]')).toBeNull();
    form.tool = tool('other', { type: 'object', properties: { q: { type: 'string' } } });
    await form.updateComplete;
    expect(part(root(form), 'preview-toggle').getAttribute('aria-expanded')).toBe('false');
    expect(root(form).querySelector('[part~="preview"]')).toBeNull();
  });

  test('drafts persist per server and tool across reloads; reset clears them', async () => {
    const client = new McpClient(demoUrl());
    const name = `draft_probe_${Math.random().toString(36).slice(2)}`;
    const probe = tool(name, { type: 'object', properties: { title: { type: 'string' }, n: { type: 'integer' } } });
    const first = await mount({ tool: probe, client, drafts: true });
    await type(first, '/title', 'half done');
    await type(first, '/n', '7');
    first.remove(); // flushes the pending save
    const second = await mount({ tool: probe, client, drafts: true });
    await expect.poll(() => control(second, '/title').value).toBe('half done');
    expect(control(second, '/n').value).toBe('7');
    // Another server does not see it.
    const elsewhere = await mount({ tool: probe, client: new McpClient('http://127.0.0.1:9/mcp'), drafts: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(control(elsewhere, '/title').value).toBe('');
    elsewhere.remove();
    const resets: Event[] = [];
    second.addEventListener('reset', (event) => resets.push(event));
    await click(second, part(root(second), 'reset-button'));
    expect(resets).toHaveLength(1);
    expect(control(second, '/title').value).toBe('');
    second.remove();
    const third = await mount({ tool: probe, client, drafts: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(control(third, '/title').value).toBe('');
  });

  /** A get_weather form inside a connection to the demo server, once the tool is loaded. */
  async function weatherInConnection(listen: boolean) {
    const connection = document.createElement('mcp-connection');
    connection.setAttribute('server-url', demoUrl());
    if (!listen) connection.setAttribute('no-listen', '');
    const form = document.createElement('mcp-tool-form');
    form.toolName = 'get_weather';
    form.noDrafts = true;
    connection.append(form);
    document.body.append(connection);
    await expect.poll(() => form.effectiveTool?.name, { timeout: 10_000 }).toBe('get_weather');
    return { connection, form };
  }

  test('inside <mcp-connection> the client comes from the context and the tool by name', async () => {
    const { form } = await weatherInConnection(false);
    expect(form.effectiveClient).toBeDefined();
    await type(form, '/city', 'Porto');
    await click(form, part(root(form), 'submit-button'));
    await expect.poll(() => form.result).toBeDefined();
    expect(form.result!.structuredContent).toMatchObject({ city: 'Porto' });
  });

  test('a tools/list_changed about another tool keeps what the user typed and the result shown', async () => {
    const { connection, form } = await weatherInConnection(true);
    await expect.poll(() => connection.listening, { timeout: 10_000 }).toBe(true);
    await type(form, '/city', 'Braga');
    await click(form, part(root(form), 'submit-button'));
    await expect.poll(() => form.result).toBeDefined();
    await type(form, '/city', 'Coimbra');
    const client = connection.client!;
    const before = form.effectiveTool;
    try {
      await client.callTool('toggle_bonus', {});
      // The connection and the form re-list after the notification.
      await expect.poll(() => client.tool('bonus'), { timeout: 10_000 }).toBeDefined();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await form.updateComplete;
      expect(form.effectiveTool).toBe(before);
      expect(control(form, '/city').value).toBe('Coimbra');
      expect(form.value).toMatchObject({ city: 'Coimbra' });
      expect(root(form).querySelector('mcp-tool-result')).not.toBeNull();
    } finally {
      await client.callTool('toggle_bonus', {}); // the demo server is shared: put the bonus tool away again
    }
  });

  test('a form moved in the page (inside its connection) still follows tools/list_changed: a tool it waited for shows up', async () => {
    const connection = document.createElement('mcp-connection');
    connection.setAttribute('server-url', demoUrl());
    const form = document.createElement('mcp-tool-form');
    form.toolName = 'bonus';
    form.noDrafts = true;
    connection.append(form);
    document.body.append(connection);
    await expect.poll(() => root(form).querySelector('[part~="call-error"]')?.textContent, { timeout: 10_000 }).toContain('lists no tool named "bonus"');
    await expect.poll(() => connection.listening, { timeout: 10_000 }).toBe(true);
    // A layout change moves the form within its connection.
    connection.append(document.createElement('div'));
    connection.lastElementChild!.append(form);
    const client = connection.client!;
    try {
      await client.callTool('toggle_bonus', {});
      await expect.poll(() => form.effectiveTool?.name, { timeout: 10_000 }).toBe('bonus');
    } finally {
      await client.callTool('toggle_bonus', {}); // the demo server is shared: put the bonus tool away again
    }
  });

  test('input and change reach the host for typing and for button actions', async () => {
    const form = await mount({ tool: tool('events', { type: 'object', properties: { q: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } }) });
    const seen: string[] = [];
    form.addEventListener('input', () => seen.push('input'));
    form.addEventListener('change', () => seen.push('change'));
    await type(form, '/q', 'hello');
    expect(seen.filter((e) => e === 'input').length).toBeGreaterThanOrEqual(1);
    seen.length = 0;
    // Leaving the field commits it: the native change (which does not cross shadow roots) is re-sent from the host.
    control(form, '/q').blur();
    expect(seen).toEqual(['change']);
    seen.length = 0;
    await click(form, ownButton(form, '/tags', 'add-button'));
    expect(seen).toEqual(['input', 'change']);
  });

  test('.arguments fills the form from a saved call; members the form cannot show stay as JSON', async () => {
    const form = await mount({ tool: tool('prefill', { type: 'object', properties: { q: { type: 'string' }, box: { type: 'object', properties: { w: { type: 'integer' } }, additionalProperties: false } } }) });
    form.arguments = { q: 'again', box: { w: 2, h: 9 } };
    await form.updateComplete;
    expect(control(form, '/q').value).toBe('again');
    expect(JSON.parse(control<HTMLTextAreaElement>(form, '/box', 'textarea').value)).toEqual({ w: 2, h: 9 });
    expect(form.value).toEqual({ q: 'again', box: { w: 2, h: 9 } });
  });
});
