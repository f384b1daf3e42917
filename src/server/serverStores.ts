import type { IdempotencyStore } from '../runtime/doors/idempotency';
import type { MeterStore } from '../runtime/doors/meter';
import type { Job, JobStore } from '../runtime/jobs';
import { openPostgres } from '../runtime/node/postgres';
import { createPostgresConnectorStore } from '../runtime/node/postgresConnectorStore';
import { createPostgresCoordination } from '../runtime/node/postgresCoordination';
import { createPostgresEventStore } from '../runtime/node/postgresEventStore';
import { createPostgresIdempotencyStore } from '../runtime/node/postgresIdempotencyStore';
import { createPostgresJobStore } from '../runtime/node/postgresJobStore';
import { createPostgresMeterStore } from '../runtime/node/postgresMeterStore';
import { createPostgresSkillStore } from '../runtime/node/postgresSkillStore';
import { createSqliteConnectorStore } from '../runtime/node/sqliteConnectorStore';
import { openWorkspaceDatabase } from '../runtime/node/sqliteDatabase';
import { createSqliteEventStore } from '../runtime/node/sqliteEventStore';
import { createSqliteIdempotencyStore } from '../runtime/node/sqliteIdempotencyStore';
import { createSqliteJobStore } from '../runtime/node/sqliteJobStore';
import { createSqliteMeterStore } from '../runtime/node/sqliteMeterStore';
import { createSqliteSkillStore } from '../runtime/node/sqliteSkillStore';
import { checkpointOffThread } from '../runtime/node/sqliteCheckpoints';
import { sqliteHandle } from '../runtime/node/sqliteHandle';
import type { Coordination } from '../runtime/stores/coordination';
import type { EventStore } from '../runtime/stores/eventStore';
import type { ConnectorStore } from '../runtime/stores/connectorStore';
import type { SkillStore } from '../runtime/stores/skillStore';
import type { CapStore } from '../runtime/stores/capStore';
import { createPostgresCapStore } from '../runtime/node/postgresCapStore';
import { createSqliteCapStore } from '../runtime/node/sqliteCapStore';
import { createFileAttachmentStore } from '../runtime/node/fileAttachmentStore';
import { createPostgresAttachmentStore } from '../runtime/node/postgresAttachmentStore';
import { createMemoryAttachmentStore, type AttachmentStore } from '../runtime/stores/attachmentStore';

/** The server's stores on one database: SQLite (embedded default) or PostgreSQL. */
export interface ServerStores {
  events: EventStore;
  jobs: JobStore & { unfinished(): Promise<Job[]>; settleWaiting(job: Job): Promise<boolean>; waiting(): Promise<Job[]> };
  idempotency: IdempotencyStore;
  meter: MeterStore;
  skills: SkillStore;
  connectors: ConnectorStore;
  /** Caps per space and per client address. */
  caps: CapStore;
  /** Attached files: beside a SQLite file in `attachments/`, in PostgreSQL, or in memory with `':memory:'`. */
  attachments: AttachmentStore;
  /** Several instances on one database (PostgreSQL only). */
  coordination?: Coordination;
  close(): Promise<void>;
}

/** Opens the stores on `database`: a `postgres://` / `postgresql://` URL, else a SQLite file (`':memory:'` included). */
export async function openStores(database: string, schema: string | undefined, instanceOptions: { leaseMs?: number; id?: string } = {}): Promise<ServerStores> {
  if (/^postgres(ql)?:\/\//.test(database)) {
    const db = await openPostgres(database, schema ? { schema } : {});
    let coordination: Coordination;
    try {
      coordination = await createPostgresCoordination(db, instanceOptions);
    } catch (error) {
      await db.close().catch(() => undefined);
      throw error;
    }
    const instance = { id: coordination.instance, leaseMs: coordination.leaseMs };
    return {
      events: createPostgresEventStore(db),
      jobs: createPostgresJobStore(db, { instance }),
      idempotency: createPostgresIdempotencyStore(db, { instance }),
      meter: createPostgresMeterStore(db),
      skills: createPostgresSkillStore(db),
      connectors: createPostgresConnectorStore(db),
      caps: createPostgresCapStore(db),
      attachments: createPostgresAttachmentStore(db),
      coordination,
      async close() {
        await coordination.close();
        await db.close().catch(() => undefined);
      },
    };
  }
  const db = openWorkspaceDatabase(database);
  // The log's checkpoints (a sync of the file) in a worker thread, not in the middle of a request.
  const stopCheckpoints = checkpointOffThread(sqliteHandle(db));
  return {
    events: createSqliteEventStore(db),
    jobs: createSqliteJobStore(db),
    idempotency: createSqliteIdempotencyStore(db),
    meter: createSqliteMeterStore(db),
    skills: createSqliteSkillStore(db),
    connectors: createSqliteConnectorStore(db),
    caps: createSqliteCapStore(db),
    attachments: database === ':memory:' ? createMemoryAttachmentStore() : createFileAttachmentStore(db),
    async close() {
      await stopCheckpoints();
      try {
        db.close();
      } catch {
        // Already closed.
      }
    },
  };
}
