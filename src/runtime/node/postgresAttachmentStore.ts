import { attachmentId, draftType, type AttachmentMeta, type AttachmentStore } from '../stores/attachmentStore';
import { DB_NOW_MS, epochMs, type PostgresDatabase } from './postgres';

/** Bytes per stored chunk: one statement each way, so a read never holds a whole file. */
const CHUNK_BYTES = 256 * 1024;

/** A file whose upload began this long ago and never ended belongs to a process that died: swept. */
const ABANDONED_MS = 60 * 60 * 1000;

interface Row {
  id: string;
  user_id: string;
  space_id: string;
  thread_id: string;
  name: string;
  media_type: string;
  size: string;
  created_at: string;
}

const metaOf = (row: Row): AttachmentMeta => ({
  id: row.id,
  user: row.user_id,
  space: row.space_id,
  threadId: row.thread_id,
  name: row.name,
  mediaType: row.media_type,
  size: Number(row.size),
  createdAt: Number(row.created_at),
});

/**
 * Attached files in PostgreSQL, shared by every instance on the database:
 * what is known of a file in `attachments`, its bytes as `bytea` chunks of
 * 256 KiB in `attachment_chunks` (both created when missing).
 *
 * `bytea` chunks rather than large objects: they live in the deployment's
 * schema and go with their row (`ON DELETE CASCADE`), where large objects sit
 * in the database-wide `pg_largeobject` and are left behind unless unlinked;
 * and node-postgres reads and writes them with plain statements, one chunk
 * at a time, with no extra package. A file is written chunk by chunk as it
 * arrives, without holding a pooled connection for the whole upload: its row
 * is marked `ready` only once the body has ended well (before that no read
 * sees it), a refused body's chunks are deleted at once, and one abandoned
 * by a dead process is swept after an hour.
 * @example
 * const attachments = createPostgresAttachmentStore(db);
 */
export function createPostgresAttachmentStore(db: PostgresDatabase, options: { now?: () => number } = {}): AttachmentStore {
  const now = options.now ?? Date.now;
  let table: Promise<void> | null = null;
  const ready = () =>
    (table ??= db
      .transaction(async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.attachments'))");
        await client.query(`
          CREATE TABLE IF NOT EXISTS attachments (
            id text PRIMARY KEY,
            user_id text NOT NULL,
            space_id text NOT NULL,
            thread_id text NOT NULL,
            name text NOT NULL,
            media_type text NOT NULL,
            size bigint NOT NULL,
            created_at bigint NOT NULL,
            ready boolean NOT NULL DEFAULT false
          );
          CREATE INDEX IF NOT EXISTS attachments_by_owner ON attachments (space_id, user_id) WHERE ready;
          CREATE TABLE IF NOT EXISTS attachment_chunks (
            id text NOT NULL REFERENCES attachments (id) ON DELETE CASCADE,
            n integer NOT NULL,
            data bytea NOT NULL,
            PRIMARY KEY (id, n)
          );
        `);
        await client.query(`DELETE FROM attachments WHERE NOT ready AND created_at < ${DB_NOW_MS} - $1`, [ABANDONED_MS]);
      })
      .catch((error: unknown) => {
        table = null;
        throw error;
      }));
  const find = async (owner: { user: string; space: string }, id: string) => {
    await ready();
    const { rows } = await db.query<Row>('SELECT * FROM attachments WHERE id = $1 AND user_id = $2 AND space_id = $3 AND ready', [id, owner.user, owner.space]);
    return rows[0] ?? null;
  };

  return {
    async put(draft, body) {
      await ready();
      const id = attachmentId();
      const createdAt = now();
      await db.query('INSERT INTO attachments (id, user_id, space_id, thread_id, name, media_type, size, created_at) VALUES ($1, $2, $3, $4, $5, $6, 0, $7)', [
        id,
        draft.user,
        draft.space,
        draft.threadId,
        draft.name,
        '',
        epochMs(createdAt),
      ]);
      let size = 0;
      let n = 0;
      let pending: Uint8Array[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (!pendingBytes) return;
        const data = Buffer.concat(pending);
        pending = [];
        pendingBytes = 0;
        await db.query('INSERT INTO attachment_chunks (id, n, data) VALUES ($1, $2, $3)', [id, n++, data]);
      };
      try {
        for await (const chunk of body) {
          pending.push(chunk);
          pendingBytes += chunk.byteLength;
          size += chunk.byteLength;
          if (pendingBytes >= CHUNK_BYTES) await flush();
        }
        await flush();
        const mediaType = draftType(draft);
        await db.query('UPDATE attachments SET ready = true, size = $2, media_type = $3 WHERE id = $1', [id, size, mediaType]);
        return { id, user: draft.user, space: draft.space, threadId: draft.threadId, name: draft.name, mediaType, size, createdAt };
      } catch (error) {
        await db.query('DELETE FROM attachments WHERE id = $1', [id]).catch(() => undefined);
        throw error;
      }
    },
    async meta(owner, id) {
      const row = await find(owner, id);
      return row ? metaOf(row) : null;
    },
    async get(owner, id) {
      const row = await find(owner, id);
      if (!row) return null;
      async function* chunks(): AsyncIterable<Uint8Array> {
        for (let n = 0; ; n++) {
          const { rows } = await db.query<{ data: Buffer }>('SELECT data FROM attachment_chunks WHERE id = $1 AND n = $2', [id, n]);
          if (!rows[0]) return;
          yield new Uint8Array(rows[0].data.buffer, rows[0].data.byteOffset, rows[0].data.byteLength);
        }
      }
      return { meta: metaOf(row), body: chunks() };
    },
    async delete(owner, id) {
      await ready();
      const { rowCount } = await db.query('DELETE FROM attachments WHERE id = $1 AND user_id = $2 AND space_id = $3 AND ready', [id, owner.user, owner.space]);
      return (rowCount ?? 0) > 0;
    },
    async usage(owner) {
      await ready();
      const { rows } = await db.query<{ files: number; bytes: string }>(
        'SELECT count(*)::integer AS files, coalesce(sum(size), 0)::bigint AS bytes FROM attachments WHERE space_id = $1 AND user_id = $2 AND ready',
        [owner.space, owner.user],
      );
      return { files: rows[0]!.files, bytes: Number(rows[0]!.bytes) };
    },
  };
}
