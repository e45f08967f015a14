/**
 * From validator output to the problems `<mcp-tool-form>` shows: messages for
 * people, and inside unions the chosen variant's own problems instead of every
 * alternative's. DOM-free; unit-tested in Node.
 *
 * The validator on the whole `inputSchema` has the last word (spec:
 * server/tools "Tool" `inputSchema`, basic/index "JSON Schema Usage"): this
 * module only re-words and re-places its verdict. When the schema rejects the
 * arguments, at least one problem is always returned, so the form never sends
 * arguments its schema rejects.
 *
 * @module
 */
import type { ValidationIssue, ValidationResult } from '../../src/index.js';
import type { UnionChoice } from './draft.js';
import type { FormModel } from './model.js';

/** One problem shown in the form: where, and what to do. */
export interface FormIssue {
  /** JSON Pointer of the argument (`""` for the arguments object). */
  pointer: string;
  message: string;
}

/**
 * Keywords that only say "an alternative failed" (or a conditional's branch
 * failed): noise when a precise issue explains the same place. `not` is not
 * one of them: it fails when its subschema *passes*, so nothing else explains it.
 */
const UMBRELLA = new Set(['anyOf', 'oneOf', 'if', 'then', 'else', 'allOf', 'false']);

/** The keywords of a union's alternatives. */
const ALTERNATIVES = new Set(['anyOf', 'oneOf']);

/** A validator message for people. */
export function humanize(issue: ValidationIssue): string {
  const p = issue.params as Record<string, unknown>;
  switch (issue.keyword) {
    case 'required':
      return 'Required.';
    case 'minLength':
      return `Enter at least ${p.limit} character${p.limit === 1 ? '' : 's'}.`;
    case 'maxLength':
      return `Enter at most ${p.limit} characters.`;
    case 'minimum':
      return `Must be at least ${p.limit}.`;
    case 'maximum':
      return `Must be at most ${p.limit}.`;
    case 'exclusiveMinimum':
      return `Must be greater than ${p.limit}.`;
    case 'exclusiveMaximum':
      return `Must be less than ${p.limit}.`;
    case 'multipleOf':
      return `Must be a multiple of ${p.multipleOf}.`;
    case 'format':
      return `Enter a valid ${String(p.format)}.`;
    case 'pattern':
      return `Must match the pattern ${String(p.pattern)}.`;
    case 'type':
      return p.type === 'integer' ? 'Must be a whole number.' : `Must be ${String(p.type).replace(/,/g, ' or ')}.`;
    case 'enum':
      return 'Choose one of the options.';
    case 'const':
      return `Must be ${JSON.stringify(p.allowedValue)}.`;
    case 'minItems':
      return `Add at least ${p.limit} item${p.limit === 1 ? '' : 's'}.`;
    case 'maxItems':
      return `At most ${p.limit} item${p.limit === 1 ? '' : 's'}.`;
    case 'uniqueItems':
      return `Items ${Number(p.j) + 1} and ${Number(p.i) + 1} are the same; items must be unique.`;
    case 'additionalProperties':
      return `"${String(p.additionalProperty)}" is not allowed here.`;
    case 'minProperties':
      return `Fill in at least ${p.limit} member${p.limit === 1 ? '' : 's'}.`;
    case 'dependentRequired':
    case 'dependencies':
      return `"${String(p.missingProperty)}" is required when "${String(p.property)}" is given.`;
    case 'not':
      return 'This value is not allowed.';
    case 'oneOf':
      // ajv names the passing alternatives when several pass and gives null when none does.
      if (p.passingSchemas === null) return 'This value fits none of the options.';
      if (Array.isArray(p.passingSchemas)) return 'This value fits more than one of the options; it must fit exactly one.';
      return 'This value must fit exactly one of the options.';
    case 'anyOf':
      return 'This value fits none of the options.';
    case 'false':
    case 'false schema':
      return 'No value is allowed here.';
    default: {
      const message = issue.message || 'is invalid';
      return `${message.charAt(0).toUpperCase()}${message.slice(1)}${message.endsWith('.') ? '' : '.'}`;
    }
  }
}

/** Removes "one of the alternatives failed" issues where a precise one explains the same place. */
function dropNoise(issues: FormIssue[], raw: Map<FormIssue, ValidationIssue>): FormIssue[] {
  return issues.filter((issue) => {
    const source = raw.get(issue);
    if (!source) return true;
    const nearby = issues.filter((other) => other !== issue && (other.pointer === issue.pointer || other.pointer.startsWith(`${issue.pointer}/`)));
    const precise = nearby.filter((other) => {
      const s = raw.get(other);
      return !s || (!UMBRELLA.has(s.keyword) && !(s.keyword === 'type' && s.params.type === 'null'));
    });
    if (UMBRELLA.has(source.keyword)) return precise.length === 0;
    // "must be null" from the null branch of a nullable field says nothing useful when another issue is there.
    if (source.keyword === 'type' && source.params.type === 'null') return precise.length === 0;
    return true;
  });
}

function below(pointer: string, at: string): boolean {
  return pointer === at || pointer.startsWith(`${at}/`);
}

/** Identity of an issue for counting: the same failure reported twice is two failures. */
function issueKey(pointer: string, issue: ValidationIssue): string {
  let params: string;
  try {
    params = JSON.stringify(issue.params);
  } catch {
    params = '';
  }
  return `${pointer}\u0000${issue.keyword}\u0000${params}`;
}

interface Checked {
  part: unknown;
  issues: ValidationIssue[];
}

