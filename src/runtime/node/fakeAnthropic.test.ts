import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from './fakeAnthropic';
import { createPromptCache } from './fakeAnthropicCache';

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const body = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  model: 'claude-sonnet-5-5',
  max_tokens: 100,
  system: [{ type: 'text', text: 'S'.repeat(4000), cache_control: { type: 'ephemeral' } }],
  messages,
  ...extra,
});

describe('the fake Messages API', () => {
  it('accepts the key as x-api-key or as a Bearer token, and answers 401 with an Anthropic error body otherwise', async () => {
    fake = await startFakeAnthropic({ apiKey: 'k1' });
    const post = (headers: Record<string, string>) =>
      fetch(`${fake!.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body([{ role: 'user', content: 'hi' }])) });
    expect((await post({ 'x-api-key': 'k1' })).status).toBe(200);
    expect((await post({ authorization: 'Bearer k1' })).status).toBe(200);
    const refused = await post({ 'x-api-key': 'wrong' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    expect(fake.requests.map((r) => r.authorized)).toEqual([true, true, false]);
    expect(fake.requests[0]!.bytes).toBe(Buffer.byteLength(fake.requests[0]!.raw));
  });

  it('streams server-sent events in the API\'s order', async () => {
    fake = await startFakeAnthropic({ reply: () => ({ content: [{ type: 'text', text: 'Hi there' }, { type: 'tool_use', name: 'x', input: { a: 1 }, id: 'toolu_1' }] }) });
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST', headers: { 'x-api-key': fake.apiKey }, body: JSON.stringify(body([{ role: 'user', content: 'hi' }], { stream: true })),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = [...(await res.text()).matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expect(events).toEqual([
      'message_start',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
  });

  it('refuses more than 4 cache breakpoints, as the API does', async () => {
    fake = await startFakeAnthropic();
    const marked = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST', headers: { 'x-api-key': fake.apiKey }, body: JSON.stringify(body([{ role: 'user', content: [marked, marked, marked, marked] }])),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('A maximum of 4 blocks with cache_control may be provided. Found 5.');
  });
});

describe("Anthropic's prefix-cache rule", () => {
  const user = (text: string, marked = false) => ({ role: 'user', content: [{ type: 'text', text, ...(marked ? { cache_control: { type: 'ephemeral' } } : {}) }] });
  const assistant = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] });

  it('writes the prefix up to the last breakpoint, then reads it when a later request starts the same', () => {
    const cache = createPromptCache({ minTokens: 100 });
    const first = cache.account(body([user('one', true), user('tail')]));
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBeGreaterThan(1000);
    expect(first.input_tokens).toBeLessThan(20);

    const second = cache.account(body([user('one'), assistant('two'), user('three', true), user('tail')]));
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(second.input_tokens + second.cache_creation_input_tokens + second.cache_read_input_tokens).toBe(second.total_tokens);
  });

  it('misses from the first changed byte on, ignoring where the markers sit', () => {
    const cache = createPromptCache({ minTokens: 100 });
    cache.account(body([user('one', true)]));
    const changed = cache.account({ ...body([user('one', true)]), system: [{ type: 'text', text: `${'S'.repeat(3999)}T`, cache_control: { type: 'ephemeral' } }] });
    expect(changed.cache_read_input_tokens).toBe(0);
    const moved = cache.account(body([user('one'), assistant('two'), user('x', true)]));
    expect(moved.cache_read_input_tokens).toBeGreaterThan(1000);
  });

  it('writes nothing below the minimum size, and looks back at most 20 blocks', () => {
    const small = createPromptCache({ minTokens: 5000 });
    small.account(body([user('one', true)]));
    expect(small.size).toBe(0);

    const cache = createPromptCache({ minTokens: 100 });
    cache.account(body([user('start', true)]));
    const many = Array.from({ length: 21 }, (_, i) => (i % 2 ? assistant(`a${i}`) : user(`u${i}`)));
    const far = cache.account(body([user('start'), ...many, user('end', true)]));
    const near = cache.account(body([user('start'), ...many.slice(0, 5), user('end', true)]));
    const systemOnly = cache.account(body([user('other', true)])).cache_read_input_tokens;
    expect(systemOnly).toBeGreaterThan(1000);
    expect(far.cache_read_input_tokens).toBe(systemOnly);
    expect(near.cache_read_input_tokens).toBeGreaterThan(systemOnly);
  });
});
