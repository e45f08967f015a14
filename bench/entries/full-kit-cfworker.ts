/**
 * The full kit (see full-kit.ts) with `@cfworker/json-schema` plugged in
 * instead of ajv (`useSchemaCompiler(cfworkerCompiler)`, docs/validation.md).
 * Built and measured only: the bench page defines the elements once, from
 * full-kit.ts.
 */
import { useSchemaCompiler } from '../../src/index.js';
import { cfworkerCompiler } from '../../src/cfworker.js';
import '../../components/index.js';

useSchemaCompiler(cfworkerCompiler);

export { McpClient } from '../../src/index.js';
