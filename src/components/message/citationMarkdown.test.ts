import { describe, expect, it } from 'vitest';
import type { ReplySource } from '../../runtime/fold';
import { citationMarkdown } from './citationMarkdown';

const source = (n: number, ...ranges: [number, number][]): ReplySource => ({
  n,
  source: { kind: 'document', title: `Doc ${n}` },
  cited_text: 'x',
  ranges: ranges.map(([start, end]) => ({ start, end })),
  seq: n,
});
const span = (text: string, part: string): [number, number] => [text.indexOf(part), text.indexOf(part) + part.length];

describe('citationMarkdown', () => {
  it('puts a marker link after each cited span, several after one span in number order', () => {
    const text = 'The grass is green and the sky is blue.';
    expect(citationMarkdown(text, [source(1, span(text, 'The grass is green')), source(2, span(text, 'the sky is blue'))])).toBe(
      'The grass is green[1](#chatsurface-source-1) and the sky is blue[2](#chatsurface-source-2).',
    );
    expect(citationMarkdown(text, [source(2, span(text, 'the sky is blue')), source(1, span(text, 'the sky is blue'))])).toBe(
      'The grass is green and the sky is blue[1](#chatsurface-source-1)[2](#chatsurface-source-2).',
    );
  });

  it('leaves the text alone without spans (a resource link, a span not streamed yet)', () => {
    expect(citationMarkdown('Hi.', [source(1)])).toBe('Hi.');
    expect(citationMarkdown('Hi.', [source(1, [0, 10])])).toBe('Hi.');
  });

  it('stands after the last word of a span, not after its trailing space or line break', () => {
    expect(citationMarkdown('- one\n- two', [source(1, [0, 6])])).toBe('- one[1](#chatsurface-source-1)\n- two');
  });

  it('keeps code, bare URLs, images and escapes as they were', () => {
    const fenced = 'See:\n```\ncode here\n```\nafter';
    expect(citationMarkdown(fenced, [source(1, span(fenced, 'code here'))])).toBe('See:\n```\ncode here\n```[1](#chatsurface-source-1)\nafter');
    const inline = 'Run `npm test` now';
    expect(citationMarkdown(inline, [source(1, [0, 8])])).toBe('Run `npm test`[1](#chatsurface-source-1) now');
    expect(citationMarkdown('See https://example.com', [source(1, [0, 23])])).toBe('See https://example.com [1](#chatsurface-source-1)');
    expect(citationMarkdown('Wow!', [source(1, [0, 4])])).toBe('Wow!\u200b[1](#chatsurface-source-1)');
  });
});
