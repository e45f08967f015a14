/**
 * Issue 31: the host page's inherited text styles that are not theming (a
 * centred `#root`, uppercase, letter and word spacing, `nowrap`, an indent, a
 * huge line height, a stylesheet's `direction`) stop at every element's
 * `:host`; the page's font family still comes through, and `dir` on an
 * ancestor still makes an element right-to-left. `<mcp-connection>` keeps
 * them out of its own parts only: the page's content inside it stays the page's.
 */
import { afterEach, describe, expect, test } from 'vitest';
import './index.js';
import './inspector.js';
import './mcp-app-frame/mcp-app-frame.js';
import { cleanup, mount } from './test-support/dom.js';

const TAGS = ['mcp-tool-form', 'mcp-tool-result', 'mcp-elicitation-dialog', 'mcp-app-frame', 'mcp-prompt-form', 'mcp-resource-list', 'mcp-protocol-log', 'mcp-roots-editor'];

/** A container styled as a careless page might style its app's root. */
const HOSTILE = [
  'text-align: center',
  'text-transform: uppercase',
  'letter-spacing: 3px',
  'word-spacing: 7px',
  'white-space: nowrap',
  'text-indent: 4em',
  'line-height: 5',
  'direction: rtl',
  'font-family: serif',
  'font-size: 20px',
  'text-align-last: center',
  'text-shadow: 1px 1px 2px red',
  'word-break: break-all',
  'hyphens: auto',
  'writing-mode: vertical-rl',
  '-webkit-text-fill-color: transparent',
].join('; ');

function mountAll(dir?: 'rtl'): HTMLElement {
  return mount(`<div style="${HOSTILE}" ${dir ? `dir="${dir}"` : ''}>
    ${TAGS.map((tag) => `<${tag}></${tag}>`).join('\n')}
    <mcp-connection><p>The page's own content</p></mcp-connection>
  </div>`);
}

/** The text styles an element's contents inherit from `element`. */
function textStyles(element: Element) {
  const style = getComputedStyle(element);
  return {
    textAlign: style.textAlign,
    textTransform: style.textTransform,
    letterSpacing: style.letterSpacing,
    wordSpacing: style.wordSpacing,
    whiteSpace: style.whiteSpace,
    textIndent: style.textIndent,
    lineHeight: Math.round((parseFloat(style.lineHeight) / parseFloat(style.fontSize)) * 100) / 100,
    direction: style.direction,
    fontFamily: style.fontFamily,
    textAlignLast: style.textAlignLast,
    textShadow: style.textShadow,
    wordBreak: style.wordBreak,
    hyphens: style.hyphens,
    writingMode: style.writingMode,
    textFillColor: style.webkitTextFillColor === style.color,
  };
}

const plain = (direction: 'ltr' | 'rtl') => ({
  textAlign: 'start',
  textTransform: 'none',
  letterSpacing: 'normal',
  wordSpacing: '0px',
  whiteSpace: 'normal',
  textIndent: '0px',
  lineHeight: 1.4,
  direction,
  // Theming: the page's font still reaches the element.
  fontFamily: 'serif',
  textAlignLast: 'auto',
  textShadow: 'none',
  wordBreak: 'normal',
  hyphens: 'manual',
  writingMode: 'horizontal-tb',
  textFillColor: true,
});

afterEach(cleanup);

describe('a page whose container sets every inherited text style', () => {
  test.each(TAGS)('<%s> starts from plain text at its :host', async (tag) => {
    const container = mountAll();
    const element = container.querySelector(tag)!;
    await customElements.whenDefined(tag);
    expect(textStyles(element)).toEqual(plain('ltr'));
  });

  test('<mcp-connection>: its status and error parts are plain; the page\'s content in it keeps the page\'s styles', async () => {
    const container = mountAll();
    const connection = container.querySelector('mcp-connection')!;
    await customElements.whenDefined('mcp-connection');
    await (connection as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(textStyles(connection.shadowRoot!.querySelector('[part="status"]')!)).toEqual(plain('ltr'));
    const own = getComputedStyle(connection.querySelector('p')!);
    expect([own.textAlign, own.textTransform, own.letterSpacing, own.direction, own.writingMode]).toEqual(['center', 'uppercase', '3px', 'rtl', 'vertical-rl']);
  });
});

describe('the same container with dir="rtl"', () => {
  test.each(TAGS)('<%s> is right-to-left', async (tag) => {
    const element = mountAll('rtl').querySelector(tag)!;
    await customElements.whenDefined(tag);
    expect(textStyles(element)).toEqual(plain('rtl'));
  });

  test('<mcp-connection>\'s status is right-to-left', async () => {
    const connection = mountAll('rtl').querySelector('mcp-connection')!;
    await (connection as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(getComputedStyle(connection.shadowRoot!.querySelector('[part="status"]')!).direction).toBe('rtl');
  });
});
