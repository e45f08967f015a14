/**
 * `mcp-web-elements/cfworker`: the {@link SchemaCompiler} built on
 * `@cfworker/json-schema`, for `useSchemaCompiler` (see `schema/cfworker.ts`).
 *
 * @module
 */
export * from './schema/cfworker.js';
