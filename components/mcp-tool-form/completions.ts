/**
 * Suggestions for `<mcp-tool-form>`'s string fields, loaded only when the
 * server declares `completions`.
 *
 * The protocol completes the arguments of prompts and resource templates only
 * (server/utilities/completion "Reference Types": `ref/prompt`, `ref/resource`);
 * it has no reference to a tool's arguments. What a server can complete for a
 * tool is therefore the resource URIs its string fields take (`format` `uri`,
 * `uri-reference`, `iri`, `iri-reference`): the URIs of listed resources, the
 * fixed start of each resource template, and — once the typed text follows a
 * template — the template variable being typed, through `completion/complete`
 * with `ref/resource` (the earlier variables sent as context).
 *
 * @module
 */
import type { ReactiveControllerHost, TemplateResult } from 'lit';
import { nothing } from 'lit';
import type { McpClient, ResourceTemplate } from '../../src/index.js';
import { CompletionController, completionStyles, serverCompletions, type ComboboxField, type CompletionSource, type Suggestions } from '../internal/completion.js';
import { matchPartial, templatePrefix } from '../internal/uri-template.js';
import type { FieldCompletion } from './field-scope.js';
import type { StringField } from './model.js';

const URI_FORMATS = new Set(['uri', 'uri-reference', 'iri', 'iri-reference']);

/** The completion support of one form: a combobox controller and the URI suggestions of its client. */
export interface ToolCompletions {
  field(field: StringField, id: string, pick: (value: string) => void): FieldCompletion | undefined;
}

/** How many suggestions are shown (the spec's cap per response). */
const MAX = 100;

/**
 * How many templates the typed text follows are asked (`completion/complete`)
 * per value: a server listing thousands of templates that match any text
 * (`{x}`) would otherwise get one request per template at every pause in typing.
 */
const MAX_TEMPLATES_ASKED = 5;

/**
 * Sets up completions for a form (its shadow root gets the combobox styles).
 * @param host - the form.
 * @param client - the client whose server is asked.
 */
export function createToolCompletions(host: ReactiveControllerHost & { renderRoot: HTMLElement | DocumentFragment }, client: McpClient): ToolCompletions {
  const controller = new CompletionController(host);
  const root = host.renderRoot as ShadowRoot;
  const sheet = completionStyles.styleSheet;
  if (sheet && root.adoptedStyleSheets && !root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];

  const perTemplate = new Map<string, CompletionSource>();
  const contexts = new Map<string, Record<string, string>>();
  const templateSource = (template: ResourceTemplate, variable: string, context: Record<string, string>): CompletionSource => {
    const key = JSON.stringify([template.uriTemplate, variable]);
    contexts.set(key, context);
    let source = perTemplate.get(key);
    if (!source) {
      source = serverCompletions(client, { type: 'ref/resource', uri: template.uriTemplate }, variable, () => contexts.get(key) ?? {});
      perTemplate.set(key, source);
    }
    return source;
  };

  const uriSource: CompletionSource = async (value, signal) => {
    const [resources, templates] = await Promise.all([
      client.listResources({ signal }).catch(() => []),
      client.listResourceTemplates({ signal }).catch(() => []),
    ]);
    const out = new Set<string>();
    let hasMore = false;
    let asked = 0;
    for (const template of templates) {
      if (typeof template?.uriTemplate !== 'string') continue;
      const prefix = templatePrefix(template.uriTemplate);
      // The fixed start of a template the text is still typing.
      if (prefix && prefix.startsWith(value) && prefix !== value) out.add(prefix);
      const at = matchPartial(template.uriTemplate, value);
      if (!at) continue;
      if (asked++ >= MAX_TEMPLATES_ASKED) {
        hasMore = true;
        continue;
      }
      let suggestions: Suggestions;
      try {
        suggestions = await templateSource(template, at.current, at.values)(at.typed, signal);
      } catch {
        continue;
      }
      const head = value.slice(0, value.length - at.typed.length);
      for (const completed of suggestions.values) out.add(head + completed);
      hasMore ||= suggestions.hasMore === true;
    }
    for (const resource of resources) {
      if (typeof resource?.uri === 'string' && resource.uri.startsWith(value) && resource.uri !== value) out.add(resource.uri);
    }
    return { values: [...out].slice(0, MAX), ...(hasMore || out.size > MAX ? { hasMore: true } : {}) };
  };

  return {
    field(field, id, pick) {
      if (!field.format || !URI_FORMATS.has(field.format) || field.readOnly) return undefined;
      const combo: ComboboxField = { id, source: uriSource, pick };
      return {
        aria: controller.aria(combo),
        input: (value: string) => controller.input(combo, value),
        keydown: (event: KeyboardEvent) => void controller.keydown(combo, event),
        close: () => controller.close(id),
        listbox: (): TemplateResult | typeof nothing => controller.listbox(combo, `Suggestions for ${field.label}`),
      };
    },
  };
}
