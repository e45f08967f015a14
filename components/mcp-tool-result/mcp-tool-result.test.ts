/**
 * `<mcp-tool-result>` in real Chromium: every content type (field case C19),
 * untrusted content rendered as text, media only from checked base64 with
 * allow-listed types, opt-in resource reads through a real client, structured
 * content with the outputSchema outcome, and error results.
 */
import { afterEach, describe, expect, inject, test } from 'vitest';
import { userEvent } from 'vitest/browser';
import { McpClient, type CallToolResult, type Tool } from '../../src/index.js';
import '../index.js';
import type { McpToolResult } from './mcp-tool-result.js';

/** A small PNG drawn here (our own bytes). */
function pngBase64(): string {
  const canvas = document.createElement('canvas');
  canvas.width = 3;
  canvas.height = 2;
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#2a7';
  context.fillRect(0, 0, 3, 2);
  return canvas.toDataURL('image/png').slice('data:image/png;base64,'.length);
}

/** A 16-sample 8-bit mono WAV built byte by byte. */
function wavBase64(): string {
  const samples = [128, 150, 170, 150, 128, 106, 86, 106, 128, 150, 170, 150, 128, 106, 86, 106];
  const bytes: number[] = [];
  const text = (s: string) => bytes.push(...[...s].map((c) => c.charCodeAt(0)));
  const u32 = (n: number) => bytes.push(n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >> 24) & 255);
  const u16 = (n: number) => bytes.push(n & 255, (n >> 8) & 255);
  text('RIFF');
  u32(36 + samples.length);
  text('WAVEfmt ');
  u32(16);
  u16(1);
  u16(1);
  u32(8000);
  u32(8000);
  u16(1);
  u16(8);
  text('data');
  u32(samples.length);
  bytes.push(...samples);
  return btoa(String.fromCharCode(...bytes));
}

async function show(result: CallToolResult, options: { tool?: Tool; client?: McpClient } = {}): Promise<McpToolResult> {
  const element = document.createElement('mcp-tool-result');
  element.result = result;
  if (options.tool) element.tool = options.tool;
  if (options.client) element.client = options.client;
  document.body.append(element);
  await element.updateComplete;
  await element.updateComplete;
  return element;
}

const blocks = (element: McpToolResult) => [...element.shadowRoot!.querySelectorAll<HTMLElement>('[part~="block"]')];
const part = <T extends Element = HTMLElement>(scope: ParentNode, name: string) => scope.querySelector<T>(`[part~="${name}"]`);

afterEach(() => document.body.replaceChildren());

