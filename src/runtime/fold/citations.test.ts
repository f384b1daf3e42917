import { describe, expect, it } from 'vitest';
import { parseThreadEvent } from '../events';
import { foldAll, initialThreadState, type AssistantRow } from '../fold';

const created = { type: 'message.created', seq: 1, ts: 1, message_id: 'm1', role: 'assistant', text: '' };
const text = { type: 'message.delta', seq: 2, ts: 2, message_id: 'm1', delta: 'The grass is green. The sky is blue.' };
const guide = { kind: 'document', title: 'Nature guide', index: 0 } as const;
const cite = (seq: number, start: number, end: number, citedText = 'The grass is green.', location = { unit: 'char', start: 0, end: 20 }) => ({
  type: 'message.cited',
  seq,
  ts: seq,
  message_id: 'm1',
  citation: { source: guide, cited_text: citedText, location, range: { start, end } },
});

const rowOf = (events: unknown[]) => foldAll(initialThreadState, events).rows.find((r): r is AssistantRow => r.kind === 'assistant')!;

describe('message.cited', () => {
  it('numbers the sources a reply cites, each with its passage, location and the spans citing it', () => {
    const row = rowOf([created, text, cite(3, 0, 19), cite(4, 20, 36, 'The sky is blue.', { unit: 'char', start: 20, end: 37 })]);
    expect(row.citations).toEqual([
      { n: 1, source: guide, cited_text: 'The grass is green.', location: { unit: 'char', start: 0, end: 20 }, ranges: [{ start: 0, end: 19 }], seq: 3 },
      { n: 2, source: guide, cited_text: 'The sky is blue.', location: { unit: 'char', start: 20, end: 37 }, ranges: [{ start: 20, end: 36 }], seq: 4 },
    ]);
  });

  it('the same passage cited again keeps its number and gains the span; a replayed event adds nothing', () => {
    const row = rowOf([created, text, cite(3, 0, 19), cite(4, 20, 36), cite(4, 20, 36)]);
    expect(row.citations).toHaveLength(1);
    expect(row.citations![0]).toMatchObject({ n: 1, ranges: [{ start: 0, end: 19 }, { start: 20, end: 36 }] });
  });

  it('numbers by seq whatever the arrival order, and a citation before the row makes the row', () => {
    const late = rowOf([cite(4, 20, 36, 'The sky is blue.'), cite(3, 0, 19), created, text]);
    expect(late.citations!.map((s) => [s.n, s.cited_text])).toEqual([
      [1, 'The grass is green.'],
      [2, 'The sky is blue.'],
    ]);
    expect(late.text).toBe('The grass is green. The sky is blue.');
  });

  it('a source of the whole reply (a resource link) has no span', () => {
    const link = { type: 'message.cited', seq: 3, ts: 3, message_id: 'm1', citation: { source: { kind: 'resource', title: 'Report', url: 'https://example.com/r' }, cited_text: '' } };
    expect(rowOf([created, text, link]).citations).toEqual([{ n: 1, source: { kind: 'resource', title: 'Report', url: 'https://example.com/r' }, cited_text: '', ranges: [], seq: 3 }]);
  });

  it('rejects what is not plain, bounded text', () => {
    const bad = (citation: unknown) => parseThreadEvent({ type: 'message.cited', seq: 3, ts: 3, message_id: 'm1', citation });
    expect(bad({ source: guide, cited_text: 'x'.repeat(4001) })).toMatchObject({ ok: false });
    expect(bad({ source: { kind: 'document', title: { html: '<b>x</b>' } }, cited_text: 'x' })).toMatchObject({ ok: false });
    expect(bad({ source: { kind: 'html' }, cited_text: 'x' })).toMatchObject({ ok: false });
    expect(bad({ source: guide, cited_text: 'x', range: { start: -1, end: 2 } })).toMatchObject({ ok: false });
    expect(bad({ source: guide, cited_text: 'x', location: { unit: 'page', start: 1, end: 2 } })).toMatchObject({ ok: true });
  });
});
