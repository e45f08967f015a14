/**
 * The content-equivalent native baseline of the form sections (issue 30): what
 * a web developer would write by hand with plain DOM for the same tool — a
 * `<form>` with the tool's title (and its name when the title differs) as a
 * heading, its description, per top-level property a label with a required
 * marker, the matching native control (a `<select>` with the enum's options, a
 * checkbox, a number input, a text input, a `<textarea>` for JSON of an object
 * or array), the property's description tied to it with `aria-describedby`,
 * and a submit button. No stylesheet: the user agent's styles, as a page that
 * writes none gets. The old baseline (as many bare labelled inputs as the form
 * rendered controls) stays beside it, so both ratios are reported.
 */

/** A tool as the bench renders it: the corpus tool's real title and description go to both sides. */
export interface BenchTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The type a hand-written form would pick a control by: the first non-null `type`. */
function typeOf(schema: Record<string, unknown>): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return undefined;
}

/** The control for one property: select for an enum, checkbox, number, textarea for JSON, else text. */
function control(schema: Record<string, unknown>, id: string, required: boolean): HTMLElement {
  const type = typeOf(schema);
  let element: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  if (Array.isArray(schema.enum)) {
    const select = document.createElement('select');
    if (!required) select.append(new Option('', ''));
    for (const value of schema.enum) select.append(new Option(String(value), JSON.stringify(value)));
    element = select;
  } else if (type === 'boolean') {
    element = document.createElement('input');
    element.type = 'checkbox';
  } else if (type === 'integer' || type === 'number') {
    element = document.createElement('input');
    element.type = 'number';
    if (type === 'integer') element.step = '1';
  } else if (type === 'object' || type === 'array') {
    element = document.createElement('textarea');
    element.rows = 3;
  } else {
    element = document.createElement('input');
    element.type = 'text';
  }
  element.id = id;
  element.name = id;
  element.required = required && type !== 'boolean';
  return element;
}

/** Builds the hand-written form for `tool` into `form`. */
export function appendHandwritten(form: HTMLFormElement, tool: BenchTool): void {
  const heading = document.createElement('h2');
  heading.textContent = tool.title ?? tool.name;
  form.append(heading);
  if (tool.title !== undefined && tool.title !== tool.name) {
    const name = document.createElement('code');
    name.textContent = tool.name;
    form.append(name);
  }
  if (tool.description) {
    const description = document.createElement('p');
    description.textContent = tool.description;
    form.append(description);
  }
  const schema = tool.inputSchema;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  let i = 0;
  for (const [key, value] of Object.entries(properties)) {
    const property = isRecord(value) ? value : {};
    const id = `p${i++}`;
    const row = document.createElement('div');
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = typeof property.title === 'string' ? property.title : key;
    if (required.has(key)) {
      const mark = document.createElement('span');
      mark.textContent = ' *';
      mark.title = 'required';
      label.append(mark);
    }
    const input = control(property, id, required.has(key));
    row.append(label, input);
    if (typeof property.description === 'string' && property.description) {
      const help = document.createElement('p');
      help.id = `${id}-d`;
      help.textContent = property.description;
      input.setAttribute('aria-describedby', help.id);
      row.append(help);
    }
    form.append(row);
  }
  const submit = document.createElement('button');
  submit.type = 'submit';
  submit.textContent = 'Call tool';
  form.append(submit);
}

/** Time to render a native form that `fill` builds, in a shadow root, ms (append → layout): both native baselines. */
export function timeNativeForm(fill: (form: HTMLFormElement) => void): number {
  const start = performance.now();
  const host = document.createElement('div');
  const root = host.attachShadow({ mode: 'open' });
  const form = document.createElement('form');
  fill(form);
  root.append(form);
  document.body.append(host);
  void host.offsetHeight;
  const ms = performance.now() - start;
  host.remove();
  return ms;
}

/** Time to render the hand-written form for `tool` in a shadow root, ms (append → layout). */
export const timeHandwritten = (tool: BenchTool): number => timeNativeForm((form) => appendHandwritten(form, tool));
