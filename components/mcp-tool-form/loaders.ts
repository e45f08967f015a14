/**
 * What `<mcp-tool-form>` loads on demand, and how: the parts that render a
 * form (form-parts.ts), the wording of the validator's verdicts with the
 * validator, the `x-mcp-header` checker (with the bindings it finds, per
 * schema), and the suggestions of URI fields (draft storage loads in form-drafts.ts). Each is loaded once per page and kept here for every form;
 * a load that failed (offline) is tried again by the next form that asks (issue 18).
 *
 * @module
 */
import { ensureValidator, type McpClient } from '../../src/index.js';
import type { HeaderBindingsCheck } from '../../src/transport/header-bindings.js';
import { mentionsHeaderBindings } from '../../src/transport/headers.js';

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
let headerChecker: ((schema: unknown) => HeaderBindingsCheck) | undefined;
let headerCheckerLoading: Promise<void> | undefined;
const loadHeaderChecker = () =>
  (headerCheckerLoading ??= import('../../src/transport/header-bindings.js').then(
    (module) => {
      headerChecker = (schema) => module.checkHeaderBindings(schema);
    },
    () => {
      // A chunk that cannot load (offline): the preview lists no headers, and no render asks again.
      headerChecker = () => ({ ok: false, reason: 'the x-mcp-header check could not be loaded' });
    },
  ));

/** The header bindings of each schema checked: once per schema, not on each keystroke. */
const bindingsOf = new WeakMap<object, HeaderBindingsCheck>();

/**
 * The `x-mcp-header` bindings of `schema` (a tool's `inputSchema`) for the
 * preview. The checker loads only for a schema that mentions the annotation
 * (as in the client); until it has, undefined (the preview shows no headers for
 * that render), and `loaded` is called when it has.
 */
export function headerBindings(schema: object, loaded: () => void): HeaderBindingsCheck | undefined {
  let check = bindingsOf.get(schema);
  if (check) return check;
  if (!mentionsHeaderBindings(schema)) check = { ok: true, bindings: [] };
  else if (!headerChecker) {
    void loadHeaderChecker().then(loaded);
    return undefined;
  } else check = headerChecker(schema);
  bindingsOf.set(schema, check);
  return check;
}

type Completions = typeof import('./completions.js');

/** Suggestions for URI fields, per client (completions.ts is loaded on demand). */
export interface CompletionSupport {
  client: McpClient;
  support: import('./completions.js').ToolCompletions | undefined;
}

/**
 * Loads the suggestions of `form`'s URI fields from `client` (the server
 * declares `completions`); once the chunk is there they are made for `form`,
 * unless it no longer `wants` them (another client came meanwhile), and
 * `arrived` is called. Offline (the chunk cannot load) the fields stay plain
 * inputs, as for a server without completions; another client tries again.
 */
export function loadCompletions(
  form: Parameters<Completions['createToolCompletions']>[0],
  client: McpClient,
  wants: (entry: CompletionSupport) => boolean,
  arrived: () => void,
): CompletionSupport {
  const entry: CompletionSupport = { client, support: undefined };
  import('./completions.js').then(
    (module) => {
      if (!wants(entry)) return;
      entry.support = module.createToolCompletions(form, client);
      arrived();
    },
    () => undefined,
  );
  return entry;
}
