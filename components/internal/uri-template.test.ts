/**
 * URI templates as resource templates use them (RFC 6570 levels 1–3): the
 * variables, expansion with encoding per operator, and where a partly typed
 * URI stands (for completions).
 */
import { describe, expect, test } from 'vitest';
import { expandTemplate, matchPartial, templatePrefix, templateVariables } from './uri-template.js';

describe('URI templates', () => {
  test('variables, in order and once each', () => {
    expect(templateVariables('file:///{dir}/{name}{?rev,dir}')).toEqual(['dir', 'name', 'rev']);
    expect(templateVariables('demo://readme')).toEqual([]);
  });

  test('expansion encodes per operator and leaves out missing values', () => {
    expect(expandTemplate('demo://notes/{name}', { name: 'a b/c' })).toBe('demo://notes/a%20b%2Fc');
    expect(expandTemplate('file:///{+path}', { path: 'a b/c' })).toBe('file:///a%20b/c');
    expect(expandTemplate('https://x/{?q,page}', { q: 'mcp kit', page: '2' })).toBe('https://x/?q=mcp%20kit&page=2');
    expect(expandTemplate('https://x/{?q,page}', { page: '2' })).toBe('https://x/?page=2');
    expect(expandTemplate('x{/a,b}{#frag}', { a: '1', b: '2', frag: 'é' })).toBe('x/1/2#%C3%A9');
    expect(expandTemplate('x{;v}', { v: '' })).toBe('x;v');
  });

  test('a partly typed URI: the variable being typed, the ones before, or no match', () => {
    expect(matchPartial('demo://notes/{name}', 'demo://notes/we')).toEqual({ values: {}, current: 'name', typed: 'we' });
    expect(matchPartial('repo://{owner}/{repo}/issues', 'repo://ada/ker')).toEqual({ values: { owner: 'ada' }, current: 'repo', typed: 'ker' });
    expect(matchPartial('demo://notes/{name}', 'demo://note')).toBeUndefined();
    expect(matchPartial('demo://notes/{name}', 'other://x')).toBeUndefined();
    expect(templatePrefix('demo://notes/{name}')).toBe('demo://notes/');
  });
});
