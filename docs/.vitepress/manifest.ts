/**
 * The API tables of the element pages, read from the custom elements manifest
 * (dist/custom-elements.json, `npm run manifest`) when the docs are built:
 * what the elements' source declares, never a second copy written by hand.
 * Plain data out, so the page's Vue component only lays it out.
 */
import { existsSync, readFileSync } from 'node:fs';

/** One row of a table: a name, what it is, and the description from the source. */
export interface ApiRow {
  name: string;
  /** The property behind an attribute, the attribute of a property, a method's signature… */
  detail: string;
  type: string;
  default: string;
  description: string;
}

export interface ElementApi {
  tag: string;
  className: string;
  summary: string;
  description: string;
  properties: ApiRow[];
  attributes: ApiRow[];
  methods: ApiRow[];
  events: ApiRow[];
  slots: ApiRow[];
  cssParts: ApiRow[];
  cssProperties: ApiRow[];
  cssStates: ApiRow[];
}

interface ManifestMember {
  kind: string;
  name: string;
  privacy?: string;
  static?: boolean;
  readonly?: boolean;
  type?: { text?: string };
  default?: string;
  description?: string;
  attribute?: string;
  fieldName?: string;
  parameters?: { name: string; type?: { text?: string }; optional?: boolean }[];
  return?: { type?: { text?: string } };
}
interface ManifestDeclaration {
  customElement?: boolean;
  tagName?: string;
  name: string;
  summary?: string;
  description?: string;
  members?: ManifestMember[];
  attributes?: ManifestMember[];
  events?: ManifestMember[];
  slots?: ManifestMember[];
  cssParts?: ManifestMember[];
  cssProperties?: ManifestMember[];
  cssStates?: ManifestMember[];
}
interface Manifest {
  modules: { declarations?: ManifestDeclaration[] }[];
}

const row = (name: string, fields: Partial<Omit<ApiRow, 'name'>> = {}): ApiRow => ({ name, detail: '', type: '', default: '', description: '', ...fields });
/** Public API only: no private, protected, static or `_`/`#` internals. */
const isPublic = (member: ManifestMember) => !member.privacy && !member.static && !member.name.startsWith('_') && !member.name.startsWith('#');

/** Every custom element of the manifest, by tag name. */
export function elementApis(manifest: Manifest): Record<string, ElementApi> {
  const byTag: Record<string, ElementApi> = {};
  for (const module of manifest.modules) {
    for (const d of module.declarations ?? []) {
      if (!d.customElement || !d.tagName) continue;
      const members = (d.members ?? []).filter(isPublic);
      byTag[d.tagName] = {
        tag: d.tagName,
        className: d.name,
        summary: d.summary ?? '',
        description: d.description ?? '',
        properties: members
          .filter((m) => m.kind === 'field')
          .map((m) => row(m.name, { detail: [m.readonly ? 'read-only' : '', m.attribute ? `attribute \`${m.attribute}\`` : ''].filter(Boolean).join(', '), type: m.type?.text ?? '', default: m.default ?? '', description: m.description ?? '' })),
        attributes: (d.attributes ?? []).map((a) => row(a.name, { detail: a.fieldName ? `property \`${a.fieldName}\`` : '', type: a.type?.text ?? '', default: a.default ?? '', description: a.description ?? '' })),
        methods: members
          .filter((m) => m.kind === 'method')
          .map((m) =>
            row(m.name, {
              detail: `${m.name}(${(m.parameters ?? []).map((p) => `${p.name}${p.optional ? '?' : ''}${p.type?.text ? `: ${p.type.text}` : ''}`).join(', ')})${m.return?.type?.text ? `: ${m.return.type.text}` : ''}`,
              description: m.description ?? '',
            }),
          ),
        events: (d.events ?? []).map((e) => row(e.name, { type: e.type?.text ?? '', description: e.description ?? '' })),
        slots: (d.slots ?? []).map((s) => row(s.name || '(default)', { description: s.description ?? '' })),
        cssParts: (d.cssParts ?? []).map((p) => row(p.name, { description: p.description ?? '' })),
        cssProperties: (d.cssProperties ?? []).map((p) => row(p.name, { default: p.default ?? '', description: p.description ?? '' })),
        cssStates: (d.cssStates ?? []).map((s) => row(`:state(${s.name})`, { description: s.description ?? '' })),
      };
    }
  }
  return byTag;
}

/** Reads the manifest; a missing one says which command makes it. */
export function readElementApis(path: string): Record<string, ElementApi> {
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run manifest\` (\`npm run docs\` does) before building the docs`);
  return elementApis(JSON.parse(readFileSync(path, 'utf8')) as Manifest);
}
