/**
 * `npm run manifest`: the custom elements manifest (dist/custom-elements.json)
 * with @custom-elements-manifest/analyzer, which the framework types
 * (scripts/framework-types.mjs) are generated from.
 *
 * The analyzer guesses an event for every `dispatchEvent()` it sees, naming it
 * after a variable (`client`, `failure`, `typed`…) rather than the event's
 * type, so the manifest used to list events no element fires. Here the
 * elements' `@event` tags are the list (test/manifest.test.ts checks it against
 * what the code dispatches), and each event gets its class from
 * components/events.ts (the class whose constructor passes that name to
 * `super`); native events (`input`, `change`, `reset`) are `Event`.
 */

/** Event class name by event type, read from the classes' `super('mcp-…', …)` calls. */
const eventClasses = new Map();
/** The `@event` / `@fires` names of each custom element class, in order. */
const documented = new Map();

function kitEvents() {
  return {
    name: 'mcp-web-elements-events',
    analyzePhase({ ts, node }) {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const className = node.name.text;
      for (const member of node.members) {
        if (!ts.isConstructorDeclaration(member) || !member.body) continue;
        for (const statement of member.body.statements) {
          const call = ts.isExpressionStatement(statement) ? statement.expression : undefined;
          if (call && ts.isCallExpression(call) && call.expression.kind === ts.SyntaxKind.SuperKeyword && call.arguments[0] && ts.isStringLiteral(call.arguments[0])) {
            const type = call.arguments[0].text;
            if (type.startsWith('mcp-')) eventClasses.set(type, className);
          }
        }
      }
      const names = [];
      for (const doc of ts.getJSDocTags(node)) {
        const tag = doc.tagName.text;
        if (tag !== 'event' && tag !== 'fires') continue;
        const text = typeof doc.comment === 'string' ? doc.comment : (doc.comment ?? []).map((part) => part.text).join('');
        const name = text.trim().split(/\s+/)[0];
        if (name) names.push(name);
      }
      if (names.length > 0) documented.set(className, names);
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        for (const declaration of module.declarations ?? []) {
          if (!declaration.customElement) continue;
          const names = documented.get(declaration.name) ?? [];
          const byName = new Map();
          for (const event of declaration.events ?? []) if (event.name && names.includes(event.name) && !byName.has(event.name)) byName.set(event.name, event);
          declaration.events = names.map((name) => {
            const event = byName.get(name) ?? { name };
            const className = eventClasses.get(name);
            if (name.startsWith('mcp-') && !className) throw new Error(`${declaration.tagName}: no event class in components/events.ts fires "${name}"`);
            return { ...event, name, type: { text: className ?? 'Event' } };
          });
        }
      }
    },
  };
}

/**
 * The analyzer lists modules in the order its glob finds the files, which varies when the
 * machine is busy (directories are read concurrently): the manifest would differ from one build
 * to the next. Sorted here into the order an unhurried walk gives (a folder's files, by name,
 * then its subfolders, by name), the order the manifest always had.
 */
function stableOrder() {
  const compare = (a, b) => {
    const x = a.path.split('/');
    const y = b.path.split('/');
    for (let i = 0; ; i++) {
      const xFile = i === x.length - 1;
      const yFile = i === y.length - 1;
      if (x[i] !== y[i]) return xFile !== yFile ? (xFile ? -1 : 1) : x[i] < y[i] ? -1 : 1;
      if (xFile || yFile) return xFile === yFile ? 0 : xFile ? -1 : 1;
    }
  };
  return {
    name: 'mcp-web-elements-stable-order',
    packageLinkPhase({ customElementsManifest }) {
      customElementsManifest.modules.sort(compare);
    },
  };
}

export default {
  globs: ['components/**/*.ts'],
  exclude: ['components/**/*.test.ts', 'components/test-support/**'],
  outdir: 'dist',
  litelement: true,
  packagejson: false,
  plugins: [kitEvents(), stableOrder()],
};
