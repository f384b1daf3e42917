import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryAttachmentStore } from '../../src/runtime/stores/attachmentStore';
import { threadKey } from '../../src/runtime/stores/threadRef';
import { attachedCsv } from './attachedCsv';

const dir = mkdtempSync(join(tmpdir(), 'attached-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const body = (text: string) =>
  (async function* () {
    yield new TextEncoder().encode(text);
  })();

describe('attachedCsv (the demo hands an attached CSV to the import script)', () => {
  const ada = { user: 'ada', space: 'default' };
  const request = (thread: string, user: string | null) => new Request(`http://demo.test/v1/threads/${thread}/decisions`, { headers: user ? { 'x-user': user } : {} });
  const uploads = attachedCsv(createMemoryAttachmentStore(), join(dir, 'uploads'), (r) => {
    const user = r.headers.get('x-user');
    return user ? { user } : null;
  });

  it("keeps a CSV a user attaches where the import reads it, for that user's thread only", async () => {
    const meta = await uploads.store.put({ ...ada, threadId: 'main', name: 'customers.csv', mediaType: 'text/csv' }, body('name,email\nAda,ada@x.example\n'));
    const folder = uploads.folderFor(threadKey({ ...ada, id: 'main' }), 'customers.csv');
    expect(folder).toBe(join(dir, 'uploads', meta.id));
    expect(readFileSync(join(folder!, 'customers.csv'), 'utf8')).toBe('name,email\nAda,ada@x.example\n');
    // Another thread, another user, another name: the data folder's file.
    expect(uploads.folderFor(threadKey({ ...ada, id: 'other' }), 'customers.csv')).toBeNull();
    expect(uploads.folderFor(threadKey({ user: 'bob', space: 'default', id: 'main' }), 'customers.csv')).toBeNull();
    expect(uploads.folderFor(threadKey({ ...ada, id: 'main' }), 'leads.csv')).toBeNull();
    // The postcondition's row count finds it through the request being served.
    expect(await uploads.serve(request('main', 'ada'), () => uploads.folderForRequest('customers.csv'))).toBe(folder);
    expect(await uploads.serve(request('main', 'bob'), () => uploads.folderForRequest('customers.csv'))).toBeNull();
    expect(await uploads.folderForRequest('customers.csv')).toBeNull();
    // Removed: gone from where the import reads.
    await uploads.store.delete(ada, meta.id);
    expect(existsSync(folder!)).toBe(false);
    expect(uploads.folderFor(threadKey({ ...ada, id: 'main' }), 'customers.csv')).toBeNull();
  });

  it('keeps nothing extra for other files, or a CSV name the import would not take', async () => {
    await uploads.store.put({ ...ada, threadId: 'main', name: 'notes.txt', mediaType: 'text/plain' }, body('hello'));
    await uploads.store.put({ ...ada, threadId: 'main', name: '../evil.csv', mediaType: 'text/csv' }, body('a\n1\n'));
    expect(uploads.folderFor(threadKey({ ...ada, id: 'main' }), 'notes.txt')).toBeNull();
    expect(uploads.folderFor(threadKey({ ...ada, id: 'main' }), '../evil.csv')).toBeNull();
  });
});
