/**
 * What the transport sends once more when a connection is reset before any answer
 * (`./transport.ts`, `HttpTransport.post`), loaded only when that happens:
 * which requests are harmless to send twice, and the error of one that is not sent again.
 *
 * @module
 */
import { McpClientError } from '../protocol/errors.js';

/**
 * JSON-RPC requests that change nothing at the server when sent twice: reads, and the
 * requests whose repetition the spec makes harmless (`tasks/cancel`; `tasks/update`,
 * whose answered keys are ignored, ext-tasks "Task Update Requests"; `logging/setLevel`,
 * a level set again). `tools/call` is not among them: a tool may have effects, and the
 * only say on that is the server's (`annotations.idempotentHint`, which is not trusted).
 */
const REPEATABLE = new Set([
  'ping',
  'server/discover',
  'tools/list',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'logging/setLevel',
  'subscriptions/listen',
  'tasks/get',
  'tasks/list',
  'tasks/result',
  'tasks/cancel',
  'tasks/update',
]);

/**
 * After a reset before any answer: sends a POST once more when `repeatable` (true, or a
 * JSON-RPC method in {@link REPEATABLE}); otherwise, or when it is reset again, fails with
 * `network` saying so (`data.resent`).
 */
export async function ifRepeatable(repeatable: boolean | string | undefined, send: () => Promise<Response>, fail: (error: unknown) => McpClientError, error: unknown): Promise<Response> {
  let resent = false;
  if (repeatable === true || (typeof repeatable === 'string' && REPEATABLE.has(repeatable))) {
    resent = true;
    try {
      return await send();
    } catch (again) {
      error = again;
    }
  }
  const failure = fail(error);
  const reset = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  if (failure.code !== 'network' || (resent && !['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'].includes(reset as string))) throw failure;
  const why = resent ? 'it was reset again when sent once more' : 'it was not sent again, as the server may have received it';
  throw new McpClientError('network', `${failure.message} The connection was reset before any answer; ${why}.`, { ...failure.data, resent }, { cause: error });
}
