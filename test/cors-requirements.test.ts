/**
 * What a server must allow and expose for a page to reach it is stated once in
 * the kit: CORS_REQUIREMENTS in src/transport/cors.ts (its errors and the CORS
 * doctor read it). The bridge is such a server, but it may import nothing from
 * outside bridge/ (test/architecture.test.ts), so bridge/guard.ts keeps its own
 * lists; this test holds them to the kit's, so that a header the kit starts to
 * send or read cannot be left out of the bridge's answers.
 */
import { expect, test } from 'vitest';
import { ALLOWED_REQUEST_HEADERS, EXPOSED_RESPONSE_HEADERS, preflightHeaders } from '../bridge/guard.js';
import { CORS_REQUIREMENTS } from '../src/transport/cors.js';

const PAGE = 'http://localhost:5173';
const lower = (names: readonly string[]) => names.map((name) => name.toLowerCase());
const eras = [CORS_REQUIREMENTS.modern, CORS_REQUIREMENTS.legacy];
// Pages authenticate to the bridge with its bearer token; OAuth's DPoP proofs and nonces never go there.
const OAUTH_ONLY = new Set(['dpop', 'dpop-nonce']);

test('the bridge allows every request header of either era, each Mcp-Param-* as the preflight asks for it', () => {
  const required = lower(eras.flatMap((era) => era.allowHeaders)).filter((name) => name !== 'mcp-param-*' && !OAUTH_ONLY.has(name));
  expect(lower(ALLOWED_REQUEST_HEADERS)).toEqual(expect.arrayContaining(required));
  const answer = preflightHeaders(PAGE, { 'access-control-request-headers': 'content-type, mcp-param-region' });
  expect(lower(answer['Access-Control-Allow-Headers']!.split(', '))).toEqual(expect.arrayContaining([...required, 'mcp-param-region']));
});

test('the bridge exposes every response header the kit reads, and allows the methods beyond GET and POST', () => {
  const exposed = lower(eras.flatMap((era) => era.exposeHeaders)).filter((name) => !OAUTH_ONLY.has(name));
  expect(lower(EXPOSED_RESPONSE_HEADERS)).toEqual(expect.arrayContaining(exposed));
  const methods = preflightHeaders(PAGE, {})['Access-Control-Allow-Methods']!.split(', ');
  expect(methods).toEqual(expect.arrayContaining(eras.flatMap((era) => era.allowMethods)));
});