/**
 * Inside a union, the validator on the whole schema reports, next to the
 * union's own keyword ("must match exactly one schema"), why *every*
 * alternative failed, mixed with the union's other constraints (members
 * beside a root-level `oneOf`, a sibling `not`…). For each union, outermost
 * first, this takes out the other alternatives' problems (each alternative is
 * checked on its own, and exactly its problems are taken out, once each) and
 * keeps everything else: the chosen variant's problems and the union's own
 * constraints — all of them, in one pass. When the chosen variant fits and the
 * union still fails, the union-level problem is said at the union: a `oneOf`
 * value that fits several variants.
 */
function refineUnions(model: FormModel, unions: UnionChoice[], issues: FormIssue[], raw: Map<FormIssue, ValidationIssue>): FormIssue[] {
  const ordered = [...unions].sort((a, b) => a.pointer.length - b.pointer.length);
  for (const union of ordered) {
    if (union.value === undefined) continue;
    const at = union.pointer;
    // The alternatives' problems are only reported when the union's keyword failed here.
    const umbrellas = issues.filter((issue) => issue.pointer === at && ALTERNATIVES.has(raw.get(issue)?.keyword ?? ''));
    if (umbrellas.length === 0) continue;
    const checked = new Map<unknown, Checked>();
    let unchecked = false;
    const check = (part: unknown): Checked | undefined => {
      if (checked.has(part)) return checked.get(part);
      const validate = model.validatorFor(part);
      if (!validate) {
        unchecked = true;
        return undefined;
      }
      const outcome = validate(union.value);
      const result: Checked = { part, issues: outcome.valid ? [] : outcome.issues };
      checked.set(part, result);
      return result;
    };
    const variants = union.field.variants.map((variant) => (variant.node === undefined ? undefined : model.variantParts(variant).map(check)));
    // A variant the form cannot check on its own: leave this union's problems as the validator gave them.
    if (unchecked || variants.some((parts) => parts === undefined)) continue;
    const chosen = new Set((variants[union.choice] ?? []).map((entry) => entry!.part));
    const chosenIssues = (variants[union.choice] ?? []).flatMap((entry) => entry!.issues);
    const otherIssues = [...checked.values()].filter((entry) => !chosen.has(entry.part)).flatMap((entry) => entry.issues);

    // Take out each alternative's problems once (the chosen one's are put back below).
    const remove = new Map<string, number>();
    for (const issue of [...otherIssues, ...chosenIssues]) {
      const key = issueKey(`${at}${issue.path}`, issue);
      remove.set(key, (remove.get(key) ?? 0) + 1);
    }
    let rest = issues.filter((issue) => {
      const source = raw.get(issue);
      if (!source || !below(issue.pointer, at)) return true;
      const key = issueKey(issue.pointer, source);
      const count = remove.get(key) ?? 0;
      if (count === 0) return true;
      remove.set(key, count - 1);
      return false;
    });
    const chosenFits = chosenIssues.length === 0;
    const ownUmbrellas = rest.filter((issue) => umbrellas.includes(issue));
    rest = rest.filter((issue) => !ownUmbrellas.includes(issue));
    const precise = chosenIssues.map((issue) => {
      const formIssue = { pointer: `${at}${issue.path}`, message: humanize(issue) };
      raw.set(formIssue, issue);
      return formIssue;
    });
    if (chosenFits && ownUmbrellas.length > 0) {
      // The chosen variant fits, yet the union fails: a oneOf value that fits several variants.
      const fitting = union.field.variants.filter((_, i) => variants[i]!.every((entry) => entry!.issues.length === 0)).map((variant) => variant.label);
      const several = ownUmbrellas.some((issue) => raw.get(issue)?.keyword === 'oneOf') && fitting.length > 1;
      // Not in `raw`: a conclusion of its own, never dropped as noise.
      precise.push({
        pointer: at,
        message: several
          ? `This value fits more than one of the options (${fitting.join(', ')}); it must fit exactly one. Change it so that only one of them fits.`
          : humanize(raw.get(ownUmbrellas[0]!)!),
      });
    }
    issues = [...rest, ...precise];
  }
  return issues;
}

/**
 * The problems to show for the built arguments.
 *
 * @param outcome - the whole `inputSchema`'s verdict on `args`, or undefined
 *   when there is no validator (the schema cannot be compiled).
 * @param unions - the unions met while building, with the variant in use.
 * @param local - problems only the form can see (unreadable number text…).
 * @returns one problem per place and message; never empty when `outcome` is invalid.
 */
export function formIssues(model: FormModel, outcome: ValidationResult | undefined, unions: UnionChoice[], local: FormIssue[]): FormIssue[] {
  const raw = new Map<FormIssue, ValidationIssue>();
  let issues: FormIssue[] = local.map((issue) => ({ ...issue }));
  if (outcome && !outcome.valid) {
    const found = outcome.issues.map((issue) => {
      const formIssue = { pointer: issue.path, message: humanize(issue) };
      raw.set(formIssue, issue);
      return formIssue;
    });
    // Where the form already says what is wrong with the input (number text it cannot read, an
    // item left empty…), the validator only saw a stand-in: nothing there, or null in a list.
    const explained = new Set(local.map((issue) => issue.pointer));
    const stand = (issue: FormIssue) => explained.has(issue.pointer) && ['required', 'type'].includes(raw.get(issue)!.keyword);
    issues.push(...refineUnions(model, unions, found, raw).filter((issue) => !raw.has(issue) || !stand(issue)));
  }
  issues = dropNoise(issues, raw);
  if (outcome && !outcome.valid && issues.length === 0) {
    // Nothing left to explain a rejection: say what the validator said rather than send.
    issues = outcome.issues.map((issue) => ({ pointer: issue.path, message: humanize(issue) }));
    if (issues.length === 0) issues = [{ pointer: '', message: 'The arguments do not match the tool\'s input schema.' }];
  }
  // One message per place.
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.pointer}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
