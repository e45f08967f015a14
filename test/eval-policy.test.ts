/**
 * Where code may not be compiled from strings (a Content-Security-Policy
 * without 'unsafe-eval', Node's --disallow-code-generation-from-strings), the
 * kit checks schemas with @cfworker/json-schema instead of ajv, and never
 * loads ajv (issue 17). The browser side, with a real policy, is in
 * components/eval-fallback.test.ts and e2e/playground.spec.ts.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { policyForbidsEval } from '../src/schema/eval-policy.js';

const root = join(import.meta.dirname, '..');

describe('policyForbidsEval', () => {
  test.each([
    ["script-src 'self'", true],
    ["default-src 'self'", true],
    ["script-src 'self' 'wasm-unsafe-eval'", true],
    ["script-src 'self' 'unsafe-eval'", false],
    ["SCRIPT-SRC 'self' 'UNSAFE-EVAL'", false],
    // script-src decides when present, whatever default-src says.
    ["default-src 'none'; script-src 'self' 'unsafe-eval'", false],
    ["default-src 'self' 'unsafe-eval'; script-src 'self'", true],
    // The first of two script-src directives counts.
    ["script-src 'self'; script-src 'unsafe-eval'", true],
    // No script directive at all: eval is allowed.
    ["img-src 'self'; object-src 'none'", false],
    ['', false],
    // Two policies: either may forbid.
    ["script-src 'unsafe-eval', script-src 'self'", true],
  ])('%j forbids eval: %s', (policy, forbids) => {
    expect(policyForbidsEval(policy)).toBe(forbids);
  });
});

describe('evalAllowed', () => {
  test('reads a <meta> policy without trying to compile anything', async () => {
    vi.resetModules();
    const compiled = vi.spyOn(globalThis, 'Function');
    const document = { querySelectorAll: () => [{ getAttribute: () => "default-src 'self'; script-src 'self'" }] };
    vi.stubGlobal('document', document);
    try {
      const { evalAllowed } = await import('../src/schema/eval-policy.js');
      expect(evalAllowed()).toBe(false);
      expect(compiled).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
      compiled.mockRestore();
    }
  });

  test('without a readable policy, one empty function is compiled to find out, once', async () => {
    vi.resetModules();
    const { evalAllowed } = await import('../src/schema/eval-policy.js');
    expect(evalAllowed()).toBe(true);
    expect(evalAllowed()).toBe(true);
  });
});

describe('a realm that forbids compiling code from strings', () => {
  /** Runs a child Node (code generation from strings allowed or not) that compiles schemas through the kit. */
  function child(disallow: boolean): { bad: { valid: boolean; issues: { path: string; keyword: string }[] }; good: { valid: boolean }; lenient: string; ajvLoaded: boolean } {
    const script = `
      import { createRequire } from 'node:module';
      const schema = await import('./src/schema/schema.ts');
      const validate = await schema.compileSchema({ type: 'object', properties: { title: { type: 'string', minLength: 3 } }, required: ['title'] });
      const bad = validate({ title: 'ab' });
      const good = validate({ title: 'Printer' });
      // ajv refuses a schema that breaks its meta-schema; cfworker compiles it.
      const lenient = await schema.compileSchema({ type: 'string', minLength: -1 }).then(() => 'compiled', (e) => e.message);
      // ajv is CommonJS: once loaded it is in the require cache.
      const ajvLoaded = Object.keys(createRequire(import.meta.url).cache).some((path) => /[\\/]node_modules[\\/]ajv[\\/]/.test(path));
      process.stdout.write(JSON.stringify({ bad, good, lenient, ajvLoaded }));
    `;
    const flags = disallow ? ['--disallow-code-generation-from-strings'] : [];
    return JSON.parse(execFileSync(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 }));
  }

  test('checks schemas with @cfworker/json-schema, and never loads ajv', () => {
    const { bad, good, lenient, ajvLoaded } = child(true);
    expect(bad.valid).toBe(false);
    expect(bad.issues.map((issue) => [issue.path, issue.keyword])).toEqual([['/title', 'minLength']]);
    expect(good).toEqual({ valid: true });
    expect(lenient).toBe('compiled');
    expect(ajvLoaded).toBe(false);
  });

  test('where compiling is allowed, ajv stays the default', () => {
    const { bad, good, lenient, ajvLoaded } = child(false);
    expect(bad.issues.map((issue) => [issue.path, issue.keyword])).toEqual([['/title', 'minLength']]);
    expect(good).toEqual({ valid: true });
    expect(lenient).toMatch(/The schema is invalid/);
    expect(ajvLoaded).toBe(true);
  });
});
