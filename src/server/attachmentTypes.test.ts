import { describe, expect, it } from 'vitest';
import { looksLikeCsv, sizeInWords, sniffStart, textTypeOf } from './attachmentTypes';

const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));

describe('what a file is, from its first bytes', () => {
  it('names the allow list’s binary kinds by their magic numbers', () => {
    expect(sniffStart(bytes([0x89], 'PNG\r\n', [0x1a, 0x0a, 0]))).toMatchObject({ kind: 'binary', mediaType: 'image/png' });
    expect(sniffStart(bytes([0xff, 0xd8, 0xff, 0xe0]))).toMatchObject({ mediaType: 'image/jpeg' });
    expect(sniffStart(bytes('GIF89a', [1, 0]))).toMatchObject({ mediaType: 'image/gif' });
    expect(sniffStart(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))).toMatchObject({ mediaType: 'image/webp' });
    expect(sniffStart(bytes('%PDF-1.7\n'))).toMatchObject({ mediaType: 'application/pdf' });
  });

  it('names what it refuses in words', () => {
    expect(sniffStart(bytes('MZ', [0x90, 0, 3, 0]))).toMatchObject({ label: 'a Windows program (.exe or .dll)' });
    expect(sniffStart(bytes([0x7f], 'ELF', [2, 1]))).toMatchObject({ label: 'a Linux program' });
    expect(sniffStart(bytes('PK', [3, 4, 20, 0]))).toMatchObject({ mediaType: 'application/zip' });
    expect(sniffStart(bytes([0, 1, 2, 3, 4, 5]))).toMatchObject({ kind: 'unknown' });
    expect(sniffStart(bytes(' <!doctype HTML><p>'))).toMatchObject({ kind: 'markup', mediaType: 'text/html' });
    expect(sniffStart(bytes('<svg viewBox="0 0 1 1">'))).toMatchObject({ kind: 'markup', mediaType: 'image/svg+xml' });
  });

  it('takes text that merely starts like a signature as text', () => {
    expect(sniffStart(bytes('BMW sales by month\n'))).toEqual({ kind: 'text' });
    expect(sniffStart(bytes('MZ Corp, quarterly notes'))).toEqual({ kind: 'text' });
    expect(sniffStart(bytes('Grüße, ', [0xc3]))).toEqual({ kind: 'text' });
  });

  it('types whole text: JSON that parses, tables, the client’s Markdown, else plain', () => {
    expect(textTypeOf(' [1, 2] ', null)).toEqual({ mediaType: 'application/json' });
    expect(textTypeOf('[not json', null)).toEqual({ mediaType: 'text/plain' });
    expect(textTypeOf('{', 'application/json')).toMatchObject({ refused: expect.stringMatching(/^It was sent as JSON but is not valid JSON/) });
    expect(textTypeOf('a;b\n1;2\n', null)).toEqual({ mediaType: 'text/csv' });
    expect(textTypeOf('# Title', 'text/markdown')).toEqual({ mediaType: 'text/markdown' });
    expect(looksLikeCsv('one line, with a comma')).toBe(false);
    expect(looksLikeCsv('"a,b",c\n"d",e')).toBe(true);
  });

  it('says sizes as people read them', () => {
    expect(sizeInWords(20 * 1024 * 1024)).toBe('20 MB');
    expect(sizeInWords(1536)).toBe('1.5 KB');
    expect(sizeInWords(1)).toBe('1 byte');
  });
});
