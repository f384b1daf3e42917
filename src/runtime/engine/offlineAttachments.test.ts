import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../capability';
import { textResult } from '../results';
import type { AttachmentRef } from '../events/messages';
import type { DriverChunk, ModelMessage } from '../model';
import { createOfflineDriver } from '../offlineDriver';
import { createRegistry } from '../registry';

/** The offline model and attached files: "import this" with a CSV proposes the import on it; other files are named. */

const capabilities = createRegistry([
  defineCapability({
    name: 'records.import_csv',
    title: 'Import CSV',
    description: 'Imports a CSV file from the data folder into the records.',
    examples: ['import customers.csv', 'bring in the spreadsheet', 'load a CSV file'],
    input: z.object({ file: z.string().regex(/^[\w.-]+\.csv$/).describe('A CSV file, e.g. customers.csv.') }),
    handler: () => textResult('imported'),
  }),
  defineCapability({ name: 'records.list', title: 'List records', description: 'Lists records.', input: z.object({}), handler: () => textResult('none') }),
]).describe();

const csv: AttachmentRef = { id: 'att_csv0000001', name: 'leads.csv', media_type: 'text/csv', size: 120 };
const png: AttachmentRef = { id: 'att_png0000001', name: 'chart.png', media_type: 'image/png', size: 2000 };

async function respond(text: string, attachments: AttachmentRef[]): Promise<DriverChunk[]> {
  const messages: ModelMessage[] = [{ role: 'user', text, attachments }];
  const chunks: DriverChunk[] = [];
  for await (const chunk of createOfflineDriver({ delayMs: 0 }).respond({ messages, capabilities, signal: new AbortController().signal })) chunks.push(chunk);
  return chunks;
}
const said = (chunks: DriverChunk[]) => chunks.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('');

describe('the offline model with attached files', () => {
  it('“import this” with a CSV attached proposes the registered import on that file', async () => {
    expect(await respond('import this', [png, csv])).toEqual([
      { type: 'propose', capability: 'records.import_csv', args: { file: 'leads.csv' }, reason: 'Import CSV on the file you attached, leads.csv.' },
    ]);
    expect((await respond('please load the attached file', [csv]))[0]).toMatchObject({ type: 'propose', args: { file: 'leads.csv' } });
  });

  it('acknowledges other files by name, then answers the words', async () => {
    const chunks = await respond('what is in this?', [png]);
    expect(said(chunks)).toMatch(/^I see you attached “chart.png”\. The offline model cannot look inside files, so I can only go by your words\.\n\n/);
    expect(said(await respond('import this', [png]))).toMatch(/^I see you attached “chart.png”/);
  });

  it('a message without files is read as before', async () => {
    expect(said(await respond('hello', []))).toMatch(/^Hello!/);
  });
});
