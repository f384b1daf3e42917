import { describe, expect, it } from 'vitest';
import type { ModelMessage, ModelRequest } from '../model';
import { validateChatRequest } from '../node/fakeOpenAIValidate';
import type { CapabilityInfo } from '../registry';
import { buildOpenAIRequest, estimateTokens, OPENAI_NOTES, toolNameMap } from './request';

const info = (name: string, title: string): CapabilityInfo =>
  ({ name, title, description: `${title}.`, kind: 'read', inputSchema: { type: 'object', properties: {} }, annotations: {}, source: 'ts' }) as unknown as CapabilityInfo;

const request = (messages: ModelMessage[], extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages,
  capabilities: [info('records.list', 'List records'), info('records_list', 'Another list')],
  signal: new AbortController().signal,
  ...extra,
});

describe('buildOpenAIRequest', () => {
  it('names tools within the API pattern, a clash numbered, and maps them back', () => {
    const { body, toolNames } = buildOpenAIRequest(request([{ role: 'user', text: 'hi' }]), { model: 'm' });
    const names = body.tools.map((t) => t.function.name);
    expect(names.slice(3)).toEqual(['records_list', 'records_list_2']);
    expect(toolNames.get('records_list')).toBe('records.list');
    expect(toolNames.get('records_list_2')).toBe('records_list');
    expect(toolNameMap(['a.b', 'a_b'])).toEqual(new Map([['a_b', 'a.b'], ['a_b_2', 'a_b']]));
    expect(validateChatRequest(body as never)).toBeNull();
  });

  it('puts the reply limit in the field asked for, and none by default', () => {
    const messages: ModelMessage[] = [{ role: 'user', text: 'hi' }];
    expect(buildOpenAIRequest(request(messages), { model: 'm' }).body).not.toHaveProperty('max_completion_tokens');
    expect(buildOpenAIRequest(request(messages), { model: 'm', maxTokens: 300 }).body).toMatchObject({ max_completion_tokens: 300 });
    expect(buildOpenAIRequest(request(messages), { model: 'm', maxTokens: 300, maxTokensField: 'max_tokens' }).body).toMatchObject({ max_tokens: 300 });
  });

  it('joins consecutive user messages (chat templates want turns to alternate), the turn context before the user\'s words', () => {
    const { body } = buildOpenAIRequest(
      request([
        { role: 'user', text: 'first' },
        { role: 'tool', capability: 'records.list', title: 'List records', args: {}, result: { content: [{ type: 'text', text: '3 records.' }] } },
        { role: 'user', text: 'second' },
      ]),
      { model: 'm' },
    );
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    const text = body.messages[1]!.content as string;
    expect(text.startsWith('first\n\n[List records was run directly by the user with {}.]\n3 records.\n\n<intent_router')).toBe(true);
    expect(text.endsWith('second')).toBe(true);
  });

  it('a result with an image names it in words (a tool message takes text only)', () => {
    const { body } = buildOpenAIRequest(
      request([
        { role: 'user', text: 'chart' },
        { role: 'assistant', text: '', calls: [{ id: 'call_1', capability: 'records.list', args: {} }] },
        { role: 'tool', call_id: 'call_1', capability: 'records.list', title: 'List records', args: {}, result: { content: [{ type: 'text', text: 'A chart.' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] } },
      ]),
      { model: 'm' },
    );
    expect(body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'A chart.\n[image image/png]' });
    expect(validateChatRequest(body as never)).toBeNull();
  });

  it('keeps the tools, the system message and the thread the same bytes from one turn to the next', () => {
    const one: ModelMessage[] = [{ role: 'user', text: 'hi' }, { role: 'assistant', text: 'Hello.' }];
    const a = buildOpenAIRequest(request([...one.slice(0, 1)]), { model: 'm' }).body;
    const b = buildOpenAIRequest(request([...one, { role: 'user', text: 'again' }]), { model: 'm' }).body;
    expect(JSON.stringify(b.tools)).toBe(JSON.stringify(a.tools));
    expect(b.messages[0]).toEqual(a.messages[0]);
  });

  it('leaves the oldest whole turns out to fit, says so, and never the current turn', () => {
    const history: ModelMessage[] = Array.from({ length: 10 }, (_, i): ModelMessage[] => [
      { role: 'user', text: `question ${i} ${'x'.repeat(400)}` },
      { role: 'assistant', text: '', calls: [{ id: `call_${i}`, capability: 'records.list', args: {} }] },
      { role: 'tool', call_id: `call_${i}`, capability: 'records.list', title: 'List records', args: {}, result: { content: [{ type: 'text', text: 'ok' }] } },
    ]).flat();
    const full = buildOpenAIRequest(request([...history, { role: 'user', text: 'now' }]), { model: 'm' });
    const budget = estimateTokens(full.body) - 600;
    const { body, trimmedTurns } = buildOpenAIRequest(request([...history, { role: 'user', text: 'now' }]), { model: 'm', contextTokens: budget });
    expect(trimmedTurns).toBe(4);
    expect(estimateTokens(body)).toBeLessThanOrEqual(budget);
    expect(body.messages[1]!.content).toContain(OPENAI_NOTES.trimmed);
    expect((body.messages.at(-1)!.content as string).endsWith('now')).toBe(true);
    expect(validateChatRequest(body as never)).toBeNull();
  });
});
