/**
 * Pay for what you use (issue 18), in real Chromium against the demo MCP
 * server: a page with only `<mcp-connection>` and `<mcp-tool-form>` (each
 * element's own module imported, nothing else) connects, lists the tools and
 * renders a form without requesting the elicitation dialog, OAuth, the legacy
 * era or the validator; the validator arrives with the first check (the first
 * edited field). The test server serves each source module as its own file, so
 * the page's resource entries name every module it asked for. This file must
 * stay alone in its page: it imports no other element.
 */
import { afterEach, expect, inject, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import './mcp-connection/mcp-connection.js';
import './mcp-tool-form/mcp-tool-form.js';
import type { McpConnection } from './mcp-connection/mcp-connection.js';
import type { McpToolForm } from './mcp-tool-form/mcp-tool-form.js';
import { cleanup, mount, nextEvent } from './test-support/dom.js';

const url = inject('demoServerUrl');

afterEach(() => cleanup());

/** Paths of every module and script the page has requested so far. */
const requested = () => performance.getEntriesByType('resource').map((entry) => decodeURIComponent(new URL(entry.name).pathname));

const DIALOG = /\/components\/mcp-elicitation-dialog\//;
const OAUTH = /\/src\/auth\/(?!errors\.ts)/;
const LEGACY = /\/src\/legacy\//;
const VALIDATOR = /\/src\/schema\/(eval-policy|schema-ajv|schema-guard|cfworker)\.ts|\/ajv|@cfworker/;

test('connection + tool form: no dialog, OAuth, legacy era or validator before the first check; the validator on the first edit', async () => {
  const connection = mount<McpConnection>(`<mcp-connection server-url="${url}" no-listen><mcp-tool-form tool-name="create_ticket" no-drafts></mcp-tool-form></mcp-connection>`);
  await nextEvent(connection, 'mcp-connect');
  const form = connection.querySelector('mcp-tool-form') as McpToolForm;
  const title = () => form.shadowRoot!.querySelector<HTMLInputElement>('[data-pointer="/title"] input');
  await vi.waitFor(() => expect(title()).not.toBeNull());
  await form.updateComplete;

  const before = requested();
  // The page did load the elements it uses (the check would pass vacuously otherwise).
  expect(before.some((path) => path.endsWith('/components/mcp-tool-form/mcp-tool-form.ts'))).toBe(true);
  expect(before.some((path) => path.endsWith('/src/client.ts'))).toBe(true);
  expect(before.filter((path) => DIALOG.test(path))).toEqual([]);
  expect(before.filter((path) => OAUTH.test(path))).toEqual([]);
  expect(before.filter((path) => LEGACY.test(path))).toEqual([]);
  expect(before.filter((path) => VALIDATOR.test(path))).toEqual([]);

  // The first edited field is the first check: the validator loads and checks the value.
  await userEvent.fill(title()!, 'ab');
  await vi.waitFor(() => expect(requested().filter((path) => VALIDATOR.test(path)).length).toBeGreaterThan(0));
  await userEvent.click(form.shadowRoot!.querySelector('[part~="submit-button"]')!);
  await vi.waitFor(() => expect(form.issues.map((issue) => issue.pointer)).toContain('/title'));
  expect(requested().filter((path) => DIALOG.test(path) || OAUTH.test(path) || LEGACY.test(path))).toEqual([]);
});
