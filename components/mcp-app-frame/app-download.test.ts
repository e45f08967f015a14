/**
 * The file names `ui/download-file` offers (shown in the frame's question and
 * given to the save dialog): what an app puts in a resource URI must not
 * disguise the name or make it a path.
 */
import { expect, test } from 'vitest';
import { appFiles } from './app-download.js';

const nameOf = (uri: string) => appFiles({ contents: [{ type: 'resource', resource: { uri, mimeType: 'text/plain', text: 'x' } }] })[0]!.name;

test('bidi controls and invisible format characters are not kept: "report<RLO>fdp.exe" cannot show as "reportexe.pdf"', () => {
  expect(nameOf('file:///report\u202Efdp.exe')).toBe('report_fdp.exe');
  expect(nameOf('file:///report%E2%80%AEfdp.exe')).toBe('report_fdp.exe');
  for (const mark of ['\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u2066', '\u2067', '\u2068', '\u2069', '\u061C', '\u200B', '\uFEFF', '\u2028', '\u0085']) {
    expect(nameOf(`file:///a${encodeURIComponent(mark)}b.txt`), `U+${mark.codePointAt(0)!.toString(16)}`).toBe('a_b.txt');
  }
});

test('a long name is cut at 200 code points, never inside a surrogate pair; path separators stay out', () => {
  const name = nameOf(`file:///${'a'.repeat(199)}${encodeURIComponent('😀😀')}.exe`);
  expect([...name]).toHaveLength(200);
  expect(name.endsWith('😀')).toBe(true);
  expect(nameOf('file:///x%2F..%5Cy%3Az')).toBe('x_.._y_z');
});
