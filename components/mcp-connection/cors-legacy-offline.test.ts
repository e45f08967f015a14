/**
 * A page whose server refuses the 2026-07-28 headers in its CORS preflight,
 * while the legacy era's chunk (src/legacy/session.ts, which holds the
 * fallback) cannot load: the connect still fails with the probe's `cors` error
 * and its diagnosis, not with the failed import (which says nothing about
 * CORS). Back online, the same client connects with the legacy handshake.
 * Runs in its own page, so the legacy chunk has not loaded before.
 */
import { expect, inject, test } from 'vitest';
import { McpClient, MemoryEraCache, type McpError } from '../../src/index.js';
import { offlineImport } from '../test-support/lazy-imports.js';

const legacyChunk = offlineImport(/legacy\/session/, true);
const lab = inject('wireLab');

test('the legacy chunk cannot load after a CORS-refused probe: the error is the probe\'s cors error with its diagnosis; back online the legacy handshake connects', async () => {
  const client = new McpClient(lab.legacyStrict, { eraCache: new MemoryEraCache(), onWarning: () => {} });
  try {
    const error = (await client.connect().catch((e: unknown) => e)) as McpError;
    expect(legacyChunk.attempts).toBe(1);
    expect(error.code).toBe('cors');
    expect(error.data).toMatchObject({ method: 'server/discover', cors: { origin: location.origin, requestHeaders: expect.arrayContaining(['Mcp-Method']) } });

    legacyChunk.offline = false;
    const connected = await client.connect();
    expect(connected.era).toBe('legacy');
  } finally {
    await client.close();
  }
});