describe('field case C19: every content type', () => {
  test('C19 mixed result: every block renders in order, text stays text, links are safe, the unknown type is a placeholder', async () => {
    const png = pngBase64();
    const wav = wavBase64();
    const client = new McpClient(inject('demoServerUrl'));
    const methods: string[] = [];
    client.on('traffic', (event) => {
      const method = (event as { message?: { method?: string } }).message?.method;
      if (method) methods.push(method);
    });
    const element = await show(
      {
        content: [
          { type: 'text', text: 'Invoice ready <img src=nope onerror="window.__pwned=1"> & <b>bold</b>' },
          { type: 'resource_link', uri: 'https://files.example.test/invoices/7.pdf', name: '7.pdf', title: 'Invoice 7', description: 'March figures', mimeType: 'application/pdf', size: 52_000 },
          { type: 'resource_link', uri: 'mem://invoices/7-notes', name: '7-notes', mimeType: 'text/markdown' },
          { type: 'image', data: png, mimeType: 'image/png' },
          { type: 'audio', data: wav, mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'mem://memo/1', mimeType: 'text/markdown', text: '# Memo\n- first' } },
          { type: 'resource', resource: { uri: 'mem://raw/1', mimeType: 'application/octet-stream', blob: btoa('\x00\x01\x02\x03\x04') } },
          { type: 'x-hologram', payload: { depth: 3 } },
        ],
      },
      { client },
    );
    const list = blocks(element);
    expect(list.map((b) => b.dataset.type)).toEqual(['text', 'resource_link', 'resource_link', 'image', 'audio', 'resource', 'resource', 'x-hologram']);

    // Text is text: the markup shows literally and creates no element.
    const text = part(list[0]!, 'text')!;
    expect(text.textContent).toBe('Invoice ready <img src=nope onerror="window.__pwned=1"> & <b>bold</b>');
    expect(text.children).toHaveLength(0);
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();

    // A web link: title, type, size; opens in a new tab without referrer or opener; nothing fetched.
    const link = part<HTMLAnchorElement>(list[1]!, 'link')!;
    expect(link.textContent).toBe('Invoice 7');
    expect(link.href).toBe('https://files.example.test/invoices/7.pdf');
    expect(link.target).toBe('_blank');
    expect(link.rel).toBe('noopener noreferrer');
    expect(part(list[1]!, 'meta')!.textContent).toBe('application/pdf · 51 KB · March figures');

    // A non-web URI is text, with an opt-in read through the client.
    expect(list[2]!.querySelector('a')).toBeNull();
    expect(part(list[2]!, 'uri')!.textContent).toBe('mem://invoices/7-notes');
    expect(part(list[2]!, 'read-button')).not.toBeNull();

    // Media from a data: URL built from mimeType + data, exactly once.
    expect(part<HTMLImageElement>(list[3]!, 'image')!.getAttribute('src')).toBe(`data:image/png;base64,${png}`);
    expect(part<HTMLAudioElement>(list[4]!, 'audio')!.getAttribute('src')).toBe(`data:audio/wav;base64,${wav}`);
    expect(part<HTMLAudioElement>(list[4]!, 'audio')!.controls).toBe(true);

    // Embedded resources: text as text, binary as a size and a download.
    expect(part(list[5]!, 'resource-text')!.textContent).toBe('# Memo\n- first');
    expect(part(list[6]!, 'download-button')!.textContent).toContain('5 bytes');

    // The unknown block does not fail the result.
    expect(part(list[7]!, 'placeholder')!.textContent).toBe('Unsupported content (x-hologram)');
    expect(element.shadowRoot!.querySelectorAll('img')).toHaveLength(1);

    // Nothing was requested from the server just by showing the result.
    expect(methods).toEqual([]);
  });

  test('C19 an image whose data carries a data: URI prefix renders once, never with a doubled prefix; the caption still shows', async () => {
    const png = pngBase64();
    const element = await show({ content: [{ type: 'image', data: `data:image/png;base64,${png}`, mimeType: 'image/png' }, { type: 'text', text: 'the caption' }] });
    const src = part<HTMLImageElement>(element.shadowRoot!, 'image')!.getAttribute('src')!;
    expect(src).toBe(`data:image/png;base64,${png}`);
    expect(src.match(/data:/g)).toHaveLength(1);
    expect(part(element.shadowRoot!, 'text')!.textContent).toBe('the caption');
  });

  test('C19 an SVG image is not rendered as an image; a placeholder names its type', async () => {
    const svg = btoa('<svg xmlns="http://www.w3.org/2000/svg"><script>parent.__svg=1</script></svg>');
    const element = await show({ content: [{ type: 'image', data: svg, mimeType: 'image/svg+xml' }] });
    expect(element.shadowRoot!.querySelector('img')).toBeNull();
    expect(part(element.shadowRoot!, 'placeholder')!.textContent).toContain('image/svg+xml');
  });
});

