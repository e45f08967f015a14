/**
 * Whether code may be compiled from strings here: ajv compiles each schema
 * into a function (`new Function`), which a Content-Security-Policy without
 * `'unsafe-eval'` in `script-src` (or `default-src`) forbids, and so does
 * Node's `--disallow-code-generation-from-strings`. When it is forbidden the
 * kit validates with `@cfworker/json-schema`, which interprets schemas, rather
 * than send values nobody checked.
 *
 * Detecting it quietly: a policy in a `<meta http-equiv="Content-Security-Policy">`
 * is read from the document, which breaks nothing. A policy sent as an HTTP
 * header cannot be read by scripts, so the kit then compiles one empty function,
 * once per page: where that is refused the browser reports one violation (a
 * console message, a `securitypolicyviolation` event, a report to the page's
 * `report-to`) instead of ajv's one per schema. A page that wants none calls
 * `useSchemaCompiler` first, and nothing is tried.
 *
 * No DOM types: the core runs in pages, workers and Node. Loaded lazily, with
 * the first schema to check.
 *
 * @module
 */
import { notLoaded, type ValidatorImplementation } from './schema-base.js';

/** One `<meta>` element, as far as this module reads it. */
interface MetaLike {
  getAttribute(name: string): string | null;
}

let verdict: boolean | undefined;

/**
 * Whether one serialized policy forbids string compilation: it does when its
 * `script-src` (or, without one, its `default-src`) lacks `'unsafe-eval'`
 * (CSP3 "script-src"; `'wasm-unsafe-eval'` does not allow `new Function`).
 * Several policies separated by commas each apply.
 */
export function policyForbidsEval(policy: string): boolean {
  return policy.split(',').some((one) => {
    const directives = new Map<string, string[]>();
    for (const directive of one.split(';')) {
      const [name, ...values] = directive.trim().toLowerCase().split(/\s+/);
      // The first occurrence of a directive wins; later duplicates are ignored (CSP3 "parse a serialized CSP").
      if (name && !directives.has(name)) directives.set(name, values);
    }
    const sources = directives.get('script-src') ?? directives.get('default-src');
    return sources !== undefined && !sources.includes("'unsafe-eval'");
  });
}

/**
 * Whether this realm may compile code from strings (checked once; later calls
 * answer from memory). See the module comment for how, and what it costs.
 */
export function evalAllowed(): boolean {
  if (verdict !== undefined) return verdict;
  const metas = (globalThis as { document?: { querySelectorAll(selector: string): ArrayLike<MetaLike> } }).document?.querySelectorAll('meta[http-equiv="content-security-policy" i]');
  for (const meta of Array.from(metas ?? [])) {
    if (policyForbidsEval(meta.getAttribute('content') ?? '')) return (verdict = false);
  }
  try {
    // An empty body: nothing runs; only whether compiling is allowed is learnt.
    new Function('');
    verdict = true;
  } catch {
    verdict = false;
  }
  return verdict;
}

/**
 * The validator used when the page chose none: ajv where code may be compiled
 * from strings, else `@cfworker/json-schema` (ajv is then never downloaded).
 * If ajv's compile is refused after all (a policy the first check could not
 * see, such as a `<meta>` policy added later), the default is chosen again
 * (`choose(undefined)`, where `choose` is the loader's `useSchemaCompiler`,
 * passed in so that this module does not import the loader that imports it:
 * the page chose nothing, or this ajv would not be in use) and that one
 * compile fails with `data.loaded === false`, as
 * `compileSchemaSync` does before a validator is loaded: the elements then
 * await `ensureValidator()`, which loads the fallback, and compile again; a
 * `compileSchema` caller gets the error once (the client reports that output
 * check as skipped, with the reason).
 */
export async function defaultValidator(choose: (compiler: undefined) => void): Promise<ValidatorImplementation> {
  // Two separate import() calls: in one expression, Vite preloads both chunks whichever runs. Each the module,
  // not its names destructured: Vite wraps a destructuring import() in code that picks the names.
  if (!evalAllowed()) {
    const guard = await import('./schema-guard.js');
    return guard.pluggedIn(await import('./cfworker.js').then((module) => module.cfworkerCompiler));
  }
  const ajv = await import('./schema-ajv.js');
  return {
    ...ajv,
    compile(schema, limits) {
      try {
        return ajv.compile(schema, limits);
      } catch (error) {
        const cause = (error as Error).cause;
        if (!(cause instanceof Error) || cause.name !== 'EvalError') throw error;
        verdict = false;
        choose(undefined);
        throw notLoaded('The schema validator is being replaced (this page does not allow eval); await ensureValidator() first', { cause: error });
      }
    },
  };
}
