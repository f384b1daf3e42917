import { describe, expect, it } from 'vitest';
import { completePartialBlock, endsInOpenFence, firstSyntaxAfter, plainHeadLength, splitBlocks } from './blocks';
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

describe('plainHeadLength', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${String(i % 1000).padStart(3, '0')}`).join('');

  it('cuts a long paragraph with a plain start at a multiple of 512 before its first syntax character', () => {
    expect(plainHeadLength(words(512) + '**END**')).toBe(1536);
    expect(plainHeadLength(words(2000) + '**END**')).toBe(7680);
    // A `<` inside the line is no syntax: the syntax after it decides the cut, which still never
    // makes the rest start with it (on a line of its own it would start HTML).
    expect(plainHeadLength(words(512) + 'x<<END>> **x**')).toBe(2048);
    expect(plainHeadLength(words(512) + '<<END>> **x**')).toBe(1536);
  });

  it('keeps in the parsed part what a construct looks back at: an email address, a bare link and the character before it', () => {
    const spaced = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    expect(plainHeadLength(words(300) + 'ada@example.com')).toBe(0); // the address could start anywhere in the letters
    expect(plainHeadLength(spaced + ' https://example.com')).toBe(1024);
    expect(plainHeadLength(spaced.slice(0, 1024) + 'xhttps://example.com')).toBe(512);
  });

  it('parses it all when the paragraph is short, spans lines, starts a block or has nothing to parse', () => {
    expect(plainHeadLength('short *b*')).toBe(0);
    expect(plainHeadLength(words(300) + '\nnext *line*')).toBe(0);
    expect(plainHeadLength('# ' + words(300) + '*')).toBe(0);
    expect(plainHeadLength(words(300))).toBe(0);
  });

  it('never cuts before a space or something that would start a block of its own', () => {
    const text = 'a'.repeat(1023) + ' - b'.repeat(10) + '*x*';
    expect(plainHeadLength(text)).toBe(512);
  });
});

describe('firstSyntaxAfter', () => {
  it('finds the first syntax character of a grown block, also one that straddles the old end', () => {
    expect(firstSyntaxAfter('see http:/', -1, 'see http://x')).toBe(8);
    expect(firstSyntaxAfter('go ww', -1, 'go www.x')).toBe(3);
    expect(firstSyntaxAfter('a *b', 2, 'a *b* and _c_')).toBe(2);
    expect(firstSyntaxAfter('plain', -1, 'plain and more')).toBe(-1);
    // An autolink's scheme, started long before the colon that makes it one.
    expect(firstSyntaxAfter('write to <mailtoxxxxxxxxxxxxxxxxxx', -1, 'write to <mailtoxxxxxxxxxxxxxxxxxx:a>')).toBe(9);
    // A `<` inside a line is no syntax, also where the new text starts.
    expect(firstSyntaxAfter('a ', -1, 'a <b> c')).toBe(-1);
    expect(firstSyntaxAfter('', -1, '<b> c')).toBe(0);
    // Not grown from the previous text (another block): looked at whole.
    expect(firstSyntaxAfter('plain', -1, 'other *x*')).toBe(6);
  });
});
