/**
 * Helpers for the `<mcp-tool-form>` tests in real Chromium: mounting a form,
 * finding a field by JSON Pointer, typing and clicking like a user, and
 * capturing the arguments a submit would send.
 */
import { userEvent } from 'vitest/browser';
import type { McpClient, Tool } from '../../src/index.js';
import '../index.js';
import type { McpToolCallEvent } from '../events.js';
import type { McpToolForm } from '../mcp-tool-form/mcp-tool-form.js';

export function tool(name: string, inputSchema: Record<string, unknown>, extra: Partial<Tool> = {}): Tool {
  return { name, inputSchema, ...extra };
}

export async function mount(options: { tool?: Tool; toolName?: string; client?: McpClient; drafts?: boolean; into?: HTMLElement }): Promise<McpToolForm> {
  const form = document.createElement('mcp-tool-form');
  if (options.tool) form.tool = options.tool;
  if (options.toolName) form.toolName = options.toolName;
  if (options.client) form.client = options.client;
  form.noDrafts = !options.drafts;
  (options.into ?? document.body).append(form);
  await form.updateComplete;
  return form;
}

export const root = (form: McpToolForm) => form.shadowRoot!;

/** The wrapper of the field at `pointer` (the first in document order). */
export function field(form: McpToolForm, pointer: string): HTMLElement {
  const found = [...root(form).querySelectorAll<HTMLElement>('[data-pointer]')].find((el) => el.dataset.pointer === pointer);
  if (!found) throw new Error(`no field ${pointer}`);
  return found;
}

export function control<T extends Element = HTMLInputElement>(form: McpToolForm, pointer: string, selector = 'input, select, textarea'): T {
  const found = field(form, pointer).querySelector<T>(selector);
  if (!found) throw new Error(`no control ${selector} in ${pointer}`);
  return found;
}

export function part<T extends Element = HTMLElement>(scope: ParentNode, name: string): T {
  const found = scope.querySelector<T>(`[part~="${name}"]`);
  if (!found) throw new Error(`no part ${name}`);
  return found;
}

/** Opens the arguments preview as a user does, by its disclosure button (its JSON is built only while it is open); the region. */
export async function openPreview(form: McpToolForm): Promise<HTMLElement> {
  const toggle = part<HTMLButtonElement>(root(form), 'preview-toggle');
  if (toggle.getAttribute('aria-expanded') !== 'true') await click(form, toggle);
  return part<HTMLElement>(root(form), 'preview');
}

/** A button that is a direct child of the field (not one of a nested field). */
export function ownButton(form: McpToolForm, pointer: string, name: string): HTMLButtonElement {
  const wrapper = field(form, pointer);
  const found = [...wrapper.querySelectorAll<HTMLButtonElement>(`[part~="${name}"]`)].find((button) => button.closest('[data-pointer]') === wrapper);
  if (!found) throw new Error(`no ${name} in ${pointer}`);
  return found;
}

export function itemButton(form: McpToolForm, pointer: string, index: number, name: string): HTMLButtonElement {
  return field(form, pointer).querySelector<HTMLButtonElement>(`:scope > ol > li[data-index="${index}"] > .item-actions > [part~="${name}"]`)!;
}

export async function type(form: McpToolForm, pointer: string, text: string): Promise<void> {
  await userEvent.fill(control(form, pointer), text);
  await form.updateComplete;
}

export async function clear(form: McpToolForm, pointer: string): Promise<void> {
  await userEvent.clear(control(form, pointer));
  await form.updateComplete;
}

export async function click(form: McpToolForm, element: Element): Promise<void> {
  await userEvent.click(element);
  await form.updateComplete;
}

export async function chooseRadio(form: McpToolForm, pointer: string, label: string): Promise<void> {
  const option = [...field(form, pointer).querySelectorAll('label[part~="option"]')].find((l) => l.textContent!.trim() === label);
  if (!option) throw new Error(`no option ${label} in ${pointer}`);
  await click(form, option.querySelector('input')!);
}

/**
 * Clicks the submit button and returns the arguments the form was about to
 * send (from the cancelable `mcp-tool-call`), or undefined when nothing would be sent.
 */
export async function submitted(form: McpToolForm): Promise<Record<string, unknown> | undefined> {
  let captured: Record<string, unknown> | undefined;
  const listener = (event: McpToolCallEvent) => {
    event.preventDefault();
    captured = event.detail.arguments;
  };
  form.addEventListener('mcp-tool-call', listener);
  await click(form, part(root(form), 'submit-button'));
  await form.updateComplete;
  form.removeEventListener('mcp-tool-call', listener);
  return captured;
}

/** The error text a field shows itself (not one of a nested field's). */
export function errorOf(form: McpToolForm, pointer: string): string | undefined {
  const wrapper = field(form, pointer);
  const error = [...wrapper.querySelectorAll('[part~="error"]')].find((el) => el.closest('[data-pointer]') === wrapper);
  return error?.textContent?.trim();
}
