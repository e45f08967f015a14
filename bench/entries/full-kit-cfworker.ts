/**
 * The full kit with `@cfworker/json-schema` plugged in instead of ajv
 * (`useSchemaCompiler(cfworkerCompiler)`, README "Schema validation"). Built and
 * measured only: the bench page defines the elements once, from full-kit.ts.
 */
import { useSchemaCompiler } from '../../src/index.js';
import { cfworkerCompiler } from '../../src/cfworker.js';

useSchemaCompiler(cfworkerCompiler);

export * from './full-kit.js';