describe('untrusted and broken content', () => {
  test('one malformed block never hides the others', async () => {
    const element = await show({
      content: [
        { type: 'text' } as never,
        { type: 'image', data: '%%%not base64%%%', mimeType: 'image/png' },
        null as never,
        { type: 'audio', data: 'AAAA', mimeType: 'audio/x-unknown' },
        { type: 'resource', resource: { uri: 'mem://x' } },
        { type: 'text', text: 'still here' },
      ],
    });
    const list = blocks(element);
    expect(list).toHaveLength(6);
    expect(list.slice(0, 5).map((b) => part(b, 'placeholder')?.textContent)).toEqual([
      'Malformed content: a text block without text',
      'Image not shown (image/png): the data is not valid base64.',
      'Malformed content: a content block without a type',
      'Audio not shown (audio/x-unknown): audio/x-unknown is not shown inline.',
      'Malformed content: resource mem://x has neither text nor blob',
    ]);
    expect(part(list[5]!, 'text')!.textContent).toBe('still here');
  });

  test('links open only for http(s): javascript: and file: URIs are text', async () => {
    const element = await show({
      content: [
        { type: 'resource_link', uri: 'javascript:alert(1)', name: 'click me' },
        { type: 'resource_link', uri: 'file:///etc/passwd', name: 'passwd' },
      ],
    });
    expect(element.shadowRoot!.querySelector('a')).toBeNull();
    expect([...element.shadowRoot!.querySelectorAll('[part~="uri"]')].map((e) => e.textContent)).toEqual(['javascript:alert(1)', 'file:///etc/passwd']);
  });

  test('very long text is cut with a button to show all of it', async () => {
    const long = 'x'.repeat(150_000);
    const element = await show({ content: [{ type: 'text', text: long }] });
    expect(part(element.shadowRoot!, 'text')!.textContent).toHaveLength(100_001);
    await userEvent.click(part(element.shadowRoot!, 'show-all-button')!);
    await element.updateComplete;
    expect(part(element.shadowRoot!, 'text')!.textContent).toBe(long);
  });

  test('an empty result says so', async () => {
    const element = await show({ content: [] });
    expect(part(element.shadowRoot!, 'empty')!.textContent).toBe('The tool returned no content.');
    expect(element.matches(':state(empty)')).toBe(true);
  });
});

describe('structured content and outputSchema', () => {
  const weather: Tool = {
    name: 'forecast',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { celsius: { type: 'number' }, sky: { type: 'string', enum: ['clear', 'overcast'] } }, required: ['celsius', 'sky'] },
  };

  test('a matching structuredContent is shown with "matches the outputSchema"', async () => {
    const element = await show({ content: [{ type: 'text', text: '{"celsius":21,"sky":"clear"}' }], structuredContent: { celsius: 21, sky: 'clear' } }, { tool: weather });
    await expect.poll(() => part(element.shadowRoot!, 'validation')?.dataset.status).toBe('valid');
    expect(JSON.parse(part(element.shadowRoot!, 'structured-json')!.textContent!)).toEqual({ celsius: 21, sky: 'clear' });
  });

  test('a mismatching structuredContent is flagged with the problems', async () => {
    const element = await show({ content: [], structuredContent: { celsius: 'warm', sky: 'green' } }, { tool: weather });
    await expect.poll(() => part(element.shadowRoot!, 'validation')?.dataset.status).toBe('invalid');
    expect(element.matches(':state(invalid)')).toBe(true);
    expect([...element.shadowRoot!.querySelectorAll('[part~="validation"] li code')].map((c) => c.textContent)).toEqual(['/celsius', '/sky']);
  });

  test('structuredContent may be any JSON value: an array renders', async () => {
    const element = await show({ content: [], structuredContent: [1, 'two', { three: 3 }, null] });
    expect(JSON.parse(part(element.shadowRoot!, 'structured-json')!.textContent!)).toEqual([1, 'two', { three: 3 }, null]);
  });

  test('an outputSchema without structuredContent is flagged', async () => {
    const element = await show({ content: [{ type: 'text', text: 'no data' }] }, { tool: weather });
    await expect.poll(() => part(element.shadowRoot!, 'validation')?.dataset.status).toBe('invalid');
    expect(part(element.shadowRoot!, 'validation')!.textContent).toContain('no structuredContent');
  });

  test('an isError result is styled as an error and not checked against the outputSchema', async () => {
    const element = await show({ content: [{ type: 'text', text: 'The city is unknown.' }], isError: true }, { tool: weather });
    expect(element.matches(':state(error)')).toBe(true);
    expect(part(element.shadowRoot!, 'error-label')!.textContent).toBe('The tool reported an error.');
    expect(part(element.shadowRoot!, 'validation')).toBeNull();
  });
});

