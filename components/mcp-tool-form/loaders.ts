/**
 * What `<mcp-tool-form>` loads on demand, and how: the parts that render a
 * form (form-parts.ts), the wording of the validator's verdicts with the
 * validator, and the `x-mcp-header` checker (draft storage loads in
 * form-drafts.ts). Each is loaded once per page and kept here for every form;
 * a load that failed (offline) is tried again by the next form that asks (issue 18).
 *
 * @module
 */
import { ensureValidator } from '../../src/index.js';
import type { HeaderBindingsCheck } from '../../src/transport/header-bindings.js';

/**
 * What renders a form (form-parts.ts: the model, the draft, the fields), loaded
 * when the first form connects: in parallel with its connection's handshake and
 * tools/list, and never on a page that shows no form.
 */
export type FormParts = typeof import('./form-parts.js');
export let parts: FormParts | undefined;
export let partsLoading: Promise<FormParts> | undefined;
/** Forms that showed a failed load: told when a later load (another form's, or their own retry) succeeds. */
export const partsWanted = new Set<() => void>();
export const loadParts = () =>
  (partsLoading ??= (async () => import('./form-parts.js'))().then(
    (module) => {
      parts = module;
      for (const arrived of partsWanted) arrived();
      partsWanted.clear();
      return module;
    },
    (error: unknown) => {
      // A chunk that cannot load (offline): the next form to connect tries again.
      partsLoading = undefined;
      throw error;
    },
  ));

/**
 * Turning the validator's verdict into the problems shown (issues.ts), loaded
 * with the validator: before the validator there is no verdict to turn, and
 * the form's own problems are shown as they are.
 */
export let issueWording: typeof import('./issues.js') | undefined;
/** The validator for `schema` and the wording of its verdicts, both loaded. */
export const loadChecks = async (schema: unknown) => Promise.all([ensureValidator(schema), import('./issues.js').then((module) => void (issueWording = module))]);

/** The `x-mcp-header` checker, loaded with the first schema that mentions the annotation. */
export let headerChecker: ((schema: unknown) => HeaderBindingsCheck) | undefined;
let headerCheckerLoading: Promise<void> | undefined;
export const loadHeaderChecker = () =>
  (headerCheckerLoading ??= import('../../src/transport/header-bindings.js').then(
    (module) => {
      headerChecker = (schema) => module.checkHeaderBindings(schema);
    },
    () => {
      // A chunk that cannot load (offline): the preview lists no headers, and no render asks again.
      headerChecker = () => ({ ok: false, reason: 'the x-mcp-header check could not be loaded' });
    },
  ));
