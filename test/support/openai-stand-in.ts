/**
 * A local OpenAI-compatible Chat Completions endpoint for tests: the only
 * fake in the chat tests, since no real model is reachable (and a paid one
 * would not be scripted). It answers `POST <base>/chat/completions` from a
 * script of replies, one per request in order, as JSON or, when the request
 * says `stream: true`, as the SSE chunks real providers send (text deltas, and
 * tool calls with their arguments split over several chunks, then `[DONE]`).
 * With the script empty it echoes the last user message ("Echo: …").
 *
 * Pages drive it over HTTP (CORS open to any origin): `POST /__script` appends
 * replies (a JSON array), `GET /__requests` lists the request bodies received,
 * `POST /__release` sends a held reply's rest, `POST /__reset` empties both.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listen, readBody } from './http.js';

/** One scripted reply. */
export interface ScriptedReply {
  /** Text of the assistant message (streamed in `chunks` pieces). */
  text?: string;
  /** Tool calls the assistant makes (`arguments` as an object or JSON text). */
  toolCalls?: { id?: string; name: string; arguments: unknown }[];
  /** Answer with this HTTP status and an OpenAI-style error body instead. */
  status?: number;
  error?: string;
  /** How many pieces the text and each call's arguments are streamed in; default 3. */
  chunks?: number;
  /**
   * Streamed replies: the text's last piece (and the end of the stream) is held
   * until `release()` (or `POST /__release`), so a test sees the earlier pieces
   * arrive on their own, with no timing.
   */
  hold?: boolean;
  /** Streamed replies: these exact bytes as the SSE body instead (a malformed stream, a cut one). */
  raw?: string;
}

export interface OpenAiStandIn {
  /** The API base, e.g. `http://127.0.0.1:1234/v1`. */
  baseUrl: string;
  origin: string;
  /** Request bodies received, in order. */
  requests: any[];
  /** Authorization headers received, in order. */
  authorizations: (string | undefined)[];
  script(...replies: ScriptedReply[]): void;
  /** Sends the held rest of the current `hold` reply (one release per held reply; a release before the hold is kept). */
  release(): void;
  /** Settles once a `hold` reply has sent its first pieces and waits. */
  held(): Promise<void>;
  close(): Promise<void>;
}

const split = (text: string, pieces: number): string[] => {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
};

function lastUserText(body: any): string {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const last = [...messages].reverse().find((message) => message.role === 'user');
  if (!last) return '';
  return typeof last.content === 'string' ? last.content : (last.content ?? []).map((part: any) => part.text ?? '').join(' ');
}

export async function startOpenAiStandIn(): Promise<OpenAiStandIn> {
  const queue: ScriptedReply[] = [];
  const requests: any[] = [];
  const authorizations: (string | undefined)[] = [];
  let nextId = 1;
  // Releases given and holds waiting, in order: a release that comes first is kept for the next hold.
  let releases = 0;
  const waiting: (() => void)[] = [];
  const holding: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else releases++;
  };
  const hold = () =>
    new Promise<void>((resolve) => {
      holding.splice(0).forEach((notify) => notify());
      if (releases > 0) {
        releases--;
        resolve();
      } else waiting.push(resolve);
    });

  const cors = (res: ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'content-type, authorization');
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
  };
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  };

  const answer = async (req: IncomingMessage, res: ServerResponse, body: any) => {
    requests.push(body);
    authorizations.push(req.headers.authorization);
    const reply: ScriptedReply = queue.shift() ?? { text: `Echo: ${lastUserText(body)}` };
    if (reply.status) return json(res, reply.status, { error: { message: reply.error ?? 'scripted error', type: 'invalid_request_error' } });
    const id = `chatcmpl-${nextId++}`;
    const model = typeof body?.model === 'string' ? body.model : 'stand-in';
    const calls = (reply.toolCalls ?? []).map((call, index) => ({
      id: call.id ?? `call_${id}_${index}`,
      type: 'function' as const,
      function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
    }));
    const finish = calls.length ? 'tool_calls' : 'stop';
    if (!body?.stream) {
      return json(res, 200, {
        id,
        object: 'chat.completion',
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) }, finish_reason: finish }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    if (reply.raw !== undefined) return void res.end(reply.raw);
    const chunk = (delta: unknown, finishReason: string | null = null) =>
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`);
    const pieces = reply.chunks ?? 3;
    chunk({ role: 'assistant', content: '' });
    if (reply.text) {
      const parts = split(reply.text, pieces);
      for (const [i, piece] of parts.entries()) {
        if (reply.hold && i === parts.length - 1) await hold();
        chunk({ content: piece });
      }
    }
    calls.forEach((call, index) => {
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
      for (const piece of split(call.function.arguments, pieces)) chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    });
    chunk({}, finish);
    res.end('data: [DONE]\n\n');
  };

  const server = createServer(async (req, res) => {
    cors(res);
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/__requests') return json(res, 200, requests);
    const text = req.method === 'POST' ? await readBody(req) : '';
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return json(res, 400, { error: { message: 'invalid JSON' } });
    }
    if (path === '/__script') {
      queue.push(...(Array.isArray(body) ? body : [body]));
      return json(res, 200, { queued: queue.length });
    }
    if (path === '/__reset') {
      queue.length = 0;
      requests.length = 0;
      authorizations.length = 0;
      return json(res, 200, {});
    }
    if (path === '/__release') {
      release();
      return json(res, 200, {});
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') return answer(req, res, body);
    json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
  });
  const origin = await listen(server);
  return {
    baseUrl: `${origin}/v1`,
    origin,
    requests,
    authorizations,
    script: (...replies) => void queue.push(...replies),
    release,
    held: () => (waiting.length ? Promise.resolve() : new Promise<void>((resolve) => holding.push(resolve))),
    close: () => closeServer(server),
  };
}