describe('with the demo server', () => {
  test('a result from McpClient.callTool: media from the server and the client\'s own outputSchema check', async () => {
    const client = new McpClient(inject('demoServerUrl'));
    const media = await show((await client.callTool('make_media')) as CallToolResult, { client });
    expect(blocks(media).map((b) => b.dataset.type)).toEqual(['text', 'image', 'audio', 'resource_link']);
    const image = part<HTMLImageElement>(media.shadowRoot!, 'image')!;
    await expect.poll(() => image.complete && image.naturalWidth).toBeGreaterThan(0);
    const weather = await show((await client.callTool('get_weather', { city: 'Braga' })) as CallToolResult);
    // No .tool given: the validation the client attached to the result is used.
    await expect.poll(() => part(weather.shadowRoot!, 'validation')?.dataset.status).toBe('valid');
  });

  test('reading a linked resource is opt-in and goes through the client (resources/read)', async () => {
    const client = new McpClient(inject('demoServerUrl'));
    const reads: unknown[] = [];
    client.on('traffic', (event) => {
      const message = (event as { message?: { method?: string; params?: unknown } }).message;
      if (message?.method === 'resources/read') reads.push(message.params);
    });
    const element = await show({ content: [{ type: 'resource_link', uri: 'demo://readme', name: 'readme', mimeType: 'text/markdown' }] }, { client });
    expect(reads).toEqual([]);
    await userEvent.click(part(element.shadowRoot!, 'read-button')!);
    await expect.poll(() => part(element.shadowRoot!, 'read-contents')?.textContent ?? '').toContain('Demo server');
    expect(reads).toHaveLength(1);
    expect(part(element.shadowRoot!, 'resource-text')!.textContent).toMatch(/^# Demo server/);
  });

  test('a failed read is shown next to the link', async () => {
    const client = new McpClient(inject('demoServerUrl'));
    const element = await show({ content: [{ type: 'resource_link', uri: 'demo://nowhere/at/all', name: 'missing' }] }, { client });
    await userEvent.click(part(element.shadowRoot!, 'read-button')!);
    await expect.poll(() => part(element.shadowRoot!, 'read-error')?.textContent ?? '').toMatch(/Could not read demo:\/\/nowhere\/at\/all/);
  });
});

describe('a tool with an MCP App', () => {
  test('the app is shown above the content, which folds under "Result as text"; no-app shows the content only', async () => {
    const client = new McpClient(inject('demoServerUrl'));
    const tool = (await client.listTools()).find((t) => t.name === 'show_chart')!;
    const result = (await client.callTool('show_chart', { metric: 'sales', days: 4 })) as CallToolResult;
    const element = document.createElement('mcp-tool-result');
    element.result = result;
    element.tool = tool;
    element.client = client;
    element.arguments = { metric: 'sales', days: 4 };
    const ready = new Promise<Event>((resolve) => element.addEventListener('mcp-app-ready', resolve, { once: true }));
    document.body.append(element);
    await ready;
    const frame = part<import('../mcp-app-frame/mcp-app-frame.js').McpAppFrame>(element.shadowRoot!, 'app')!;
    expect(frame.localName).toBe('mcp-app-frame');
    expect(frame.result).toBe(result);
    expect(frame.arguments).toEqual({ metric: 'sales', days: 4 });
    const fallback = part<HTMLDetailsElement>(element.shadowRoot!, 'app-fallback')!;
    expect(fallback.open).toBe(false);
    expect(fallback.textContent).toContain('sales for 4 days');

    element.noApp = true;
    await element.updateComplete;
    expect(part(element.shadowRoot!, 'app')).toBeNull();
    expect(part(element.shadowRoot!, 'app-fallback')).toBeNull();
    expect(blocks(element)[0]!.textContent).toContain('sales for 4 days');
  });

  test('without a client, or for a tool without a UI resource, there is no app', async () => {
    const client = new McpClient(inject('demoServerUrl'));
    const tools = await client.listTools();
    const noClient = await show({ content: [{ type: 'text', text: 'x' }] }, { tool: tools.find((t) => t.name === 'show_chart')! });
    expect(part(noClient.shadowRoot!, 'app')).toBeNull();
    const plain = await show({ content: [{ type: 'text', text: 'y' }] }, { tool: tools.find((t) => t.name === 'create_ticket')!, client });
    expect(part(plain.shadowRoot!, 'app')).toBeNull();
    expect(part(plain.shadowRoot!, 'app-fallback')).toBeNull();
  });
});
