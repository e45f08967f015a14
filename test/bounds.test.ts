/**
 * Issue 19, hostile servers against the core's bounds: listings that never end
 * (item 2) and rounds that ask for input a thousand times (item 6). Raw
 * node:http servers, because a real server SDK cannot be made to misbehave so.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { McpClient, type JsonObject, type McpWarning } from '../src/index.js';
import { startRawServer } from './support/servers.js';

/** Answers server/discover; everything else goes to `reply`. */
function serverWith(reply: (body: any, res: ServerResponse) => void | Promise<void>) {
  return startRawServer(async (req, res) => {
    if (req.json?.method === 'server/discover') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: req.json.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {}, resources: {} } } }));
      return;
    }
    await reply(req.json, res);
  });
}

const json = (res: ServerResponse, id: number, result: unknown) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
};
const tool = (name: string, extra: JsonObject = {}) => ({ name, inputSchema: { type: 'object' }, ...extra });

function collect(): { warnings: McpWarning[]; options: { protocol: 'modern'; onWarning: (w: McpWarning) => void } } {
  const warnings: McpWarning[] = [];
  return { warnings, options: { protocol: 'modern', onWarning: (w) => warnings.push(w) } };
}

describe('listings are bounded (issue 19, item 2)', () => {
  /** 1,000 pages of 1,000 fresh tools, each page with a fresh cursor: a million tools if followed. */
  function endlessCatalogue() {
    return serverWith((request, res) => {
      const page = request.params?.cursor === undefined ? 0 : Number(String(request.params.cursor).slice(5));
      const key = request.method === 'resources/list' ? 'resources' : 'tools';
      const items = Array.from({ length: 1000 }, (_, i) =>
        key === 'tools' ? tool(`t${page}_${i}`) : { uri: `file:///r/${page}/${i}`, name: `r${page}_${i}` },
      );
      json(res, request.id, { [key]: items, ...(page < 999 ? { nextCursor: `page-${page + 1}` } : {}) });
    });
  }

  test('a million tools over a thousand fresh cursors: the first 10,000 are kept, with a warning, after 10 pages', async () => {
    const raw = await endlessCatalogue();
    try {
      const { warnings, options } = collect();
      const tools = await new McpClient(raw.url, options).listTools();
      expect(tools).toHaveLength(10_000);
      expect(tools[0]!.name).toBe('t0_0');
      expect(tools.at(-1)!.name).toBe('t9_999');
      // The client stopped asking: no page after the cap was requested.
      expect(raw.bodies().filter((b) => b.method === 'tools/list')).toHaveLength(10);
      expect(warnings.filter((w) => w.code === 'list-truncated').map((w) => w.message)).toEqual([
        'tools/list listed over 10000 items; kept the first 10000 (see maxListItems)',
      ]);
    } finally {
      await raw.close();
    }
  });

  test('maxListItems raises or lowers the cap, for every list method; a page bigger than the cap is cut', async () => {
    const raw = await endlessCatalogue();
    try {
      const { warnings, options } = collect();
      const client = new McpClient(raw.url, { ...options, maxListItems: 2500 });
      expect(await client.listTools()).toHaveLength(2500);
      expect((await client.listResources()).map((r) => r.uri).at(-1)).toBe('file:///r/2/499');
      expect(raw.bodies().filter((b) => b.method === 'resources/list')).toHaveLength(3);
      const small = await new McpClient(raw.url, { ...options, maxListItems: 10 }).listTools();
      expect(small.map((t) => t.name)).toEqual(Array.from({ length: 10 }, (_, i) => `t0_${i}`));
      expect(warnings.filter((w) => w.code === 'list-truncated').map((w) => w.message)).toEqual([
        'tools/list listed over 2500 items; kept the first 2500 (see maxListItems)',
        'resources/list listed over 2500 items; kept the first 2500 (see maxListItems)',
        'tools/list listed over 10 items; kept the first 10 (see maxListItems)',
      ]);
    } finally {
      await raw.close();
    }
  });

  test('one item per page and fresh cursors forever: a typed error after 500 pages (the default page cap)', async () => {
    let n = 0;
    const raw = await serverWith((request, res) => json(res, request.id, { tools: [tool(`t${n}`)], nextCursor: `next-${n++}` }));
    try {
      const error = await new McpClient(raw.url, collect().options).listTools().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'pagination', message: 'tools/list did not finish within 500 pages' });
      expect(raw.bodies().filter((b) => b.method === 'tools/list')).toHaveLength(500);
    } finally {
      await raw.close();
    }
  });

  test('a real-sized catalogue (235 tools, one per page) fits the defaults', async () => {
    const raw = await serverWith((request, res) => {
      const page = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
      json(res, request.id, { tools: [tool(`tool_${page}`)], ...(page < 234 ? { nextCursor: String(page + 1) } : {}) });
    });
    try {
      const { warnings, options } = collect();
      expect(await new McpClient(raw.url, options).listTools()).toHaveLength(235);
      expect(warnings).toEqual([]);
    } finally {
      await raw.close();
    }
  });

  test('an item repeated 100,000 times is kept once, with one warning, not 100,000', async () => {
    const raw = await serverWith((request, res) => json(res, request.id, { tools: [tool('a'), ...Array.from({ length: 100_000 }, () => tool('same')), tool('b'), tool('a')] }));
    try {
      const { warnings, options } = collect();
      expect((await new McpClient(raw.url, options).listTools()).map((t) => t.name)).toEqual(['a', 'same', 'b']);
      expect(warnings.map((w) => [w.code, w.message])).toEqual([['duplicate-list-item', 'tools/list repeated items 100000 time(s) (first "same"); kept the first of each']]);
    } finally {
      await raw.close();
    }
  });
});
