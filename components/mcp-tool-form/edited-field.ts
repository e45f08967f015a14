/**
 * Which one field an edit changed, found by comparing the draft before it with
 * the draft after it (drafts are immutable and share unchanged branches, so
 * only the edited path differs by identity). A keystroke after a refused
 * submit then checks that field alone (issue 30: no whole-form validation per
 * key; the whole form is checked on blur and on submit). Loaded with the
 * form's parts. DOM-free.
 *
 * @module
 */
import { build, child, itemField, looseValue, memberField, type Draft, type LocalIssue } from './draft.js';
import type { ValidationResult } from '../../src/index.js';
import type { Field } from './field-kinds.js';
import type { FormIssue } from './issues.js';
import type { FormModel } from './model.js';
import type { JsonValue } from '../internal/json.js';

/** The one control an edit changed: its place, its field, its draft, and its value as built. */
export interface EditedField {
  pointer: string;
  field: Field;
  /** The value it builds to (undefined: nothing, as when it was emptied). */
  value: JsonValue | undefined;
  /** Problems only the form sees in it (number text it cannot read…). */
  local: LocalIssue[];
}

const LEAVES = new Set(['string', 'number', 'boolean', 'enum', 'const', 'json']);

/**
 * The field whose control's value is all that differs between `before` and
 * `after`, walking down the one member or item that changed; undefined when
 * the edit is anything else (several places, an item added or removed, map
 * rows, a union's variant, a container's own state, a field emptied).
 */
export function editedField(model: FormModel, before: Draft | undefined, after: Draft | undefined): EditedField | undefined {
  let field: Field = model.rootFor(() => looseValue(after));
  let pointer = '';
  let required = true;
  for (let depth = 0; depth <= 64; depth++) {
    if (before === after) return undefined;
    if (field.kind === 'object' && before?.k === 'obj' && after?.k === 'obj') {
      if (before.rows !== after.rows || before.keep !== after.keep || before.d !== after.d) return undefined;
      const was = before.p;
      const now = after.p;
      const key = onlyChanged(Object.keys(was), Object.keys(now), (name) => (Object.hasOwn(was, name) ? was[name] : undefined) !== (Object.hasOwn(now, name) ? now[name] : undefined));
      const entry = key === undefined ? undefined : field.properties.find((candidate) => candidate.key === key);
      if (!entry) return undefined;
      before = Object.hasOwn(was, entry.key) ? was[entry.key] : undefined;
      after = Object.hasOwn(now, entry.key) ? now[entry.key] : undefined;
      field = memberField(model, field, entry.key, entry.schema, after);
      pointer = child(pointer, entry.key);
      required = entry.required;
      continue;
    }
    if (field.kind === 'array' && before?.k === 'arr' && after?.k === 'arr') {
      if (before.items.length !== after.items.length || before.keep !== after.keep || before.d !== after.d) return undefined;
      const { items: was } = before;
      const { items: now } = after;
      const index = onlyChanged([], now.map((_, i) => String(i)), (i) => was[Number(i)] !== now[Number(i)]);
      const item = index === undefined ? undefined : itemField(model, field, Number(index), now[Number(index)]);
      if (!item) return undefined;
      before = was[Number(index)];
      after = now[Number(index)];
      field = item;
      pointer = child(pointer, Number(index));
      required = true;
      continue;
    }
    if (!LEAVES.has(field.kind) || after === undefined || after.k === 'obj' || after.k === 'arr' || after.k === 'union') return undefined;
    const local: LocalIssue[] = [];
    const built = build(model, field, after, required, pointer, local);
    return built.value === undefined && local.length === 0 ? undefined : { pointer, field, value: built.value, local };
  }
  return undefined;
}

/**
 * The problems to show after an edit of one control, found by checking that
 * field alone against its own subschema: the problems `shown` elsewhere stay,
 * those at the field and below it are found again, worded by `wording`
 * (issues.ts `formIssues`). Undefined when the edit is not one control's
 * value ({@link editedField}) or its subschema cannot be checked alone: then
 * the whole form is checked.
 */
export function editedIssues(
  model: FormModel,
  before: Draft | undefined,
  after: Draft | undefined,
  shown: readonly FormIssue[],
  wording: (model: FormModel, outcome: ValidationResult | undefined, unions: [], local: FormIssue[]) => FormIssue[],
): FormIssue[] | undefined {
  const edited = editedField(model, before, after);
  if (!edited) return undefined;
  const { pointer, value } = edited;
  const validator = value === undefined ? undefined : model.validatorFor(edited.field.schema);
  if (value !== undefined && !validator) return undefined;
  const outcome = validator?.(value);
  const found: ValidationResult | undefined = outcome && !outcome.valid ? { valid: false, issues: outcome.issues.map((issue) => ({ ...issue, path: pointer + issue.path })) } : outcome;
  const elsewhere = shown.filter((issue) => issue.pointer !== pointer && !issue.pointer.startsWith(`${pointer}/`));
  return [...elsewhere, ...wording(model, found, [], edited.local)];
}

/** The one name among `a` and `b` for which `differs` holds, or undefined when none or several do. */
function onlyChanged(a: string[], b: string[], differs: (name: string) => boolean): string | undefined {
  let found: string | undefined;
  for (const name of new Set([...a, ...b])) {
    if (!differs(name)) continue;
    if (found !== undefined) return undefined;
    found = name;
  }
  return found;
}
