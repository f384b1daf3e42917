import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from './sseParser';

function parseAll(chunks: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parse = createSseParser((m) => out.push(m));
  for (const chunk of chunks) parse(chunk);
  return out;
}

describe('createSseParser', () => {
  it('frames id, event and data, and skips comments', () => {
    expect(parseAll(['retry: 1000\n\n: keep-alive\n\nid: 3\nevent: message.delta\ndata: {"seq":3}\n\n'])).toEqual([
      { data: '', retry: 1000 },
      { id: '3', event: 'message.delta', data: '{"seq":3}' },
    ]);
  });

  it('joins multi-line data and accepts \\r\\n and \\r line ends, even split across chunks', () => {
    expect(parseAll(['data: one\r', '\ndata: two\r\r', 'data:three\n', '\n'])).toEqual([{ data: 'one\ntwo' }, { data: 'three' }]);
  });

  it('waits for the end of an event that arrives in pieces', () => {
    const out: SseMessage[] = [];
    const parse = createSseParser((m) => out.push(m));
    parse('id: 7\nda');
    parse('ta: {"a"');
    expect(out).toEqual([]);
    parse(':1}\n\n');
    expect(out).toEqual([{ id: '7', data: '{"a":1}' }]);
  });

  it('ignores unknown fields, a bad retry and an id with NUL', () => {
    expect(parseAll(['foo: bar\nretry: soon\nid: a\u0000b\ndata: x\n\n'])).toEqual([{ data: 'x' }]);
  });
});
