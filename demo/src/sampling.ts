/**
 * A tiny deterministic stand-in for a model, so the demo's sampling requests
 * get a draft without an API key: it answers with the first sentence of the
 * last user message, cut to the token limit (about four characters a token).
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '../../src/index.js';

export async function deterministicDraft(params: CreateMessageRequestParams): Promise<CreateMessageResult> {
  const last = [...params.messages].reverse().find((m) => m.role === 'user');
  const blocks = last ? (Array.isArray(last.content) ? last.content : [last.content]) : [];
  const text = blocks.map((b) => (b.type === 'text' ? String((b as { text: string }).text) : '')).join(' ');
  const body = text.replace(/^[^:]*:\s*/, '');
  const sentence = (body.match(/[^.!?]+[.!?]?/)?.[0] ?? body).trim();
  return { role: 'assistant', content: { type: 'text', text: sentence.slice(0, params.maxTokens * 4) || 'OK.' }, model: 'demo-echo-model', stopReason: 'endTurn' };
}
