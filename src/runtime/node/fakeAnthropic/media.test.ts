import { describe, expect, it } from 'vitest';
import { validateMessagesRequest } from './validate';

/** The fake refuses images and documents as the Messages API does. */

const PNG = (width: number, height: number) => {
  const bytes = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwnwEIGAAY+AL/8cdYWwAAAABJRU5ErkJggg==', 'base64');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString('base64');
};
const PDF = Buffer.from('%PDF-1.4\n3 0 obj << /Type /Page >> endobj\n%%EOF').toString('base64');
const body = (...blocks: unknown[]) => ({ model: 'claude-sonnet-5-5', max_tokens: 100, messages: [{ role: 'user', content: [...blocks, { type: 'text', text: 'What is this?' }] }] });
const problem = (...blocks: unknown[]) => validateMessagesRequest(body(...blocks))?.message ?? null;
const image = (media_type: string, data: string) => ({ type: 'image', source: { type: 'base64', media_type, data } });

describe('images, as the API checks them', () => {
  it('takes PNG, JPEG, GIF and WebP in base64, by URL or by file id', () => {
    expect(problem(image('image/png', PNG(2, 1)))).toBeNull();
    expect(problem({ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } })).toBeNull();
    expect(problem({ type: 'image', source: { type: 'file', file_id: 'file_1' } })).toBeNull();
  });

  it('refuses another media type, bad base64, a type its bytes belie, bytes that are no image', () => {
    expect(problem(image('image/svg+xml', PNG(2, 1)))).toBe("messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'");
    expect(problem(image('image/png', 'not base64!'))).toBe('messages.0.content.0.image.source.base64.data: Invalid base64 data');
    expect(problem(image('image/jpeg', PNG(2, 1)))).toBe('messages.0.content.0.image.source.base64.data: The image was specified using the image/jpeg media type, but the image appears to be a image/png image');
    expect(problem(image('image/png', Buffer.from('hello there').toString('base64')))).toBe('messages.0.content.0.image.source.base64.data: Could not process image');
    expect(problem({ type: 'image', source: { type: 'text', data: 'x' } })).toMatch(/^messages.0.content.0.image.source: Input tag 'text'/);
  });

  it('refuses an image over 5 MB or 8000 px, and over 2000 px in a request of more than 20 images', () => {
    expect(problem(image('image/png', 'A'.repeat(5 * 1024 * 1024 + 4)))).toBe(`messages.0.content.0.image.source.base64: image exceeds 5 MB maximum: ${5 * 1024 * 1024 + 4} bytes > 5242880 bytes`);
    expect(problem(image('image/png', PNG(8001, 10)))).toBe('messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels');
    const many = Array.from({ length: 21 }, () => image('image/png', PNG(2001, 10)));
    expect(problem(...many)).toBe('messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels');
    expect(problem(...Array.from({ length: 101 }, () => image('image/png', PNG(2, 1))))).toMatch(/^messages: Too many images: 101/);
  });
});

describe('documents, as the API checks them', () => {
  it('takes the four source forms: a PDF in base64, plain text, content, a URL', () => {
    expect(problem({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'a.pdf' })).toBeNull();
    expect(problem({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'a,b\n1,2' } })).toBeNull();
    expect(problem({ type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'one' }] } })).toBeNull();
    expect(problem({ type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } })).toBeNull();
  });

  it('refuses a base64 source that is not a PDF, a text source that is not text/plain, an empty one, a bad title', () => {
    expect(problem({ type: 'document', source: { type: 'base64', media_type: 'text/csv', data: PDF } })).toBe("messages.0.content.0.document.source.base64.media_type: Input should be 'application/pdf'");
    expect(problem({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from('not a pdf').toString('base64') } })).toBe('The PDF specified was not valid.');
    expect(problem({ type: 'document', source: { type: 'text', media_type: 'text/csv', data: 'a,b' } })).toBe("messages.0.content.0.document.source.text.media_type: Input should be 'text/plain'");
    expect(problem({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: '  ' } })).toBe('messages.0.content.0.document.source.text.data: text document must be non-empty');
    expect(problem({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' }, title: 3 })).toBe('messages.0.content.0.document.title: Input should be a valid string');
    expect(problem({ type: 'document', source: { type: 'content', content: [{ type: 'document' }] } })).toMatch(/^messages.0.content.0.document.source.content.content.0: Input tag 'document'/);
  });

  it('refuses more than 100 PDF pages in a request', () => {
    const pages = Buffer.from(`%PDF-1.4\n${'<< /Type /Page >>\n'.repeat(60)}`).toString('base64');
    const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pages } };
    expect(problem(pdf)).toBeNull();
    expect(problem(pdf, pdf)).toBe('A maximum of 100 PDF pages may be provided.');
  });
});
