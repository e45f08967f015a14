/**
 * The chat sample's `model` hook. A host plugs in a real LLM by replacing
 * {@link ChatModel}; the default is a small deterministic router so the page
 * works with no API key.
 */
import type { Tool } from '../../src/index.js';

/** What the model decides for one user message. */
export type ChatTurn =
  | { kind: 'reply'; text: string }
  /** Call a tool now with these arguments. */
  | { kind: 'call'; tool: string; arguments: Record<string, unknown>; text?: string }
  /** Show the tool's form (pre-filled) so the user completes the arguments. */
  | { kind: 'form'; tool: string; arguments?: Record<string, unknown>; text?: string };

/**
 * The hook: given the user's text and the servers' tools, decide what to do.
 * `switchedOff(name)`: the label of the switched-off server that has the tool
 * `name`, if one has (its tools are not in `tools`).
 */
export type ChatModel = (input: { text: string; tools: readonly Tool[]; switchedOff?: (name: string) => string | undefined }) => Promise<ChatTurn>;

/** Why a tool a phrase asks for cannot be used: its server is switched off, or no server has it. */
export function unavailableText(name: string, switchedOff?: (name: string) => string | undefined): string {
  const server = switchedOff?.(name);
  return server ? `${name} is on ${server}, which is switched off: switch it on in the settings to use it.` : `No server in the chat offers ${name}.`;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The default router: `/tool name {json}` calls a tool (or opens its form
 * when the JSON is missing), and a few phrases map onto the demo server's tools.
 */
export const routerModel: ChatModel = async ({ text, tools, switchedOff }) => {
  const names = new Set(tools.map((t) => t.name));
  const help = (): ChatTurn => ({
    kind: 'reply',
    text: tools.length ? `I can use: ${tools.map((t) => t.name).join(', ')}. Type /toolname {"arg": …} or ask for the weather in a city.` : 'No server in the chat offers tools now (none connected, or all switched off in the settings).',
  });
  // "/help" and "/tools" are commands, unless the server has a tool of that name.
  const command = text.trim().match(/^\/(help|tools)$/i)?.[1]?.toLowerCase();
  if (command && !names.has(command)) return help();
  const slash = text.match(/^\/(?:tool\s+)?([\w.-]+)\s*(.*)$/s);
  if (slash) {
    const [, name, rest] = slash;
    if (!names.has(name!)) return { kind: 'reply', text: `There is no tool named "${name}". Try /help.` };
    if (!rest!.trim()) return { kind: 'form', tool: name! };
    const args = parseJson(rest!);
    return args ? { kind: 'call', tool: name!, arguments: args } : { kind: 'form', tool: name!, text: 'That was not a JSON object; fill in the form instead.' };
  }
  const lower = text.toLowerCase();
  const has = (name: string) => names.has(name);
  // A phrase whose tool is missing says why, rather than suggesting the phrase again.
  const missing = (name: string): ChatTurn => ({ kind: 'reply', text: unavailableText(name, switchedOff) });
  const weather = lower.match(/weather (?:in|for) ([\p{L} .'-]+)/u);
  if (weather && !has('get_weather')) return missing('get_weather');
  if (weather) return { kind: 'call', tool: 'get_weather', arguments: { city: weather[1]!.trim().replace(/[.?!]+$/, '') }, text: 'Let me check the weather.' };
  const book = lower.match(/book (?:a )?table(?: at ([\p{L}0-9 .'-]+))?/u);
  if (book && !has('book_table')) return missing('book_table');
  if (book) {
    const original = text.match(/ at (.+)$/)?.[1]?.replace(/[.?!]+$/, '').trim();
    return { kind: 'call', tool: 'book_table', arguments: { restaurant: original ?? 'Casa Lisboa' }, text: 'I will book it; the restaurant needs a few details from you.' };
  }
  if (/\b(show|draw|see)\b.*\bchart\b/.test(lower) && has('show_chart')) return { kind: 'call', tool: 'show_chart', arguments: { metric: /\bsales\b/.test(lower) ? 'sales' : 'visitors', days: 7 }, text: 'Here is the chart.' };
  if (/summari[sz]e/.test(lower) && has('summarize')) return { kind: 'call', tool: 'summarize', arguments: { text: text.replace(/^.*?summari[sz]e:?\s*/i, '') || text } };
  if (/\btrip\b/.test(lower) && has('plan_trip')) return { kind: 'form', tool: 'plan_trip', text: 'Tell me about the trip.' };
  if (/\bticket\b/.test(lower) && has('create_ticket')) return { kind: 'form', tool: 'create_ticket', arguments: { title: text.slice(0, 80) } };
  if (/\b(roots?|workspace)\b/.test(lower) && has('list_workspace')) return { kind: 'call', tool: 'list_workspace', arguments: {} };
  if (/\b(help|tools)\b/.test(lower) || !tools.length) return help();
  // Only phrases whose tools are there are suggested.
  const phrases = (
    [
      ['get_weather', '"weather in Lisbon"'],
      ['book_table', '"book a table at Casa Azul"'],
      ['show_chart', '"show a chart"'],
      ['plan_trip', '"plan a trip"'],
    ] as const
  ).flatMap(([name, phrase]) => (has(name) ? [phrase] : []));
  return { kind: 'reply', text: `Try ${[...phrases, '/help'].join(', ').replace(/, ([^,]*)$/, ', or $1')}.` };
};
