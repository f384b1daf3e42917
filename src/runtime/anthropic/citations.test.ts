import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import { createEventLog } from '../eventLog';
import type { EventOf } from '../events';
import { foldAll, initialThreadState, type AssistantRow } from '../fold';
import { invoke } from '../invoke';
import { startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from '../node/fakeAnthropic';
import { createRegistry } from '../registry';
import { takeTurn } from '../turn';
import { createAnthropicDriver } from './driver';

let fake: FakeAnthropic | null = null;
let server: Server | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** Serves one recorded response stream, event by event, as the API sends it. */
async function recorded(events: Record<string, unknown>[]): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const data of events) res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const start = (index: number) => ({ type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } });
const text = (index: number, t: string) => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } });
const cite = (index: number, citation: Record<string, unknown>) => ({ type: 'content_block_delta', index, delta: { type: 'citations_delta', citation } });
const stop = (index: number) => ({ type: 'content_block_stop', index });

/** A reply citing a plain-text document, a PDF, a custom-content document, a search result and a web result, recorded in the API's format. */
const STREAM = [
  { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-5-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } },
  start(0), text(0, 'According to the guide, '), stop(0),
  start(1), cite(1, { type: 'char_location', cited_text: 'The grass is green. ', document_index: 0, document_title: 'Nature guide', start_char_index: 0, end_char_index: 20, file_id: null }), text(1, 'the grass '), text(1, 'is green'), stop(1),
  start(2), text(2, ' and '), stop(2),
  // The citation may come after the text it belongs to.
  start(3), text(3, 'the sky is blue'), cite(3, { type: 'page_location', cited_text: 'The sky is blue.', document_index: 1, document_title: 'Report', start_page_number: 3, end_page_number: 4, file_id: null }), stop(3),
  start(4), text(4, '; '), stop(4),
  start(5), cite(5, { type: 'content_block_location', cited_text: 'Rain falls.', document_index: 2, document_title: null, start_block_index: 1, end_block_index: 2 }), text(5, 'rain falls'), stop(5),
  start(6), text(6, ', '), stop(6),
  start(7), cite(7, { type: 'search_result_location', cited_text: 'Snow is white.', search_result_index: 0, source: 'https://example.com/snow', title: 'Snow', start_block_index: 0, end_block_index: 1 }), text(7, 'snow is white'), stop(7),
  start(8), text(8, ' and '), stop(8),
  start(9), cite(9, { type: 'web_search_result_location', cited_text: 'Ice is cold.', url: 'https://example.org/ice', title: 'Ice', encrypted_index: 'abc' }), cite(9, { type: 'char_location', cited_text: 'Ice is cold.', document_index: 0, document_title: 'Nature guide', start_char_index: 40, end_char_index: 52, file_id: null }), text(9, 'ice is cold'), stop(9),
  start(10), text(10, '.'), stop(10),
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 30 } },
  { type: 'message_stop' },
];

