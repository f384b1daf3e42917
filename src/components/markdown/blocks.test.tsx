import { describe, expect, it } from 'vitest';
import { completePartialBlock, endsInOpenFence, splitBlocks } from './blocks';
import { safeUrl } from './safeUrl';

describe('splitBlocks', () => {
  it('splits on blank lines but never inside a fenced code block', () => {
    expect(splitBlocks('# Title\n\nSome text\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter')).toEqual([
      '# Title',
      'Some text',
      '```js\nconst a = 1;\n\nconst b = 2;\n```',
      'After',
    ]);
  });

  it('keeps an indented continuation with the list item above it', () => {
    expect(splitBlocks('1. One\n\n   more about one\n\nNext')).toEqual(['1. One\n\n   more about one', 'Next']);
  });

  it('keeps earlier blocks identical as text is appended (what lets them skip re-rendering)', () => {
    const first = splitBlocks('Para one\n\nPara tw');
    const second = splitBlocks('Para one\n\nPara two is longer');
    expect(second[0]).toBe(first[0]);
  });

  it('returns no blocks for empty text', () => {
    expect(splitBlocks('')).toEqual([]);
  });
});

describe('completePartialBlock', () => {
  it('closes unfinished bold, strikethrough and inline code', () => {
    expect(completePartialBlock('Some **bold')).toBe('Some **bold**');
    expect(completePartialBlock('Some ~~gone')).toBe('Some ~~gone~~');
    expect(completePartialBlock('Run `npm t')).toBe('Run `npm t`');
  });

  it('holds back a marker with nothing after it yet', () => {
    expect(completePartialBlock('Some **')).toBe('Some ');
    expect(completePartialBlock('Run `')).toBe('Run ');
  });

  it('closes a single-star emphasis but not a multiplication', () => {
    expect(completePartialBlock('An *important')).toBe('An *important*');
    expect(completePartialBlock('2 * 3')).toBe('2 * 3');
  });

  it('shows a half-typed link as its label', () => {
    expect(completePartialBlock('See [the docs](https://exa')).toBe('See the docs');
    expect(completePartialBlock('See [the do')).toBe('See the do');
  });

  it('does not turn the line above into a heading while a dash line is still arriving', () => {
    expect(completePartialBlock('Title\n-')).toBe('Title');
  });

  it('leaves an open code fence alone and ignores markers inside code', () => {
    expect(endsInOpenFence('```\ncode **')).toBe(true);
    expect(completePartialBlock('```\ncode **')).toBe('```\ncode **');
    expect(completePartialBlock('`a**b` and more')).toBe('`a**b` and more');
  });
});

describe('safeUrl', () => {
  it('keeps http, https, mailto, tel and relative addresses', () => {
    for (const url of ['https://example.com/a?b=1', 'http://x.y', 'mailto:ada@example.com', 'tel:+441234', '/records/42', '#top', '?q=1', 'page.html']) {
      expect(safeUrl(url)).toBe(url);
    }
  });

  it('drops javascript:, data: and vbscript:, also when disguised with case or control characters', () => {
    for (const url of ['javascript:alert(1)', 'JavaScript:alert(1)', 'java\tscript:alert(1)', ' javascript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:msgbox']) {
      expect(safeUrl(url)).toBe('');
    }
  });
});
