/**
 * What `<mcp-tool-form>` needs to render a form: the model of the input
 * schema (model.ts, with resolve.ts), the draft and the arguments built from
 * it (draft.ts), the field rendering (fields.ts, with the renderers of each
 * kind of field), which one field an edit changed (edited-field.ts), the
 * open preview's content (preview.ts), and when the
 * fields of a tool with a long choice can be set up (long-choices.ts, which
 * loads the combobox those need on demand, not with this). The element
 * loads this with `import()` when it first connects — while its connection
 * does the handshake and lists the tools — rather than with the page: a page
 * that imports the elements but shows no form never downloads it (issue 18).
 *
 * @module
 */
export { FormModel } from './model.js';
export { buildArguments, valueToDraft } from './draft.js';
export { editedIssues } from './edited-field.js';
export { MEMBERS_PER_PAGE } from './field-scope.js';
export { FieldRenderer, holdSize, recheckSize, releaseSize } from './fields.js';
export { previewContent } from './preview.js';
// Short names: the element, whose code every page loads, reads them.
export { comboboxLoading as loading, fieldsReady as ready } from './long-choices.js';
