import { describe, expect, it } from 'vitest';
import type { ModelMessage } from '../model';
import { resourceSources } from './resourceSources';

const tool = (content: unknown[], isError = false): ModelMessage => ({ role: 'tool', call_id: 'c1', capability: 'docs.find', title: 'Find docs', args: {}, result: { content: content as never, ...(isError ? { isError } : {}) } });
const link = (uri: string, extra: Record<string, unknown> = {}) => ({ type: 'resource_link', uri, name: 'report.pdf', ...extra });

describe('resourceSources', () => {
  it('the resource links of the results since the model last spoke become sources of its reply, without a span', () => {
    const messages: ModelMessage[] = [
      { role: 'user', text: 'Find the report' },
      tool([link('https://example.com/old')]),
      { role: 'assistant', text: 'Looking.', calls: [] },
      tool([{ type: 'text', text: 'Found one.' }, link('https://example.com/report', { title: 'Q3 report', description: 'The third quarter.' })]),
      tool([link('file:///tmp/notes.txt')]),
    ];
    expect(resourceSources(messages)).toEqual([
      { source: { kind: 'resource', title: 'Q3 report', url: 'https://example.com/report' }, cited_text: 'The third quarter.' },
      { source: { kind: 'resource', title: 'report.pdf', url: 'file:///tmp/notes.txt' }, cited_text: '' },
    ]);
  });

  it('none when the model spoke last, and none from a failed result', () => {
    expect(resourceSources([{ role: 'user', text: 'hi' }])).toEqual([]);
    expect(resourceSources([{ role: 'user', text: 'hi' }, tool([link('https://example.com/x')], true)])).toEqual([]);
  });
});
