/**
 * The custom elements manifest lists exactly the events each element fires
 * (issue 17: it used to name events that do not exist, after variables the
 * analyzer saw in `dispatchEvent()` calls). The manifest's lists come from the
 * elements' `@event` tags (custom-elements-manifest.config.mjs); this test
 * works out the same lists from the code with the TypeScript checker, on its
 * own: every `dispatchEvent()` in an element's class, its event's type (the
 * string its class hands to `super`, or a native `new Event(type)`), and the
 * composed events of the kit elements the element renders in its shadow root,
 * which reach the element's listeners too.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..');

interface Declaration {
  tagName?: string;
  name: string;
  customElement?: boolean;
  events?: { name: string; type?: { text: string } }[];
}

let manifestDir: string;
let declarations: Declaration[];
let fired: Map<string, Set<string>>;

beforeAll(() => {
  // The analyzer writes below the working directory: a folder of this run's own in .cache/.
  mkdirSync(join(root, '.cache'), { recursive: true });
  manifestDir = mkdtempSync(join(root, '.cache', 'manifest-test-'));
  execFileSync(process.execPath, [join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js'), 'analyze', '--config', 'custom-elements-manifest.config.mjs', '--outdir', relative(root, manifestDir), '--quiet'], { cwd: root, timeout: 60_000 });
  const manifest = JSON.parse(readFileSync(join(manifestDir, 'custom-elements.json'), 'utf8')) as { modules: { declarations?: Declaration[] }[] };
  declarations = manifest.modules.flatMap((module) => module.declarations ?? []).filter((declaration) => declaration.customElement);
  fired = firedByCode();
}, 120_000);
afterAll(() => rmSync(manifestDir, { recursive: true, force: true }));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? (name === 'test-support' ? [] : files(path)) : path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** What the code fires, per tag: own dispatches (`on: self`), plus the dispatches aimed at another element. */
function firedByCode(): Map<string, Set<string>> {
  const program = ts.createProgram(files(join(root, 'components')), {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    experimentalDecorators: true,
    useDefineForClassFields: false,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();

  /** The event type a class hands to `super` (its own constructor or an ancestor's). */
  const typeOfEventClass = (declaration: ts.ClassDeclaration): string | undefined => {
    for (const member of declaration.members) {
      if (!ts.isConstructorDeclaration(member) || !member.body) continue;
      for (const statement of member.body.statements) {
        const call = ts.isExpressionStatement(statement) ? statement.expression : undefined;
        if (call && ts.isCallExpression(call) && call.expression.kind === ts.SyntaxKind.SuperKeyword && call.arguments[0] && ts.isStringLiteral(call.arguments[0])) return call.arguments[0].text;
      }
    }
    return undefined;
  };

  const tagOfClass = new Map<string, string>();
  const own = new Map<string, Set<string>>();
  const composed = new Map<string, Set<string>>();
  const embeds = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, key: string, value: string) => map.set(key, (map.get(key) ?? new Set()).add(value));

  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || !source.fileName.startsWith(join(root, 'components'))) continue;
    // defineElement('mcp-x', ClassName)
    const visitDefine = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineElement' && ts.isStringLiteral(node.arguments[0]!) && ts.isIdentifier(node.arguments[1]!)) {
        tagOfClass.set(node.arguments[1].text, node.arguments[0].text);
      }
      ts.forEachChild(node, visitDefine);
    };
    visitDefine(source);
  }

  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || !source.fileName.startsWith(join(root, 'components'))) continue;
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name) continue;
      const tag = tagOfClass.get(statement.name.text);
      if (!tag) continue;
      const visit = (node: ts.Node): void => {
        if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'dispatchEvent') {
          const argument = node.arguments[0]!;
          let types: string[] = [];
          let isComposed = true;
          if (ts.isNewExpression(argument) && ts.isIdentifier(argument.expression) && (argument.expression.text === 'Event' || argument.expression.text === 'CustomEvent')) {
            types = [(argument.arguments![0] as ts.StringLiteral).text];
            const options = argument.arguments![1];
            isComposed = options !== undefined && ts.isObjectLiteralExpression(options) && options.properties.some((p) => ts.isPropertyAssignment(p) && p.name.getText() === 'composed' && p.initializer.kind === ts.SyntaxKind.TrueKeyword);
          } else {
            // Kit events (one class, or a union of them): each class names its type; all are composed (events.ts).
            const type = checker.getTypeAtLocation(argument);
            for (const part of type.isUnion() ? type.types : [type]) {
              let symbol = part.getSymbol();
              let found: string | undefined;
              while (symbol && !found) {
                const declaration = symbol.declarations?.find(ts.isClassDeclaration);
                if (!declaration) break;
                found = typeOfEventClass(declaration);
                const base = declaration.heritageClauses?.[0]?.types[0];
                symbol = base ? checker.getTypeAtLocation(base.expression).getSymbol() : undefined;
              }
              if (!found) throw new Error(`${tag}: cannot tell the type of ${node.getText()}`);
              types.push(found);
            }
          }
          const receiver = node.expression.expression.getText();
          for (const type of types) {
            add(own, tag, type);
            if (isComposed) add(composed, tag, type);
            // The dialog asks through its connection: `(this.connection ?? this).dispatchEvent(…)`.
            if (receiver !== 'this') {
              expect(receiver).toBe('(this.connection ?? this)');
              add(own, 'mcp-connection', type);
            }
          }
        }
        if (ts.isTaggedTemplateExpression(node) && node.tag.getText() === 'html') {
          // The markup only (a tag named in a string inside `${…}` is text, not an element).
          const template = node.template;
          const markup = ts.isNoSubstitutionTemplateLiteral(template) ? template.text : [template.head.text, ...template.templateSpans.map((span) => span.literal.text)].join('');
          for (const match of markup.matchAll(/<(mcp-[a-z-]+)/g)) add(embeds, tag, match[1]!);
        }
        ts.forEachChild(node, visit);
      };
      visit(statement);
    }
  }

  // Composed events of the elements in a shadow root reach the host's listeners (and theirs, transitively).
  const reaching = (tag: string, seen: Set<string>): Set<string> => {
    const out = new Set(composed.get(tag) ?? []);
    for (const inner of embeds.get(tag) ?? []) if (!seen.has(inner)) for (const type of reaching(inner, new Set([...seen, inner]))) out.add(type);
    return out;
  };
  const all = new Map<string, Set<string>>();
  for (const tag of tagOfClass.values()) {
    const out = new Set(own.get(tag) ?? []);
    for (const inner of embeds.get(tag) ?? []) if (inner !== tag) for (const type of reaching(inner, new Set([tag, inner]))) out.add(type);
    all.set(tag, out);
  }
  return all;
}

describe('custom-elements.json', () => {
  test('lists every element the kit defines', () => {
    expect(declarations.map((d) => d.tagName).sort()).toEqual([...fired.keys()].sort());
  });

  test('lists exactly the events each element fires, each with its event class', () => {
    for (const declaration of declarations) {
      const listed = (declaration.events ?? []).map((event) => event.name);
      expect({ tag: declaration.tagName, events: [...listed].sort() }).toEqual({ tag: declaration.tagName, events: [...fired.get(declaration.tagName!)!].sort() });
      // No event twice, and each one's type is a class the elements entry exports (or a native Event).
      expect(new Set(listed).size).toBe(listed.length);
      for (const event of declaration.events ?? []) expect(event.type?.text).toMatch(event.name.startsWith('mcp-') ? /^Mcp[A-Za-z]+Event$/ : /^Event$/);
    }
  });
});
