/**
 * The kit side of frame.html: mounts what the storage tests reload.
 * - `kind=form`: `forms` (default 1) `<mcp-tool-form>`s for `tool`, drafts on,
 *   with a client for `server` (the draft key; it is never called);
 * - `kind=dialog`: `<mcp-connection server-url=server>` with a form for `tool`
 *   and `<mcp-elicitation-dialog>`, connected.
 */
import { McpClient } from '../../src/index.js';
import '../index.js';

export const TRIP_SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string', title: 'Title' }, nights: { type: 'integer', title: 'Nights' }, stops: { type: 'array', items: { type: 'string' } } },
};

export async function setUpFrame(params: URLSearchParams): Promise<void> {
  const server = params.get('server')!;
  const tool = params.get('tool')!;
  if (params.get('kind') === 'dialog') {
    const connection = document.createElement('mcp-connection');
    connection.setAttribute('server-url', server);
    connection.setAttribute('no-listen', '');
    const form = document.createElement('mcp-tool-form');
    form.toolName = tool;
    form.noDrafts = true;
    connection.append(form, document.createElement('mcp-elicitation-dialog'));
    const connected = new Promise((resolve) => connection.addEventListener('mcp-connect', resolve, { once: true }));
    document.body.append(connection);
    await connected;
    return;
  }
  const client = new McpClient(server);
  for (let i = 0; i < Number(params.get('forms') ?? 1); i++) {
    const form = document.createElement('mcp-tool-form');
    form.client = client;
    form.tool = { name: tool, inputSchema: TRIP_SCHEMA };
    document.body.append(form);
    await form.updateComplete;
  }
}
