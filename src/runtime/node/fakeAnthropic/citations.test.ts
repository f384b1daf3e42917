import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from '../fakeAnthropic';

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const HEADERS = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
const body = (content: unknown[], extra: Record<string, unknown> = {}) => ({ model: 'claude-sonnet-5-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content }], ...extra });

async function post(payload: unknown) {
  const res = await fetch(`${fake!.url}/v1/messages`, { method: 'POST', headers: { ...HEADERS, 'x-api-key': fake!.apiKey }, body: JSON.stringify(payload) });
  return { status: res.status, text: await res.text() };
}

/** The SSE events of a response, parsed. */
const events = (text: string): { event: string; data: any }[] => [...text.matchAll(/^event: (\S+)\ndata: (.*)$/gm)].map((m) => ({ event: m[1]!, data: JSON.parse(m[2]!) }));

const ask = { type: 'text', text: 'What colour is the grass?' };
const textDoc = (citations?: unknown) => ({
  type: 'document',
  source: { type: 'text', media_type: 'text/plain', data: 'The grass is green. The sky is blue.' },
  title: 'Nature guide',
  ...(citations === undefined ? {} : { citations }),
});
const pdfDoc = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'Report', citations: { enabled: true } };
const contentDoc = { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'First point.' }, { type: 'text', text: 'Second point.' }] }, citations: { enabled: true } };
const searchResult = (enabled = true) => ({ type: 'search_result', source: 'https://example.com/grass', title: 'Grass', content: [{ type: 'text', text: 'Grass is green.' }], citations: { enabled } });

const cited: FakeReply = {
  content: [
    { type: 'text', text: 'According to the guide, ' },
    { type: 'text', text: 'the grass is green', citations: [{ document: 0 }] },
    { type: 'text', text: '.' },
  ],
};

describe('the fake Messages API: citations', () => {
  it('streams a cited block as the API does: citations_delta quoting the document, then the text; the final block carries them', async () => {
    fake = await startFakeAnthropic({ reply: () => cited });
    const res = await post(body([textDoc({ enabled: true }), ask]));
    expect(res.status).toBe(200);
    const list = events(res.text);
    const block1 = list.filter((e) => e.data.index === 1).map((e) => e.data.delta?.type ?? e.event);
    expect(block1).toEqual(['content_block_start', 'citations_delta', 'text_delta', 'text_delta', 'text_delta', 'text_delta', 'content_block_stop']);
    expect(list.find((e) => e.data.delta?.type === 'citations_delta')!.data.delta.citation).toEqual({
      type: 'char_location',
      cited_text: 'The grass is green.',
      document_index: 0,
      document_title: 'Nature guide',
      start_char_index: 0,
      end_char_index: 19,
      file_id: null,
    });
    const json = JSON.parse((await post(body([textDoc({ enabled: true }), ask], { stream: false }))).text);
    expect(json.content[1]).toEqual({ type: 'text', text: 'the grass is green', citations: [expect.objectContaining({ type: 'char_location', cited_text: 'The grass is green.' })] });
    expect(json.content[0]).toEqual({ type: 'text', text: 'According to the guide, ' });
  });

  it('quotes pages of a PDF, blocks of a custom-content document and of a search result', async () => {
    fake = await startFakeAnthropic({
      reply: () => ({
        content: [{ type: 'text', text: 'All of it.', citations: [{ document: 0, pages: [2, 3] }, { document: 1, blocks: [1, 2] }, { search_result: 0 }] }],
      }),
    });
    const res = await post(body([pdfDoc, contentDoc, searchResult(), ask]));
    expect(res.status).toBe(200);
    const citations = events(res.text).filter((e) => e.data.delta?.type === 'citations_delta').map((e) => e.data.delta.citation);
    expect(citations).toEqual([
      { type: 'page_location', cited_text: 'Text of page 2.', document_index: 0, document_title: 'Report', start_page_number: 2, end_page_number: 3, file_id: null },
      { type: 'content_block_location', cited_text: 'Second point.', document_index: 1, document_title: null, start_block_index: 1, end_block_index: 2 },
      { type: 'search_result_location', cited_text: 'Grass is green.', search_result_index: 0, source: 'https://example.com/grass', title: 'Grass', start_block_index: 0, end_block_index: 1 },
    ]);
  });

  it('finds search results inside tool results', async () => {
    fake = await startFakeAnthropic({ reply: () => ({ content: [{ type: 'text', text: 'Green.', citations: [{ search_result: 0 }] }] }) });
    const payload = {
      model: 'claude-sonnet-5-5',
      max_tokens: 100,
      stream: true,
      messages: [
        { role: 'user', content: [ask] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [searchResult()] }] },
      ],
    };
    const res = await post(payload);
    expect(events(res.text).filter((e) => e.data.delta?.type === 'citations_delta')).toHaveLength(1);
  });

  it('cites nothing when the request carries no source with citations on (the model could not)', async () => {
    fake = await startFakeAnthropic({ reply: () => cited });
    for (const content of [[ask], [textDoc(), ask], [textDoc({ enabled: false }), ask]]) {
      const res = await post(body(content));
      expect(res.status).toBe(200);
      expect(events(res.text).filter((e) => e.data.delta?.type === 'citations_delta')).toEqual([]);
    }
  });

  it('rejects, as the API does, citations asked for on a block that cannot have them, and mixed settings', async () => {
    fake = await startFakeAnthropic({ reply: () => cited });
    const rejected = async (content: unknown[]) => {
      const res = await post(body(content));
      expect(res.status).toBe(400);
      const error = JSON.parse(res.text);
      expect(error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      return error.error.message as string;
    };
    expect(await rejected([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' }, citations: { enabled: true } }, ask])).toBe(
      'messages.0.content.0.image.citations: Extra inputs are not permitted',
    );
    expect(await rejected([{ ...ask, citations: { enabled: true } }])).toBe('messages.0.content.0.text.citations: Input should be a valid list');
    expect(await rejected([textDoc({ enabled: 'yes' }), ask])).toBe('messages.0.content.0.document.citations.enabled: Input should be a valid boolean');
    expect(await rejected([{ ...textDoc({ enabled: true }), source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } }, ask])).toBe(
      "messages.0.content.0.document.source.base64.media_type: Input should be 'application/pdf'",
    );
    expect(await rejected([textDoc({ enabled: true }), textDoc(), ask])).toMatch(/^Citations must be enabled on all or none of the documents in a request: 1 of 2/);
    expect(await rejected([searchResult(true), searchResult(false), ask])).toMatch(/^Citations must be enabled on all or none of the search results in a request/);
    expect(await rejected([{ type: 'search_result', source: 's', title: 't', content: [] }, ask])).toMatch(/search_result\.content: List should have at least 1 item/);
    expect(fake.requests.every((r) => r.status === 400)).toBe(true);
  });

  it('takes documents cited and not cited as long as each kind is all or none', async () => {
    fake = await startFakeAnthropic({ reply: () => cited });
    expect((await post(body([textDoc({ enabled: true }), pdfDoc, searchResult(false), ask]))).status).toBe(200);
  });
});
