import { afterEach, describe, expect, it } from 'vitest';
import type { AttachmentRef } from '../events/messages';
import type { ModelMessage, ModelRequest } from '../model';
import { startFakeAnthropic, validateMessagesRequest, type FakeAnthropic } from '../node/fakeAnthropic';
import { readAttachments, toBase64 } from './attachments';
import { createAnthropicDriver } from './driver';
import { buildAnthropicRequest, estimateTokens } from './request';

/** A 2×1 PNG, a one-page PDF and a CSV, as an attachment store would give them. */
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwnwEIGAAY+AL/8cdYWwAAAABJRU5ErkJggg==', 'base64'));
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const CSV = new TextEncoder().encode('name,total\nann,3\nbob,4\n');
const files: AttachmentRef[] = [
  { id: 'att_png0000001', name: 'chart.png', media_type: 'image/png', size: PNG.byteLength },
  { id: 'att_pdf0000001', name: 'report.pdf', media_type: 'application/pdf', size: PDF.byteLength },
  { id: 'att_csv0000001', name: 'sales.csv', media_type: 'text/csv', size: CSV.byteLength },
];
const bytes: Record<string, Uint8Array> = { att_png0000001: PNG, att_pdf0000001: PDF, att_csv0000001: CSV };
const reader = async (file: AttachmentRef) => bytes[file.id] ?? null;
const signal = new AbortController().signal;
const messages: ModelMessage[] = [{ role: 'user', text: 'What do these say?', attachments: files }];
const request = (m: readonly ModelMessage[] = messages): ModelRequest => ({ messages: m, capabilities: [], signal });

describe('a user message’s files in the request', () => {
  it('go as an image block and document blocks, before the words, with citations when they are on', async () => {
    const read = await readAttachments(messages, reader, signal);
    const { body } = buildAnthropicRequest(request(), { attachments: read, citations: true });
    const content = body.messages.at(-1)!.content;
    expect(content.slice(1)).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: toBase64(PNG) } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: toBase64(PDF) }, title: 'report.pdf', citations: { enabled: true } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'name,total\nann,3\nbob,4\n' }, title: 'sales.csv', context: 'A text/csv file the user attached.', citations: { enabled: true } },
      { type: 'text', text: 'What do these say?' },
    ]);
    expect(validateMessagesRequest(body)).toBeNull();
    const plain = buildAnthropicRequest(request(), { attachments: read }).body.messages.at(-1)!.content;
    expect(plain.filter((b) => b.type === 'document').every((b) => !('citations' in b))).toBe(true);
  });

  it('a file that is gone, or with no reader, goes as a note naming it; the request stays valid', async () => {
    const gone = await readAttachments(messages, async () => null, signal);
    const content = buildAnthropicRequest(request(), { attachments: gone }).body.messages.at(-1)!.content;
    expect(content[1]).toEqual({ type: 'text', text: `[The user attached "chart.png" (image/png, ${PNG.byteLength} bytes), which has since been removed.]` });
    const none = buildAnthropicRequest(request(), {}).body;
    expect(none.messages.at(-1)!.content[3]).toEqual({ type: 'text', text: `[The user attached "sales.csv" (text/csv, ${CSV.byteLength} bytes); its content is not in this request.]` });
    expect(validateMessagesRequest(none)).toBeNull();
  });

  it('an image over the API’s 5 MB is not read and goes as a note; a kind the API does not take, too', async () => {
    const big: AttachmentRef = { id: 'att_big0000001', name: 'huge.png', media_type: 'image/png', size: 6_000_000 };
    const svg: AttachmentRef = { id: 'att_svg0000001', name: 'logo.svg', media_type: 'image/svg+xml', size: 300 };
    const asked: string[] = [];
    const read = await readAttachments([{ role: 'user', text: 'look', attachments: [big, svg] }], async (f) => (asked.push(f.id), null), signal);
    expect(asked).toEqual([]);
    const content = buildAnthropicRequest(request([{ role: 'user', text: 'look', attachments: [big, svg] }]), { attachments: read }).body.messages.at(-1)!.content;
    expect(content.slice(1, 3)).toEqual([
      { type: 'text', text: '[The user attached the image "huge.png" (image/png, 6000000 bytes), which is larger than the 5 MB the model takes; it was not sent.]' },
      { type: 'text', text: '[The user attached "logo.svg" (image/svg+xml, 300 bytes), a kind of file that cannot be shown to the model.]' },
    ]);
  });

  it('counts an image as the tokens it costs, not its base64', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(4_000_000) } };
    expect(estimateTokens(image)).toBeLessThan(2_000);
    expect(estimateTokens({ type: 'text', text: 'abcd' })).toBe(estimateTokens({ type: 'text', text: 'abcd' }));
  });
});

describe('against the fake Messages API', () => {
  let fake: FakeAnthropic | null = null;
  afterEach(async () => {
    await fake?.close();
    fake = null;
  });

  it('an image, a PDF and a CSV reach the request as the API’s blocks, read through the turn’s reader', async () => {
    fake = await startFakeAnthropic({ reply: () => ({ text: 'A chart, a report and a table.' }) });
    const driver = createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url, retryDelayMs: 1, citations: true });
    let text = '';
    for await (const chunk of driver.respond({ ...request(), readAttachment: reader })) if (chunk.type === 'text') text += chunk.text;
    expect(text).toBe('A chart, a report and a table.');
    const sent = fake.requests[0]!;
    expect(sent.status).toBe(200);
    const content = (sent.body.messages as { content: { type: string; source?: { type: string; media_type: string } }[] }[]).at(-1)!.content;
    expect(content.map((b) => [b.type, b.source?.type, b.source?.media_type])).toEqual([
      ['text', undefined, undefined],
      ['image', 'base64', 'image/png'],
      ['document', 'base64', 'application/pdf'],
      ['document', 'text', 'text/plain'],
      ['text', undefined, undefined],
    ]);
  });

  it('the driver’s own reader serves a host without the workspace server', async () => {
    fake = await startFakeAnthropic({ reply: () => ({ text: 'ok' }) });
    const driver = createAnthropicDriver({ apiKey: fake.apiKey, baseURL: fake.url, retryDelayMs: 1, readAttachment: reader });
    for await (const _ of driver.respond(request([{ role: 'user', text: 'look', attachments: [files[0]!] }]))) void _;
    expect(JSON.stringify(fake.requests[0]!.body)).toContain(toBase64(PNG));
    expect(fake.requests[0]!.status).toBe(200);
  });
});
