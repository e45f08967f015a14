/**
 * The chat formats' columns of the corpus report (`npm run corpus`): each
 * tool's `inputSchema` converted for OpenAI strict mode, Anthropic's
 * `input_schema` and the AI SDK (src/adapters/schema-convert.ts): whether it
 * converts without loss, and which keywords were moved into descriptions.
 *
 * For OpenAI strict mode the conversion is also run both ways on the tool's
 * sample arguments (the ones the form engine built and the validator
 * accepted): written the way a strict-mode model must write them (`null` for
 * every optional property left out), they must be accepted by the converted
 * schema, and `restoreArguments` must give the sample back exactly. A tool
 * that converts without loss and fails either is a failure of the run.
 */
import { isDeepStrictEqual } from 'node:util';
import { restoreArguments, toAiSdkSchema, toAnthropicSchema, toStrictSchema } from '../src/adapters/schema-convert.js';
import { compileSchemaSync } from '../src/index.js';
import { isRecord } from '../components/internal/json.js';

export interface FormatsReport {
  strict: { lossless: boolean; moved: string[]; roundTrips: { accepted: boolean; restored: boolean; problem?: string }[] };
  anthropic: { lossless: boolean; moved: string[] };
  aiSdk: { lossless: boolean; moved: string[] };
}

type Node = Record<string, unknown>;

function resolveRef(node: unknown, root: Node): unknown {
  let current = node;
  for (let hops = 0; isRecord(current) && typeof current.$ref === 'string' && current.$ref.startsWith('#/') && hops < 16; hops++) {
    let target: unknown = root;
    for (const part of (current.$ref as string).slice(2).split('/')) target = isRecord(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    current = target;
  }
  return current;
}

/** `value` as a strict-mode model writes it against the converted schema: `null` for every property it leaves out. */
function strictForm(value: unknown, schema: unknown, root: Node, depth = 0): unknown {
  const node = resolveRef(schema, root);
  if (!isRecord(node) || depth > 64) return value;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (Array.isArray(node.anyOf)) {
    const want = Array.isArray(value) ? 'array' : isRecord(value) ? 'object' : undefined;
    const branch = want && node.anyOf.map((sub) => resolveRef(sub, root)).find((sub) => isRecord(sub) && (Array.isArray(sub.type) ? sub.type : [sub.type]).includes(want));
    return branch ? strictForm(value, branch, root, depth + 1) : value;
  }
  if (Array.isArray(value)) return types.includes('array') && node.items !== undefined ? value.map((item) => strictForm(item, node.items, root, depth + 1)) : value;
  if (isRecord(value) && types.includes('object') && isRecord(node.properties)) {
    const out: Node = { ...value };
    for (const [key, sub] of Object.entries(node.properties)) out[key] = key in value ? strictForm(value[key], sub, root, depth + 1) : null;
    return out;
  }
  return value;
}

/** The three conversions of one tool, and the strict round trips of its `samples`. */
export function formatsReport(inputSchema: unknown, samples: Record<string, unknown>[]): FormatsReport {
  const schema = isRecord(inputSchema) ? inputSchema : {};
  const strict = toStrictSchema(schema);
  const roundTrips = samples.map((sample) => {
    const written = strictForm(sample, strict.schema, strict.schema);
    try {
      const check = compileSchemaSync(strict.schema)(written);
      const restored = restoreArguments(written, schema);
      const same = isDeepStrictEqual(restored, sample);
      return { accepted: check.valid, restored: same, ...(check.valid ? {} : { problem: check.issues.map((issue) => `${issue.path} ${issue.message}`).slice(0, 3).join('; ') }) };
    } catch (error) {
      return { accepted: false, restored: false, problem: (error as Error).message };
    }
  });
  const anthropic = toAnthropicSchema(schema);
  const aiSdk = toAiSdkSchema(schema);
  return {
    strict: { lossless: strict.lossless, moved: strict.moved, roundTrips },
    anthropic: { lossless: anthropic.lossless, moved: anthropic.moved },
    aiSdk: { lossless: aiSdk.lossless, moved: aiSdk.moved },
  };
}

/** Whether the run failed on formats: a tool that converts to strict mode without loss whose sample does not make the round trip. */
export const formatsFailed = (report: FormatsReport | undefined): boolean => !!report && report.strict.lossless && report.strict.roundTrips.some((trip) => !trip.accepted || !trip.restored);

/** The report's lines for the formats. */
export function printFormats(reports: { server: string; tool: string; formats?: FormatsReport }[], verbose: boolean): string[] {
  const done = reports.filter((r): r is typeof r & { formats: FormatsReport } => r.formats !== undefined);
  const lines = ['', `Chat formats (${done.length} tools): converted without loss, and keywords moved into descriptions (tools)`];
  for (const [label, key] of [['OpenAI strict mode', 'strict'], ['Anthropic input_schema', 'anthropic'], ['AI SDK jsonSchema', 'aiSdk']] as const) {
    const moved = new Map<string, number>();
    for (const r of done) for (const keyword of r.formats[key].moved) moved.set(keyword, (moved.get(keyword) ?? 0) + 1);
    const list = [...moved].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([keyword, count]) => `${keyword} ${count}`);
    lines.push(`  ${label}: ${done.filter((r) => r.formats[key].lossless).length}/${done.length} without loss${list.length ? `; moved: ${list.join(', ')}` : ''}`);
  }
  const trips = done.flatMap((r) => r.formats.strict.roundTrips.map((trip) => ({ r, trip })));
  const lossless = trips.filter(({ r }) => r.formats.strict.lossless);
  lines.push(
    `  OpenAI strict round trip of the sample arguments (nulls for what is left out, then restored): accepted by the converted schema ${trips.filter(({ trip }) => trip.accepted).length}/${trips.length}, restored exactly ${trips.filter(({ trip }) => trip.restored).length}/${trips.length}; of tools without loss ${lossless.filter(({ trip }) => trip.accepted && trip.restored).length}/${lossless.length} both`,
  );
  for (const { r, trip } of trips) {
    const mustPass = r.formats.strict.lossless;
    if ((mustPass || verbose) && (!trip.accepted || !trip.restored)) lines.push(`  ${mustPass ? '✗' : '-'} ${r.server}/${r.tool}: ${trip.accepted ? '' : `not accepted (${trip.problem}) `}${trip.restored ? '' : 'not restored'}`);
  }
  return lines;
}
