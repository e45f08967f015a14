/**
 * How the transport bounds a JSON body (`maxBodyBytes`): the declared length is
 * checked first, and the bytes are counted as they come, decoded. A compressed
 * body's Content-Length is not its decoded size: a small gzip that decodes past
 * the cap is refused (a shortcut that trusted the declared length would let it
 * through), and bodies with and without a declared length are read exactly.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { McpClient } from '../src/index.js';
import { readBodyText } from '../src/transport/transport.js';
import { startRawServer } from './support/servers.js';

const discover = (id: unknown, padding: string) => JSON.stringify({ jsonrpc: '2.0', id, result: { supportedVersions: ['2026-07-28'], capabilities: {}, padding } });

describe('reading a JSON body within maxBodyBytes', () => {
  test('a gzip body of a few hundred bytes that decodes past the cap is refused, typed (its Content-Length is not its size)', async () => {
    const raw = await startRawServer((req, res) => {
      const body = gzipSync(discover(req.json.id, 'x'.repeat(200_000)));
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(body.length) });
      res.end(body);
    });
    try {
      const error = await new McpClient(raw.url, { protocol: 'modern', maxBodyBytes: 10_000, onWarning: () => {} }).connect().catch((e) => e);
      expect(error).toMatchObject({ name: 'McpClientError', code: 'too_large', data: { limit: 10_000 } });
    } finally {
      await raw.close();
    }
  });

  test('a gzip body within the cap, and plain bodies with and without a declared length, are read exactly', async () => {
    const padding = 'é'.repeat(3000);
    const raw = await startRawServer((req, res) => {
      const text = discover(req.json.id, padding);
      const mode = req.headers['x-mode'];
      if (mode === 'gzip') {
        const body = gzipSync(text);
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(body.length) });
        res.end(body);
      } else if (mode === 'chunked') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(text.slice(0, 100));
        res.end(text.slice(100));
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
        res.end(text);
      }
    });
    try {
      for (const mode of ['gzip', 'chunked', 'length']) {
        const client = new McpClient(raw.url, { protocol: 'modern', headers: { 'X-Mode': mode }, onWarning: () => {} });
        await client.connect();
        expect(client.server?.era).toBe('modern');
        const response = await fetch(raw.url, { method: 'POST', headers: { 'X-Mode': mode }, body: JSON.stringify({ id: 1 }) });
        expect(JSON.parse(await readBodyText(response, 1_000_000, { url: raw.url })).result.padding).toBe(padding);
        await client.close();
      }
    } finally {
      await raw.close();
    }
  });

  test('a declared length over the cap is refused before reading', async () => {
    const response = new Response('x'.repeat(2000), { headers: { 'Content-Length': '2000' } });
    await expect(readBodyText(response, 1000, { url: 'http://example.test/mcp' })).rejects.toMatchObject({ code: 'too_large', data: { limit: 1000 } });
  });
});
