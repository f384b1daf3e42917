import OpenAI, { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, validateChatRequest, type FakeOpenAI } from './fakeOpenAI';

let fake: FakeOpenAI | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const user = { role: 'user', content: 'hi' };
const call = (id: string, name = 'records_list') => ({ id, type: 'function', function: { name, arguments: '{}' } });
const tool = (name: string, parameters: unknown = { type: 'object', properties: {} }) => ({ type: 'function', function: { name, description: 'x', parameters } });

describe('the OpenAI fake refuses what the API refuses, in its words', () => {
  const cases: [string, Record<string, unknown>, { status: number; message: string; param: string | null; code: string | null }][] = [
    ['no model', { messages: [user] }, { status: 400, message: 'you must provide a model parameter', param: null, code: null }],
    ['an unknown model', { model: 'gpt-other', messages: [user] }, { status: 404, message: 'The model `gpt-other` does not exist or you do not have access to it.', param: null, code: 'model_not_found' }],
    ['no messages', { model: 'gpt-fake' }, { status: 400, message: "Missing required parameter: 'messages'.", param: 'messages', code: 'missing_required_parameter' }],
    ['an unknown role', { model: 'gpt-fake', messages: [{ role: 'bot', content: 'x' }] }, { status: 400, message: "Invalid value: 'bot'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", param: 'messages[0].role', code: 'invalid_value' }],
    [
      'a tool message whose id no preceding call carries',
      { model: 'gpt-fake', messages: [user, { role: 'assistant', content: null, tool_calls: [call('call_a')] }, { role: 'tool', tool_call_id: 'call_x', content: 'r' }] },
      { status: 400, message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", param: 'messages.[2].role', code: null },
    ],
    [
      'a tool message after a user message',
      { model: 'gpt-fake', messages: [user, { role: 'assistant', content: null, tool_calls: [call('call_a')] }, { role: 'tool', tool_call_id: 'call_a', content: 'r' }, user, { role: 'tool', tool_call_id: 'call_a', content: 'again' }] },
      { status: 400, message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", param: 'messages.[4].role', code: null },
    ],
    [
      'a call left unanswered before the next user message',
      { model: 'gpt-fake', messages: [user, { role: 'assistant', content: null, tool_calls: [call('call_a'), call('call_b')] }, { role: 'tool', tool_call_id: 'call_a', content: 'r' }, user] },
      { status: 400, message: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_b", param: 'messages.[1].role', code: null },
    ],
    [
      'a call left unanswered at the end',
      { model: 'gpt-fake', messages: [user, { role: 'assistant', content: null, tool_calls: [call('call_a')] }] },
      { status: 400, message: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_a", param: 'messages.[1].role', code: null },
    ],
    [
      'a function name the pattern refuses',
      { model: 'gpt-fake', messages: [user], tools: [tool('records.list')] },
      { status: 400, message: "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", param: 'tools[0].function.name', code: 'invalid_value' },
    ],
    [
      'parameters that are not an object schema',
      { model: 'gpt-fake', messages: [user], tools: [tool('ok'), tool('bad', { type: 'string' })] },
      { status: 400, message: 'Invalid schema for function \'bad\': schema must be a JSON Schema of \'type: "object"\', got \'type: "string"\'.', param: 'tools[1].function.parameters', code: 'invalid_function_parameters' },
    ],
    ['an empty tools list', { model: 'gpt-fake', messages: [user], tools: [] }, { status: 400, message: "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.", param: 'tools', code: 'empty_array' }],
    [
      'an assistant message with neither content nor calls',
      { model: 'gpt-fake', messages: [user, { role: 'assistant', content: null }, user] },
      { status: 400, message: "Invalid value for 'content': expected a string, got null.", param: 'messages.[1].content', code: null },
    ],
    [
      'tool arguments as an object instead of a JSON string',
      { model: 'gpt-fake', messages: [user, { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }] }, { role: 'tool', tool_call_id: 'c', content: 'r' }] },
      { status: 400, message: "Invalid type for 'messages[1].tool_calls[0].function.arguments': expected a string, but got an object instead.", param: 'messages[1].tool_calls[0].function.arguments', code: 'invalid_type' },
    ],
  ];

  it.each(cases)('%s: answered with the API\'s status and error shape, through the SDK', async (_name, body, expected) => {
    fake = await startFakeOpenAI();
    const client = new OpenAI({ apiKey: fake.apiKey!, baseURL: fake.url, maxRetries: 0 });
    const error = await client.chat.completions.create(body as never).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    const api = error as APIError;
    expect(api.status).toBe(expected.status);
    expect(api.error).toEqual({ message: expected.message, type: 'invalid_request_error', param: expected.param, code: expected.code });
    expect(fake.requests[0]!.rejected).toBe(expected.status === 400);
  });

  it('takes a valid conversation: calls each answered right after, then more text', () => {
    expect(
      validateChatRequest({
        model: 'gpt-fake',
        tools: [tool('records_list')],
        messages: [
          { role: 'system', content: 's' },
          user,
          { role: 'assistant', content: 'Two checks.', tool_calls: [call('call_a'), call('call_b')] },
          { role: 'tool', tool_call_id: 'call_b', content: 'b' },
          { role: 'tool', tool_call_id: 'call_a', content: 'a' },
          { role: 'assistant', content: 'Done.' },
          user,
        ],
      }),
    ).toBeNull();
  });

  it('401 without the key, as the API words it', async () => {
    fake = await startFakeOpenAI();
    const client = new OpenAI({ apiKey: 'sk-wrong-0000', baseURL: fake.url, maxRetries: 0 });
    const error = (await client.chat.completions.create({ model: 'gpt-fake', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(401);
    expect(error.code).toBe('invalid_api_key');
  });
});

describe('the OpenAI fake streams the documented chunks', () => {
  it('role, content and tool-call deltas, the finish reason, the usage chunk, then [DONE]', async () => {
    fake = await startFakeOpenAI({ reply: () => ({ text: 'Two words', toolCalls: [{ id: 'call_1', name: 'f', arguments: { a: 1 } }], argumentPieces: 2 }) });
    const response = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-fake', messages: [user], stream: true, stream_options: { include_usage: true } }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const lines = (await response.text()).split('\n\n').filter(Boolean);
    expect(lines.at(-1)).toBe('data: [DONE]');
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l.replace(/^data: /, '')));
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === chunks[0].id)).toBe(true);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(chunks.slice(1, 3).map((c) => c.choices[0].delta.content)).toEqual(['Two ', 'words']);
    expect(chunks[3].choices[0].delta.tool_calls).toEqual([{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }]);
    expect(chunks.slice(4, 6).map((c) => c.choices[0].delta.tool_calls[0].function.arguments).join('')).toBe('{"a":1}');
    expect(chunks[6].choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
    expect(chunks[7]).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), prompt_tokens_details: { cached_tokens: 0 } } });
    expect(chunks.slice(0, 7).every((c) => c.usage === null)).toBe(true);
  });
});
