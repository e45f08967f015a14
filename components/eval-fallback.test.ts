/**
 * A page whose Content-Security-Policy forbids eval after ajv has loaded (a
 * policy the kit's first check could not see: here a `<meta>` policy added
 * later): ajv's compile is refused (EvalError), and from then on schemas are
 * checked by @cfworker/json-schema instead of going out unchecked (issue 17).
 * The page's policy stays for the rest of this file, which runs in its own
 * page. A policy in force from the start is tested in e2e/playground.spec.ts.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { compileSchema, compileSchemaSync, ensureValidator } from '../src/index.js';
import { cleanup } from './test-support/dom.js';
import { errorOf, mount, part, root, submitted, tool, type } from './test-support/tool-form.js';

afterEach(() => cleanup());

test('ajv until eval is forbidden, then @cfworker/json-schema: a form still refuses invalid input', async () => {
  await ensureValidator();
  // ajv checks a schema against its meta-schema: this one is refused.
  expect(() => compileSchemaSync({ type: 'string', minLength: -1 })).toThrow(/The schema is invalid/);

  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = "script-src 'self' 'unsafe-inline'";
  document.head.append(meta);
  expect(() => new Function('')).toThrow(EvalError);

  const form = await mount({ tool: tool('create_note', { type: 'object', properties: { title: { type: 'string', title: 'Title', minLength: 3 } }, required: ['title'] }) });
  await vi.waitFor(() => expect(root(form).querySelector('[part~="submit-button"]')).not.toBeNull());
  await type(form, '/title', 'ab');
  await vi.waitFor(async () => {
    expect(await submitted(form)).toBeUndefined();
    expect(errorOf(form, '/title')).toBe('Enter at least 3 characters.');
  });
  expect(root(form).querySelector('[part="notice"]')).toBeNull();
  await type(form, '/title', 'Printer');
  expect(await submitted(form)).toEqual({ title: 'Printer' });
  expect(part(root(form), 'submit-button')).toBeTruthy();

  // The fallback took over: it compiles what ajv refused (it does not check schemas against their meta-schema).
  const lenient = await compileSchema({ type: 'string', minLength: -1 });
  expect(lenient('x')).toEqual({ valid: true });
});
