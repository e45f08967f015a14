/**
 * `<mcp-roots-editor>` in real Chromium: adding and removing roots by
 * keyboard, the connection's roots (what the dialog shares when a server asks),
 * and the change a legacy session announces.
 */
import { afterEach, beforeEach, describe, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { ListRootsResult } from '../../src/index.js';
import '../index.js';
import '../inspector.js';
import { axeViolations, cleanup, mount, nextEvent } from '../test-support/dom.js';
import type { McpConnection } from '../mcp-connection/mcp-connection.js';
import type { McpRootsEditor } from './mcp-roots-editor.js';

const url = inject('demoServerUrl');

beforeEach(() => cleanup());
afterEach(() => cleanup());

describe('<mcp-roots-editor>', () => {
  test('inside a connection: roots added and removed by keyboard are the roots the server gets', async () => {
    const connection = mount<McpConnection>(
      `<mcp-connection server-url="${url}" no-listen><mcp-roots-editor></mcp-roots-editor><mcp-elicitation-dialog policy="accept-defaults" no-resume></mcp-elicitation-dialog></mcp-connection>`,
    );
    connection.roots = [{ uri: 'file:///home/ada/first', name: 'first' }];
    await nextEvent(connection, 'mcp-connect');
    const editor = connection.querySelector<McpRootsEditor>('mcp-roots-editor')!;
    await editor.updateComplete;
    expect([...editor.shadowRoot!.querySelectorAll('[part~="uri"]')].map((e) => e.textContent)).toEqual(['file:///home/ada/first']);

    const changes: unknown[] = [];
    connection.addEventListener('mcp-roots-change', (event) => event.target === connection && changes.push(event.detail.roots));
    await userEvent.click(editor.shadowRoot!.querySelector<HTMLInputElement>('#root-uri')!);
    await userEvent.keyboard('file:///home/ada/second{Tab}second{Enter}');
    await editor.updateComplete;
    expect(connection.roots).toEqual([
      { uri: 'file:///home/ada/first', name: 'first' },
      { uri: 'file:///home/ada/second', name: 'second' },
    ]);
    // Focus returns to the URI field for the next root.
    expect(editor.shadowRoot!.activeElement?.id).toBe('root-uri');
    await vi.waitFor(() => expect(changes).toHaveLength(1), { timeout: 10_000 });
    const listed = (await connection.client!.callTool('list_workspace', {})) as { content: { text: string }[] };
    expect(listed.content[0]!.text).toBe('Roots: first, second');

    await userEvent.click(editor.shadowRoot!.querySelector<HTMLElement>('[aria-label="Remove root first"]')!);
    expect(connection.roots).toEqual([{ uri: 'file:///home/ada/second', name: 'second' }]);
    const again = (await connection.client!.callTool('list_workspace', {})) as { content: { text: string }[] };
    expect(again.content[0]!.text).toBe('Roots: second');
    expect(await axeViolations(connection)).toEqual([]);
  });

  test('refuses what is not a file:// URI and says why; alone it emits mcp-roots-change', async () => {
    const editor = mount<McpRootsEditor>('<mcp-roots-editor></mcp-roots-editor>');
    editor.roots = [];
    await editor.updateComplete;
    expect(editor.matches(':state(empty)')).toBe(true);
    await userEvent.click(editor.shadowRoot!.querySelector<HTMLInputElement>('#root-uri')!);
    await userEvent.keyboard('https://example.com/repo{Enter}');
    await editor.updateComplete;
    expect(editor.shadowRoot!.querySelector('[part~="error"]')!.textContent).toBe('A root must be a file:// URI.');
    expect(editor.shadowRoot!.querySelector('#root-uri')!.getAttribute('aria-invalid')).toBe('true');
    expect(editor.roots).toEqual([]);
    const changed = nextEvent<CustomEvent<{ roots: ListRootsResult['roots'] }>>(editor, 'mcp-roots-change');
    expect(editor.addRoot('file:///srv/data')).toBe('');
    expect((await changed).detail.roots).toEqual([{ uri: 'file:///srv/data' }]);
    expect(editor.addRoot('file:///srv/data')).toBe('file:///srv/data is already shared.');
  });
});
