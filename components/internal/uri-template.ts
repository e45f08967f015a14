/**
 * URI templates (RFC 6570, levels 1–3 and the `*` explode modifier on plain
 * values) as resource templates use them (spec: server/resources "Resource
 * Templates"): the variables a template names, expanding it with the values a
 * user typed, and matching a partly typed URI against it (for completions).
 *
 * @module
 */

/** One `{…}` expression: its operator and variable names. */
interface Expression {
  operator: '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';
  names: string[];
}

type Part = string | Expression;

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);

/** Splits a template into literal text and expressions. Unclosed braces are literal text. */
export function parseTemplate(template: string): Part[] {
  const parts: Part[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const close = open < 0 ? -1 : template.indexOf('}', open);
    if (open < 0 || close < 0) {
      parts.push(template.slice(at));
      break;
    }
    if (open > at) parts.push(template.slice(at, open));
    let body = template.slice(open + 1, close);
    const operator = OPERATORS.has(body[0] ?? '') ? (body[0] as Expression['operator']) : '';
    if (operator) body = body.slice(1);
    const names = body
      .split(',')
      .map((name) => name.replace(/\*$|:\d+$/, '').trim())
      .filter(Boolean);
    parts.push({ operator, names });
    at = close + 1;
  }
  return parts;
}

/** The variable names of a template, in order, each once. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const part of parseTemplate(template)) if (typeof part !== 'string') for (const name of part.names) if (!names.includes(name)) names.push(name);
  return names;
}

/** Percent-encodes all but unreserved characters, or (reserved expansion) all but unreserved and reserved ones. */
function encode(value: string, reserved: boolean): string {
  const allowed = reserved ? /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/ : /[A-Za-z0-9\-._~]/;
  let out = '';
  for (const char of value) {
    if (allowed.test(char)) out += char;
    else for (const byte of new TextEncoder().encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Expands a template with string values; a variable without a value (undefined) is left out, as RFC 6570 says. */
export function expandTemplate(template: string, values: Record<string, string | undefined>): string {
  return parseTemplate(template)
    .map((part) => {
      if (typeof part === 'string') return part;
      const { operator, names } = part;
      const present = names.filter((name) => values[name] !== undefined);
      if (present.length === 0) return '';
      const reserved = operator === '+' || operator === '#';
      const first = operator === '' || operator === '+' ? '' : operator === '?' ? '?' : operator === '&' ? '&' : operator;
      const separator = operator === '' || operator === '+' || operator === '#' ? ',' : operator === '?' || operator === '&' ? '&' : operator;
      const named = operator === ';' || operator === '?' || operator === '&';
      const items = present.map((name) => {
        const value = encode(values[name]!, reserved);
        if (!named) return value;
        return operator === ';' && value === '' ? name : `${name}=${value}`;
      });
      return first + items.join(separator);
    })
    .join('');
}

/**
 * Where a partly typed URI stands in a template whose expressions are simple
 * (one variable each): the values of the variables already typed, and the
 * variable being typed with its text so far. Undefined when the text does not
 * follow the template. Values are returned as typed (not percent-decoded).
 */
export function matchPartial(template: string, text: string): { values: Record<string, string>; current: string; typed: string } | undefined {
  const parts = parseTemplate(template);
  const values: Record<string, string> = {};
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (typeof part === 'string') {
      // The text must go past this literal (ending inside it is not inside a variable).
      if (!text.slice(at).startsWith(part) || text.length === at + part.length && i === parts.length - 1) return undefined;
      at += part.length;
      continue;
    }
    if (part.names.length !== 1 || !['', '+', '/'].includes(part.operator)) return undefined;
    if (part.operator === '/') {
      if (text[at] !== '/') return undefined;
      at++;
    }
    const name = part.names[0]!;
    const next = parts[i + 1];
    const stop = typeof next === 'string' ? text.indexOf(next, at) : -1;
    if (stop < 0) return { values, current: name, typed: text.slice(at) };
    values[name] = text.slice(at, stop);
    at = stop;
  }
  return undefined;
}

/** The literal text a template starts with (before its first expression). */
export function templatePrefix(template: string): string {
  const first = parseTemplate(template)[0];
  return typeof first === 'string' ? first : '';
}
