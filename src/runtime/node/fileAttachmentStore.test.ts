import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { attachmentStoreSuite } from '../stores/attachmentStore.suite';
import { readAll } from '../stores/attachmentStore';
import { createFileAttachmentStore } from './fileAttachmentStore';
import { openWorkspaceDatabase } from './sqliteDatabase';

const dir = mkdtempSync(join(tmpdir(), 'chatsurface-attachments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

attachmentStoreSuite('file system + SQLite', () => createFileAttachmentStore(openWorkspaceDatabase(join(dir, `s${++n}`, 'workspace.db'))));

const ann = { user: 'ann', space: 'acme' };
async function* body(text: string) {
  yield new TextEncoder().encode(text);
}

it('keeps the files in attachments/ beside the database, and across a reopened file (a restarted server)', async () => {
  const path = join(dir, 'restart', 'workspace.db');
  const db = openWorkspaceDatabase(path);
  const meta = await createFileAttachmentStore(db).put({ ...ann, threadId: 'main', name: 'a.txt', mediaType: 'text/plain' }, body('kept'));
  expect(existsSync(join(dir, 'restart', 'attachments', meta.id))).toBe(true);
  db.close();
  const again = createFileAttachmentStore(openWorkspaceDatabase(path));
  expect(new TextDecoder().decode(await readAll((await again.get(ann, meta.id))!.body))).toBe('kept');
});

it('leaves no part file behind a failed body, and removes those a killed process left', async () => {
  const folder = join(dir, 'parts');
  const store = createFileAttachmentStore(openWorkspaceDatabase(join(folder, 'workspace.db')));
  async function* failing() {
    yield new Uint8Array(10);
    throw new Error('cut');
  }
  await expect(store.put({ ...ann, threadId: 'main', name: 'x', mediaType: 'text/plain' }, failing())).rejects.toThrow('cut');
  expect(readdirSync(join(folder, 'attachments'))).toEqual([]);
  writeFileSync(join(folder, 'attachments', 'att_leftover.part'), 'half');
  createFileAttachmentStore(openWorkspaceDatabase(join(folder, 'workspace.db')));
  expect(readdirSync(join(folder, 'attachments'))).toEqual([]);
});

it('an id that is not the store’s own never reaches the file system', async () => {
  const store = createFileAttachmentStore(openWorkspaceDatabase(join(dir, 'ids', 'workspace.db')));
  expect(await store.get(ann, '../workspace.db')).toBeNull();
  expect(await store.delete(ann, '../workspace.db')).toBe(false);
});
