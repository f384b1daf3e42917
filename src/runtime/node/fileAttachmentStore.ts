import { createReadStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { attachmentId, draftType, type AttachmentMeta, type AttachmentStore } from '../stores/attachmentStore';
import type { WorkspaceDatabase } from './sqliteDatabase';
import { checkDatabaseFile } from './sqliteFileGuard';
import { sqliteHandle } from './sqliteHandle';

export interface FileAttachmentStoreOptions {
  /** The folder for the files. @default `attachments/` beside the database file */
  directory?: string;
  now?: () => number;
}

interface Row {
  id: string;
  user_id: string;
  space_id: string;
  thread_id: string;
  name: string;
  media_type: string;
  size: number;
  created_at: number;
}

const metaOf = (row: Row): AttachmentMeta => ({
  id: row.id,
  user: row.user_id,
  space: row.space_id,
  threadId: row.thread_id,
  name: row.name,
  mediaType: row.media_type,
  size: row.size,
  createdAt: row.created_at,
});

/** Ids are the store's own (`att_` and base-36), so a file name never comes from a user. */
const SAFE_ID = /^att_[0-9a-z]{1,40}$/;

/**
 * Attached files on the file system beside the workspace database: the bytes
 * in a folder (one file per id, named by the id alone), what is known of them
 * in the database (`attachments`, created when missing). A body is written to
 * a `.part` file and renamed into place, and its row written, only once it has
 * ended well: a refused or cut upload leaves nothing (and `.part` files a
 * killed process left are removed at start).
 * @example
 * const attachments = createFileAttachmentStore(db);
 */
export function createFileAttachmentStore(database: WorkspaceDatabase, options: FileAttachmentStoreOptions = {}): AttachmentStore {
  if (!options.directory && database.name === ':memory:') throw new Error('createFileAttachmentStore needs a directory with an in-memory database (or use createMemoryAttachmentStore).');
  const directory = options.directory ?? join(dirname(database.name), 'attachments');
  const now = options.now ?? Date.now;
  mkdirSync(directory, { recursive: true });
  for (const name of readdirSync(directory)) if (name.endsWith('.part')) rmSync(join(directory, name), { force: true });
  const db = sqliteHandle(database);
  db.exec(`
    CREATE TABLE IF NOT EXISTS attachments (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL,
      space_id TEXT NOT NULL,
      thread_id TEXT NOT NULL,
      name TEXT NOT NULL,
      media_type TEXT NOT NULL,
      size INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS attachments_by_owner ON attachments (space_id, user_id);
  `);
  const insert = db.prepare('INSERT INTO attachments (id, user_id, space_id, thread_id, name, media_type, size, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const select = db.prepare('SELECT * FROM attachments WHERE id = ? AND user_id = ? AND space_id = ?');
  const remove = db.prepare('DELETE FROM attachments WHERE id = ? AND user_id = ? AND space_id = ?');
  const usage = db.prepare('SELECT count(*) AS files, coalesce(sum(size), 0) AS bytes FROM attachments WHERE space_id = ? AND user_id = ?');
  const pathOf = (id: string) => {
    if (!SAFE_ID.test(id)) throw new Error(`"${id}" is not an attachment id.`);
    return join(directory, id);
  };
  const find = (owner: { user: string; space: string }, id: string) => (SAFE_ID.test(id) ? ((select.get(id, owner.user, owner.space) as Row | undefined) ?? null) : null);

  return {
    async put(draft, body) {
      checkDatabaseFile(db);
      const id = attachmentId();
      const target = pathOf(id);
      const part = `${target}.part`;
      const file = await open(part, 'wx', 0o600);
      let size = 0;
      try {
        for await (const chunk of body) {
          await file.write(chunk);
          size += chunk.byteLength;
        }
        await file.sync();
      } catch (error) {
        await file.close().catch(() => undefined);
        await rm(part, { force: true });
        throw error;
      }
      await file.close();
      await rename(part, target);
      const meta: AttachmentMeta = { id, user: draft.user, space: draft.space, threadId: draft.threadId, name: draft.name, mediaType: draftType(draft), size, createdAt: now() };
      try {
        insert.run(id, meta.user, meta.space, meta.threadId, meta.name, meta.mediaType, size, meta.createdAt);
      } catch (error) {
        await rm(target, { force: true });
        throw error;
      }
      return meta;
    },
    async meta(owner, id) {
      const row = find(owner, id);
      return row ? metaOf(row) : null;
    },
    async get(owner, id) {
      const row = find(owner, id);
      if (!row) return null;
      // A row whose file is gone (removed by hand) reads as no file at all.
      const stream = createReadStream(pathOf(id));
      const opened = await new Promise<boolean>((resolve) => {
        stream.once('open', () => resolve(true));
        stream.once('error', () => resolve(false));
      });
      if (!opened) return null;
      return { meta: metaOf(row), body: stream as AsyncIterable<Uint8Array> };
    },
    async delete(owner, id) {
      if (!find(owner, id)) return false;
      remove.run(id, owner.user, owner.space);
      await rm(pathOf(id), { force: true });
      return true;
    },
    async usage(owner) {
      const row = usage.get(owner.space, owner.user) as { files: number; bytes: number };
      return { files: row.files, bytes: row.bytes };
    },
  };
}
