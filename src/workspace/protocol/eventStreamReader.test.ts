import { describe, expect, it } from 'vitest';
import { createEventStreamReader, type SseMessage } from './eventStreamReader';

/** Events and retries in the order the stream gave them; a retry shows as `{ data: '', retry }`. */
type Read = SseMessage & { retry?: number };

function reader(out: Read[]): (chunk: string) => void {
  return createEventStreamReader({ onEvent: (m) => out.push(m), onRetry: (retry) => out.push({ data: '', retry }) });
}

function readAll(chunks: string[]): Read[] {
  const out: Read[] = [];
  const feed = reader(out);
  for (const chunk of chunks) feed(chunk);
  return out;
}

describe('createEventStreamReader', () => {
  it('frames id, event and data, and skips comments', () => {
    expect(readAll(['retry: 1000\n\n: keep-alive\n\nid: 3\nevent: message.delta\ndata: {"seq":3}\n\n'])).toEqual([
      { data: '', retry: 1000 },
      { id: '3', event: 'message.delta', data: '{"seq":3}' },
    ]);
  });

  it('joins multi-line data and accepts \\r\\n and \\r line ends, even split across chunks', () => {
    expect(readAll(['data: one\r', '\ndata: two\r\r', 'data:three\n', '\n'])).toEqual([{ data: 'one\ntwo' }, { data: 'three' }]);
  });

  it('waits for the end of an event that arrives in pieces', () => {
    const out: Read[] = [];
    const feed = reader(out);
    feed('id: 7\nda');
    feed('ta: {"a"');
    expect(out).toEqual([]);
    feed(':1}\n\n');
    expect(out).toEqual([{ id: '7', data: '{"a":1}' }]);
  });

  it('ignores unknown fields, a bad retry and an id with NUL', () => {
    expect(readAll(['foo: bar\nretry: soon\nid: a\u0000b\ndata: x\n\n'])).toEqual([{ data: 'x' }]);
  });
});