describe('the Anthropic driver reads citations', () => {
  it('from a recorded stream: each citation of every type is attached to the span of the text block it came with', async () => {
    const baseURL = await recorded(STREAM);
    const driver = createAnthropicDriver({ apiKey: 'sk-any', baseURL, maxRetries: 0 });
    const log = createEventLog();
    await takeTurn({ driver, capabilities: [], history: [], emit: log.emit, invoke: () => Promise.reject(new Error('no calls')), text: 'Tell me about nature.' });
    const events = log.since();
    const row = foldAll(initialThreadState, events).rows.find((r): r is AssistantRow => r.kind === 'assistant')!;
    expect(row.text).toBe('According to the guide, the grass is green and the sky is blue; rain falls, snow is white and ice is cold.');
    const cited = events.filter((e): e is EventOf<'message.cited'> => e.type === 'message.cited');
    expect(cited.map((e) => row.text.slice(e.citation.range!.start, e.citation.range!.end))).toEqual([
      'the grass is green',
      'the sky is blue',
      'rain falls',
      'snow is white',
      'ice is cold',
      'ice is cold',
    ]);
    // Each after the text it cites.
    for (const e of cited) {
      const shown = events.filter((x) => x.seq < e.seq && x.type === 'message.delta').map((x) => (x as EventOf<'message.delta'>).delta).join('');
      expect(shown.length).toBeGreaterThanOrEqual(e.citation.range!.end);
    }
    expect(cited.map((e) => ({ ...e.citation, range: undefined }))).toEqual([
      { source: { kind: 'document', title: 'Nature guide', index: 0 }, cited_text: 'The grass is green. ', location: { unit: 'char', start: 0, end: 20 }, range: undefined },
      { source: { kind: 'document', title: 'Report', index: 1 }, cited_text: 'The sky is blue.', location: { unit: 'page', start: 3, end: 4 }, range: undefined },
      { source: { kind: 'document', index: 2 }, cited_text: 'Rain falls.', location: { unit: 'block', start: 1, end: 2 }, range: undefined },
      { source: { kind: 'search_result', title: 'Snow', url: 'https://example.com/snow', index: 0 }, cited_text: 'Snow is white.', location: { unit: 'block', start: 0, end: 1 }, range: undefined },
      { source: { kind: 'web', title: 'Ice', url: 'https://example.org/ice' }, cited_text: 'Ice is cold.', range: undefined },
      { source: { kind: 'document', title: 'Nature guide', index: 0 }, cited_text: 'Ice is cold.', location: { unit: 'char', start: 40, end: 52 }, range: undefined },
    ]);
    expect(row.citations!.map((s) => s.n)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('leaves out a citation type it does not know, and cuts what is too long', async () => {
    const long = 'x'.repeat(5000);
    const baseURL = await recorded([
      STREAM[0]!,
      start(0), cite(0, { type: 'future_location', cited_text: 'Later.' }), cite(0, { type: 'char_location', cited_text: long, document_index: 0, document_title: 't'.repeat(600), start_char_index: 0, end_char_index: 5000, file_id: null }), text(0, 'Cited.'), stop(0),
      ...STREAM.slice(-2),
    ]);
    const log = createEventLog();
    await takeTurn({ driver: createAnthropicDriver({ apiKey: 'sk-any', baseURL, maxRetries: 0 }), capabilities: [], history: [], emit: log.emit, invoke: () => Promise.reject(new Error('no calls')), text: 'hi' });
    const cited = log.since().filter((e): e is EventOf<'message.cited'> => e.type === 'message.cited');
    expect(cited).toHaveLength(1);
    expect(cited[0]!.citation.cited_text).toHaveLength(4000);
    expect(cited[0]!.citation.source.title).toHaveLength(500);
    expect(cited[0]!.citation.range).toEqual({ start: 0, end: 6 });
  });
});

describe('the Anthropic driver with citations on, against the contract fake', () => {
  const registry = createRegistry([
    defineCapability({
      name: 'records.list', title: 'List records', description: 'Lists the records.', input: z.object({}),
      handler: () => ({
        ...textResult('You have 3 records.\n\nThe oldest is from May.'),
        content: [
          { type: 'text', text: 'You have 3 records.\n\nThe oldest is from May.' },
          { type: 'resource_link', uri: 'https://example.com/records', name: 'records', title: 'All records' },
        ],
      }),
    }),
  ]);
  const lastIsToolResult = (request: RecordedRequest) => request.body.messages.at(-1)?.content[0]?.type === 'tool_result';

  async function turn(citations: boolean) {
    fake = await startFakeAnthropic({
      reply: (request) =>
        lastIsToolResult(request)
          ? { content: [{ type: 'text', text: 'There are ' }, { type: 'text', text: '3 records', citations: [{ search_result: 0 }] }, { type: 'text', text: ', the oldest from May.', citations: [{ search_result: 0, blocks: [1, 2] }] }] }
          : { content: [{ type: 'tool_use', name: 'records_list', input: {} }] },
    });
    const driver = createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url, citations });
    const log = createEventLog();
    await takeTurn({
      driver, capabilities: registry.describe(), history: [], emit: log.emit, alignment: 'loose', text: 'How many records?',
      invoke: (capability, args, turnId) => invoke(capability, args, { registry, emit: log.emit, threadKey: 't1', turnId }),
    });
    return foldAll(initialThreadState, log.since()).rows.filter((r): r is AssistantRow => r.kind === 'assistant').at(-1)!;
  }

  it('sends capability results as citable search results, and the reply shows the sources it cites', async () => {
    const row = await turn(true);
    expect(fake!.requests.map((r) => r.status)).toEqual([200, 200]);
    const result = fake!.requests[1]!.body.messages.at(-1).content[0];
    expect(result.content[0]).toEqual({
      type: 'search_result',
      source: 'records.list',
      title: 'List records',
      content: [{ type: 'text', text: 'You have 3 records.' }, { type: 'text', text: 'The oldest is from May.\nAll records' }],
      citations: { enabled: true },
    });
    expect(row.text).toBe('There are 3 records, the oldest from May.');
    expect(row.citations).toEqual([
      { n: 1, source: { kind: 'search_result', title: 'List records', url: 'records.list', index: 0 }, cited_text: 'You have 3 records.', location: { unit: 'block', start: 0, end: 1 }, ranges: [{ start: 10, end: 19 }], seq: expect.any(Number) },
      { n: 2, source: { kind: 'search_result', title: 'List records', url: 'records.list', index: 0 }, cited_text: 'The oldest is from May.\nAll records', location: { unit: 'block', start: 1, end: 2 }, ranges: [{ start: 19, end: 41 }], seq: expect.any(Number) },
      // The result's MCP resource link: a source of the reply as a whole, after those it cites.
      { n: 3, source: { kind: 'resource', title: 'All records', url: 'https://example.com/records' }, cited_text: '', ranges: [], seq: expect.any(Number) },
    ]);
  });

  it('with citations off, results go as text and the reply cites nothing (its resource links are still its sources)', async () => {
    const row = await turn(false);
    expect(fake!.requests[1]!.body.messages.at(-1).content[0].content[0].type).toBe('text');
    expect(row.citations).toEqual([{ n: 1, source: { kind: 'resource', title: 'All records', url: 'https://example.com/records' }, cited_text: '', ranges: [], seq: expect.any(Number) }]);
    expect(row.text).toBe('There are 3 records, the oldest from May.');
  });
});
