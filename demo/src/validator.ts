/**
 * `?validator=cfworker` checks schemas with `@cfworker/json-schema` instead of
 * ajv (no `eval`, a smaller download; docs/validation.md).
 */
import { cfworkerCompiler } from '../../src/cfworker.js';
import { useSchemaCompiler } from '../../src/index.js';

/** Call before any element checks a schema: at the top of the page's script. */
export function chooseValidatorFromQuery(): void {
  if (new URLSearchParams(location.search).get('validator') === 'cfworker') useSchemaCompiler(cfworkerCompiler);
}
